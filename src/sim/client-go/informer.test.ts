import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  controllerIndexValue,
  INDEXERS,
  informerHandle,
  listAndWatch,
  listerGet,
  listerList,
  newInformer,
  type InformerState,
} from './informer.ts';
import { add, addAfter, drainQueue, newWorkQueue, numRequeues, workQueueHandle, type WorkQueue } from './workqueue.ts';
import { storeList } from '../apiserver/store.ts';
import { deployment, pod, testWorld } from '../testing/world.ts';
import type { ComponentDef } from '../world.ts';

/** A toy controller in sample-controller style: for each Deployment, ensure a pod `<name>-pod` exists. */
interface ToyState {
  deps: InformerState<Deployment>;
  pods: InformerState<Pod>;
  queue: WorkQueue;
  syncs: number;
}
const toy: ComponentDef<ToyState> = {
  name: 'toy',
  identity: () => 'kubectl',
  init(ctx) {
    const s: ToyState = {
      deps: newInformer('deps', 'deployments'),
      pods: newInformer('pods', 'pods'),
      queue: newWorkQueue('toy'),
      syncs: 0,
    };
    ctx.state = s;
    listAndWatch(ctx, s.deps, { add: (o) => add(s.queue, `${o.metadata!.namespace}/${o.metadata!.name}`) });
    listAndWatch(ctx, s.pods);
    processQueue(ctx.state, ctx);
    return s;
  },
  handle(ev, ctx) {
    const s = ctx.state;
    const enqueue = (o: { metadata?: { namespace?: string; name?: string } }) =>
      add(s.queue, `${o.metadata!.namespace}/${o.metadata!.name}`);
    if (informerHandle(ctx, s.deps, ev, { add: enqueue, update: (_o, n) => enqueue(n) })) {
      /* handled */
    } else if (informerHandle(ctx, s.pods, ev)) {
      /* cache only */
    } else workQueueHandle(s.queue, ev);
    processQueue(s, ctx);
  },
};
function processQueue(s: ToyState, ctx: Parameters<typeof toy.handle>[1]): void {
  drainQueue(ctx, s.queue, (key) => {
    s.syncs++;
    const [ns, name] = key.split('/');
    if (listerGet(s.pods, `${ns}/${name}-pod`)) return true;
    return ctx.api.create('pods', pod(`${name}-pod`, { owner: name }), ns).ok;
  });
}

describe('informer', () => {
  it('controller-style: preload, one sync, assert recorded requests', () => {
    const w = testWorld({}, [toy]);
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    const mark = w.state.log.length;
    w.addComponent('toy', 'toy');
    const reqs = () =>
      w.state.log
        .slice(mark)
        .filter((r) => r.kind === 'request')
        .map((r) => `${r.verb} ${r.path} ${r.code}`);
    // Streaming lists (WatchListClient): one WATCH each, no LIST; nothing is synced before the bookmarks.
    const stream = 'allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true';
    expect(reqs()).toEqual([`WATCH /apis/apps/v1/deployments?${stream} 200`, `WATCH /api/v1/pods?${stream} 200`]);
    expect((w.state.components.toy.state as ToyState).deps.hasSynced).toBe(false);
    w.advance(10);
    expect(reqs().slice(2)).toEqual(['POST /api/v1/namespaces/default/pods 201']);
    w.settle();
    // Its own create comes back through the watch into the cache; nothing more is written.
    expect(listerList((w.state.components.toy.state as ToyState).pods).map((o) => o.metadata!.name)).toEqual([
      'web-pod',
    ]);
    expect(w.state.log.filter((r) => r.kind === 'request' && r.verb === 'POST' && r.component === 'toy')).toHaveLength(
      1,
    );
  });
  it('retries with rate-limited requeue while writes fail', () => {
    const w = testWorld({}, [toy]);
    w.addComponent('toy', 'toy');
    w.fault({ type: 'etcd-full' });
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    w.fault({ type: 'etcd-space-freed' });
    // created before the fault? no: the create above failed too, so create it now, then fill the disk.
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    w.fault({ type: 'etcd-full' });
    w.advance(100);
    const s = w.state.components.toy.state as ToyState;
    expect(numRequeues(s.queue, 'default/web')).toBeGreaterThan(1);
    w.fault({ type: 'etcd-space-freed' });
    w.settle();
    expect(storeList(w.state.store, 'pods', 'default').map((p) => p.metadata!.name)).toEqual(['web-pod']);
    expect(numRequeues(s.queue, 'default/web')).toBe(0);
  });
  it('re-establishes its watch after the API server returns, missing nothing, and does not stream the state again', () => {
    const w = testWorld({}, [toy]);
    w.addComponent('toy', 'toy');
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('a') });
    w.settle();
    w.fault({ type: 'apiserver-down' });
    w.advance(5_000);
    w.fault({ type: 'apiserver-up' });
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('b') });
    w.settle(120_000);
    const s = w.state.components.toy.state as ToyState;
    expect(listerList(s.deps).map((o) => o.metadata!.name)).toEqual(['a', 'b']);
    expect(listerList(s.pods).map((o) => o.metadata!.name)).toEqual(['a-pod', 'b-pod']);
    // Now a long outage across two compactions: the resumed watch gets 410 and the informer re-lists.
    w.fault({ type: 'apiserver-down' });
    w.state.apiServer.faults.apiServerDown = false; // let kubectl write behind the informer's back
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'a-pod' });
    w.state.apiServer.faults.apiServerDown = true;
    w.advance(30_000);
    w.fault({ type: 'apiserver-up' });
    w.advance(11 * 60_000);
    w.settle(120_000);
    // The delete made while it was disconnected arrives through the resumed watch (no 410, no re-list).
    expect(listerList(s.pods).map((o) => o.metadata!.name)).toEqual(['b-pod']);
    expect(w.state.log.some((r) => r.code === 410)).toBe(false);
    expect(
      w.state.log.filter(
        (r) =>
          r.component === 'toy' &&
          r.verb === 'WATCH' &&
          r.path.startsWith('/api/v1/pods?') &&
          r.path.includes('sendInitialEvents=true'),
      ),
    ).toHaveLength(1);
  });
  it('410 on resume makes the informer stream the state again', () => {
    const w = testWorld({}, [toy]);
    w.addComponent('toy', 'toy');
    w.settle();
    const s = w.state.components.toy.state as ToyState;
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x') });
    w.advance(11 * 60_000);
    // Pretend the informer's watch broke long ago: its rv is older than the compacted window.
    s.pods.resourceVersion = '1';
    w.ctx('toy').stopWatch(s.pods.watchId!);
    w.inject('toy', { type: 'watch-closed', watchId: s.pods.watchId });
    w.settle(120_000);
    expect(
      w.state.log.some(
        (r) => r.code === 410 && r.path === '/api/v1/pods?allowWatchBookmarks=true&resourceVersion=1&watch=true',
      ),
    ).toBe(true);
    expect(
      w.state.log.filter(
        (r) =>
          r.component === 'toy' &&
          r.verb === 'WATCH' &&
          r.path.startsWith('/api/v1/pods?') &&
          r.path.includes('sendInitialEvents=true'),
      ),
    ).toHaveLength(2);
    expect(listerList(s.pods).map((o) => o.metadata!.name)).toEqual(['x']);
  });
});

describe('addAfter', () => {
  it('adds via the clock', () => {
    const w = testWorld({}, [toy]);
    w.addComponent('toy', 'toy');
    const s = w.state.components.toy.state as ToyState;
    addAfter(w.ctx('toy'), s.queue, 'default/late', 1000);
    w.advance(999);
    expect(s.syncs).toBe(0);
    w.advance(1);
    expect(s.syncs).toBe(1);
  });
});

describe('controller index values', () => {
  const owned = (ns: string, uid: string, controller = true) => ({
    metadata: { name: 'p', namespace: ns, ownerReferences: [{ uid, controller }] },
  });
  it('file an object under `ns/uid` of its controlling owner, one string per owner', () => {
    expect(INDEXERS.controller(owned('default', 'u-1'))).toEqual(['default/u-1']);
    expect(INDEXERS.controller(owned('default', 'u-1'))).toBe(INDEXERS.controller(owned('default', 'u-1')));
    expect(controllerIndexValue('default', 'u-1')).toBe(INDEXERS.controller(owned('default', 'u-1'))[0]);
  });
  it('tell namespaces apart for the same uid, and skip owners that are not controllers', () => {
    expect(INDEXERS.controller(owned('other', 'u-1'))).toEqual(['other/u-1']);
    expect(controllerIndexValue('default', 'u-1')).toBe('default/u-1');
    expect(INDEXERS.controller(owned('default', 'u-2', false))).toEqual([]);
    expect(controllerIndexValue('', undefined)).toBe('/undefined');
  });
});

describe('nodeName index', () => {
  it('files a pod under its node, and an unscheduled pod under nothing (nodeNameKeyIndex)', () => {
    expect(INDEXERS.nodeName({ metadata: { name: 'p' }, spec: { nodeName: 'node-1' } } as never)).toEqual(['node-1']);
    expect(INDEXERS.nodeName({ metadata: { name: 'p' }, spec: {} } as never)).toEqual([]);
    expect(INDEXERS.nodeName({ metadata: { name: 'p' }, spec: { nodeName: '' } } as never)).toEqual([]);
  });
});

describe('listerList', () => {
  it('follows every add and delete, although it keeps the sorted keys between them', () => {
    const inf = newInformer('pods', 'pods');
    inf.watchId = 'w';
    let revision = 10;
    const notify = (eventType: 'ADDED' | 'MODIFIED' | 'DELETED', name: string, image = 'nginx') => {
      const object = {
        ...pod(name),
        metadata: { name, namespace: 'default', resourceVersion: String(++revision) },
        spec: { containers: [{ name: 'c', image }] },
      };
      informerHandle(undefined as never, inf, { type: 'watch', watchId: 'w', eventType, object, revision });
    };
    const names = () => listerList(inf).map((p) => `${p.metadata!.name}:${p.spec!.containers[0].image}`);
    notify('ADDED', 'b');
    expect(names()).toEqual(['b:nginx']);
    notify('ADDED', 'a');
    expect(names()).toEqual(['a:nginx', 'b:nginx']);
    expect(names()).toEqual(['a:nginx', 'b:nginx']);
    notify('MODIFIED', 'b', 'nginx:2');
    expect(names()).toEqual(['a:nginx', 'b:nginx:2']);
    notify('DELETED', 'a');
    expect(names()).toEqual(['b:nginx:2']);
    expect(listerList(inf, (p) => p.metadata!.name === 'a')).toEqual([]);
    notify('ADDED', 'c');
    expect(listerList(inf, (p) => p.metadata!.name !== 'b').map((p) => p.metadata!.name)).toEqual(['c']);
    // A caller may change the list it gets: the next call is not affected.
    listerList(inf).reverse();
    expect(names()).toEqual(['b:nginx:2', 'c:nginx']);
  });
});
