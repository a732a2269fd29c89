// Watches: opened from a revision (or with synthetic ADDED events), served from an index by
// resource and node, delivered with the API server's latency; shared per process like client-go's
// shared informers.
import { push } from '../clock.ts';
import { jitter } from '../rng.ts';
import { authenticate } from './authn.ts';
import type { ApiServerConfig } from './config.ts';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type WatchClosed,
  type WatchNotification,
  type WatchOptions,
} from '../api/watch.ts';
import { authorize } from './rbac.ts';
import { type Stage, appendRecord } from '../request-log.ts';
import type { WatchEventType } from '../api/watch.ts';
import type { ApiRequest, ApiResult } from '../api/request.ts';
import type { Unstructured } from '../api/unstructured.ts';
import { RESOURCES, apiVersionOf, encodeQuery, resourcePath } from '../api/resources.ts';
import { matchesLabels, parseLabelSelector } from '../api/labels.ts';
import { matchesFields, parseFieldSelector } from './selectors.ts';
import type { ApiHost, Watcher } from './server.ts';
import { type Status, statusError } from '../api/status.ts';
import { type StoreEvent, storeHistorySince, storeList } from './store.ts';
import type { KObject } from '../api/request.ts';

/** A watch's query as client-go encodes it (url.Values.Encode: keys sorted, values escaped), as the audit log shows it. */
function watchQuery(opts: WatchOptions): string {
  return (
    '?' +
    encodeQuery({
      allowWatchBookmarks: opts.allowWatchBookmarks ? 'true' : undefined,
      fieldSelector: opts.fieldSelector || undefined,
      labelSelector: opts.labelSelector || undefined,
      // client-go leaves an empty resourceVersion out (a streaming list sends none).
      resourceVersion: opts.resourceVersion === '' ? undefined : opts.resourceVersion,
      resourceVersionMatch: opts.resourceVersionMatch || undefined,
      sendInitialEvents: opts.sendInitialEvents !== undefined ? String(opts.sendInitialEvents) : undefined,
      timeout: opts.timeout,
      timeoutSeconds: opts.timeoutSeconds !== undefined ? String(opts.timeoutSeconds) : undefined,
      watch: 'true',
    })
  );
}

/** Open a watch for `component`; events are queued to it as `WatchNotification`s. */
export function openWatch(
  h: ApiHost,
  config: ApiServerConfig,
  component: string,
  resource: string,
  opts: WatchOptions = {},
  identity = component,
): ApiResult<{ watchId: string; resourceVersion: string }> {
  const req: ApiRequest = { verb: 'watch', resource, namespace: opts.namespace, options: { ...opts } };
  const f = h.apiServer.faults;
  // A process's informers are its shared informer factory's (kube-controller-manager's): the watch is
  // the process's request, as the audit log names it, whichever controller asked first.
  const logWatch = (code: number, stage?: Stage, message?: string) =>
    appendRecord(h.log, {
      t: h.now,
      component: h.components[component]?.process ?? component,
      kind: 'request',
      verb: 'WATCH',
      path: resourcePath(resource, opts.namespace) + watchQuery(opts),
      code,
      stage,
      message,
    });
  const refuse = (st: Status, stage: Stage): ApiResult<never> => {
    logWatch(st.code, stage, st.message);
    return { ok: false, code: st.code, status: st };
  };
  if (f.apiServerDown || f.partitioned?.includes(component))
    return refuse(
      statusError(
        0,
        'ConnectionRefused',
        `Get "https://127.0.0.1:6443${resourcePath(resource, opts.namespace)}?watch=true": dial tcp 127.0.0.1:6443: connect: connection refused`,
      ),
      'connection',
    );
  if (!RESOURCES[resource])
    return refuse(statusError(404, 'NotFound', 'the server could not find the requested resource'), 'storage');
  if (!RESOURCES[resource].namespaced) opts = { ...opts, namespace: undefined };
  // Without kubectl's part only the options client-go's informers send reach here (see watch-options.ts).
  const invalidOpts = config.kubectlExtras?.watchOptions(opts);
  if (invalidOpts)
    return refuse(statusError(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${invalidOpts}`), 'validation');
  const id = authenticate(config, identity);
  if (!id) return refuse(statusError(401, 'Unauthorized', 'Unauthorized'), 'authentication');
  const denied = authorize(h, id, req);
  if (denied) return refuse(denied, 'authorization');
  // Without kubectl's part only selectors that parse reach here (see selector-errors.ts).
  const badSelector = config.kubectlExtras?.selectors(resource, opts.labelSelector, opts.fieldSelector);
  if (badSelector) return refuse(badSelector, 'validation');
  const labels = parseLabelSelector(opts.labelSelector);
  const fields = parseFieldSelector(opts.fieldSelector);
  const process = h.components[component]?.process;
  const fromRevision =
    !opts.sendInitialEvents && opts.resourceVersion && opts.resourceVersion !== '0'
      ? Number(opts.resourceVersion)
      : h.store.revision;
  if (process) {
    const shared = sharedWatchFor(h, process, resource, opts, fromRevision);
    if (shared) {
      // One watch per process and selector: the component reads the open one (no new request).
      shared.subscribers = [...shared.subscribers!, component]; // replaced, never edited: a dispatch in progress keeps its list
      return { ok: true, code: 200, object: { watchId: shared.id, resourceVersion: String(h.store.revision) } };
    }
  }
  let backlog: StoreEvent[] = [];
  let synthetic: KObject[] = [];
  const streaming = opts.sendInitialEvents === true;
  // NotOlderThan: the current state is never older than the revision asked for (a future one waits for it).
  if (!streaming && opts.resourceVersion !== undefined && opts.resourceVersion !== '' && opts.resourceVersion !== '0') {
    const rv = Number(opts.resourceVersion);
    const hist = storeHistorySince(h.store, rv);
    if (!hist.ok) return refuse(statusError(410, 'Expired', hist.message), 'storage');
    backlog = hist.events.filter((e) => e.resource === resource);
  } else {
    synthetic = storeList(h.store, resource, opts.namespace);
  }
  const nodeField = resource === 'pods' ? fields.find((x) => x.field === 'spec.nodeName' && x.op === '=') : undefined;
  const w: Watcher = {
    id: `w${h.apiServer.nextWatchId++}`,
    component,
    resource,
    namespace: opts.namespace,
    labels,
    fields,
    bucket: nodeField ? nodeField.value : '*',
    lastAt: h.now,
    fromRevision,
  };
  if (process) Object.assign(w, { process, subscribers: [component], selector: selectorKey(opts), dispatched: 0 });
  h.apiServer.watchers[w.id] = w;
  ((h.apiServer.watchIndex[resource] ??= {})[w.bucket] ??= []).push(w.id);
  logWatch(200);
  for (const o of synthetic)
    if (matchObj(w, o)) deliver(h, w, 'ADDED', o, Number(o.metadata?.resourceVersion), streaming);
  if (streaming) deliver(h, w, 'BOOKMARK', initialEventsEnd(resource, h.store.revision), h.store.revision, true);
  for (const e of backlog) dispatchTo(h, w, e);
  return { ok: true, code: 200, object: { watchId: w.id, resourceVersion: String(h.store.revision) } };
}

/** The BOOKMARK that ends a streaming list: only the kind, the revision and the annotation. */
function initialEventsEnd(resource: string, revision: number): KObject {
  return {
    apiVersion: apiVersionOf(resource),
    kind: RESOURCES[resource].kind,
    metadata: { resourceVersion: String(revision), annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } },
  };
}

/** Close a watch (the client stops it); no notification is sent. */
export function closeWatch(h: ApiHost, watchId: string): void {
  const w = h.apiServer.watchers[watchId];
  if (!w) return;
  delete h.apiServer.watchers[watchId];
  const ids = h.apiServer.watchIndex[w.resource]?.[w.bucket];
  if (ids) {
    const i = ids.indexOf(watchId);
    if (i >= 0) ids.splice(i, 1);
    if (ids.length === 0) delete h.apiServer.watchIndex[w.resource][w.bucket];
  }
}

/** The components reading a watch. */
export function watchSubscribers(w: Watcher): readonly string[] {
  return w.subscribers ?? [w.component];
}

/** `component` stops reading a watch; the watch closes when nobody reads it any more. */
export function leaveWatch(h: ApiHost, watchId: string, component: string): void {
  const w = h.apiServer.watchers[watchId];
  if (!w) return;
  if (w.subscribers && w.subscribers.length > 1) {
    const i = w.subscribers.indexOf(component);
    if (i >= 0) {
      w.subscribers = w.subscribers.filter((c) => c !== component);
      return;
    }
    if (w.subscribers.length) return; // not a reader of it: leave it open for those who are
  }
  closeWatch(h, watchId);
}

/** Break every open watch (API server going down): each reader gets `watch-closed`. */
export function breakAllWatches(h: ApiHost): void {
  for (const id of Object.keys(h.apiServer.watchers)) {
    const w = h.apiServer.watchers[id];
    closeWatch(h, id);
    for (const c of watchSubscribers(w))
      push(h.queue, h.now, c, { type: 'watch-closed', watchId: id } satisfies WatchClosed);
  }
}

/** Break the watches of one component (it is cut off by a partition): it gets `watch-closed` for each. */
export function breakWatchesOf(h: ApiHost, component: string): void {
  for (const id of Object.keys(h.apiServer.watchers)) {
    if (!watchSubscribers(h.apiServer.watchers[id]).includes(component)) continue;
    leaveWatch(h, id, component);
    push(h.queue, h.now, component, { type: 'watch-closed', watchId: id } satisfies WatchClosed);
  }
}

function selectorKey(opts: WatchOptions): string {
  return `${opts.namespace ?? ''}?${opts.labelSelector ?? ''}?${opts.fieldSelector ?? ''}`;
}

/**
 * An open watch of `process` that a component asking for the same selectors from `fromRevision`
 * can read instead of opening its own: nothing handed out yet, and no change to the resource
 * between the two revisions (so both would see exactly the same notifications).
 */
function sharedWatchFor(
  h: ApiHost,
  process: string,
  resource: string,
  opts: WatchOptions,
  fromRevision: number,
): Watcher | undefined {
  const key = selectorKey(opts);
  for (const id of h.apiServer.watchIndex[resource]?.['*'] ?? []) {
    const w = h.apiServer.watchers[id];
    if (w.process !== process || w.selector !== key || w.dispatched !== 0) continue;
    const lo = Math.min(w.fromRevision, fromRevision);
    const hi = Math.max(w.fromRevision, fromRevision);
    if (lo !== hi && lo < h.store.compactedRevision) continue;
    if (lo !== hi && changedBetween(h.store.history, resource, lo, hi)) continue;
    return w;
  }
  return undefined;
}

function changedBetween(history: readonly StoreEvent[], resource: string, lo: number, hi: number): boolean {
  for (let i = history.length - 1; i >= 0 && history[i].revision > lo; i--) {
    if (history[i].revision <= hi && history[i].resource === resource) return true;
  }
  return false;
}

function matchObj(w: Watcher, o: KObject | undefined): boolean {
  if (!o) return false;
  if (w.namespace && o.metadata?.namespace !== w.namespace) return false;
  if (w.labels.length === 0 && w.fields.length === 0) return true; // most watches select everything
  return (
    matchesLabels(w.labels, o.metadata?.labels as Record<string, string> | undefined) && matchesFields(w.fields, o)
  );
}

/** A watcher's reaction delay [min, max] ms unless its component sets one. */
const DEFAULT_REACTION_MS: readonly [number, number] = [1, 3];

function deliver(
  h: ApiHost,
  w: Watcher,
  type: WatchEventType,
  object: KObject,
  revision: number,
  initial = false,
): void {
  const react = h.components[w.component]?.reactionMs ?? DEFAULT_REACTION_MS;
  // A fixed reaction (kubectl's) draws nothing, so a client's watch leaves the world's random choices as
  // they were. A watch's initial events (and their bookmark) arrive as one burst in its response, read
  // at the quickest reaction: the stream an informer starts with draws nothing either.
  const reaction = initial || react[0] === react[1] ? react[0] : jitter(h.rng, react[0], react[1]);
  const at = Math.max(h.now + h.apiServer.latencyMs + h.apiServer.faults.addedLatencyMs + reaction, w.lastAt);
  w.lastAt = at;
  push(h.queue, at, w.process ?? w.component, {
    type: 'watch',
    watchId: w.id,
    eventType: type,
    object,
    revision,
  } satisfies WatchNotification);
}

/** The watch cache's filtering: a change that moves an object out of a selector is DELETED for that watcher. */
function dispatchTo(h: ApiHost, w: Watcher, e: StoreEvent): void {
  if (e.revision <= w.fromRevision) return;
  const cur = e.type === 'DELETED' ? undefined : e.object;
  const nowMatch = matchObj(w, cur);
  const wasMatch = matchObj(w, e.prev);
  if (e.type === 'DELETED') {
    if (wasMatch) deliver(h, w, 'DELETED', e.object, e.revision);
    return;
  }
  if (nowMatch && wasMatch) deliver(h, w, 'MODIFIED', e.object, e.revision);
  else if (nowMatch) deliver(h, w, 'ADDED', e.object, e.revision);
  else if (wasMatch)
    deliver(
      h,
      w,
      'DELETED',
      { ...e.prev!, metadata: { ...e.prev!.metadata, resourceVersion: String(e.revision) } },
      e.revision,
    );
}

/** Notify the watchers a store event concerns, found through the index (never a scan of all watchers). */
export function notifyWatchers(h: ApiHost, e: StoreEvent): void {
  const idx = h.apiServer.watchIndex[e.resource];
  if (!idx) return;
  // Read in place: dispatching queues notifications and never opens or closes a watch.
  const watchers = h.apiServer.watchers;
  const all = idx['*'];
  if (all) for (let i = 0; i < all.length; i++) dispatchTo(h, watchers[all[i]], e);
  if (e.resource === 'pods') {
    const a = ((e.object.spec as Unstructured | undefined)?.nodeName as string | undefined) ?? '';
    const b = ((e.prev?.spec as Unstructured | undefined)?.nodeName as string | undefined) ?? '';
    const onA = idx[a];
    if (onA) for (let i = 0; i < onA.length; i++) dispatchTo(h, watchers[onA[i]], e);
    const onB = b !== a ? idx[b] : undefined;
    if (onB) for (let i = 0; i < onB.length; i++) dispatchTo(h, watchers[onB[i]], e);
  }
}
