// Command dns runs CoreDNS v1.14.6's real `kubernetes` plugin (github.com/coredns/coredns/plugin/kubernetes)
// configured by the kubernetes block of kubeadm's default Corefile, over a fake of its API
// connection fed the Namespaces, Services and EndpointSlices the simulator holds, and prints its
// answer to each query. It stands in for a CoreDNS pod in a real cluster (issue 27), as
// oracle/cmd/proxyrules stands in for kube-proxy.
//
// Its own module: CoreDNS v1.14.6 needs k8s.io v0.35, where ../go.mod pins v0.37.2.
//
// The plugin is built from the Corefile text with its own parser (kubernetes.ParseStanza, what
// `coredns -conf` runs). Its informers are replaced by fakeController (fake.go): the same
// transforms (object.ToService, object.EndpointSliceToEndpoints, object.ToNamespace) and the same
// indexes as the real dnsControl (controller.go), over client-go's plain cache.Indexer, so what the
// plugin reads is what its informers would hold once synced. The plugins after it in kubeadm's
// Corefile (prometheus, forward . /etc/resolv.conf, cache 30, loop, reload, loadbalance) are not
// run: a query the plugin passes on (a name outside its zones, a reverse name it falls through)
// is answered by stubNext with NXDOMAIN and marked `next`, as an upstream that knows no such name
// would; an ExternalName's target outside the cluster is looked up through stubUpstream, which
// answers NXDOMAIN too, so the answer holds the CNAME alone.
//
// Input (stdin, JSON): {namespaces, services, endpointSlices, queries: [{name, type}]}.
// Output (stdout, JSON): per query, its name, type, rcode, whether the next plugin answered, and
// the answer section's records as `dig` prints them (tabs between fields).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/coredns/caddy"
	"github.com/coredns/coredns/plugin/kubernetes"
	"github.com/coredns/coredns/plugin/pkg/dnstest"
	"github.com/coredns/coredns/plugin/test"
	"github.com/coredns/coredns/request"
	"github.com/miekg/dns"
	api "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
)

// corefile is the kubernetes block of kubeadm v1.37's default Corefile
// (cmd/kubeadm/app/phases/addons/dns/manifests.go, CoreDNSConfigMap).
const corefile = `kubernetes cluster.local in-addr.arpa ip6.arpa {
   pods insecure
   fallthrough in-addr.arpa ip6.arpa
   ttl 30
}`

type query struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type input struct {
	Namespaces     []*api.Namespace           `json:"namespaces"`
	Services       []*api.Service             `json:"services"`
	EndpointSlices []*discovery.EndpointSlice `json:"endpointSlices"`
	Queries        []query                    `json:"queries"`
}

type answer struct {
	Name   string   `json:"name"`
	Type   string   `json:"type"`
	Rcode  string   `json:"rcode"`
	Next   bool     `json:"next,omitempty"`
	Answer []string `json:"answer"`
}

// stubNext stands in for the plugins after kubernetes in the chain (forward to the node's
// resolver): the simulated world has no upstream, so every name is unknown there.
type stubNext struct{ called *bool }

func (s stubNext) Name() string { return "forward" }

func (s stubNext) ServeDNS(_ context.Context, w dns.ResponseWriter, r *dns.Msg) (int, error) {
	*s.called = true
	m := new(dns.Msg)
	m.SetRcode(r, dns.RcodeNameError)
	w.WriteMsg(m)
	return dns.RcodeNameError, nil
}

// stubUpstream answers the plugin's lookups of an ExternalName's target outside the cluster.
type stubUpstream struct{}

func (stubUpstream) Lookup(_ context.Context, state request.Request, name string, typ uint16) (*dns.Msg, error) {
	m := new(dns.Msg)
	m.SetQuestion(name, typ)
	m.Rcode = dns.RcodeNameError
	return m, nil
}

// plugin builds the kubernetes plugin from kubeadm's Corefile block, as `coredns -conf` would.
func plugin(ctl *fakeController, next *bool) (*kubernetes.Kubernetes, error) {
	c := caddy.NewTestController("dns", corefile)
	c.Next()
	k, err := kubernetes.ParseStanza(c)
	if err != nil {
		return nil, err
	}
	k.APIConn = ctl
	k.Upstream = stubUpstream{}
	k.Next = stubNext{called: next}
	return k, nil
}

func ask(k *kubernetes.Kubernetes, next *bool, q query) (answer, error) {
	qtype, ok := dns.StringToType[strings.ToUpper(q.Type)]
	if !ok {
		return answer{}, fmt.Errorf("unknown query type %q", q.Type)
	}
	*next = false
	r := new(dns.Msg)
	r.SetQuestion(dns.Fqdn(q.Name), qtype)
	w := dnstest.NewRecorder(&test.ResponseWriter{})
	if _, err := k.ServeDNS(context.Background(), w, r); err != nil {
		return answer{}, fmt.Errorf("%s %s: %w", q.Type, q.Name, err)
	}
	if w.Msg == nil {
		return answer{}, fmt.Errorf("%s %s: no reply written", q.Type, q.Name)
	}
	out := answer{Name: q.Name, Type: q.Type, Rcode: dns.RcodeToString[w.Msg.Rcode], Next: *next, Answer: []string{}}
	for _, rr := range w.Msg.Answer {
		out.Answer = append(out.Answer, rr.String())
	}
	return out, nil
}

func run() error {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		return fmt.Errorf("reading input: %w", err)
	}
	ctl, err := newFakeController(in.Namespaces, in.Services, in.EndpointSlices)
	if err != nil {
		return err
	}
	var next bool
	k, err := plugin(ctl, &next)
	if err != nil {
		return err
	}
	out := []answer{}
	for _, q := range in.Queries {
		a, err := ask(k, &next, q)
		if err != nil {
			return err
		}
		out = append(out, a)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "dns:", err)
		os.Exit(1)
	}
}
