import { describe, expect, it } from 'vitest';
import { createCluster, replayCluster } from '../cluster.ts';
import type { ClusterOptions } from '../cluster-types.ts';
import { kubeProxyAddon } from '../kube-proxy/kube-proxy.ts';
import { SYN_TIMEOUT_MS, type ConnectRequest, type ConnectResult } from './data-path.ts';
import { podNetworkStateOf, runNetJob } from './pod-network.ts';
import { Timeline } from '../time-travel.ts';
import { timelineCluster } from '../figures/terminal.ts';

const deployment = (replicas: number, port = 80) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: port }] }] },
    },
  },
});
const service = (targetPort = 80, extra = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80, protocol: 'TCP', targetPort }], ...extra },
});

function webCluster(opts: ClusterOptions = {}, replicas = 3, svc = service()) {
  const c = createCluster({ seed: 1, addons: [kubeProxyAddon()], ...opts });
  c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment(replicas) });
  c.request({ verb: 'create', resource: 'services', namespace: 'default', body: svc });
  c.settle();
  const ip = (
    c.request({ verb: 'get', resource: 'services', namespace: 'default', name: 'web' }) as {
      object: { spec: { clusterIP: string } };
    }
  ).object.spec.clusterIP;
  return { c, ip };
}

function send(c: ReturnType<typeof createCluster>, reqs: ConnectRequest[]): ConnectResult[] {
  return runNetJob(c, { type: 'connect', requests: reqs })!.connections!;
}

const fromNode = (node: string, ip: string, n: number): ConnectRequest[] =>
  Array.from({ length: n }, () => ({ from: { node }, dstIP: ip, dstPort: 80 }));

function byPod(rs: ConnectResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rs) {
    const k = r.ok ? r.served!.pod : `!${r.error}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe('the data path', () => {
  it('answers only in clusters that run kube-proxy', () => {
    expect(runNetJob(createCluster({ seed: 1 }), { type: 'connect', requests: [] })).toBeUndefined();
  });

  it('spreads connections to a ClusterIP over the three pods, each crossing to its node', () => {
    const { c, ip } = webCluster();
    const rs = send(c, fromNode('node-2', ip, 300));
    expect(rs.every((r) => r.ok)).toBe(true);
    const counts = Object.values(byPod(rs));
    expect(counts).toHaveLength(3);
    for (const n of counts) {
      expect(n).toBeGreaterThan(70);
      expect(n).toBeLessThan(130);
    }
    const r = rs[0];
    expect(r.node).toBe('node-2');
    expect(r.srcIP).toBe('10.0.0.12');
    expect(r.trace[0]).toContain(`-d ${ip} --dport 80 -j KUBE-SVC-`);
    expect(r.trace.at(-1)).toContain(`--to-destination ${r.endpoint}`);
    // New connections take new source ports from the ephemeral range.
    expect(new Set(rs.map((x) => x.srcPort)).size).toBe(300);
  });

  it('keeps an established connection (its source port) on its endpoint through conntrack', () => {
    const { c, ip } = webCluster();
    const first = send(c, [{ from: { node: 'node-1' }, dstIP: ip, dstPort: 80, srcPort: 40000, keepAlive: true }])[0];
    const again = send(
      c,
      Array.from({ length: 20 }, () => ({ from: { node: 'node-1' }, dstIP: ip, dstPort: 80, srcPort: 40000 })),
    );
    expect(again.every((r) => r.endpoint === first.endpoint && r.trace[0].startsWith('conntrack: ESTABLISHED'))).toBe(
      true,
    );
  });

  it("is refused by kube-proxy's REJECT rule when the Service has no endpoints", () => {
    const { c, ip } = webCluster({}, 0);
    const [r] = send(c, fromNode('node-1', ip, 1));
    expect(r).toMatchObject({ ok: false, error: 'refused', elapsedMs: 0 });
    expect(r.trace).toEqual([
      `-A KUBE-SERVICES -m comment --comment "default/web has no endpoints" -m tcp -p tcp -d ${ip} --dport 80 -j REJECT`,
    ]);
  });

  it('is refused by the pod when no container listens on the target port', () => {
    const { c, ip } = webCluster({}, 1, service(8080));
    const [r] = send(c, fromNode('node-1', ip, 1));
    expect(r).toMatchObject({ ok: false, error: 'refused' });
    expect(r.endpoint).toMatch(/:8080$/);
    expect(r.reason).toContain('listens on port 8080');
  });

  it('times out on a ClusterIP no rule knows', () => {
    const { c } = webCluster({}, 1);
    const [r] = send(c, fromNode('node-1', '10.96.200.200', 1));
    expect(r).toMatchObject({ ok: false, error: 'timeout', elapsedMs: SYN_TIMEOUT_MS });
  });

  it("keeps routing by the frozen rules while the control plane is down: a dead node's pod times out, the others answer", () => {
    const { c, ip } = webCluster();
    c.controlPlane('stop');
    const victim = send(c, fromNode('node-1', ip, 30)).find((r) => r.served?.node === 'node-3')!;
    c.node('node-3', 'stop');
    c.advance(120_000);
    const rs = send(c, fromNode('node-1', ip, 300));
    const dead = rs.filter((r) => r.endpoint === victim.endpoint);
    expect(dead.length).toBeGreaterThan(60);
    expect(dead.every((r) => r.error === 'timeout')).toBe(true);
    expect(rs.filter((r) => r.endpoint !== victim.endpoint).every((r) => r.ok)).toBe(true);
  });

  it('reaches a NodePort on another node, whose rules take it to a pod', () => {
    const { c } = webCluster({}, 1, service(80, { type: 'NodePort' }));
    const svc = (
      c.request({ verb: 'get', resource: 'services', namespace: 'default', name: 'web' }) as {
        object: { spec: { ports: { nodePort: number }[] } };
      }
    ).object;
    const [r] = send(c, [{ from: { node: 'node-1' }, dstIP: '10.0.0.13', dstPort: svc.spec.ports[0].nodePort }]);
    expect(r.ok).toBe(true);
    expect(r.trace.some((l) => l.startsWith('-A KUBE-NODEPORTS '))).toBe(true);
    const [closed] = send(c, [{ from: { node: 'node-1' }, dstIP: '10.0.0.13', dstPort: 31999 }]);
    expect(closed).toMatchObject({ ok: false, error: 'refused' });
  });

  it("sends from a pod through its own node's rules", () => {
    const { c, ip } = webCluster({}, 2);
    const pod = (
      c.request({ verb: 'list', resource: 'pods', namespace: 'default' }) as {
        object: { items: { metadata: { name: string }; spec: { nodeName: string } }[] };
      }
    ).object.items[0];
    const [r] = send(c, [{ from: { pod: { namespace: 'default', name: pod.metadata.name } }, dstIP: ip, dstPort: 80 }]);
    expect(r.ok).toBe(true);
    expect(r.node).toBe(pod.spec.nodeName);
    expect(r.srcIP).toMatch(/^10\.244\./);
  });

  it("replays to the same network state, and draws nothing from the world's own stream", () => {
    const opts: ClusterOptions = { seed: 4, addons: [kubeProxyAddon()] };
    const { c, ip } = webCluster(opts);
    const rngBefore = [...c.world.state.rng];
    const rs = send(c, fromNode('node-2', ip, 50));
    expect(c.world.state.rng).toEqual(rngBefore);
    const again = replayCluster(opts, c.world.state.inputs, c.now);
    expect(again.world.hash()).toBe(c.world.hash());
    expect(podNetworkStateOf(again.world.state)).toEqual(podNetworkStateOf(c.world.state));
    expect(podNetworkStateOf(again.world.state)!.last!.connections!.map((r) => r.endpoint)).toEqual(
      rs.map((r) => r.endpoint),
    );
  });

  it('walks the nftables table in nftables mode: the same spread, REJECT without endpoints, and a port the ClusterIP does not serve refused', () => {
    const { c, ip } = webCluster({ addons: [kubeProxyAddon({ mode: 'nftables' })] });
    const rs = send(c, fromNode('node-1', ip, 300));
    expect(rs.every((r) => r.ok)).toBe(true);
    expect(Object.keys(byPod(rs))).toHaveLength(3);
    expect(rs[0].trace[0]).toMatch(/^services: .* vmap @service-ips -> /);
    const [wrongPort] = send(c, [{ from: { node: 'node-1' }, dstIP: ip, dstPort: 81 }]);
    expect(wrongPort).toMatchObject({ ok: false, error: 'refused' });
    expect(wrongPort.trace).toEqual(['cluster-ips-check: ip daddr @cluster-ips reject']);
    const [unallocated] = send(c, fromNode('node-1', '10.96.200.200', 1));
    expect(unallocated).toMatchObject({ ok: false, error: 'timeout' });
    c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { spec: { replicas: 0 } },
    });
    c.settle();
    const [none] = send(c, fromNode('node-1', ip, 1));
    expect(none).toMatchObject({ ok: false, error: 'refused' });
    expect(none.trace[0]).toMatch(/vmap @no-endpoint-services -> .* : goto reject-chain$/);
  });

  it("records its jobs on a figure's timeline: going back and forward again gives the same network state", () => {
    const { c, ip } = webCluster();
    const tl = new Timeline(c);
    const host = timelineCluster(tl, () => {});
    const first = runNetJob(host, { type: 'connect', requests: fromNode('node-1', ip, 10) })!.connections!;
    const second = runNetJob(host, { type: 'connect', requests: fromNode('node-2', ip, 10) })!.connections!;
    const end = tl.at().step;
    const state = JSON.stringify(podNetworkStateOf(c.world.state));
    tl.seek(0);
    expect(podNetworkStateOf(c.world.state)!.jobs).toBe(0);
    tl.seek(end);
    // The job's event writes no log record, so it is no step of its own: it runs with what is due next.
    tl.advance(0);
    expect(JSON.stringify(podNetworkStateOf(c.world.state))).toBe(state);
    expect(podNetworkStateOf(c.world.state)!.last!.connections!.map((r) => r.endpoint)).toEqual(
      second.map((r) => r.endpoint),
    );
    expect(first.every((r) => r.ok) && second.every((r) => r.ok)).toBe(true);
  });
});
