// client-go's informer (list + watch into a cache, with indexers and handlers) and its listers, as
// plain data driven through ctx.
import { informerKeyOf, resourceOfKind, type ResourceName, type ResourceTypes } from '../api/resources.ts';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type WatchClosed,
  type WatchNotification,
  type WatchOptions,
} from '../api/watch.ts';
import { newDict } from '../util/dict.ts';
import { flatten } from '../util/names.ts';
import type { ClientCtx } from '../world.ts';
import { setOf } from '../util/table.ts';
import { handlerMemo, lastNotified, nodeArrays, ownerValues, sortedKeys } from './informer-cache.ts';
import { lastCall } from '../util/memo.ts';

/** The little an informer needs from an object. */
interface MetaObject {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
}

/** An informer's state: what it watches, its cache (the lister's data) and its watch. */
export interface InformerState<T extends MetaObject = MetaObject> {
  /** Name of the informer inside its component (routes retry timers). */
  name: string;
  resource: ResourceName;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** namespace/name → object. */
  items: Record<string, T>;
  resourceVersion: string;
  watchId?: string;
  hasSynced: boolean;
  /**
   * A streaming list's objects so far (the reflector's temporaryStore), until its initial-events-end
   * bookmark replaces the cache with them; undefined when no streaming list is under way.
   */
  initial?: Record<string, T>;
  /** Reflector backoff before the next re-list/re-watch (800 ms doubling to 30 s). */
  backoffMs: number;
  /**
   * client-go's Indexer: index name → indexed value → the keys filed under it (insertion order),
   * kept with the cache so listers read one bucket instead of scanning every object.
   */
  indices?: Record<string, Record<string, Record<string, true>>>;
}

/** An index function (cache.IndexFunc): the values an object is filed under. Behaviour, so registered by name. */
type IndexFunc = (o: MetaObject) => string[];

const NONE: string[] = [];

function ownerEntry(ns: string, uid: string): { ns: string; value: string; values: string[] } {
  let e = ownerValues.get(uid);
  if (e === undefined || e.ns !== ns) {
    if (ownerValues.size >= 100_000) ownerValues.clear();
    const value = flatten(`${ns}/${uid}`);
    e = { ns, value, values: [value] };
    ownerValues.set(uid, e);
  }
  return e;
}

function nodeValues(n: string): string[] {
  let a = nodeArrays.get(n);
  if (a === undefined) {
    if (nodeArrays.size >= 100_000) nodeArrays.clear();
    nodeArrays.set(n, (a = [n]));
  }
  return a;
}

/** The `controller` index value of an owner (`ns/uid`), one string per owner. */
export function controllerIndexValue(ns: string, uid: string | undefined): string {
  return uid === undefined ? `${ns}/${uid}` : ownerEntry(ns, uid).value;
}

/** The index functions informers can name (`cache.MetaNamespaceIndexFunc` and the controllers' own). */
export const INDEXERS: Readonly<Record<string, IndexFunc>> = {
  /** cache.NamespaceIndex. */
  namespace: (o) => (o.metadata?.namespace ? [o.metadata.namespace] : NONE),
  /** `ns/uid` of the controlling owner (the ReplicaSet and Deployment controllers' owner index). */
  controller: (o) => {
    const refs = (o.metadata as { ownerReferences?: { controller?: boolean; uid?: string }[] } | undefined)
      ?.ownerReferences;
    if (!refs) return NONE;
    for (const r of refs) {
      if (!r.controller) continue;
      // (the shared array is only read: reindex compares and walks it)
      return r.uid === undefined
        ? [`${o.metadata?.namespace ?? ''}/${r.uid}`]
        : ownerEntry(o.metadata?.namespace ?? '', r.uid).values;
    }
    return NONE;
  },
  /**
   * spec.nodeName of a pod; an unscheduled pod is filed under nothing, as in kube-controller-manager's
   * nodeNameKeyIndex (its readers ask for the pods on a node; every pod would otherwise pass through
   * one large "" bucket on its way to a node).
   */
  nodeName: (o) => {
    const n = (o as { spec?: { nodeName?: string } }).spec?.nodeName;
    return n ? nodeValues(n) : NONE;
  },
  /** The namespace of an object with no controller (an orphan a controller may adopt); nothing for the rest. */
  orphan: (o) => {
    const refs = (o.metadata as { ownerReferences?: { controller?: boolean }[] } | undefined)?.ownerReferences;
    if (refs) for (const r of refs) if (r.controller) return NONE;
    return [o.metadata?.namespace ?? ''];
  },
};

function sameValues(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// The built-in index functions read only metadata.namespace, metadata.ownerReferences and
// spec.nodeName, which a status write carries over by reference: such a write cannot move the object.
const SPEC_AND_OWNER_INDEXERS = setOf([INDEXERS.namespace, INDEXERS.controller, INDEXERS.nodeName, INDEXERS.orphan]);
type Indexed = { metadata?: { namespace?: string; ownerReferences?: unknown }; spec?: unknown };
function sameIndexInputs(a: Indexed, b: Indexed): boolean {
  return (
    a.spec === b.spec &&
    a.metadata?.ownerReferences === b.metadata?.ownerReferences &&
    a.metadata?.namespace === b.metadata?.namespace
  );
}

/** File `key` under the new object's index values and out of the old one's. */
function reindex<T extends MetaObject>(
  inf: InformerState<T>,
  key: string,
  old: T | undefined,
  cur: T | undefined,
): void {
  const ix = inf.indices;
  if (!ix) return;
  const unmoved = old !== undefined && cur !== undefined && sameIndexInputs(old, cur);
  for (const name in ix) {
    const fn = INDEXERS[name];
    if (unmoved && SPEC_AND_OWNER_INDEXERS.has(fn)) continue; // (a re-registered function is not skipped)
    const buckets = ix[name];
    const before = old ? fn(old) : NONE;
    const after = cur ? fn(cur) : NONE;
    if (sameValues(before, after)) continue;
    // An emptied bucket stays (as `{}`): checking emptiness would enumerate a large bucket's keys.
    for (const v of before) {
      const b = buckets[v];
      if (b) delete b[key];
    }
    for (const v of after) (buckets[v] ??= newDict())[key] = true; // a bucket gains and loses keys: a dictionary from the start
  }
}

function rebuildIndices<T extends MetaObject>(inf: InformerState<T>): void {
  if (!inf.indices) return;
  for (const name of Object.keys(inf.indices)) inf.indices[name] = newDict();
  for (const k of Object.keys(inf.items)) reindex(inf, k, undefined, inf.items[k]);
}

/** Event handlers, as ResourceEventHandlerFuncs. */
export interface EventHandlers<T extends MetaObject = MetaObject> {
  add?(obj: T): void;
  update?(oldObj: T, newObj: T): void;
  delete?(obj: T): void;
}

/**
 * `make(ctx)`, built once per context and state and reused for every event (handlers only close over
 * those). A caller that has read `ctx.state` already passes it (each read is a lookup in the world).
 */
export function memoHandlers<C extends { state: unknown }, T>(
  ctx: C,
  make: (ctx: C) => T,
  state: unknown = ctx.state,
): T {
  let m = handlerMemo.get(ctx);
  if (!m) handlerMemo.set(ctx, (m = new Map()));
  const hit = m.get(make);
  if (hit && hit.state === state) return hit.value as T;
  const value = make(ctx);
  m.set(make, { state, value });
  return value;
}

/** cache.WaitForCacheSync's poll period (syncedPollPeriod): how often a controller looks again for synced caches. */
export const SYNCED_POLL_PERIOD_MS = 100;

/** Reflector backoff bounds. */
const REFLECTOR_BACKOFF_INITIAL_MS = 800;
/** Reflector backoff cap. */
const REFLECTOR_BACKOFF_MAX_MS = 30_000;

// One notified object reaches several informers in a row: lastCall builds (and hashes) its key once. Names never change.
/** cache.MetaNamespaceKeyFunc: `ns/name` or `name`. */
export const metaNamespaceKey = lastCall((o: MetaObject): string => {
  // A stored object names its kind: its key comes from the API server's names cache (one per object).
  const resource = resourceOfKind((o as { kind?: string }).kind);
  if (resource) return informerKeyOf(resource, o.metadata?.namespace, o.metadata?.name ?? '');
  return o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : String(o.metadata?.name);
});

/** A new, unstarted informer; `indexers` names entries of INDEXERS to keep (listerByIndex reads them). */
export function newInformer<R extends ResourceName>(
  name: string,
  resource: R,
  opts: Omit<WatchOptions, 'resourceVersion'> = {},
  indexers: string[] = [],
): InformerState<ResourceTypes[R]> {
  // Every informer has every field from the start (unset ones undefined): one object shape for all of
  // them, so informerHandle's property reads stay monomorphic across the components that call it.
  const s: InformerState<ResourceTypes[R]> = {
    name,
    resource,
    namespace: opts.namespace || undefined,
    labelSelector: opts.labelSelector || undefined,
    fieldSelector: opts.fieldSelector || undefined,
    items: newDict(),
    resourceVersion: '',
    watchId: undefined,
    hasSynced: false,
    initial: undefined,
    backoffMs: REFLECTOR_BACKOFF_INITIAL_MS,
    indices: undefined,
  };
  if (indexers.length) {
    s.indices = {};
    for (const n of indexers) {
      if (!INDEXERS[n]) throw new Error(`unknown indexer ${n}`);
      s.indices[n] = newDict();
    }
  }
  return s;
}

/** The retry timer event an informer schedules for itself. */
interface InformerRetry {
  type: 'informer-retry';
  informer: string;
}

/** The events an informer takes (a notification, a closed watch, its retry timer): part of its component's events. */
export type InformerEvent = WatchNotification | WatchClosed | InformerRetry;

function retryLater<T extends MetaObject>(ctx: ClientCtx, inf: InformerState<T>): void {
  ctx.schedule(inf.backoffMs, { type: 'informer-retry', informer: inf.name } satisfies InformerRetry);
  inf.backoffMs = Math.min(inf.backoffMs * 2, REFLECTOR_BACKOFF_MAX_MS);
}

/**
 * ListAndWatch as client-go 1.37 runs it (WatchListClient, on by default since 1.35): one WATCH with
 * sendInitialEvents=true streams the current state; its initial-events-end BOOKMARK replaces the cache
 * (firing handlers for the differences, as a LIST's Replace does) and the same watch carries on.
 */
export function listAndWatch<T extends MetaObject>(
  ctx: ClientCtx,
  inf: InformerState<T>,
  _handlers: EventHandlers<T> = {},
): boolean {
  // (The handlers run when the stream's bookmark reaches informerHandle.)
  const w = ctx.watch(inf.resource, {
    namespace: inf.namespace,
    labelSelector: inf.labelSelector,
    fieldSelector: inf.fieldSelector,
    sendInitialEvents: true,
    resourceVersionMatch: 'NotOlderThan',
    allowWatchBookmarks: true,
  });
  if (!w.ok) {
    inf.watchId = undefined;
    retryLater(ctx, inf);
    return false;
  }
  inf.watchId = w.object.watchId;
  inf.initial = newDict();
  return true;
}

/** The Replace that ends a streaming list: the streamed objects become the cache; handlers see the differences. */
function replaceWithInitial<T extends MetaObject>(
  inf: InformerState<T>,
  fresh: Record<string, T>,
  h: EventHandlers<T>,
): void {
  inf.initial = undefined;
  for (const [k, old] of Object.entries(inf.items)) if (!fresh[k]) h.delete?.(old);
  const before = inf.items;
  inf.items = fresh;
  rebuildIndices(inf);
  inf.hasSynced = true;
  inf.backoffMs = REFLECTOR_BACKOFF_INITIAL_MS;
  for (const [k, o] of Object.entries(fresh)) {
    const old = before[k];
    if (!old) h.add?.(o);
    else if (old.metadata?.resourceVersion !== o.metadata?.resourceVersion) h.update?.(old, o);
  }
}

function watchFrom<T extends MetaObject>(ctx: ClientCtx, inf: InformerState<T>, h: EventHandlers<T>): boolean {
  const w = ctx.watch(inf.resource, {
    namespace: inf.namespace,
    labelSelector: inf.labelSelector,
    fieldSelector: inf.fieldSelector,
    resourceVersion: inf.resourceVersion,
    allowWatchBookmarks: true,
  });
  if (w.ok) {
    inf.watchId = w.object.watchId;
    inf.backoffMs = REFLECTOR_BACKOFF_INITIAL_MS;
    return true;
  }
  inf.watchId = undefined;
  if (w.code === 410) return listAndWatch(ctx, inf, h); // too old: stream the state again
  retryLater(ctx, inf);
  return false;
}

// One notification reaches several informers in a row (a process's shared watch): its revision is
// turned into a string once.
const revisionString = lastCall((r: number): string => String(r));

/**
 * Whether an event is one an informer takes (a watch notification, a closed watch, a retry timer):
 * components test this first, so their own timers skip looking up the informers' handlers.
 */
export function isInformerEvent(event: unknown): boolean {
  const t = (event as { type?: string } | undefined)?.type;
  return t === 'watch' || t === 'watch-closed' || t === 'informer-retry';
}

/**
 * Feed one component event to an informer; returns true if it was the informer's (watch
 * notification, watch closed, retry timer). Handlers run after the cache is updated.
 */
export function informerHandle<T extends MetaObject>(
  ctx: ClientCtx,
  inf: InformerState<T>,
  event: unknown,
  h: EventHandlers<T> = {},
): boolean {
  const ev = event as { type?: string };
  if (ev?.type === 'watch') {
    const n = event as WatchNotification;
    if (n.watchId !== inf.watchId) return false;
    const obj = n.object as unknown as T;
    // A bookmark carries only a revision (kept as the resume point); the one ending a streaming list's initial events syncs the cache.
    if (n.eventType === 'BOOKMARK') {
      inf.resourceVersion = revisionString(n.revision);
      if (
        (obj as { metadata?: { annotations?: Record<string, string> } }).metadata?.annotations?.[
          INITIAL_EVENTS_END_ANNOTATION
        ] === 'true'
      ) {
        if (inf.initial) replaceWithInitial(inf, inf.initial, h);
        else inf.hasSynced = true;
      }
      return true;
    }
    // The API server's names cache holds one `ns/name` string per object: no per-version lookup. The
    // readers of a shared watch get the same object in a row, so the last answer is kept at hand
    // (their handlers' own lookups would evict it from the names cache's).
    const last = lastNotified;
    if (obj !== last.object || inf.resource !== last.resource) {
      last.key = informerKeyOf(inf.resource, obj.metadata?.namespace, obj.metadata?.name ?? '');
      last.object = obj;
      last.resource = inf.resource;
    }
    const key = last.key;
    // A streaming list's events fill the temporary store; the cache, the handlers and the resume
    // point (its objects' revisions are not in order) wait for its bookmark.
    if (inf.initial) {
      if (n.eventType === 'DELETED') delete inf.initial[key];
      else inf.initial[key] = obj;
      return true;
    }
    inf.resourceVersion = revisionString(n.revision);
    const old = inf.items[key];
    if (n.eventType === 'DELETED') {
      delete inf.items[key];
      reindex(inf, key, old, undefined);
      h.delete?.(obj);
    } else {
      inf.items[key] = obj;
      reindex(inf, key, old, obj);
      if (old) h.update?.(old, obj);
      else h.add?.(obj);
    }
    return true;
  }
  if (ev?.type === 'watch-closed') {
    const c = event as WatchClosed;
    if (c.watchId !== inf.watchId) return false;
    inf.watchId = undefined;
    inf.initial = undefined; // a stream cut short is started again (client-go drops its temporary store)
    retryLater(ctx, inf);
    return true;
  }
  if (ev?.type === 'informer-retry' && (event as InformerRetry).informer === inf.name) {
    if (!inf.watchId) {
      if (inf.hasSynced) watchFrom(ctx, inf, h);
      else listAndWatch(ctx, inf, h);
    }
    return true;
  }
  return false;
}

/** Lister: every cached object (key order), optionally filtered. */
export function listerList<T extends MetaObject>(inf: InformerState<T>, pred?: (o: T) => boolean): T[] {
  // Periodic passes list a cache that rarely changes: its sorted keys are kept per `items` object and
  // resourceVersion. informerHandle sets resourceVersion with every add or delete (one store revision
  // per write, so never twice the same), and a re-list or a restore brings a new `items` object.
  let sorted = sortedKeys.get(inf.items);
  if (!sorted || sorted.resourceVersion !== inf.resourceVersion) {
    sorted = { resourceVersion: inf.resourceVersion, keys: Object.keys(inf.items).sort() };
    sortedKeys.set(inf.items, sorted);
  }
  const keys = sorted.keys;
  if (!pred) {
    const all: T[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) all[i] = inf.items[keys[i]];
    return all;
  }
  const out: T[] = [];
  for (let i = 0; i < keys.length; i++) {
    const o = inf.items[keys[i]];
    if (pred(o)) out.push(o);
  }
  return out;
}

/**
 * Lister through an index (ByIndex): the cached objects filed under `value`, in key order when
 * `sorted` (as listerList), else in the order they were filed (cheaper, for counting).
 */
export function listerByIndex<T extends MetaObject>(
  inf: InformerState<T>,
  index: string,
  value: string,
  sorted = true,
): T[] {
  const ix = inf.indices?.[index];
  if (!ix) throw new Error(`informer ${inf.name} has no index ${index}`);
  const b = ix[value];
  if (!b) return [];
  const keys = Object.keys(b);
  if (sorted) keys.sort();
  const out: T[] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) out[i] = inf.items[keys[i]];
  return out;
}

/** Lister: one cached object by `ns/name`. */
export function listerGet<T extends MetaObject>(inf: InformerState<T>, key: string): T | undefined {
  return inf.items[key];
}
