import { describe, expect, it } from 'vitest';
import { bytesPerSource, decodeVlq } from './worker-breakdown.mjs';

describe('worker-breakdown', () => {
  it('decodes Base64 VLQ segments as the source map spec writes them', () => {
    expect(decodeVlq('AAAA')).toEqual([0, 0, 0, 0]);
    expect(decodeVlq('CAAC')).toEqual([1, 0, 0, 1]);
    expect(decodeVlq('D')).toEqual([-1]);
    expect(decodeVlq('gB')).toEqual([16]);
    expect(decodeVlq('2HwBA')).toEqual([123, 24, 0]);
  });

  it('attributes each minified byte to the source its mapping points at', () => {
    // line 0: "abcdef" with cols 0-2 from a.ts, 3-5 from b.ts; line 1: "gh" from a.ts
    const code = 'abcdef\ngh';
    const map = { sources: ['a.ts', 'b.ts'], mappings: 'AAAA,GCAA;ADAA' };
    const sizes = bytesPerSource(code, map, process.cwd());
    expect(sizes.get('a.ts')).toBe(3 + 3);
    expect(sizes.get('b.ts')).toBe(3 + 1);
    expect([...sizes.values()].reduce((a, b) => a + b, 0)).toBe(code.length + 1);
  });
});
