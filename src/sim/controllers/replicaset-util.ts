// Pure ports of the ReplicaSet controller's decisions.
// Sources (kubernetes/kubernetes):
//   pkg/controller/replicaset/replica_set.go        (manageReplicas, slowStartBatch, getPodsToDelete)
//   pkg/controller/replicaset/replica_set_utils.go  (calculateStatus)
//   pkg/controller/controller_utils.go              (IsPodActive, ActivePodsWithRanks, constants, events)
//   pkg/api/v1/pod/util.go                          (IsPodReady, IsPodAvailable)
// `now` is always passed in (RFC 3339, metav1.Time's shape); nothing here reads a clock.

import type { ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from 'kubernetes-types/apps/v1';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { matchesSet } from '../api/labels.ts';
import { REPLICASET_STATUS_OMITEMPTY, omitZero } from './omitempty.ts';

/** metav1.Time as it appears in objects: an RFC 3339 string. */
type Time = string;

/** BurstReplicas: most creates or deletes one sync may issue. */
export const BurstReplicas = 500;
/** SlowStartInitialBatchSize: the first create batch; each later batch doubles. */
export const SlowStartInitialBatchSize = 1;
/** Event reason for a created pod. */
export const SuccessfulCreatePodReason = 'SuccessfulCreate';
/** Event reason for a failed pod create. */
export const FailedCreatePodReason = 'FailedCreate';
/** Event reason for a deleted pod. */
export const SuccessfulDeletePodReason = 'SuccessfulDelete';
/** Event reason for a failed pod delete. */
export const FailedDeletePodReason = 'FailedDelete';
/** Annotation that ranks pods for scale-down (lower goes first). */
const PodDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

function ms(t: Time | undefined): number {
  return t ? Date.parse(t) : NaN;
}

/** IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(p: Pod): boolean {
  return p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata?.deletionTimestamp;
}

/** The pod's Ready condition, if any. */
function getPodReadyCondition(p: Pod): PodCondition | null {
  return p.status?.conditions?.find((c) => c.type === 'Ready') ?? null;
}

/** IsPodReady: the Ready condition is True. */
export function isPodReady(p: Pod): boolean {
  // getPodReadyCondition without the closure: asked several times for every pod notification.
  const cs = p.status?.conditions;
  if (cs) for (let i = 0; i < cs.length; i++) if (cs[i].type === 'Ready') return cs[i].status === 'True';
  return false;
}

/** IsPodAvailable: ready, and ready for longer than minReadySeconds (strictly) at now. */
export function isPodAvailable(p: Pod, minReadySeconds: number, now: Time): boolean {
  if (!isPodReady(p)) return false;
  const c = getPodReadyCondition(p)!;
  if (minReadySeconds === 0) return true;
  const t = ms(c.lastTransitionTime);
  return !Number.isNaN(t) && t + minReadySeconds * 1000 < ms(now);
}

/** Event messages the pod control records on the ReplicaSet. */
export const podEventMessages = {
  successfulCreate: (pod: string) => `Created pod: ${pod}`,
  failedCreate: (err: string) => `Error creating: ${err}`,
  successfulDelete: (pod: string) => `Deleted pod: ${pod}`,
  failedDelete: (err: string) => `Error deleting: ${err}`,
} as const;

// ---------------------------------------------------------------------------------------------
// slowStartBatch

/** Outcome of slowStartBatch: how many calls succeeded, the batch sizes run, the first error. */
interface SlowStartResult<E> {
  successes: number;
  batches: number[];
  error: E | null;
}

/**
 * slowStartBatch: call fn count times in batches of 1, 2, 4, …; every call of a batch runs (they
 * are concurrent in Kubernetes), and the first batch with a failure ends the run. fn returns null
 * on success or an error value.
 */
export function slowStartBatch<E>(count: number, initialBatchSize: number, fn: () => E | null): SlowStartResult<E> {
  let remaining = count;
  let successes = 0;
  const batches: number[] = [];
  for (
    let batchSize = Math.min(remaining, initialBatchSize);
    batchSize > 0;
    batchSize = Math.min(2 * batchSize, remaining)
  ) {
    batches.push(batchSize);
    const errors: E[] = [];
    for (let i = 0; i < batchSize; i++) {
      const err = fn();
      if (err !== null) errors.push(err);
    }
    successes += batchSize - errors.length;
    // A failing batch usually means quota or an admission webhook: stop before spamming the API.
    if (errors.length > 0) return { successes, batches, error: errors[0] };
    remaining -= batchSize;
  }
  return { successes, batches, error: null };
}

/**
 * slowStartBatch part-way, as plain data: the batch running, the calls it has left, and the tally so
 * far. A run whose calls wait on the client's rate limiter is kept in this and resumed.
 */
export interface SlowStartProgress<E> {
  remaining: number;
  batchSize: number;
  leftInBatch: number;
  successes: number;
  failures: number;
  error: E | null;
}

/** A slowStartBatch run of count calls, not started. */
export function newSlowStart<E>(count: number, initialBatchSize: number): SlowStartProgress<E> {
  const batchSize = Math.min(count, initialBatchSize);
  return { remaining: count, batchSize, leftInBatch: batchSize, successes: 0, failures: 0, error: null };
}

/**
 * Go on with a slowStartBatch run, as slowStartBatch does, until it ends (returns 0) or `wait()`
 * says the next call must wait (returns that wait, ms; call again then). In Kubernetes a batch's
 * goroutines block in the rate limiter's Wait and the next batch starts when they all return.
 */
export function continueSlowStart<E>(p: SlowStartProgress<E>, fn: () => E | null, wait: () => number): number {
  while (p.batchSize > 0) {
    while (p.leftInBatch > 0) {
      const ms = wait();
      if (ms > 0) return ms;
      const err = fn();
      p.leftInBatch--;
      if (err === null) p.successes++;
      else {
        p.failures++;
        p.error ??= err;
      }
    }
    p.remaining -= p.batchSize;
    p.batchSize = p.error === null ? Math.min(2 * p.batchSize, p.remaining) : 0;
    p.leftInBatch = p.batchSize;
  }
  return 0;
}

/** The batch sizes slowStartBatch would use if every call succeeded. */
export function slowStartBatchSizes(count: number, initialBatchSize = SlowStartInitialBatchSize): number[] {
  return slowStartBatch(count, initialBatchSize, () => null).batches;
}

/** manageReplicas' decision: how many pods to create (+) or delete (-), capped by BurstReplicas. */
export function manageReplicasDiff(activePods: number, desired: number, burstReplicas = BurstReplicas): number {
  const diff = activePods - desired;
  if (diff < 0) return -Math.min(-diff, burstReplicas);
  return Math.min(diff, burstReplicas);
}

// ---------------------------------------------------------------------------------------------
// ActivePodsWithRanks

// podPhaseToOrdinal: phases not listed (Succeeded, Failed, "") map to Go's zero value 0.
const podPhaseToOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** The sort input: pods with their co-location ranks and the reference time. */
export interface ActivePodsWithRanks {
  pods: Pod[];
  rank: number[];
  /** Reference time for the logarithmic comparisons; undefined compares times directly. */
  now?: Time;
}

function deletionCost(p: Pod): number {
  const v = p.metadata?.annotations?.[PodDeletionCostAnnotation];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number.parseInt(v, 10);
  // Outside int32 the annotation is invalid and counts as 0.
  return n < -2147483648 || n > 2147483647 ? 0 : n;
}

function podReadyTime(p: Pod): number {
  if (isPodReady(p)) {
    const t = ms(getPodReadyCondition(p)!.lastTransitionTime);
    if (!Number.isNaN(t)) return t;
  }
  return NaN; // Go's zero time
}

// afterOrZero: a zero time sorts first, otherwise the later time first.
function afterOrZero(t1: number, t2: number): boolean {
  if (Number.isNaN(t1) || Number.isNaN(t2)) return Number.isNaN(t1);
  return t1 > t2;
}

/** logarithmicRankDiff: floor(log2) of the ages in nanoseconds (Go's time.Duration), compared. */
export function logarithmicRankDiff(t1: number, t2: number, now: number): number {
  const d1 = (now - t1) * 1e6;
  const d2 = (now - t2) * 1e6;
  const r1 = d1 > 0 ? Math.floor(Math.log2(d1)) : -1;
  const r2 = d2 > 0 ? Math.floor(Math.log2(d2)) : -1;
  return r1 - r2;
}

function maxContainerRestarts(p: Pod): number {
  return (p.status?.containerStatuses ?? []).reduce((m, c) => Math.max(m, c.restartCount ?? 0), 0);
}

function timeEqual(a: number, b: number): boolean {
  return (Number.isNaN(a) && Number.isNaN(b)) || a === b;
}

// Ties inside one log2 bucket are broken by UID so equivalent pods go in a pseudorandom order.
function logCompare(t1: number, t2: number, now: number, uidI: string, uidJ: string): boolean {
  if (Number.isNaN(now) || Number.isNaN(t1) || Number.isNaN(t2)) return afterOrZero(t1, t2);
  const diff = logarithmicRankDiff(t1, t2, now);
  if (diff === 0) return uidI < uidJ;
  return diff < 0;
}

/** ActivePodsWithRanks.Less: true if pod i should be deleted before pod j (LogarithmicScaleDown and PodDeletionCost on). */
export function activePodsWithRanksLess(s: ActivePodsWithRanks, i: number, j: number): boolean {
  const pi = s.pods[i];
  const pj = s.pods[j];
  const ni = pi.spec?.nodeName ?? '';
  const nj = pj.spec?.nodeName ?? '';
  // 1. Unassigned < assigned
  if (ni !== nj && (ni.length === 0 || nj.length === 0)) return ni.length === 0;
  // 2. Pending < Unknown < Running
  const oi = podPhaseToOrdinal[pi.status?.phase ?? ''] ?? 0;
  const oj = podPhaseToOrdinal[pj.status?.phase ?? ''] ?? 0;
  if (oi !== oj) return oi < oj;
  // 3. Not ready < ready
  const ri = isPodReady(pi);
  const rj = isPodReady(pj);
  if (ri !== rj) return !ri;
  // 4. Lower pod-deletion-cost first
  const ci = deletionCost(pi);
  const cj = deletionCost(pj);
  if (ci !== cj) return ci < cj;
  // 5. Doubled up < not doubled up: more co-located related pods first
  if (s.rank[i] !== s.rank[j]) return s.rank[i] > s.rank[j];
  const now = ms(s.now);
  const uidI = pi.metadata?.uid ?? '';
  const uidJ = pj.metadata?.uid ?? '';
  // 6. Both ready: ready for less time first
  if (ri && rj) {
    const t1 = podReadyTime(pi);
    const t2 = podReadyTime(pj);
    if (!timeEqual(t1, t2)) return logCompare(t1, t2, now, uidI, uidJ);
  }
  // 7. More container restarts first
  const mi = maxContainerRestarts(pi);
  const mj = maxContainerRestarts(pj);
  if (mi !== mj) return mi > mj;
  // 8. Newer first (empty creation time first)
  const c1 = ms(pi.metadata?.creationTimestamp);
  const c2 = ms(pj.metadata?.creationTimestamp);
  if (!timeEqual(c1, c2)) return logCompare(c1, c2, now, uidI, uidJ);
  return false;
}

/** getPodsRankedByRelatedPodsOnSameNode: rank = active related pods on the same node. */
export function getPodsRankedByRelatedPodsOnSameNode(
  podsToRank: readonly Pod[],
  relatedPods: readonly Pod[],
  now?: Time,
): ActivePodsWithRanks {
  const podsOnNode = new Map<string, number>();
  for (const p of relatedPods) {
    if (isPodActive(p)) podsOnNode.set(p.spec?.nodeName ?? '', (podsOnNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
  }
  return { pods: [...podsToRank], rank: podsToRank.map((p) => podsOnNode.get(p.spec?.nodeName ?? '') ?? 0), now };
}

/** Sorts ActivePodsWithRanks by Less (stable, so equal pods keep their input order). */
function sortActivePodsWithRanks(s: ActivePodsWithRanks): ActivePodsWithRanks {
  const idx = s.pods.map((_, i) => i);
  idx.sort((a, b) => (activePodsWithRanksLess(s, a, b) ? -1 : activePodsWithRanksLess(s, b, a) ? 1 : 0));
  return { pods: idx.map((i) => s.pods[i]), rank: idx.map((i) => s.rank[i]), now: s.now };
}

/** getPodsToDelete: the first diff pods by ActivePodsWithRanks (no sort when all go). */
export function getPodsToDelete(
  filteredPods: readonly Pod[],
  relatedPods: readonly Pod[],
  diff: number,
  now: Time,
): Pod[] {
  if (diff < filteredPods.length) {
    return sortActivePodsWithRanks(getPodsRankedByRelatedPodsOnSameNode(filteredPods, relatedPods, now)).pods.slice(
      0,
      diff,
    );
  }
  return filteredPods.slice(0, diff);
}

// ---------------------------------------------------------------------------------------------
// Status

/** ReplicaSetStatus with the KEP-3973 field kubernetes-types 1.30 lacks. */
type ReplicaSetStatusExt = ReplicaSetStatus & { terminatingReplicas?: number };

/**
 * calculateStatus (replica_set_utils.go) plus observedGeneration as updateReplicaSetStatus sets it.
 * manageReplicasErr non-null adds ReplicaFailure (FailedCreate/FailedDelete); null clears it.
 */
export function calculateReplicaSetStatus(
  rs: ReplicaSet,
  activePods: readonly Pod[],
  terminatingPods: readonly Pod[] | null,
  manageReplicasErr: string | null,
  now: Time,
): ReplicaSetStatusExt {
  const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
  const minReadySeconds = rs.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const p of activePods) {
    if (matchesSet(templateLabels, p.metadata?.labels)) fullyLabeled++;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, minReadySeconds, now)) available++;
    }
  }
  return replicaSetStatusFromCounts(
    rs,
    {
      active: activePods.length,
      fullyLabeled,
      ready,
      available,
      terminating: terminatingPods === null ? null : terminatingPods.length,
    },
    manageReplicasErr,
    now,
  );
}

/** The pod counts calculateStatus derives its numbers from (terminating null = KEP-3973 gate off). */
interface ReplicaSetPodCounts {
  active: number;
  fullyLabeled: number;
  ready: number;
  available: number;
  terminating: number | null;
}

/** calculateStatus from counts already taken (the controller keeps them as pods change). */
export function replicaSetStatusFromCounts(
  rs: ReplicaSet,
  counts: ReplicaSetPodCounts,
  manageReplicasErr: string | null,
  now: Time,
): ReplicaSetStatusExt {
  const { fullyLabeled, ready, available } = counts;
  const activePods = { length: counts.active };
  const terminatingPods = counts.terminating === null ? null : { length: counts.terminating };
  let conditions: ReplicaSetCondition[] = [...(rs.status?.conditions ?? [])];
  const failure = conditions.find((c) => c.type === 'ReplicaFailure');
  if (manageReplicasErr !== null && !failure) {
    const diff = activePods.length - (rs.spec?.replicas ?? 1);
    const reason = diff < 0 ? FailedCreatePodReason : diff > 0 ? FailedDeletePodReason : '';
    conditions.push({
      type: 'ReplicaFailure',
      status: 'True',
      lastTransitionTime: now,
      reason,
      message: manageReplicasErr,
    });
  } else if (manageReplicasErr === null && failure) {
    conditions = conditions.filter((c) => c.type !== 'ReplicaFailure');
  }
  const status: ReplicaSetStatusExt = {
    ...(rs.status ?? { replicas: 0 }),
    replicas: activePods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: rs.metadata?.generation ?? 0,
  };
  // null = feature gate off (pre-1.35 behaviour): the field is left out.
  if (terminatingPods !== null) status.terminatingReplicas = terminatingPods.length;
  else delete status.terminatingReplicas;
  if (conditions.length > 0) status.conditions = conditions;
  else delete status.conditions;
  return omitZero(status, REPLICASET_STATUS_OMITEMPTY);
}
