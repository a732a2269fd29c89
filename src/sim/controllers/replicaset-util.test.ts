// Tables ported from kubernetes/kubernetes:
//   pkg/controller/controller_utils_test.go TestSortingActivePodsWithRanks (same pods, same ranks)
//   pkg/controller/replicaset/replica_set_test.go (slow start batches, burst cap)
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import {
  activePodsWithRanksLess,
  BurstReplicas,
  calculateReplicaSetStatus,
  continueSlowStart,
  getPodsRankedByRelatedPodsOnSameNode,
  getPodsToDelete,
  isPodActive,
  isPodAvailable,
  isPodReady,
  logarithmicRankDiff,
  manageReplicasDiff,
  newSlowStart,
  podEventMessages,
  slowStartBatch,
  slowStartBatchSizes,
  SlowStartInitialBatchSize,
  type ActivePodsWithRanks,
} from './replicaset-util.ts';

// A fixed seed: fast-check would otherwise seed from the wall clock, and src/sim stays deterministic.
fc.configureGlobal({ seed: 20260101 });

const NOW_MS = Date.parse('2026-03-01T12:00:00Z');
const now = new Date(NOW_MS).toISOString();
const ago = (ms: number) => new Date(NOW_MS - ms).toISOString();
const HOUR = 3_600_000;
// metav1.Now().AddDate(0, -1, 0) from 2026-03-01 is 2026-02-01.
const then1Month = '2026-02-01T12:00:00.000Z';
const then2Hours = ago(2 * HOUR);
const then5Hours = ago(5 * HOUR);
const then8Hours = ago(8 * HOUR);

// controller_utils_test.go pod(podName, nodeName, phase, ready, restarts, readySince, created, annotations)
function pod(
  name: string,
  nodeName: string,
  phase: string,
  ready: boolean,
  restarts: number,
  readySince: string | undefined,
  created: string | undefined,
  annotations?: Record<string, string>,
): Pod {
  return {
    metadata: { name, creationTimestamp: created, annotations },
    spec: { nodeName: nodeName || undefined, containers: [] },
    status: {
      phase,
      conditions: ready ? [{ type: 'Ready', status: 'True', lastTransitionTime: readySince }] : undefined,
      containerStatuses: ready
        ? [{ name: 'c', image: 'i', imageID: '', ready: true, restartCount: restarts }]
        : undefined,
    },
  };
}

const unscheduledPod = pod('unscheduled', '', 'Pending', false, 0, undefined, undefined);
const scheduledPendingPod = pod('pending', 'node', 'Pending', false, 0, undefined, undefined);
const unknownPhasePod = pod('unknown-phase', 'node', 'Unknown', false, 0, undefined, undefined);
const runningNotReadyPod = pod('not-ready', 'node', 'Running', false, 0, undefined, undefined);
const runningReadyNoLastTransitionTimePod = pod(
  'ready-no-last-transition-time',
  'node',
  'Running',
  true,
  0,
  undefined,
  undefined,
);
const runningReadyNow = pod('ready-now', 'node', 'Running', true, 0, now, now);
const runningReadyThen = pod('ready-then', 'node', 'Running', true, 0, then1Month, then1Month);
const runningReadyNowHighRestarts = pod('ready-high-restarts', 'node', 'Running', true, 9001, now, now);
const runningReadyNowCreatedThen = pod('ready-now-created-then', 'node', 'Running', true, 0, now, then1Month);
const lowPodDeletionCost = pod('low-deletion-cost', 'node', 'Running', true, 0, now, then1Month, {
  'controller.kubernetes.io/pod-deletion-cost': '10',
});
const highPodDeletionCost = pod('high-deletion-cost', 'node', 'Running', true, 0, now, then1Month, {
  'controller.kubernetes.io/pod-deletion-cost': '100',
});
const unscheduled5Hours = pod('unscheduled-5-hours', '', 'Pending', false, 0, then5Hours, then5Hours);
const unscheduled8Hours = pod('unscheduled-10-hours', '', 'Pending', false, 0, then8Hours, then8Hours);
const ready2Hours = pod('ready-2-hours', '', 'Running', true, 0, then2Hours, then1Month);
const ready5Hours = pod('ready-5-hours', '', 'Running', true, 0, then5Hours, then1Month);
const ready10Hours = pod('ready-10-hours', '', 'Running', true, 0, then8Hours, then1Month);

describe('ActivePodsWithRanks.Less (controller_utils_test.go TestSortingActivePodsWithRanks)', () => {
  const equality: [Pod, Pod?][] = [
    [unscheduledPod],
    [scheduledPendingPod],
    [unknownPhasePod],
    [runningNotReadyPod],
    [runningReadyNowCreatedThen],
    [runningReadyNow],
    [runningReadyThen],
    [runningReadyNowHighRestarts],
    [runningReadyNowCreatedThen],
    [unscheduled5Hours, unscheduled8Hours],
    [ready5Hours, ready10Hours],
  ];
  it.each(equality.map(([p1, p2], i) => ({ i, p1, p2: p2 ?? p1 })))(
    'equality $i: $p1.metadata.name ~ $p2.metadata.name',
    ({ p1, p2 }) => {
      const s: ActivePodsWithRanks = { pods: [p1, p2], rank: [1, 1], now };
      expect(activePodsWithRanksLess(s, 0, 1)).toBe(false);
      expect(activePodsWithRanksLess(s, 1, 0)).toBe(false);
    },
  );

  // The one row with PodDeletionCost disabled is left out: the simulator runs with the gate on.
  const inequality: [Pod, number, Pod, number][] = [
    [unscheduledPod, 1, scheduledPendingPod, 2],
    [unscheduledPod, 2, scheduledPendingPod, 1],
    [scheduledPendingPod, 1, unknownPhasePod, 2],
    [unknownPhasePod, 1, runningNotReadyPod, 2],
    [runningNotReadyPod, 1, runningReadyNoLastTransitionTimePod, 1],
    [runningReadyNoLastTransitionTimePod, 1, runningReadyNow, 1],
    [runningReadyNow, 2, runningReadyNoLastTransitionTimePod, 1],
    [runningReadyNow, 1, runningReadyThen, 1],
    [runningReadyNow, 2, runningReadyThen, 1],
    [runningReadyNowHighRestarts, 1, runningReadyNow, 1],
    [runningReadyNow, 2, runningReadyNowHighRestarts, 1],
    [runningReadyNow, 1, runningReadyNowCreatedThen, 1],
    [runningReadyNowCreatedThen, 2, runningReadyNow, 1],
    [lowPodDeletionCost, 2, highPodDeletionCost, 1],
    [ready2Hours, 1, ready5Hours, 1],
  ];
  it.each(inequality.map(([l, lr, g, gr], i) => ({ i, l, lr, g, gr })))(
    'inequality $i: $l.metadata.name($lr) < $g.metadata.name($gr)',
    ({ l, lr, g, gr }) => {
      const s: ActivePodsWithRanks = { pods: [l, g], rank: [lr, gr], now };
      expect(activePodsWithRanksLess(s, 0, 1)).toBe(true);
      expect(activePodsWithRanksLess(s, 1, 0)).toBe(false);
    },
  );

  it('log2 buckets are over nanoseconds, as Go time.Duration is (5 h and 8 h share bucket 44)', () => {
    expect(logarithmicRankDiff(NOW_MS - 5 * HOUR, NOW_MS - 8 * HOUR, NOW_MS)).toBe(0);
    expect(logarithmicRankDiff(NOW_MS - 2 * HOUR, NOW_MS - 5 * HOUR, NOW_MS)).toBe(-2);
  });

  it('same log2 bucket: the smaller UID goes first', () => {
    const a = { ...ready5Hours, metadata: { ...ready5Hours.metadata, uid: 'aaa' } };
    const b = { ...ready10Hours, metadata: { ...ready10Hours.metadata, uid: 'bbb' } };
    const s: ActivePodsWithRanks = { pods: [b, a], rank: [1, 1], now };
    expect(activePodsWithRanksLess(s, 1, 0)).toBe(true);
    expect(activePodsWithRanksLess(s, 0, 1)).toBe(false);
  });

  it('is a strict weak order on the table pods (irreflexive, asymmetric)', () => {
    const all = [
      unscheduledPod,
      scheduledPendingPod,
      unknownPhasePod,
      runningNotReadyPod,
      runningReadyNoLastTransitionTimePod,
      runningReadyNow,
      runningReadyThen,
      runningReadyNowHighRestarts,
      runningReadyNowCreatedThen,
      lowPodDeletionCost,
      highPodDeletionCost,
      ready2Hours,
    ];
    fc.assert(
      fc.property(fc.nat(all.length - 1), fc.nat(all.length - 1), fc.nat(3), fc.nat(3), (i, j, ri, rj) => {
        const s: ActivePodsWithRanks = { pods: [all[i], all[j]], rank: [ri, rj], now };
        return !(activePodsWithRanksLess(s, 0, 1) && activePodsWithRanksLess(s, 1, 0));
      }),
    );
  });
});

describe('getPodsToDelete', () => {
  const onNode = (name: string, node: string, uid: string) => ({
    ...pod(name, node, 'Running', true, 0, then1Month, then1Month),
    metadata: { name, uid, creationTimestamp: then1Month },
  });
  it('prefers pods on the node crowded with related pods, then unready ones first overall', () => {
    const a = onNode('a', 'node-1', 'u1');
    const b = onNode('b', 'node-1', 'u2');
    const c = onNode('c', 'node-2', 'u3');
    // A related pod of the other RS also sits on node-1: rank(node-1) = 3, rank(node-2) = 1.
    const other = onNode('other', 'node-1', 'u9');
    expect(getPodsToDelete([c, a, b], [c, a, b, other], 1, now).map((p) => p.metadata!.name)).toEqual(['a']);
    const pending = pod('pending', 'node-2', 'Pending', false, 0, undefined, then1Month);
    expect(getPodsToDelete([c, a, b, pending], [c, a, b, pending, other], 2, now).map((p) => p.metadata!.name)).toEqual(
      ['pending', 'a'],
    );
  });
  it('skips sorting when every pod goes', () => {
    const list = [runningReadyThen, unscheduledPod];
    expect(getPodsToDelete(list, list, 2, now)).toEqual(list);
  });
  it('ranks count only active related pods, unassigned pods share the "" node', () => {
    const dead = { ...pod('dead', 'n', 'Failed', false, 0, undefined, undefined) };
    const r = getPodsRankedByRelatedPodsOnSameNode(
      [pod('x', 'n', 'Running', false, 0, undefined, undefined), unscheduledPod],
      [dead, pod('y', 'n', 'Running', false, 0, undefined, undefined), unscheduledPod],
      now,
    );
    expect(r.rank).toEqual([1, 1]);
  });
});

describe('slowStartBatch (replica_set.go)', () => {
  it('creates in batches 1, 2, 4, 8, … and stops after the first failing batch', () => {
    expect(slowStartBatchSizes(10)).toEqual([1, 2, 4, 3]);
    expect(slowStartBatchSizes(0)).toEqual([]);
    let n = 0;
    // Calls 5.. fail: batch 4 (calls 4-7) has failures; batch 8 never runs.
    const r = slowStartBatch(20, SlowStartInitialBatchSize, () => (++n >= 5 ? 'quota exceeded' : null));
    expect(r).toEqual({ successes: 4, batches: [1, 2, 4], error: 'quota exceeded' });
    expect(n).toBe(7);
  });
  it('manageReplicasDiff caps creates and deletes at BurstReplicas (500)', () => {
    expect(manageReplicasDiff(0, 3)).toBe(-3);
    expect(manageReplicasDiff(5, 3)).toBe(2);
    expect(manageReplicasDiff(0, 1200)).toBe(-BurstReplicas);
    expect(manageReplicasDiff(1000, 0)).toBe(BurstReplicas);
  });
  it('never calls more than count, and successes equal calls before the failing batch (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 700 }), (count, failAt) => {
        let calls = 0;
        const r = slowStartBatch(count, 1, () => (++calls > failAt ? 'err' : null));
        expect(calls).toBeLessThanOrEqual(count);
        expect(r.batches.reduce((a, b) => a + b, 0)).toBe(calls);
        expect(r.successes).toBe(Math.min(calls, failAt));
      }),
    );
  });
});

describe('pod predicates and RS status', () => {
  const readySince = (t: string): Pod => pod('p', 'n', 'Running', true, 0, t, t);
  it('isPodActive / isPodReady / isPodAvailable (strictly after minReadySeconds)', () => {
    expect(isPodActive(pod('f', 'n', 'Failed', false, 0, undefined, undefined))).toBe(false);
    expect(isPodActive({ ...runningReadyNow, metadata: { deletionTimestamp: now } })).toBe(false);
    expect(isPodReady(runningNotReadyPod)).toBe(false);
    expect(isPodAvailable(readySince(ago(10_000)), 10, now)).toBe(false);
    expect(isPodAvailable(readySince(ago(11_000)), 10, now)).toBe(true);
    expect(isPodAvailable(readySince(now), 0, now)).toBe(true);
  });

  it('calculateReplicaSetStatus counts, ReplicaFailure FailedCreate, terminatingReplicas', () => {
    const rs: ReplicaSet = {
      metadata: { name: 'web-7c5ddbdf54', generation: 3 },
      spec: {
        replicas: 4,
        minReadySeconds: 5,
        selector: {},
        template: { metadata: { labels: { app: 'web', 'pod-template-hash': '7c5ddbdf54' } } },
      },
      status: { replicas: 0 },
    };
    const labelled = (p: Pod, labels: Record<string, string>): Pod => ({ ...p, metadata: { ...p.metadata, labels } });
    const full = { app: 'web', 'pod-template-hash': '7c5ddbdf54' };
    const pods = [
      labelled(readySince(ago(60_000)), full),
      labelled(readySince(ago(1_000)), full),
      labelled(pod('x', 'n', 'Pending', false, 0, undefined, undefined), { app: 'web' }),
    ];
    const s = calculateReplicaSetStatus(rs, pods, [runningReadyThen], 'pods "web-" is forbidden: exceeded quota', now);
    expect(s).toMatchObject({
      replicas: 3,
      fullyLabeledReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 1,
      observedGeneration: 3,
      terminatingReplicas: 1,
    });
    expect(s.conditions).toEqual([
      {
        type: 'ReplicaFailure',
        status: 'True',
        reason: 'FailedCreate',
        message: 'pods "web-" is forbidden: exceeded quota',
        lastTransitionTime: now,
      },
    ]);
    const cleared = calculateReplicaSetStatus({ ...rs, status: s }, pods, null, null, now);
    expect(cleared.conditions).toBeUndefined();
    expect(cleared).not.toHaveProperty('terminatingReplicas');
  });

  it('event messages', () => {
    expect(podEventMessages.successfulCreate('web-7c5ddbdf54-x2k9p')).toBe('Created pod: web-7c5ddbdf54-x2k9p');
    expect(podEventMessages.successfulDelete('web-7c5ddbdf54-x2k9p')).toBe('Deleted pod: web-7c5ddbdf54-x2k9p');
  });
  it('a run resumed after every rate-limiter wait makes the same calls as one run (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 7 }),
        (count, failAt, every) => {
          let calls = 0;
          const fn = () => (++calls > failAt ? 'err' : null);
          const whole = slowStartBatch(count, 1, fn);
          const wholeCalls = calls;
          calls = 0;
          const p = newSlowStart<string>(count, 1);
          // The limiter lets `every` calls through, then asks for a wait; the run is resumed after it.
          let asks = 0;
          let resumes = 0;
          while (continueSlowStart(p, fn, () => (++asks % (every + 1) === 0 ? 50 : 0)) > 0) resumes++;
          expect(calls).toBe(wholeCalls);
          expect(p.successes).toBe(whole.successes);
          expect(p.error).toBe(whole.error);
          expect(p.successes + p.failures).toBe(calls);
          expect(resumes).toBeLessThanOrEqual(calls);
        },
      ),
    );
  });
});
