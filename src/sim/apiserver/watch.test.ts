import { describe, expect, it } from 'vitest';
import { notes, pod, recorder, testWorld } from '../testing/world.ts';

describe('watches', () => {
  it('resume from any revision delivers every later event in order; 410 after compaction', () => {
    const w = testWorld({}, [recorder]);
    w.addComponent('r', 'recorder');
    const start = w.state.store.revision;
    for (let i = 0; i < 5; i++)
      w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(`p${i}`) });
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p0' });
    const ctx = w.ctx('r');
    const res = ctx.watch('pods', { resourceVersion: String(start + 2) });
    expect(res.ok).toBe(true);
    w.settle();
    expect(notes(w, 'r')).toEqual(['ADDED p2', 'ADDED p3', 'ADDED p4', 'DELETED p0']);
    w.advance(5 * 60_000); // first tick records the candidate
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('late') });
    w.advance(5 * 60_000); // second tick compacts to the first tick's revision
    const gone = ctx.watch('pods', { resourceVersion: String(start) });
    expect(gone).toMatchObject({
      code: 410,
      status: { reason: 'Expired', message: `too old resource version: ${start} (${start + 6})` },
    });
  });
  it('selector watches notify only matching watchers; moving out of a selector gives DELETED', () => {
    const w = testWorld({}, [recorder]);
    for (const n of ['a', 'b', 'c']) w.addComponent(n, 'recorder');
    w.ctx('a').watch('pods', { fieldSelector: 'spec.nodeName=node-1', resourceVersion: '1' });
    w.ctx('b').watch('pods', { labelSelector: 'app=web', resourceVersion: '1' });
    w.ctx('c').watch('pods', { fieldSelector: 'spec.nodeName=', resourceVersion: '1' });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x', { app: 'web' }) });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('y', { app: 'db' }) });
    w.kubectl({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      name: 'x',
      subresource: 'binding',
      body: { target: { name: 'node-1' } },
    });
    w.kubectl({
      verb: 'patch',
      resource: 'pods',
      namespace: 'default',
      name: 'x',
      body: { metadata: { labels: { app: 'old' } } },
    });
    w.settle();
    expect(notes(w, 'a')).toEqual(['ADDED x', 'MODIFIED x']);
    expect(notes(w, 'b')).toEqual(['ADDED x', 'MODIFIED x', 'DELETED x']);
    expect(notes(w, 'c')).toEqual(['ADDED x', 'ADDED y', 'DELETED x']);
    expect(w.state.log.filter((r) => r.kind === 'watch' && r.component === 'b').map((r) => r.event)).toEqual([
      'ADDED',
      'MODIFIED',
      'DELETED',
    ]);
  });
  it('index: a pod on node-7 never touches node-1..6 watchers', () => {
    const w = testWorld({}, [recorder]);
    for (let i = 1; i <= 7; i++) {
      w.addComponent(`k${i}`, 'recorder');
      w.ctx(`k${i}`).watch('pods', { fieldSelector: `spec.nodeName=node-${i}`, resourceVersion: '1' });
    }
    expect(Object.keys(w.state.apiServer.watchIndex.pods).sort()).toEqual([
      'node-1',
      'node-2',
      'node-3',
      'node-4',
      'node-5',
      'node-6',
      'node-7',
    ]);
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x', {}, 'node-7') });
    w.settle();
    expect(notes(w, 'k7')).toEqual(['ADDED x']);
    expect(notes(w, 'k1')).toEqual([]);
  });
  it('delivery comes after API latency plus reaction time, in order per watcher', () => {
    const w = testWorld({ apiLatencyMs: 5 }, [recorder]);
    w.addComponent('r', 'recorder', { reactionMs: [10, 20] });
    w.ctx('r').watch('pods', { resourceVersion: String(w.state.store.revision) });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x') });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('y') });
    w.settle();
    const ts = w.state.log.filter((r) => r.kind === 'watch').map((r) => r.t);
    expect(ts[0]).toBeGreaterThanOrEqual(15);
    expect(ts[0]).toBeLessThanOrEqual(25);
    expect(ts[1]).toBeGreaterThanOrEqual(ts[0]);
  });
  it('watch without rv sends synthetic ADDED for current state', () => {
    const w = testWorld({}, [recorder]);
    w.addComponent('r', 'recorder');
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x') });
    w.ctx('r').watch('pods', {});
    w.settle();
    expect(notes(w, 'r')).toEqual(['ADDED x']);
  });
});
