import { describe, expect, it } from 'vitest';
import { baselineRef, DEFAULT_BASELINE } from './baseline.mjs';

describe('the build the browser benchmark compares with', () => {
  it('is BENCH_BASELINE_REF when set, else the newest tag (a release), else the commit issue 26 started from', () => {
    expect(baselineRef({ BENCH_BASELINE_REF: 'main~3' }, () => 'v1.0.0')).toBe('main~3');
    expect(baselineRef({}, () => 'v1.0.0')).toBe('v1.0.0');
    expect(baselineRef({ BENCH_BASELINE_REF: '' }, () => null)).toBe(DEFAULT_BASELINE);
    expect(DEFAULT_BASELINE).toMatch(/^[0-9a-f]{7,40}$/);
  });
});
