import { describe, expect, it } from 'vitest';
import { newTokenBucket, reserve, tokenDelay, tryAccept, type RateLimit } from './flowcontrol.ts';

const kcm: RateLimit = { qps: 20, burst: 30 };

describe('token bucket (client-go flowcontrol)', () => {
  it('starts full: burst requests pass at once, the next waits 1/qps', () => {
    const b = newTokenBucket(kcm, 0);
    for (let i = 0; i < 30; i++) expect(tryAccept(b, kcm, 0)).toBe(true);
    expect(tryAccept(b, kcm, 0)).toBe(false);
    expect(tokenDelay(b, kcm, 0)).toBe(50);
    expect(tryAccept(b, kcm, 49)).toBe(false);
    expect(tryAccept(b, kcm, 50)).toBe(true);
  });

  it('refills at qps up to the burst, never beyond', () => {
    const b = newTokenBucket(kcm, 0);
    for (let i = 0; i < 30; i++) tryAccept(b, kcm, 0);
    let n = 0;
    while (tryAccept(b, kcm, 10_000)) n++;
    expect(n).toBe(30);
  });

  it('reserve (Wait) goes into debt: the k-th request beyond the burst waits k/qps', () => {
    const limit: RateLimit = { qps: 5, burst: 10 };
    const b = newTokenBucket(limit, 0);
    const waits = Array.from({ length: 13 }, () => reserve(b, limit, 0));
    expect(waits.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(waits.slice(10)).toEqual([200, 400, 600]);
    // Retrying at the reserved time (the model's way of waiting) gives the same times as reserving.
    const c = newTokenBucket(limit, 0);
    const times: number[] = [];
    for (let t = 0, i = 0; i < 13; i++) {
      t += tokenDelay(c, limit, t);
      expect(tryAccept(c, limit, t)).toBe(true);
      times.push(t);
    }
    expect(times.slice(10)).toEqual([200, 400, 600]);
  });

  it('n requests take at least (n − burst)/qps', () => {
    const limit: RateLimit = { qps: 50, burst: 100 };
    const b = newTokenBucket(limit, 0);
    let t = 0;
    for (let i = 0; i < 600; i++) {
      t += tokenDelay(b, limit, t);
      tryAccept(b, limit, t);
    }
    expect(t).toBe(((600 - 100) / 50) * 1000);
  });
});
