import { describe, expect, it } from 'vitest';
import { copyDict, newDict } from './dict.ts';

describe('dictionary-mode objects', () => {
  it('are ordinary empty objects that keep insertion order', () => {
    const d = newDict<number>();
    expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
    expect(Object.keys(d)).toEqual([]);
    for (const k of ['b9', 'a1', 'zz', '10']) d[k] = k.length;
    // Like any object: integer-like keys first, then strings in insertion order.
    expect(Object.keys(d)).toEqual(['10', 'b9', 'a1', 'zz']);
    expect(JSON.stringify(d)).toBe(JSON.stringify({ 10: 2, b9: 2, a1: 2, zz: 2 }));
    expect(structuredClone(d)).toEqual(d);
  });

  it('copy like a spread does', () => {
    const src = newDict<number>();
    src.x = 1;
    src.y = 2;
    expect(Object.entries(copyDict(src))).toEqual(Object.entries({ ...src }));
    expect(Object.entries(copyDict(src, 'x', 9))).toEqual(Object.entries({ ...src, x: 9 }));
    expect(Object.entries(copyDict(src, 'w', 0))).toEqual(Object.entries({ ...src, w: 0 }));
    expect(src).toEqual({ x: 1, y: 2 });
  });
});
