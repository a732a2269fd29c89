import { describe, expect, it } from 'vitest';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import {
  cidrContains,
  computeProbability,
  iptablesRestoreText,
  iptablesSaveNat,
  syncProxyRules,
} from './iptables-rules.ts';
import {
  dedent,
  FAKE_PROXIER,
  makeTestEndpointSlice,
  makeTestService,
  overallTestCluster,
} from '../testing/kube-proxy.ts';

// TestOverallIPTablesRules, kubernetes/kubernetes pkg/proxy/iptables/proxier_test.go: the
// Services, EndpointSlices and the whole expected iptables-restore input, copied from upstream.
describe('TestOverallIPTablesRules', () => {
  const { services, slices } = overallTestCluster();
  const expected = dedent(`
		*filter
		:KUBE-NODEPORTS - [0:0]
		:KUBE-SERVICES - [0:0]
		:KUBE-EXTERNAL-SERVICES - [0:0]
		:KUBE-FIREWALL - [0:0]
		:KUBE-FORWARD - [0:0]
		:KUBE-PROXY-FIREWALL - [0:0]
		-A KUBE-NODEPORTS -m comment --comment "ns2/svc2:p80 health check node port" -m tcp -p tcp --dport 30000 -j ACCEPT
		-A KUBE-SERVICES -m comment --comment "ns6/svc6:p80 has no endpoints" -m tcp -p tcp -d 172.30.0.46 --dport 80 -j REJECT
		-A KUBE-EXTERNAL-SERVICES -m comment --comment "ns2/svc2:p80 has no local endpoints" -m tcp -p tcp -d 192.168.99.22 --dport 80 -j DROP
		-A KUBE-EXTERNAL-SERVICES -m comment --comment "ns2/svc2:p80 has no local endpoints" -m tcp -p tcp -d 1.2.3.4 --dport 80 -j DROP
		-A KUBE-EXTERNAL-SERVICES -m comment --comment "ns2/svc2:p80 has no local endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 3001 -j DROP
		-A KUBE-FIREWALL -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP
		-A KUBE-FORWARD -m conntrack --ctstate INVALID -m nfacct --nfacct-name ct_state_invalid_dropped_pkts -j DROP
		-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT
		-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
		-A KUBE-PROXY-FIREWALL -m comment --comment "ns5/svc5:p80 traffic not accepted by KUBE-FW-NUKIZ6OKUXPJNT4C" -m tcp -p tcp -d 5.6.7.8 --dport 80 -j DROP
		COMMIT
		*nat
		:KUBE-NODEPORTS - [0:0]
		:KUBE-SERVICES - [0:0]
		:KUBE-EXT-4SW47YFZTEDKD3PK - [0:0]
		:KUBE-EXT-GNZBNJ2PO5MGZ6GT - [0:0]
		:KUBE-EXT-NUKIZ6OKUXPJNT4C - [0:0]
		:KUBE-EXT-X27LE4BHSL4DOUIK - [0:0]
		:KUBE-FW-NUKIZ6OKUXPJNT4C - [0:0]
		:KUBE-MARK-MASQ - [0:0]
		:KUBE-POSTROUTING - [0:0]
		:KUBE-SEP-C6EBXVWJJZMIWKLZ - [0:0]
		:KUBE-SEP-I77PXRDZVX7PMWMN - [0:0]
		:KUBE-SEP-OYPFS5VJICHGATKP - [0:0]
		:KUBE-SEP-RS4RBKLTHTF2IUXJ - [0:0]
		:KUBE-SEP-SXIVWICOYRO3J4NJ - [0:0]
		:KUBE-SEP-UKSFD7AGPMPPLUHC - [0:0]
		:KUBE-SVC-4SW47YFZTEDKD3PK - [0:0]
		:KUBE-SVC-GNZBNJ2PO5MGZ6GT - [0:0]
		:KUBE-SVC-NUKIZ6OKUXPJNT4C - [0:0]
		:KUBE-SVC-X27LE4BHSL4DOUIK - [0:0]
		:KUBE-SVC-XPGD46QRK7WJZT7O - [0:0]
		-A KUBE-NODEPORTS -m comment --comment ns2/svc2:p80 -m tcp -p tcp -d 127.0.0.0/8 --dport 3001 -m nfacct --nfacct-name localhost_nps_accepted_pkts -j KUBE-EXT-GNZBNJ2PO5MGZ6GT
		-A KUBE-NODEPORTS -m comment --comment ns2/svc2:p80 -m tcp -p tcp --dport 3001 -j KUBE-EXT-GNZBNJ2PO5MGZ6GT
		-A KUBE-NODEPORTS -m comment --comment ns3/svc3:p80 -m tcp -p tcp -d 127.0.0.0/8 --dport 3003 -m nfacct --nfacct-name localhost_nps_accepted_pkts -j KUBE-EXT-X27LE4BHSL4DOUIK
		-A KUBE-NODEPORTS -m comment --comment ns3/svc3:p80 -m tcp -p tcp --dport 3003 -j KUBE-EXT-X27LE4BHSL4DOUIK
		-A KUBE-NODEPORTS -m comment --comment ns5/svc5:p80 -m tcp -p tcp -d 127.0.0.0/8 --dport 3002 -m nfacct --nfacct-name localhost_nps_accepted_pkts -j KUBE-EXT-NUKIZ6OKUXPJNT4C
		-A KUBE-NODEPORTS -m comment --comment ns5/svc5:p80 -m tcp -p tcp --dport 3002 -j KUBE-EXT-NUKIZ6OKUXPJNT4C
		-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j KUBE-SVC-XPGD46QRK7WJZT7O
		-A KUBE-SERVICES -m comment --comment "ns2/svc2:p80 cluster IP" -m tcp -p tcp -d 172.30.0.42 --dport 80 -j KUBE-SVC-GNZBNJ2PO5MGZ6GT
		-A KUBE-SERVICES -m comment --comment "ns2/svc2:p80 external IP" -m tcp -p tcp -d 192.168.99.22 --dport 80 -j KUBE-EXT-GNZBNJ2PO5MGZ6GT
		-A KUBE-SERVICES -m comment --comment "ns2/svc2:p80 loadbalancer IP" -m tcp -p tcp -d 1.2.3.4 --dport 80 -j KUBE-EXT-GNZBNJ2PO5MGZ6GT
		-A KUBE-SERVICES -m comment --comment "ns3/svc3:p80 cluster IP" -m tcp -p tcp -d 172.30.0.43 --dport 80 -j KUBE-SVC-X27LE4BHSL4DOUIK
		-A KUBE-SERVICES -m comment --comment "ns4/svc4:p80 cluster IP" -m tcp -p tcp -d 172.30.0.44 --dport 80 -j KUBE-SVC-4SW47YFZTEDKD3PK
		-A KUBE-SERVICES -m comment --comment "ns4/svc4:p80 external IP" -m tcp -p tcp -d 192.168.99.33 --dport 80 -j KUBE-EXT-4SW47YFZTEDKD3PK
		-A KUBE-SERVICES -m comment --comment "ns5/svc5:p80 cluster IP" -m tcp -p tcp -d 172.30.0.45 --dport 80 -j KUBE-SVC-NUKIZ6OKUXPJNT4C
		-A KUBE-SERVICES -m comment --comment "ns5/svc5:p80 loadbalancer IP" -m tcp -p tcp -d 5.6.7.8 --dport 80 -j KUBE-FW-NUKIZ6OKUXPJNT4C
		-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS
		-A KUBE-EXT-4SW47YFZTEDKD3PK -m comment --comment "masquerade traffic for ns4/svc4:p80 external destinations" -j KUBE-MARK-MASQ
		-A KUBE-EXT-4SW47YFZTEDKD3PK -j KUBE-SVC-4SW47YFZTEDKD3PK
		-A KUBE-EXT-GNZBNJ2PO5MGZ6GT -m comment --comment "pod traffic for ns2/svc2:p80 external destinations" -s 10.0.0.0/8 -j KUBE-SVC-GNZBNJ2PO5MGZ6GT
		-A KUBE-EXT-GNZBNJ2PO5MGZ6GT -m comment --comment "masquerade LOCAL traffic for ns2/svc2:p80 external destinations" -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ
		-A KUBE-EXT-GNZBNJ2PO5MGZ6GT -m comment --comment "route LOCAL traffic for ns2/svc2:p80 external destinations" -m addrtype --src-type LOCAL -j KUBE-SVC-GNZBNJ2PO5MGZ6GT
		-A KUBE-EXT-NUKIZ6OKUXPJNT4C -m comment --comment "masquerade traffic for ns5/svc5:p80 external destinations" -j KUBE-MARK-MASQ
		-A KUBE-EXT-NUKIZ6OKUXPJNT4C -j KUBE-SVC-NUKIZ6OKUXPJNT4C
		-A KUBE-EXT-X27LE4BHSL4DOUIK -m comment --comment "masquerade traffic for ns3/svc3:p80 external destinations" -j KUBE-MARK-MASQ
		-A KUBE-EXT-X27LE4BHSL4DOUIK -j KUBE-SVC-X27LE4BHSL4DOUIK
		-A KUBE-FW-NUKIZ6OKUXPJNT4C -m comment --comment "ns5/svc5:p80 loadbalancer IP" -s 203.0.113.0/25 -j KUBE-EXT-NUKIZ6OKUXPJNT4C
		-A KUBE-FW-NUKIZ6OKUXPJNT4C -m comment --comment "other traffic to ns5/svc5:p80 will be dropped by KUBE-PROXY-FIREWALL"
		-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000
		-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN
		-A KUBE-POSTROUTING -j MARK --xor-mark 0x4000
		-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE
		-A KUBE-SEP-C6EBXVWJJZMIWKLZ -m comment --comment ns4/svc4:p80 -s 10.180.0.5 -j KUBE-MARK-MASQ
		-A KUBE-SEP-C6EBXVWJJZMIWKLZ -m comment --comment ns4/svc4:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.5:80
		-A KUBE-SEP-I77PXRDZVX7PMWMN -m comment --comment ns5/svc5:p80 -s 10.180.0.3 -j KUBE-MARK-MASQ
		-A KUBE-SEP-I77PXRDZVX7PMWMN -m comment --comment ns5/svc5:p80 -m recent --name KUBE-SEP-I77PXRDZVX7PMWMN --set -m tcp -p tcp -j DNAT --to-destination 10.180.0.3:80
		-A KUBE-SEP-OYPFS5VJICHGATKP -m comment --comment ns3/svc3:p80 -s 10.180.0.3 -j KUBE-MARK-MASQ
		-A KUBE-SEP-OYPFS5VJICHGATKP -m comment --comment ns3/svc3:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.3:80
		-A KUBE-SEP-RS4RBKLTHTF2IUXJ -m comment --comment ns2/svc2:p80 -s 10.180.0.2 -j KUBE-MARK-MASQ
		-A KUBE-SEP-RS4RBKLTHTF2IUXJ -m comment --comment ns2/svc2:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.2:80
		-A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -s 10.180.0.1 -j KUBE-MARK-MASQ
		-A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80
		-A KUBE-SEP-UKSFD7AGPMPPLUHC -m comment --comment ns4/svc4:p80 -s 10.180.0.4 -j KUBE-MARK-MASQ
		-A KUBE-SEP-UKSFD7AGPMPPLUHC -m comment --comment ns4/svc4:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.4:80
		-A KUBE-SVC-4SW47YFZTEDKD3PK -m comment --comment "ns4/svc4:p80 cluster IP" -m tcp -p tcp -d 172.30.0.44 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
		-A KUBE-SVC-4SW47YFZTEDKD3PK -m comment --comment "ns4/svc4:p80 -> 10.180.0.4:80" -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-UKSFD7AGPMPPLUHC
		-A KUBE-SVC-4SW47YFZTEDKD3PK -m comment --comment "ns4/svc4:p80 -> 10.180.0.5:80" -j KUBE-SEP-C6EBXVWJJZMIWKLZ
		-A KUBE-SVC-GNZBNJ2PO5MGZ6GT -m comment --comment "ns2/svc2:p80 cluster IP" -m tcp -p tcp -d 172.30.0.42 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
		-A KUBE-SVC-GNZBNJ2PO5MGZ6GT -m comment --comment "ns2/svc2:p80 -> 10.180.0.2:80" -j KUBE-SEP-RS4RBKLTHTF2IUXJ
		-A KUBE-SVC-NUKIZ6OKUXPJNT4C -m comment --comment "ns5/svc5:p80 cluster IP" -m tcp -p tcp -d 172.30.0.45 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
		-A KUBE-SVC-NUKIZ6OKUXPJNT4C -m comment --comment "ns5/svc5:p80 -> 10.180.0.3:80" -m recent --name KUBE-SEP-I77PXRDZVX7PMWMN --rcheck --seconds 10800 --reap -j KUBE-SEP-I77PXRDZVX7PMWMN
		-A KUBE-SVC-NUKIZ6OKUXPJNT4C -m comment --comment "ns5/svc5:p80 -> 10.180.0.3:80" -j KUBE-SEP-I77PXRDZVX7PMWMN
		-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 cluster IP" -m tcp -p tcp -d 172.30.0.43 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
		-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 -> 10.180.0.3:80" -j KUBE-SEP-OYPFS5VJICHGATKP
		-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
		-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j KUBE-SEP-SXIVWICOYRO3J4NJ
		COMMIT
		`);

  it('writes exactly the expected filter and nat tables', () => {
    expect(iptablesRestoreText(syncProxyRules(services, slices, FAKE_PROXIER))).toBe(expected);
  });
  it('does not depend on the order the Services and slices arrive in', () => {
    expect(iptablesRestoreText(syncProxyRules([...services].reverse(), [...slices].reverse(), FAKE_PROXIER))).toBe(
      expected,
    );
  });
});

// The cases below are written from the proxier's code (proxier.go, topology.go), each a behaviour
// the upstream tests check through packet flows rather than whole dumps.
describe('syncProxyRules', () => {
  const web = makeTestService('default', 'web', (svc) => {
    svc.spec.clusterIP = '10.96.0.20';
    svc.spec.ports = [{ port: 80, protocol: 'TCP', targetPort: 80 }];
  });
  const webSlice = (endpoints: EndpointSlice['endpoints']) =>
    makeTestEndpointSlice('default', 'web', 1, (eps) => {
      eps.endpoints = endpoints;
      eps.ports = [{ name: '', port: 80, protocol: 'TCP' }];
    });
  const nat = (services = [web], slices: EndpointSlice[] = []) =>
    syncProxyRules(services, slices, FAKE_PROXIER).nat.rules;

  it('spreads three endpoints with 1/3, then 1/2, then the rest, in endpoint order', () => {
    const rules = nat(
      [web],
      [webSlice([{ addresses: ['10.244.2.4'] }, { addresses: ['10.244.1.3'] }, { addresses: ['10.244.3.2'] }])],
    ).filter((r) => r.includes(' -> '));
    expect(rules.map((r) => /--probability (\S+)/.exec(r)?.[1] ?? 'last')).toEqual([
      '0.3333333333',
      '0.5000000000',
      'last',
    ]);
    expect(rules.map((r) => /-> (\S+)"/.exec(r)![1])).toEqual(['10.244.1.3:80', '10.244.2.4:80', '10.244.3.2:80']);
    // An unnamed port: the comment and hash use "default/web".
    expect(rules[0]).toMatch(/^-A KUBE-SVC-\w{16} -m comment --comment "default\/web -> 10.244.1.3:80"/);
  });
  it('leaves out not-ready endpoints, and falls back to serving terminating ones when none is ready', () => {
    const ready = nat(
      [web],
      [
        webSlice([
          { addresses: ['10.244.1.3'], conditions: { ready: true, serving: true, terminating: false } },
          { addresses: ['10.244.1.4'], conditions: { ready: false, serving: false, terminating: false } },
        ]),
      ],
    );
    expect(ready.filter((r) => r.includes('DNAT'))).toHaveLength(1);
    const terminating = nat(
      [web],
      [
        webSlice([
          { addresses: ['10.244.1.3'], conditions: { ready: false, serving: true, terminating: true } },
          { addresses: ['10.244.1.4'], conditions: { ready: false, serving: false, terminating: true } },
        ]),
      ],
    );
    expect(terminating.filter((r) => r.includes('DNAT'))).toEqual([
      expect.stringContaining('--to-destination 10.244.1.3:80'),
    ]);
  });
  it('rejects in the filter table a Service with no endpoints, and writes it no nat chain', () => {
    const data = syncProxyRules([web], [], FAKE_PROXIER);
    expect(data.filter.rules).toContain(
      '-A KUBE-SERVICES -m comment --comment "default/web has no endpoints" -m tcp -p tcp -d 10.96.0.20 --dport 80 -j REJECT',
    );
    expect(data.nat.chains.filter((c) => c.startsWith(':KUBE-SVC'))).toEqual([]);
  });
  it("sends internalTrafficPolicy: Local to the KUBE-SVL chain of this node's endpoints, and drops when there is none", () => {
    const local = makeTestService('default', 'web', (svc) => {
      svc.spec.clusterIP = '10.96.0.20';
      svc.spec.internalTrafficPolicy = 'Local';
      svc.spec.ports = [{ port: 80, protocol: 'TCP' }];
    });
    const here = syncProxyRules(
      [local],
      [
        webSlice([
          { addresses: ['10.244.1.3'], nodeName: 'test-node' },
          { addresses: ['10.244.2.3'], nodeName: 'other' },
        ]),
      ],
      FAKE_PROXIER,
    );
    expect(here.nat.rules.find((r) => r.startsWith('-A KUBE-SERVICES') && r.includes('cluster IP'))).toMatch(
      /-j KUBE-SVL-/,
    );
    expect(here.nat.rules.filter((r) => r.includes('DNAT'))).toEqual([expect.stringContaining('10.244.1.3:80')]);
    const none = syncProxyRules([local], [webSlice([{ addresses: ['10.244.2.3'], nodeName: 'other' }])], FAKE_PROXIER);
    expect(none.filter.rules).toContain(
      '-A KUBE-SERVICES -m comment --comment "default/web has no local endpoints" -m tcp -p tcp -d 10.96.0.20 --dport 80 -j DROP',
    );
  });
  it('skips headless and ExternalName Services', () => {
    const headless = makeTestService('default', 'db', (svc) => {
      svc.spec.clusterIP = 'None';
      svc.spec.ports = [{ port: 5432, protocol: 'TCP' }];
    });
    expect(nat([headless]).filter((r) => r.includes('default/db'))).toEqual([]);
  });
  it('drops the per-endpoint comments beyond 1000 endpoints (largeClusterMode)', () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({
      addresses: [`10.${200 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`],
    }));
    const rules = nat([web], [webSlice(many)]);
    expect(rules.find((r) => r.startsWith('-A KUBE-SEP-'))).not.toContain('--comment');
    expect(rules.find((r) => r.startsWith('-A KUBE-SERVICES'))).toContain('--comment');
  });
  it('adds --random-fully and keeps localhost NodePorts out when told', () => {
    const data = syncProxyRules([web], [], { nodeName: 'n', randomFully: true, localhostNodePorts: false });
    expect(data.nat.rules).toContain(
      '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
    );
    expect(data.nat.rules.at(-1)).toBe(
      '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL ! -d 127.0.0.0/8 -j KUBE-NODEPORTS',
    );
  });
});

describe('iptablesSaveNat', () => {
  it("prints the built-in chains and their jumps into kube-proxy's, then its chains", () => {
    const text = iptablesSaveNat(syncProxyRules([], [], FAKE_PROXIER));
    expect(text.split('\n').slice(0, 12)).toEqual([
      '*nat',
      ':PREROUTING ACCEPT [0:0]',
      ':INPUT ACCEPT [0:0]',
      ':OUTPUT ACCEPT [0:0]',
      ':POSTROUTING ACCEPT [0:0]',
      ':KUBE-NODEPORTS - [0:0]',
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-MARK-MASQ - [0:0]',
      ':KUBE-POSTROUTING - [0:0]',
      '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
      '-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
      '-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
    ]);
    expect(text.endsWith('COMMIT\n')).toBe(true);
  });
});

describe('computeProbability', () => {
  it.each([
    [2, '0.5000000000'],
    [3, '0.3333333333'],
    [7, '0.1428571429'],
    [1024, '0.0009765625'],
    [2048, '0.0004882812'],
    [3000, '0.0003333333'],
  ])('1/%i → %s (Go %%0.10f)', (n, want) => {
    expect(computeProbability(n)).toBe(want);
  });
});

describe('cidrContains', () => {
  it.each([
    ['203.0.113.0/25', '203.0.113.127', true],
    ['203.0.113.0/25', '203.0.113.128', false],
    ['0.0.0.0/0', '1.2.3.4', true],
    ['192.168.0.2/32', '192.168.0.2', true],
    ['bad', '1.2.3.4', false],
  ])('%s ∋ %s: %s', (cidr, ip, want) => {
    expect(cidrContains(cidr, ip)).toBe(want);
  });
});
