// etcd-like store: objects under Kubernetes' key layout, one global revision, watch history since
// the last compaction. Only the API server calls these functions.
import { newDict } from '../util/dict.ts';
import { flattenStrings } from '../util/names.ts';
import type { KObject } from '../api/request.ts';
import { REGISTRY_PREFIX, type ResourceName, type ResourceTypes } from '../api/resources.ts';

/** One change in the history, as etcd's watch reports it. */
export interface StoreEvent {
  revision: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: string;
  key: string;
  /** The new object (for DELETED: the last state). */
  object: KObject;
  /** The previous state (MODIFIED, DELETED) so selector transitions can be computed. */
  prev?: KObject;
}

/** The store as plain data. */
export interface StoreState {
  revision: number;
  /** resource → etcd key → object. */
  objects: Record<string, Record<string, KObject>>;
  /** etcd key → create_revision. */
  createRevision: Record<string, number>;
  /** History of every write with revision > compactedRevision, in revision order. */
  history: StoreEvent[];
  compactedRevision: number;
  /** Whether stored objects are deep-frozen (tests: catches accidental mutation). */
  freeze: boolean;
}

/** An empty store at revision 1 (etcd starts at 1). */
export function createStore(freeze = true): StoreState {
  return { revision: 1, objects: {}, createRevision: newDict(), history: [], compactedRevision: 0, freeze };
}

/** Recursively freeze plain data. */
function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) deepFreeze(x);
  }
  return v;
}

/** Read one object. */
export function storeGet(s: StoreState, resource: string, key: string): KObject | undefined {
  return s.objects[resource]?.[key];
}

/** All objects of a resource (optionally under a namespace), in key order; a served resource's as its type (admitted as one). */
export function storeList<R extends ResourceName>(s: StoreState, resource: R, namespace?: string): ResourceTypes[R][];
/** All objects of a resource named at run time (optionally under a namespace), in key order. */
export function storeList(s: StoreState, resource: string, namespace?: string): KObject[];
export function storeList(
  s: StoreState,
  resource: string,
  namespace?: string,
): KObject[] | ResourceTypes[ResourceName][] {
  const bucket = s.objects[resource];
  if (!bucket) return [];
  const prefix = namespace ? `${REGISTRY_PREFIX[resource] ?? `/registry/${resource}`}/${namespace}/` : '';
  const keys = Object.keys(bucket).filter((k) => !prefix || k.startsWith(prefix));
  keys.sort();
  return keys.map((k) => bucket[k]);
}

function withRV(obj: KObject, rev: number): KObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(rev) } };
}

/** Write (create or replace) `obj` at `key`: bumps the revision, stamps resourceVersion, records history. */
export function storePut(s: StoreState, resource: string, key: string, obj: KObject): StoreEvent {
  return putStamped(s, resource, key, withRV(obj, s.revision + 1));
}

/**
 * storePut of an object built for the store alone and already stamped with the next revision
 * (`metadata.resourceVersion` is `String(s.revision + 1)`): it is stored as it is, without the copy
 * that stamping makes. The caller must not keep or change it.
 */
export function storePutStamped(s: StoreState, resource: string, key: string, stored: KObject): StoreEvent {
  return putStamped(s, resource, key, stored);
}

function putStamped(s: StoreState, resource: string, key: string, stored: KObject): StoreEvent {
  const rev = ++s.revision;
  const bucket = (s.objects[resource] ??= newDict());
  const prev = bucket[key];
  flattenStrings(stored, prev); // kept until compaction: no concatenation trees (see flatten)
  if (s.freeze) deepFreeze(stored);
  bucket[key] = stored;
  if (!prev) s.createRevision[key] = rev;
  const ev: StoreEvent = prev
    ? { revision: rev, type: 'MODIFIED', resource, key, object: stored, prev }
    : { revision: rev, type: 'ADDED', resource, key, object: stored };
  s.history.push(ev);
  return ev;
}

/** Delete `key`: bumps the revision; the DELETED event carries the last state (or `final`) at the new revision. */
export function storeDelete(s: StoreState, resource: string, key: string, final?: KObject): StoreEvent | undefined {
  const bucket = s.objects[resource];
  const prev = bucket?.[key];
  if (!prev) return undefined;
  const rev = ++s.revision;
  delete bucket[key];
  delete s.createRevision[key];
  // `final`: the object as the write that deleted it left it (its last finalizer removed).
  const last = withRV(final ?? prev, rev);
  if (final) flattenStrings(last, prev);
  if (s.freeze) deepFreeze(last);
  const ev: StoreEvent = { revision: rev, type: 'DELETED', resource, key, object: last, prev };
  s.history.push(ev);
  return ev;
}

/** Drop history up to and including `revision` (etcd compaction). */
export function storeCompact(s: StoreState, revision: number): void {
  if (revision <= s.compactedRevision) return;
  s.compactedRevision = Math.min(revision, s.revision);
  const h = s.history;
  const i = firstAfter(h, s.compactedRevision);
  s.history = h.slice(i);
}

/** Index of the first history event with revision > rv (binary search, like the watch cache). */
function firstAfter(h: readonly StoreEvent[], rv: number): number {
  let lo = 0;
  let hi = h.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (h[mid].revision <= rv) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Result of reading history from a revision. */
type HistoryRead = { ok: true; events: StoreEvent[] } | { ok: false; code: 410; message: string };

/** Every event with revision > rv, or 410 Gone when rv is older than the compacted window. */
export function storeHistorySince(s: StoreState, rv: number): HistoryRead {
  if (rv < s.compactedRevision) {
    return { ok: false, code: 410, message: `too old resource version: ${rv} (${s.compactedRevision})` };
  }
  return { ok: true, events: s.history.slice(firstAfter(s.history, rv)) };
}
