//go:build proxyrules

// Command proxyrules runs the real kube-proxy v1.37.2 proxiers (pkg/proxy/iptables and
// pkg/proxy/nftables) over the fake iptables and nftables that Kubernetes' own proxier tests use
// (pkg/util/iptables/testing.NewFake, sigs.k8s.io/knftables.NewFake), one proxier pair per node,
// and prints what each wrote. It stands in for running kube-proxy in a network namespace, which
// these machines cannot make (issue 27, item 7).
//
// Input (stdin, JSON): each node's name, IP, Services and EndpointSlices; the cluster CIDR and service CIDR.
// Output (stdout, JSON): per node, `iptables-save` of the nat and filter tables as the fake holds
// them after one full sync, the iptables-restore input, and the fake nftables' Dump() of the
// table `ip kube-proxy` (the transaction that recreates it).
//
// The two proxier packages are not imported from k8s.io/kubernetes but built again, unchanged, as
// ./upstream/iptables and ./upstream/nftables: a `go build -overlay` maps each of their non-test
// files from the module cache (k8s.io/kubernetes@v1.37.2/pkg/proxy/{iptables,nftables}) to that
// path and adds overlay/<pkg>_oracle.go.txt beside them, a copy of the package's NewFakeProxier
// (which lives in a _test.go file and sets unexported fields, so only code inside the package can
// build it). Go refuses an overlay that adds files beneath the module cache itself, hence the copy
// by path. The directory ./upstream does not exist on disk; scripts/oracle/record-proxy.ts writes
// the overlay and builds with -tags proxyrules (without the tag, `go build ./...` skips this command).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/desired-state/oracle/cmd/proxyrules/upstream/iptables"
	"github.com/desired-state/oracle/cmd/proxyrules/upstream/nftables"
	v1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	utiliptables "k8s.io/kubernetes/pkg/util/iptables"
	iptablestest "k8s.io/kubernetes/pkg/util/iptables/testing"
)

// node is one node's kube-proxy: its name and InternalIP, and the Services and EndpointSlices its
// informers held at the checkpoint (nodes may lag one another by a sync).
type node struct {
	Name           string                     `json:"name"`
	IP             string                     `json:"ip"`
	Services       []*v1.Service              `json:"services"`
	EndpointSlices []*discovery.EndpointSlice `json:"endpointSlices"`
}

type input struct {
	Nodes        []node `json:"nodes"`
	ClusterCIDR  string `json:"clusterCIDR"`
	ServiceCIDRs string `json:"serviceCIDRs"`
}

type dump struct {
	IPTablesSaveNat    string `json:"iptablesSaveNat"`
	IPTablesSaveFilter string `json:"iptablesSaveFilter"`
	IPTablesRestore    string `json:"iptablesRestore"`
	NFTablesDump       string `json:"nftablesDump"`
}

// iptablesRules feeds one node's iptables proxier as the tests do (makeServiceMap,
// populateEndpointSlices, syncProxyRules) and reads the fake's tables back.
func iptablesRules(in *input, n node) (nat, filter, restore string, err error) {
	ipt := iptablestest.NewFake()
	fp := iptables.NewOracleProxier(ipt, n.Name, n.IP, in.ClusterCIDR)
	for _, svc := range n.Services {
		fp.OnServiceAdd(svc)
	}
	fp.OracleMarkServicesSynced()
	for _, eps := range n.EndpointSlices {
		fp.OnEndpointSliceAdd(eps)
	}
	fp.OracleSyncProxyRules()
	var natBuf, filterBuf bytes.Buffer
	if err = ipt.SaveInto(utiliptables.TableNAT, &natBuf); err != nil {
		return
	}
	if err = ipt.SaveInto(utiliptables.TableFilter, &filterBuf); err != nil {
		return
	}
	return natBuf.String(), filterBuf.String(), fp.OracleRestoreInput(), nil
}

// nftablesRules does the same with the nftables proxier and the knftables fake.
func nftablesRules(in *input, n node) string {
	nft, fp := nftables.NewOracleProxier(n.Name, n.IP, in.ClusterCIDR, in.ServiceCIDRs)
	for _, svc := range n.Services {
		fp.OnServiceAdd(svc)
	}
	fp.OracleMarkServicesSynced()
	for _, eps := range n.EndpointSlices {
		fp.OnEndpointSliceAdd(eps)
	}
	fp.OracleSyncProxyRules()
	return nft.Dump()
}

func run() error {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		return fmt.Errorf("reading input: %w", err)
	}
	out := map[string]dump{}
	for _, n := range in.Nodes {
		nat, filter, restore, err := iptablesRules(&in, n)
		if err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
		out[n.Name] = dump{IPTablesSaveNat: nat, IPTablesSaveFilter: filter, IPTablesRestore: restore, NFTablesDump: nftablesRules(&in, n)}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "proxyrules:", err)
		os.Exit(1)
	}
}
