import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clonePlain } from './clone.ts';
import { createCluster } from './index.ts';
import { runs } from '../test/fc.ts';

// Plain data as the state holds it: JSON values plus undefined, with keys of every kind.
const plain = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, undefined, true, false, 0, -0, NaN, Infinity),
    fc.double(),
    fc.string(),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', '0', '10', '2')), tie('value'), {
      maxKeys: 40,
    }),
  ),
})).value;

/** Same keys, order, values and (own) undefined keys, and no object shared with the original. */
function expectSameTree(a: unknown, b: unknown, seen = new Set<object>()): void {
  if (typeof a !== 'object' || a === null) {
    expect(Object.is(a, b)).toBe(true);
    return;
  }
  expect(b).not.toBe(a);
  if (seen.has(a)) return;
  seen.add(a);
  expect(Array.isArray(b)).toBe(Array.isArray(a));
  expect(Object.getPrototypeOf(b)).toBe(Array.isArray(a) ? Array.prototype : Object.prototype);
  expect(Object.keys(b as object)).toEqual(Object.keys(a));
  for (const k of Object.keys(a))
    expectSameTree((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], seen);
}

describe('clonePlain', () => {
  it('copies plain data exactly as structuredClone does', () => {
    fc.assert(
      fc.property(plain, (v) => {
        const mine = clonePlain(v);
        expectSameTree(v, mine);
        expectSameTree(structuredClone(v), mine);
      }),
      { numRuns: runs(0.5) },
    );
  });

  it('copies a shared object once and keeps cycles', () => {
    const shared = { name: 'web-1' };
    const root: Record<string, unknown> = { store: { a: shared }, cache: { a: shared }, list: [shared, shared] };
    root.self = root;
    const c = clonePlain(root) as typeof root & {
      store: { a: object };
      cache: { a: object };
      list: object[];
      self: unknown;
    };
    expect(c.store.a).not.toBe(shared);
    expect(c.cache.a).toBe(c.store.a);
    expect(c.list[0]).toBe(c.store.a);
    expect(c.list[1]).toBe(c.store.a);
    expect(c.self).toBe(c);
  });

  it('makes copies that are not frozen, keeps a "__proto__" key as an own property', () => {
    const src = JSON.parse('{"metadata":{"labels":{"__proto__":{"polluted":true}}}}');
    Object.freeze(src);
    const c = clonePlain(src);
    expect(Object.isFrozen(c)).toBe(false);
    expect(Object.getPrototypeOf(c.metadata.labels)).toBe(Object.prototype);
    expect(Object.keys(c.metadata.labels)).toEqual(['__proto__']);
    expect(JSON.stringify(c)).toBe(JSON.stringify(src));
  });

  it('refuses functions and symbols as structuredClone does, and hands other objects to it', () => {
    expect(() => clonePlain({ f: () => 1 })).toThrow(/could not be cloned/);
    expect(() => clonePlain([Symbol('x')])).toThrow(/could not be cloned/);
    const m = new Map([['a', 1]]);
    const c = clonePlain({ m, again: m });
    expect(c.m).toBeInstanceOf(Map);
    expect(c.m).not.toBe(m);
    expect(c.again).toBe(c.m);
  });

  it('copies a running world: the copy hashes the same and runs on identically', () => {
    const a = createCluster({ seed: 3 });
    a.request({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
          },
        },
      },
    });
    a.advance(20_000);
    const snap = clonePlain(a.world.state);
    expect(JSON.stringify(snap)).toBe(JSON.stringify(structuredClone(a.world.state)));
    const b = createCluster({ seed: 3 });
    b.world.restore(snap);
    a.advance(60_000);
    b.advance(60_000);
    expect(b.world.hash()).toBe(a.world.hash());
  });
});
