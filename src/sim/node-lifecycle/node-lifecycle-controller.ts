// The node-lifecycle controller (pkg/controller/nodelifecycle) as a component: informers on nodes,
// kube-node-lease Leases and pods; monitorNodeHealth every node-monitor-period over the caches; the
// NoSchedule pass on node updates; the rate-limited per-zone NoExecute taint queue; MarkPodsNotReady.
// Every decision comes from the pure modules beside it (node-health, zones, taints); this file only
// turns them into the same API requests the real controller sends.
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { ApiResult } from '../api/request.ts';
import { transition, initialTransition } from 'xstate';
import {
  SYNCED_POLL_PERIOD_MS,
  informerHandle,
  listAndWatch,
  listerByIndex,
  listerGet,
  listerList,
  newInformer,
  type EventHandlers,
  type InformerState,
  memoHandlers,
} from '../client-go/informer.ts';
import { add as queueAddKey, drainQueue, newWorkQueue, type WorkQueue } from '../client-go/workqueue.ts';
import { newEventRecorder, recordEvent, type EventRecorderState } from '../client-go/record.ts';
import { flatten } from '../util/names.ts';
import type { ComponentDef, Ctx } from '../world.ts';
import {
  defaultNodeMonitorConfig,
  doNoExecuteTaintingPass,
  getNodeCondition,
  markPodNotReady,
  monitorNodeHealth,
  newNodeLifecycleState,
  type ControllerEvent,
  type NodeLeaseLister,
  type NodeLifecycleState,
  type NodeMonitorConfig,
  type TaintAction,
} from './node-health.ts';
import { once } from '../util/memo.ts';
import { leaseKeys, leaseListers, leftAsIs, monitorEvents, stepMemo } from './node-lifecycle-controller-cache.ts';
import { nodeMachine, type NodeMachineContext, type NodeMachineEvent } from './node-machine.ts';
import {
  doNoScheduleTaintingPass,
  matchTaint,
  swapNodeControllerTaint,
  NotReadyTaintTemplate,
  UnreachableTaintTemplate,
} from './taints.ts';
import { defaultEvictionConfig, nextTryAt, type EvictionConfig } from './zones.ts';

/** Component type name. */
/** The controller's component type (a figure finds its state by it: node-health-view.ts). */
export const NODE_LIFECYCLE_CONTROLLER = 'node-lifecycle-controller';

/** The kubelet renews its Lease every 10 s; a probe older than that means at least one renewal was missed. */
const LEASE_RENEW_INTERVAL_MS = 10_000;
/** NodeHealthUpdateRetry / UpdateTaintBackoff.Steps: tries before a write is given up until the next pass. */
const UPDATE_RETRIES = 5;
/**
 * wait.Until measures the period from the end of a pass (sliding), so passes drift by the time a pass
 * takes; that is why a node is marked Unknown just after probe + 50 s rather than a whole period later.
 */
const MONITOR_PASS_MS = 1;
/** The namespace of the kubelets' Leases. */
const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** klog lines kept in state for figures (oldest dropped first). */
const MAX_LOG_LINES = 200;

/** Controller flags (kube-controller-manager defaults unless given as component params). */
interface NodeLifecycleParams {
  monitor?: Partial<NodeMonitorConfig>;
  eviction?: Partial<EvictionConfig>;
}

/** The node statechart of one node, persisted as plain data, plus what figures need about its grace period. */
export interface PersistedNodeMachine {
  value: string;
  context: NodeMachineContext;
}

/** The controller's whole state (plain data). */
export interface NodeLifecycleControllerState {
  /** Tells this incarnation's timers from those of an earlier one with the same name (restart). */
  gen: string;
  nodes: InformerState<Node>;
  leases: InformerState<Lease>;
  pods: InformerState<Pod>;
  /** nodeHealthMap, knownNodes, zone states and the NoExecute taint queues. */
  health: NodeLifecycleState;
  /** Grace period that applied to each node at the last pass (startup or monitor grace). */
  graceMs: Record<string, number>;
  machines: Record<string, PersistedNodeMachine>;
  /** nodeUpdateQueue: nodes waiting for doNoScheduleTaintingPass. */
  nodeUpdateQueue: WorkQueue;
  /** When the next NoExecute tainting pass is due (null = none scheduled: every queue is empty or stopped). */
  taintPassAt: number | null;
  /** Whether its caches have synced once and the monitor passes run (WaitForNamedCacheSync returned). */
  monitoring?: boolean;
  /** Master disruption mode (every zone FullDisruption). */
  disruptionMode: boolean;
  recorder: EventRecorderState;
  /** klog lines with their time. */
  logs: { t: number; msg: string }[];
}

/** Timer events (plain data). */
export type TimerEvent = { type: 'monitor'; gen: string } | { type: 'taint-pass'; gen: string; at: number };

function monitorEvent(gen: string): TimerEvent {
  let e = monitorEvents.get(gen);
  if (!e) {
    if (monitorEvents.size >= 1024) monitorEvents.clear();
    monitorEvents.set(gen, (e = Object.freeze({ type: 'monitor', gen })));
  }
  return e;
}
const RECURRING = { recurring: true };

function config(ctx: Pick<Ctx, 'params'>): { monitor: NodeMonitorConfig; eviction: EvictionConfig } {
  const params = ctx.params as NodeLifecycleParams | undefined;
  // Read on every pass: the clusters run it without params (the defaults, one object); a test's own
  // timings are merged afresh each pass, which only tests pay for.
  if (!params) return defaultConfig;
  return {
    monitor: { ...defaultNodeMonitorConfig, ...params.monitor },
    eviction: { ...defaultEvictionConfig, ...params.eviction },
  };
}
const defaultConfig = { monitor: { ...defaultNodeMonitorConfig }, eviction: { ...defaultEvictionConfig } };

function klog(s: NodeLifecycleControllerState, t: number, msg: string): void {
  s.logs.push({ t, msg });
  if (s.logs.length > MAX_LOG_LINES) s.logs.splice(0, s.logs.length - MAX_LOG_LINES);
}

// ---------------------------------------------------------------- node statechart

const initialState = once((): PersistedNodeMachine => {
  const [s] = initialTransition(nodeMachine);
  return { value: s.value, context: { ...s.context } };
});
/** A node's statechart before its first pass (a fresh object each time). */
export function initialMachine(): PersistedNodeMachine {
  const initial = initialState();
  return { value: initial.value, context: { ...initial.context } };
}

// One bit per machine event, in the order machineEvents sends them (no pass sends two orders), so a
// pass's events are one number: a memo key without a string. TOLERATION_EXPIRED's pods count above the bits.
const EVENT_TYPES = [
  'SOME_NODES_READY',
  'HEARTBEAT_MISSED',
  'HEARTBEAT',
  'TAINTS_REMOVED',
  'GRACE_EXCEEDED',
  'KUBELET_NOT_READY',
  'ALL_ZONES_DOWN',
  'NOSCHEDULE_TAINTED',
  'NOEXECUTE_TAINTED',
  'TOLERATION_EXPIRED',
] as const satisfies readonly NodeMachineEvent['type'][];
type EventBit = { [K in (typeof EVENT_TYPES)[number]]: number };
const EV = Object.fromEntries(EVENT_TYPES.map((t, i) => [t, 1 << i])) as EventBit;
const PODS_UNIT = 1 << EVENT_TYPES.length;

/** The events a packed number stands for, in the order they are sent. */
export function unpackMachineEvents(packed: number): NodeMachineEvent[] {
  const ev: NodeMachineEvent[] = [];
  for (let i = 0; i < EVENT_TYPES.length; i++) {
    if (!(packed & (1 << i))) continue;
    const type = EVENT_TYPES[i];
    ev.push(type === 'TOLERATION_EXPIRED' ? { type, pods: Math.floor(packed / PODS_UNIT) } : { type });
  }
  return ev;
}

const STEP_MEMO_MAX = 4096;

/** Step a persisted machine by packed events (see unpackMachineEvents); the same object when they leave it as it is. */
export function stepMachine(m: PersistedNodeMachine, events: number): PersistedNodeMachine {
  if (events === 0 || leftAsIs.get(m) === events) return m;
  const c = m.context;
  const memoKey = `${m.value}|${c.ready}|${c.noScheduleTaint}|${c.noExecuteTaint}|${c.evictedPods}|${events}`;
  let out = stepMemo.get(memoKey);
  if (!out) {
    let s = nodeMachine.resolveState({ value: m.value, context: m.context });
    for (const e of unpackMachineEvents(events)) [s] = transition(nodeMachine, s, e);
    out = { value: s.value, context: JSON.parse(JSON.stringify(s.context)) as NodeMachineContext };
    if (stepMemo.size >= STEP_MEMO_MAX) stepMemo.clear();
    stepMemo.set(memoKey, out);
  }
  if (sameMachine(m, out)) {
    leftAsIs.set(m, events);
    return m;
  }
  // A copy: the memo's object must not end up in the state.
  return { value: out.value, context: { ...out.context } };
}

// A healthy node's pass (HEARTBEAT, TAINTS_REMOVED) leaves its machine as it was: keep the object.
function sameMachine(a: PersistedNodeMachine, b: PersistedNodeMachine): boolean {
  const x = a.context;
  const y = b.context;
  return (
    a.value === b.value &&
    x.ready === y.ready &&
    x.noScheduleTaint === y.noScheduleTaint &&
    x.noExecuteTaint === y.noExecuteTaint &&
    x.evictedPods === y.evictedPods
  );
}

function hasTaint(taints: Taint[], key: string, effect: string): boolean {
  for (let i = 0; i < taints.length; i++) if (taints[i].key === key && taints[i].effect === effect) return true;
  return false;
}

/** Events for one node's machine from what the controller sees after a pass (API facts only), packed (see EVENT_TYPES). */
function machineEvents(
  s: NodeLifecycleControllerState,
  name: string,
  m: PersistedNodeMachine,
  node: Node,
  probeTimestamp: number,
  now: number,
  disruption: 'enter' | 'exit' | undefined,
): number {
  let ev = 0;
  const ready = getNodeCondition(node.status, 'Ready')?.status ?? 'Unknown';
  const taints = node.spec?.taints ?? NO_TAINTS;
  const unreachable = UnreachableTaintTemplate.key;
  const notReady = NotReadyTaintTemplate.key;
  if (disruption === 'exit') ev |= EV.SOME_NODES_READY;
  if (ready === 'True') {
    ev |= now - probeTimestamp > LEASE_RENEW_INTERVAL_MS ? EV.HEARTBEAT_MISSED : EV.HEARTBEAT;
    if (
      !hasTaint(taints, unreachable, 'NoExecute') &&
      !hasTaint(taints, notReady, 'NoExecute') &&
      !hasTaint(taints, unreachable, 'NoSchedule') &&
      !hasTaint(taints, notReady, 'NoSchedule')
    ) {
      ev |= EV.TAINTS_REMOVED;
    }
  } else if (ready === 'Unknown') {
    if (m.value === 'healthy') ev |= EV.HEARTBEAT_MISSED;
    ev |= EV.GRACE_EXCEEDED;
  } else {
    ev |= EV.KUBELET_NOT_READY;
  }
  if (disruption === 'enter') ev |= EV.ALL_ZONES_DOWN;
  if (ready !== 'True') {
    if (hasTaint(taints, unreachable, 'NoSchedule') || hasTaint(taints, notReady, 'NoSchedule'))
      ev |= EV.NOSCHEDULE_TAINTED;
    if (hasTaint(taints, unreachable, 'NoExecute') || hasTaint(taints, notReady, 'NoExecute'))
      ev |= EV.NOEXECUTE_TAINTED;
    // Pods the taint eviction controller has marked and deleted (DisruptionTarget by the taint manager).
    const evicted = podsOnNode(s, name).filter(
      (p) =>
        p.metadata?.deletionTimestamp &&
        p.status?.conditions?.some((c) => c.type === 'DisruptionTarget' && c.reason === 'DeletionByTaintManager'),
    ).length;
    if (evicted > m.context.evictedPods) ev += EV.TOLERATION_EXPIRED + PODS_UNIT * (evicted - m.context.evictedPods);
  }
  return ev;
}
const NO_TAINTS: Taint[] = [];

// ---------------------------------------------------------------- API writes

function eventTarget(
  e: ControllerEvent,
  s: NodeLifecycleControllerState,
): { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; uid?: string } } {
  if (e.involvedObject.kind === 'Node') {
    // Node events refer to the node without a namespace, so the recorder files them in "default".
    const n = listerGet(s.nodes, e.involvedObject.name);
    return { apiVersion: 'v1', kind: 'Node', metadata: { name: e.involvedObject.name, uid: n?.metadata?.uid } };
  }
  const key = `${e.involvedObject.namespace ?? 'default'}/${e.involvedObject.name}`;
  const p = listerGet(s.pods, key);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: e.involvedObject.name,
      namespace: e.involvedObject.namespace ?? 'default',
      uid: p?.metadata?.uid,
    },
  };
}

/**
 * Where this recorder's nanosecond counter starts. An Event's name is `<object>.<unix ns>` of the
 * recording process, so the kubelet's and kube-controller-manager's events about node-1 in the same
 * millisecond get different names; the sim's recorders count nanoseconds from 0 each, so without an
 * offset RegisteredNode would take the name of the kubelet's "Starting" event and be refused (409).
 */
const NODE_CONTROLLER_EVENT_NANOS = 500_000;

/** The source kube-controller-manager gives this controller's recorder (EventSource{Component: "node-controller"}). */
const NODE_CONTROLLER_EVENT_SOURCE = 'node-controller';

function emit(ctx: Ctx<NodeLifecycleControllerState>, e: ControllerEvent): void {
  recordEvent(
    ctx,
    ctx.state.recorder,
    eventTarget(e, ctx.state),
    e.type,
    e.reason,
    e.message,
    undefined,
    NODE_CONTROLLER_EVENT_SOURCE,
  );
}

/** PatchNodeTaints: a strategic merge patch of spec.taints carrying the resourceVersion it was computed from. */
function patchNodeTaints(ctx: Ctx<NodeLifecycleControllerState>, name: string, node: Node, taints: Taint[]) {
  return ctx.api.patch('nodes', undefined, name, {
    metadata: { resourceVersion: node.metadata?.resourceVersion },
    spec: { taints: taints.length ? taints : null },
  });
}

/**
 * The node as controller_utils' taint helpers read it: the first try from the API server's watch cache
 * (GetOptions{ResourceVersion: "0"}, "as it's cheaper"), a retry after a conflict from storage.
 */
function getNodeForTaints(ctx: Ctx<NodeLifecycleControllerState>, name: string, firstTry: boolean): ApiResult<Node> {
  return ctx.api.request({
    verb: 'get',
    resource: 'nodes',
    name,
    ...(firstTry ? { options: { resourceVersion: '0' } } : {}),
  }) as ApiResult<Node>;
}

/** controller.AddOrUpdateTaintOnNode: GET the node, add (stamped timeAdded), PATCH; retried on conflict. */
function addOrUpdateTaintOnNode(ctx: Ctx<NodeLifecycleControllerState>, name: string, taints: Taint[]): boolean {
  if (taints.length === 0) return true;
  for (let i = 0; i < UPDATE_RETRIES; i++) {
    const g = getNodeForTaints(ctx, name, i === 0);
    if (!g.ok) return false;
    const next = swapNodeControllerTaint(g.object, taints, [], ctx.now);
    if (JSON.stringify(next.spec?.taints ?? []) === JSON.stringify(g.object.spec?.taints ?? [])) return true;
    const r = patchNodeTaints(ctx, name, g.object, next.spec?.taints ?? []);
    if (r.ok) return true;
    if (r.code !== 409) return false;
  }
  return false;
}

/** controller.RemoveTaintOffNode: nothing to do if the node we hold lacks the taints; else GET, drop, PATCH. */
function removeTaintOffNode(
  ctx: Ctx<NodeLifecycleControllerState>,
  name: string,
  held: Node | undefined,
  taints: Taint[],
): boolean {
  if (taints.length === 0) return true;
  if (held && !taints.some((t) => (held.spec?.taints ?? []).some((x) => matchTaint(x, t)))) return true;
  for (let i = 0; i < UPDATE_RETRIES; i++) {
    const g = getNodeForTaints(ctx, name, i === 0);
    if (!g.ok) return false;
    const cur = g.object.spec?.taints ?? [];
    const left = cur.filter((x) => !taints.some((t) => matchTaint(x, t)));
    if (left.length === cur.length) return true;
    const r = patchNodeTaints(ctx, name, g.object, left);
    if (r.ok) return true;
    if (r.code !== 409) return false;
  }
  return false;
}

function applyTaintAction(ctx: Ctx<NodeLifecycleControllerState>, a: TaintAction): void {
  const held = listerGet(ctx.state.nodes, a.node);
  if (a.why === 'markNodeAsReachable') {
    // markNodeAsReachable removes the two NoExecute taints in two separate calls.
    for (const t of a.remove) removeTaintOffNode(ctx, a.node, held, [t]);
    return;
  }
  // SwapNodeControllerTaint: add first, then remove.
  if (addOrUpdateTaintOnNode(ctx, a.node, a.add)) removeTaintOffNode(ctx, a.node, held, a.remove);
}

/** UpdateStatus of a node whose conditions went Unknown; on conflict re-read and write again. */
function updateNodeStatus(ctx: Ctx<NodeLifecycleControllerState>, node: Node): boolean {
  let body = node;
  for (let i = 0; i < UPDATE_RETRIES; i++) {
    const r = ctx.api.update('nodes', body, 'status');
    if (r.ok) return true;
    if (r.code !== 409) return false;
    const g = ctx.api.get('nodes', undefined, node.metadata?.name ?? '');
    if (!g.ok) return false;
    body = { ...g.object, status: node.status };
  }
  return false;
}

/** MarkPodsNotReady: Ready=False through UpdateStatus for each pod on the node, with the pod's NodeNotReady event. */
function markPodsNotReady(ctx: Ctx<NodeLifecycleControllerState>, pods: Pod[], nodeName: string): void {
  for (const pod of pods) {
    const m = markPodNotReady(pod, nodeName, ctx.now);
    if (!m) continue;
    const r = ctx.api.update('pods', m.pod, 'status');
    if (r.ok) emit(ctx, m.event);
  }
}

function podsOnNode(s: NodeLifecycleControllerState, node: string): Pod[] {
  return listerByIndex(s.pods, 'nodeName', node);
}

// ---------------------------------------------------------------- passes

/** Schedule the next doNoExecuteTaintingPass only when some queue can make progress (no idle 100 ms ticks). */
function scheduleTaintPass(ctx: Ctx<NodeLifecycleControllerState>): void {
  const s = ctx.state;
  let next = Infinity;
  const now = ctx.now;
  const tainters = s.health.zones.zoneNoExecuteTainter;
  for (const zone in tainters) next = Math.min(next, nextTryAt(tainters[zone], now));
  if (next === Infinity) return;
  if (next <= now) next = now;
  if (s.taintPassAt !== null && s.taintPassAt <= next) return;
  s.taintPassAt = next;
  ctx.schedule(next - now, { type: 'taint-pass', gen: s.gen, at: next } satisfies TimerEvent);
}

/** Step one node's statechart from what the API shows now (after a pass, or when the node object changed). */
function advanceMachine(
  ctx: Ctx<NodeLifecycleControllerState>,
  name: string,
  node: Node,
  disruption?: 'enter' | 'exit',
): void {
  const s = ctx.state;
  const h = s.health.nodeHealthMap[name];
  if (!h) return;
  const m = s.machines[name] ?? initialMachine();
  const next = stepMachine(m, machineEvents(s, name, m, node, h.probeTimestamp, ctx.now, disruption));
  if (next !== s.machines[name]) s.machines[name] = next;
}

function nodeLeaseKey(node: string): string {
  let k = leaseKeys.get(node);
  if (k === undefined) {
    if (leaseKeys.size >= 65_536) leaseKeys.clear(); // well above the largest cluster a figure runs
    leaseKeys.set(node, (k = flatten(`${NODE_LEASE_NAMESPACE}/${node}`)));
  }
  return k;
}

function nodeLeaseLister(leases: InformerState<Lease>): NodeLeaseLister {
  let l = leaseListers.get(leases);
  if (!l) leaseListers.set(leases, (l = (node) => listerGet(leases, nodeLeaseKey(node))));
  return l;
}

const ENTERING_DISRUPTION = 'Controller detected that all Nodes are not-Ready';
const EXITING_DISRUPTION = 'Controller detected that some Nodes are Ready';

// The node a pass wrote (conditions Unknown), if it wrote one.
function statusUpdateOf(updates: readonly Node[], name: string): Node | undefined {
  for (let i = 0; i < updates.length; i++) if (updates[i].metadata?.name === name) return updates[i];
  return undefined;
}

function monitorPass(ctx: Ctx<NodeLifecycleControllerState>): void {
  const s = ctx.state;
  const now = ctx.now;
  const cfg = config(ctx);
  const nodes = listerList(s.nodes);
  const before = s.health;
  const r = monitorNodeHealth(before, nodes, nodeLeaseLister(s.leases), now, cfg.monitor, cfg.eviction, (node) => {
    // The live read of a Lease the cache shows expired (1.37), straight from the API server.
    const g = ctx.api.get('leases', NODE_LEASE_NAMESPACE, node);
    return g.ok ? g.object : undefined;
  });
  s.health = r.state;
  // Indexed loops: the lists are mostly one shared, frozen empty list, which for-of walks through an iterator.
  let entering = false;
  let exiting = false;
  for (let i = 0; i < r.logs.length; i++) {
    const l = r.logs[i];
    klog(s, now, l);
    if (l.startsWith(ENTERING_DISRUPTION)) entering = true;
    if (l.startsWith(EXITING_DISRUPTION)) exiting = true;
  }
  let disruption: 'enter' | 'exit' | undefined;
  if (entering) {
    s.disruptionMode = true;
    disruption = 'enter';
  }
  if (exiting) {
    s.disruptionMode = false;
    disruption = 'exit';
  }
  for (let i = 0; i < r.events.length; i++) {
    const e = r.events[i];
    if (e.reason === 'RegisteredNode' || e.reason === 'RemovingNode') emit(ctx, e);
  }
  for (let i = 0; i < r.statusUpdates.length; i++) {
    const n = r.statusUpdates[i];
    const name = n.metadata?.name ?? '';
    if (!updateNodeStatus(ctx, n)) {
      // Not written: forget this pass's verdict so the next pass decides again.
      if (before.nodeHealthMap[name]) s.health.nodeHealthMap[name] = before.nodeHealthMap[name];
      else delete s.health.nodeHealthMap[name];
    }
  }
  for (let i = 0; i < r.events.length; i++) {
    const e = r.events[i];
    if (e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Node') emit(ctx, e);
  }
  for (let i = 0; i < r.markPodsNotReady.length; i++)
    markPodsNotReady(ctx, podsOnNode(s, r.markPodsNotReady[i]), r.markPodsNotReady[i]);
  for (let i = 0; i < r.taintActions.length; i++) applyTaintAction(ctx, r.taintActions[i]);
  // Statecharts and grace periods for figures.
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const name = node.metadata?.name ?? '';
    s.graceMs[name] = getNodeCondition(node.status, 'Ready')
      ? cfg.monitor.nodeMonitorGracePeriodMs
      : cfg.monitor.nodeStartupGracePeriodMs;
    advanceMachine(ctx, name, statusUpdateOf(r.statusUpdates, name) ?? listerGet(s.nodes, name) ?? node, disruption);
  }
  for (const k in s.machines) if (!s.health.nodeHealthMap[k]) delete s.machines[k];
  scheduleTaintPass(ctx);
}

function taintPass(ctx: Ctx<NodeLifecycleControllerState>): void {
  const s = ctx.state;
  const r = doNoExecuteTaintingPass(s.health.zones, listerList(s.nodes), ctx.now);
  s.health = { ...s.health, zones: r.zones };
  for (const a of r.actions) applyTaintAction(ctx, a);
  scheduleTaintPass(ctx);
}

/** doNoScheduleTaintingPass for one node from the lister. */
function syncNoSchedule(ctx: Ctx<NodeLifecycleControllerState>, name: string): boolean {
  const node = listerGet(ctx.state.nodes, name);
  if (!node) return true;
  const { taintsToAdd, taintsToDel } = doNoScheduleTaintingPass(node);
  if (taintsToAdd.length === 0 && taintsToDel.length === 0) return true;
  return addOrUpdateTaintOnNode(ctx, name, taintsToAdd) && removeTaintOffNode(ctx, name, node, taintsToDel);
}

function handlers(ctx: Ctx<NodeLifecycleControllerState>): {
  nodes: EventHandlers<Node>;
  leases: EventHandlers<Lease>;
  pods: EventHandlers<Pod>;
} {
  const s = ctx.state;
  const nodeChanged = (n: Node) => {
    queueAddKey(s.nodeUpdateQueue, n.metadata?.name ?? '');
    advanceMachine(ctx, n.metadata?.name ?? '', n);
  };
  // processPod: a pod newly bound to a node that is not Ready is marked NotReady at once.
  const podBound = (old: Pod | undefined, pod: Pod) => {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName || (old && old.spec?.nodeName === nodeName)) return;
    const h = s.health.nodeHealthMap[nodeName];
    const ready = getNodeCondition(h?.status, 'Ready');
    if (!ready || ready.status === 'True') return;
    markPodsNotReady(ctx, [pod], nodeName);
  };
  return {
    nodes: { add: nodeChanged, update: (_o, n) => nodeChanged(n) },
    leases: {},
    pods: { add: (p) => podBound(undefined, p), update: (o, p) => podBound(o, p) },
  };
}

function drainNoSchedule(ctx: Ctx<NodeLifecycleControllerState>): void {
  drainQueue(ctx, ctx.state.nodeUpdateQueue, (key) => syncNoSchedule(ctx, key));
}

/** The node-lifecycle controller (kube-controller-manager's "node-lifecycle-controller"). */
export const nodeLifecycleControllerDef: ComponentDef<NodeLifecycleControllerState> = {
  name: NODE_LIFECYCLE_CONTROLLER,
  init(ctx) {
    const s: NodeLifecycleControllerState = {
      gen: `${ctx.now}.${ctx.rng.int(1_000_000_000)}`,
      nodes: newInformer('nodes', 'nodes'),
      leases: newInformer('leases', 'leases', { namespace: NODE_LEASE_NAMESPACE }),
      pods: newInformer('pods', 'pods', {}, ['nodeName']),
      health: newNodeLifecycleState(),
      graceMs: {},
      machines: {},
      nodeUpdateQueue: newWorkQueue('nodeUpdateQueue'),
      taintPassAt: null,
      disruptionMode: false,
      recorder: { ...newEventRecorder(), seq: NODE_CONTROLLER_EVENT_NANOS },
      logs: [],
    };
    ctx.state = s;
    const h = handlers(ctx);
    listAndWatch(ctx, s.nodes, h.nodes);
    listAndWatch(ctx, s.leases, h.leases);
    listAndWatch(ctx, s.pods, h.pods);
    drainNoSchedule(ctx);
    // wait.Until runs the first monitor pass as soon as the caches have synced.
    ctx.schedule(0, monitorEvent(s.gen), RECURRING);
    return s;
  },
  handle(event, ctx) {
    const s = ctx.state;
    const h = memoHandlers(ctx, handlers, s);
    // Pods first: most notifications are pod changes (each informer answers only its own events).
    if (informerHandle(ctx, s.pods, event, h.pods)) return;
    if (informerHandle(ctx, s.nodes, event, h.nodes)) {
      drainNoSchedule(ctx);
      return;
    }
    if (informerHandle(ctx, s.leases, event, h.leases)) return;
    const ev = event as TimerEvent;
    if (ev?.gen !== s.gen) return; // a timer of an earlier incarnation of this controller
    if (ev.type === 'monitor') {
      // WaitForNamedCacheSync: no verdicts from empty caches (the streaming lists still under way, or
      // started while the API server is down); it looks again every 100 ms until they have synced.
      if (!s.monitoring && !(s.nodes.hasSynced && s.leases.hasSynced && s.pods.hasSynced)) {
        ctx.schedule(SYNCED_POLL_PERIOD_MS, monitorEvent(s.gen), RECURRING);
        return;
      }
      s.monitoring = true;
      monitorPass(ctx);
      ctx.schedule(config(ctx).monitor.nodeMonitorPeriodMs + MONITOR_PASS_MS, monitorEvent(s.gen), RECURRING);
    } else if (ev.type === 'taint-pass') {
      if (ev.at !== s.taintPassAt) return; // superseded by an earlier pass
      s.taintPassAt = null;
      taintPass(ctx);
    }
  },
};
