import { describe, expect, it } from 'vitest';
import {
  hashAndTruncate,
  nftablesTransaction,
  nftListTable,
  sortNFTablesTransaction,
  syncNFTablesRules,
  type NFTProxierConfig,
} from './nftables-rules.ts';
import { dedent, makeTestEndpointSlice, makeTestService, overallTestCluster } from '../testing/kube-proxy.ts';

/** NewFakeProxier (pkg/proxy/nftables/proxier_test.go): pods in 10.0.0.0/8, services in 172.30.0.0/16, NodePorts on 192.168.0.2. */
const FAKE_NFT: NFTProxierConfig = {
  nodeName: 'test-node',
  nodeIP: '192.168.0.2',
  clusterCIDR: '10.0.0.0/8',
  serviceCIDRs: '172.30.0.0/16',
  nodePortIPs: ['192.168.0.2'],
};

// baseRules and TestOverallNFTablesRules, kubernetes/kubernetes pkg/proxy/nftables/proxier_test.go
// at v1.37.2: the Services, EndpointSlices and expected transaction copied from upstream, compared
// after upstream's own sortNFTablesTransaction. Upstream's test also turns on the alpha
// KubeProxyNFTablesLocalhostNodePorts gate (off by default in 1.37) and expects its
// localhost-nodeport-reject-* objects; the simulator does not model that gate, so they are left out.
const baseRules = dedent(`
	add table ip kube-proxy { comment "rules for kube-proxy" ; }

	add set ip kube-proxy cluster-ips { type ipv4_addr ; comment "Active ClusterIPs" ; }
	add set ip kube-proxy nodeport-ips { type ipv4_addr ; comment "IPs that accept NodePort traffic" ; }
	add set ip kube-proxy hairpin-connections { type ipv4_addr . ipv4_addr . inet_proto . inet_service ; comment "service hairpin connections" ; }

	add map ip kube-proxy firewall-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "destinations that are subject to LoadBalancerSourceRanges" ; }
	add map ip kube-proxy no-endpoint-nodeports { type inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to service nodeports with no endpoints" ; }
	add map ip kube-proxy no-endpoint-services { type ipv4_addr . inet_proto . inet_service : verdict ; comment "vmap to drop or reject packets to services with no endpoints" ; }
	add map ip kube-proxy service-ips { type ipv4_addr . inet_proto . inet_service : verdict ; comment "ClusterIP, ExternalIP and LoadBalancer IP traffic" ; }
	add map ip kube-proxy service-nodeports { type inet_proto . inet_service : verdict ; comment "NodePort traffic" ; }

	add chain ip kube-proxy cluster-ips-check
	add chain ip kube-proxy filter-prerouting-pre-dnat { type filter hook prerouting priority -110 ; }
	add chain ip kube-proxy filter-output-pre-dnat { type filter hook output priority -110 ; }
	add chain ip kube-proxy filter-forward { type filter hook forward priority 0 ; }
	add chain ip kube-proxy filter-input { type filter hook input priority 0 ; }
	add chain ip kube-proxy filter-output { type filter hook output priority 0 ; }
	add chain ip kube-proxy firewall-check
	add chain ip kube-proxy masquerading
	add chain ip kube-proxy nat-output { type nat hook output priority -100 ; }
	add chain ip kube-proxy nat-postrouting { type nat hook postrouting priority 100 ; }
	add chain ip kube-proxy nat-prerouting { type nat hook prerouting priority -100 ; }
	add chain ip kube-proxy nodeport-endpoints-check
	add chain ip kube-proxy reject-chain { comment "helper for @no-endpoint-services / @no-endpoint-nodeports" ; }
	add chain ip kube-proxy services
	add chain ip kube-proxy service-endpoints-check

	add rule ip kube-proxy cluster-ips-check ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"
	add rule ip kube-proxy cluster-ips-check ip daddr { 172.30.0.0/16 } drop comment "Drop traffic to unallocated ClusterIPs"
	add rule ip kube-proxy filter-prerouting-pre-dnat ct state new jump firewall-check
	add rule ip kube-proxy filter-forward ct state new jump service-endpoints-check
	add rule ip kube-proxy filter-forward ct state new jump cluster-ips-check
	add rule ip kube-proxy filter-input ct state new jump nodeport-endpoints-check
	add rule ip kube-proxy filter-input ct state new jump service-endpoints-check
	add rule ip kube-proxy filter-output ct state new jump service-endpoints-check
	add rule ip kube-proxy filter-output-pre-dnat ct state new jump firewall-check
	add rule ip kube-proxy filter-output ct state new jump cluster-ips-check
	add rule ip kube-proxy firewall-check ip daddr . meta l4proto . th dport vmap @firewall-ips
	add rule ip kube-proxy masquerading mark and 0x4000 != 0 mark set mark xor 0x4000 masquerade fully-random
	add rule ip kube-proxy masquerading ct status dnat ip saddr . ip daddr . meta l4proto . th dport @hairpin-connections masquerade fully-random
	add rule ip kube-proxy nat-output jump services
	add rule ip kube-proxy nat-postrouting jump masquerading
	add rule ip kube-proxy nat-prerouting jump services
	add rule ip kube-proxy nodeport-endpoints-check ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports
	add rule ip kube-proxy reject-chain reject
	add rule ip kube-proxy services ip daddr @cluster-ips ip saddr != 10.0.0.0/8 mark set mark or 0x4000 comment "masquerade clusterIP traffic from outside cluster"
	add rule ip kube-proxy services ip daddr . meta l4proto . th dport vmap @service-ips
	add rule ip kube-proxy services ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports
	
	add element ip kube-proxy nodeport-ips { 192.168.0.2 }
	add rule ip kube-proxy service-endpoints-check ip daddr . meta l4proto . th dport vmap @no-endpoint-services
	`);

// The nftables test's EndpointSlices at v1.37.2 name each endpoint's node (the iptables test's do not):
// 10.180.0.1, .3 and .5 are on test-node, .2 and .4 on other-node.
const NFT_TEST_NODES: Record<string, string> = {
  '10.180.0.1': 'test-node',
  '10.180.0.2': 'other-node',
  '10.180.0.3': 'test-node',
  '10.180.0.4': 'other-node',
  '10.180.0.5': 'test-node',
};

describe('TestOverallNFTablesRules', () => {
  const { services, slices: iptSlices } = overallTestCluster();
  const slices = iptSlices.map((s) => ({
    ...s,
    endpoints: s.endpoints.map((e) => ({ ...e, nodeName: NFT_TEST_NODES[e.addresses[0]] })),
  }));
  const expected =
    baseRules +
    dedent(`
		# svc1
		add chain ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80
		add rule ip kube-proxy service-ULMVA6XW-ns1/svc1/tcp/p80 meta l4proto tcp dnat to 10.180.0.1:80

		add element ip kube-proxy cluster-ips { 172.30.0.41 }
		add element ip kube-proxy service-ips { 172.30.0.41 . tcp . 80 : goto service-ULMVA6XW-ns1/svc1/tcp/p80 }
		add element ip kube-proxy hairpin-connections { 10.180.0.1 . 10.180.0.1 . tcp . 80 }

		# svc2
		add chain ip kube-proxy service-42NFTM6N-ns2/svc2/tcp/p80
		add rule ip kube-proxy service-42NFTM6N-ns2/svc2/tcp/p80 meta l4proto tcp dnat to 10.180.0.2:80
		add chain ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80
		add rule ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80 ip saddr 10.0.0.0/8 goto service-42NFTM6N-ns2/svc2/tcp/p80 comment "short-circuit pod traffic"
		add rule ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80 fib saddr type local mark set mark or 0x4000 comment "masquerade local traffic"
		add rule ip kube-proxy external-42NFTM6N-ns2/svc2/tcp/p80 fib saddr type local goto service-42NFTM6N-ns2/svc2/tcp/p80 comment "short-circuit local traffic"

		add element ip kube-proxy cluster-ips { 172.30.0.42 }
		add element ip kube-proxy service-ips { 172.30.0.42 . tcp . 80 : goto service-42NFTM6N-ns2/svc2/tcp/p80 }
		add element ip kube-proxy service-ips { 192.168.99.22 . tcp . 80 : goto external-42NFTM6N-ns2/svc2/tcp/p80 }
		add element ip kube-proxy service-ips { 1.2.3.4 . tcp . 80 : goto external-42NFTM6N-ns2/svc2/tcp/p80 }
		add element ip kube-proxy service-nodeports { tcp . 3001 : goto external-42NFTM6N-ns2/svc2/tcp/p80 }

		add element ip kube-proxy no-endpoint-nodeports { tcp . 3001 comment "ns2/svc2:p80" : drop }
		add element ip kube-proxy no-endpoint-services { 1.2.3.4 . tcp . 80 comment "ns2/svc2:p80" : drop }
		add element ip kube-proxy no-endpoint-services { 192.168.99.22 . tcp . 80 comment "ns2/svc2:p80" : drop }

		# svc3
		add chain ip kube-proxy service-4AT6LBPK-ns3/svc3/tcp/p80
		add rule ip kube-proxy service-4AT6LBPK-ns3/svc3/tcp/p80 meta l4proto tcp dnat to 10.180.0.3:80
		add chain ip kube-proxy external-4AT6LBPK-ns3/svc3/tcp/p80
		add rule ip kube-proxy external-4AT6LBPK-ns3/svc3/tcp/p80 mark set mark or 0x4000 comment "masquerade"
		add rule ip kube-proxy external-4AT6LBPK-ns3/svc3/tcp/p80 goto service-4AT6LBPK-ns3/svc3/tcp/p80

		add element ip kube-proxy cluster-ips { 172.30.0.43 }
		add element ip kube-proxy service-ips { 172.30.0.43 . tcp . 80 : goto service-4AT6LBPK-ns3/svc3/tcp/p80 }
		add element ip kube-proxy service-nodeports { tcp . 3003 : goto external-4AT6LBPK-ns3/svc3/tcp/p80 }
		add element ip kube-proxy hairpin-connections { 10.180.0.3 . 10.180.0.3 . tcp . 80 }

		# svc4
		add chain ip kube-proxy service-LAUZTJTB-ns4/svc4/tcp/p80
		add rule ip kube-proxy service-LAUZTJTB-ns4/svc4/tcp/p80 meta l4proto tcp dnat ip addr . port to numgen random mod 2 map { 0 : 10.180.0.4 . 80 , 1 : 10.180.0.5 . 80 }
		add chain ip kube-proxy external-LAUZTJTB-ns4/svc4/tcp/p80
		add rule ip kube-proxy external-LAUZTJTB-ns4/svc4/tcp/p80 mark set mark or 0x4000 comment "masquerade"
		add rule ip kube-proxy external-LAUZTJTB-ns4/svc4/tcp/p80 goto service-LAUZTJTB-ns4/svc4/tcp/p80

		add element ip kube-proxy cluster-ips { 172.30.0.44 }
		add element ip kube-proxy service-ips { 172.30.0.44 . tcp . 80 : goto service-LAUZTJTB-ns4/svc4/tcp/p80 }
		add element ip kube-proxy service-ips { 192.168.99.33 . tcp . 80 : goto external-LAUZTJTB-ns4/svc4/tcp/p80 }
		add element ip kube-proxy hairpin-connections { 10.180.0.5 . 10.180.0.5 . tcp . 80 }

		# svc5
		add set ip kube-proxy affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { type ipv4_addr ; flags dynamic,timeout ; timeout 10800s ; }
		add chain ip kube-proxy service-HVFWP5L3-ns5/svc5/tcp/p80
		add rule ip kube-proxy service-HVFWP5L3-ns5/svc5/tcp/p80 ip saddr @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 goto endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80
		add rule ip kube-proxy service-HVFWP5L3-ns5/svc5/tcp/p80 numgen random mod 1 vmap { 0 : goto endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 }
		add chain ip kube-proxy external-HVFWP5L3-ns5/svc5/tcp/p80
		add rule ip kube-proxy external-HVFWP5L3-ns5/svc5/tcp/p80 mark set mark or 0x4000 comment "masquerade"
		add rule ip kube-proxy external-HVFWP5L3-ns5/svc5/tcp/p80 goto service-HVFWP5L3-ns5/svc5/tcp/p80

		add chain ip kube-proxy endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80
		add rule ip kube-proxy endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 update @affinity-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 { ip saddr }
		add rule ip kube-proxy endpoint-GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80 meta l4proto tcp dnat to 10.180.0.3:80

		add chain ip kube-proxy firewall-HVFWP5L3-ns5/svc5/tcp/p80
		add rule ip kube-proxy firewall-HVFWP5L3-ns5/svc5/tcp/p80 ip saddr != { 203.0.113.0/25 } drop

		add element ip kube-proxy cluster-ips { 172.30.0.45 }
		add element ip kube-proxy service-ips { 172.30.0.45 . tcp . 80 : goto service-HVFWP5L3-ns5/svc5/tcp/p80 }
		add element ip kube-proxy service-ips { 5.6.7.8 . tcp . 80 : goto external-HVFWP5L3-ns5/svc5/tcp/p80 }
		add element ip kube-proxy service-nodeports { tcp . 3002 : goto external-HVFWP5L3-ns5/svc5/tcp/p80 }
		add element ip kube-proxy firewall-ips { 5.6.7.8 . tcp . 80 : goto firewall-HVFWP5L3-ns5/svc5/tcp/p80 }
		# 10.180.0.3:80 is already in hairpin-connections, so we don't want another "add element" line...

		# svc6
		add element ip kube-proxy cluster-ips { 172.30.0.46 }
		add element ip kube-proxy no-endpoint-services { 172.30.0.46 . tcp . 80 comment "ns6/svc6:p80" : goto reject-chain }
		`);

  it('writes exactly the expected transaction (compared as upstream compares it)', () => {
    const got = nftablesTransaction(syncNFTablesRules(services, slices, FAKE_NFT)).join('\n');
    expect(sortNFTablesTransaction(got)).toBe(sortNFTablesTransaction(expected));
  });
  it('lists the same table whatever order the objects arrive in', () => {
    const a = nftListTable(syncNFTablesRules(services, slices, FAKE_NFT));
    expect(nftListTable(syncNFTablesRules([...services].reverse(), [...slices].reverse(), FAKE_NFT))).toBe(a);
  });
});

describe('hashAndTruncate', () => {
  it('prefixes 8 characters of the hash, as the chain names above show', () => {
    expect(hashAndTruncate('ns1/svc1/tcp/p80')).toBe('ULMVA6XW-ns1/svc1/tcp/p80');
    expect(hashAndTruncate('ns1/svc1/tcp/p80__10.180.0.1/80')).toBe('5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80');
  });
  it('cuts a name longer than 240 characters with "..."', () => {
    const out = hashAndTruncate('x'.repeat(300));
    expect(out).toHaveLength(240);
    expect(out.endsWith('...')).toBe(true);
  });
});

describe('nftListTable', () => {
  it('prints sets with their elements and base chains with their hooks, nft style', () => {
    const web = makeTestService('default', 'web', (svc) => {
      svc.spec.clusterIP = '10.96.0.20';
      svc.spec.ports = [{ port: 80, protocol: 'TCP' }];
    });
    const slice = makeTestEndpointSlice('default', 'web', 1, (eps) => {
      eps.endpoints = [{ addresses: ['10.244.1.3'] }, { addresses: ['10.244.2.3'] }];
      eps.ports = [{ name: '', port: 80, protocol: 'TCP' }];
    });
    const text = nftListTable(syncNFTablesRules([web], [slice], { nodeName: 'node-1', clusterCIDR: '10.244.0.0/16' }));
    expect(
      text.startsWith(
        'table ip kube-proxy {\n\tcomment "rules for kube-proxy"\n\tset cluster-ips {\n\t\ttype ipv4_addr\n',
      ),
    ).toBe(true);
    expect(text).toContain('\t\telements = { 10.96.0.20 }');
    expect(text).toMatch(/\t\telements = \{ 10\.96\.0\.20 \. tcp \. 80 : goto service-\w{8}-default\/web\/tcp\/ \}/);
    expect(text).toContain(
      '\tchain nat-prerouting {\n\t\ttype nat hook prerouting priority dstnat; policy accept;\n\t\tjump services\n\t}',
    );
    expect(text).toContain(
      '\t\tmeta l4proto tcp dnat ip addr . port to numgen random mod 2 map { 0 : 10.244.1.3 . 80 , 1 : 10.244.2.3 . 80 }\n',
    );
    expect(text.endsWith('}\n')).toBe(true);
  });
  it("lists a Service's ClusterIP once in cluster-ips, however many ports it has (a set holds an element once)", () => {
    const dns = makeTestService('kube-system', 'kube-dns', (svc) => {
      svc.spec.clusterIP = '10.96.0.10';
      svc.spec.ports = [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53, protocol: 'TCP' },
        { name: 'metrics', port: 9153, protocol: 'TCP' },
      ];
    });
    const text = nftListTable(syncNFTablesRules([dns], [], { nodeName: 'node-1', clusterCIDR: '10.244.0.0/16' }));
    expect(text).toContain('\t\telements = { 10.96.0.10 }');
  });
});
