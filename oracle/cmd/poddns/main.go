//go:build poddns

// Command poddns runs the real kubelet v1.37.2's DNS configurer (pkg/kubelet/network/dns,
// Configurer.GetPodDNS) for each pod it is given and prints the DNS config the kubelet hands the
// runtime (servers, searches, options), which containerd writes as the pod's /etc/resolv.conf.
// scripts/oracle/record-dns.ts builds it with -tags poddns (without the tag, `go build ./...`
// skips it) and src/sim/net/real-dns.test.ts compares the simulator's podResolvConf with it.
//
// Input (stdin, JSON): the kubelet's clusterDNS and clusterDomain (kubeadm's), the node's
// resolv.conf text (its --resolv-conf) and the pods. Output (stdout, JSON): per pod, its config.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/kubelet/network/dns"
)

type input struct {
	ClusterDNS     []string  `json:"clusterDNS"`
	ClusterDomain  string    `json:"clusterDomain"`
	HostResolvConf string    `json:"hostResolvConf"`
	NodeIP         string    `json:"nodeIP"`
	Pods           []*v1.Pod `json:"pods"`
}

type config struct {
	Pod      string   `json:"pod"`
	Servers  []string `json:"servers"`
	Searches []string `json:"searches"`
	Options  []string `json:"options"`
}

func run() error {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		return fmt.Errorf("reading input: %w", err)
	}
	dir, err := os.MkdirTemp("", "poddns-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	resolvConf := filepath.Join(dir, "resolv.conf")
	if err := os.WriteFile(resolvConf, []byte(in.HostResolvConf), 0o644); err != nil {
		return err
	}
	var clusterDNS []net.IP
	for _, ip := range in.ClusterDNS {
		clusterDNS = append(clusterDNS, net.ParseIP(ip))
	}
	c := dns.NewConfigurer(record.NewFakeRecorder(100), &v1.ObjectReference{Kind: "Node", Name: "node"}, []net.IP{net.ParseIP(in.NodeIP)}, clusterDNS, in.ClusterDomain, resolvConf)
	out := []config{}
	for _, pod := range in.Pods {
		cfg, err := c.GetPodDNS(context.Background(), pod)
		if err != nil {
			return fmt.Errorf("pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
		out = append(out, config{Pod: pod.Namespace + "/" + pod.Name, Servers: nonNil(cfg.Servers), Searches: nonNil(cfg.Searches), Options: nonNil(cfg.Options)})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "poddns:", err)
		os.Exit(1)
	}
}
