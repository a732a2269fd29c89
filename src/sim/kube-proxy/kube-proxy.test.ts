import { describe, expect, it } from 'vitest';
import { createCluster, replayCluster } from '../cluster.ts';
import { DEFAULT_MIN_SYNC_PERIOD_MS, kubeProxyAddon, type KubeProxyState } from './kube-proxy.ts';
import { kubeProxyRulesOf, kubeProxyStateOf } from './reader.ts';
import type { ClusterOptions } from '../cluster-types.ts';

const deployment = (replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
    },
  },
});
const service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] },
};

function clusterWith(opts: ClusterOptions = {}) {
  return createCluster({ seed: 1, addons: [kubeProxyAddon()], ...opts });
}

describe('kube-proxy in a cluster', () => {
  it('is not there unless the cluster asks for it', () => {
    const c = createCluster({ seed: 1 });
    expect(Object.keys(c.world.state.components).filter((n) => n.startsWith('kube-proxy'))).toEqual([]);
    expect(kubeProxyRulesOf(c.world.state, 'node-1')).toBeUndefined();
  });

  it('runs one instance per node as system:kube-proxy, and only watches', () => {
    const c = clusterWith({ kubeadm: true });
    c.settle();
    expect(
      Object.keys(c.world.state.components)
        .filter((n) => n.startsWith('kube-proxy/'))
        .sort(),
    ).toEqual(['kube-proxy/control-plane', 'kube-proxy/node-1', 'kube-proxy/node-2', 'kube-proxy/node-3']);
    const mine = c.log.filter((r) => r.component === 'kube-proxy/node-1');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((r) => r.verb === 'WATCH' || r.verb === 'LIST' || r.verb === 'GET')).toBe(true);
    expect(mine.every((r) => r.code === 200)).toBe(true);
    expect(kubeProxyStateOf(c.world.state, 'node-1')?.initialized).toBe(true);
  });

  it("stops with its node's power (no watch, no rules: the kernel's tables are gone) and starts again with it, from a fresh list", () => {
    const c = clusterWith();
    c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment(3) });
    c.request({ verb: 'create', resource: 'services', namespace: 'default', body: service });
    c.settle();
    const before = kubeProxyRulesOf(c.world.state, 'node-2');
    expect(before).toContain('KUBE-SVC-');
    c.node('node-2', 'stop');
    c.advance(1);
    const off = c.world.state.now;
    expect(kubeProxyStateOf(c.world.state, 'node-2')).toMatchObject({ down: true, initialized: false });
    expect(kubeProxyRulesOf(c.world.state, 'node-2')).toBeUndefined();
    // A change the API server makes meanwhile reaches the live nodes' kube-proxies, not node-2's.
    c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { spec: { replicas: 4 } },
    });
    c.advance(60_000);
    expect(c.log.filter((r) => r.component === 'kube-proxy/node-2' && r.t > off)).toEqual([]);
    expect(c.log.some((r) => r.component === 'kube-proxy/node-1' && r.t > off && r.kind === 'watch')).toBe(true);
    c.node('node-2', 'start');
    c.settle();
    const back = c.log.filter((r) => r.component === 'kube-proxy/node-2' && r.t > off);
    // Its informers start again as 1.37's do: a streaming list (sendInitialEvents) of each resource.
    expect(
      back.slice(0, 2).map((r) => [r.verb, r.path.split('?')[0], r.path.includes('sendInitialEvents=true')]),
    ).toEqual([
      ['WATCH', '/api/v1/services', true],
      ['WATCH', '/apis/discovery.k8s.io/v1/endpointslices', true],
    ]);
    expect(kubeProxyRulesOf(c.world.state, 'node-2')).toBe(kubeProxyRulesOf(c.world.state, 'node-1'));
  });

  it('writes a KUBE-SVC chain with one KUBE-SEP per ready pod once the endpoints are there', () => {
    const c = clusterWith();
    c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment(3) });
    c.request({ verb: 'create', resource: 'services', namespace: 'default', body: service });
    c.settle();
    const text = kubeProxyRulesOf(c.world.state, 'node-1')!;
    const clusterIP = (
      c.request({ verb: 'get', resource: 'services', namespace: 'default', name: 'web' }) as {
        object: { spec: { clusterIP: string } };
      }
    ).object.spec.clusterIP;
    expect(text).toMatch(
      new RegExp(
        `-A KUBE-SERVICES -m comment --comment "default/web cluster IP" -m tcp -p tcp -d ${clusterIP.replace(/\./g, '\\.')} --dport 80 -j KUBE-SVC-\\w{16}`,
      ),
    );
    expect(text.match(/^:KUBE-SEP-/gm)).toHaveLength(3 + 1); // the three pods and the API server behind default/kubernetes
    expect(text).toContain('--probability 0.3333333333');
    expect(text).toContain('--probability 0.5000000000');
    expect(text).toContain(
      '-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
    );
    // Every node writes the same rules for a Cluster-policy Service.
    expect(kubeProxyRulesOf(c.world.state, 'node-2')).toBe(text);
  });

  it('syncs at most once per minSyncPeriod: a change right after a sync waits out the second', () => {
    const c = clusterWith();
    c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment(1) });
    c.settle();
    const s = () => kubeProxyStateOf(c.world.state, 'node-1') as KubeProxyState;
    c.request({ verb: 'create', resource: 'services', namespace: 'default', body: service });
    // Run until the first sync that sees the Service.
    while (!s().synced?.services.some((x) => x.metadata?.name === 'web')) c.advance(1);
    const first = s().lastRun!;
    expect(
      s().synced!.slices.some(
        (x) => x.metadata?.labels?.['kubernetes.io/service-name'] === 'web' && (x.endpoints ?? []).length > 0,
      ),
    ).toBe(false);
    // The EndpointSlice arrives within milliseconds, but its sync waits for minSyncPeriod.
    while (
      !s().synced?.slices.some(
        (x) => x.metadata?.labels?.['kubernetes.io/service-name'] === 'web' && (x.endpoints ?? []).length > 0,
      )
    )
      c.advance(1);
    expect(s().lastRun! - first).toBe(DEFAULT_MIN_SYNC_PERIOD_MS);
  });

  it('writes the nftables table when the addon asks for that mode', () => {
    const c = clusterWith({ addons: [kubeProxyAddon({ mode: 'nftables' })] });
    c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment(2) });
    c.request({ verb: 'create', resource: 'services', namespace: 'default', body: service });
    c.settle();
    const text = kubeProxyRulesOf(c.world.state, 'node-1')!;
    expect(text.startsWith('table ip kube-proxy {')).toBe(true);
    expect(text).toMatch(
      /meta l4proto tcp dnat ip addr \. port to numgen random mod 2 map \{ 0 : 10\.244\.\d+\.\d+ \. 80 , 1 : 10\.244\.\d+\.\d+ \. 80 \}/,
    );
  });

  it('replays to the same world', () => {
    const opts: ClusterOptions = { seed: 3, addons: [kubeProxyAddon()] };
    const c = createCluster(opts);
    c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment(2) });
    c.request({ verb: 'create', resource: 'services', namespace: 'default', body: service });
    c.settle();
    const again = replayCluster(opts, c.world.state.inputs, c.now);
    expect(again.world.hash()).toBe(c.world.hash());
    expect(kubeProxyRulesOf(again.world.state, 'node-3')).toBe(kubeProxyRulesOf(c.world.state, 'node-3'));
  });
});
