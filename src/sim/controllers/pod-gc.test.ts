import { describe, expect, it } from 'vitest';
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1';
import { createCluster, type Cluster } from '../cluster.ts';
import { kubeletStateOf } from '../kubelet/kubelet.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { storeGet } from '../apiserver/store.ts';
import { storeKey } from '../api/resources.ts';
import { pod as testPod, testWorld } from '../testing/world.ts';
import type { World } from '../world.ts';
import {
  byEvictionAndCreationTimestamp,
  GC_CHECK_PERIOD_MS,
  isNodeReady,
  isPodTerminated,
  isPodTerminating,
  podGCDef,
  podIsEvicted,
  POD_GARBAGE_COLLECTOR,
  QUARANTINE_MS,
  TaintNodeOutOfService,
  taintKeyExists,
  terminatingPodsOnOutOfServiceNodes,
} from './pod-gc.ts';

function pods(c: Cluster): Pod[] {
  return Object.values(c.world.state.store.objects.pods ?? {}) as Pod[];
}

function podgcRequests(c: Cluster, from: number): string[] {
  return c.log
    .slice(from)
    .filter((r) => r.kind === 'request' && r.component === 'pod-garbage-collector')
    .map((r) => `${r.verb} ${r.path} ${r.code}`);
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
    const last = c.world.state.store.history
      .filter((e) => e.resource === 'pods' && e.object.metadata?.name === victim.metadata?.name)
      .at(-1)!;
    expect(last.type).toBe('DELETED');
    const st = (last.object as Pod).status!;
    expect(st.phase).toBe('Failed');
    expect(st.conditions?.find((x) => x.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists',
    });
    c.advance(30_000);
    expect(pods(c).filter((p) => p.status?.phase === 'Running')).toHaveLength(3);
    expect(pods(c).every((p) => p.spec?.nodeName !== 'node-2')).toBe(true);
    // The garbage collector took the Node's Lease; the kubelet, unable to read its Node, made no new one.
    expect(Object.keys(c.world.state.store.objects.leases ?? {}).filter((k) => k.endsWith('/node-2'))).toEqual([]);
    expect(
      c.log.some(
        (r) => r.component === 'garbage-collector' && r.verb === 'DELETE' && r.path.endsWith('/leases/node-2'),
      ),
    ).toBe(true);
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
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'lonely', finalizers: ['example.com/hold'] },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    });
    expect(made.ok).toBe(true);
    expect(c.request({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'lonely' }).ok).toBe(true);
    const from = c.log.length;
    // The first pass, once its streamed caches have synced (WaitForNamedCacheSync's 100 ms poll).
    c.advance(1_000);
    expect(podgcRequests(c, from)).toEqual([
      'PATCH /api/v1/namespaces/default/pods/lonely/status 200',
      'DELETE /api/v1/namespaces/default/pods/lonely 200',
    ]);
  });
});

// ---------------------------------------------------------------- gcTerminating (out-of-service)

const OOS: Taint = { key: TaintNodeOutOfService, value: 'nodeshutdown', effect: 'NoExecute' };
const readyIs = (status: string): Node['status'] => ({ conditions: [{ type: 'Ready', status }] });

function mkNode(name: string, ready: string | undefined, taints: Taint[] = []): Node {
  return { metadata: { name }, spec: { taints }, status: ready ? readyIs(ready) : {} };
}

function mkPod(
  name: string,
  node: string,
  opts: { terminating?: boolean; created?: string; ns?: string; status?: Pod['status'] } = {},
): Pod {
  return {
    metadata: {
      name,
      namespace: opts.ns ?? 'default',
      creationTimestamp: opts.created ?? '2026-01-01T00:00:00Z',
      ...(opts.terminating === false ? {} : { deletionTimestamp: '2026-01-01T00:06:00Z' }),
    },
    spec: { containers: [], ...(node ? { nodeName: node } : {}) },
    status: opts.status ?? { phase: 'Running' },
  };
}

describe('terminatingPodsOnOutOfServiceNodes (gcTerminating’s choice)', () => {
  const nodes: Record<string, Node> = {
    down: mkNode('down', 'Unknown', [OOS]),
    'down-noschedule': mkNode('down-noschedule', 'Unknown', [{ key: TaintNodeOutOfService, effect: 'NoSchedule' }]),
    'down-false': mkNode('down-false', 'False', [OOS]),
    'no-ready-condition': mkNode('no-ready-condition', undefined, [OOS]),
    back: mkNode('back', 'True', [OOS]),
    untainted: mkNode('untainted', 'Unknown', [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }]),
  };
  const get = (n: string) => nodes[n];
  const names = (ps: Pod[]) => ps.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`);

  it.each([
    // [case, pod, chosen]
    ['terminating on a NotReady out-of-service node', mkPod('a', 'down'), true],
    [
      'not terminating (the taint eviction controller’s job, not podgc’s)',
      mkPod('a', 'down', { terminating: false }),
      false,
    ],
    ['the taint with another effect: only the key counts (TaintKeyExists)', mkPod('a', 'down-noschedule'), true],
    ['Ready=False counts as not ready', mkPod('a', 'down-false'), true],
    ['no Ready condition counts as not ready', mkPod('a', 'no-ready-condition'), true],
    ['the node is Ready again: left to its kubelet', mkPod('a', 'back'), false],
    ['unreachable but not out-of-service', mkPod('a', 'untainted'), false],
    ['the Node is gone (the lister misses it: gcOrphaned’s case)', mkPod('a', 'deleted'), false],
    ['never scheduled (gcUnscheduledTerminating’s case)', mkPod('a', ''), false],
    ['already Failed, still terminating', mkPod('a', 'down', { status: { phase: 'Failed' } }), true],
  ] as const)('%s', (_case, pod, chosen) => {
    expect(terminatingPodsOnOutOfServiceNodes([pod], get).length).toBe(chosen ? 1 : 0);
  });

  it('sorts as byEvictionAndCreationTimestamp: evicted first, then oldest, then by name', () => {
    const pods = [
      mkPod('c', 'down', { created: '2026-01-01T00:00:05Z' }),
      mkPod('b', 'down', { created: '2026-01-01T00:00:01Z' }),
      mkPod('a', 'down', { created: '2026-01-01T00:00:05Z' }),
      mkPod('z', 'down', { created: '2026-01-01T00:00:09Z', status: { phase: 'Failed', reason: 'Evicted' } }),
      mkPod('a', 'down', { created: '2026-01-01T00:00:05Z', ns: 'apps' }),
      mkPod('y', 'down', { created: '2026-01-01T00:00:00Z', status: { phase: 'Failed' } }), // Failed, not Evicted
    ];
    expect(names(terminatingPodsOnOutOfServiceNodes(pods, get))).toEqual([
      'default/z',
      'default/y',
      'default/b',
      'apps/a',
      'default/a',
      'default/c',
    ]);
  });

  it('the helpers read like their Kubernetes namesakes', () => {
    expect(isPodTerminating(mkPod('a', 'down'))).toBe(true);
    expect(isPodTerminating(mkPod('a', 'down', { terminating: false }))).toBe(false);
    expect(isNodeReady(nodes.back)).toBe(true);
    expect(isNodeReady(nodes.down)).toBe(false);
    expect(isNodeReady(nodes['no-ready-condition'])).toBe(false);
    expect(
      taintKeyExists([{ key: TaintNodeOutOfService, value: 'x', effect: 'PreferNoSchedule' }], TaintNodeOutOfService),
    ).toBe(true);
    expect(taintKeyExists(undefined, TaintNodeOutOfService)).toBe(false);
    expect(podIsEvicted({ phase: 'Failed', reason: 'Evicted' })).toBe(true);
    expect(podIsEvicted({ phase: 'Running', reason: 'Evicted' })).toBe(false);
    expect(byEvictionAndCreationTimestamp(mkPod('a', 'down'), mkPod('a', 'down'))).toBe(0);
  });
});

describe('gcTerminating in a pass', () => {
  /** A world with only the pod GC: nodes as given, pods bound to them and then deleted gracefully (no kubelet confirms). */
  function world(
    nodes: Node[],
    pods: { name: string; node: string; delete?: boolean }[],
    before?: (w: World) => void,
  ): World {
    const w = testWorld({ seed: 5 }, [podGCDef]);
    for (const n of nodes)
      w.kubectl({ verb: 'create', resource: 'nodes', body: { apiVersion: 'v1', kind: 'Node', ...n } });
    for (const p of pods) {
      w.kubectl({
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        body: testPod(p.name, { app: 'web' }, p.node),
      });
      // creationTimestamp has second precision: a second apart, so the order is by age.
      w.advance(1_000);
    }
    for (const p of pods)
      if (p.delete !== false) w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: p.name });
    before?.(w);
    w.addComponent(POD_GARBAGE_COLLECTOR, POD_GARBAGE_COLLECTOR);
    return w;
  }
  const reqs = (w: World) =>
    w.state.log
      .filter(
        (r) =>
          r.kind === 'request' &&
          r.component === POD_GARBAGE_COLLECTOR &&
          r.verb !== 'WATCH' &&
          !/^GET \/api\/v1\/(pods|nodes)(\?|$)/.test(`${r.verb} ${r.path}`),
      )
      .map((r) => `${r.verb} ${r.path} ${r.code}`);
  const stored = (w: World, name: string) =>
    storeGet(w.state.store, 'pods', storeKey('pods', 'default', name)) as Pod | undefined;
  const lastWritten = (w: World, name: string) =>
    w.state.store.history.filter((e) => e.resource === 'pods' && e.object.metadata?.name === name).at(-1)!;

  it('fails and force-deletes, oldest first, the terminating pods of a NotReady out-of-service node; nothing else', () => {
    const w = world(
      [mkNode('node-1', 'Unknown', [OOS]), mkNode('node-2', 'Unknown'), mkNode('node-3', 'True', [OOS])],
      [
        { name: 'web-b', node: 'node-1' },
        { name: 'web-a', node: 'node-1' },
        { name: 'web-c', node: 'node-1', delete: false },
        { name: 'web-d', node: 'node-2' },
        { name: 'web-e', node: 'node-3' },
      ],
    );
    w.advance(100); // the first pass runs at start
    expect(reqs(w)).toEqual([
      'PATCH /api/v1/namespaces/default/pods/web-b/status 200',
      'DELETE /api/v1/namespaces/default/pods/web-b 200',
      'PATCH /api/v1/namespaces/default/pods/web-a/status 200',
      'DELETE /api/v1/namespaces/default/pods/web-a 200',
    ]);
    for (const name of ['web-a', 'web-b']) {
      expect(stored(w, name)).toBeUndefined();
      const last = lastWritten(w, name);
      expect(last.type).toBe('DELETED');
      // markFailedAndDeletePod: phase Failed, and no condition of podgc's own.
      expect((last.object as Pod).status?.phase).toBe('Failed');
      expect((last.object as Pod).status?.conditions?.some((c) => c.type === 'DisruptionTarget') ?? false).toBe(false);
    }
    // Not terminating, on another node, or on a node that is Ready again: untouched.
    expect(stored(w, 'web-c')?.metadata?.deletionTimestamp).toBeUndefined();
    expect(stored(w, 'web-d')?.metadata?.deletionTimestamp).toBeDefined();
    expect(stored(w, 'web-e')?.metadata?.deletionTimestamp).toBeDefined();
    // The next pass finds nothing more to do.
    w.advance(GC_CHECK_PERIOD_MS);
    expect(reqs(w)).toHaveLength(4);
  });

  it('a pod already Failed is only deleted (no status patch)', () => {
    const w = world([mkNode('node-1', 'Unknown', [OOS])], [{ name: 'web-a', node: 'node-1' }], (x) => {
      x.kubectl({
        verb: 'patch',
        resource: 'pods',
        namespace: 'default',
        name: 'web-a',
        subresource: 'status',
        body: { status: { phase: 'Failed' } },
      });
    });
    w.advance(100);
    expect(reqs(w)).toEqual(['DELETE /api/v1/namespaces/default/pods/web-a 200']);
  });
});

describe('gcTerminated (past --terminated-pod-gc-threshold)', () => {
  it('deletes the terminated pods in excess, evicted first then oldest; 0 turns it off', () => {
    const run = (threshold: number) => {
      const w = testWorld({ seed: 5 }, [podGCDef]);
      const phases: [string, Record<string, unknown>][] = [
        ['web-old-succeeded', { phase: 'Succeeded' }],
        ['web-old-failed', { phase: 'Failed' }],
        ['web-running', { phase: 'Running' }],
        ['web-young-evicted', { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' }],
        ['web-young-succeeded', { phase: 'Succeeded' }],
      ];
      for (const [name, status] of phases) {
        w.kubectl({
          verb: 'create',
          resource: 'pods',
          namespace: 'default',
          body: testPod(name, { app: 'web' }, 'node-1'),
        });
        w.kubectl({
          verb: 'patch',
          resource: 'pods',
          namespace: 'default',
          name,
          subresource: 'status',
          body: { status },
        });
        w.advance(1_000); // a second apart: creation order is age order
      }
      w.addComponent(POD_GARBAGE_COLLECTOR, POD_GARBAGE_COLLECTOR, { params: { terminatedPodGCThreshold: threshold } });
      w.advance(100);
      return w.state.log
        .filter(
          (r) =>
            r.component === POD_GARBAGE_COLLECTOR && r.kind === 'request' && r.verb !== 'GET' && r.verb !== 'WATCH',
        )
        .map((r) => `${r.verb} ${r.path.split('/').pop()}`);
    };
    // Four terminated pods, threshold 2: two go, the evicted one first, then the oldest; no status
    // patch, as they are Succeeded or Failed already.
    expect(run(2)).toEqual(['DELETE web-young-evicted', 'DELETE web-old-succeeded']);
    expect(run(4)).toEqual([]);
    expect(run(0)).toEqual([]);
  });

  it('isPodTerminated is any phase but Pending, Running and Unknown', () => {
    const p = (phase?: string) => ({ status: phase === undefined ? {} : { phase } }) as Pod;
    expect(['Succeeded', 'Failed', undefined].map((x) => isPodTerminated(p(x)))).toEqual([true, true, true]);
    expect(['Pending', 'Running', 'Unknown'].map((x) => isPodTerminated(p(x)))).toEqual([false, false, false]);
  });
});

describe('non-graceful node shutdown: the out-of-service taint (end to end)', () => {
  const TAINT = 'node.kubernetes.io/out-of-service=nodeshutdown:NoExecute';
  const on = (c: Cluster, node: string) => pods(c).filter((p) => p.spec?.nodeName === node);
  const running = (c: Cluster) =>
    pods(c).filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp);
  const containersOn = (c: Cluster, node: string) =>
    Object.values(kubeletStateOf(c.world, node)!.runtime.containers).filter((x) => x.state === 'CONTAINER_RUNNING');
  const requestsOf = (c: Cluster, component: string, from: number) =>
    c.log
      .slice(from)
      .filter((r) => r.kind === 'request' && r.component === component && r.verb !== 'WATCH')
      .map((r) => `${r.verb} ${r.path} ${r.code}`);

  /** Six replicas, two per node; node-2 powered off and left past the 300 s eviction. */
  function stuck(): { c: Cluster; victims: string[] } {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=6');
    c.settle();
    const victims = on(c, 'node-2')
      .map((p) => p.metadata!.name!)
      .sort();
    expect(victims).toHaveLength(2);
    c.node('node-2', 'stop');
    c.advance(6 * 60_000);
    return { c, victims };
  }

  it('powered off past the eviction, the pods stay Terminating; the taint has them force-deleted within one pass', () => {
    const { c, victims } = stuck();
    // Evicted, replaced, and stuck: no kubelet confirms the deletion, and waiting changes nothing.
    c.advance(10 * 60_000);
    expect(
      on(c, 'node-2')
        .map((p) => p.metadata!.name!)
        .sort(),
    ).toEqual(victims);
    expect(on(c, 'node-2').every((p) => p.metadata?.deletionTimestamp && p.status?.phase === 'Running')).toBe(true);
    expect(running(c)).toHaveLength(6);

    const from = c.log.length;
    const t0 = c.now;
    expect(runKubectl(c, `taint nodes node-2 ${TAINT}`)).toMatchObject({
      stdout: 'node/node-2 tainted\n',
      exitCode: 0,
    });
    c.advance(GC_CHECK_PERIOD_MS);
    expect(on(c, 'node-2')).toEqual([]);
    expect(running(c)).toHaveLength(6);
    expect(pods(c)).toHaveLength(6);

    // The taint eviction controller handles the new NoExecute taint like any other: the pods' earlier
    // deletions have run, so they are deleted again at once (a no-op DELETE; DisruptionTarget is already there).
    expect(requestsOf(c, 'taint-eviction-controller', from).filter((r) => !r.includes('/events'))).toEqual(
      victims.flatMap((v) => [
        `GET /api/v1/namespaces/default/pods/${v} 200`,
        `DELETE /api/v1/namespaces/default/pods/${v} 200`,
      ]),
    );
    // The pod GC, at its next pass: Failed, then a DELETE with grace 0 (same creation second: by name).
    expect(requestsOf(c, POD_GARBAGE_COLLECTOR, from).filter((r) => !r.startsWith('GET'))).toEqual(
      victims.flatMap((v) => [
        `PATCH /api/v1/namespaces/default/pods/${v}/status 200`,
        `DELETE /api/v1/namespaces/default/pods/${v} 200`,
      ]),
    );
    const gcAt = c.log.slice(from).find((r) => r.component === POD_GARBAGE_COLLECTOR && r.verb === 'DELETE')!.t;
    expect(gcAt - t0).toBeLessThanOrEqual(GC_CHECK_PERIOD_MS);
    for (const v of victims) {
      const last = c.world.state.store.history
        .filter((e) => e.resource === 'pods' && e.object.metadata?.name === v)
        .at(-1)!;
      expect(last.type).toBe('DELETED');
      expect((last.object as Pod).status?.phase).toBe('Failed');
      // The taint manager's condition, not podgc's: gcTerminating adds none.
      expect(
        (last.object as Pod).status?.conditions?.filter((x) => x.type === 'DisruptionTarget').map((x) => x.reason),
      ).toEqual(['DeletionByTaintManager']);
    }
    // One "Marking for deletion" event per pod, counted twice (at 300 s and at the taint).
    const events = runKubectl(c, 'events')
      .stdout.split('\n')
      .filter((l) => l.includes('Marking for deletion'));
    expect(events).toHaveLength(2);
    for (const v of victims) expect(events.find((l) => l.includes(`Pod/${v} `))).toMatch(/\(x2 over \d+m\d*s?\)/);
  });

  it('the node comes back empty and keeps the taint until it is removed by hand; then it takes new pods', () => {
    const { c } = stuck();
    runKubectl(c, `taint nodes node-2 ${TAINT}`);
    c.advance(GC_CHECK_PERIOD_MS);
    c.node('node-2', 'start');
    c.advance(60_000);
    const node = () => c.world.state.store.objects.nodes['/registry/minions/node-2'] as Node;
    // Ready again: the node lifecycle controller lifts its unreachable taints, not the operator's.
    expect(isNodeReady(node())).toBe(true);
    expect(node().spec?.taints).toEqual([{ key: TaintNodeOutOfService, value: 'nodeshutdown', effect: 'NoExecute' }]);
    // No pod is bound to it any more, so its kubelet runs nothing (the power-off took the old containers).
    expect(on(c, 'node-2')).toEqual([]);
    expect(containersOn(c, 'node-2')).toEqual([]);
    // While tainted NoExecute, the scheduler leaves it out.
    runKubectl(c, 'scale deployment web --replicas=8');
    c.advance(30_000);
    expect(running(c)).toHaveLength(8);
    expect(on(c, 'node-2')).toEqual([]);
    // Untainted, it is a node like any other: nothing moves back, but new pods may land there.
    expect(runKubectl(c, 'taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute-')).toMatchObject(
      { stdout: 'node/node-2 untainted\n', exitCode: 0 },
    );
    c.advance(30_000);
    expect(on(c, 'node-2')).toEqual([]);
    expect(node().spec?.taints).toBeUndefined();
    runKubectl(c, 'scale deployment web --replicas=10');
    c.advance(30_000);
    expect(running(c)).toHaveLength(10);
    expect(on(c, 'node-2').length).toBeGreaterThan(0);
    expect(on(c, 'node-2').every((p) => p.status?.phase === 'Running')).toBe(true);
  });

  it('tainted before the 300 s are up: evicted at once and force-deleted at the next pass', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=6');
    c.settle();
    c.node('node-2', 'stop');
    c.advance(2 * 60_000); // NotReady and unreachable-tainted; the tolerations still hold
    expect(on(c, 'node-2').every((p) => !p.metadata?.deletionTimestamp)).toBe(true);
    const t0 = c.now;
    runKubectl(c, `taint nodes node-2 ${TAINT}`);
    c.advance(GC_CHECK_PERIOD_MS);
    expect(on(c, 'node-2')).toEqual([]);
    expect(running(c)).toHaveLength(6);
    expect(c.now - t0).toBeLessThanOrEqual(GC_CHECK_PERIOD_MS);
  });

  it('misused on a node that is only cut off: its containers run on until it reconnects, then its kubelet stops them', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=6');
    c.settle();
    c.node('node-2', 'partition');
    c.advance(2 * 60_000);
    runKubectl(c, `taint nodes node-2 ${TAINT}`);
    c.advance(GC_CHECK_PERIOD_MS);
    expect(on(c, 'node-2')).toEqual([]);
    // The objects are gone, the processes are not: the warning force deletion carries.
    expect(containersOn(c, 'node-2')).toHaveLength(2);
    c.node('node-2', 'heal');
    c.advance(2 * 60_000);
    expect(containersOn(c, 'node-2')).toEqual([]);
  });
});
