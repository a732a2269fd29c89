import { describe, expect, it } from 'vitest';
import type { Event as CoreEvent, Pod } from 'kubernetes-types/core/v1';
import { testWorld } from '../testing/world.ts';
import type { World } from '../world.ts';
import { makeNode } from '../testing/scheduler.ts';
import { schedulerDef, schedulingRecordOf, type SchedulerState } from './scheduler.ts';

// sample-controller style: preload nodes and pods, start the scheduler, settle, and read the
// requests it made and the objects that resulted.

function podBody(name: string, cpu = '100m', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu, memory: '64Mi' } } }], ...extra },
  };
}

function addNode(w: World, name: string, cpu = '4', extra: Parameters<typeof makeNode>[2] = {}): void {
  const r = w.kubectl({
    verb: 'create',
    resource: 'nodes',
    body: makeNode(name, { cpu, memory: '8Gi', pods: '110' }, extra),
  });
  expect(r.ok).toBe(true);
}

function addPod(w: World, body: Record<string, unknown>): void {
  const r = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body });
  expect(r.ok).toBe(true);
}

function world(seed = 1, nodes = 3, cpu = '4'): World {
  const w = testWorld({ seed }, [schedulerDef]);
  for (let i = 1; i <= nodes; i++) addNode(w, `node-${i}`, cpu);
  return w;
}

function start(w: World, params: unknown = undefined): void {
  w.addComponent('scheduler', 'scheduler', params === undefined ? {} : { params });
}

function getPod(w: World, name: string): Pod {
  const r = w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name });
  if (!r.ok) throw new Error(`no pod ${name}`);
  return r.object as Pod;
}

function events(w: World): CoreEvent[] {
  const r = w.kubectl({ verb: 'list', resource: 'events', namespace: 'default' });
  if (!r.ok) throw new Error('list events');
  return (r.object as { items: CoreEvent[] }).items;
}

function schedulerRequests(w: World): { verb: string; path: string; code: number }[] {
  return w.state.log
    .filter((r) => r.component === 'scheduler' && r.kind === 'request' && r.verb !== 'GET' && r.verb !== 'WATCH')
    .map((r) => ({ verb: r.verb, path: r.path, code: r.code }));
}

function state(w: World): SchedulerState {
  return w.state.components.scheduler.state as SchedulerState;
}

describe('scheduler', () => {
  it('orders nodes as nodeTree does (zones round-robin) through adds, a delete and a zone change', () => {
    const ZONE = 'topology.kubernetes.io/zone';
    const w = testWorld({ seed: 1 }, [schedulerDef]);
    const zoned = (name: string, zone: string) => addNode(w, name, '4', { labels: { [ZONE]: zone } });
    zoned('a1', 'z1');
    zoned('a2', 'z1');
    zoned('b1', 'z2');
    zoned('c1', 'z3');
    start(w);
    w.advance(100);
    // Adds since the order was last interleaved are interleaved when it is next needed.
    zoned('b2', 'z2');
    zoned('a3', 'z1');
    w.advance(100);
    expect(w.kubectl({ verb: 'delete', resource: 'nodes', name: 'a1' }).ok).toBe(true);
    w.advance(100);
    expect(
      w.kubectl({ verb: 'patch', resource: 'nodes', name: 'c1', body: { metadata: { labels: { [ZONE]: 'z1' } } } }).ok,
    ).toBe(true);
    w.advance(100);
    zoned('d1', 'z2');
    w.advance(100);
    addPod(w, podBody('web-1'));
    w.settle(10_000);
    // Interleaving after every change: [a1 b1 c1 a2] + b2, a3 → [a1 b1 c1 a2 b2 a3]; − a1 → zones
    // z2 z3 z1: [b1 c1 a2 b2 a3]; c1 → z1: [b1 c1 b2 a2 a3]; + d1 → [b1 c1 b2 a2 d1 a3].
    expect(state(w).nodeOrder).toEqual(['b1', 'c1', 'b2', 'a2', 'd1', 'a3']);
  });

  it('binds a pending pod, then records the Scheduled event from default-scheduler', () => {
    const w = world();
    addPod(w, podBody('web-1'));
    start(w);
    expect(w.settle(10_000)).toBe(true);
    const p = getPod(w, 'web-1');
    expect(p.spec?.nodeName).toMatch(/^node-[123]$/);
    expect(p.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    expect(schedulerRequests(w)).toEqual([
      { verb: 'POST', path: '/api/v1/namespaces/default/pods/web-1/binding', code: 201 },
      { verb: 'POST', path: '/apis/events.k8s.io/v1/namespaces/default/events', code: 201 },
    ]);
    const ev = events(w).find((e) => e.reason === 'Scheduled')!;
    expect(ev.type).toBe('Normal');
    expect(ev.message).toBe(`Successfully assigned default/web-1 to ${p.spec?.nodeName}`);
    // An events.k8s.io/v1 Event read as core/v1: reportingController as reportingComponent, no source.
    expect(ev).toMatchObject({
      source: {},
      firstTimestamp: null,
      action: 'Binding',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-control-plane',
    });
  });

  it('keeps the per-node verdicts of the last attempt', () => {
    const w = world();
    addPod(w, podBody('web-1'));
    start(w);
    w.settle(10_000);
    const rec = schedulingRecordOf(state(w), 'default/web-1')!;
    expect(rec.node).toBe(getPod(w, 'web-1').spec?.nodeName);
    expect(rec.perNode.map((n) => n.node).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const n of rec.perNode) {
      expect(n.filter.every((f) => f.code === 'Success')).toBe(true);
      expect(n.scores.map((s) => s.plugin)).toContain('NodeResourcesFit');
    }
    expect(JSON.parse(JSON.stringify(rec))).toEqual(rec);
  });

  it('spreads pods and never moves a running pod', () => {
    const w = world();
    for (let i = 1; i <= 6; i++) addPod(w, podBody(`web-${i}`, '1'));
    start(w);
    w.settle(10_000);
    const nodes = [1, 2, 3, 4, 5, 6].map((i) => getPod(w, `web-${i}`).spec?.nodeName);
    for (const n of ['node-1', 'node-2', 'node-3']) expect(nodes.filter((x) => x === n)).toHaveLength(2);
    const binds = schedulerRequests(w).filter((r) => r.path.endsWith('/binding'));
    expect(binds).toHaveLength(6);
    expect(binds.every((b) => b.code === 201)).toBe(true);
    w.advance(120_000);
    expect(schedulerRequests(w).filter((r) => r.path.endsWith('/binding'))).toHaveLength(6);
  });

  it('reports FailedScheduling with the DRA PostFilter phrase and parks the pod', () => {
    const w = world();
    for (let i = 1; i <= 3; i++) addPod(w, podBody(`db-${i}`, '3', { nodeName: `node-${i}` }));
    addPod(w, podBody('web-big', '2'));
    start(w);
    w.settle(10_000);
    const msg =
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
    const ev = events(w).find((e) => e.reason === 'FailedScheduling')!;
    expect(ev.type).toBe('Warning');
    expect(ev.message).toBe(msg);
    const cond = getPod(w, 'web-big').status?.conditions?.find((c) => c.type === 'PodScheduled');
    // observedGeneration: the pod's generation (PodObservedGenerationTracking), as the real scheduler writes it.
    expect(cond).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: msg,
      observedGeneration: getPod(w, 'web-big').metadata?.generation ?? -1,
    });
    expect(getPod(w, 'web-big').metadata?.generation).toBe(1);
    expect(schedulerRequests(w)).toEqual([
      { verb: 'POST', path: '/apis/events.k8s.io/v1/namespaces/default/events', code: 201 },
      { verb: 'PATCH', path: '/api/v1/namespaces/default/pods/web-big/status', code: 200 },
    ]);
    expect(state(w).queue.unschedulablePods['default/web-big']).toBeDefined();
    expect(schedulingRecordOf(state(w), 'default/web-big')?.message).toBe(msg);
  });

  it('counts mixed reasons in the message', () => {
    const w = testWorld({ seed: 1 }, [schedulerDef]);
    addNode(w, 'node-1', '4');
    addPod(w, podBody('db-1', '3', { nodeName: 'node-1' }));
    addNode(w, 'node-2', '4', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] });
    addNode(w, 'node-3', '4', { unschedulable: true });
    addPod(w, podBody('web-1', '2'));
    start(w);
    w.settle(10_000);
    const ev = events(w).find((e) => e.reason === 'FailedScheduling')!;
    expect(ev.message).toBe(
      '0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable. ' +
        'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });

  it('schedules an unschedulable pod once a node is added', () => {
    const w = world();
    addPod(w, podBody('web-big', '5'));
    start(w);
    w.settle(10_000);
    expect(getPod(w, 'web-big').spec?.nodeName).toBeUndefined();
    w.advance(20_000);
    addNode(w, 'node-4', '8');
    w.advance(2_000);
    expect(getPod(w, 'web-big').spec?.nodeName).toBe('node-4');
    const binds = schedulerRequests(w).filter((r) => r.path.endsWith('/binding'));
    expect(binds).toEqual([{ verb: 'POST', path: '/api/v1/namespaces/default/pods/web-big/binding', code: 201 }]);
  });

  it('retries when an assigned pod is deleted and frees room', () => {
    const w = world(1, 1);
    addPod(w, podBody('web-1', '3'));
    addPod(w, podBody('web-2', '3'));
    start(w);
    w.settle(10_000);
    const placed = ['web-1', 'web-2'].filter((n) => getPod(w, n).spec?.nodeName);
    expect(placed).toHaveLength(1);
    w.kubectl({
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: placed[0],
      options: { gracePeriodSeconds: 0 },
    });
    w.advance(3_000);
    const other = placed[0] === 'web-1' ? 'web-2' : 'web-1';
    expect(getPod(w, other).spec?.nodeName).toBe('node-1');
  });

  describe('QueueingHints: a pod rejected by NodeResourcesFit', () => {
    // When the pod's last attempt ran (the scheduler figure's record of it).
    const lastAttempt = (w: World) => schedulingRecordOf(state(w), 'default/big')!.t;
    function parked(): World {
      const w = world(1, 1);
      addPod(w, podBody('big', '5'));
      start(w);
      w.settle(5_000);
      expect(state(w).queue.where['default/big']).toBe('unschedulable');
      return w;
    }

    it('is not retried when an unrelated node label changes', () => {
      const w = parked();
      const before = lastAttempt(w);
      expect(
        w.kubectl({ verb: 'patch', resource: 'nodes', name: 'node-1', body: { metadata: { labels: { disk: 'ssd' } } } })
          .ok,
      ).toBe(true);
      w.advance(15_000);
      expect(state(w).queue.where['default/big']).toBe('unschedulable');
      expect(lastAttempt(w)).toBe(before);
    });

    it('is retried when a scheduled pod on a node is deleted', () => {
      const w = parked();
      addPod(w, podBody('small', '1', { nodeName: 'node-1' }));
      w.advance(15_000);
      const before = lastAttempt(w);
      // AssignedPod/Add is no NodeResourcesFit event: still parked, not retried.
      expect(state(w).queue.where['default/big']).toBe('unschedulable');
      expect(before).toBeLessThan(5_000);
      w.kubectl({
        verb: 'delete',
        resource: 'pods',
        namespace: 'default',
        name: 'small',
        options: { gracePeriodSeconds: 0 },
      });
      w.advance(2_000);
      expect(lastAttempt(w)).toBeGreaterThan(before);
    });

    it('is retried, and placed, when its node grows', () => {
      const w = parked();
      w.kubectl({
        verb: 'patch',
        resource: 'nodes',
        name: 'node-1',
        subresource: 'status',
        body: { status: { allocatable: { cpu: '8' }, capacity: { cpu: '8' } } },
      });
      w.advance(2_000);
      expect(getPod(w, 'big').spec?.nodeName).toBe('node-1');
    });

    it('is retried when a pending pod nominated to a node, of higher or equal priority, is deleted', () => {
      const w = parked();
      addPod(w, podBody('nominated', '6', { priority: 0 }));
      w.advance(2_000);
      expect(
        w.kubectl({
          verb: 'patch',
          resource: 'pods',
          namespace: 'default',
          name: 'nominated',
          subresource: 'status',
          body: { status: { nominatedNodeName: 'node-1' } },
        }).ok,
      ).toBe(true);
      w.advance(15_000);
      const before = lastAttempt(w);
      w.kubectl({
        verb: 'delete',
        resource: 'pods',
        namespace: 'default',
        name: 'nominated',
        options: { gracePeriodSeconds: 0 },
      });
      w.advance(2_000);
      expect(lastAttempt(w)).toBeGreaterThan(before);
    });

    it('otherwise waits for the flush: more than 5 min unschedulable, checked every 30 s', () => {
      const w = parked();
      const failedAt = lastAttempt(w);
      // The flush runs every 30 s from the scheduler's start (t = 0 here) and takes pods whose
      // last attempt is more than 5 min old: the first tick strictly after failedAt + 5 min.
      const flush = (Math.floor((failedAt + 300_000) / 30_000) + 1) * 30_000;
      w.advance(flush - 1 - w.now);
      expect(lastAttempt(w)).toBe(failedAt);
      w.advance(2);
      expect(lastAttempt(w)).toBe(flush);
    });
  });

  it('keeps counting a terminating pod until it is gone', () => {
    const w = world(1, 1);
    addPod(w, podBody('web-1', '3', { nodeName: 'node-1' }));
    start(w);
    w.settle(1_000);
    // Graceful delete: deletionTimestamp set, the pod still exists (no kubelet to finish it).
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'web-1' });
    addPod(w, podBody('web-2', '3'));
    w.advance(5_000);
    expect(getPod(w, 'web-1').metadata?.deletionTimestamp).toBeDefined();
    expect(getPod(w, 'web-2').spec?.nodeName).toBeUndefined();
    expect(events(w).find((e) => e.reason === 'FailedScheduling')?.message).toMatch(
      /^0\/1 nodes are available: 1 Insufficient cpu\./,
    );
    w.kubectl({
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: 'web-1',
      options: { gracePeriodSeconds: 0 },
    });
    w.advance(3_000);
    expect(getPod(w, 'web-2').spec?.nodeName).toBe('node-1');
  });

  it('breaks ties by the seed, deterministically', () => {
    const placement = (seed: number) => {
      const w = world(seed, 5);
      for (let i = 1; i <= 3; i++) addPod(w, podBody(`web-${i}`));
      start(w);
      w.settle(10_000);
      return [1, 2, 3].map((i) => getPod(w, `web-${i}`).spec?.nodeName).join(',');
    };
    expect(placement(7)).toBe(placement(7));
    const seen = new Set([1, 2, 3, 4, 5, 6, 7, 8].map(placement));
    expect(seen.size).toBeGreaterThan(1);
  });

  it('says so when there are no nodes', () => {
    const w = testWorld({ seed: 1 }, [schedulerDef]);
    addPod(w, podBody('web-1'));
    start(w);
    w.settle(5_000);
    expect(events(w).find((e) => e.reason === 'FailedScheduling')?.message).toBe('no nodes available to schedule pods');
    expect(getPod(w, 'web-1').status?.conditions?.find((c) => c.type === 'PodScheduled')?.reason).toBe(
      'SchedulerError',
    );
  });

  it('ignores pods for another scheduler', () => {
    const w = world();
    addPod(w, podBody('web-1', '100m', { schedulerName: 'my-scheduler' }));
    start(w);
    w.settle(5_000);
    expect(schedulerRequests(w)).toEqual([]);
  });

  it('bounds the records and keeps nextStartNodeIndex in state', () => {
    const w = world(1, 3, '64');
    for (let i = 1; i <= 12; i++) addPod(w, podBody(`web-${i}`));
    start(w, { recordPods: 5 });
    w.settle(10_000);
    const s = state(w);
    expect(s.records.order).toHaveLength(5);
    expect(Object.keys(s.records.byKey)).toHaveLength(5);
    expect(schedulingRecordOf(s, 'default/web-1')).toBeUndefined();
    expect(typeof s.nextStartNodeIndex).toBe('number');
  });

  it('replays to the same hash', () => {
    const w = world(3);
    for (let i = 1; i <= 4; i++) addPod(w, podBody(`web-${i}`));
    start(w);
    w.settle(10_000);
    const snap = w.snapshot();
    addPod(w, podBody('web-5'));
    w.settle(5_000);
    const h = w.hash();
    w.restore(snap);
    addPod(w, podBody('web-5'));
    w.settle(5_000);
    expect(w.hash()).toBe(h);
  });
});
