// Client-side rate limits across a cluster: each component's client has its real default QPS and
// burst (client-go/flowcontrol.ts), so scaling to hundreds of replicas takes the time it takes in a
// real cluster, while a small cluster never waits.
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from './request-log.ts';
import {
  KUBE_CONTROLLER_MANAGER_CLIENT,
  KUBE_SCHEDULER_CLIENT,
  KUBELET_CLIENT,
  newTokenBucket,
  reserve,
  type RateLimit,
} from './client-go/flowcontrol.ts';
import { createCluster, type Cluster } from './cluster.ts';
import { kubeletDef } from './kubelet/kubelet.ts';
import { runKubectl } from './kubectl/kubectl.ts';
import { pod } from './testing/world.ts';

const creates = (r: RequestRecord) =>
  r.component === 'replicaset-controller' && r.kind === 'request' && r.verb === 'POST' && r.path.endsWith('/pods');
const binds = (r: RequestRecord) => r.component === 'scheduler' && r.path.endsWith('/binding');
const kubeletPodRequests = (node: string) => (r: RequestRecord) =>
  r.component === `kubelet/${node}` && r.kind === 'request' && r.path.includes('/pods/');

/** The most any of these requests went ahead of a token bucket replayed over their times (ms; 0 = none did). */
function mostAhead(recs: RequestRecord[], limit: RateLimit): number {
  const b = newTokenBucket(limit, recs[0]?.t ?? 0);
  return recs.reduce((most, r) => Math.max(most, reserve(b, limit, r.t)), 0);
}

function scaleTo(c: Cluster, replicas: number): { t0: number; recs: RequestRecord[] } {
  runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
  c.settle();
  const t0 = c.now;
  const from = c.log.length;
  expect(runKubectl(c, `scale deployment web --replicas=${replicas}`).stdout).toBe('deployment.apps/web scaled\n');
  expect(c.settle(600_000)).toBe(true);
  return { t0, recs: c.log.slice(from) };
}

describe('client-side rate limits (client-go token buckets)', () => {
  it('a cluster started with raised limits (--kube-api-qps/--kube-api-burst) creates at the raised rate', () => {
    const limit = { qps: 100, burst: 100 };
    const c = createCluster({ seed: 1, nodes: 30, clientLimits: { 'replicaset-controller': limit } });
    const made = scaleTo(c, 300).recs.filter(creates);
    expect(made).toHaveLength(299);
    expect(made[limit.burst].t - made[0].t).toBe(1000 / limit.qps);
    const span = made.at(-1)!.t - made[0].t;
    expect(span).toBeGreaterThanOrEqual(((299 - limit.burst) / limit.qps) * 1000);
    expect(span).toBeLessThan(
      ((299 - KUBE_CONTROLLER_MANAGER_CLIENT.burst) / KUBE_CONTROLLER_MANAGER_CLIENT.qps) * 1000,
    );
    expect(mostAhead(made, limit)).toBe(0);
  });

  it("kubectl scale deployment web --replicas=300: creations follow the controller's QPS 20 / burst 30, bindings follow them", () => {
    const c = createCluster({ seed: 1, nodes: 30 });
    const { t0, recs } = scaleTo(c, 300);
    const made = recs.filter(creates);
    expect(made).toHaveLength(299);
    const { qps, burst } = KUBE_CONTROLLER_MANAGER_CLIENT;
    // The first burst goes at once (slow start's batches 1, 2, 4, 8 and 15 of the 16th), then one per 1/qps.
    expect(made.slice(0, burst).every((r) => r.t === made[0].t)).toBe(true);
    expect(made[burst].t - made[0].t).toBe(1000 / qps);
    const span = made.at(-1)!.t - made[0].t;
    expect(span).toBeGreaterThanOrEqual(((299 - burst) / qps) * 1000);
    expect(span).toBeLessThan(((299 - burst) / qps) * 1000 + 100);
    expect(mostAhead(made, KUBE_CONTROLLER_MANAGER_CLIENT)).toBe(0);
    // The scheduler (QPS 50) keeps up with 20 pods a second: each binding follows its pod's creation.
    const bound = recs.filter(binds);
    expect(bound).toHaveLength(299);
    expect(mostAhead(bound, KUBE_SCHEDULER_CLIENT)).toBe(0);
    expect(bound.at(-1)!.t - made.at(-1)!.t).toBeLessThan(50);
    const pods = Object.values(c.world.state.store.objects.pods ?? {}) as { status?: { phase?: string } }[];
    expect(pods.filter((p) => p.status?.phase === 'Running')).toHaveLength(300);
    expect(c.now - t0).toBeGreaterThan(13_450);
    // The sync that waited wrote the ReplicaSet's status once it had made every pod.
    const rs = c.world.state.components['replicaset-controller'].state as { creating?: object; deleting?: object };
    expect(rs.creating ?? {}).toEqual({});
    // Scaling down to 10 deletes 290 pods the same way: a burst, then 20 a second.
    const from = c.log.length;
    runKubectl(c, 'scale deployment web --replicas=10');
    expect(c.settle(600_000)).toBe(true);
    const deleted = c.log
      .slice(from)
      .filter((r) => r.component === 'replicaset-controller' && r.verb === 'DELETE' && r.path.includes('/pods/'));
    expect(deleted).toHaveLength(290);
    expect(mostAhead(deleted, KUBE_CONTROLLER_MANAGER_CLIENT)).toBe(0);
    expect(deleted.at(-1)!.t - deleted[0].t).toBeGreaterThanOrEqual(((290 - burst) / qps) * 1000);
    expect(rs.deleting ?? {}).toEqual({});
    expect(Object.keys(c.world.state.store.objects.pods ?? {})).toHaveLength(10);
  });

  it("pods made faster than the scheduler's QPS 50 are bound 100 at once, then 50 a second, in order", () => {
    const c = createCluster({ seed: 1, nodes: 30 });
    c.settle();
    const from = c.log.length;
    // Pods from kubectl (one request each, at one instant): only the scheduler's client limits.
    for (let i = 0; i < 300; i++)
      c.request({
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        body: pod(`p-${String(i).padStart(3, '0')}`),
      });
    expect(c.settle(600_000)).toBe(true);
    const bound = c.log.slice(from).filter(binds);
    expect(bound).toHaveLength(300);
    const { qps, burst } = KUBE_SCHEDULER_CLIENT;
    expect(mostAhead(bound, KUBE_SCHEDULER_CLIENT)).toBe(0);
    expect(bound.at(-1)!.t - bound[0].t).toBeGreaterThanOrEqual(((300 - burst) / qps) * 1000);
    // Scheduling went on while the bindings waited: they go out in the order the pods were scheduled.
    const names = bound.map((r) => r.path.split('/').at(-2));
    expect(names).toEqual([...names].sort());
  });

  it("a kubelet's pod status syncs wait for its client's tokens, in order, and every pod gets its status", () => {
    const c = createCluster({ seed: 1, nodes: 1 });
    // A kubelet client far below the default (QPS 50 is rarely reached by one node's 110 pods).
    const small: RateLimit = { qps: 5, burst: 10 };
    c.world.define({ ...kubeletDef, clientLimit: small });
    c.settle();
    const from = c.log.length;
    for (let i = 0; i < 40; i++)
      c.request({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(`p-${i}`) });
    expect(c.settle(600_000)).toBe(true);
    const recs = c.log.slice(from).filter(kubeletPodRequests('node-1'));
    // A PATCH follows its GET at once, taking its token ahead by at most one token's time.
    expect(mostAhead(recs, small)).toBeLessThanOrEqual(1000 / small.qps);
    expect(recs.at(-1)!.t - recs[0].t).toBeGreaterThanOrEqual(
      ((recs.length - small.burst) / small.qps) * 1000 - 1000 / small.qps,
    );
    const pods = Object.values(c.world.state.store.objects.pods ?? {}) as { status?: { phase?: string } }[];
    expect(pods.filter((p) => p.status?.phase === 'Running')).toHaveLength(40);
  });

  it("a small cluster never waits: three replicas take none of the limits' time", () => {
    const c = createCluster({ seed: 1 });
    const { recs } = scaleTo(c, 12);
    const made = recs.filter(creates);
    expect(made).toHaveLength(11);
    expect(mostAhead(made, KUBE_CONTROLLER_MANAGER_CLIENT)).toBe(0);
    // No component ever had to wait: every bucket still holds tokens.
    for (const [name, e] of Object.entries(c.world.state.components)) {
      if (e.client) expect(e.client.tokens, name).toBeGreaterThan(0);
    }
    for (const node of ['node-1', 'node-2', 'node-3'])
      expect(mostAhead(recs.filter(kubeletPodRequests(node)), KUBELET_CLIENT)).toBe(0);
  });
});
