// kube-scheduler as a component: informers feed the scheduling queue (pending pods) and the
// cache of NodeInfos (assigned pods), and scheduleOne pops one pod at a time, runs the framework
// (schedulePod), assumes the pod on the chosen node and binds it through the API server.
import type { Node, Pod, Service } from 'kubernetes-types/core/v1';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { Ctx, ComponentDef } from '../world.ts';
import {
  informerHandle,
  isInformerEvent,
  listAndWatch,
  memoHandlers,
  metaNamespaceKey,
  newInformer,
  type EventHandlers,
  type InformerEvent,
  type InformerState,
} from '../client-go/informer.ts';
import {
  type EventBroadcasterState,
  type EventBroadcasterTimer,
  eventf,
  handleBroadcasterTimer,
  newEventBroadcaster,
  startRecordingToSink,
} from '../client-go/events.ts';
import type { InvolvedObject } from '../client-go/record.ts';
import { rfc3339 } from '../util/names.ts';
import { KUBE_SCHEDULER_CLIENT } from '../client-go/flowcontrol.ts';
import type { NodeInfo } from './node-info.ts';
import { addPod, newNodeInfo, removePod, setNode } from './node-info.ts';
import type { NodeRecord } from './profile.ts';
import { failedSchedulingMessage, scheduledEventMessage, ERR_NO_NODES_AVAILABLE } from './profile.ts';
import { schedulePodFast } from './schedule-fast.ts';
import { podPriority } from './framework.ts';
import {
  FLUSH_BACKOFF_Q_INTERVAL_MS,
  FLUSH_UNSCHEDULABLE_PODS_INTERVAL_MS,
  addUnschedulableIfNotPresent,
  add as queueAdd,
  done as queueDone,
  flushBackoffQCompleted,
  flushUnschedulablePodsLeftover,
  moveAllToActiveOrBackoffQueue,
  newSchedulingQueue,
  pop as queuePop,
  remove as queueRemove,
  update as queueUpdate,
  type SchedulingQueue,
} from './scheduling-queue.ts';
import { listerCache, nodeListCache, podIndexHints } from './scheduler-cache.ts';
import {
  EVENT_ASSIGNED_POD_ADD,
  EVENT_ASSIGNED_POD_DELETE,
  EVENT_NODE_ADD,
  EVENT_NODE_DELETE,
  nodeSchedulingPropertiesChange,
  podSchedulingPropertiesChange,
  type ClusterEvent,
} from './queueing-hints.ts';

/** The profile name: what `spec.schedulerName` must say, and the events' source. */
const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** How many pods' last attempts keep their per-node verdicts for the scheduler figure. */
const DEFAULT_RECORD_PODS = 200;
/** Simulated time one scheduling cycle takes before the next pod is popped. */
const DEFAULT_CYCLE_MS = 1;

/** The last scheduling attempt of one pod, as the scheduler figure reads it. */
interface SchedulingRecord {
  /** namespace/name. */
  pod: string;
  /** Simulated ms of the attempt. */
  t: number;
  /** The chosen node, or undefined when the attempt failed. */
  node?: string;
  /** The FailedScheduling message on failure. */
  message?: string;
  numAllNodes: number;
  evaluatedNodes: number;
  feasibleNodes: number;
  /** Filter verdicts, plugin scores and totals for each node the attempt reached. */
  perNode: NodeRecord[];
}

/** Creation parameters of the scheduler instance. */
interface SchedulerParams {
  /** 0 = adaptive, as in KubeSchedulerConfiguration. */
  percentageOfNodesToScore?: number;
  /** Pods whose last attempt is kept with full per-node records (default 200). */
  recordPods?: number;
  /** ms per scheduling cycle (default 1). */
  cycleMs?: number;
  /** Name the taint in TaintToleration's reason, as v1.26–v1.34 did (default false). */
  taintReasonWithKey?: boolean;
  /** The host the process runs on: its events' reportingInstance is `default-scheduler-<hostname>` (default `control-plane`). */
  hostname?: string;
}

/** kubeadm's control-plane node, where the scheduler's static pod runs. */
const DEFAULT_HOSTNAME = 'control-plane';

/** The scheduler's whole state (plain data). */
export interface SchedulerState {
  nodes: InformerState<Node>;
  pods: InformerState<Pod>;
  services: InformerState<Service>;
  replicaSets: InformerState<ReplicaSet>;
  /** DefaultPreemption's PDB lister. */
  pdbs: InformerState<PodDisruptionBudget>;
  queue: SchedulingQueue;
  /** The scheduler cache: one NodeInfo per node, with the assigned (and assumed) pods. */
  nodeInfos: Record<string, NodeInfo>;
  /** Snapshot order of the nodes (nodeTree: zones round-robin, insertion order within a zone). */
  nodeOrder: string[];
  /** Nodes were appended to nodeOrder since it was last interleaved (see settleNodeOrder). */
  nodeOrderPending?: boolean;
  /** Bumped when the node set or order changes, so the node list is rebuilt only then. */
  nodeListVersion: number;
  /** Pod key → the node whose NodeInfo counts it. */
  podNode: Record<string, string>;
  /** Pods assumed on a node but not yet seen bound by the informer. */
  assumed: Record<string, string>;
  nextStartNodeIndex: number;
  /** A schedule-one event is queued. */
  loopPending: boolean;
  /** The events.k8s.io recorder (tools/events), reporting as the profile's scheduler name. */
  recorder: EventBroadcasterState;
  /** The queue's nominator: pod key → the node preemption nominated it to (insertion order kept). */
  nominator?: Record<string, string>;
  /** Last attempts, oldest first (at most recordPods). */
  records: { order: string[]; byKey: Record<string, SchedulingRecord> };
  /**
   * Bindings waiting on the client's rate limiter, in the order the scheduling cycles made them (the
   * binding cycles' goroutines wait in client-go's limiter while scheduling goes on).
   */
  bindings?: PendingBinding[];
}

/** prepareCandidateAsync's goroutine as an event: the API calls of one preemption. */
export interface PreemptEvent {
  type: 'preempt';
  preemptor: { key: string; uid: string; priority: number; schedulerName: string };
  node: string;
  /** Victims not yet being deleted, most important first. */
  victims: string[];
}

/** The scheduler's own timer events. */
type SchedulerEvent =
  | { type: 'schedule-one' }
  | { type: 'flush-backoff' }
  | { type: 'flush-unschedulable' }
  | PreemptEvent
  | { type: 'bind' };

/** An assumed pod whose binding waits on the scheduler's client rate limiter. */
interface PendingBinding {
  key: string;
  node: string;
  cycle: number;
  pod: Pod;
  /** The notification that woke the cycle which made it (QueuedPodInfo.cause). */
  cause?: number;
}

/** The figure's reader: the last attempt for `namespace/name`, if it is among the recorded ones. */
export function schedulingRecordOf(state: SchedulerState, key: string): SchedulingRecord | undefined {
  return state.records.byKey[key];
}

function paramsOf(ctx: Ctx<SchedulerState>): SchedulerParams {
  return (ctx.params as SchedulerParams | undefined) ?? {};
}

function podKey(p: Pod): string {
  return `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;
}

// podKey of a pod the informer just handled: its key there is the same string (ns/name) when the
// pod has a namespace, made and hashed once, so the lookups below skip building and hashing another.
function informedPodKey(p: Pod): string {
  return p.metadata?.namespace ? metaNamespaceKey(p) : podKey(p);
}

// podKey(a) === podKey(b) without building the strings (names and namespaces hold no '/').
function sameKey(a: Pod, b: Pod): boolean {
  return (
    (a.metadata?.name ?? '') === (b.metadata?.name ?? '') &&
    (a.metadata?.namespace ?? '') === (b.metadata?.namespace ?? '')
  );
}

function rememberPodIndex(key: string, i: number): void {
  if (podIndexHints.size >= 200_000) podIndexHints.clear();
  podIndexHints.set(key, i);
}
function findPodIndex(ni: NodeInfo, key: string, pod: Pod): number {
  const h = podIndexHints.get(key);
  if (h !== undefined && h < ni.pods.length && sameKey(ni.pods[h], pod)) return h;
  const i = ni.pods.findIndex((p) => sameKey(p, pod));
  if (i >= 0) rememberPodIndex(key, i);
  return i;
}

function isOurs(p: Pod): boolean {
  return (p.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME) === DEFAULT_SCHEDULER_NAME;
}

const ZONE = 'topology.kubernetes.io/zone';

// nodeTree.list: zones in the order they appeared, taking one node from each in turn.
function rebuildNodeOrder(s: SchedulerState, added: string[]): void {
  const byZone = new Map<string, string[]>();
  for (const name of added) {
    const z = s.nodeInfos[name]?.node.metadata?.labels?.[ZONE] ?? '';
    let l = byZone.get(z);
    if (!l) byZone.set(z, (l = []));
    l.push(name);
  }
  const zones = [...byZone.values()];
  const out: string[] = [];
  for (let i = 0; out.length < added.length; i++) for (const z of zones) if (i < z.length) out.push(z[i]);
  s.nodeOrder = out;
  s.nodeListVersion++;
}

// Interleaving again after appending gives what interleaving after each append would have (each
// zone keeps its order, zones keep their first appearance), so a burst of node adds interleaves
// once, when the order is next needed, instead of once per node (quadratic at start-up). A delete
// or a zone change needs the interleaved order as it stood, so it settles first.
function settleNodeOrder(s: SchedulerState): void {
  if (!s.nodeOrderPending) return;
  s.nodeOrderPending = false;
  rebuildNodeOrder(s, s.nodeOrder);
}

function nodeList(s: SchedulerState): NodeInfo[] {
  settleNodeOrder(s);
  const c = nodeListCache.get(s);
  if (c && c.version === s.nodeListVersion) return c.list;
  // Frozen: never changed in place, so the per-slot caches over it need not check that it holds.
  const list = Object.freeze(s.nodeOrder.map((n) => s.nodeInfos[n]).filter((ni): ni is NodeInfo => !!ni)) as NodeInfo[];
  nodeListCache.set(s, { version: s.nodeListVersion, list });
  return list;
}

function listers(s: SchedulerState): { services: Service[]; replicaSets: ReplicaSet[]; pdbs: PodDisruptionBudget[] } {
  const c = listerCache.get(s);
  if (
    c &&
    c.svcRv === s.services.resourceVersion &&
    c.rsRv === s.replicaSets.resourceVersion &&
    c.pdbRv === s.pdbs.resourceVersion
  )
    return c;
  const fresh = {
    svcRv: s.services.resourceVersion,
    rsRv: s.replicaSets.resourceVersion,
    pdbRv: s.pdbs.resourceVersion,
    services: Object.keys(s.services.items)
      .sort()
      .map((k) => s.services.items[k]),
    replicaSets: Object.keys(s.replicaSets.items)
      .sort()
      .map((k) => s.replicaSets.items[k]),
    pdbs: Object.keys(s.pdbs.items)
      .sort()
      .map((k) => s.pdbs.items[k]),
  };
  listerCache.set(s, fresh);
  return fresh;
}

function kick(ctx: Ctx<SchedulerState>, delayMs = 0): void {
  const s = ctx.state;
  // PopFromBackoffQ: a pod in backoffQ is also ready to pop when activeQ is empty.
  if (s.loopPending || (s.queue.activeQ.length === 0 && s.queue.backoffQ.length === 0)) return;
  s.loopPending = true;
  ctx.schedule(delayMs, { type: 'schedule-one' } satisfies SchedulerEvent);
}

// MoveAllToActiveOrBackoffQueue with the event's old and new objects, which the hints read.
function moveAll(
  ctx: Ctx<SchedulerState>,
  event: ClusterEvent,
  oldObj: Node | Pod | undefined,
  newObj: Node | Pod | undefined,
  preCheck?: (p: Pod) => boolean,
): void {
  const q = ctx.state.queue;
  // Nothing waits and nothing is in flight: no pod could be moved, and no attempt needs the event.
  if (Object.keys(q.unschedulablePods).length === 0 && Object.keys(q.inFlight).length === 0) return;
  moveAllToActiveOrBackoffQueue(q, event, oldObj, newObj, ctx.now, preCheck);
  kick(ctx);
}

// A pending pod's nomination gone (deleted, or nominated elsewhere) frees what lower or equal
// priority pods counted as taken: an AssignedPodDelete for them (getLEPriorityPreCheck).
function nominationGone(ctx: Ctx<SchedulerState>, pod: Pod): void {
  const prio = pod.spec?.priority ?? 0;
  moveAll(ctx, EVENT_ASSIGNED_POD_DELETE, pod, undefined, (p) => (p.spec?.priority ?? 0) <= prio);
}

// ------------------------------------------------------------------ nominator

// addNominatedPodUnlocked: '' clears; undefined (a nil NominatingInfo, ModeNoop) takes the pod's own
// status.nominatedNodeName; an assigned or vanished pod is never nominated.
function addNominatedPod(s: SchedulerState, key: string, pod: Pod, override?: string): void {
  const nom = (s.nominator ??= {});
  delete nom[key];
  const node = override ?? pod.status?.nominatedNodeName ?? '';
  const cur = s.pods.items[key];
  if (node === '' || !cur || cur.spec?.nodeName) return;
  nom[key] = node;
}

// updateNominatedPodUnlocked: an update that neither sets nor clears the field keeps the nomination
// (the scheduler's own status patch may not have arrived yet).
function updateNominatedPod(s: SchedulerState, key: string, old: Pod, pod: Pod): void {
  const kept = !old.status?.nominatedNodeName && !pod.status?.nominatedNodeName ? s.nominator?.[key] : undefined;
  addNominatedPod(s, key, pod, kept);
}

function deleteNominatedPodIfExists(s: SchedulerState, key: string): void {
  if (s.nominator?.[key] !== undefined) delete s.nominator[key];
}

// NominatedPodsForNode for every node, in the order the pods were nominated; undefined when none are.
function nominatedPodsByNode(s: SchedulerState): Record<string, Pod[]> | undefined {
  const nom = s.nominator;
  if (!nom) return undefined;
  let out: Record<string, Pod[]> | undefined;
  for (const key of Object.keys(nom)) {
    const p = s.pods.items[key];
    if (p) ((out ??= {})[nom[key]] ??= []).push(p);
  }
  return out;
}

// ------------------------------------------------------------------ cache (assigned pods)

function countPod(s: SchedulerState, pod: Pod, key = podKey(pod)): boolean {
  const node = pod.spec?.nodeName;
  const ni = node ? s.nodeInfos[node] : undefined;
  if (!ni) return false;
  addPod(ni, pod);
  // AddPod appends: remember where, so the pod's next update finds it without a scan.
  rememberPodIndex(key, ni.pods.length - 1);
  s.podNode[key] = node!;
  return true;
}

function uncountPod(s: SchedulerState, key: string, pod: Pod): void {
  const node = s.podNode[key];
  if (node === undefined) return;
  const ni = s.nodeInfos[node];
  if (ni) removePod(ni, pod);
  delete s.podNode[key];
  podIndexHints.delete(key);
}

// What the plugins read from a node: labels (and name, the key), taints, unschedulable, allocatable.
function samePluginInputs(a: Node, b: Node): boolean {
  const same = <T>(x: T, y: T) => x === y || JSON.stringify(x) === JSON.stringify(y);
  return (
    a.spec?.unschedulable === b.spec?.unschedulable &&
    same(a.metadata?.labels, b.metadata?.labels) &&
    same(a.spec?.taints, b.spec?.taints) &&
    same(a.status?.allocatable, b.status?.allocatable)
  );
}

function nodeHandlers(ctx: Ctx<SchedulerState>): EventHandlers<Node> {
  const s = ctx.state;
  return {
    add(node) {
      const name = node.metadata?.name ?? '';
      // Stored objects are immutable (copy on write), so the NodeInfo shares the informer's node.
      s.nodeInfos[name] = newNodeInfo(node);
      // Pods bound to the node before the scheduler saw it.
      for (const k of Object.keys(s.pods.items).sort()) {
        const p = s.pods.items[k];
        if (p.spec?.nodeName === name && s.podNode[k] === undefined) countPod(s, p);
      }
      for (const [k, n] of Object.entries(s.assumed)) if (n === name && s.podNode[k] === undefined) delete s.assumed[k];
      s.nodeOrder.push(name);
      s.nodeOrderPending = true;
      s.nodeListVersion++;
      moveAll(ctx, EVENT_NODE_ADD, undefined, node);
    },
    update(old, node) {
      const ni = s.nodeInfos[node.metadata?.name ?? ''];
      if (!ni) return;
      const zoneMoved = (old.metadata?.labels?.[ZONE] ?? '') !== (node.metadata?.labels?.[ZONE] ?? '');
      if (zoneMoved) settleNodeOrder(s);
      // A status heartbeat leaves what the plugins read alone: swap the object, keep the
      // generation, so no verdict cached on the node is thrown away.
      if (samePluginInputs(ni.node, node)) ni.node = node;
      else setNode(ni, node);
      if (zoneMoved) rebuildNodeOrder(s, s.nodeOrder);
      // Only requeue unschedulable pods if the node became more schedulable (one event per kind of change).
      for (const evt of nodeSchedulingPropertiesChange(node, old)) moveAll(ctx, evt, old, node);
    },
    delete(node) {
      const name = node.metadata?.name ?? '';
      const ni = s.nodeInfos[name];
      moveAll(ctx, EVENT_NODE_DELETE, node, undefined);
      if (ni) for (const p of ni.pods) delete s.podNode[podKey(p)];
      settleNodeOrder(s);
      delete s.nodeInfos[name];
      rebuildNodeOrder(
        s,
        s.nodeOrder.filter((n) => n !== name),
      );
    },
  };
}

function podHandlers(ctx: Ctx<SchedulerState>): EventHandlers<Pod> {
  const s = ctx.state;
  const onPod = (old: Pod | undefined, pod: Pod) => {
    const key = informedPodKey(pod);
    if (pod.spec?.nodeName) {
      // Assigned: it belongs to the cache, never to the queue (nor the nominator).
      if (s.queue.where[key]) queueRemove(s.queue, pod, key);
      deleteNominatedPodIfExists(s, key);
      const counted = s.podNode[key];
      if (counted !== undefined) {
        // Confirm an assumed pod, or take a newer copy of a bound one (labels, deletionTimestamp).
        const ni = s.nodeInfos[counted];
        const i = ni ? findPodIndex(ni, key, pod) : -1;
        const prev = i >= 0 ? ni.pods[i] : undefined;
        const wasAssumed = s.assumed[key] !== undefined;
        if (wasAssumed) delete s.assumed[key];
        // The binding's confirmation is, for the informer, the pod's arrival among assigned pods.
        const bound = !old?.spec?.nodeName;
        if (prev && counted === pod.spec.nodeName && sameForScheduling(prev, pod)) {
          // Status-only change (the kubelet's updates, the binding's confirmation): swap the object,
          // keep the totals and the NodeInfo generation, so no cache built on it is invalidated.
          ni.pods[i] = pod;
          if (bound) moveAll(ctx, EVENT_ASSIGNED_POD_ADD, undefined, pod);
          return;
        }
        uncountPod(s, key, prev ?? pod);
        countPod(s, pod, key);
        if (bound) moveAll(ctx, EVENT_ASSIGNED_POD_ADD, undefined, pod);
        else if (old) for (const evt of podSchedulingPropertiesChange(pod, old, false)) moveAll(ctx, evt, old, pod);
      } else if (countPod(s, pod, key)) {
        delete s.assumed[key];
        moveAll(ctx, EVENT_ASSIGNED_POD_ADD, undefined, pod);
      }
      return;
    }
    if (!isOurs(pod) || s.assumed[key] !== undefined) return;
    if (pod.metadata?.deletionTimestamp) {
      if (s.queue.where[key]) queueRemove(s.queue, pod, key);
      deleteNominatedPodIfExists(s, key);
      return;
    }
    // The queue's Add and Update keep the nominator in step (nominator.go).
    if (old) updateNominatedPod(s, key, old, pod);
    else addNominatedPod(s, key, pod);
    // SchedulingGates keep a pod out of activeQ until they are removed (PreEnqueue).
    if ((pod.spec?.schedulingGates ?? []).length > 0) return;
    // Update asks the rejecting plugins' hints whether the change may help (a status patch cannot).
    if (old) queueUpdate(s.queue, old, pod, ctx.now, key);
    else queueAdd(s.queue, pod, ctx.now, key, ctx.notification);
    if (old?.status?.nominatedNodeName && old.status.nominatedNodeName !== pod.status?.nominatedNodeName)
      nominationGone(ctx, old);
    kick(ctx);
  };
  return {
    add: (pod) => onPod(undefined, pod),
    update: (old, pod) => onPod(old, pod),
    delete(pod) {
      const key = informedPodKey(pod);
      if (s.queue.where[key]) queueRemove(s.queue, pod, key);
      deleteNominatedPodIfExists(s, key);
      delete s.assumed[key];
      if (s.podNode[key] !== undefined) {
        const ni = s.nodeInfos[s.podNode[key]];
        const prev = ni?.pods.find((p) => sameKey(p, pod)) ?? pod;
        uncountPod(s, key, prev);
        moveAll(ctx, EVENT_ASSIGNED_POD_DELETE, pod, undefined);
      } else if (pod.status?.nominatedNodeName && isOurs(pod)) {
        nominationGone(ctx, pod);
      }
    },
  };
}

// What NodeInfo and the plugins read from an assigned pod: requests and ports (spec containers),
// labels, namespace and deletionTimestamp. The API server's copies share unchanged spec parts.
function sameForScheduling(a: Pod, b: Pod): boolean {
  const ma = a.metadata ?? {};
  const mb = b.metadata ?? {};
  if (ma.namespace !== mb.namespace || ma.deletionTimestamp !== mb.deletionTimestamp || ma.uid !== mb.uid) return false;
  if (ma.labels !== mb.labels && JSON.stringify(ma.labels ?? {}) !== JSON.stringify(mb.labels ?? {})) return false;
  const sa = a.spec ?? { containers: [] };
  const sb = b.spec ?? { containers: [] };
  if (sa === sb) return true;
  const same = <T>(x: T, y: T) => x === y || JSON.stringify(x) === JSON.stringify(y);
  return (
    same(sa.containers, sb.containers) && same(sa.initContainers, sb.initContainers) && same(sa.overhead, sb.overhead)
  );
}

// ------------------------------------------------------------------ scheduleOne

function keepRecord(ctx: Ctx<SchedulerState>, rec: SchedulingRecord): void {
  const r = ctx.state.records;
  const limit = paramsOf(ctx).recordPods ?? DEFAULT_RECORD_PODS;
  if (r.byKey[rec.pod]) r.order.splice(r.order.indexOf(rec.pod), 1);
  r.byKey[rec.pod] = rec;
  r.order.push(rec.pod);
  while (r.order.length > limit) delete r.byKey[r.order.shift()!];
}

function scheduleOne(ctx: Ctx<SchedulerState>): void {
  const s = ctx.state;
  const p = paramsOf(ctx);
  const info = queuePop(s.queue, ctx.now);
  if (!info) return;
  // The pod's add woke this first attempt: its requests are noted as caused by that notification
  // (a later attempt, after a backoff or another event, is not). The world clears Ctx.cause after the event.
  const cause = info.cause;
  if (cause !== undefined) {
    info.cause = undefined;
    ctx.cause = cause;
  } // (assigned, not deleted: the heap's objects keep one shape)
  const key = info.key;
  const pod = s.pods.items[key];
  // skipPodSchedule: deleted, being deleted, or bound meanwhile.
  if (!pod || pod.spec?.nodeName || pod.metadata?.deletionTimestamp) {
    queueDone(s.queue, key);
    return;
  }
  const cycle = s.queue.schedulingCycle;
  const nodes = nodeList(s);
  const limit = p.recordPods ?? DEFAULT_RECORD_PODS;
  // Only the last `limit` pods of a burst can end up in the records: spare the others the per-node objects.
  const full = limit > 0 && s.queue.activeQ.length + s.queue.backoffQ.length + s.queue.errorBackoffQ.length < limit;
  const r = schedulePodFast(pod, nodes, ctx.rng, {
    percentageOfNodesToScore: p.percentageOfNodesToScore ?? 0,
    nextStartNodeIndex: s.nextStartNodeIndex,
    listers: listers(s),
    taintReasonWithKey: p.taintReasonWithKey ?? false,
    record: full ? 'full' : 'none',
    now: ctx.now,
    nominatedPods: nominatedPodsByNode(s),
    preemptionEvaluator: ctx.parts?.preemption,
  });
  s.nextStartNodeIndex = r.nextStartNodeIndex;
  const base = {
    pod: key,
    t: ctx.now,
    numAllNodes: nodes.length,
    evaluatedNodes: r.evaluatedNodes,
    feasibleNodes: r.feasibleNodes,
    perNode: r.perNode,
  };

  if ('node' in r.result) {
    const node = r.result.node;
    if (full) keepRecord(ctx, { ...base, node });
    // assume: the pod occupies the node in the cache before the binding is confirmed.
    const assumed: Pod = { ...pod, spec: { ...pod.spec!, nodeName: node } };
    countPod(s, assumed, key);
    s.assumed[key] = node;
    // assume: the pod leaves the nominator (DeleteNominatedPodIfExists).
    deleteNominatedPodIfExists(s, key);
    // The binding waits behind earlier ones, or for a token of the client.
    const pending: PendingBinding = cause === undefined ? { key, node, cycle, pod } : { key, node, cycle, pod, cause };
    if (s.bindings?.length) s.bindings.push(pending);
    else {
      const wait = ctx.throttle();
      if (wait === 0) bindPod(ctx, key, node, cycle, pod);
      else {
        s.bindings = [pending];
        ctx.schedule(wait, { type: 'bind' } satisfies SchedulerEvent);
      }
    }
  } else {
    const fe = r.result.fitError;
    const message = fe.numAllNodes === 0 ? ERR_NO_NODES_AVAILABLE : failedSchedulingMessage(fe);
    if (full || s.records.byKey[key]) keepRecord(ctx, { ...base, message });
    // SchedulerAsyncPreemption (beta, on since 1.33): PostFilter starts the victims' API calls in a
    // goroutine and returns, so the failure handling below runs alongside them. Here the goroutine is
    // an event at the same simulated time, after this cycle's own calls (see NOTES.md).
    if (fe.preemption) startPreemption(ctx, pod, fe.preemption.node, fe.preemption.victims);
    addUnschedulableIfNotPresent(s.queue, info, cycle, fe.unschedulablePlugins, ctx.now);
    addNominatedPod(s, key, pod, fe.nominatedNodeName);
    recordSchedulerEvent(ctx, pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', message);
    // No nodes at all is an error, not a rejection: reason SchedulerError.
    patchPodScheduledFalse(
      ctx,
      pod,
      fe.numAllNodes === 0 ? 'SchedulerError' : 'Unschedulable',
      message,
      fe.nominatedNodeName,
    );
  }
}

// prepareCandidateAsync, its synchronous part: victims already being deleted get no API call, and
// with none left no goroutine starts.
function startPreemption(ctx: Ctx<SchedulerState>, preemptor: Pod, node: string, victims: Pod[]): void {
  const keys = victims.filter((v) => !v.metadata?.deletionTimestamp).map((v) => podKey(v));
  if (keys.length === 0) return;
  const ev: PreemptEvent = {
    type: 'preempt',
    preemptor: {
      key: podKey(preemptor),
      uid: preemptor.metadata?.uid ?? '',
      priority: podPriority(preemptor),
      schedulerName: preemptor.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME,
    },
    node,
    victims: keys,
  };
  ctx.schedule(0, ev);
}

// The binding cycle's bind (DefaultBinder): confirmed, or ForgetPod and handleSchedulingFailure.
function bindPod(ctx: Ctx<SchedulerState>, key: string, node: string, cycle: number, pod: Pod): void {
  const s = ctx.state;
  const res = ctx.api.bind(pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '', node);
  if (res.ok) {
    queueDone(s.queue, key);
    // Scheduled events never repeat for a pod: keep them out of the aggregation memory.
    eventf(ctx, s.recorder, pod, undefined, 'Normal', 'Scheduled', 'Binding', scheduledEventMessage(pod, node), true);
    return;
  }
  // ForgetPod (unless the pod's deletion, seen while the binding waited, has done it), then the
  // binding error goes through handleSchedulingFailure (backoff).
  if (s.assumed[key] === node) {
    uncountPod(s, key, { ...pod, spec: { ...pod.spec!, nodeName: node } });
    delete s.assumed[key];
  }
  const info = s.queue.inFlight[key];
  if (res.code === 404 || res.code === 409 || !info) queueDone(s.queue, key);
  else addUnschedulableIfNotPresent(s.queue, info, cycle, [], ctx.now);
  recordSchedulerEvent(
    ctx,
    pod,
    undefined,
    'Warning',
    'FailedScheduling',
    'Scheduling',
    `running Bind plugin "DefaultBinder": ${res.status.message ?? ''}`,
  );
}

// The waiting bindings, in order, as the client's tokens come.
function bindWaiting(ctx: Ctx<SchedulerState>): void {
  const q = ctx.state.bindings;
  while (q?.length) {
    const wait = ctx.throttle();
    if (wait > 0) {
      ctx.schedule(wait, { type: 'bind' } satisfies SchedulerEvent);
      return;
    }
    const b = q.shift()!;
    ctx.cause = b.cause;
    bindPod(ctx, b.key, b.node, b.cycle, b.pod);
    ctx.cause = undefined;
  }
  delete ctx.state.bindings;
}

/**
 * fwk.EventRecorder().Eventf(regarding, related, type, reason, action, note): an events.k8s.io/v1
 * Event from `default-scheduler` (a repeat becomes a series).
 */
export function recordSchedulerEvent(
  ctx: Ctx<SchedulerState>,
  regarding: InvolvedObject,
  related: InvolvedObject | undefined,
  type: 'Normal' | 'Warning',
  reason: string,
  action: string,
  note: string,
): void {
  eventf(ctx, ctx.state.recorder, regarding, related, type, reason, action, note);
}

// updatePod: PATCH pods/{name}/status only when the condition actually changes (UpdatePodCondition).
// updatePod: PATCH pods/{name}/status only when the condition changes (UpdatePodCondition) or the
// nomination does (a ModeOverride NominatingInfo naming another node than the pod's).
// The condition carries the pod's generation (CalculatePodConditionObservedGeneration, with
// PodObservedGenerationTracking on by default since 1.34), and a new generation is a change.
function patchPodScheduledFalse(
  ctx: Ctx<SchedulerState>,
  pod: Pod,
  reason: string,
  message: string,
  nominatedNodeName?: string,
): void {
  const cur = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
  const observedGeneration = pod.metadata?.generation;
  const conditionNeedsUpdate = !(
    cur &&
    cur.status === 'False' &&
    cur.reason === reason &&
    cur.message === message &&
    (cur as { observedGeneration?: number }).observedGeneration === observedGeneration
  );
  const nnnNeedsUpdate = nominatedNodeName !== undefined && (pod.status?.nominatedNodeName ?? '') !== nominatedNodeName;
  if (!conditionNeedsUpdate && !nnnNeedsUpdate) return;
  const lastTransitionTime =
    cur && cur.status === 'False' && cur.lastTransitionTime ? cur.lastTransitionTime : rfc3339(ctx.now);
  const status: Record<string, unknown> = {};
  if (conditionNeedsUpdate)
    status.conditions = [
      {
        type: 'PodScheduled',
        ...(observedGeneration ? { observedGeneration } : {}),
        status: 'False',
        reason,
        message,
        lastProbeTime: null,
        lastTransitionTime,
      },
    ];
  if (nnnNeedsUpdate) status.nominatedNodeName = nominatedNodeName === '' ? null : nominatedNodeName;
  ctx.api.patch('pods', pod.metadata?.namespace, pod.metadata?.name ?? '', { status }, 'status');
}

/** The scheduler's pod informer's field selector (scheduler.go newPodInformer). */
const NON_TERMINAL_PODS = 'status.phase!=Succeeded,status.phase!=Failed';

/** kube-scheduler: instance `scheduler`, authenticating as system:kube-scheduler. */
export const schedulerDef: ComponentDef<SchedulerState, InformerEvent | EventBroadcasterTimer | SchedulerEvent> = {
  name: 'scheduler',
  clientLimit: KUBE_SCHEDULER_CLIENT,
  init(ctx) {
    const s: SchedulerState = {
      nodes: newInformer('nodes', 'nodes'),
      // NewInformerFactory's pod informer: only pods that are not yet terminal (a pod turning
      // Succeeded or Failed leaves it, as a deletion: its resources are free again).
      pods: newInformer('pods', 'pods', { fieldSelector: NON_TERMINAL_PODS }),
      services: newInformer('services', 'services'),
      replicaSets: newInformer('replicasets', 'replicasets'),
      // DefaultPreemption asks the informer factory for a PDB lister at start-up, so the real
      // scheduler watches PodDisruptionBudgets from the start, preemption or not.
      pdbs: newInformer('poddisruptionbudgets', 'poddisruptionbudgets'),
      queue: newSchedulingQueue(),
      nodeInfos: {},
      nodeOrder: [],
      nodeListVersion: 0,
      podNode: {},
      assumed: {},
      nextStartNodeIndex: 0,
      loopPending: false,
      recorder: newEventBroadcaster(DEFAULT_SCHEDULER_NAME, paramsOf(ctx).hostname ?? DEFAULT_HOSTNAME),
      nominator: {},
      records: { order: [], byKey: {} },
    };
    ctx.state = s;
    // Nodes first, so the pods' initial list lands in existing NodeInfos.
    listAndWatch(ctx, s.nodes, memoHandlers(ctx, nodeHandlers));
    listAndWatch(ctx, s.services);
    listAndWatch(ctx, s.replicaSets);
    listAndWatch(ctx, s.pdbs);
    listAndWatch(ctx, s.pods, memoHandlers(ctx, podHandlers));
    ctx.schedule(FLUSH_BACKOFF_Q_INTERVAL_MS, { type: 'flush-backoff' } satisfies SchedulerEvent, { recurring: true });
    startRecordingToSink(ctx);
    ctx.schedule(FLUSH_UNSCHEDULABLE_PODS_INTERVAL_MS, { type: 'flush-unschedulable' } satisfies SchedulerEvent, {
      recurring: true,
    });
    return s;
  },
  handle(event, ctx) {
    const s = ctx.state;
    if (isInformerEvent(event)) {
      if (informerHandle(ctx, s.pods, event, memoHandlers(ctx, podHandlers))) return;
      if (informerHandle(ctx, s.nodes, event, memoHandlers(ctx, nodeHandlers))) return;
      if (informerHandle(ctx, s.services, event)) return;
      if (informerHandle(ctx, s.replicaSets, event)) return;
      if (informerHandle(ctx, s.pdbs, event)) return;
    }
    if (handleBroadcasterTimer(ctx, s.recorder, event)) return;
    switch (event?.type) {
      case 'schedule-one':
        s.loopPending = false;
        scheduleOne(ctx);
        kick(ctx, paramsOf(ctx).cycleMs ?? DEFAULT_CYCLE_MS);
        break;
      case 'bind':
        bindWaiting(ctx);
        break;
      case 'flush-backoff':
        flushBackoffQCompleted(s.queue, ctx.now);
        ctx.schedule(FLUSH_BACKOFF_Q_INTERVAL_MS, event, { recurring: true });
        kick(ctx);
        break;
      case 'preempt':
        // Only a candidate the evaluator found schedules this event, so the world has the part.
        ctx.parts!.preemption!.runPreemption(ctx, event);
        break;
      case 'flush-unschedulable':
        flushUnschedulablePodsLeftover(s.queue, ctx.now);
        ctx.schedule(FLUSH_UNSCHEDULABLE_PODS_INTERVAL_MS, event, { recurring: true });
        kick(ctx);
        break;
      // The informers' and the event broadcaster's own events, handled above.
      default:
        break;
    }
  },
};
