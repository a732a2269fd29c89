import { describe, expect, it } from 'vitest';
import { syncProxyRules } from '../kube-proxy/iptables-rules.ts';
import { createRng } from '../rng.ts';
import { walkService, walkSlice } from '../testing/kube-proxy.ts';
import { ruleWords, statisticMatches, walkRules, type Packet } from './iptables-walk.ts';

const svc = walkService;
const slice = walkSlice;
const config = {
  nodeName: 'node-1',
  nodeIP: '10.0.0.11',
  clusterCIDR: '10.244.0.0/16',
  localhostNodePorts: true,
  nfacct: true,
  randomFully: true,
};
const fromPod = (dstIP: string, dstPort = 80, srcPort = 40000): Packet => ({
  protocol: 'TCP',
  srcIP: '10.244.1.9',
  srcPort,
  dstIP,
  dstPort,
  srcLocal: false,
  dstLocal: false,
});
const env = (seed = 1) => ({ now: 0, recent: {}, rng: createRng(seed) });

describe('ruleWords', () => {
  it('keeps a quoted comment as one word', () => {
    expect(ruleWords('-A KUBE-SERVICES -m comment --comment "default/web:http cluster IP" -j X')).toEqual([
      '-A',
      'KUBE-SERVICES',
      '-m',
      'comment',
      '--comment',
      'default/web:http cluster IP',
      '-j',
      'X',
    ]);
  });
});

describe('statisticMatches', () => {
  it('matches about p of the time, as xt_statistic compares 31 random bits', () => {
    const rng = createRng(7);
    let hits = 0;
    for (let i = 0; i < 10_000; i++) if (statisticMatches(rng, 0.25)) hits++;
    expect(hits).toBeGreaterThan(2300);
    expect(hits).toBeLessThan(2700);
    expect(statisticMatches(createRng(1), 0)).toBe(false);
    expect(statisticMatches(createRng(1), 1)).toBe(true);
  });
});

describe('walkRules', () => {
  const rules = syncProxyRules(
    [svc('web', '10.96.0.20')],
    [slice('web', ['10.244.1.2', '10.244.2.2', '10.244.3.2'])],
    config,
  );

  it('DNATs a ClusterIP connection to one of the endpoints, through KUBE-SVC and KUBE-SEP', () => {
    const r = walkRules(rules, fromPod('10.96.0.20'), env(), false);
    expect(r.verdict.kind).toBe('dnat');
    expect(['10.244.1.2:8080', '10.244.2.2:8080', '10.244.3.2:8080']).toContain((r.verdict as { to: string }).to);
    expect(r.trace[0]).toMatch(/^-A KUBE-SERVICES .*"default\/web:http cluster IP".* -j KUBE-SVC-/);
    expect(r.trace.at(-1)).toMatch(/^-A KUBE-SEP-\w+ .* -j DNAT --to-destination /);
  });

  it('spreads new connections evenly over the endpoints (1/3, then 1/2, then the rest)', () => {
    const e = env(3);
    const counts: Record<string, number> = {};
    for (let i = 0; i < 3000; i++) {
      const v = walkRules(rules, fromPod('10.96.0.20', 80, 30000 + i), e, false).verdict as { to: string };
      counts[v.to] = (counts[v.to] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['10.244.1.2:8080', '10.244.2.2:8080', '10.244.3.2:8080']);
    for (const n of Object.values(counts)) {
      expect(n).toBeGreaterThan(900);
      expect(n).toBeLessThan(1100);
    }
  });

  it('is deterministic for a seed', () => {
    const pick = () =>
      Array.from(
        { length: 20 },
        (_, i) => (walkRules(rules, fromPod('10.96.0.20', 80, i), e, false).verdict as { to: string }).to,
      );
    let e = env(5);
    const a = pick();
    e = env(5);
    expect(pick()).toEqual(a);
  });

  it('REJECTs in the filter table when the Service has no endpoints', () => {
    const none = syncProxyRules([svc('web', '10.96.0.20')], [slice('web', ['10.244.1.2'], false)], config);
    const r = walkRules(none, fromPod('10.96.0.20'), env(), false);
    expect(r.verdict).toEqual({ kind: 'reject' });
    expect(r.trace).toEqual([
      '-A KUBE-SERVICES -m comment --comment "default/web:http has no endpoints" -m tcp -p tcp -d 10.96.0.20 --dport 80 -j REJECT',
    ]);
  });

  it('lets a packet for no Service pass untouched', () => {
    expect(walkRules(rules, fromPod('10.96.0.99'), env(), false).verdict).toEqual({ kind: 'accept' });
    expect(walkRules(rules, fromPod('10.96.0.20', 81), env(), false).verdict).toEqual({ kind: 'accept' });
  });

  it('keeps a client on its endpoint with ClientIP affinity (the recent list), and forgets it after the timeout', () => {
    const sticky = syncProxyRules(
      [
        svc('web', '10.96.0.20', {
          sessionAffinity: 'ClientIP',
          sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
        }),
      ],
      [slice('web', ['10.244.1.2', '10.244.2.2', '10.244.3.2'])],
      config,
    );
    const e = env(11);
    const first = (walkRules(sticky, fromPod('10.96.0.20', 80, 1), e, false).verdict as { to: string }).to;
    for (let i = 2; i < 30; i++)
      expect((walkRules(sticky, fromPod('10.96.0.20', 80, i), e, false).verdict as { to: string }).to).toBe(first);
    // The affinity rule (--rcheck) decides within the timeout; after it, the statistic rules draw again.
    const rcheck = (t: number) => {
      e.now = t;
      return walkRules(sticky, fromPod('10.96.0.20', 80, 50), e, false).trace.some((l) => l.includes('--rcheck'));
    };
    expect(rcheck(60_000)).toBe(true);
    expect(rcheck(120_001)).toBe(false);
  });

  it("takes a NodePort on the node's own address through KUBE-NODEPORTS", () => {
    const np = syncProxyRules(
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
    const r = walkRules(np, p, env(), false);
    expect(r.verdict).toEqual({ kind: 'dnat', to: '10.244.2.2:8080' });
    expect(r.trace.some((l) => l.startsWith('-A KUBE-NODEPORTS '))).toBe(true);
  });

  it('DROPs ClusterIP traffic of an internalTrafficPolicy Local Service on a node with no local endpoint', () => {
    const local = syncProxyRules(
      [svc('web', '10.96.0.20', { internalTrafficPolicy: 'Local' })],
      [slice('web', ['10.244.2.2'])].map((s) => ({ ...s, endpoints: [{ ...s.endpoints[0], nodeName: 'node-2' }] })),
      config,
    );
    expect(walkRules(local, fromPod('10.96.0.20'), env(), false).verdict).toEqual({ kind: 'drop' });
  });
});
