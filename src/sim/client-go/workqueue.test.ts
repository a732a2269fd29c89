import { describe, expect, it } from 'vitest';
import {
  add,
  causeOfKey,
  done,
  forget,
  get,
  len,
  newWorkQueue,
  numRequeues,
  rateLimiterWhen,
  workQueueHandle,
} from './workqueue.ts';

describe('work queue', () => {
  it('dedups waiting keys and re-queues keys added while processing', () => {
    const q = newWorkQueue('q');
    add(q, 'a');
    add(q, 'b');
    add(q, 'a');
    expect(len(q)).toBe(2);
    expect(get(q)).toBe('a');
    add(q, 'a'); // while processing: marked dirty, not queued twice
    expect(len(q)).toBe(1);
    expect(get(q)).toBe('b');
    done(q, 'b');
    done(q, 'a'); // re-queued now
    expect(get(q)).toBe('a');
    done(q, 'a');
    expect(get(q)).toBeUndefined();
  });
  it('exponential failure backoff 5ms → 1000s', () => {
    const q = newWorkQueue('q');
    const ds = Array.from({ length: 30 }, () => rateLimiterWhen(q, 'k'));
    expect(ds.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(ds.at(-1)).toBe(1_000_000);
    expect(numRequeues(q, 'k')).toBe(30);
    forget(q, 'k');
    expect(numRequeues(q, 'k')).toBe(0);
  });
  it('is JSON-serialisable', () => {
    const q = newWorkQueue('q');
    add(q, 'x');
    expect(JSON.parse(JSON.stringify(q))).toEqual(q);
  });
  it("keeps the first add's cause until the key is taken, and hands it to the sync", () => {
    const q = newWorkQueue('q');
    add(q, 'a', 7);
    add(q, 'a', 9); // deduped: the waiting key keeps the notification that first added it
    expect(get(q)).toBe('a');
    expect(causeOfKey(q, 'a')).toBe(7);
    add(q, 'a', 11); // while processing: the next round's cause
    add(q, 'a', 12);
    done(q, 'a');
    expect(causeOfKey(q, 'a')).toBeUndefined();
    expect(get(q)).toBe('a');
    expect(causeOfKey(q, 'a')).toBe(11);
    done(q, 'a');
    expect(q.causes).toEqual({});
    expect(q.takenCauses).toEqual({});
  });
  it('gives a key added by a timer (a requeue, a resync) no cause, even if a notification adds it again before it is taken', () => {
    const q = newWorkQueue('q');
    expect(workQueueHandle(q, { type: 'workqueue-add', queue: 'q', key: 'a' })).toBe(true);
    add(q, 'a', 3);
    expect(get(q)).toBe('a');
    expect(causeOfKey(q, 'a')).toBeUndefined();
    done(q, 'a');
    add(q, 'a', 4);
    expect(get(q)).toBe('a');
    expect(causeOfKey(q, 'a')).toBe(4);
  });
});
