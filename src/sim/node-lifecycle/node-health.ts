// monitorNodeHealth as a pure step. Src: node_lifecycle_controller.go (monitorNodeHealth, tryUpdateNodeHealth,
// processTaintBaseEviction, markNodeForTainting, doNoExecuteTaintingPass) and pkg/controller/util/node
// (RecordNodeStatusChange, MarkPodsNotReady).
import type { Node, NodeCondition, NodeStatus, Pod, Taint } from 'kubernetes-types/core/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import { parseTime, rfc3339 } from '../util/time.ts';
import {
  NotReadyTaintTemplate,
  UnreachableTaintTemplate,
  taintExists,
  noExecuteSwapFor,
  isNodeExcludedFromDisruptionChecks,
} from './taints.ts';
import {
  addPodEvictorForNewZone,
  defaultEvictionConfig,
  getZoneKey,
  handleDisruption,
  queueAdd,
  queueHas,
  queueRemove,
  queueTry,
  zoneStatesUnchanged,
  type EvictionConfig,
  type ZonesState,
  newZonesState,
} from './zones.ts';

/** Timing flags of the controller. */
export interface NodeMonitorConfig {
  /** --node-monitor-period */
  nodeMonitorPeriodMs: number;
  /** --node-monitor-grace-period (50 s since v1.32) */
  nodeMonitorGracePeriodMs: number;
  /** --node-startup-grace-period */
  nodeStartupGracePeriodMs: number;
}

/** kube-controller-manager defaults. */
export const defaultNodeMonitorConfig: NodeMonitorConfig = {
  nodeMonitorPeriodMs: 5_000,
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
};

/** nodeHealthData: what the controller remembers of a node between passes. */
interface NodeHealthData {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  status: NodeStatus;
  /** renewTime of the last Lease seen (MicroTime string) */
  leaseRenewTime?: string;
}

/** A live GET of a node's Lease (kube-node-lease/<node>); undefined when it fails or there is none. */
type LiveLeaseGetter = (nodeName: string) => Lease | undefined;

/** The controller's whole state (plain data). */
export interface NodeLifecycleState {
  knownNodes: string[];
  nodeHealthMap: Record<string, NodeHealthData>;
  zones: ZonesState;
}

/** A fresh controller (also what a restart looks like: no saved health). */
export function newNodeLifecycleState(): NodeLifecycleState {
  return { knownNodes: [], nodeHealthMap: {}, zones: newZonesState() };
}

/** GetNodeCondition. */
export function getNodeCondition(status: NodeStatus | undefined, type: string): NodeCondition | undefined {
  // A loop, not find(): read several times per node on every pass, without a closure each time.
  const conditions = status?.conditions;
  if (conditions) for (let i = 0; i < conditions.length; i++) if (conditions[i].type === type) return conditions[i];
  return undefined;
}

/** An event the controller records. */
export interface ControllerEvent {
  involvedObject: { kind: 'Node' | 'Pod'; name: string; namespace?: string };
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** Result of tryUpdateNodeHealth for one node. */
interface NodeHealthUpdate {
  gracePeriodMs: number;
  observedReadyCondition: NodeCondition;
  currentReadyCondition: NodeCondition | undefined;
  health: NodeHealthData;
  /** the node with conditions set to Unknown, when an UpdateStatus is due */
  updatedNode?: Node;
  logs: readonly string[];
}

// What a healthy node's pass logs (shared: most passes log nothing).
const NO_LOGS: readonly string[] = Object.freeze([]);

const monitoredConditionTypes = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

function microBefore(a: string | undefined, b: string | undefined): boolean {
  return (parseTime(a) ?? -Infinity) < (parseTime(b) ?? -Infinity);
}

/** tryUpdateNodeHealth: refresh probeTimestamp from heartbeats and the Lease; past the grace period, mark conditions Unknown. */
export function tryUpdateNodeHealth(
  node: Node,
  lease: Lease | undefined,
  saved: NodeHealthData | undefined,
  now: number,
  cfg: NodeMonitorConfig = defaultNodeMonitorConfig,
  liveLease?: LiveLeaseGetter,
): NodeHealthUpdate {
  let log: string | undefined;
  const name = node.metadata?.name ?? '';
  // The saved data is replaced, never changed, so a node with nothing new keeps the same object.
  let nodeHealth: NodeHealthData | undefined = saved;
  const currentReadyCondition = getNodeCondition(node.status, 'Ready');
  let observedReadyCondition: NodeCondition;
  let gracePeriodMs: number;
  if (!currentReadyCondition) {
    // Never posted: pretend an Unknown condition from creation and allow the startup grace.
    observedReadyCondition = {
      type: 'Ready',
      status: 'Unknown',
      lastHeartbeatTime: node.metadata?.creationTimestamp,
      lastTransitionTime: node.metadata?.creationTimestamp,
    };
    gracePeriodMs = cfg.nodeStartupGracePeriodMs;
    const created = parseTime(node.metadata?.creationTimestamp) ?? 0;
    if (nodeHealth) nodeHealth = { ...nodeHealth, status: node.status ?? {} };
    else nodeHealth = { status: node.status ?? {}, probeTimestamp: created, readyTransitionTimestamp: created };
  } else {
    // Go copies the condition; stored objects are never changed, so the node's own one serves.
    observedReadyCondition = currentReadyCondition;
    gracePeriodMs = cfg.nodeMonitorGracePeriodMs;
  }
  const savedCondition = saved ? getNodeCondition(saved.status, 'Ready') : undefined;
  const savedLeaseRenew = saved?.leaseRenewTime;
  if (!nodeHealth) {
    // A restarted controller has no memory, so every node gets a fresh grace period from now.
    log = `Missing timestamp for Node ${name}. Assuming now as a timestamp.`;
    nodeHealth = { status: node.status ?? {}, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (!savedCondition && currentReadyCondition) {
    // These three branches build a fresh nodeHealthData without the saved lease, exactly as Go does;
    // the next pass therefore treats the current Lease as new once more.
    log = `Creating timestamp entry for newly observed Node ${name}`;
    nodeHealth = { status: node.status ?? {}, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (savedCondition && !currentReadyCondition) {
    log = `ReadyCondition was removed from Status of Node ${name}`;
    nodeHealth = { status: node.status ?? {}, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (
    savedCondition &&
    currentReadyCondition &&
    savedCondition.lastHeartbeatTime !== currentReadyCondition.lastHeartbeatTime
  ) {
    const transition =
      savedCondition.lastTransitionTime !== currentReadyCondition.lastTransitionTime
        ? now
        : nodeHealth.readyTransitionTimestamp;
    nodeHealth = { status: node.status ?? {}, probeTimestamp: now, readyTransitionTimestamp: transition };
  }
  // A renewed Lease keeps the node healthy even though NodeStatus is posted only every 5 minutes.
  let observedRenew = lease?.spec?.renewTime;
  if (
    observedRenew &&
    observedRenew !== savedLeaseRenew &&
    (savedLeaseRenew === undefined || microBefore(savedLeaseRenew, observedRenew))
  ) {
    nodeHealth = {
      status: nodeHealth.status,
      probeTimestamp: now,
      readyTransitionTimestamp: nodeHealth.readyTransitionTimestamp,
      leaseRenewTime: observedRenew,
    };
  }
  // 1.37 (kubernetes#138698): a cached Lease that looks expired may only be stale in the informer, so
  // it is read live before the node is marked, and on every pass while it stays expired (real v1.37.2
  // GETs it each 5 s while the node is Unknown); a renewal found that way counts as one seen here.
  if (liveLease && now > nodeHealth.probeTimestamp + gracePeriodMs) {
    const live = liveLease(name)?.spec?.renewTime;
    const known = nodeHealth.leaseRenewTime;
    if (live && live !== known && (known === undefined || microBefore(known, live))) {
      observedRenew = live;
      nodeHealth = {
        status: nodeHealth.status,
        probeTimestamp: now,
        readyTransitionTimestamp: nodeHealth.readyTransitionTimestamp,
        leaseRenewTime: live,
      };
    }
  }

  let updatedNode: Node | undefined;
  let current = currentReadyCondition;
  if (now > nodeHealth.probeTimestamp + gracePeriodMs) {
    const conditions = [...(node.status?.conditions ?? [])].map((c) => ({ ...c }));
    for (const type of monitoredConditionTypes) {
      const c = conditions.find((x) => x.type === type);
      if (!c) {
        conditions.push({
          type,
          status: 'Unknown',
          reason: 'NodeStatusNeverUpdated',
          message: 'Kubelet never posted node status.',
          lastHeartbeatTime: node.metadata?.creationTimestamp,
          lastTransitionTime: rfc3339(now),
        });
      } else if (c.status !== 'Unknown') {
        c.status = 'Unknown';
        c.reason = 'NodeStatusUnknown';
        c.message = 'Kubelet stopped posting node status.';
        c.lastTransitionTime = rfc3339(now);
      }
    }
    const candidate: Node = { ...node, status: { ...node.status, conditions } };
    current = getNodeCondition(candidate.status, 'Ready');
    if (JSON.stringify(current) !== JSON.stringify(observedReadyCondition)) {
      updatedNode = candidate;
      nodeHealth = {
        status: candidate.status ?? {},
        probeTimestamp: nodeHealth.probeTimestamp,
        readyTransitionTimestamp: now,
        leaseRenewTime: observedRenew,
      };
    }
  }
  return {
    gracePeriodMs,
    observedReadyCondition,
    currentReadyCondition: current,
    health: nodeHealth,
    updatedNode,
    logs: log === undefined ? NO_LOGS : [log],
  };
}

/** A taint change on a node the core must send as an API update. */
export interface TaintAction {
  node: string;
  add: Taint[];
  remove: Taint[];
  why: 'swap' | 'markNodeAsReachable' | 'taintQueue';
}

/** Everything one monitorNodeHealth pass decided. */
interface MonitorResult {
  state: NodeLifecycleState;
  /** nodes whose status must be written (UpdateStatus) */
  statusUpdates: readonly Node[];
  /** nodes whose pods MarkPodsNotReady must set Ready=False */
  markPodsNotReady: readonly string[];
  events: readonly ControllerEvent[];
  taintActions: readonly TaintAction[];
  logs: readonly string[];
}

// The lists of a pass that has nothing to report (most passes): one shared empty list.
const NOTHING: readonly never[] = Object.freeze([]);

/** leaseLister.Leases("kube-node-lease").Get: a node's Lease by the node's name. */
export type NodeLeaseLister = (nodeName: string) => Lease | undefined;

/** A NodeLeaseLister over a list of Leases (the first kube-node-lease Lease of each name, as with find). */
function nodeLeaseListerOf(leases: readonly Lease[]): NodeLeaseLister {
  const leaseByName = new Map<string, Lease>();
  for (const l of leases) {
    const n = l.metadata?.name;
    if (n !== undefined && (l.metadata?.namespace ?? 'kube-node-lease') === 'kube-node-lease' && !leaseByName.has(n))
      leaseByName.set(n, l);
  }
  return (name) => leaseByName.get(name);
}

// Whether the lister shows the nodes of the last pass, in the same order (classifyNodes finds nothing then).
function sameNodeNames(nodes: Node[], knownNodes: string[]): boolean {
  if (nodes.length !== knownNodes.length) return false;
  for (let i = 0; i < nodes.length; i++) if ((nodes[i].metadata?.name ?? '') !== knownNodes[i]) return false;
  return true;
}

/**
 * Whether markNodeAsReachable would change nothing: neither NoExecute taint is on the node and its
 * zone's taint queue does not hold it. processTaintBaseEviction of a Ready node then returns the zones
 * as they are, without actions or logs, so a healthy node's pass can skip it.
 */
export function isMarkedReachable(zones: ZonesState, node: Node): boolean {
  const taints = node.spec?.taints;
  if (taintExists(taints, UnreachableTaintTemplate) || taintExists(taints, NotReadyTaintTemplate)) return false;
  const q = zones.zoneNoExecuteTainter[getZoneKey(node)];
  return !q || !queueHas(q, node.metadata?.name ?? '');
}

/** monitorNodeHealth: one pass over all nodes (runs every nodeMonitorPeriod); `leases` as a list or a lister. */
export function monitorNodeHealth(
  state: NodeLifecycleState,
  nodes: Node[],
  leases: readonly Lease[] | NodeLeaseLister,
  now: number,
  cfg: NodeMonitorConfig = defaultNodeMonitorConfig,
  evictionCfg: EvictionConfig = defaultEvictionConfig,
  liveLease?: LiveLeaseGetter,
): MonitorResult {
  // Made at their first item (see NOTHING).
  let events: ControllerEvent[] | undefined;
  let logs: string[] | undefined;
  let taintActions: TaintAction[] | undefined;
  let statusUpdates: Node[] | undefined;
  let markPodsNotReady: string[] | undefined;
  let zones = state.zones;
  // Copied at the first change: the state is replaced, never changed, and most passes change little.
  let nodeHealthMap = state.nodeHealthMap;

  // classifyNodes: new nodes are registered and start without NoExecute taints.
  const sameNodes = sameNodeNames(nodes, state.knownNodes);
  const names = sameNodes ? state.knownNodes : nodes.map((n) => n.metadata?.name ?? '');
  for (let i = 0; i < nodes.length; i++) zones = addPodEvictorForNewZone(zones, nodes[i], now, evictionCfg);
  if (!sameNodes) {
    const known = new Set(state.knownNodes);
    const added = nodes.filter((n) => !known.has(n.metadata?.name ?? ''));
    for (const n of added) {
      const name = n.metadata?.name ?? '';
      (events ??= []).push({
        involvedObject: { kind: 'Node', name },
        type: 'Normal',
        reason: 'RegisteredNode',
        message: `Node ${name} event: Registered Node ${name} in Controller`,
      });
      const r = markReachable(zones, n);
      zones = r.zones;
      if (r.action) (taintActions ??= []).push(r.action);
    }
    const present = new Set(names);
    for (const name of state.knownNodes.filter((k) => !present.has(k))) {
      (events ??= []).push({
        involvedObject: { kind: 'Node', name },
        type: 'Normal',
        reason: 'RemovingNode',
        message: `Node ${name} event: Removing Node ${name} from Controller`,
      });
      if (nodeHealthMap === state.nodeHealthMap) nodeHealthMap = { ...nodeHealthMap };
      delete nodeHealthMap[name];
    }
  }

  const leaseFor = typeof leases === 'function' ? leases : nodeLeaseListerOf(leases);
  const zoneToNodeConditions: Record<string, (NodeCondition | undefined)[]> = {};
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const name = names[i];
    const u = tryUpdateNodeHealth(node, leaseFor(name), nodeHealthMap[name], now, cfg, liveLease);
    if (u.logs.length) (logs ??= []).push(...u.logs);
    if (nodeHealthMap[name] !== u.health) {
      if (nodeHealthMap === state.nodeHealthMap) nodeHealthMap = { ...nodeHealthMap };
      nodeHealthMap[name] = u.health;
    }
    const effective = u.updatedNode ?? node;
    if (u.updatedNode) (statusUpdates ??= []).push(u.updatedNode);
    if (!isNodeExcludedFromDisruptionChecks(node)) {
      (zoneToNodeConditions[getZoneKey(node)] ??= []).push(u.currentReadyCondition);
    }
    if (u.currentReadyCondition) {
      // 1.37 decides on the condition this pass leaves (real v1.37.2 adds the unreachable NoExecute
      // taint ~100 ms after the Unknown write, with NoSchedule): the pass that marks the node Unknown
      // also queues it for the NoExecute taint, which the 100 ms tainting pass then applies.
      const decided = u.updatedNode ? u.currentReadyCondition : u.observedReadyCondition;
      if (decided.status !== 'True' || !isMarkedReachable(zones, effective)) {
        const r = processTaintBaseEviction(zones, effective, decided, now);
        zones = r.zones;
        if (r.actions.length) (taintActions ??= []).push(...r.actions);
        if (r.logs.length) (logs ??= []).push(...r.logs);
      }
      if (u.currentReadyCondition.status !== 'True' && u.observedReadyCondition.status === 'True') {
        (events ??= []).push({
          involvedObject: { kind: 'Node', name },
          type: 'Normal',
          reason: 'NodeNotReady',
          message: `Node ${name} status is now: NodeNotReady`,
        });
        (markPodsNotReady ??= []).push(name);
      }
    }
  }

  // Usually no zone changes its state, and handleDisruption would then change nothing.
  if (!zoneStatesUnchanged(zones, zoneToNodeConditions, evictionCfg)) {
    const d = handleDisruption(zones, zoneToNodeConditions, now, evictionCfg);
    zones = d.zones;
    if (d.logs.length) (logs ??= []).push(...d.logs);
    if (d.markAllNodesReachable) {
      for (const n of nodes) {
        const r = markReachable(zones, n);
        zones = r.zones;
        if (r.action) (taintActions ??= []).push(r.action);
      }
    }
    if (d.resetHealthTimestamps) {
      if (nodeHealthMap === state.nodeHealthMap) nodeHealthMap = { ...nodeHealthMap };
      for (const name of names) {
        if (nodeHealthMap[name])
          nodeHealthMap[name] = { ...nodeHealthMap[name], probeTimestamp: now, readyTransitionTimestamp: now };
      }
    }
  }
  const unchanged = names === state.knownNodes && nodeHealthMap === state.nodeHealthMap && zones === state.zones;
  return {
    state: unchanged ? state : { knownNodes: names, nodeHealthMap, zones },
    statusUpdates: statusUpdates ?? NOTHING,
    markPodsNotReady: markPodsNotReady ?? NOTHING,
    events: events ?? NOTHING,
    taintActions: taintActions ?? NOTHING,
    logs: logs ?? NOTHING,
  };
}

function markReachable(zones: ZonesState, node: Node): { zones: ZonesState; action?: TaintAction } {
  const name = node.metadata?.name ?? '';
  const zone = getZoneKey(node);
  const q = zones.zoneNoExecuteTainter[zone];
  const left = q && queueRemove(q, name).queue;
  const z =
    left && left !== q ? { ...zones, zoneNoExecuteTainter: { ...zones.zoneNoExecuteTainter, [zone]: left } } : zones;
  const taints = node.spec?.taints ?? [];
  const remove = [UnreachableTaintTemplate, NotReadyTaintTemplate].filter((t) => taintExists(taints, t));
  return { zones: z, action: remove.length ? { node: name, add: [], remove, why: 'markNodeAsReachable' } : undefined };
}

/** processTaintBaseEviction: swap at once if the opposite taint is there, else queue the node for tainting; Ready → untaint. */
export function processTaintBaseEviction(
  zones: ZonesState,
  node: Node,
  observedReadyCondition: NodeCondition,
  now: number,
): { zones: ZonesState; actions: TaintAction[]; logs: string[] } {
  const name = node.metadata?.name ?? '';
  const uid = node.metadata?.uid ?? '';
  const zone = getZoneKey(node);
  const taints = node.spec?.taints ?? [];
  const status = observedReadyCondition.status;
  if (status === 'True') {
    const r = markReachable(zones, node);
    return {
      zones: r.zones,
      actions: r.action ? [r.action] : [],
      logs: r.action ? [`Node ${name} is healthy again, removing all taints`] : [],
    };
  }
  const swap = noExecuteSwapFor(status);
  if (!swap) return { zones, actions: [], logs: [] };
  if (taintExists(taints, swap.remove)) {
    return { zones, actions: [{ node: name, add: [swap.add], remove: [swap.remove], why: 'swap' }], logs: [] };
  }
  // markNodeForTainting: forget an earlier processed entry unless the wanted taint is already on.
  let q = zones.zoneNoExecuteTainter[zone];
  if (!q) return { zones, actions: [], logs: [] };
  if (!taintExists(taints, swap.add)) q = queueRemove(q, name).queue;
  const r = queueAdd(q, name, uid, now);
  const logs = r.added
    ? [
        status === 'False'
          ? `Node ${name} is NotReady as of ${rfc3339(now)}. Adding it to the Taint queue.`
          : `Node ${name} is unresponsive as of ${rfc3339(now)}. Adding it to the Taint queue.`,
      ]
    : [];
  return {
    zones: { ...zones, zoneNoExecuteTainter: { ...zones.zoneNoExecuteTainter, [zone]: r.queue } },
    actions: [],
    logs,
  };
}

/** doNoExecuteTaintingPass (every 100 ms): pop queued nodes under each zone's rate limit and taint them by their current Ready status. */
export function doNoExecuteTaintingPass(
  zones: ZonesState,
  nodes: Node[],
  now: number,
): { zones: ZonesState; actions: TaintAction[] } {
  const actions: TaintAction[] = [];
  const tainters = { ...zones.zoneNoExecuteTainter };
  for (const zone of Object.keys(tainters).sort()) {
    tainters[zone] = queueTry(tainters[zone], now, (v) => {
      const node = nodes.find((n) => n.metadata?.name === v.value);
      if (!node) return [true, 0];
      const ready = getNodeCondition(node.status, 'Ready');
      const swap = noExecuteSwapFor(ready?.status);
      // Ready again by now: nothing to taint.
      if (!swap) return [true, 0];
      actions.push({ node: v.value, add: [swap.add], remove: [swap.remove], why: 'taintQueue' });
      return [true, 0];
    });
  }
  return { zones: { ...zones, zoneNoExecuteTainter: tainters }, actions };
}

/** MarkPodsNotReady for one pod: Ready → False (only if it changes), plus the pod's NodeNotReady event. */
export function markPodNotReady(
  pod: Pod,
  nodeName: string,
  now: number,
): { pod: Pod; event: ControllerEvent } | undefined {
  if (pod.spec?.nodeName !== nodeName) return undefined;
  const conditions = pod.status?.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === 'Ready');
  if (i === -1 || conditions[i].status === 'False') return undefined;
  const next = [...conditions];
  next[i] = { ...conditions[i], status: 'False', lastTransitionTime: rfc3339(now) };
  return {
    pod: { ...pod, status: { ...pod.status, conditions: next } },
    event: {
      involvedObject: { kind: 'Pod', name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace },
      type: 'Warning',
      reason: 'NodeNotReady',
      message: 'Node is not ready',
    },
  };
}
