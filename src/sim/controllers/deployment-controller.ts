// The Deployment controller (pkg/controller/deployment) as a component of the simulated cluster:
// shared informers on deployments, replicasets and pods, a work queue keyed `ns/name`, and
// syncDeployment in Kubernetes' order. The arithmetic and plans are deployment-util.ts; this file
// turns them into API requests and events, and keeps one rollout statechart per Deployment.
import type { Deployment, DeploymentStatus, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { OwnerReference } from 'kubernetes-types/meta/v1';
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { newEventRecorder, recordEvent, type EventRecorderState } from '../client-go/record.ts';
import { controller, type ControllerEvent } from '../client-go/controller.ts';
import {
  listerGet,
  listerList,
  metaNamespaceKey,
  newInformer,
  type EventHandlers,
  type InformerState,
} from '../client-go/informer.ts';
import { add, addRateLimited, newWorkQueue, type WorkQueue } from '../client-go/workqueue.ts';
import { computeHash, deepEqual, rfc3339 } from '../util/names.ts';
import type { ComponentDef, Ctx } from '../world.ts';
import {
  applyScale,
  cleanupDeployment,
  checkPausedConditions,
  deploymentComplete,
  FailedRSCreateReason,
  findNewReplicaSet,
  findOldReplicaSets,
  getDeploymentCondition,
  getNewReplicaSet,
  isRollingUpdate,
  isScalingEvent,
  newDeploymentCondition,
  requeueStuckDeployment,
  rolloutRecreateStep,
  rolloutRollingStep,
  scale,
  ScalingReplicaSetReason,
  scalingReplicaSetMessage,
  setDeploymentCondition,
  setDeploymentRevision,
  calculateStatus,
  syncRolloutStatus as computeRolloutStatus,
  type ScaleAction,
} from './deployment-util.ts';
import { rolloutMemo, templateHashes } from './deployment-controller-cache.ts';
import { claimCandidate, claimObjects } from './controller-ref-manager.ts';
import {
  rolloutMachine,
  rolloutStateName,
  rolloutSummary,
  type RolloutAction,
  type RolloutContext,
  type RolloutEvent,
  type RolloutStateName,
  type RolloutSummary,
} from './rollout-machine.ts';

/** One Deployment's rollout statechart, persisted as plain data, plus what it needs to detect changes. */
interface RolloutRecord {
  /** The machine's state value and context (xstate persisted snapshot, JSON). */
  value: unknown;
  context: RolloutContext;
  /** Hash of the pod template last seen (a change sends NEW_TEMPLATE). */
  templateHash: string;
  paused: boolean;
  /** The Progressing condition after the last sync: the "why" a figure shows. */
  progressing: { status: string; reason: string; message: string } | null;
  newRS: string | null;
}

/** The component's plain state. */
export interface DeploymentControllerState {
  dInformer: InformerState<Deployment>;
  rsInformer: InformerState<ReplicaSet>;
  podInformer: InformerState<Pod>;
  queue: WorkQueue;
  recorder: EventRecorderState;
  rollouts: Record<string, RolloutRecord>;
  /** Progress-deadline re-checks waiting, key → simulated ms (the delaying queue keeps one per key). */
  requeueAt: Record<string, number>;
  workerPending: boolean;
}

type C = Ctx<DeploymentControllerState>;

/**
 * NewDeploymentController: it watches Deployments, their ReplicaSets and those ReplicaSets' pods
 * (only for Recreate), queues Deployment keys (`ns/name`), and syncs each with syncDeployment.
 */
const deploymentController = controller<DeploymentControllerState>({
  informers: { dInformer: dHandlers, rsInformer: rsHandlers, podInformer: podHandlers },
  worker: 'deployment-worker',
  sync: syncDeployment,
});

/** What the controller is sent: its controller()'s events, and its progress-deadline re-checks. */
type DeploymentControllerEvent = ControllerEvent<'deployment-worker'> | RequeueEvent;

type Snap = SnapshotFrom<typeof rolloutMachine>;

/** What a figure shows about one rollout: the statechart state, and why it is there. */
interface RolloutView {
  state: RolloutStateName;
  why: string;
  summary: RolloutSummary | null;
  rollouts: number;
  newReplicaSet: string | null;
}

/** rolloutStateOf(state, 'default/web'): the rollout's statechart state and the reason, or undefined. */
export function rolloutStateOf(s: DeploymentControllerState, key: string): RolloutView | undefined {
  const r = s.rollouts[key];
  if (!r) return undefined;
  const state = rolloutStateName(r.value);
  const sum = r.context.summary;
  const counts = sum
    ? ` (${sum.updatedReplicas} of ${sum.replicas} updated, ${sum.availableReplicas} available, ${sum.statusReplicas} total)`
    : '';
  let why: string;
  if (state === 'paused')
    why = r.context.pendingTemplate
      ? 'Deployment is paused; a template change waits for resume'
      : 'Deployment is paused';
  else if (r.progressing) why = `${r.progressing.reason}: ${r.progressing.message}${counts}`;
  else why = `no progress deadline${counts}`;
  return { state, why, summary: sum, rollouts: r.context.rollouts, newReplicaSet: r.newRS };
}

// ---------------------------------------------------------------------------------------------
// Ownership and handlers

function controllerRefOf(o: { metadata?: { ownerReferences?: OwnerReference[] } }): OwnerReference | undefined {
  return o.metadata?.ownerReferences?.find((r) => r.controller);
}

function resolveDeployment(
  s: DeploymentControllerState,
  ns: string | undefined,
  ref: OwnerReference | undefined,
): Deployment | undefined {
  if (!ref || ref.kind !== 'Deployment') return undefined;
  const d = listerGet(s.dInformer, `${ns}/${ref.name}`);
  return d && d.metadata?.uid === ref.uid ? d : undefined;
}

// `cause`: the watch notification whose handler enqueues (Ctx.notification), kept by the queue.
function enqueueOwner(s: DeploymentControllerState, rs: ReplicaSet | undefined, cause: number | undefined): void {
  if (!rs) return;
  const d = resolveDeployment(s, rs.metadata?.namespace, controllerRefOf(rs));
  if (d) add(s.queue, metaNamespaceKey(d), cause);
}

function dHandlers(ctx: C): EventHandlers<Deployment> {
  const s = ctx.state;
  return {
    add: (d) => add(s.queue, metaNamespaceKey(d), ctx.notification),
    update: (_o, d) => add(s.queue, metaNamespaceKey(d), ctx.notification),
    delete: (d) => add(s.queue, metaNamespaceKey(d), ctx.notification),
  };
}

function rsHandlers(ctx: C): EventHandlers<ReplicaSet> {
  const s = ctx.state;
  return {
    add: (rs) => {
      enqueueOwner(s, rs, ctx.notification);
      enqueueAdopters(s, rs, ctx.notification);
    },
    update: (old, cur) => {
      if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
      const cause = ctx.notification;
      if (controllerRefOf(old)?.uid !== controllerRefOf(cur)?.uid) enqueueOwner(s, old, cause);
      enqueueOwner(s, cur, cause);
      // An orphan (newly, or with new labels) may be adopted by a Deployment that selects it.
      if (!controllerRefOf(cur) && (controllerRefOf(old) || !deepEqual(old.metadata?.labels, cur.metadata?.labels)))
        enqueueAdopters(s, cur, cause);
    },
    delete: (rs) => enqueueOwner(s, rs, ctx.notification),
  };
}

function podHandlers(ctx: C): EventHandlers<Pod> {
  const s = ctx.state;
  return {
    // deletePod: only Recreate waits for old pods to be gone.
    delete: (pod) => {
      const ref = controllerRefOf(pod);
      if (!ref || ref.kind !== 'ReplicaSet') return;
      const rs = listerGet(s.rsInformer, `${pod.metadata?.namespace}/${ref.name}`);
      const d = rs && resolveDeployment(s, rs.metadata?.namespace, controllerRefOf(rs));
      if (d && !isRollingUpdate(d)) add(s.queue, metaNamespaceKey(d), ctx.notification);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// API writes

function nameOf(o: { metadata?: { name?: string } }): string {
  return o.metadata?.name ?? '';
}

/** Result of a sync step: false = an API error (requeue with backoff). */
interface SyncCtx {
  ctx: C;
  d: Deployment;
  key: string;
  lastAction: RolloutAction;
  /** Status written or found equal at the end of the sync. */
  status: DeploymentStatus | null;
}

// UpdateStatus(d): PUT …/deployments/{name}/status. The sim carries the new resourceVersion forward
// so the final status write of the same sync does not conflict with this one.
function updateDeploymentStatus(x: SyncCtx, d: Deployment): boolean {
  const r = x.ctx.api.update('deployments', d, 'status');
  if (!r.ok) return false;
  x.d = r.object;
  return true;
}

function replaceRS(list: ReplicaSet[], rs: ReplicaSet): ReplicaSet[] {
  return list.map((o) => (o.metadata?.uid === rs.metadata?.uid ? rs : o));
}

// scaleReplicaSet: PUT the RS with the new size and replica annotations; ScalingReplicaSet when the size changed.
function applyActions(
  x: SyncCtx,
  rss: ReplicaSet[],
  actions: readonly ScaleAction[],
): { rss: ReplicaSet[]; ok: boolean } {
  let cur = rss;
  for (const a of actions) {
    const rs = cur.find((o) => nameOf(o) === a.rs);
    if (!rs) continue;
    const r = x.ctx.api.update('replicasets', applyScale(rs, a.to, x.d));
    if (!r.ok) return { rss: cur, ok: false };
    cur = replaceRS(cur, r.object);
    if (a.from !== a.to)
      recordEvent(x.ctx, x.ctx.state.recorder, x.d, 'Normal', ScalingReplicaSetReason, scalingReplicaSetMessage(a));
  }
  return { rss: cur, ok: true };
}

function ownedReplicaSets(s: DeploymentControllerState, d: Deployment): ReplicaSet[] {
  // The RSs this Deployment controls now, as a reader sees them (no adoption: see claimReplicaSets).
  return listerList(
    s.rsInformer,
    (rs) => rs.metadata?.namespace === d.metadata?.namespace && controllerRefOf(rs)?.uid === d.metadata?.uid,
  );
}

/**
 * getReplicaSetsForDeployment: its own RSs that still match its selector, after adopting matching
 * orphans (a ReplicaSet left by `delete --cascade=orphan`) and releasing its own that no longer match.
 * Undefined when a patch failed (the sync is retried).
 */
function claimReplicaSets(x: SyncCtx): ReplicaSet[] | undefined {
  const s = x.ctx.state;
  const d = x.d;
  const ns = d.metadata?.namespace;
  const candidates = listerList(s.rsInformer, (rs) => rs.metadata?.namespace === ns && claimCandidate(d, rs));
  const r = claimObjects(d, candidates, {
    adopt: (rs, patch) => {
      const p = x.ctx.api.patch('replicasets', ns, rs.metadata?.name ?? '', patch);
      return p.ok ? p.object : undefined;
    },
    release: (rs, patch) => {
      const p = x.ctx.api.patch('replicasets', ns, rs.metadata?.name ?? '', patch);
      return p.ok || p.code === 404;
    },
    fresh: () => {
      const g = x.ctx.api.get('deployments', ns, d.metadata?.name ?? '');
      return g.ok ? g.object : undefined;
    },
  });
  return r.ok ? r.owned : undefined;
}

/** getDeploymentsForReplicaSet: the Deployments whose selector an orphan RS matches (they may adopt it). */
function enqueueAdopters(s: DeploymentControllerState, rs: ReplicaSet, cause: number | undefined): void {
  if (controllerRefOf(rs) || rs.metadata?.deletionTimestamp) return;
  for (const d of listerList(s.dInformer, (d) => d.metadata?.namespace === rs.metadata?.namespace)) {
    if (claimCandidate(d, rs)) add(s.queue, metaNamespaceKey(d), cause);
  }
}

/**
 * getAllReplicaSetsAndSyncRevision: the new RS (created when `create`, with the AlreadyExists →
 * collisionCount++ retry) and all old RSs; stamps the revision on the Deployment.
 */
function getAllReplicaSetsAndSyncRevision(
  x: SyncCtx,
  rsList: ReplicaSet[],
  create: boolean,
): { newRS: ReplicaSet | null; oldRSs: ReplicaSet[]; ok: boolean } {
  const { allOldRSs } = findOldReplicaSets(x.d, rsList);
  const existing = findNewReplicaSet(x.d, rsList);
  if (!existing && !create) return { newRS: null, oldRSs: allOldRSs, ok: true };
  const now = rfc3339(x.ctx.now);
  const hash =
    x.d.status?.collisionCount === undefined
      ? templateHashOf(x.d)
      : computeHash(x.d.spec?.template, x.d.status.collisionCount);
  const plan = getNewReplicaSet(x.d, rsList, allOldRSs, hash, now);
  const ns = x.d.metadata?.namespace ?? 'default';
  if (plan.kind === 'update') {
    // A reused RS (rollback) gets the next revision and revision-history; the Deployment takes it next sync.
    const r = x.ctx.api.update('replicasets', plan.rs);
    if (!r.ok) return { newRS: null, oldRSs: allOldRSs, ok: false };
    return { newRS: r.object, oldRSs: allOldRSs, ok: true };
  }
  if (plan.kind === 'found') {
    const rev = setDeploymentRevision(x.d, plan.revision);
    let d = rev.deployment;
    let needsUpdate = rev.updated;
    if (plan.condition) {
      d = { ...d, status: setDeploymentCondition(d.status ?? {}, plan.condition) };
      needsUpdate = true;
    }
    if (needsUpdate && !updateDeploymentStatus(x, d)) return { newRS: plan.rs, oldRSs: allOldRSs, ok: false };
    return { newRS: plan.rs, oldRSs: allOldRSs, ok: true };
  }
  // Create the new RS under its deterministic name <deployment>-<pod-template-hash>.
  const r = x.ctx.api.create('replicasets', plan.rs, ns);
  let created: ReplicaSet;
  let alreadyExists = false;
  if (r.ok) {
    created = r.object;
  } else if (r.code === 409 && r.status.reason === 'AlreadyExists') {
    alreadyExists = true;
    const found =
      listerGet(x.ctx.state.rsInformer, `${ns}/${nameOf(plan.rs)}`) ??
      (() => {
        const g = x.ctx.api.get('replicasets', ns, nameOf(plan.rs));
        return g.ok ? g.object : undefined;
      })();
    if (found && controllerRefOf(found)?.uid === x.d.metadata?.uid && findNewReplicaSet(x.d, [found])) {
      created = found;
    } else {
      // A hash collision with someone else's RS: bump collisionCount so the next sync hashes differently.
      const status = { ...(x.d.status ?? {}), collisionCount: (x.d.status?.collisionCount ?? 0) + 1 };
      updateDeploymentStatus(x, { ...x.d, status });
      return { newRS: null, oldRSs: allOldRSs, ok: false };
    }
  } else {
    const msg = `Failed to create new replica set "${nameOf(plan.rs)}": ${r.status.message}`;
    if (plan.condition) {
      const cond = newDeploymentCondition('Progressing', 'False', FailedRSCreateReason, msg, now);
      updateDeploymentStatus(x, { ...x.d, status: setDeploymentCondition(x.d.status ?? {}, cond) });
    }
    recordEvent(x.ctx, x.ctx.state.recorder, x.d, 'Warning', FailedRSCreateReason, msg);
    return { newRS: null, oldRSs: allOldRSs, ok: false };
  }
  if (!alreadyExists && plan.event)
    recordEvent(x.ctx, x.ctx.state.recorder, x.d, 'Normal', ScalingReplicaSetReason, plan.event);
  x.lastAction = 'createNewRS';
  const rev = setDeploymentRevision(x.d, plan.revision);
  let d = rev.deployment;
  let needsUpdate = rev.updated;
  if (!alreadyExists && plan.condition) {
    const cond = newDeploymentCondition(
      'Progressing',
      'True',
      plan.condition.reason!,
      `Created new replica set "${nameOf(created)}"`,
      now,
    );
    d = { ...d, status: setDeploymentCondition(d.status ?? {}, cond) };
    needsUpdate = true;
  }
  if (needsUpdate && !updateDeploymentStatus(x, d)) return { newRS: created, oldRSs: allOldRSs, ok: false };
  return { newRS: created, oldRSs: allOldRSs, ok: true };
}

/** The timer behind the progress-deadline re-check. */
interface RequeueEvent {
  type: 'deployment-requeue';
  key: string;
  at: number;
}

// AddAfter as client-go's delaying queue does it: one waiting entry per key, an earlier time wins.
function addAfterOnce(ctx: C, key: string, ms: number): void {
  const at = ctx.now + ms;
  const cur = ctx.state.requeueAt[key];
  if (cur !== undefined && cur <= at) return;
  ctx.state.requeueAt[key] = at;
  // A deadline check is a watchdog, not work in flight: it must not keep settle() from finishing.
  ctx.schedule(ms, { type: 'deployment-requeue', key, at } satisfies RequeueEvent, { recurring: true });
}

// syncRolloutStatus: write status when it changed, otherwise schedule the progress-deadline re-check.
function syncRolloutStatus(x: SyncCtx, allRSs: ReplicaSet[], newRS: ReplicaSet | null): boolean {
  const now = rfc3339(x.ctx.now);
  const status = computeRolloutStatus(allRSs, newRS, x.d, now);
  x.status = status;
  if (deepEqual(x.d.status, status)) {
    const after = requeueStuckDeployment(x.d, status, now);
    if (after === 0) addRateLimited(x.ctx, x.ctx.state.queue, x.key);
    else if (after > 0) addAfterOnce(x.ctx, x.key, after);
    return true;
  }
  return updateDeploymentStatus(x, { ...x.d, status });
}

// syncDeploymentStatus (used by sync): calculateStatus only, no Progressing judgement.
function syncDeploymentStatus(x: SyncCtx, allRSs: ReplicaSet[], newRS: ReplicaSet | null): boolean {
  const status = calculateStatus(allRSs, newRS, x.d, rfc3339(x.ctx.now));
  x.status = status;
  if (deepEqual(x.d.status, status)) return true;
  return updateDeploymentStatus(x, { ...x.d, status });
}

function deleteOld(x: SyncCtx, oldRSs: ReplicaSet[]): boolean {
  // cleanupDeployment: old RSs beyond revisionHistoryLimit, lowest revision first, only empty ones.
  for (const name of cleanupDeployment(oldRSs, x.d)) {
    const r = x.ctx.api.delete('replicasets', x.d.metadata?.namespace, name);
    if (!r.ok && r.code !== 404) return false;
  }
  return true;
}

// sync: scale only (paused, or a scaling event), then status.
function syncScale(x: SyncCtx, rsList: ReplicaSet[]): boolean {
  const got = getAllReplicaSetsAndSyncRevision(x, rsList, false);
  if (!got.ok) return false;
  const all = got.newRS ? [...got.oldRSs, got.newRS] : [...got.oldRSs];
  const applied = applyActions(x, all, scale(x.d, got.newRS, got.oldRSs));
  if (!applied.ok) return false;
  const newRS = got.newRS ? (applied.rss.find((o) => o.metadata?.uid === got.newRS!.metadata?.uid) ?? null) : null;
  const oldRSs = applied.rss.filter((o) => o !== newRS);
  if (x.d.spec?.paused && !deleteOld(x, oldRSs)) return false;
  return syncDeploymentStatus(x, applied.rss, newRS);
}

function rolloutRolling(x: SyncCtx, rsList: ReplicaSet[]): boolean {
  const got = getAllReplicaSetsAndSyncRevision(x, rsList, true);
  if (!got.ok || !got.newRS) return false;
  const step = rolloutRollingStep(x.d, got.newRS, got.oldRSs);
  const applied = applyActions(x, [...got.oldRSs, got.newRS], step.actions);
  if (!applied.ok) return false;
  const newRS = applied.rss.find((o) => o.metadata?.uid === got.newRS!.metadata?.uid)!;
  const oldRSs = applied.rss.filter((o) => o !== newRS);
  if (step.phase !== 'idle') {
    x.lastAction = step.phase;
    return syncRolloutStatus(x, applied.rss, newRS);
  }
  if (x.lastAction !== 'createNewRS') x.lastAction = 'idle';
  if (deploymentComplete(x.d, x.d.status ?? {}) && !deleteOld(x, oldRSs)) return false;
  return syncRolloutStatus(x, applied.rss, newRS);
}

function rolloutRecreate(x: SyncCtx, rsList: ReplicaSet[]): boolean {
  let got = getAllReplicaSetsAndSyncRevision(x, rsList, false);
  if (!got.ok) return false;
  const podsByRSUid: Record<string, Pod[]> = {};
  for (const rs of rsList) podsByRSUid[rs.metadata?.uid ?? ''] = [];
  for (const p of listerList(x.ctx.state.podInformer, (p) => p.metadata?.namespace === x.d.metadata?.namespace)) {
    const uid = controllerRefOf(p)?.uid;
    if (uid && podsByRSUid[uid]) podsByRSUid[uid].push(p);
  }
  let step = rolloutRecreateStep(x.d, got.newRS, got.oldRSs, podsByRSUid);
  if (step.phase === 'createNewRS') {
    got = getAllReplicaSetsAndSyncRevision(x, rsList, true);
    if (!got.ok || !got.newRS) return false;
    step = rolloutRecreateStep(x.d, got.newRS, got.oldRSs, podsByRSUid);
  }
  const all = got.newRS ? [...got.oldRSs, got.newRS] : [...got.oldRSs];
  const applied = applyActions(x, all, step.actions);
  if (!applied.ok) return false;
  const newRS = got.newRS ? (applied.rss.find((o) => o.metadata?.uid === got.newRS!.metadata?.uid) ?? null) : null;
  const oldRSs = applied.rss.filter((o) => o !== newRS);
  if (step.phase === 'scaleDownOld' || step.phase === 'scaleUpNew')
    x.lastAction = step.phase === 'scaleDownOld' ? 'scaleDownOld' : 'scaleUpNew';
  else if (step.phase === 'waitForOldPods') x.lastAction = 'waitForOldPods';
  else if (x.lastAction !== 'createNewRS') x.lastAction = 'idle';
  if (step.phase === 'idle' && step.complete && !deleteOld(x, oldRSs)) return false;
  return syncRolloutStatus(x, applied.rss, newRS);
}

// ---------------------------------------------------------------------------------------------
// The rollout statechart, advanced with pure transition() after each sync

function templateHashOf(d: Deployment): string {
  const t = d.spec?.template;
  if (!t) return computeHash(t);
  let h = templateHashes.get(t);
  if (h === undefined) {
    h = computeHash(t);
    templateHashes.set(t, h);
  }
  return h;
}

// The machine's value (a state name, or nested state names) and context are small and flat: copied
// field by field (structuredClone costs more than the whole rollout step it serves).
function copyValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  const o: Record<string, unknown> = {};
  for (const k in v as Record<string, unknown>) o[k] = copyValue((v as Record<string, unknown>)[k]);
  return o;
}

function copyContext(c: RolloutContext): RolloutContext {
  return { ...c, summary: c.summary && { ...c.summary } };
}

function advanceRollout(s: DeploymentControllerState, key: string, d: Deployment, x: SyncCtx): void {
  const templateHash = templateHashOf(d);
  const paused = !!d.spec?.paused;
  let rec = s.rollouts[key];
  const events: RolloutEvent[] = [];
  if (!rec) {
    if (paused) events.push({ type: 'PAUSE' });
  } else {
    const changed = rec.templateHash !== templateHash;
    if (paused && !rec.paused) events.push({ type: 'PAUSE' });
    if (!paused && rec.paused) events.push({ type: 'RESUME' });
    if (changed) events.push({ type: 'NEW_TEMPLATE' });
  }
  const status = x.status ?? d.status ?? {};
  events.push({ type: 'SYNCED', status: rolloutSummary(x.d, status, x.lastAction) });
  const memoKey = JSON.stringify([rec ? [rec.value, rec.context] : null, events]);
  let persisted = rolloutMemo.get(memoKey);
  if (!persisted) {
    let snap: Snap = rec
      ? rolloutMachine.resolveState({ value: rec.value as never, context: rec.context })
      : initialTransition(rolloutMachine)[0];
    for (const e of events) snap = transition(rolloutMachine, snap, e)[0];
    const p = rolloutMachine.getPersistedSnapshot(snap) as unknown as { value: unknown; context: RolloutContext };
    persisted = { value: copyValue(p.value), context: copyContext(p.context) };
    if (rolloutMemo.size >= 4096) rolloutMemo.clear();
    rolloutMemo.set(memoKey, persisted);
  }
  const c = getDeploymentCondition(status, 'Progressing');
  rec = {
    value: copyValue(persisted.value),
    context: copyContext(persisted.context),
    templateHash,
    paused,
    progressing: c ? { status: c.status, reason: c.reason ?? '', message: c.message ?? '' } : null,
    newRS: findNewReplicaSet(x.d, ownedReplicaSets(s, x.d))?.metadata?.name ?? rec?.newRS ?? null,
  };
  s.rollouts[key] = rec;
}

// ---------------------------------------------------------------------------------------------
// syncDeployment

/** syncDeployment(key): deleted → paused (scale only) → scaling event → Recreate/RollingUpdate; false requeues. */
function syncDeployment(ctx: C, key: string): boolean {
  const s = ctx.state;
  const d0 = listerGet(s.dInformer, key);
  if (!d0) {
    delete s.rollouts[key];
    return true;
  }
  // A selector that selects everything would fight every other controller: refuse, as Kubernetes does.
  const sel = d0.spec?.selector;
  if (!sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)) {
    if (d0.metadata?.generation !== d0.status?.observedGeneration) {
      ctx.api.update(
        'deployments',
        { ...d0, status: { ...(d0.status ?? {}), observedGeneration: d0.metadata?.generation } },
        'status',
      );
    }
    return true;
  }
  const x: SyncCtx = { ctx, d: d0, key, lastAction: 'idle', status: null };
  const rsList = claimReplicaSets(x);
  if (!rsList) return false;
  let ok: boolean;
  if (d0.metadata?.deletionTimestamp) {
    // syncStatusOnly
    const got = getAllReplicaSetsAndSyncRevision(x, rsList, false);
    ok = got.ok && syncDeploymentStatus(x, got.newRS ? [...got.oldRSs, got.newRS] : got.oldRSs, got.newRS);
  } else {
    const paused = checkPausedConditions(x.d, rfc3339(ctx.now));
    ok = !paused || updateDeploymentStatus(x, { ...x.d, status: paused });
    if (ok) {
      if (x.d.spec?.paused) ok = syncScale(x, rsList);
      else {
        const { allOldRSs } = findOldReplicaSets(x.d, rsList);
        if (isScalingEvent(x.d, findNewReplicaSet(x.d, rsList), allOldRSs)) ok = syncScale(x, rsList);
        else if (isRollingUpdate(x.d)) ok = rolloutRolling(x, rsList);
        else ok = rolloutRecreate(x, rsList);
      }
    }
  }
  advanceRollout(s, key, d0, x);
  return ok;
}

/** The Deployment controller of kube-controller-manager. */
export const deploymentControllerDef: ComponentDef<DeploymentControllerState, DeploymentControllerEvent> = {
  name: 'deployment-controller',
  identity: () => 'deployment-controller',
  init(ctx) {
    const s: DeploymentControllerState = {
      dInformer: newInformer('deployments', 'deployments'),
      rsInformer: newInformer('replicasets', 'replicasets'),
      podInformer: newInformer('pods', 'pods'),
      queue: newWorkQueue('deployment'),
      recorder: newEventRecorder(),
      rollouts: {},
      requeueAt: {},
      workerPending: false,
    };
    ctx.state = s;
    deploymentController.run(ctx);
    return s;
  },
  handle(event, ctx) {
    const s = ctx.state;
    if (event?.type === 'deployment-requeue') {
      if (s.requeueAt[event.key] === event.at) delete s.requeueAt[event.key];
      add(s.queue, event.key);
    }
    deploymentController.handle(event, ctx, s);
  },
};
