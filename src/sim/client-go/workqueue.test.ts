import { describe, expect, it } from 'vitest';
import { add, done, forget, get, len, newWorkQueue, numRequeues, rateLimiterWhen } from './workqueue.ts';

describe('work queue', () => {
  it('dedups waiting keys and re-queues keys added while processing', () => {
    const q = newWorkQueue('q');
    add(q, 'a'); add(q, 'b'); add(q, 'a');
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
});
