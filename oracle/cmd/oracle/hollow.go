package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	clientset "k8s.io/client-go/kubernetes"
	v1core "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	remote "k8s.io/cri-client/pkg"
	fakeremote "k8s.io/cri-client/pkg/fake"
	"k8s.io/klog/v2"
	cadvisortest "k8s.io/kubernetes/pkg/kubelet/cadvisor/testing"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	"k8s.io/kubernetes/pkg/kubemark"
)

// runHollowNode runs kubemark's hollow kubelet (the real kubelet code with a fake CRI runtime,
// fake cAdvisor and stub container manager), as cmd/kubemark's "kubelet" morph does, with one
// change: kubemark gives its kubelet a FakeRecorder, so it sends no events; here the kubelet
// builds its real event recorder and sends its events to the API server, as a real node does.
func runHollowNode(args []string) int {
	fs := flag.NewFlagSet("hollow-node", flag.ContinueOnError)
	name := fs.String("name", "node-1", "node name")
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig of system:node:<name>")
	port := fs.Int("kubelet-port", 10250, "kubelet server port")
	maxPods := fs.Int("max-pods", 110, "pods the node accepts")
	klog.InitFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hollow-node:", err)
		return 1
	}
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cfg.UserAgent = "kubelet/v1.37.2 (linux/amd64) hollow-node"
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()

	f, c := kubemark.GetHollowKubeletConfig(&kubemark.HollowKubeletOptions{NodeName: *name, KubeletPort: *port, KubeletReadOnlyPort: 0, MaxPods: *maxPods, NodeLabels: map[string]string{}})
	// A cluster DNS address, as every real cluster configures (kubemark leaves it empty, and its
	// kubelet then warns MissingClusterDNS on every pod).
	c.ClusterDNS = []string{"10.96.0.10"}
	client, err := clientset.NewForConfig(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hollow-node:", err)
		return 1
	}
	hb := *cfg
	hb.Timeout = c.NodeStatusUpdateFrequency.Duration
	if lease := time.Duration(c.NodeLeaseDurationSeconds) * time.Second; hb.Timeout > lease {
		hb.Timeout = lease
	}
	hb.QPS = -1
	heartbeat, err := clientset.NewForConfig(&hb)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hollow-node:", err)
		return 1
	}
	ev := *cfg
	ev.QPS = float32(c.EventRecordQPS)
	ev.Burst = int(c.EventBurst)
	events, err := v1core.NewForConfig(&ev)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hollow-node:", err)
		return 1
	}
	endpoint, err := fakeremote.GenerateEndpoint()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hollow-node:", err)
		return 1
	}
	fakeRuntime := fakeremote.NewFakeRemoteRuntime()
	if err := fakeRuntime.Start(endpoint); err != nil {
		fmt.Fprintln(os.Stderr, "hollow-node:", err)
		return 1
	}
	defer fakeRuntime.Stop()
	runtime, err := remote.NewRemoteRuntimeServiceBuilder().WithEndpoint(endpoint).WithConnectionTimeout(15 * time.Second).Build(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hollow-node:", err)
		return 1
	}
	hk := kubemark.NewHollowKubelet(f, c, client, heartbeat, &cadvisortest.Fake{NodeName: *name}, fakeRuntime.ImageService, runtime, cm.NewStubContainerManager())
	hk.KubeletDeps.Recorder = nil
	hk.KubeletDeps.EventClient = events
	hk.Run(ctx)
	return 0
}
