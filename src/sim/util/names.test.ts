import { describe, expect, it } from 'vitest';
import {
  ALPHANUMS,
  computeHash,
  generateName,
  hashOf,
  microTime,
  newUID,
  rfc3339,
  safeEncodeString,
  stableStringify,
  unixNanoHex,
} from './names.ts';
import { createRng, nextUint32 } from '../rng.ts';

describe('names', () => {
  it('SafeEncodeString maps digits to 4-9,b,c,d,f', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });
  it('computeHash uses only the digit alphabet and depends on collisionCount', () => {
    const t = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } };
    const h = computeHash(t);
    expect(h).toMatch(/^[456789bcdf]{1,10}$/);
    expect(computeHash(t)).toBe(h);
    expect(computeHash(JSON.parse(JSON.stringify(t)))).toBe(h);
    expect(computeHash(t, 1)).not.toBe(h);
    expect(computeHash({ ...t, spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } })).not.toBe(h);
  });
  it('stableStringify ignores key order', () => {
    expect(stableStringify({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe(stableStringify({ a: [1, { c: 3, d: 2 }], b: 1 }));
    expect(hashOf({ a: 1 })).toBe(hashOf({ a: 1 }));
    expect(hashOf({ a: 1 })).not.toBe(hashOf({ a: 2 }));
  });
  it('generateName appends 5 chars from the alphabet and truncates the base to 58', () => {
    const r = createRng(1);
    const n = generateName(r, 'web-7c5ddbdf54-');
    expect(n).toMatch(new RegExp(`^web-7c5ddbdf54-[${ALPHANUMS}]{5}$`));
    expect(generateName(r, 'x'.repeat(80)).length).toBe(63);
  });
  it('uids are v4-shaped and seed-dependent', () => {
    const u = newUID(createRng(1));
    expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newUID(createRng(2))).not.toBe(u);
  });
  it('uids are the four draws in hex, with the version and variant bits set', () => {
    const hex = (n: number, digits: number) =>
      (n >>> 0)
        .toString(16)
        .padStart(8, '0')
        .slice(8 - digits);
    const a = createRng(9);
    const b = createRng(9);
    for (let i = 0; i < 2000; i++) {
      const [w, x, y, z] = [
        nextUint32(b),
        (nextUint32(b) & 0xffff0fff) | 0x4000,
        (nextUint32(b) & 0x3fffffff) | 0x80000000,
        nextUint32(b),
      ];
      const want = `${hex(w, 8)}-${hex(x >>> 16, 4)}-${hex(x, 4)}-${hex(y >>> 16, 4)}-${hex(y, 4)}${hex(z, 8)}`;
      expect(newUID(a)).toBe(want);
    }
    expect(a).toEqual(b);
  });
  it('timestamps from simulated ms', () => {
    expect(rfc3339(0)).toBe('2026-01-01T00:00:00Z');
    expect(rfc3339(12_999)).toBe('2026-01-01T00:00:12Z');
    expect(microTime(12_004)).toBe('2026-01-01T00:00:12.004000Z');
    expect(microTime(1.5)).toBe('2026-01-01T00:00:00.001500Z');
  });
});

describe('unixNanoHex', () => {
  it('is the exact hex of ms × 10⁶ + ns past 2^53 (what event names carry), as BigInt computes it', () => {
    let x = 7;
    const next = () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
    const cases: [number, number][] = [
      [0, 0],
      [0, 5],
      [16_777_215, 999_999],
      [16_777_216, 0],
      [1_767_225_600_000, 0],
    ];
    for (let i = 0; i < 5000; i++) cases.push([Math.floor(next() * 4e12), Math.floor(next() * 2_000_000)]);
    // Runs of neighbouring times share their high digits (remembered between calls).
    for (let i = 0; i < 2000; i++) cases.push([1_767_225_600_000 + Math.floor(i / 3), (i * 7919) % 60_000]);
    for (const [ms, ns] of cases) expect(unixNanoHex(ms, ns)).toBe((BigInt(ms) * 1_000_000n + BigInt(ns)).toString(16));
  });
});
