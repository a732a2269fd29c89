// kube-controller-manager's disruption controller (pkg/controller/disruption/disruption.go, v1.37.2):
// for each PodDisruptionBudget, the pods its selector picks, how many are expected (their
// controllers' scale) and how many must stay healthy, how many are healthy (Ready, not being
// deleted, not just evicted), and so how many disruptions the eviction API may allow; written to the
// PDB's status with the DisruptionAllowed condition.
// Simplified: the real controller runs from kube-controller-manager's start; here it is in kubectl's
// lazy chunk, since only kubectl creates a PDB, and the API server's first PDB create (or eviction)
// starts it in the controller manager's process (World.startController), so its informers open their
// watches then, where the real ones open theirs at start-up. The stale-DisruptionTarget worker
// (syncStalePodDisruption) is left out: a granted eviction here always deletes the pod.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { LabelSelector, OwnerReference } from 'kubernetes-types/meta/v1';
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import { controller, type ControllerEvent } from '../client-go/controller.ts';
import {
  listerGet,
  listerList,
  metaNamespaceKey,
  newInformer,
  type EventHandlers,
  type InformerState,
} from '../client-go/informer.ts';
import { add, addAfter, newWorkQueue, rateLimiterWhen, type WorkQueue } from '../client-go/workqueue.ts';
import { KUBE_CONTROLLER_MANAGER_CLIENT } from '../client-go/flowcontrol.ts';
import { newEventRecorder, recordEvent, type EventRecorderState } from '../client-go/record.ts';
import { deepEqual, rfc3339 } from '../util/names.ts';
import { parseTime } from '../util/time.ts';
import {
  DISRUPTION_ALLOWED,
  conditionsAreUpToDate,
  selects,
  setStatusCondition,
  updateDisruptionAllowedCondition,
} from '../api/poddisruptionbudget.ts';
import { isPodReady } from './replicaset-util.ts';
import type { ComponentDef, Ctx } from '../world.ts';
import { DISRUPTION_CONTROLLER } from './names.ts';

/** DeletionTimeout: an evicted pod not deleted within 2 minutes counts again. */
const DELETION_TIMEOUT_MS = 2 * 60_000;

/** policyv1's reason when the controller could not compute the budget. */
const SYNC_FAILED = 'SyncFailed';

/** The controller's state (plain data): its informers, its work queue and its event recorder. */
export interface DisruptionControllerState {
  pdbInformer: InformerState<PodDisruptionBudget>;
  podInformer: InformerState<Pod>;
  rsInformer: InformerState<ReplicaSet>;
  dInformer: InformerState<Deployment>;
  queue: WorkQueue;
  workerPending: boolean;
  recorder: EventRecorderState;
}

type C = Ctx<DisruptionControllerState>;

/** getPdbForPod (GetPodPodDisruptionBudgets): the first PDB of the pod's namespace whose selector matches it. */
function pdbForPod(s: DisruptionControllerState, pod: Pod): PodDisruptionBudget | undefined {
  const ns = pod.metadata?.namespace;
  return listerList(
    s.pdbInformer,
    (p) => p.metadata?.namespace === ns && selects(p.spec?.selector, pod.metadata?.labels),
  )[0];
}

function enqueue(ctx: C, pdb: PodDisruptionBudget | undefined): void {
  if (pdb) add(ctx.state.queue, metaNamespaceKey(pdb), ctx.notification);
}

function pdbHandlers(ctx: C): EventHandlers<PodDisruptionBudget> {
  return { add: (p) => enqueue(ctx, p), update: (_, p) => enqueue(ctx, p), delete: (p) => enqueue(ctx, p) };
}

function podHandlers(ctx: C): EventHandlers<Pod> {
  const onPod = (p: Pod) => enqueue(ctx, pdbForPod(ctx.state, p));
  return { add: onPod, update: (_, p) => onPod(p), delete: onPod };
}

const none = (): EventHandlers<never> => ({});

const disruptionController = controller<DisruptionControllerState>({
  // WaitForNamedCacheSync(pods, pdbs, rc, rs, d, ss): the listers the sync reads.
  informers: { podInformer: podHandlers, pdbInformer: pdbHandlers, rsInformer: none, dInformer: none },
  worker: 'disruption-worker',
  sync,
});

function controllerOf(o: { metadata?: { ownerReferences?: OwnerReference[] } }): OwnerReference | undefined {
  return o.metadata?.ownerReferences?.find((r) => r.controller);
}

/** apps or extensions, as verifyGroupKind accepts them. */
function isAppsKind(ref: OwnerReference, kind: string): boolean {
  const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
  return ref.kind === kind && (group === 'apps' || group === 'extensions');
}

/**
 * The finders getExpectedScale tries in turn (getPodReplicationController, getPodDeployment,
 * getPodReplicaSet, getPodStatefulSet, getScaleController): the controlling Deployment's scale for
 * a ReplicaSet it owns, else the ReplicaSet's own. (The cluster has no ReplicationControllers,
 * StatefulSets or other scalable kinds: their finders find nothing.)
 */
function findScale(
  s: DisruptionControllerState,
  ref: OwnerReference,
  ns: string,
): { uid: string; scale: number } | undefined {
  if (!isAppsKind(ref, 'ReplicaSet')) return undefined;
  const rs = listerGet(s.rsInformer, `${ns}/${ref.name}`);
  if (!rs || rs.metadata?.uid !== ref.uid) return undefined;
  const owner = controllerOf(rs);
  if (owner?.kind === 'Deployment') {
    if (!isAppsKind(owner, 'Deployment')) return undefined;
    const d = listerGet(s.dInformer, `${ns}/${owner.name}`);
    return d && d.metadata?.uid === owner.uid ? { uid: owner.uid, scale: d.spec?.replicas ?? 1 } : undefined;
  }
  return { uid: rs.metadata.uid, scale: rs.spec?.replicas ?? 1 };
}

/** getExpectedScale: the sum of the scales of the pods' controllers; pods with none are unmanaged. */
function expectedScale(
  s: DisruptionControllerState,
  pods: Pod[],
): { expectedCount: number; unmanagedPods: string[] } | { error: string } {
  const scales = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref) {
      unmanagedPods.push(pod.metadata?.name ?? '');
      continue;
    }
    if (scales.has(ref.uid)) continue;
    const found = findScale(s, ref, pod.metadata?.namespace ?? '');
    if (!found) return { error: `found no controllers for pod "${pod.metadata?.name}"` };
    scales.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const n of scales.values()) expectedCount += n;
  return { expectedCount, unmanagedPods };
}

/** intstr.GetScaledValueFromIntOrPercent with roundUp: a percent of `total`, rounded up; an int as it is. */
export function scaledValue(v: number | string, total: number): number | { error: string } {
  if (typeof v === 'number') return v;
  const m = /^(-?\d+)%$/.exec(v);
  if (!m) return { error: `invalid value for IntOrString: invalid type: string is not a percentage` };
  return Math.ceil((Number(m[1]) * total) / 100);
}

/** getExpectedPodCount: expectedCount and desiredHealthy from maxUnavailable or minAvailable. */
export function expectedPodCount(
  s: DisruptionControllerState,
  pdb: PodDisruptionBudget,
  pods: Pod[],
): { expectedCount: number; desiredHealthy: number; unmanagedPods: string[] } | { error: string } {
  const spec = pdb.spec ?? {};
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const e = expectedScale(s, pods);
    if ('error' in e) return e;
    const max = scaledValue(spec.maxUnavailable, e.expectedCount);
    if (typeof max !== 'number') return max;
    return { ...e, desiredHealthy: Math.max(0, e.expectedCount - max) };
  }
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
    if (typeof spec.minAvailable === 'number')
      return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
    const e = expectedScale(s, pods);
    if ('error' in e) return e;
    const min = scaledValue(spec.minAvailable, e.expectedCount);
    if (typeof min !== 'number') return min;
    return { ...e, desiredHealthy: min };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

/**
 * buildDisruptedPodMap: the evicted pods (status.disruptedPods) not yet being deleted and within
 * DeletionTimeout of their eviction, and when the earliest of those times out (the recheck).
 */
function buildDisruptedPodMap(
  pods: Pod[],
  pdb: PodDisruptionBudget,
  now: number,
): { disrupted: Record<string, string>; recheckAt?: number } {
  const disruptedPods = pdb.status?.disruptedPods;
  const disrupted: Record<string, string> = {};
  let recheckAt: number | undefined;
  if (!disruptedPods) return { disrupted };
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const at = disruptedPods[pod.metadata?.name ?? ''];
    if (at === undefined) continue;
    const expectedDeletion = parseTime(at)! + DELETION_TIMEOUT_MS;
    // (The real controller also records a NotDeleted event on the pod here.)
    if (expectedDeletion < now) continue;
    if (recheckAt === undefined || expectedDeletion < recheckAt) recheckAt = expectedDeletion;
    disrupted[pod.metadata!.name!] = at;
  }
  return { disrupted, recheckAt };
}

/** countHealthyPods: Ready pods not being deleted and not just evicted. */
function countHealthyPods(pods: Pod[], disrupted: Record<string, string>, now: number): number {
  let n = 0;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const at = disrupted[pod.metadata?.name ?? ''];
    if (at !== undefined && parseTime(at)! + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) n++;
  }
  return n;
}

/** Status as the API server stores it: omitempty drops an empty disruptedPods and a zero observedGeneration. */
function statusOf(s: PodDisruptionBudgetStatus): PodDisruptionBudgetStatus {
  const out: PodDisruptionBudgetStatus = { ...s };
  if (!out.observedGeneration) delete out.observedGeneration;
  if (!out.disruptedPods || !Object.keys(out.disruptedPods).length) delete out.disruptedPods;
  if (!out.conditions?.length) delete out.conditions;
  return out;
}

/** writePdbStatus: PUT .../status; 'conflict' on a 409 (requeued without the fail-safe), an error text otherwise. */
function writeStatus(ctx: C, pdb: PodDisruptionBudget, status: PodDisruptionBudgetStatus): true | 'conflict' | string {
  const r = ctx.api.update('poddisruptionbudgets', { ...pdb, status: statusOf(status) }, 'status');
  if (r.ok) return true;
  return r.code === 409 ? 'conflict' : r.status.message;
}

/** updatePdbStatus: the new status written unless it is what the PDB already says. */
function updatePdbStatus(
  ctx: C,
  pdb: PodDisruptionBudget,
  currentHealthy: number,
  desiredHealthy: number,
  expectedCount: number,
  disrupted: Record<string, string>,
): true | 'conflict' | string {
  // expectedCount must be > 0, so a PDB whose first pods appear before its status is written is safe.
  let disruptionsAllowed = currentHealthy - desiredHealthy;
  if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const st = pdb.status;
  const generation = pdb.metadata?.generation ?? 0;
  if (
    (st?.currentHealthy ?? 0) === currentHealthy &&
    (st?.desiredHealthy ?? 0) === desiredHealthy &&
    (st?.expectedPods ?? 0) === expectedCount &&
    (st?.disruptionsAllowed ?? 0) === disruptionsAllowed &&
    deepEqual(st?.disruptedPods ?? {}, disrupted) &&
    (st?.observedGeneration ?? 0) === generation &&
    conditionsAreUpToDate(pdb)
  )
    return true;
  const status = updateDisruptionAllowedCondition(
    {
      observedGeneration: generation,
      disruptedPods: disrupted,
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy,
      expectedPods: expectedCount,
      conditions: st?.conditions,
    },
    rfc3339(ctx.now),
  );
  return writeStatus(ctx, pdb, status);
}

/** trySync: the PDB's pods, counts and status; a recheck queued for the earliest eviction that may time out. */
function trySync(ctx: C, pdb: PodDisruptionBudget): true | 'conflict' | string {
  const s = ctx.state;
  const ns = pdb.metadata?.namespace;
  const pods = listerList(
    s.podInformer,
    (p) => p.metadata?.namespace === ns && selects(pdb.spec?.selector, p.metadata?.labels),
  );
  const involved = { ...pdb, apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' };
  if (!pods.length)
    recordEvent(
      ctx,
      s.recorder,
      involved,
      'Normal',
      'NoPods',
      'No matching pods found',
      undefined,
      'controllermanager',
    );
  const e = expectedPodCount(s, pdb, pods);
  if ('error' in e) {
    recordEvent(
      ctx,
      s.recorder,
      involved,
      'Warning',
      'CalculateExpectedPodCountFailed',
      `Failed to calculate the number of expected pods: ${e.error}`,
      undefined,
      'controllermanager',
    );
    return e.error;
  }
  if (e.unmanagedPods.length) {
    recordEvent(
      ctx,
      s.recorder,
      involved,
      'Warning',
      'UnmanagedPods',
      `Pods selected by this PodDisruptionBudget (selector: ${goSelector(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      undefined,
      'controllermanager',
    );
  }
  const { disrupted, recheckAt } = buildDisruptedPodMap(pods, pdb, ctx.now);
  const currentHealthy = countHealthyPods(pods, disrupted, ctx.now);
  const r = updatePdbStatus(ctx, pdb, currentHealthy, e.desiredHealthy, e.expectedCount, disrupted);
  // enqueuePdbForRecheck: the recheck queue's AddAfter, whose worker then adds the key rate-limited.
  if (r === true && recheckAt !== undefined)
    addAfter(
      ctx,
      s.queue,
      metaNamespaceKey(pdb),
      recheckAt - ctx.now + rateLimiterWhen(s.queue, metaNamespaceKey(pdb)),
    );
  return r;
}

/** The %v of a *metav1.LabelSelector (a pointer: `&LabelSelector{…}`), as the UnmanagedPods event prints it. */
function goSelector(sel: LabelSelector | undefined): string {
  if (!sel) return '<nil>';
  const labels = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${sel.matchLabels![k]},`)
    .join('');
  const exprs = (sel.matchExpressions ?? [])
    .map((x) => `LabelSelectorRequirement{Key:${x.key},Operator:${x.operator},Values:[${(x.values ?? []).join(' ')}],}`)
    .join(',');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

/** failSafe: disruptionsAllowed 0 and the condition False/SyncFailed with the error, written as a last resort. */
function failSafe(ctx: C, pdb: PodDisruptionBudget, err: string): boolean {
  const st = pdb.status ?? { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 };
  const conditions = setStatusCondition(
    st.conditions ?? [],
    {
      type: DISRUPTION_ALLOWED,
      status: 'False',
      reason: SYNC_FAILED,
      message: err,
      observedGeneration: st.observedGeneration,
    },
    rfc3339(ctx.now),
  );
  return writeStatus(ctx, pdb, { ...st, disruptionsAllowed: 0, conditions }) === true;
}

/** sync: the PDB from the lister (gone: nothing to do); a conflict is requeued, any other failure falls back to failSafe. */
function sync(ctx: C, key: string): boolean {
  const pdb = listerGet(ctx.state.pdbInformer, key);
  if (!pdb) return true;
  const r = trySync(ctx, pdb);
  if (r === true) return true;
  if (r === 'conflict') return false;
  return failSafe(ctx, pdb, r);
}

/** The disruption controller as a component type (instance name = type name). */
export const disruptionControllerDef: ComponentDef<DisruptionControllerState, ControllerEvent<'disruption-worker'>> = {
  name: DISRUPTION_CONTROLLER,
  identity: () => DISRUPTION_CONTROLLER,
  clientLimit: KUBE_CONTROLLER_MANAGER_CLIENT,
  init(ctx) {
    ctx.state = {
      pdbInformer: newInformer('poddisruptionbudgets', 'poddisruptionbudgets'),
      podInformer: newInformer('pods', 'pods'),
      rsInformer: newInformer('replicasets', 'replicasets'),
      dInformer: newInformer('deployments', 'deployments'),
      queue: newWorkQueue('disruption'),
      workerPending: false,
      recorder: newEventRecorder(),
    };
    disruptionController.run(ctx);
    return ctx.state;
  },
  handle(event, ctx) {
    // Its process's loops have stopped (the controller manager lost its lease or was stopped): so does
    // it. The API server's next PDB create or eviction starts it again.
    if (!ctx.components?.['garbage-collector']) {
      ctx.stop(ctx.name);
      return;
    }
    disruptionController.handle(event, ctx);
  },
};
