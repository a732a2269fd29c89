// Pure ports of the Deployment controller's arithmetic and planning.
// Sources (kubernetes/kubernetes):
//   pkg/controller/deployment/util/deployment_util.go (kk@277391ee)
//   pkg/controller/deployment/rolling.go              (kk@95f08499)
//   pkg/controller/deployment/sync.go                 (scale, cleanupDeployment, calculateStatus)
//   pkg/controller/deployment/progress.go             (kk@c91999ae, syncRolloutStatus)
//   pkg/controller/deployment/recreate.go             (rolloutRecreate)
//   pkg/controller/controller_utils.go                (ReplicaSetsByCreationTimestamp / BySize*)
//   staging/src/k8s.io/apimachinery/pkg/util/intstr   (GetScaledValueFromIntOrPercent)
//   staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollback.go (kubectl rollout undo)
// Nothing here reads a clock: every time-dependent function takes `now` (an RFC 3339 string, the
// same shape as metav1.Time) so the simulation stays deterministic.

import type {
  Deployment,
  DeploymentCondition,
  DeploymentStatus,
  ReplicaSet,
  ReplicaSetCondition,
} from 'kubernetes-types/apps/v1';
import { equalIgnoreHashMemo } from './deployment-util-cache.ts';
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { DEPLOYMENT_STATUS_OMITEMPTY, omitZero } from './omitempty.ts';
import { setOf } from '../util/table.ts';

/** metav1.Time as it appears in objects: an RFC 3339 string. */
type Time = string;
/** intstr.IntOrString as kubernetes-types models it. */
export type IntOrString = number | string;

// ---------------------------------------------------------------------------------------------
// Constants (deployment_util.go, apps/v1 types.go)

/** Revision of a ReplicaSet within its Deployment's rollout history. */
export const RevisionAnnotation = 'deployment.kubernetes.io/revision';
/** Older revisions an adopted (rolled-back-to) ReplicaSet once had. */
export const RevisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
/** Deployment spec.replicas when this RS was last scaled by the controller. */
export const DesiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
/** spec.replicas + maxSurge when this RS was last scaled; basis of proportional scaling. */
export const MaxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';
/** kubectl apply's bookkeeping annotation, never copied. */
const LastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
/** Deprecated extensions/v1beta1 rollbackTo round-trip annotation, never copied. */
const DeprecatedRollbackTo = 'deprecated.deployment.rollback.to';
/** Label that separates the pods of different ReplicaSets of one Deployment. */
const DefaultDeploymentUniqueLabelKey = 'pod-template-hash';
/** Length cap of the revision-history annotation (sync.go maxRevHistoryLengthInChars). */
const DefaultRevisionHistoryLimitInChars = 2000;
/** A progressDeadlineSeconds / revisionHistoryLimit of MaxInt32 means "none". */
export const MaxInt32 = 2147483647;

/** Progressing reason: an RS of the rollout was scaled. */
const ReplicaSetUpdatedReason = 'ReplicaSetUpdated';
/** Progressing reason: creating the new RS failed. */
export const FailedRSCreateReason = 'ReplicaSetCreateError';
/** Progressing reason: the controller created the new RS. */
const NewReplicaSetReason = 'NewReplicaSetCreated';
/** Progressing reason: the controller adopted an existing new RS. */
const FoundNewRSReason = 'FoundNewReplicaSet';
/** Progressing reason: the rollout completed. */
export const NewRSAvailableReason = 'NewReplicaSetAvailable';
/** Progressing reason (status False): no progress within progressDeadlineSeconds. */
export const TimedOutReason = 'ProgressDeadlineExceeded';
/** Progressing reason (status Unknown): the Deployment is paused. */
const PausedDeployReason = 'DeploymentPaused';
/** Progressing reason (status Unknown): the Deployment was resumed. */
const ResumedDeployReason = 'DeploymentResumed';
/** Available reason: at least spec.replicas - maxUnavailable pods are available. */
const MinimumReplicasAvailable = 'MinimumReplicasAvailable';
/** Available reason: fewer than spec.replicas - maxUnavailable pods are available. */
const MinimumReplicasUnavailable = 'MinimumReplicasUnavailable';
/** Event reason of every RS scale the Deployment controller performs. */
export const ScalingReplicaSetReason = 'ScalingReplicaSet';

// ---------------------------------------------------------------------------------------------
// Small accessors. The API server defaults spec.replicas to 1, so absent means 1 here too.

/** spec.replicas with the API default (1) applied. */
export function specReplicas(obj: Deployment | ReplicaSet | null | undefined): number {
  return obj?.spec?.replicas ?? 1;
}

function nameOf(obj: { metadata?: { name?: string } } | null | undefined): string {
  return obj?.metadata?.name ?? '';
}

function ms(t: Time | undefined): number {
  return t ? Date.parse(t) : NaN;
}

// ---------------------------------------------------------------------------------------------
// intstr

/** Go's strconv.Atoi for the decimal forms Kubernetes accepts (optional sign, digits). */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number.parseInt(s, 10);
}

/** intstr.GetScaledValueFromIntOrPercent: ints pass through, "N%" scales total (ceil or floor). */
export function getScaledValueFromIntOrPercent(
  intOrPercent: IntOrString | null | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (intOrPercent === null || intOrPercent === undefined) throw new Error('nil value for IntOrString');
  if (typeof intOrPercent === 'number') return Math.trunc(intOrPercent);
  if (!intOrPercent.endsWith('%')) {
    throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  }
  let value: number;
  try {
    value = atoi(intOrPercent.slice(0, -1));
  } catch (e) {
    // eslint-disable-next-line preserve-caught-error -- Go formats the cause into the message (%v) and does not wrap it
    throw new Error(
      `invalid value for IntOrString: invalid value ${JSON.stringify(intOrPercent)}: ${(e as Error).message}`,
    );
  }
  // Same float64 expression as Go so rounding matches bit for bit.
  return roundUp ? Math.ceil((value * total) / 100) : Math.floor((value * total) / 100);
}

/** ResolveFenceposts: surge rounds up, unavailable rounds down; both 0 forces unavailable = 1. */
export function resolveFenceposts(
  maxSurge: IntOrString | null | undefined,
  maxUnavailable: IntOrString | null | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = getScaledValueFromIntOrPercent(maxSurge ?? 0, desired, true);
  let unavailable = getScaledValueFromIntOrPercent(maxUnavailable ?? 0, desired, false);
  // Rounding down can turn a non-zero percentage into 0; a rollout needs at least one fencepost.
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** IsRollingUpdate: strategy type RollingUpdate (the API default when unset). */
export function isRollingUpdate(d: Deployment): boolean {
  return (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** The RollingUpdate parameters with SetDefaults_Deployment applied (absent = "25%"), as stored objects have them. */
export function rollingUpdateParams(d: Deployment): { maxSurge: IntOrString; maxUnavailable: IntOrString } {
  const ru = d.spec?.strategy?.rollingUpdate;
  return { maxSurge: ru?.maxSurge ?? '25%', maxUnavailable: ru?.maxUnavailable ?? '25%' };
}

function fenceposts(d: Deployment): { surge: number; unavailable: number } {
  const p = rollingUpdateParams(d);
  try {
    return resolveFenceposts(p.maxSurge, p.maxUnavailable, specReplicas(d));
  } catch {
    // "Error caught by validation": Go discards the error and uses the zero values.
    return { surge: 0, unavailable: 0 };
  }
}

/** MaxUnavailable: 0 unless RollingUpdate with replicas > 0; clamped to spec.replicas. */
export function maxUnavailable(d: Deployment): number {
  const replicas = specReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  return Math.min(fenceposts(d).unavailable, replicas);
}

/** MaxSurge: 0 unless RollingUpdate. */
export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  return fenceposts(d).surge;
}

/** MinAvailable: spec.replicas - MaxUnavailable (0 for Recreate). */
export function minAvailable(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  return specReplicas(d) - maxUnavailable(d);
}

// ---------------------------------------------------------------------------------------------
// Counts

type MaybeRS = ReplicaSet | null | undefined;

/** GetReplicaCountForReplicaSets: sum of spec.replicas. */
export function getReplicaCountForReplicaSets(rss: readonly MaybeRS[]): number {
  return rss.reduce((n, rs) => n + (rs ? specReplicas(rs) : 0), 0);
}

/** GetActualReplicaCountForReplicaSets: sum of status.replicas. */
export function getActualReplicaCountForReplicaSets(rss: readonly MaybeRS[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.replicas ?? 0), 0);
}

/** GetReadyReplicaCountForReplicaSets: sum of status.readyReplicas. */
function getReadyReplicaCountForReplicaSets(rss: readonly MaybeRS[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.readyReplicas ?? 0), 0);
}

/** GetAvailableReplicaCountForReplicaSets: sum of status.availableReplicas. */
function getAvailableReplicaCountForReplicaSets(rss: readonly MaybeRS[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);
}

/** FilterActiveReplicaSets: those with spec.replicas > 0 ("have, or ought to have, pods"). */
function filterActiveReplicaSets(rss: readonly MaybeRS[]): ReplicaSet[] {
  return rss.filter((rs): rs is ReplicaSet => !!rs && specReplicas(rs) > 0);
}

// ---------------------------------------------------------------------------------------------
// Orderings (controller_utils.go, deployment_util.go)

/** ReplicaSetsByCreationTimestamp.Less: older first, ties by name. */
function replicaSetsByCreationTimestampLess(a: ReplicaSet, b: ReplicaSet): boolean {
  const ta = ms(a.metadata?.creationTimestamp);
  const tb = ms(b.metadata?.creationTimestamp);
  if (ta === tb || (Number.isNaN(ta) && Number.isNaN(tb))) return nameOf(a) < nameOf(b);
  // A missing timestamp is Go's zero time: before everything.
  if (Number.isNaN(ta)) return true;
  if (Number.isNaN(tb)) return false;
  return ta < tb;
}

/** ReplicaSetsBySizeOlder.Less: larger first, ties older first (scale-down order). */
export function replicaSetsBySizeOlderLess(a: ReplicaSet, b: ReplicaSet): boolean {
  if (specReplicas(a) === specReplicas(b)) return replicaSetsByCreationTimestampLess(a, b);
  return specReplicas(a) > specReplicas(b);
}

/** ReplicaSetsBySizeNewer.Less: larger first, ties newer first (scale-up order). */
export function replicaSetsBySizeNewerLess(a: ReplicaSet, b: ReplicaSet): boolean {
  if (specReplicas(a) === specReplicas(b)) return replicaSetsByCreationTimestampLess(b, a);
  return specReplicas(a) > specReplicas(b);
}

/** ReplicaSetsByRevision.Less: lower revision first, ties (or unparsable) by creation time. */
function replicaSetsByRevisionLess(a: ReplicaSet, b: ReplicaSet): boolean {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  if (ra === null || rb === null || ra === rb) return replicaSetsByCreationTimestampLess(a, b);
  return ra < rb;
}

/** Stable sort by a Go-style Less (Go's sort.Sort is unstable; stable keeps the sim reproducible). */
export function sortByLess<T>(items: readonly T[], less: (a: T, b: T) => boolean): T[] {
  return [...items].sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------
// Revisions and annotations

/** Revision: the revision annotation as a number (absent = 0, unparsable = null). */
function revisionOf(obj: { metadata?: { annotations?: Record<string, string> } }): number | null {
  const v = obj.metadata?.annotations?.[RevisionAnnotation];
  if (v === undefined) return 0;
  try {
    return atoi(v);
  } catch {
    return null;
  }
}

/** MaxRevision: highest revision among the ReplicaSets (unparsable ones skipped). */
export function maxRevision(rss: readonly MaybeRS[]): number {
  let max = 0;
  for (const rs of rss) {
    if (!rs) continue;
    const v = revisionOf(rs);
    if (v !== null && v > max) max = v;
  }
  return max;
}

/** LastRevision: second-highest revision (what `rollout undo` targets by default). */
export function lastRevision(rss: readonly MaybeRS[]): number {
  let max = 0;
  let secMax = 0;
  for (const rs of rss) {
    if (!rs) continue;
    const v = revisionOf(rs);
    if (v === null) continue;
    if (v >= max) {
      secMax = max;
      max = v;
    } else if (v > secMax) {
      secMax = v;
    }
  }
  return secMax;
}

const annotationsToSkip = setOf([
  LastAppliedConfigAnnotation,
  RevisionAnnotation,
  RevisionHistoryAnnotation,
  DesiredReplicasAnnotation,
  MaxReplicasAnnotation,
  DeprecatedRollbackTo,
]);

/** skipCopyAnnotation: annotations that belong to the controller, not to the user. */
function skipCopyAnnotation(key: string): boolean {
  return annotationsToSkip.has(key);
}

function withAnnotations<T extends { metadata?: object }>(obj: T, annotations: Record<string, string>): T {
  return { ...obj, metadata: { ...(obj.metadata ?? {}), annotations } };
}

/** SetReplicasAnnotations: writes desired-replicas and max-replicas; reports whether they changed. */
export function setReplicasAnnotations(
  rs: ReplicaSet,
  desiredReplicas: number,
  maxReplicas: number,
): { rs: ReplicaSet; updated: boolean } {
  const a = { ...(rs.metadata?.annotations ?? {}) };
  let updated = false;
  if (a[DesiredReplicasAnnotation] !== String(desiredReplicas)) {
    a[DesiredReplicasAnnotation] = String(desiredReplicas);
    updated = true;
  }
  if (a[MaxReplicasAnnotation] !== String(maxReplicas)) {
    a[MaxReplicasAnnotation] = String(maxReplicas);
    updated = true;
  }
  return { rs: updated ? withAnnotations(rs, a) : rs, updated };
}

/** ReplicasAnnotationsNeedUpdate: whether desired/max-replicas differ from the given values. */
function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desiredReplicas: number, maxReplicas: number): boolean {
  const a = rs.metadata?.annotations;
  if (!a) return true;
  return a[DesiredReplicasAnnotation] !== String(desiredReplicas) || a[MaxReplicasAnnotation] !== String(maxReplicas);
}

function getIntFromAnnotation(rs: ReplicaSet, key: string): number | null {
  const v = rs.metadata?.annotations?.[key];
  if (v === undefined) return null;
  try {
    return atoi(v);
  } catch {
    return null;
  }
}

/** GetDesiredReplicasAnnotation: desired-replicas as a number, or null. */
function getDesiredReplicasAnnotation(rs: ReplicaSet): number | null {
  return getIntFromAnnotation(rs, DesiredReplicasAnnotation);
}

/** getMaxReplicasAnnotation: max-replicas as a number, or null. */
function getMaxReplicasAnnotation(rs: ReplicaSet): number | null {
  return getIntFromAnnotation(rs, MaxReplicasAnnotation);
}

/**
 * SetNewReplicaSetAnnotations: copies the Deployment's user annotations (change-cause included),
 * raises the revision to newRevision, appends the old revision to revision-history when an
 * existing RS is re-used (rollback), and stamps replica annotations on a not-yet-created RS.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  newRS: ReplicaSet,
  newRevision: string,
  exists: boolean,
  revHistoryLimitInChars: number = DefaultRevisionHistoryLimitInChars,
): { rs: ReplicaSet; changed: boolean } {
  const a = { ...(newRS.metadata?.annotations ?? {}) };
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (skipCopyAnnotation(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const hadRevision = RevisionAnnotation in a;
  const oldRevision = a[RevisionAnnotation] ?? '';
  let oldRevisionInt: number;
  try {
    oldRevisionInt = oldRevision === '' ? 0 : atoi(oldRevision);
  } catch {
    // Go logs and gives up on the whole update when the stored revision is garbage.
    return { rs: newRS, changed: false };
  }
  let newRevisionInt: number;
  try {
    newRevisionInt = atoi(newRevision);
  } catch {
    return { rs: newRS, changed: false };
  }
  // Compared as numbers: "10" < "9" as strings was a real bug fixed upstream.
  if (oldRevisionInt < newRevisionInt) {
    a[RevisionAnnotation] = newRevision;
    changed = true;
  }
  if (hadRevision && oldRevisionInt < newRevisionInt) {
    const history = a[RevisionHistoryAnnotation] ?? '';
    const oldRevisions = history.split(',');
    if (oldRevisions[0].length === 0) {
      a[RevisionHistoryAnnotation] = oldRevision;
    } else {
      // Drop the oldest entries until the new one fits the length limit.
      let totalLen = history.length + oldRevision.length + 1;
      let start = 0;
      while (totalLen > revHistoryLimitInChars && start < oldRevisions.length) {
        totalLen = totalLen - oldRevisions[start].length - 1;
        start++;
      }
      if (totalLen <= revHistoryLimitInChars) {
        a[RevisionHistoryAnnotation] = [...oldRevisions.slice(start), oldRevision].join(',');
      }
    }
  }
  let rs = withAnnotations(newRS, a);
  if (!exists) {
    const r = setReplicasAnnotations(rs, specReplicas(d), specReplicas(d) + maxSurge(d));
    rs = r.rs;
    if (r.updated) changed = true;
  }
  return { rs, changed };
}

/** SetDeploymentRevision: sets the Deployment's revision annotation; reports a change. */
export function setDeploymentRevision(d: Deployment, revision: string): { deployment: Deployment; updated: boolean } {
  if (d.metadata?.annotations?.[RevisionAnnotation] === revision) return { deployment: d, updated: false };
  return {
    deployment: withAnnotations(d, { ...(d.metadata?.annotations ?? {}), [RevisionAnnotation]: revision }),
    updated: true,
  };
}

/** SetDeploymentAnnotationsTo: on rollback, the Deployment takes the RS's user annotations. */
function setDeploymentAnnotationsTo(d: Deployment, rollbackToRS: ReplicaSet): Deployment {
  const a: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) if (skipCopyAnnotation(k)) a[k] = v;
  for (const [k, v] of Object.entries(rollbackToRS.metadata?.annotations ?? {})) if (!skipCopyAnnotation(k)) a[k] = v;
  return withAnnotations(d, a);
}

// ---------------------------------------------------------------------------------------------
// Templates: new vs old ReplicaSets

/** Deep equality of plain JSON data with Go's Semantic.DeepEqual treatment of empty maps/slices. */
function semanticEqual(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) =>
    v === undefined ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (typeof a !== typeof b) return false;
  if (typeof a !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => semanticEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!semanticEqual(ao[k], bo[k])) return false;
  return true;
}

function withoutHashLabel(t: PodTemplateSpec | undefined): PodTemplateSpec {
  const labels = { ...(t?.metadata?.labels ?? {}) };
  delete labels[DefaultDeploymentUniqueLabelKey];
  return { ...(t ?? {}), metadata: { ...(t?.metadata ?? {}), labels } };
}

/** EqualIgnoreHash: pod templates equal apart from the pod-template-hash label. */
export function equalIgnoreHash(t1: PodTemplateSpec | undefined, t2: PodTemplateSpec | undefined): boolean {
  if (!t1 || !t2) return semanticEqual(withoutHashLabel(t1), withoutHashLabel(t2));
  let m = equalIgnoreHashMemo.get(t1);
  if (!m) equalIgnoreHashMemo.set(t1, (m = new WeakMap()));
  let eq = m.get(t2);
  if (eq === undefined) m.set(t2, (eq = semanticEqual(withoutHashLabel(t1), withoutHashLabel(t2))));
  return eq;
}

/** FindNewReplicaSet: the oldest RS whose template equals the Deployment's (ignoring the hash). */
export function findNewReplicaSet(d: Deployment, rsList: readonly ReplicaSet[]): ReplicaSet | null {
  for (const rs of sortByLess(rsList, replicaSetsByCreationTimestampLess)) {
    if (equalIgnoreHash(rs.spec?.template, d.spec?.template)) return rs;
  }
  return null;
}

/** FindOldReplicaSets: [old RSs with replicas > 0, all old RSs], in input order. */
export function findOldReplicaSets(
  d: Deployment,
  rsList: readonly ReplicaSet[],
): { requiredRSs: ReplicaSet[]; allOldRSs: ReplicaSet[] } {
  const newRS = findNewReplicaSet(d, rsList);
  const requiredRSs: ReplicaSet[] = [];
  const allOldRSs: ReplicaSet[] = [];
  for (const rs of rsList) {
    // Go compares UIDs; objects without one (hand-built fixtures) fall back to identity.
    if (newRS && (rs === newRS || (rs.metadata?.uid !== undefined && rs.metadata.uid === newRS.metadata?.uid)))
      continue;
    allOldRSs.push(rs);
    if (specReplicas(rs) !== 0) requiredRSs.push(rs);
  }
  return { requiredRSs, allOldRSs };
}

/** FindActiveOrLatest: the only active RS, the newest if none is active, null if several are. */
function findActiveOrLatest(newRS: ReplicaSet | null, oldRSs: readonly ReplicaSet[]): ReplicaSet | null {
  if (!newRS && oldRSs.length === 0) return null;
  const newestFirst = sortByLess(oldRSs, (a, b) => replicaSetsByCreationTimestampLess(b, a));
  const active = filterActiveReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  if (active.length === 1) return active[0];
  return null;
}

// ---------------------------------------------------------------------------------------------
// Rolling-update arithmetic

/** NewRSNewReplicas: size the new RS may grow to now (RollingUpdate) or spec.replicas (Recreate). */
export function newRSNewReplicas(d: Deployment, allRSs: readonly MaybeRS[], newRS: ReplicaSet): number {
  if (isRollingUpdate(d)) {
    const surge = getScaledValueFromIntOrPercent(rollingUpdateParams(d).maxSurge, specReplicas(d), true);
    const currentPodCount = getReplicaCountForReplicaSets(allRSs);
    const maxTotalPods = specReplicas(d) + surge;
    if (currentPodCount >= maxTotalPods) return specReplicas(newRS);
    // Do not exceed the number of desired replicas.
    const scaleUpCount = Math.min(maxTotalPods - currentPodCount, specReplicas(d) - specReplicas(newRS));
    return specReplicas(newRS) + scaleUpCount;
  }
  if (d.spec?.strategy?.type === 'Recreate') return specReplicas(d);
  throw new Error(`deployment type ${d.spec?.strategy?.type} isn't supported`);
}

/** IsSaturated: new RS holds all desired replicas, annotated so, and all are available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | null | undefined): boolean {
  if (!rs) return false;
  const desired = getDesiredReplicasAnnotation(rs);
  if (desired === null) return false;
  return (
    specReplicas(rs) === specReplicas(d) &&
    desired === specReplicas(d) &&
    (rs.status?.availableReplicas ?? 0) === specReplicas(d)
  );
}

// ---------------------------------------------------------------------------------------------
// Scale plans

/** One RS write the controller must make: spec.replicas from → to (from === to: annotations only). */
export interface ScaleAction {
  rs: string;
  from: number;
  to: number;
}

/** ScalingReplicaSet event message: "Scaled up replica set web-… from 0 to 3". */
export function scalingReplicaSetMessage(a: ScaleAction): string {
  return `Scaled ${a.from < a.to ? 'up' : 'down'} replica set ${a.rs} from ${a.from} to ${a.to}`;
}

/** Applies a scale action to an RS copy (spec.replicas and the replica annotations). */
export function applyScale(rs: ReplicaSet, to: number, d: Deployment): ReplicaSet {
  const withSize: ReplicaSet = { ...rs, spec: { ...(rs.spec ?? { selector: {} }), replicas: to } };
  return setReplicasAnnotations(withSize, specReplicas(d), specReplicas(d) + maxSurge(d)).rs;
}

// scaleReplicaSetAndRecordEvent: no write when the size already matches.
function scaleAndRecord(rs: ReplicaSet, to: number): ScaleAction[] {
  return specReplicas(rs) === to ? [] : [{ rs: nameOf(rs), from: specReplicas(rs), to }];
}

/** reconcileNewReplicaSet: scale the new RS down to spec, or up to NewRSNewReplicas. */
export function reconcileNewReplicaSet(allRSs: readonly MaybeRS[], newRS: ReplicaSet, d: Deployment): ScaleAction[] {
  if (specReplicas(newRS) === specReplicas(d)) return [];
  if (specReplicas(newRS) > specReplicas(d)) return scaleAndRecord(newRS, specReplicas(d));
  return scaleAndRecord(newRS, newRSNewReplicas(d, allRSs, newRS));
}

/**
 * cleanupUnhealthyReplicas: scale old RSs down by their unavailable pods, oldest first, up to
 * maxCleanupCount. `error` is set (and the loop stopped) where Go returns its "invalid request to
 * scale down" error, which happens when status lags and availableReplicas exceeds spec.replicas;
 * the writes listed before it were already made.
 */
export function cleanupUnhealthyReplicas(
  oldRSs: readonly ReplicaSet[],
  d: Deployment,
  maxCleanupCount: number,
): { oldRSs: ReplicaSet[]; cleanupCount: number; actions: ScaleAction[]; error?: string } {
  const sorted = sortByLess(oldRSs, replicaSetsByCreationTimestampLess);
  const actions: ScaleAction[] = [];
  let total = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (total >= maxCleanupCount) break;
    const rs = sorted[i];
    const spec = specReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (spec === 0 || spec === available) continue;
    const n = Math.min(maxCleanupCount - total, spec - available);
    const to = spec - n;
    if (to > spec) {
      const error = `when cleaning up unhealthy replicas, got invalid request to scale down ${rs.metadata?.namespace ?? ''}/${nameOf(rs)} ${spec} -> ${to}`;
      return { oldRSs: sorted, cleanupCount: 0, actions, error };
    }
    actions.push(...scaleAndRecord(rs, to));
    sorted[i] = applyScale(rs, to, d);
    total += n;
  }
  return { oldRSs: sorted, cleanupCount: total, actions };
}

/** scaleDownOldReplicaSetsForRollingUpdate: remove available pods above minAvailable, oldest RS first. */
export function scaleDownOldReplicaSetsForRollingUpdate(
  allRSs: readonly MaybeRS[],
  oldRSs: readonly ReplicaSet[],
  d: Deployment,
): { scaledDownCount: number; actions: ScaleAction[] } {
  const minAvail = specReplicas(d) - maxUnavailable(d);
  const availablePodCount = getAvailableReplicaCountForReplicaSets(allRSs);
  if (availablePodCount <= minAvail) return { scaledDownCount: 0, actions: [] };
  const totalScaleDownCount = availablePodCount - minAvail;
  const actions: ScaleAction[] = [];
  let total = 0;
  for (const rs of sortByLess(oldRSs, replicaSetsByCreationTimestampLess)) {
    if (total >= totalScaleDownCount) break;
    const spec = specReplicas(rs);
    if (spec === 0) continue;
    const n = Math.min(spec, totalScaleDownCount - total);
    actions.push(...scaleAndRecord(rs, spec - n));
    total += n;
  }
  return { scaledDownCount: total, actions };
}

/** reconcileOldReplicaSets: clean up unhealthy old pods, then scale old RSs down within maxUnavailable. */
export function reconcileOldReplicaSets(
  allRSs: readonly MaybeRS[],
  oldRSs: readonly ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): { scaled: boolean; cleanupCount: number; scaledDownCount: number; actions: ScaleAction[] } {
  const none = { scaled: false, cleanupCount: 0, scaledDownCount: 0, actions: [] };
  if (getReplicaCountForReplicaSets(oldRSs) === 0) return none;
  const allPodsCount = getReplicaCountForReplicaSets(allRSs);
  const minAvail = specReplicas(d) - maxUnavailable(d);
  // Unavailable new pods must not let old pods go too: that would deepen an outage.
  const newRSUnavailablePodCount = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = allPodsCount - minAvail - newRSUnavailablePodCount;
  if (maxScaledDown <= 0) return none;
  // Unhealthy old pods go first: deleting them costs no availability and unblocks the rollout.
  const cleanup = cleanupUnhealthyReplicas(oldRSs, d, maxScaledDown);
  // Go swallows the error here and reports "not scaled"; earlier writes stand.
  if (cleanup.error) return { ...none, actions: cleanup.actions };
  const scaleDown = scaleDownOldReplicaSetsForRollingUpdate([...cleanup.oldRSs, newRS], cleanup.oldRSs, d);
  return {
    scaled: cleanup.cleanupCount + scaleDown.scaledDownCount > 0,
    cleanupCount: cleanup.cleanupCount,
    scaledDownCount: scaleDown.scaledDownCount,
    actions: [...cleanup.actions, ...scaleDown.actions],
  };
}

/** One rolloutRolling step after the new RS exists: which phase acted and the writes it made. */
type RollingStep =
  | { phase: 'scaleUpNew' | 'scaleDownNew'; actions: ScaleAction[] }
  | { phase: 'scaleDownOld'; actions: ScaleAction[] }
  | { phase: 'idle'; actions: []; complete: boolean };

/** rolloutRolling: reconcileNewReplicaSet, else reconcileOldReplicaSets, else (if complete) cleanup. */
export function rolloutRollingStep(d: Deployment, newRS: ReplicaSet, oldRSs: readonly ReplicaSet[]): RollingStep {
  const allRSs = [...oldRSs, newRS];
  const up = reconcileNewReplicaSet(allRSs, newRS, d);
  if (up.length > 0) return { phase: up[0].to > up[0].from ? 'scaleUpNew' : 'scaleDownNew', actions: up };
  const down = reconcileOldReplicaSets(allRSs, oldRSs, newRS, d);
  if (down.scaled) return { phase: 'scaleDownOld', actions: down.actions };
  return { phase: 'idle', actions: [], complete: deploymentComplete(d, d.status ?? {}) };
}

/** GetReplicaSetFraction: how many replicas this RS gains (or loses) in a proportional scale. */
export function getReplicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  // Scaling to zero: each RS gives up everything.
  if (specReplicas(d) === 0) return -specReplicas(rs);
  const deploymentReplicas = specReplicas(d) + maxSurge(d);
  let annotatedReplicas = getMaxReplicasAnnotation(rs);
  // Without the annotation fall back to the current size; getProportion's clamps keep us in bounds.
  if (annotatedReplicas === null) annotatedReplicas = d.status?.replicas ?? 0;
  // Go would divide by zero here (int conversion of ±Inf is undefined); no share is the safe answer.
  if (annotatedReplicas === 0) return 0;
  return roundToInt32((specReplicas(rs) * deploymentReplicas) / annotatedReplicas) - specReplicas(rs);
}

/** integer.RoundToInt32: round half away from zero. */
export function roundToInt32(a: number): number {
  return a < 0 ? Math.trunc(a - 0.5) : Math.trunc(a + 0.5);
}

/** GetProportion: the RS's fraction clamped so the running total never overshoots toAdd. */
export function getProportion(
  rs: ReplicaSet | null,
  d: Deployment,
  deploymentReplicasToAdd: number,
  deploymentReplicasAdded: number,
): number {
  if (
    !rs ||
    specReplicas(rs) === 0 ||
    deploymentReplicasToAdd === 0 ||
    deploymentReplicasToAdd === deploymentReplicasAdded
  ) {
    return 0;
  }
  const rsFraction = getReplicaSetFraction(rs, d);
  const allowed = deploymentReplicasToAdd - deploymentReplicasAdded;
  return deploymentReplicasToAdd > 0 ? Math.min(rsFraction, allowed) : Math.max(rsFraction, allowed);
}

/**
 * scale (sync.go): the plan for a scaling event or a paused Deployment. One active RS takes the
 * whole size; a saturated new RS retires the old ones; otherwise every active RS is resized in
 * proportion to its share, leftovers going to the largest RS.
 */
export function scale(d: Deployment, newRS: ReplicaSet | null, oldRSs: readonly ReplicaSet[]): ScaleAction[] {
  const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
  if (activeOrLatest) {
    if (specReplicas(activeOrLatest) === specReplicas(d)) return [];
    return scaleAndRecord(activeOrLatest, specReplicas(d));
  }
  if (isSaturated(d, newRS)) {
    return filterActiveReplicaSets(oldRSs).flatMap((old) => scaleAndRecord(old, 0));
  }
  if (!isRollingUpdate(d)) return [];
  let allRSs = filterActiveReplicaSets([...oldRSs, newRS]);
  const allRSsReplicas = getReplicaCountForReplicaSets(allRSs);
  const allowedSize = specReplicas(d) > 0 ? specReplicas(d) + maxSurge(d) : 0;
  const toAdd = allowedSize - allRSsReplicas;
  // Same-size ties: grow newer RSs first, shrink older RSs first.
  if (toAdd > 0) allRSs = sortByLess(allRSs, replicaSetsBySizeNewerLess);
  else if (toAdd < 0) allRSs = sortByLess(allRSs, replicaSetsBySizeOlderLess);
  let added = 0;
  const sizes = new Map<string, number>();
  for (const rs of allRSs) {
    if (toAdd !== 0) {
      const p = getProportion(rs, d, toAdd, added);
      sizes.set(nameOf(rs), specReplicas(rs) + p);
      added += p;
    } else {
      sizes.set(nameOf(rs), specReplicas(rs));
    }
  }
  const actions: ScaleAction[] = [];
  allRSs.forEach((rs, i) => {
    const name = nameOf(rs);
    if (i === 0 && toAdd !== 0) sizes.set(name, Math.max(0, sizes.get(name)! + toAdd - added));
    const to = sizes.get(name)!;
    // scaleReplicaSet writes when the size or the replica annotations are stale.
    if (to !== specReplicas(rs) || replicasAnnotationsNeedUpdate(rs, specReplicas(d), specReplicas(d) + maxSurge(d))) {
      actions.push({ rs: name, from: specReplicas(rs), to });
    }
  });
  return actions;
}

/** isScalingEvent: some active RS was last sized for a different spec.replicas. */
export function isScalingEvent(d: Deployment, newRS: ReplicaSet | null, oldRSs: readonly ReplicaSet[]): boolean {
  for (const rs of filterActiveReplicaSets([...oldRSs, newRS])) {
    const desired = getDesiredReplicasAnnotation(rs);
    if (desired !== null && desired !== specReplicas(d)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Recreate (recreate.go)

/** oldPodsRunning: any old RS still reports replicas, or any non-new pod is not Succeeded/Failed. */
function oldPodsRunning(
  newRS: ReplicaSet | null,
  oldRSs: readonly ReplicaSet[],
  podsByRSUid: Readonly<Record<string, readonly Pod[]>>,
): boolean {
  if (getActualReplicaCountForReplicaSets(oldRSs) > 0) return true;
  for (const [uid, pods] of Object.entries(podsByRSUid)) {
    if (newRS && newRS.metadata?.uid === uid) continue;
    for (const pod of pods) {
      const phase = pod.status?.phase;
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}

/** What one rolloutRecreate sync does. */
type RecreateStep =
  | { phase: 'scaleDownOld'; actions: ScaleAction[] }
  | { phase: 'waitForOldPods'; actions: [] }
  | { phase: 'createNewRS'; actions: [] }
  | { phase: 'scaleUpNew'; actions: ScaleAction[] }
  | { phase: 'idle'; actions: []; complete: boolean };

/** rolloutRecreate: all old pods go to 0 and must be gone before the new RS is created and scaled up. */
export function rolloutRecreateStep(
  d: Deployment,
  newRS: ReplicaSet | null,
  oldRSs: readonly ReplicaSet[],
  podsByRSUid: Readonly<Record<string, readonly Pod[]>>,
): RecreateStep {
  const down = filterActiveReplicaSets(oldRSs).flatMap((rs) => scaleAndRecord(rs, 0));
  if (down.length > 0) return { phase: 'scaleDownOld', actions: down };
  if (oldPodsRunning(newRS, oldRSs, podsByRSUid)) return { phase: 'waitForOldPods', actions: [] };
  if (!newRS) return { phase: 'createNewRS', actions: [] };
  const up = scaleAndRecord(newRS, specReplicas(d));
  if (up.length > 0) return { phase: 'scaleUpNew', actions: up };
  return { phase: 'idle', actions: [], complete: deploymentComplete(d, d.status ?? {}) };
}

// ---------------------------------------------------------------------------------------------
// History cleanup

/** HasRevisionHistoryLimit: set and not MaxInt32 (MaxInt32 keeps everything). */
function hasRevisionHistoryLimit(d: Deployment): boolean {
  const l = d.spec?.revisionHistoryLimit;
  return l !== undefined && l !== MaxInt32;
}

/** cleanupDeployment: names of old RSs to delete, lowest revision first, beyond revisionHistoryLimit. */
export function cleanupDeployment(oldRSs: readonly ReplicaSet[], d: Deployment): string[] {
  // The API server defaults revisionHistoryLimit to 10; absent here means the default.
  const dd: Deployment =
    d.spec?.revisionHistoryLimit === undefined ? { ...d, spec: { ...d.spec!, revisionHistoryLimit: 10 } } : d;
  if (!hasRevisionHistoryLimit(dd)) return [];
  const cleanable = oldRSs.filter((rs) => !rs.metadata?.deletionTimestamp);
  const diff = cleanable.length - dd.spec!.revisionHistoryLimit!;
  if (diff <= 0) return [];
  const sorted = sortByLess(cleanable, replicaSetsByRevisionLess);
  const out: string[] = [];
  for (let i = 0; i < diff; i++) {
    const rs = sorted[i];
    // Never delete an RS that still has (or may still have) pods.
    if (
      (rs.status?.replicas ?? 0) !== 0 ||
      specReplicas(rs) !== 0 ||
      (rs.metadata?.generation ?? 0) > (rs.status?.observedGeneration ?? 0) ||
      rs.metadata?.deletionTimestamp
    ) {
      continue;
    }
    out.push(nameOf(rs));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Conditions and status

/** NewDeploymentCondition: both timestamps set to now. */
export function newDeploymentCondition(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: Time,
): DeploymentCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

/** GetDeploymentCondition: the condition of that type, or null. */
export function getDeploymentCondition(status: DeploymentStatus | undefined, type: string): DeploymentCondition | null {
  return status?.conditions?.find((c) => c.type === type) ?? null;
}

/** SetDeploymentCondition: replace by type, unchanged when status and reason match; keeps lastTransitionTime if status is unchanged. */
export function setDeploymentCondition(status: DeploymentStatus, condition: DeploymentCondition): DeploymentStatus {
  const current = getDeploymentCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return status;
  const c =
    current && current.status === condition.status
      ? { ...condition, lastTransitionTime: current.lastTransitionTime }
      : condition;
  return { ...status, conditions: [...(status.conditions ?? []).filter((x) => x.type !== condition.type), c] };
}

/** RemoveDeploymentCondition: drop the condition of that type. */
function removeDeploymentCondition(status: DeploymentStatus, type: string): DeploymentStatus {
  const conditions = (status.conditions ?? []).filter((c) => c.type !== type);
  const out: DeploymentStatus = { ...status, conditions };
  if (conditions.length === 0) delete out.conditions;
  return out;
}

/** DeploymentComplete: all desired replicas updated and available, no old pods, generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const r = specReplicas(d);
  return (
    (s.updatedReplicas ?? 0) === r &&
    (s.replicas ?? 0) === r &&
    (s.availableReplicas ?? 0) === r &&
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** DeploymentProgressing: more updated/ready/available pods, or fewer old pods, than last status. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** HasProgressDeadline: set and not MaxInt32. */
function hasProgressDeadline(d: Deployment): boolean {
  const p = d.spec?.progressDeadlineSeconds;
  return p !== undefined && p !== MaxInt32;
}

/** DeploymentTimedOut: Progressing's lastUpdateTime + progressDeadlineSeconds is before now. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, now: Time): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getDeploymentCondition(s, 'Progressing');
  if (!c) return false;
  // A finished rollout is not re-judged when an old condition's timestamp ages.
  if (c.reason === NewRSAvailableReason) return false;
  if (c.reason === TimedOutReason) return true;
  return ms(c.lastUpdateTime) + d.spec!.progressDeadlineSeconds! * 1000 < ms(now);
}

type RSStatusExt = NonNullable<ReplicaSet['status']> & { terminatingReplicas?: number };
type DeploymentStatusExt = DeploymentStatus & { terminatingReplicas?: number };

/** spec with minReadySeconds set, or left out when 0 (ReplicaSetSpec's omitempty). */
function withMinReadySeconds(spec: NonNullable<ReplicaSet['spec']>, minReady: number): NonNullable<ReplicaSet['spec']> {
  if (minReady) return { ...spec, minReadySeconds: minReady };
  const { minReadySeconds: _m, ...rest } = spec;
  return rest;
}

/** calculateStatus (sync.go): counts from the RSs plus the Available condition. */
export function calculateStatus(
  allRSs: readonly MaybeRS[],
  newRS: ReplicaSet | null,
  d: Deployment,
  now: Time,
): DeploymentStatus {
  const availableReplicas = getAvailableReplicaCountForReplicaSets(allRSs);
  const totalReplicas = getReplicaCountForReplicaSets(allRSs);
  // More available than desired happens while scaling down; report 0, not a negative.
  const unavailableReplicas = Math.max(0, totalReplicas - availableReplicas);
  let status: DeploymentStatusExt = {
    observedGeneration: d.metadata?.generation ?? 0,
    replicas: getActualReplicaCountForReplicaSets(allRSs),
    updatedReplicas: getActualReplicaCountForReplicaSets([newRS]),
    readyReplicas: getReadyReplicaCountForReplicaSets(allRSs),
    availableReplicas,
    unavailableReplicas,
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  // KEP-3973 (beta, on in 1.35): only reported once every synced RS reports it.
  const terminating = getTerminatingReplicaCountForReplicaSets(allRSs);
  if (terminating !== null) status.terminatingReplicas = terminating;
  if (d.status?.conditions?.length) status.conditions = [...d.status.conditions];
  status =
    availableReplicas >= specReplicas(d) - maxUnavailable(d)
      ? setDeploymentCondition(
          status,
          newDeploymentCondition(
            'Available',
            'True',
            MinimumReplicasAvailable,
            'Deployment has minimum availability.',
            now,
          ),
        )
      : setDeploymentCondition(
          status,
          newDeploymentCondition(
            'Available',
            'False',
            MinimumReplicasUnavailable,
            'Deployment does not have minimum availability.',
            now,
          ),
        );
  return omitZero(status, DEPLOYMENT_STATUS_OMITEMPTY);
}

/** GetTerminatingReplicaCountForReplicaSets: sum, or null if a synced RS does not report it. */
function getTerminatingReplicaCountForReplicaSets(rss: readonly MaybeRS[]): number | null {
  let total = 0;
  for (const rs of rss) {
    if (!rs) continue;
    const status: RSStatusExt | undefined = rs.status;
    const t = status?.terminatingReplicas;
    if (t === undefined) {
      if ((rs.status?.observedGeneration ?? 0) > 0) return null;
      continue;
    }
    total += t;
  }
  return total;
}

function replicaSetToDeploymentCondition(c: ReplicaSetCondition): DeploymentCondition {
  return {
    type: c.type,
    status: c.status,
    lastTransitionTime: c.lastTransitionTime,
    lastUpdateTime: c.lastTransitionTime,
    reason: c.reason,
    message: c.message,
  };
}

/** getReplicaFailures: ReplicaFailure conditions of the new RS, else of any RS. */
function getReplicaFailures(allRSs: readonly MaybeRS[], newRS: ReplicaSet | null): DeploymentCondition[] {
  const fromNew = (newRS?.status?.conditions ?? [])
    .filter((c) => c.type === 'ReplicaFailure')
    .map(replicaSetToDeploymentCondition);
  if (fromNew.length > 0) return fromNew;
  return allRSs.flatMap((rs) =>
    (rs?.status?.conditions ?? []).filter((c) => c.type === 'ReplicaFailure').map(replicaSetToDeploymentCondition),
  );
}

/** syncRolloutStatus (progress.go): the status to write, with Progressing judged against the deadline. */
export function syncRolloutStatus(
  allRSs: readonly MaybeRS[],
  newRS: ReplicaSet | null,
  d: Deployment,
  now: Time,
): DeploymentStatus {
  let s = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) s = removeDeploymentCondition(s, 'Progressing');
  const currentCond = getDeploymentCondition(d.status, 'Progressing');
  // A resync after a finished rollout must not re-estimate progress.
  const isCompleteDeployment = s.replicas === s.updatedReplicas && currentCond?.reason === NewRSAvailableReason;
  if (hasProgressDeadline(d) && !isCompleteDeployment) {
    const rsName = newRS ? nameOf(newRS) : null;
    const dName = nameOf(d);
    if (deploymentComplete(d, s)) {
      const msg = rsName
        ? `ReplicaSet "${rsName}" has successfully progressed.`
        : `Deployment "${dName}" has successfully progressed.`;
      s = setDeploymentCondition(s, newDeploymentCondition('Progressing', 'True', NewRSAvailableReason, msg, now));
    } else if (deploymentProgressing(d, s)) {
      const msg = rsName ? `ReplicaSet "${rsName}" is progressing.` : `Deployment "${dName}" is progressing.`;
      let cond = newDeploymentCondition('Progressing', 'True', ReplicaSetUpdatedReason, msg, now);
      // Progressing is special: same reason still bumps lastUpdateTime, which is what the deadline measures.
      if (currentCond) {
        if (currentCond.status === 'True') cond = { ...cond, lastTransitionTime: currentCond.lastTransitionTime };
        s = removeDeploymentCondition(s, 'Progressing');
      }
      s = setDeploymentCondition(s, cond);
    } else if (deploymentTimedOut(d, s, now)) {
      const msg = rsName
        ? `ReplicaSet "${rsName}" has timed out progressing.`
        : `Deployment "${dName}" has timed out progressing.`;
      s = setDeploymentCondition(s, newDeploymentCondition('Progressing', 'False', TimedOutReason, msg, now));
    }
  }
  const failures = getReplicaFailures(allRSs, newRS);
  s = failures.length > 0 ? setDeploymentCondition(s, failures[0]) : removeDeploymentCondition(s, 'ReplicaFailure');
  return s;
}

/** requeueStuckDeployment: ms until a progress re-check (-1 none, 0 now), with Kubernetes' +1 s. */
export function requeueStuckDeployment(d: Deployment, newStatus: DeploymentStatus, now: Time): number {
  const c = getDeploymentCondition(d.status, 'Progressing');
  if (!hasProgressDeadline(d) || !c) return -1;
  if (deploymentComplete(d, newStatus) || c.reason === TimedOutReason) return -1;
  const after = ms(c.lastUpdateTime) + d.spec!.progressDeadlineSeconds! * 1000 - ms(now);
  if (after < 1000) return 0;
  return after + 1000;
}

/** checkPausedConditions: the status with DeploymentPaused/DeploymentResumed, or null if unchanged. */
export function checkPausedConditions(d: Deployment, now: Time): DeploymentStatus | null {
  if (!hasProgressDeadline(d)) return null;
  const c = getDeploymentCondition(d.status, 'Progressing');
  // A reported timeout is not overwritten by a pause.
  if (c && c.reason === TimedOutReason) return null;
  const pausedCondExists = !!c && c.reason === PausedDeployReason;
  const status = d.status ?? {};
  if (d.spec?.paused && !pausedCondExists) {
    return setDeploymentCondition(
      status,
      newDeploymentCondition('Progressing', 'Unknown', PausedDeployReason, 'Deployment is paused', now),
    );
  }
  if (!d.spec?.paused && pausedCondExists) {
    return setDeploymentCondition(
      status,
      newDeploymentCondition('Progressing', 'Unknown', ResumedDeployReason, 'Deployment is resumed', now),
    );
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// New ReplicaSet (sync.go getNewReplicaSet)

/** What getNewReplicaSet does when the new RS is missing or stale. */
type NewReplicaSetPlan =
  | { kind: 'create'; rs: ReplicaSet; condition: DeploymentCondition | null; event: string | null; revision: string }
  | { kind: 'update'; rs: ReplicaSet }
  | { kind: 'found'; rs: ReplicaSet; condition: DeploymentCondition | null; revision: string };

/** getNewReplicaSet: create the new RS (name <deployment>-<hash>), or sync an existing one's annotations. */
export function getNewReplicaSet(
  d: Deployment,
  rsList: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  podTemplateHash: string,
  now: Time,
): NewReplicaSetPlan {
  const existing = findNewReplicaSet(d, rsList);
  const newRevision = String(maxRevision(oldRSs) + 1);
  if (existing) {
    const { rs, changed } = setNewReplicaSetAnnotations(d, existing, newRevision, true);
    const minReady = d.spec?.minReadySeconds ?? 0;
    if (changed || (existing.spec?.minReadySeconds ?? 0) !== minReady) {
      return { kind: 'update', rs: { ...rs, spec: withMinReadySeconds(rs.spec!, minReady) } };
    }
    const cond = getDeploymentCondition(d.status, 'Progressing');
    const condition =
      hasProgressDeadline(d) && !cond
        ? newDeploymentCondition(
            'Progressing',
            'True',
            FoundNewRSReason,
            `Found new replica set "${nameOf(existing)}"`,
            now,
          )
        : null;
    // The Deployment takes the RS's own revision, which may be higher than max(old)+1.
    return {
      kind: 'found',
      rs: existing,
      condition,
      revision: existing.metadata?.annotations?.[RevisionAnnotation] ?? newRevision,
    };
  }
  const template = d.spec!.template;
  const labels = { ...(template.metadata?.labels ?? {}), [DefaultDeploymentUniqueLabelKey]: podTemplateHash };
  const selector = d.spec!.selector;
  const name = `${nameOf(d)}-${podTemplateHash}`;
  let rs: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: d.metadata?.namespace,
      labels,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: nameOf(d),
          uid: d.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      replicas: 0,
      ...(d.spec?.minReadySeconds ? { minReadySeconds: d.spec.minReadySeconds } : {}),
      selector: {
        ...selector,
        matchLabels: { ...(selector.matchLabels ?? {}), [DefaultDeploymentUniqueLabelKey]: podTemplateHash },
      },
      template: { ...template, metadata: { ...(template.metadata ?? {}), labels } },
    },
  };
  const replicas = newRSNewReplicas(d, [...oldRSs, rs], rs);
  rs = { ...rs, spec: { ...rs.spec!, replicas } };
  rs = setNewReplicaSetAnnotations(d, rs, newRevision, false).rs;
  const condition = hasProgressDeadline(d)
    ? newDeploymentCondition('Progressing', 'True', NewReplicaSetReason, `Created new replica set "${name}"`, now)
    : null;
  const event = replicas > 0 ? `Scaled up replica set ${name} from 0 to ${replicas}` : null;
  return { kind: 'create', rs, condition, event, revision: newRevision };
}

// ---------------------------------------------------------------------------------------------
// kubectl rollout undo (kubectl polymorphichelpers/rollback.go, DeploymentRollbacker)

/** Outcome of `kubectl rollout undo deployment/<d> [--to-revision=N]`. */
type RollbackResult =
  | { kind: 'error'; message: string }
  | { kind: 'skipped'; message: string }
  | { kind: 'rolledBack'; deployment: Deployment; message: string };

/** deploymentRevision: the RS for revision N, or for the previous revision when N is 0. */
function findReplicaSetForRevision(
  allRSs: readonly ReplicaSet[],
  toRevision: number,
  deploymentName: string,
): { rs: ReplicaSet } | { error: string } {
  let latest: ReplicaSet | null = null;
  let latestRevision = -1;
  let previous: ReplicaSet | null = null;
  let previousRevision = -1;
  for (const rs of allRSs) {
    const v = revisionOf(rs);
    if (v === null) continue;
    if (toRevision === 0) {
      if (latestRevision < v) {
        previousRevision = latestRevision;
        previous = latest;
        latestRevision = v;
        latest = rs;
      } else if (previousRevision < v) {
        previousRevision = v;
        previous = rs;
      }
    } else if (toRevision === v) {
      return { rs };
    }
  }
  if (toRevision > 0) return { error: `unable to find specified revision ${toRevision} in history` };
  if (!previous) return { error: `no rollout history found for deployment "${deploymentName}"` };
  return { rs: previous };
}

/** rollback: copy the target RS's template (minus pod-template-hash) and user annotations into the Deployment. */
export function rollback(d: Deployment, allRSs: readonly ReplicaSet[], toRevision = 0): RollbackResult {
  const ref = `deployment.apps/${nameOf(d)}`;
  // Same order as kubectl: find the revision first, then refuse a paused Deployment.
  const found = findReplicaSetForRevision(allRSs, toRevision, nameOf(d));
  if ('error' in found) return { kind: 'error', message: found.error };
  const target = found.rs;
  if (d.spec?.paused) {
    return {
      kind: 'error',
      message: `you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/${nameOf(d)}' and try again`,
    };
  }
  if (equalIgnoreHash(target.spec?.template, d.spec?.template)) {
    // kubectl prints the requested number, so a bare `undo` says "revision 0".
    return {
      kind: 'skipped',
      message: `${ref} skipped rollback (current template already matches revision ${toRevision})`,
    };
  }
  const template = withoutHashLabel(target.spec!.template);
  const deployment = setDeploymentAnnotationsTo({ ...d, spec: { ...d.spec!, template } }, target);
  return { kind: 'rolledBack', deployment, message: `${ref} rolled back` };
}
