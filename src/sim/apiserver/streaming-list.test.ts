// The streaming list (WatchList): one WATCH with sendInitialEvents=true sends the current state as
// ADDED events and ends them with a BOOKMARK annotated k8s.io/initial-events-end, as real 1.37
// informers start (client-go's WatchListClient).
import { describe, expect, it } from 'vitest';
import { informerHandle, listerList, newInformer } from '../client-go/informer.ts';
import { pod, testWorld } from '../testing/world.ts';
import { narrate } from '../view/records.ts';
import type { ComponentDef } from '../world.ts';
import { INITIAL_EVENTS_END_ANNOTATION, type WatchNotification } from '../api/watch.ts';
import { installKubectlExtras } from '../kubectl-extras.ts';

const recorder: ComponentDef<{ events: unknown[] }> = {
  name: 'recorder',
  identity: () => 'kubectl',
  init: () => ({ events: [] }),
  handle(ev, ctx) {
    ctx.state.events.push(ev);
  },
};
const STREAM = { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true } as const;
const received = (w: ReturnType<typeof testWorld>) =>
  (w.state.components.r.state as { events: WatchNotification[] }).events.filter((e) => e.type === 'watch');

describe('a streaming list', () => {
  it('sends every object as ADDED, then the initial-events-end BOOKMARK at the current revision, then changes', () => {
    const w = testWorld({}, [recorder]);
    w.addComponent('r', 'recorder');
    for (const n of ['a', 'b']) w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(n) });
    const rev = w.state.store.revision;
    expect(w.ctx('r').watch('pods', { ...STREAM, resourceVersion: '' }).ok).toBe(true);
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('c') });
    w.settle();
    const evs = received(w);
    expect(evs.map((e) => `${e.eventType} ${e.object.metadata?.name ?? ''}`)).toEqual([
      'ADDED a',
      'ADDED b',
      'BOOKMARK ',
      'ADDED c',
    ]);
    expect(evs[2].object).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { resourceVersion: String(rev), annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } },
    });
    const open = w.state.log.find((r) => r.kind === 'request' && r.verb === 'WATCH' && r.component === 'r')!;
    expect(open.path).toBe(
      '/api/v1/pods?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true',
    );
    expect(narrate(open)).toBe(
      'r opens a watch on pods, asking first for every one there is (a streaming list instead of a LIST).',
    );
    const mark = w.state.log.find((r) => r.kind === 'watch' && r.event === 'BOOKMARK')!;
    expect(narrate(mark)).toBe('The API server tells r that it has sent every pod there is; changes follow.');
  });

  it("refuses the streaming options apart (422, as ValidateListOptions), once kubectl's part is installed", () => {
    const w = testWorld({}, [recorder]);
    // Only kubectl's requests can send them apart: the check is in its part (watch-options.ts).
    installKubectlExtras(w);
    w.addComponent('r', 'recorder');
    const a = w.ctx('r').watch('pods', { sendInitialEvents: true, allowWatchBookmarks: true });
    expect(a).toMatchObject({ ok: false, code: 422 });
    expect(!a.ok && a.status.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless resourceVersionMatch is set to NotOlderThan',
    );
    const b = w.ctx('r').watch('pods', { resourceVersionMatch: 'NotOlderThan' });
    expect(!b.ok && b.status.message).toContain(
      'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
  });

  it('an informer fed the stream has every object and is synced after the bookmark, resuming from its revision', () => {
    const w = testWorld({}, [recorder]);
    w.addComponent('r', 'recorder');
    for (const n of ['a', 'b']) w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(n) });
    const inf = newInformer('pods', 'pods');
    const ctx = w.ctx('r');
    const r = ctx.watch('pods', { ...STREAM });
    inf.watchId = r.ok ? r.object.watchId : undefined;
    w.settle();
    for (const e of received(w)) {
      expect(inf.hasSynced).toBe(false);
      informerHandle(ctx, inf, e);
    }
    expect(inf.hasSynced).toBe(true);
    expect(listerList(inf).map((p) => p.metadata?.name)).toEqual(['a', 'b']);
    expect(inf.resourceVersion).toBe(String(w.state.store.revision));
  });
});
