import { describe, expect, it } from 'vitest';
import {
  add,
  addUnschedulableIfNotPresent,
  calculateBackoffDuration,
  done,
  flushBackoffQCompleted,
  flushUnschedulablePodsLeftover,
  moveAllToActiveOrBackoffQueue,
  newSchedulingQueue,
  nextBackoffExpiry,
  pendingCount,
  pop,
  remove,
  update,
} from './scheduling-queue.ts';
import { makePod } from '../testing/scheduler.ts';

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
    const info = { key: 'k', pod: makePod('p'), timestamp: 0, attempts: 0, unschedulablePlugins: [] };
    const got = [0, 1, 2, 3, 4, 5, 6].map((attempts) => calculateBackoffDuration(q, { ...info, attempts }));
    expect(got).toEqual([0, 1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('a pod that failed without plugin reasons backs off, then returns to activeQ', () => {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), 0);
    const info = pop(q, 0)!;
    addUnschedulableIfNotPresent(q, info, q.schedulingCycle, [], 100);
    expect(pendingCount(q)).toEqual({ active: 0, backoff: 1, unschedulable: 0 });
    expect(nextBackoffExpiry(q)).toBe(1100);
    expect(flushBackoffQCompleted(q, 1099)).toEqual([]);
    expect(flushBackoffQCompleted(q, 1100)).toEqual(['default/p']);
    expect(pop(q, 1100)!.attempts).toBe(2);
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

  it('park until a relevant cluster event', () => {
    const q = failed(['NodeResourcesFit']);
    expect(pendingCount(q).unschedulable).toBe(1);
    expect(moveAllToActiveOrBackoffQueue(q, 'AssignedPodAdd', 5000)).toEqual([]); // only PodTopologySpread cares
    expect(moveAllToActiveOrBackoffQueue(q, 'AssignedPodDelete', 5000)).toEqual(['default/p']);
    expect(pendingCount(q).active).toBe(1); // backoff (1 s) already over at 5 s
  });

  it('go to backoffQ when the event comes while still backing off', () => {
    const q = failed(['TaintToleration'], 0);
    moveAllToActiveOrBackoffQueue(q, 'NodeUpdate', 500);
    expect(pendingCount(q)).toEqual({ active: 0, backoff: 1, unschedulable: 0 });
  });

  it('go to backoffQ when an event arrived during their own cycle (moveRequestCycle)', () => {
    const q = newSchedulingQueue();
    add(q, prio('p', 0), 0);
    const info = pop(q, 0)!;
    const cycle = q.schedulingCycle;
    moveAllToActiveOrBackoffQueue(q, 'NodeAdd', 1);
    addUnschedulableIfNotPresent(q, info, cycle, ['NodeResourcesFit'], 2);
    expect(pendingCount(q)).toEqual({ active: 0, backoff: 1, unschedulable: 0 });
  });

  it('are flushed after 5 minutes without events (TestPriorityQueue_FlushUnschedulablePodsLeftover)', () => {
    const q = failed(['NodeResourcesFit'], 0);
    expect(flushUnschedulablePodsLeftover(q, 300_000)).toEqual([]);
    expect(flushUnschedulablePodsLeftover(q, 300_001)).toEqual(['default/p']);
    expect(pendingCount(q).active).toBe(1);
  });

  it('move on update and disappear on delete', () => {
    const q = failed(['NodeAffinity'], 0);
    update(q, makePod('p', [], { nodeSelector: { disk: 'ssd' } }), 20_000);
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
