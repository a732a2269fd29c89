import { describe, expect, it } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import { createCluster, type Cluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { GC_CHECK_PERIOD_MS, QUARANTINE_MS } from './pod-gc.ts';

function pods(c: Cluster): Pod[] {
  return Object.values(c.world.state.store.objects.pods ?? {}) as Pod[];
}

function podgcRequests(c: Cluster, from: number): string[] {
  return c.log.slice(from).filter((r) => r.kind === 'request' && r.component === 'pod-garbage-collector').map((r) => `${r.verb} ${r.path} ${r.code}`);
}

describe('the pod garbage collector', () => {
  it('a deleted Node’s pods are failed and force-deleted after the 40 s quarantine; the ReplicaSet replaces them', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    c.settle();
    const victim = pods(c).find((p) => p.spec?.nodeName === 'node-2')!;
    const from = c.log.length;
    const deletedAt = c.now;
    runKubectl(c, 'delete node node-2');
    c.advance(QUARANTINE_MS - 1_000);
    expect(pods(c).some((p) => p.metadata?.name === victim.metadata?.name)).toBe(true); // still quarantined
    c.advance(GC_CHECK_PERIOD_MS + 30_000);
    expect(pods(c).some((p) => p.metadata?.name === victim.metadata?.name)).toBe(false);
    const reqs = podgcRequests(c, from);
    expect(reqs).toEqual([
      'GET /api/v1/nodes/node-2 404',
      `PATCH /api/v1/namespaces/default/pods/${victim.metadata!.name}/status 200`,
      `DELETE /api/v1/namespaces/default/pods/${victim.metadata!.name} 200`,
    ]);
    const del = c.log.find((r) => r.component === 'pod-garbage-collector' && r.verb === 'DELETE')!;
    expect(del.t - deletedAt).toBeGreaterThanOrEqual(QUARANTINE_MS);
    expect(del.t - deletedAt).toBeLessThanOrEqual(QUARANTINE_MS + 2 * GC_CHECK_PERIOD_MS);
    // Its last state: Failed, with the DisruptionTarget condition podgc sets.
    const last = c.world.state.store.history.filter((e) => e.resource === 'pods' && e.object.metadata?.name === victim.metadata?.name).at(-1)!;
    expect(last.type).toBe('DELETED');
    const st = (last.object as Pod).status!;
    expect(st.phase).toBe('Failed');
    expect(st.conditions?.find((x) => x.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
    c.advance(30_000);
    expect(pods(c).filter((p) => p.status?.phase === 'Running')).toHaveLength(3);
    expect(pods(c).every((p) => p.spec?.nodeName !== 'node-2')).toBe(true);
    // The garbage collector took the Node's Lease; the kubelet, unable to read its Node, made no new one.
    expect(Object.keys(c.world.state.store.objects.leases ?? {}).filter((k) => k.endsWith('/node-2'))).toEqual([]);
    expect(c.log.some((r) => r.component === 'garbage-collector' && r.verb === 'DELETE' && r.path.endsWith('/leases/node-2'))).toBe(true);
  });

  it('leaves pods alone while their Node exists, even when it is down', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    c.settle();
    const from = c.log.length;
    c.node('node-2', 'stop');
    c.advance(3 * 60_000);
    expect(podgcRequests(c, from)).toEqual([]);
  });

  it('force-deletes a pod marked for deletion that was never scheduled', () => {
    const c = createCluster({ seed: 1 });
    c.controlPlane('stop', 'scheduler');
    // A finalizer keeps it after the DELETE; an unscheduled pod has no kubelet to finish it.
    const made = c.request({
      verb: 'create', resource: 'pods', namespace: 'default',
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'lonely', finalizers: ['example.com/hold'] }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    });
    expect(made.ok).toBe(true);
    expect(c.request({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'lonely' }).ok).toBe(true);
    const from = c.log.length;
    c.advance(GC_CHECK_PERIOD_MS + 1_000);
    expect(podgcRequests(c, from)).toEqual([
      'PATCH /api/v1/namespaces/default/pods/lonely/status 200',
      'DELETE /api/v1/namespaces/default/pods/lonely 200',
    ]);
  });
});
