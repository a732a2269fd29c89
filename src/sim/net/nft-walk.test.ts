import { describe, expect, it } from 'vitest';
import { syncNFTablesRules } from '../kube-proxy/nftables-rules.ts';
import { createRng } from '../rng.ts';
import { walkService, walkSlice } from '../testing/kube-proxy.ts';
import type { Packet } from './iptables-walk.ts';
import { numgenRandom, walkNFTables } from './nft-walk.ts';

const svc = walkService;
const slice = walkSlice;
const config = { nodeName: 'node-1', nodeIP: '10.0.0.11', clusterCIDR: '10.244.0.0/16', serviceCIDRs: '10.96.0.0/12' };
const fromPod = (dstIP: string, dstPort = 80): Packet => ({
  protocol: 'TCP',
  srcIP: '10.244.1.9',
  srcPort: 40000,
  dstIP,
  dstPort,
  srcLocal: false,
  dstLocal: false,
});
const env = (seed = 1) => ({ now: 0, recent: {}, rng: createRng(seed) });
const to = (r: { verdict: { kind: string } }) => (r.verdict as unknown as { to: string }).to;

describe('numgenRandom', () => {
  it('draws every value in [0, n) about equally', () => {
    const e = env(9);
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[numgenRandom(e, 3)]++;
    for (const n of counts) {
      expect(n).toBeGreaterThan(900);
      expect(n).toBeLessThan(1100);
    }
  });
});

describe('walkNFTables', () => {
  const table = syncNFTablesRules(
    [svc('web', '10.96.0.20')],
    [slice('web', ['10.244.1.2', '10.244.2.2', '10.244.3.2'])],
    config,
  );

  it("DNATs a ClusterIP connection through @service-ips and the service chain's numgen map", () => {
    const e = env();
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) seen.add(to(walkNFTables(table, fromPod('10.96.0.20'), e, false)));
    expect([...seen].sort()).toEqual(['10.244.1.2:8080', '10.244.2.2:8080', '10.244.3.2:8080']);
    const r = walkNFTables(table, fromPod('10.96.0.20'), e, false);
    expect(r.trace[0]).toMatch(
      /^services: ip daddr \. meta l4proto \. th dport vmap @service-ips -> 10\.96\.0\.20 \. tcp \. 80 : goto service-\w{8}-default\/web\/tcp\/http$/,
    );
    expect(r.trace[1]).toMatch(
      /^service-\w{8}-default\/web\/tcp\/http: meta l4proto tcp dnat ip addr \. port to numgen random mod 3 map \{ 0 : 10\.244\.1\.2 \. 8080 , 1 : 10\.244\.2\.2 \. 8080 , 2 : 10\.244\.3\.2 \. 8080 \}$/,
    );
    expect(r.trace).toHaveLength(2);
  });

  it('rejects a Service with no endpoints, a port the ClusterIP does not serve; drops an unallocated ClusterIP', () => {
    const none = syncNFTablesRules([svc('web', '10.96.0.20')], [slice('web', ['10.244.1.2'], false)], config);
    expect(walkNFTables(none, fromPod('10.96.0.20'), env(), false).verdict).toEqual({ kind: 'reject' });
    expect(walkNFTables(table, fromPod('10.96.0.20', 81), env(), false).verdict).toEqual({ kind: 'reject' });
    expect(walkNFTables(table, fromPod('10.96.0.99'), env(), false).verdict).toEqual({ kind: 'drop' });
    expect(walkNFTables(table, fromPod('10.244.2.2', 8080), env(), false).verdict).toEqual({ kind: 'accept' });
  });

  it('keeps a client on its endpoint through the affinity set until its timeout', () => {
    const sticky = syncNFTablesRules(
      [
        svc('web', '10.96.0.20', {
          sessionAffinity: 'ClientIP',
          sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
        }),
      ],
      [slice('web', ['10.244.1.2', '10.244.2.2', '10.244.3.2'])],
      config,
    );
    const e = env(2);
    const first = to(walkNFTables(sticky, fromPod('10.96.0.20'), e, false));
    for (let i = 0; i < 20; i++) expect(to(walkNFTables(sticky, fromPod('10.96.0.20'), e, false))).toBe(first);
    e.now = 61_000;
    expect(walkNFTables(sticky, fromPod('10.96.0.20'), e, false).trace.some((l) => l.includes('numgen'))).toBe(true);
  });

  it('takes a NodePort on a local address through @service-nodeports and the external chain', () => {
    const np = syncNFTablesRules(
      [
        svc('web', '10.96.0.20', {
          type: 'NodePort',
          ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }],
        }),
      ],
      [slice('web', ['10.244.2.2'])],
      config,
    );
    const p: Packet = {
      protocol: 'TCP',
      srcIP: '192.168.1.5',
      srcPort: 5555,
      dstIP: '10.0.0.11',
      dstPort: 30080,
      srcLocal: false,
      dstLocal: true,
    };
    const r = walkNFTables(np, p, env(), false);
    expect(r.verdict).toEqual({ kind: 'dnat', to: '10.244.2.2:8080' });
    expect(r.trace.some((l) => l.includes('@service-nodeports -> tcp . 30080 : goto external-'))).toBe(true);
  });
});
