import { describe, expect, it } from 'vitest';
import {
  add,
  addUnschedulableIfNotPresent,
  calculateBackoffDuration,
  done,
  flushBackoffQCompleted,
  flushUnschedulablePodsLeftover,
  isPodWorthRequeuing,
  moveAllToActiveOrBackoffQueue,
  newSchedulingQueue,
  QueueingStrategy,
  nextBackoffExpiry,
  pendingCount,
  pop,
  remove,
  update,
} from './scheduling-queue.ts';
import { makeNode, makePod, tol } from '../testing/scheduler.ts';
import {
  ActionType,
  EVENT_ASSIGNED_POD_ADD,
  EVENT_ASSIGNED_POD_DELETE,
  EVENT_FORCE_ACTIVATE,
  EVENT_NODE_ADD,
  EVENT_UNSCHEDULABLE_TIMEOUT,
  nodeSchedulingPropertiesChange,
} from './queueing-hints.ts';

const prio = (name: string, priority: number) => makePod(name, [], { priority });

// After pkg/scheduler/backend/queue/scheduling_queue_test.go.
describe('PrioritySort order', () => {
  it('pops higher priority first, then the earlier timestamp (TestPriorityQueue_Pop / Less)', () => {
    const q = newSchedulingQueue();
    add(q, prio('low', 0), 0);
    add(q, prio('high', 100), 5);
    add(q, prio('mid', 50), 1);
    add(q, prio('low-later', 0), 2);
    add(q, prio('low-earlier', 0), 0);
    const order = [];
    for (let info = pop(q, 10); info; info = pop(q, 10)) order.push(info.pod.metadata!.name);
    expect(order).toEqual(['high', 'mid', 'low', 'low-earlier', 'low-later']);
  });

  it('ignores a second add of the same pod', () => {
    const q = newSchedulingQueue();
    add(q, prio('a', 0), 0);
    add(q, prio('a', 0), 1);
    expect(pendingCount(q).active).toBe(1);
  });

  it('keeps 30,000 adds fast (membership is indexed)', () => {
    const q = newSchedulingQueue();
    for (let i = 0; i < 30_000; i++) add(q, makePod(`p${i}`), i);
    expect(pendingCount(q).active).toBe(30_000);
    expect(pop(q, 0)!.pod.metadata!.name).toBe('p0');
  });
});

describe('backoff', () => {
  it('doubles from 1 s and caps at 10 s (TestBackoffPod / calculateBackoffDuration)', () => {
    const q = newSchedulingQueue();
    const info = { key: 'k', pod: makePod('p'), timestamp: 0, attempts: 0, unschedulablePlugins: ['NodeResourcesFit'] };
    const got = [0, 1, 2, 3, 4, 5, 6].map((unschedulableCount) =>
      calculateBackoffDuration(q, { ...info, unschedulableCount }),
    );
    expect(got).toEqual([0, 1000, 2000, 4000, 8000, 10000, 10000]);
    // After an error the errors in a row count instead.
    expect(calculateBackoffDuration(q, { ...info, unschedulableCount: 4, consecutiveErrorsCount: 1 })).toBe(1000);
  });

  it('a pod that failed without plugin reasons backs off in errorBackoffQ (expiry truncated to the 1 s window), then returns to activeQ', () => {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), 0);
    const info = pop(q, 0)!;
    addUnschedulableIfNotPresent(q, info, q.schedulingCycle, [], 100);
    expect(pendingCount(q)).toEqual({ active: 0, backoff: 1, unschedulable: 0 });
    expect(q.errorBackoffQ).toHaveLength(1);
    expect(nextBackoffExpiry(q)).toBe(1000);
    // Not popped early: only backoffQ is (PopFromBackoffQ).
    expect(pop(q, 500)).toBeUndefined();
    // Still backing off while its expiry is in the current window.
    expect(flushBackoffQCompleted(q, 1999)).toEqual([]);
    expect(flushBackoffQCompleted(q, 2000)).toEqual(['default/p']);
    expect(pop(q, 2000)!.attempts).toBe(2);
  });

  it('an empty activeQ pops the head of backoffQ without waiting (SchedulerPopFromBackoffQ)', () => {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), 0);
    addUnschedulableIfNotPresent(q, pop(q, 0)!, q.schedulingCycle, ['NodeResourcesFit'], 0);
    moveAllToActiveOrBackoffQueue(q, EVENT_ASSIGNED_POD_DELETE, makePod('x', [], { nodeName: 'n' }), undefined, 10);
    expect(q.backoffQ).toHaveLength(1);
    add(q, prio('new', 0), 20);
    expect(pop(q, 20)!.key).toBe('default/new');
    expect(pop(q, 30)!.key).toBe('default/p');
  });
});

describe('unschedulable pods', () => {
  function failed(plugins: string[], now = 0) {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), now);
    const info = pop(q, now)!;
    addUnschedulableIfNotPresent(q, info, q.schedulingCycle, plugins, now);
    return q;
  }

  it('park until a hint of a rejecting plugin says Queue', () => {
    const q = failed(['NodeResourcesFit']);
    expect(pendingCount(q).unschedulable).toBe(1);
    // Only PodTopologySpread registers AssignedPod/Add.
    expect(
      moveAllToActiveOrBackoffQueue(q, EVENT_ASSIGNED_POD_ADD, undefined, makePod('x', [], { nodeName: 'n' }), 5000),
    ).toEqual([]);
    // A node label change is registered by NodeAffinity and PodTopologySpread, not NodeResourcesFit.
    const n = makeNode('n');
    const relabelled = makeNode('n', undefined, { labels: { disk: 'ssd' } });
    for (const e of nodeSchedulingPropertiesChange(relabelled, n))
      expect(moveAllToActiveOrBackoffQueue(q, e, n, relabelled, 5000)).toEqual([]);
    // NodeResourcesFit's hint: a deleted pod that was not scheduled frees nothing.
    expect(moveAllToActiveOrBackoffQueue(q, EVENT_ASSIGNED_POD_DELETE, makePod('x'), undefined, 5000)).toEqual([]);
    expect(
      moveAllToActiveOrBackoffQueue(q, EVENT_ASSIGNED_POD_DELETE, makePod('x', [], { nodeName: 'n' }), undefined, 5000),
    ).toEqual(['default/p']);
    expect(pendingCount(q).active).toBe(1); // backoff (1 s) already over at 5 s
  });

  it('go to backoffQ when the event comes while still backing off (queueAfterBackoff)', () => {
    const q = failed(['TaintToleration'], 0);
    const tainted = makeNode('n', undefined, { taints: [{ key: 'k', effect: 'NoSchedule' }] });
    moveAllToActiveOrBackoffQueue(
      q,
      { resource: 'Node', actionType: ActionType.UpdateNodeTaint },
      tainted,
      makeNode('n'),
      500,
    );
    expect(pendingCount(q)).toEqual({ active: 0, backoff: 1, unschedulable: 0 });
  });

  it('a Queue from a Pending plugin skips backoff (queueImmediately)', () => {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), 0);
    addUnschedulableIfNotPresent(q, pop(q, 0)!, q.schedulingCycle, [], 0, ['NodeName']);
    expect(pendingCount(q).unschedulable).toBe(1);
    moveAllToActiveOrBackoffQueue(q, EVENT_NODE_ADD, undefined, makeNode('n'), 100);
    expect(pendingCount(q)).toEqual({ active: 1, backoff: 0, unschedulable: 0 });
  });

  it('isPodWorthRequeuing asks only the rejecting plugins; wildcard events and no rejector requeue after backoff', () => {
    const info = {
      key: 'default/p',
      pod: makePod('p'),
      timestamp: 0,
      attempts: 1,
      unschedulablePlugins: ['NodeAffinity'],
    };
    const add = (labels: Record<string, string>) =>
      isPodWorthRequeuing(
        { ...info, pod: makePod('p', [], { nodeSelector: { a: 'b' } }) },
        EVENT_NODE_ADD,
        undefined,
        makeNode('n', undefined, { labels }),
      );
    expect(add({ a: 'b' })).toBe(QueueingStrategy.queueAfterBackoff);
    expect(add({ a: 'c' })).toBe(QueueingStrategy.queueSkip);
    expect(
      isPodWorthRequeuing(
        { ...info, unschedulablePlugins: ['NodeResourcesFit'] },
        { resource: 'Node', actionType: ActionType.UpdateNodeLabel },
        makeNode('n'),
        makeNode('n'),
      ),
    ).toBe(QueueingStrategy.queueSkip);
    expect(isPodWorthRequeuing({ ...info, unschedulablePlugins: [] }, EVENT_NODE_ADD, undefined, makeNode('n'))).toBe(
      QueueingStrategy.queueAfterBackoff,
    );
    expect(isPodWorthRequeuing(info, EVENT_UNSCHEDULABLE_TIMEOUT, undefined, undefined)).toBe(
      QueueingStrategy.queueAfterBackoff,
    );
    // ForceActivate naming another pod is not for this one.
    expect(isPodWorthRequeuing(info, EVENT_FORCE_ACTIVATE, undefined, makePod('other'))).toBe(
      QueueingStrategy.queueSkip,
    );
    expect(isPodWorthRequeuing(info, EVENT_FORCE_ACTIVATE, undefined, makePod('p'))).toBe(
      QueueingStrategy.queueAfterBackoff,
    );
  });
});

// After Test_InFlightPods / TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff (scheduling_queue_test.go).
describe('in-flight events', () => {
  const deleted = makePod('gone', [{ cpu: '1' }], { nodeName: 'n' });

  it('an event received during the attempt that a rejector says may help sends the pod to backoffQ', () => {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), 0);
    const info = pop(q, 0)!;
    expect(q.inFlightEvents).toEqual([{ pod: 'default/p' }]);
    moveAllToActiveOrBackoffQueue(q, EVENT_ASSIGNED_POD_DELETE, deleted, undefined, 1);
    expect(q.inFlightEvents).toHaveLength(2);
    addUnschedulableIfNotPresent(q, info, q.schedulingCycle, ['NodeResourcesFit'], 2);
    expect(pendingCount(q)).toEqual({ active: 0, backoff: 1, unschedulable: 0 });
    // Done pruned the events nobody in flight needs.
    expect(q.inFlightEvents).toEqual([]);
  });

  it('an event the rejectors do not care about leaves the pod unschedulable', () => {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), 0);
    const info = pop(q, 0)!;
    moveAllToActiveOrBackoffQueue(q, EVENT_ASSIGNED_POD_DELETE, deleted, undefined, 1);
    addUnschedulableIfNotPresent(q, info, q.schedulingCycle, ['NodeAffinity'], 2);
    expect(pendingCount(q)).toEqual({ active: 0, backoff: 0, unschedulable: 1 });
  });

  it('events before a pod was popped do not count for it, and are kept while an earlier pod is in flight', () => {
    const q = newSchedulingQueue();
    add(q, prio('a', 1), 0);
    add(q, prio('b', 0), 0);
    const a = pop(q, 0)!;
    moveAllToActiveOrBackoffQueue(q, EVENT_ASSIGNED_POD_DELETE, deleted, undefined, 1);
    const b = pop(q, 1)!;
    expect(q.inFlightEvents.map((e) => ('pod' in e ? e.pod : 'event'))).toEqual(['default/a', 'event', 'default/b']);
    addUnschedulableIfNotPresent(q, b, q.schedulingCycle, ['NodeResourcesFit'], 2);
    expect(q.where['default/b']).toBe('unschedulable');
    // a's marker still heads the list, so the event stays for it.
    expect(q.inFlightEvents).toHaveLength(2);
    addUnschedulableIfNotPresent(q, a, q.schedulingCycle, ['NodeResourcesFit'], 3);
    expect(q.where['default/a']).toBe('backoff');
    expect(q.inFlightEvents).toEqual([]);
  });

  it('an update of the pod in flight is kept as a TargetPod event (addEventsIfPodInFlight)', () => {
    const q = newSchedulingQueue();
    const p = makePod('p');
    add(q, p, 0);
    const info = pop(q, 0)!;
    const tolerating = makePod('p', [], { tolerations: [tol('k', 'Exists')] });
    update(q, p, tolerating, 1);
    expect(info.pod).toBe(tolerating);
    addUnschedulableIfNotPresent(q, info, q.schedulingCycle, ['TaintToleration'], 2);
    expect(q.where['default/p']).toBe('backoff');
  });

  it('no event at all: the pod waits in unschedulablePods', () => {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), 0);
    addUnschedulableIfNotPresent(q, pop(q, 0)!, q.schedulingCycle, ['NodeResourcesFit'], 2);
    expect(pendingCount(q).unschedulable).toBe(1);
    expect(q.inFlightEvents).toEqual([]);
  });
});

describe('unschedulable pods, continued', () => {
  function failed(plugins: string[], now = 0) {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), now);
    const info = pop(q, now)!;
    addUnschedulableIfNotPresent(q, info, q.schedulingCycle, plugins, now);
    return q;
  }

  it('are flushed after 5 minutes without events (TestPriorityQueue_FlushUnschedulablePodsLeftover)', () => {
    const q = failed(['NodeResourcesFit'], 0);
    expect(flushUnschedulablePodsLeftover(q, 300_000)).toEqual([]);
    expect(flushUnschedulablePodsLeftover(q, 300_001)).toEqual(['default/p']);
    expect(pendingCount(q).active).toBe(1);
  });

  it('move on an update a rejector cares about, not on others, and disappear on delete', () => {
    const q = failed(['TaintToleration'], 0);
    update(q, prio('p', 0), { ...prio('p', 0), status: { phase: 'Pending' } }, 20_000);
    expect(pendingCount(q).unschedulable).toBe(1);
    update(q, prio('p', 0), makePod('p', [], { priority: 0, tolerations: [tol('k', 'Exists')] }), 20_000);
    expect(pendingCount(q).active).toBe(1);
    remove(q, makePod('p'));
    expect(pendingCount(q)).toEqual({ active: 0, backoff: 0, unschedulable: 0 });
    expect(q.where).toEqual({});
  });

  it('done clears the in-flight record', () => {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), 0);
    const info = pop(q, 0)!;
    done(q, info.key);
    expect(q.inFlight).toEqual({});
    add(q, prio('p', 0), 1); // the pod may come back (e.g. binding failed and it was re-added)
    expect(pendingCount(q).active).toBe(1);
  });

  it('is plain data', () => {
    const q = failed(['NodeResourcesFit'], 0);
    expect(JSON.parse(JSON.stringify(q))).toEqual(q);
  });
});
