import { describe, expect, it } from 'vitest';
import type { RolloutSeries } from '../../sim/index.ts';
import { chartOf, intOrPercent } from './rollout-view.ts';

const p = (
  t: number,
  total: number,
  ready: number,
): { t: number; total: number; ready: number; atMost: number; atLeast: number } => ({
  t,
  total,
  ready,
  atMost: 8,
  atLeast: 5,
});

describe('chartOf', () => {
  it('draws each line as a step function from the first point to the present', () => {
    const s: RolloutSeries = { from: 0, to: 100, segments: [{ points: [p(0, 6, 6), p(50, 8, 6)], until: 100 }] };
    const c = chartOf(s, 128, 109, 24);
    // x: 24 + t (100 px for 100 ms); y: 89 − 9v (81 px for yMax = 8 + 1).
    expect(c.yMax).toBe(9);
    expect(c.total).toBe('M24.0,35.0 L74.0,35.0 L74.0,17.0 L124.0,17.0');
    expect(c.ready).toBe('M24.0,35.0 L74.0,35.0 L74.0,35.0 L124.0,35.0');
    expect(c.atMost).toBe('M24.0,17.0 L74.0,17.0 L74.0,17.0 L124.0,17.0');
  });

  it('breaks the lines where the Deployment was gone, and starts at the first point rather than the window', () => {
    const s: RolloutSeries = {
      from: 0,
      to: 300,
      segments: [
        { points: [p(100, 1, 1)], until: 200 },
        { points: [p(250, 2, 0)], until: 300 },
      ],
    };
    const c = chartOf(s, 228, 109, 24);
    // x: 24 + (t − 100).
    expect(c.total).toBe('M24.0,80.0 L124.0,80.0 M174.0,71.0 L224.0,71.0');
  });

  it('draws nothing, without failing, for an empty series', () => {
    const c = chartOf({ from: 0, to: 0, segments: [] }, 320, 140);
    expect([c.total, c.ready, c.atMost, c.atLeast]).toEqual(['', '', '', '']);
    expect(Number.isFinite(c.y(0))).toBe(true);
  });
});

describe('intOrPercent', () => {
  it('reads digits as an integer and leaves anything else for the API server', () => {
    expect(intOrPercent(' 2 ')).toBe(2);
    expect(intOrPercent('25%')).toBe('25%');
    expect(intOrPercent('abc')).toBe('abc');
  });
});
