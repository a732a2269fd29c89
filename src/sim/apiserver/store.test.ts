import { describe, expect, it } from 'vitest';
import {
  createStore,
  storeCompact,
  storeDelete,
  storeGet,
  storeHistorySince,
  storeList,
  storePut,
  storePutStamped,
} from './store.ts';
import { storeKey } from '../api/resources.ts';

const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' } });

describe('store', () => {
  it('uses Kubernetes key layout', () => {
    expect(storeKey('pods', 'default', 'web')).toBe('/registry/pods/default/web');
    expect(storeKey('nodes', undefined, 'node-1')).toBe('/registry/minions/node-1');
    expect(storeKey('leases', 'kube-node-lease', 'node-1')).toBe('/registry/leases/kube-node-lease/node-1');
    expect(storeKey('services', 'default', 'web')).toBe('/registry/services/specs/default/web');
  });
  it('bumps one global revision per write; resourceVersion = revision of last write', () => {
    const s = createStore();
    const a = storePut(s, 'pods', storeKey('pods', 'default', 'a'), pod('a'));
    const b = storePut(s, 'pods', storeKey('pods', 'default', 'b'), pod('b'));
    const a2 = storePut(s, 'pods', storeKey('pods', 'default', 'a'), { ...pod('a'), spec: { x: 1 } });
    expect([a.revision, b.revision, a2.revision]).toEqual([2, 3, 4]);
    expect(storeGet(s, 'pods', '/registry/pods/default/a')!.metadata!.resourceVersion).toBe('4');
    expect(s.createRevision['/registry/pods/default/a']).toBe(2);
    expect(a2.type).toBe('MODIFIED');
    expect(Object.isFrozen(storeGet(s, 'pods', '/registry/pods/default/a')!.metadata)).toBe(true);
    const d = storeDelete(s, 'pods', '/registry/pods/default/b')!;
    expect(d.revision).toBe(5);
    expect(d.object.metadata!.resourceVersion).toBe('5');
    expect(storeList(s, 'pods', 'default').map((o) => o.metadata!.name)).toEqual(['a']);
  });
  it('storePutStamped stores an object already stamped with the next revision exactly as storePut would', () => {
    const a = createStore();
    const b = createStore();
    for (let i = 0; i < 3; i++) {
      const o = { ...pod(`p${i}`), spec: { n: i } };
      const ea = storePut(a, 'pods', storeKey('pods', 'default', `p${i % 2}`), o);
      const eb = storePutStamped(b, 'pods', storeKey('pods', 'default', `p${i % 2}`), {
        ...o,
        metadata: { ...o.metadata, resourceVersion: String(b.revision + 1) },
      });
      expect(JSON.stringify(eb)).toBe(JSON.stringify(ea));
    }
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(Object.isFrozen(storeGet(b, 'pods', '/registry/pods/default/p0')!.metadata)).toBe(true);
  });
  it('history from any revision, 410 once compacted', () => {
    const s = createStore();
    for (let i = 0; i < 10; i++) storePut(s, 'pods', storeKey('pods', 'default', `p${i}`), pod(`p${i}`));
    const h = storeHistorySince(s, 5);
    expect(h.ok && h.events.map((e) => e.revision)).toEqual([6, 7, 8, 9, 10, 11]);
    storeCompact(s, 8);
    expect(storeHistorySince(s, 7)).toEqual({ ok: false, code: 410, message: 'too old resource version: 7 (8)' });
    const h2 = storeHistorySince(s, 8);
    expect(h2.ok && h2.events.map((e) => e.revision)).toEqual([9, 10, 11]);
  });
  it('is JSON-serialisable', () => {
    const s = createStore();
    storePut(s, 'pods', storeKey('pods', 'default', 'a'), pod('a'));
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
