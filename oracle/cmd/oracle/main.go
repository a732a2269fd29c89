// Command oracle is one binary holding the real Kubernetes v1.37 components, picked by the first
// argument: etcd (embedded etcd 3.7), kube-apiserver, kube-controller-manager, kube-scheduler,
// hollow-node (kubemark's hollow kubelet: the real kubelet against a fake CRI runtime, sending its
// events), kubemark (kubemark's own hollow-node command, unchanged), kubectl,
// and certs (self-signed PKI for a loopback cluster). scripts/oracle/ starts each as a process.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	"k8s.io/component-base/logs"
	kubectlcmd "k8s.io/kubectl/pkg/cmd"
	kubectlutil "k8s.io/kubectl/pkg/cmd/util"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
	kubemark "k8s.io/kubernetes/cmd/kubemark/app"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: oracle etcd|kube-apiserver|kube-controller-manager|kube-scheduler|hollow-node|kubemark|kubectl|certs [flags]")
		os.Exit(2)
	}
	name, args := os.Args[1], os.Args[2:]
	// Each component parses os.Args itself; make it look like the component's own binary.
	os.Args = append([]string{name}, args...)
	var command *cobra.Command
	switch name {
	case "etcd":
		os.Exit(runEtcd(args))
	case "certs":
		os.Exit(runCerts(args))
	case "hollow-node":
		os.Exit(runHollowNode(args))
	case "kubemark":
		command = kubemark.NewHollowNodeCommand()
	case "kubectl":
		logs.GlogSetter(kubectlcmd.GetLogVerbosity(os.Args)) // nolint:errcheck
		command = kubectlcmd.NewDefaultKubectlCommand()
		if err := cli.RunNoErrOutput(command); err != nil {
			kubectlutil.CheckErr(err)
		}
		os.Exit(0)
	case "kube-apiserver":
		command = apiserver.NewAPIServerCommand()
	case "kube-controller-manager":
		command = controllermanager.NewControllerManagerCommand()
	case "kube-scheduler":
		command = scheduler.NewSchedulerCommand()
	default:
		fmt.Fprintf(os.Stderr, "oracle: unknown component %q\n", name)
		os.Exit(2)
	}
	command.SetArgs(args)
	os.Exit(cli.Run(command))
}
