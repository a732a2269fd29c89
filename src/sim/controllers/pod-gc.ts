// kube-controller-manager's pod garbage collector (pkg/controller/podgc): every 20 s it looks for
// pods the rest of the cluster will never finish. A pod bound to a Node that no longer exists is,
// after a 40 s quarantine and a live GET that confirms the Node is gone, marked Failed with the
// DisruptionTarget condition (DeletionByPodGC) and force-deleted, so its ReplicaSet replaces it. A
// pod being deleted on a node that is not Ready and carries the out-of-service taint (put there by
// hand after a non-graceful shutdown) is marked Failed and force-deleted. A pod being deleted that
// was never scheduled is force-deleted at once. Past 12,500 terminated pods (--terminated-pod-gc-threshold,
// the `terminatedPodGCThreshold` param), the excess is deleted, evicted pods first, then the oldest.
import type { Node, Pod, PodCondition, PodStatus, Taint } from 'kubernetes-types/core/v1';
import {
  SYNCED_POLL_PERIOD_MS,
  informerHandle,
  listAndWatch,
  listerGet,
  listerList,
  newInformer,
  type InformerEvent,
  type InformerState,
} from '../client-go/informer.ts';
import { rfc3339 } from '../util/names.ts';
import type { ComponentDef, Ctx } from '../world.ts';

/** Component name (service account pod-garbage-collector). */
export const POD_GARBAGE_COLLECTOR = 'pod-garbage-collector';
/** gcCheckPeriod: one pass every 20 s. */
export const GC_CHECK_PERIOD_MS = 20_000;
/** quarantineTime: a Node must stay missing this long before its pods are collected. */
export const QUARANTINE_MS = 40_000;
/** --terminated-pod-gc-threshold default. */
const TERMINATED_POD_GC_THRESHOLD = 12_500;
/** v1.TaintNodeOutOfService: an operator's word that the node is shut down and its pods may go. */
export const TaintNodeOutOfService = 'node.kubernetes.io/out-of-service';

/** The collector's flags (component params). */
interface PodGCParams {
  /** --terminated-pod-gc-threshold (0 turns the terminated-pod pass off). */
  terminatedPodGCThreshold?: number;
}

/** The collector's state (plain data). */
interface PodGCState {
  pods: InformerState<Pod>;
  nodes: InformerState<Node>;
  /** nodeQueue: a missing node name → when its quarantine ends (simulated ms). */
  quarantine: Record<string, number>;
}

// A stopped controller-manager's queued ticks are dropped with it, so a tick needs no incarnation tag.
type Tick = { type: 'podgc-tick' };

function byName(pods: Pod[]): Pod[] {
  const key = (p: Pod) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;
  return pods.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function isTerminated(p: Pod): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}

/** isPodTerminating: the pod has a deletionTimestamp (whatever its phase). */
export function isPodTerminating(pod: Pod): boolean {
  return !!pod.metadata?.deletionTimestamp;
}

/** nodeutil.IsNodeReady: the Ready condition is True (a node without one is not ready). */
export function isNodeReady(node: Node): boolean {
  const c = node.status?.conditions?.find((x) => x.type === 'Ready');
  return c?.status === 'True';
}

/** taints.TaintKeyExists: any taint with this key, whatever its value and effect. */
export function taintKeyExists(taints: Taint[] | undefined, key: string): boolean {
  return (taints ?? []).some((t) => t.key === key);
}

/** eviction.PodIsEvicted: Failed with reason Evicted (the kubelet's own eviction). */
export function podIsEvicted(status: PodStatus | undefined): boolean {
  return status?.phase === 'Failed' && status.reason === 'Evicted';
}

/** byEvictionAndCreationTimestamp's Less as a comparator: evicted first, then oldest, then by name. */
export function byEvictionAndCreationTimestamp(a: Pod, b: Pod): number {
  const ae = podIsEvicted(a.status);
  if (ae !== podIsEvicted(b.status)) return ae ? -1 : 1;
  // creationTimestamp is RFC 3339 in UTC at second precision: string order is time order.
  const at = a.metadata?.creationTimestamp ?? '';
  const bt = b.metadata?.creationTimestamp ?? '';
  if (at !== bt) return at < bt ? -1 : 1;
  const an = a.metadata?.name ?? '';
  const bn = b.metadata?.name ?? '';
  if (an !== bn) return an < bn ? -1 : 1;
  // Go compares names only (and sorts unstably); the namespace makes the order total.
  const ans = a.metadata?.namespace ?? '';
  const bns = b.metadata?.namespace ?? '';
  return ans < bns ? -1 : ans > bns ? 1 : 0;
}

/**
 * gcTerminating's choice: terminating pods whose node (from the lister) is not Ready and has the
 * out-of-service taint, in byEvictionAndCreationTimestamp order. A pod whose node the lister does
 * not know (unscheduled, or the Node deleted) is skipped: the other passes deal with those.
 */
export function terminatingPodsOnOutOfServiceNodes(pods: Pod[], getNode: (name: string) => Node | undefined): Pod[] {
  const out: Pod[] = [];
  for (const p of pods) {
    if (!isPodTerminating(p)) continue;
    const node = getNode(p.spec?.nodeName ?? '');
    if (!node) continue;
    if (!isNodeReady(node) && taintKeyExists(node.spec?.taints, TaintNodeOutOfService)) out.push(p);
  }
  return out.sort(byEvictionAndCreationTimestamp);
}

/** markFailedAndDeletePodWithCondition: status Failed (+ condition) through /status, then DELETE with grace 0. */
function markFailedAndDelete(ctx: Ctx<PodGCState>, pod: Pod, condition?: PodCondition): boolean {
  const ns = pod.metadata?.namespace;
  const name = pod.metadata?.name ?? '';
  if (!isTerminated(pod)) {
    const conditions = (pod.status?.conditions ?? []).filter((c) => !condition || c.type !== condition.type);
    if (condition) conditions.push(condition);
    const status: Record<string, unknown> = { phase: 'Failed' };
    if (condition) status.conditions = conditions;
    const r = ctx.api.patch('pods', ns, name, { metadata: { uid: pod.metadata?.uid }, status }, 'status');
    if (!r.ok) return r.code === 404;
  }
  const d = ctx.api.delete('pods', ns, name, { gracePeriodSeconds: 0 });
  return d.ok || d.code === 404;
}

/** gcTerminated: past the threshold, delete the terminated pods in excess, evicted ones first, then the oldest. */
function gcTerminated(ctx: Ctx<PodGCState>, pods: Pod[], threshold: number): void {
  const terminated = pods.filter(isPodTerminated);
  const excess = terminated.length - threshold;
  if (excess <= 0) return;
  terminated.sort(byEvictionAndCreationTimestamp);
  for (const p of terminated.slice(0, excess)) markFailedAndDelete(ctx, p);
}

/**
 * podgc's isPodTerminated: any phase but Pending, Running and Unknown (so Succeeded and Failed), whether
 * or not the pod is being deleted.
 */
export function isPodTerminated(p: Pod): boolean {
  const phase = p.status?.phase ?? '';
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

/**
 * gcTerminating: after a non-graceful shutdown, pods stay Terminating because no kubelet confirms;
 * once an operator has tainted the node out-of-service, they are failed and force-deleted (no
 * condition), so replacements can take over their volumes.
 */
function gcTerminating(ctx: Ctx<PodGCState>, pods: Pod[]): void {
  const nodes = ctx.state.nodes;
  // Kubernetes runs these concurrently, one goroutine per pod; here they go in sorted order.
  for (const p of terminatingPodsOnOutOfServiceNodes(pods, (name) => (name ? listerGet(nodes, name) : undefined)))
    markFailedAndDelete(ctx, p);
}

/** gcOrphaned: pods on nodes missing for a whole quarantine (and confirmed by a GET) are collected. */
function gcOrphaned(ctx: Ctx<PodGCState>, pods: Pod[]): void {
  const s = ctx.state;
  const existing = new Set(listerList(s.nodes).map((n) => n.metadata?.name ?? ''));
  for (const p of pods) {
    const node = p.spec?.nodeName;
    if (node && !existing.has(node) && s.quarantine[node] === undefined) s.quarantine[node] = ctx.now + QUARANTINE_MS;
  }
  const deleted = new Set<string>();
  for (const node of Object.keys(s.quarantine).sort()) {
    if (s.quarantine[node] > ctx.now) continue;
    delete s.quarantine[node];
    if (existing.has(node)) continue;
    const got = ctx.api.get('nodes', undefined, node);
    if (!got.ok && got.code === 404) deleted.add(node);
  }
  if (!deleted.size) return;
  for (const p of byName(pods.filter((x) => deleted.has(x.spec?.nodeName ?? '')))) {
    markFailedAndDelete(ctx, p, {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists',
      lastTransitionTime: rfc3339(ctx.now),
    });
  }
}

/** gcUnscheduledTerminating: a pod marked for deletion that never reached a node: no kubelet will finish it. */
function gcUnscheduledTerminating(ctx: Ctx<PodGCState>, pods: Pod[]): void {
  for (const p of byName(pods.filter((x) => x.metadata?.deletionTimestamp && !x.spec?.nodeName)))
    markFailedAndDelete(ctx, p);
}

/** One gc pass, in the controller's order. */
function gc(ctx: Ctx<PodGCState>): void {
  // The cache in the order it was filled (a pass over a big cluster needs no sort); the pods acted
  // on are few, and each step takes them in name order.
  const pods = Object.values(ctx.state.pods.items);
  const threshold = (ctx.params as PodGCParams | undefined)?.terminatedPodGCThreshold ?? TERMINATED_POD_GC_THRESHOLD;
  if (threshold > 0) gcTerminated(ctx, pods, threshold);
  gcTerminating(ctx, pods);
  gcOrphaned(ctx, pods);
  gcUnscheduledTerminating(ctx, pods);
}

/** The pod garbage collector, instance `pod-garbage-collector` in kube-controller-manager. */
export const podGCDef: ComponentDef<PodGCState, InformerEvent | Tick> = {
  name: POD_GARBAGE_COLLECTOR,
  init(ctx) {
    const s: PodGCState = { pods: newInformer('pods', 'pods'), nodes: newInformer('nodes', 'nodes'), quarantine: {} };
    ctx.state = s;
    listAndWatch(ctx, s.nodes);
    listAndWatch(ctx, s.pods);
    // wait.UntilWithContext: the first pass at once, then one every period.
    ctx.schedule(0, { type: 'podgc-tick' } satisfies Tick, { recurring: true });
    return s;
  },
  handle(event, ctx) {
    const s = ctx.state;
    if (informerHandle(ctx, s.pods, event) || informerHandle(ctx, s.nodes, event)) return;
    if (event?.type !== 'podgc-tick') return;
    // WaitForNamedCacheSync before the first pass: it looks again every 100 ms (hasSynced stays true once set).
    if (!s.pods.hasSynced || !s.nodes.hasSynced) {
      ctx.schedule(SYNCED_POLL_PERIOD_MS, event, { recurring: true });
      return;
    }
    ctx.schedule(GC_CHECK_PERIOD_MS, event, { recurring: true });
    gc(ctx);
  },
};
