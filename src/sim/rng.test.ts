import { describe, expect, it } from 'vitest';
import { chars, createRng, float, int, jitter, nextUint32, pick } from './rng.ts';

describe('rng', () => {
  it('is reproducible from a seed and differs across seeds', () => {
    const a = createRng(42),
      b = createRng(42),
      c = createRng(43);
    const xs = Array.from({ length: 5 }, () => nextUint32(a));
    expect(Array.from({ length: 5 }, () => nextUint32(b))).toEqual(xs);
    expect(Array.from({ length: 5 }, () => nextUint32(c))).not.toEqual(xs);
  });
  it('state is plain data that survives JSON', () => {
    const a = createRng(1);
    nextUint32(a);
    const b = JSON.parse(JSON.stringify(a));
    expect(nextUint32(b)).toBe(nextUint32(a));
  });
  it('helpers stay in range', () => {
    const r = createRng(3);
    for (let i = 0; i < 1000; i++) {
      const f = float(r);
      expect(f >= 0 && f < 1).toBe(true);
      const n = int(r, 7);
      expect(n >= 0 && n < 7).toBe(true);
      const j = jitter(r, 2, 4);
      expect(j >= 2 && j <= 4).toBe(true);
    }
    expect(['a', 'b']).toContain(pick(r, ['a', 'b']));
    expect(chars(r, 'xy', 6)).toMatch(/^[xy]{6}$/);
  });
});
