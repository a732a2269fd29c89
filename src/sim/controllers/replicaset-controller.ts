// The ReplicaSet controller (pkg/controller/replicaset/replica_set.go) as a component of the
// simulated cluster: informers on replicasets and pods, a work queue keyed `ns/name`, expectations
// kept as plain data, and syncReplicaSet → manageReplicas → status. Every decision about numbers
// and ordering is in replicaset-util.ts; this file only talks to the API server.
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { OwnerReference } from 'kubernetes-types/meta/v1';
import type { ApiResult } from '../api/request.ts';
import { newEventRecorder, recordEvent, type EventRecorderState } from '../client-go/record.ts';
import { controller, type ControllerEvent } from '../client-go/controller.ts';
import {
  controllerIndexValue,
  listerByIndex,
  listerGet,
  metaNamespaceKey,
  newInformer,
  type EventHandlers,
  type InformerState,
} from '../client-go/informer.ts';
import {
  add,
  addAfter,
  finishSync,
  newWorkQueue,
  SYNC_WAITING,
  syncWithCause,
  type WorkQueue,
} from '../client-go/workqueue.ts';
import { KUBE_CONTROLLER_MANAGER_CLIENT } from '../client-go/flowcontrol.ts';
import { deepEqual, flatten, rfc3339 } from '../util/names.ts';
import { FREEZE_BY_DEFAULT, type ComponentDef, type Ctx } from '../world.ts';
import {
  BurstReplicas,
  calculateReplicaSetStatus,
  replicaSetStatusFromCounts,
  FailedCreatePodReason,
  FailedDeletePodReason,
  getPodsToDelete,
  isPodActive,
  isPodReady,
  manageReplicasDiff,
  podEventMessages,
  continueSlowStart,
  newSlowStart,
  SlowStartInitialBatchSize,
  SuccessfulCreatePodReason,
  SuccessfulDeletePodReason,
  type SlowStartProgress,
} from './replicaset-util.ts';
import { podParts, refKeys, tallies } from './replicaset-controller-cache.ts';
import { claimCandidate, claimObjects } from './controller-ref-manager.ts';

/** ExpectationsTimeout: expectations older than this are ignored, so a lost watch event cannot wedge an RS. */
const ExpectationsTimeoutMs = 5 * 60 * 1000;

/** ControllerExpectations for one RS, as plain data (UIDTrackingControllerExpectations: deletes tracked by pod key). */
interface Expectation {
  /** Creations still to be observed through the pod informer. */
  add: number;
  /** Pod keys whose deletion is still to be observed. */
  del: string[];
  /** When the expectations were set (simulated ms), for the 5-minute timeout. */
  timestamp: number;
}

/** The component's plain state. */
export interface ReplicaSetControllerState {
  rsInformer: InformerState<ReplicaSet>;
  podInformer: InformerState<Pod>;
  queue: WorkQueue;
  expectations: Record<string, Expectation>;
  recorder: EventRecorderState;
  /** A worker wake-up is already queued. */
  workerPending: boolean;
  /** RS keys one of whose pods had its labels changed: the next sync checks it still matches (ClaimPods). */
  relabeled?: Record<string, true>;
  /** Syncs whose pod creations wait on the client's rate limiter, by RS key (the key stays processing). */
  creating?: Record<string, SlowStartProgress<string>>;
  /** Syncs whose pod deletions wait on the client's rate limiter, by RS key. */
  deleting?: Record<string, PendingDeletes>;
}

type C = Ctx<ReplicaSetControllerState>;

/**
 * NewReplicaSetController: it watches ReplicaSets and their pods, queues ReplicaSet keys
 * (`ns/name`), and syncs each with syncReplicaSet.
 */
const replicaSetController = controller<ReplicaSetControllerState>({
  // RSs first so the pod handlers can resolve their owners (WaitForCacheSync in spirit).
  informers: { rsInformer: rsHandlers, podInformer: podHandlers },
  worker: 'replicaset-worker',
  sync: syncReplicaSet,
});

/** What the controller is sent: its controller()'s events, and a sync's resumption once its client has tokens. */
type ReplicaSetControllerEvent = ControllerEvent<'replicaset-worker'> | ResumeEvent;

// ---------------------------------------------------------------------------------------------
// Expectations (pkg/controller/controller_utils.go), pure over the state.

/** SatisfiedExpectations: no record, all observed, or expired. */
export function satisfiedExpectations(s: ReplicaSetControllerState, key: string, now: number): boolean {
  const e = s.expectations[key];
  if (!e) return true;
  if (e.add <= 0 && e.del.length === 0) return true;
  return now - e.timestamp > ExpectationsTimeoutMs;
}

function expectCreations(s: ReplicaSetControllerState, key: string, n: number, now: number): void {
  s.expectations[key] = { add: n, del: [], timestamp: now };
}

function expectDeletions(s: ReplicaSetControllerState, key: string, podKeys: string[], now: number): void {
  s.expectations[key] = { add: 0, del: [...podKeys], timestamp: now };
}

function creationObserved(s: ReplicaSetControllerState, key: string): void {
  const e = s.expectations[key];
  if (e) e.add--;
}

function deletionObserved(s: ReplicaSetControllerState, key: string, podKey: string): void {
  const e = s.expectations[key];
  if (!e) return;
  const i = e.del.indexOf(podKey);
  if (i >= 0) e.del.splice(i, 1);
}

// ---------------------------------------------------------------------------------------------
// Ownership

function controllerRefOf(o: { metadata?: { ownerReferences?: OwnerReference[] } }): OwnerReference | undefined {
  // (a loop, not find: asked for every pod notification)
  const refs = o.metadata?.ownerReferences;
  if (refs) for (let i = 0; i < refs.length; i++) if (refs[i].controller) return refs[i];
  return undefined;
}

function refKey(ns: string | undefined, ref: OwnerReference): string {
  const c = refKeys.get(ref.uid);
  if (c !== undefined && c.ns === ns && c.name === ref.name) return c.key;
  const key = flatten(`${ns}/${ref.name}`);
  if (refKeys.size >= 100_000) refKeys.clear();
  refKeys.set(ref.uid, { ns, name: ref.name, key });
  return key;
}

// resolveControllerRef: the RS in the cache that the pod's controllerRef names (uid must match).
function resolveControllerRef(
  s: ReplicaSetControllerState,
  ns: string | undefined,
  ref: OwnerReference | undefined,
): ReplicaSet | undefined {
  if (!ref || ref.kind !== 'ReplicaSet') return undefined;
  const rs = listerGet(s.rsInformer, refKey(ns, ref));
  return rs && rs.metadata?.uid === ref.uid ? rs : undefined;
}

// resolveControllerRef for a handler that only queues the RS: its key, which is the lister key it was
// found under (the same string as metaNamespaceKey(rs), without asking the names cache again).
function resolveControllerKey(
  s: ReplicaSetControllerState,
  ns: string | undefined,
  ref: OwnerReference | undefined,
): string | undefined {
  if (!ref || ref.kind !== 'ReplicaSet') return undefined;
  const key = refKey(ns, ref);
  const rs = listerGet(s.rsInformer, key);
  return rs && rs.metadata?.uid === ref.uid ? key : undefined;
}

// The pods this RS controls, through the informer's controller index (key order when `sorted`;
// counting needs no order, ranking for deletion does).
function podsOf(s: ReplicaSetControllerState, rs: ReplicaSet, sorted = true): Pod[] {
  return listerByIndex(
    s.podInformer,
    'controller',
    controllerIndexValue(rs.metadata?.namespace ?? '', rs.metadata?.uid),
    sorted,
  );
}

// getIndirectlyRelatedPods: pods of every RS that shares this RS's controller (the Deployment's other RSs).
function relatedPodsOf(s: ReplicaSetControllerState, rs: ReplicaSet): Pod[] {
  const owner = controllerRefOf(rs);
  if (!owner) return podsOf(s, rs);
  const siblings = listerByIndex(
    s.rsInformer,
    'controller',
    controllerIndexValue(rs.metadata?.namespace ?? '', owner.uid),
  );
  return siblings.flatMap((o) => podsOf(s, o));
}

// ---------------------------------------------------------------------------------------------
// Pod tallies: the counts calculateStatus needs, per owner, kept up to date from the pod handlers so
// a sync does not rescan the RS's pods. A behaviour-side cache keyed by the informer's state object
// (so a restored snapshot starts afresh), built from the index on first use; never part of the state.

export interface Tally {
  active: number;
  ready: number;
  terminating: number;
  /** Active pods whose labels carry every template label of `labels`. */
  fullyLabeled: number;
  labels: [string, string][];
  labelsSig: string;
  /** The template labels object the signature was taken from (an RS write keeps it by reference). */
  labelsOf: Record<string, string> | undefined;
}

function ownerIndexValue(p: Pod): string | undefined {
  const ref = controllerRefOf(p);
  return ref ? controllerIndexValue(p.metadata?.namespace ?? '', ref.uid) : undefined;
}

function hasLabels(labels: [string, string][], pod: Pod): boolean {
  const l = pod.metadata?.labels;
  for (const [k, v] of labels) if (l?.[k] !== v) return false;
  return true;
}

function count(t: Tally, p: Pod, sign: 1 | -1): void {
  const phase = p.status?.phase;
  const done = phase === 'Succeeded' || phase === 'Failed';
  if (p.metadata?.deletionTimestamp) {
    if (!done) t.terminating += sign;
    return;
  }
  if (done) return;
  t.active += sign;
  if (isPodReady(p)) t.ready += sign;
  if (hasLabels(t.labels, p)) t.fullyLabeled += sign;
}

function isDone(p: Pod): boolean {
  const phase = p.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** What one pod adds to its owner's tally (whose template labels are `labels`); for tests. */
export function podTally(
  labels: [string, string][],
  p: Pod,
): Pick<Tally, 'active' | 'ready' | 'terminating' | 'fullyLabeled'> {
  const t: Tally = { active: 0, ready: 0, terminating: 0, fullyLabeled: 0, labels, labelsSig: '', labelsOf: undefined };
  count(t, p, 1);
  return { active: t.active, ready: t.ready, terminating: t.terminating, fullyLabeled: t.fullyLabeled };
}

/**
 * Whether `count` files both versions alike in the same tally, so that −1 and +1 cancel: the same
 * owner (a status write keeps ownerReferences and labels by reference), deletion state, terminal
 * phase and readiness. Most pod updates are status writes that change none of these.
 */
export function sameTallyClass(old: Pod, cur: Pod): boolean {
  const om = old.metadata;
  const cm = cur.metadata;
  return (
    om?.ownerReferences === cm?.ownerReferences &&
    om?.namespace === cm?.namespace &&
    om?.labels === cm?.labels &&
    !om?.deletionTimestamp === !cm?.deletionTimestamp &&
    isDone(old) === isDone(cur) &&
    isPodReady(old) === isPodReady(cur)
  );
}

/** Apply a pod change (old → cur, either absent) to the tallies already built. */
function tallyPodChange(s: ReplicaSetControllerState, old: Pod | undefined, cur: Pod | undefined): void {
  const m = tallies.get(s.podInformer);
  if (!m) return;
  if (old && cur && sameTallyClass(old, cur)) return;
  if (old) {
    const v = ownerIndexValue(old);
    const t = v !== undefined ? m.get(v) : undefined;
    if (t) count(t, old, -1);
  }
  if (cur) {
    const v = ownerIndexValue(cur);
    const t = v !== undefined ? m.get(v) : undefined;
    if (t) count(t, cur, 1);
  }
}

function tallyOf(s: ReplicaSetControllerState, rs: ReplicaSet): Tally {
  let m = tallies.get(s.podInformer);
  if (!m) {
    m = new Map();
    tallies.set(s.podInformer, m);
  }
  const value = controllerIndexValue(rs.metadata?.namespace ?? '', rs.metadata?.uid);
  const labelsOf = rs.spec?.template?.metadata?.labels;
  let t = m.get(value);
  if (t && labelsOf !== undefined && t.labelsOf === labelsOf) return t;
  const labels = Object.entries(labelsOf ?? {});
  const labelsSig = JSON.stringify(labels);
  if (t && t.labelsSig === labelsSig) {
    t.labelsOf = labelsOf;
    return t;
  }
  t = { active: 0, ready: 0, terminating: 0, fullyLabeled: 0, labels, labelsSig, labelsOf };
  for (const p of podsOf(s, rs, false)) count(t, p, 1);
  m.set(value, t);
  return t;
}

// ---------------------------------------------------------------------------------------------
// Event handlers (addPod / updatePod / deletePod / addRS / updateRS / deleteRS)

// `cause`: the watch notification whose handler enqueues (Ctx.notification), kept by the queue.
function enqueue(s: ReplicaSetControllerState, rs: ReplicaSet, cause: number | undefined): void {
  add(s.queue, metaNamespaceKey(rs), cause);
}

function rsHandlers(ctx: C): EventHandlers<ReplicaSet> {
  const s = ctx.state;
  return {
    add: (rs) => enqueue(s, rs, ctx.notification),
    update: (_old, cur) => enqueue(s, cur, ctx.notification),
    delete: (rs) => {
      delete s.expectations[metaNamespaceKey(rs)];
      enqueue(s, rs, ctx.notification);
    },
  };
}

function onPodDeleted(s: ReplicaSetControllerState, pod: Pod, cause: number | undefined): void {
  const rs = resolveControllerRef(s, pod.metadata?.namespace, controllerRefOf(pod));
  if (!rs) return;
  const key = metaNamespaceKey(rs);
  deletionObserved(s, key, metaNamespaceKey(pod));
  add(s.queue, key, cause);
}

function podHandlers(ctx: C): EventHandlers<Pod> {
  const s = ctx.state;
  return {
    add: (pod) => {
      tallyPodChange(s, undefined, pod);
      // A pod that shows up already terminating counts as a deletion, not a creation.
      const cause = ctx.notification;
      if (pod.metadata?.deletionTimestamp) {
        onPodDeleted(s, pod, cause);
        return;
      }
      const key = resolveControllerKey(s, pod.metadata?.namespace, controllerRefOf(pod));
      if (key === undefined) {
        enqueueAdopters(s, pod, cause);
        return;
      }
      creationObserved(s, key);
      add(s.queue, key, cause);
    },
    update: (old, cur) => {
      tallyPodChange(s, old, cur);
      if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
      const labelChanged = !deepEqual(old.metadata?.labels, cur.metadata?.labels);
      const cause = ctx.notification;
      // A graceful delete is observed as soon as deletionTimestamp is set: the replacement starts at once.
      if (cur.metadata?.deletionTimestamp) {
        onPodDeleted(s, cur, cause);
        if (labelChanged) onPodDeleted(s, old, cause);
        return;
      }
      // A status write keeps ownerReferences by reference: one controllerRef lookup serves both.
      const curRef = controllerRefOf(cur);
      const oldRef = old.metadata?.ownerReferences === cur.metadata?.ownerReferences ? curRef : controllerRefOf(old);
      if (oldRef && oldRef.uid !== curRef?.uid) {
        const oldRS = resolveControllerRef(s, old.metadata?.namespace, oldRef);
        if (oldRS) enqueue(s, oldRS, cause);
      }
      const key = resolveControllerKey(s, cur.metadata?.namespace, curRef);
      // An orphan (newly, or with new labels) may be adopted by an RS that selects it.
      if (key === undefined) {
        if (!curRef && (oldRef || labelChanged)) enqueueAdopters(s, cur, cause);
        return;
      }
      // Its own pod relabelled: the sync checks whether it still matches, and releases it if not.
      if (labelChanged) (s.relabeled ??= {})[key] = true;
      add(s.queue, key, cause);
      // Available needs minReadySeconds of readiness: look again once that has passed.
      const minReady = listerGet(s.rsInformer, key)!.spec?.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(cur)) addAfter(ctx, s.queue, key, minReady * 1000 + 1000);
    },
    delete: (pod) => {
      tallyPodChange(s, pod, undefined);
      onPodDeleted(s, pod, ctx.notification);
    },
  };
}

/** getPodReplicaSets: the RSs whose selector an orphan pod matches (they may adopt it). */
function enqueueAdopters(s: ReplicaSetControllerState, pod: Pod, cause: number | undefined): void {
  if (pod.metadata?.deletionTimestamp) return;
  for (const rs of listerByIndex(s.rsInformer, 'namespace', pod.metadata?.namespace ?? '')) {
    if (claimCandidate(rs, pod)) add(s.queue, metaNamespaceKey(rs), cause);
  }
}

/**
 * ClaimPods, when there is something to claim: adopt the namespace's orphans the RS selects, release
 * its own pods whose labels no longer match. The RS's pods after it, or undefined when nothing changed
 * (the usual case: no orphan, no relabelled pod) so the kept tally still holds.
 */
function claimPods(ctx: C, rs: ReplicaSet, key: string): { pods: Pod[]; ok: boolean } | undefined {
  const s = ctx.state;
  const ns = rs.metadata?.namespace ?? '';
  const relabeled = s.relabeled?.[key] === true;
  if (relabeled) delete s.relabeled![key];
  const orphans = listerByIndex(s.podInformer, 'orphan', ns).filter((p) => claimCandidate(rs, p));
  if (!orphans.length && !relabeled) return undefined;
  const own = podsOf(s, rs, true);
  const r = claimObjects(rs, [...own, ...orphans], {
    adopt: (p, patch) => {
      const x = ctx.api.patch('pods', ns, p.metadata?.name ?? '', patch);
      return x.ok ? x.object : undefined;
    },
    release: (p, patch) => {
      const x = ctx.api.patch('pods', ns, p.metadata?.name ?? '', patch);
      return x.ok || x.code === 404;
    },
    fresh: () => {
      const g = ctx.api.get('replicasets', ns, rs.metadata?.name ?? '');
      return g.ok ? g.object : undefined;
    },
  });
  if (!r.adopted.length && !r.released.length) return r.ok ? undefined : { pods: own, ok: false };
  return { pods: r.owned, ok: r.ok };
}

// ---------------------------------------------------------------------------------------------
// syncReplicaSet

function errorText(r: ApiResult<unknown>): string {
  return r.ok ? '' : (r.status.message ?? `code ${r.code}`);
}

// GetPodFromTemplate: labels/annotations from the template, generateName `<rs>-`, the RS as controller.
function podFromTemplate(rs: ReplicaSet): Pod {
  const t = rs.spec?.template ?? {};
  let parts = podParts.get(rs);
  if (!parts) {
    parts = {
      generateName: flatten(`${rs.metadata?.name}-`),
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: rs.metadata?.name ?? '',
          uid: rs.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    };
    podParts.set(rs, parts);
  }
  // Stored objects are immutable (the API server copies what it changes), so the template's spec,
  // labels, annotations and finalizers, and one owner reference per RS, are shared by all its pods
  // rather than copied for each (the same data; fewer objects to allocate, keep and walk).
  const meta: Pod['metadata'] = {
    generateName: parts.generateName,
    namespace: rs.metadata?.namespace,
    labels: t.metadata?.labels ?? {},
    ownerReferences: parts.ownerReferences,
  };
  if (t.metadata?.annotations) meta.annotations = t.metadata.annotations;
  if (t.metadata?.finalizers) meta.finalizers = t.metadata.finalizers;
  return { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: t.spec };
}

/**
 * manageReplicas: create (slow-start batches) or delete (getPodsToDelete ranking) to reach
 * spec.replicas; returns the first error, or SYNC_WAITING when its requests wait on the rate limiter.
 */
function manageReplicas(
  ctx: C,
  activeCount: number,
  rs: ReplicaSet,
  claimed?: Pod[],
): string | null | typeof SYNC_WAITING {
  const s = ctx.state;
  const key = metaNamespaceKey(rs);
  const diff = manageReplicasDiff(activeCount, rs.spec?.replicas ?? 1, BurstReplicas);
  if (diff < 0) {
    const n = -diff;
    // Expect the creations before making them: their watch events may arrive before this sync ends.
    expectCreations(s, key, n, ctx.now);
    return createPods(ctx, rs, key, newSlowStart<string>(n, SlowStartInitialBatchSize));
  }
  if (diff > 0) {
    // Ranking ties fall back to the lister's (key) order.
    const ranked = (claimed ?? podsOf(s, rs, true)).filter(isPodActive);
    const victims = getPodsToDelete(ranked, relatedPodsOf(s, rs), diff, rfc3339(ctx.now));
    expectDeletions(
      s,
      key,
      victims.map((p) => metaNamespaceKey(p)),
      ctx.now,
    );
    return deletePods(ctx, rs, key, { pods: victims.map((p) => p.metadata?.name ?? ''), next: 0, error: null });
  }
  return null;
}

/** A scale-down's deletions (pod names, in getPodsToDelete's order): how far it got, its first error. */
interface PendingDeletes {
  pods: string[];
  next: number;
  error: string | null;
}

/**
 * manageReplicas' deletions, run on or resumed: each takes a token of the controller's client (in
 * Kubernetes they are goroutines, each waiting in the limiter); on an empty bucket the rest waits.
 */
function deletePods(ctx: C, rs: ReplicaSet, key: string, d: PendingDeletes): string | null | typeof SYNC_WAITING {
  const s = ctx.state;
  const ns = rs.metadata?.namespace ?? 'default';
  for (; d.next < d.pods.length; d.next++) {
    const wait = ctx.throttle();
    if (wait > 0) {
      (s.deleting ??= {})[key] = d;
      ctx.schedule(wait, { type: 'replicaset-resume', key } satisfies ResumeEvent);
      return SYNC_WAITING;
    }
    const name = d.pods[d.next];
    const r = ctx.api.delete('pods', ns, name);
    if (r.ok) {
      recordEvent(ctx, s.recorder, rs, 'Normal', SuccessfulDeletePodReason, podEventMessages.successfulDelete(name));
      continue;
    }
    // The informer will not observe a deletion that did not happen.
    deletionObserved(s, key, `${ns}/${name}`);
    if (r.code === 404) continue; // already gone: that is what we wanted
    const msg = errorText(r);
    recordEvent(ctx, s.recorder, rs, 'Warning', FailedDeletePodReason, podEventMessages.failedDelete(msg));
    d.error ??= `unable to delete pods: ${msg}`;
  }
  if (s.deleting?.[key]) delete s.deleting[key];
  return d.error;
}

/**
 * manageReplicas' creations, run on or resumed: every create takes a token of the controller's client
 * first; on an empty bucket the run is kept and resumed when the next token is there (the batch's
 * goroutines wait in client-go's limiter). Returns the first error, or SYNC_WAITING.
 */
function createPods(
  ctx: C,
  rs: ReplicaSet,
  key: string,
  p: SlowStartProgress<string>,
): string | null | typeof SYNC_WAITING {
  const s = ctx.state;
  const ns = rs.metadata?.namespace ?? 'default';
  const wait = continueSlowStart(
    p,
    () => {
      const r = ctx.api.create('pods', podFromTemplate(rs), ns);
      if (r.ok) {
        recordEvent(
          ctx,
          s.recorder,
          rs,
          'Normal',
          SuccessfulCreatePodReason,
          podEventMessages.successfulCreate(r.object.metadata?.name ?? ''),
        );
        return null;
      }
      const msg = errorText(r);
      recordEvent(ctx, s.recorder, rs, 'Warning', FailedCreatePodReason, podEventMessages.failedCreate(msg));
      return msg;
    },
    ctx.throttle,
  );
  if (wait > 0) {
    (s.creating ??= {})[key] = p;
    ctx.schedule(wait, { type: 'replicaset-resume', key } satisfies ResumeEvent);
    return SYNC_WAITING;
  }
  if (s.creating?.[key]) delete s.creating[key];
  // The informer will never see the creations that were skipped or failed.
  const unobserved = p.failures + p.remaining;
  for (let i = 0; i < unobserved; i++) creationObserved(s, key);
  return p.error;
}

/** A waiting sync's next token is there: go on creating or deleting, and finish the sync when done. */
interface ResumeEvent {
  type: 'replicaset-resume';
  key: string;
}

function resumeSync(ctx: C, key: string): void {
  const s = ctx.state;
  const p = s.creating?.[key];
  const d = s.deleting?.[key];
  if (!p && !d) return;
  const rs = listerGet(s.rsInformer, key);
  if (!rs) {
    // Deleted while waiting: the rest is not sent (a simplification: Kubernetes' blocked goroutines
    // would still send theirs; the garbage collector removes what they made).
    if (p) delete s.creating![key];
    if (d) delete s.deleting![key];
    delete s.expectations[key];
    finishSync(ctx, s.queue, key, true);
    return;
  }
  // The waiting sync goes on with the cause it was taken with (its requests are that sync's).
  const ok = syncWithCause(ctx, s.queue, key, () => {
    const err = p ? createPods(ctx, rs, key, p) : deletePods(ctx, rs, key, d!);
    if (err === SYNC_WAITING) return err;
    const t = tallyOf(s, rs);
    return syncStatus(ctx, rs, key, err, undefined, undefined, {
      active: t.active,
      fullyLabeled: t.fullyLabeled,
      ready: t.ready,
      available: t.ready,
      terminating: t.terminating,
    });
  });
  if (ok !== SYNC_WAITING) finishSync(ctx, s.queue, key, ok);
}

// updateReplicaSetStatus: PUT …/status when anything changed; one GET-and-retry on a conflict.
function updateStatus(ctx: C, rs: ReplicaSet, status: ReplicaSet['status']): ReplicaSet | null {
  let cur = rs;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (deepEqual(cur.status, status)) return cur;
    const r = ctx.api.update('replicasets', { ...cur, status }, 'status');
    if (r.ok) return r.object;
    if (r.code !== 409) return null;
    const g = ctx.api.get('replicasets', rs.metadata?.namespace, rs.metadata?.name ?? '');
    if (!g.ok) return null;
    cur = g.object;
  }
  return null;
}

/** The pod counts a status is made of. */
type PodCounts = { active: number; fullyLabeled: number; ready: number; available: number; terminating: number };

// The RS's active and terminating pods, from the informer.
function scanPods(s: ReplicaSetControllerState, rs: ReplicaSet): { active: Pod[]; terminating: Pod[] } {
  const allPods = podsOf(s, rs, false);
  // FilterTerminatingPods (KEP-3973, beta in 1.35): being deleted but not yet terminal.
  return {
    active: allPods.filter(isPodActive),
    terminating: allPods.filter(
      (p) => p.metadata?.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
    ),
  };
}

/** Under tests, every sync also recounts the pods and fails loudly if the kept tally disagrees. */
const CHECK_TALLIES = FREEZE_BY_DEFAULT;

/** syncReplicaSet(key): manage replicas when expectations are met, then write status; false requeues with backoff. */
export function syncReplicaSet(ctx: C, key: string): boolean | typeof SYNC_WAITING {
  const s = ctx.state;
  const rs = listerGet(s.rsInformer, key);
  if (!rs) {
    delete s.expectations[key];
    return true;
  }
  const rsNeedsSync = satisfiedExpectations(s, key, ctx.now);
  const t = tallyOf(s, rs);
  const counts = {
    active: t.active,
    fullyLabeled: t.fullyLabeled,
    ready: t.ready,
    available: t.ready,
    terminating: t.terminating,
  };
  if (CHECK_TALLIES) {
    const x = scanPods(s, rs);
    const want = calculateReplicaSetStatus(
      { ...rs, spec: { ...rs.spec, minReadySeconds: 0 } } as ReplicaSet,
      x.active,
      x.terminating,
      null,
      '',
    );
    if (
      want.replicas !== counts.active ||
      (want.readyReplicas ?? 0) !== counts.ready ||
      (want.fullyLabeledReplicas ?? 0) !== counts.fullyLabeled ||
      want.terminatingReplicas !== counts.terminating
    ) {
      throw new Error(`replicaset-controller: pod tally of ${key} is stale: ${JSON.stringify(counts)}`);
    }
  }
  // Adopted or released pods count at once (the tally catches up when their notifications arrive).
  const claim = claimPods(ctx, rs, key);
  if (claim && !claim.ok) return false; // a failed adoption or release: the whole sync is tried again
  let err: string | null = null;
  const active = claim ? claim.pods.filter(isPodActive) : undefined;
  if (rsNeedsSync && !rs.metadata?.deletionTimestamp) {
    const r = manageReplicas(ctx, active ? active.length : counts.active, rs, claim?.pods);
    if (r === SYNC_WAITING) return r;
    err = r;
  }
  return syncStatus(ctx, rs, key, err, claim, active, counts);
}

/** syncReplicaSet's end: the status from the claimed pods or the tally, written; false requeues. */
function syncStatus(
  ctx: C,
  rs: ReplicaSet,
  key: string,
  err: string | null,
  claim: { pods: Pod[] } | undefined,
  active: Pod[] | undefined,
  counts: PodCounts,
): boolean {
  const s = ctx.state;
  const now = rfc3339(ctx.now);
  let status: ReturnType<typeof calculateReplicaSetStatus>;
  if (claim)
    status = calculateReplicaSetStatus(
      rs,
      active!,
      claim.pods.filter((p) => p.metadata?.deletionTimestamp && !isDone(p)),
      err,
      now,
    );
  else if ((rs.spec?.minReadySeconds ?? 0) === 0)
    status = replicaSetStatusFromCounts(rs, counts, err, now); // available = ready
  else {
    const x = scanPods(s, rs);
    status = calculateReplicaSetStatus(rs, x.active, x.terminating, err, now);
  }
  const updated = updateStatus(ctx, rs, status);
  if (!updated) return false;
  const replicas = updated.spec?.replicas ?? 1;
  const minReady = updated.spec?.minReadySeconds ?? 0;
  // Ready but not yet available: come back when minReadySeconds has passed.
  if (
    err === null &&
    minReady > 0 &&
    (updated.status?.readyReplicas ?? 0) === replicas &&
    (updated.status?.availableReplicas ?? 0) !== replicas
  ) {
    addAfter(ctx, s.queue, key, minReady * 1000);
  }
  return err === null;
}

/** The ReplicaSet controller of kube-controller-manager. */
export const replicaSetControllerDef: ComponentDef<ReplicaSetControllerState, ReplicaSetControllerEvent> = {
  name: 'replicaset-controller',
  identity: () => 'replicaset-controller',
  clientLimit: KUBE_CONTROLLER_MANAGER_CLIENT,
  init(ctx) {
    const s: ReplicaSetControllerState = {
      rsInformer: newInformer('replicasets', 'replicasets', {}, ['controller', 'namespace']),
      podInformer: newInformer('pods', 'pods', {}, ['controller', 'orphan']),
      queue: newWorkQueue('replicaset'),
      expectations: {},
      recorder: newEventRecorder(),
      workerPending: false,
    };
    ctx.state = s;
    replicaSetController.run(ctx);
    return s;
  },
  handle(event, ctx) {
    if (event?.type === 'replicaset-resume') resumeSync(ctx, event.key);
    replicaSetController.handle(event, ctx);
  },
};
