import type { Node, Pod, Taint } from './k8s-types.ts';
import { allocatableOf, computePodResource, podHostPorts, type Resource } from './node-info.ts';
import { requiredNodeAffinityMatches } from './node-affinity.ts';
import {
  filterTopologySpreadConstraints,
  nodeLabelsMatchSpreadConstraints,
  type SpreadConstraint,
} from './pod-topology-spread.ts';
import {
  doNotScheduleTaintsFilter,
  findMatchingUntoleratedTaint,
  tolerationsTolerateTaint,
} from './taint-toleration.ts';
import { labelSelectorMatches } from '../api/labels.ts';
import { quantityMilliValue } from '../api/quantity.ts';
import { deepEqual } from '../util/names.ts';
import { allocatableCache } from './queueing-hints-cache.ts';

// QueueingHints (KEP-4247, GA in 1.34): the cluster events (kube-scheduler/framework/types.go,
// pkg/scheduler/framework/events.go) and, per filter plugin, the events it registers
// (EventsToRegister) with the QueueingHintFn that tells whether one event may make a pod that
// plugin rejected schedulable (v1.37.2, default feature gates).

/** fwk.ActionType: one bit per kind of change, in Kubernetes' order. */
export const ActionType = {
  Add: 1,
  Delete: 2,
  UpdateNodeAllocatable: 4,
  UpdateNodeLabel: 8,
  UpdateNodeTaint: 16,
  UpdateNodeCondition: 32,
  UpdateNodeAnnotation: 64,
  UpdateNodeDeclaredFeature: 128,
  UpdateNodePreemptionPolicy: 256,
  UpdatePodLabel: 512,
  UpdatePodScaleDown: 1024,
  UpdatePodScaleUp: 2048,
  UpdatePodToleration: 4096,
  UpdatePodSchedulingGatesEliminated: 8192,
  UpdatePodGeneratedResourceClaim: 16384,
  All: 32767,
  /** The general Update: every UpdateXYZ bit. */
  Update: 32764,
} as const;

/** fwk.EventResource, the ones the simulation emits ('*' is the wildcard). */
type EventResource = 'Pod' | 'AssignedPod' | 'UnscheduledPod' | 'TargetPod' | 'Node' | '*';

/** fwk.ClusterEvent. */
export interface ClusterEvent {
  resource: EventResource;
  actionType: number;
  /** CustomLabel of the wildcard events. */
  label?: string;
}

/** fwk.QueueingHint. */
export type QueueingHint = 'Queue' | 'QueueSkip';

/** fwk.QueueingHintFn: `oldObj`/`newObj` are the event's objects (undefined for add / delete). */
type QueueingHintFn = (pod: Pod, oldObj: unknown, newObj: unknown) => QueueingHint;

/** EventAssignedPodAdd. */
export const EVENT_ASSIGNED_POD_ADD: ClusterEvent = { resource: 'AssignedPod', actionType: ActionType.Add };
/** EventAssignedPodDelete. */
export const EVENT_ASSIGNED_POD_DELETE: ClusterEvent = { resource: 'AssignedPod', actionType: ActionType.Delete };
/** Node/Add. */
export const EVENT_NODE_ADD: ClusterEvent = { resource: 'Node', actionType: ActionType.Add };
/** Node/Delete. */
export const EVENT_NODE_DELETE: ClusterEvent = { resource: 'Node', actionType: ActionType.Delete };
/** EventUnschedulableTimeout: the 5-minute flush. */
export const EVENT_UNSCHEDULABLE_TIMEOUT: ClusterEvent = {
  resource: '*',
  actionType: ActionType.All,
  label: 'UnschedulableTimeout',
};
/** EventForceActivate. */
export const EVENT_FORCE_ACTIVATE: ClusterEvent = { resource: '*', actionType: ActionType.All, label: 'ForceActivate' };

/** ClusterEventIsWildCard. */
export function clusterEventIsWildCard(e: ClusterEvent): boolean {
  return e.resource === '*' && e.actionType === ActionType.All;
}

/** MatchClusterEvents: `incoming` is the same as or more specific than the registered `ce`. */
export function matchClusterEvents(ce: ClusterEvent, incoming: ClusterEvent): boolean {
  if (clusterEventIsWildCard(ce)) return true;
  const r =
    ce.resource === '*' ||
    ce.resource === incoming.resource ||
    (ce.resource === 'Pod' &&
      (incoming.resource === 'AssignedPod' ||
        incoming.resource === 'UnscheduledPod' ||
        incoming.resource === 'TargetPod'));
  return r && (ce.actionType & incoming.actionType) !== 0 && incoming.actionType <= ce.actionType;
}

// equality.Semantic.DeepEqual as the event extractors use it: a nil and an empty map or slice are equal.
function semanticEqual(a: unknown, b: unknown): boolean {
  const nil = (x: unknown) => (x == null || (typeof x === 'object' && Object.keys(x).length === 0) ? undefined : x);
  return deepEqual(nil(a), nil(b));
}

// Semantic equality of a ResourceList: the same names with the same values (1 and 1000m are equal).
function sameQuantities(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  return (
    ka.length === Object.keys(b ?? {}).length &&
    ka.every((k) => b?.[k] !== undefined && quantityMilliValue(a![k]) === quantityMilliValue(b[k]))
  );
}

function conditionStatuses(n: Node): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of n.status?.conditions ?? []) out[c.type] = c.status;
  return out;
}

/**
 * NodeSchedulingPropertiesChange: the Node/UpdateNodeXYZ events one node update amounts to (the
 * simulated nodes never change spec.podPreemptionPolicy or declared features, the last two kinds).
 */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): ClusterEvent[] {
  const A = ActionType;
  const found: number[] = [];
  // Only uncordoning is an event (it counts as a taint change); cordoning cannot help any pod.
  if (!!newNode.spec?.unschedulable !== !!oldNode.spec?.unschedulable && !newNode.spec?.unschedulable)
    found.push(A.UpdateNodeTaint);
  if (!sameQuantities(oldNode.status?.allocatable, newNode.status?.allocatable)) found.push(A.UpdateNodeAllocatable);
  if (!semanticEqual(newNode.metadata?.labels, oldNode.metadata?.labels)) found.push(A.UpdateNodeLabel);
  if (!semanticEqual(newNode.spec?.taints, oldNode.spec?.taints)) found.push(A.UpdateNodeTaint);
  if (!semanticEqual(conditionStatuses(oldNode), conditionStatuses(newNode))) found.push(A.UpdateNodeCondition);
  if (!semanticEqual(oldNode.metadata?.annotations, newNode.metadata?.annotations)) found.push(A.UpdateNodeAnnotation);
  return found.map((actionType) => ({ resource: 'Node', actionType }));
}

/** PodSchedulingPropertiesChange: the UpdatePodXYZ events of one pod update (general Update when none). */
export function podSchedulingPropertiesChange(newPod: Pod, oldPod: Pod, isTargetPod: boolean): ClusterEvent[] {
  const A = ActionType;
  const resource: EventResource = newPod.spec?.nodeName ? 'AssignedPod' : isTargetPod ? 'TargetPod' : 'UnscheduledPod';
  const found: number[] = [];
  if (!semanticEqual(newPod.metadata?.labels, oldPod.metadata?.labels)) found.push(A.UpdatePodLabel);
  const o = computePodResource(oldPod).requests;
  const n = computePodResource(newPod).requests;
  // A request that disappears is a scale down, one that appears a scale up (PodRequests omits zeros).
  if ((o.milliCPU > 0 && n.milliCPU < o.milliCPU) || (o.memory > 0 && n.memory < o.memory))
    found.push(A.UpdatePodScaleDown);
  if ((n.milliCPU > 0 && n.milliCPU > o.milliCPU) || (n.memory > 0 && n.memory > o.memory))
    found.push(A.UpdatePodScaleUp);
  if ((newPod.spec?.schedulingGates ?? []).length === 0 && (oldPod.spec?.schedulingGates ?? []).length !== 0)
    found.push(A.UpdatePodSchedulingGatesEliminated);
  if ((newPod.spec?.tolerations ?? []).length !== (oldPod.spec?.tolerations ?? []).length)
    found.push(A.UpdatePodToleration);
  if (found.length === 0) found.push(A.Update);
  return found.map((actionType) => ({ resource, actionType }));
}

// ------------------------------------------------------------------ the plugins' QueueingHintFns

const asNode = (o: unknown) => o as Node | undefined;
const asPod = (o: unknown) => o as Pod | undefined;

/** NodeUnschedulable.isSchedulableAfterNodeChange: a schedulable node was added, or a node was uncordoned. */
export function nodeUnschedulableAfterNodeChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const o = asNode(oldObj);
  const n = asNode(newObj)!;
  return (o ? !!o.spec?.unschedulable && !n.spec?.unschedulable : !n.spec?.unschedulable) ? 'Queue' : 'QueueSkip';
}

/** NodeUnschedulable.isSchedulableAfterTargetPodTolerationChange: the pod now tolerates the unschedulable taint. */
export function nodeUnschedulableAfterTargetPodTolerationChange(
  _pod: Pod,
  _oldObj: unknown,
  newObj: unknown,
): QueueingHint {
  const t: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
  return tolerationsTolerateTaint(asPod(newObj)!.spec?.tolerations, t) ? 'Queue' : 'QueueSkip';
}

/** TaintToleration.isSchedulableAfterNodeChange: the node went from an untolerated taint to none. */
export function taintTolerationAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const untolerated = (n: Node) =>
    findMatchingUntoleratedTaint(n.spec?.taints, pod.spec?.tolerations, doNotScheduleTaintsFilter) !== undefined;
  const o = asNode(oldObj);
  const was = o ? untolerated(o) : true;
  return was && !untolerated(asNode(newObj)!) ? 'Queue' : 'QueueSkip';
}

/** NodeAffinity.isSchedulableAfterNodeChange: the node matches the pod's required affinity now and did not before. */
export function nodeAffinityAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  if (!requiredNodeAffinityMatches(pod, asNode(newObj)!)) return 'QueueSkip';
  const o = asNode(oldObj);
  return !o || !requiredNodeAffinityMatches(pod, o) ? 'Queue' : 'QueueSkip';
}

/** NodePorts.isSchedulableAfterAssignedPodDeleted: the deleted pod held one of the ports the pod wants. */
export function nodePortsAfterAssignedPodDeleted(pod: Pod, oldObj: unknown): QueueingHint {
  const deleted = asPod(oldObj)!;
  if (!deleted.spec?.nodeName && !deleted.status?.nominatedNodeName) return 'QueueSkip';
  const used = podHostPorts(deleted);
  if (used.length === 0) return 'QueueSkip';
  // fitsPorts: HostPortInfo.CheckConflict, where 0.0.0.0 clashes with every IP.
  const clash = podHostPorts(pod).some((w) =>
    used.some(
      (u) =>
        u.protocol === w.protocol && u.port === w.port && (u.ip === w.ip || u.ip === '0.0.0.0' || w.ip === '0.0.0.0'),
    ),
  );
  return clash ? 'Queue' : 'QueueSkip';
}

function allocatable(node: Node): Resource {
  let r = allocatableCache.get(node);
  if (!r) allocatableCache.set(node, (r = allocatableOf(node)));
  return r;
}

// isFit: the pod fits the node when it is empty (a NodeInfo with no pods).
function isFit(pod: Pod, node: Node): boolean {
  const req = computePodResource(pod).requests;
  const a = allocatable(node);
  return (
    a.allowedPodNumber >= 1 &&
    !(req.milliCPU > 0 && req.milliCPU > a.milliCPU) &&
    !(req.memory > 0 && req.memory > a.memory)
  );
}

/** NodeResourcesFit.isSchedulableAfterNodeChange: an added node the pod fits, or a node that grew in something the pod asks for. */
export function nodeResourcesFitAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const n = asNode(newObj)!;
  if (!isFit(pod, n)) return 'QueueSkip';
  const o = asNode(oldObj);
  if (!o) return 'Queue';
  // haveAnyRequestedResourcesIncreased.
  const req = computePodResource(pod).requests;
  const was = allocatable(o);
  const now = allocatable(n);
  if (now.allowedPodNumber > was.allowedPodNumber) return 'Queue';
  return (req.milliCPU > 0 && now.milliCPU > was.milliCPU) || (req.memory > 0 && now.memory > was.memory)
    ? 'Queue'
    : 'QueueSkip';
}

/** NodeResourcesFit.isSchedulableAfterAssignedPodDelete: any scheduled (or nominated) pod going away may free room. */
export function nodeResourcesFitAfterAssignedPodDelete(_pod: Pod, oldObj: unknown): QueueingHint {
  const deleted = asPod(oldObj)!;
  return deleted.spec?.nodeName || deleted.status?.nominatedNodeName ? 'Queue' : 'QueueSkip';
}

/** NodeResourcesFit.isSchedulableAfterAssignedPodScaleDown: a scheduled pod gave back some of what the pod asks for. */
export function nodeResourcesFitAfterAssignedPodScaleDown(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const n = asPod(newObj)!;
  if (!n.spec?.nodeName) return 'QueueSkip';
  const want = computePodResource(pod).requests;
  const before = computePodResource(asPod(oldObj)!).requests;
  const after = computePodResource(n).requests;
  return (want.milliCPU > 0 && before.milliCPU > after.milliCPU) || (want.memory > 0 && before.memory > after.memory)
    ? 'Queue'
    : 'QueueSkip';
}

// PodTopologySpread.getConstraints: the pod's DoNotSchedule constraints, or the system defaults.
// The system defaults are all ScheduleAnyway, so a pod without constraints of its own has none here.
function spreadConstraints(pod: Pod): SpreadConstraint[] {
  return filterTopologySpreadConstraints(pod.spec?.topologySpreadConstraints, pod.metadata?.labels, 'DoNotSchedule');
}

// isSchedulableAfterPodLabelChange: the update makes the pod match, or stop matching, a selector.
function afterPodLabelChange(o: Pod, n: Pod, constraints: SpreadConstraint[]): QueueingHint {
  if (semanticEqual(n.metadata?.labels, o.metadata?.labels)) return 'QueueSkip';
  return constraints.some(
    (c) =>
      labelSelectorMatches(c.selector, o.metadata?.labels) !== labelSelectorMatches(c.selector, n.metadata?.labels),
  )
    ? 'Queue'
    : 'QueueSkip';
}

/** PodTopologySpread.isSchedulableAfterAssignedPodChange: a pod in the namespace that matches a constraint came, went or changed labels. */
export function podTopologySpreadAfterAssignedPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const o = asPod(oldObj);
  const n = asPod(newObj);
  // involvedInTopologySpreading: scheduled or nominated, and in the pod's namespace.
  const involved = (p: Pod) =>
    (!!p.spec?.nodeName || !!p.status?.nominatedNodeName) &&
    (p.metadata?.namespace ?? '') === (pod.metadata?.namespace ?? '');
  if ((n && !involved(n)) || (o && !involved(o))) return 'QueueSkip';
  const constraints = spreadConstraints(pod);
  if (n && o) return afterPodLabelChange(o, n, constraints);
  const labels = (n ?? o)!.metadata?.labels;
  return constraints.some((c) => labelSelectorMatches(c.selector, labels)) ? 'Queue' : 'QueueSkip';
}

/** PodTopologySpread.isSchedulableAfterTargetPodChange: a new toleration under a Honor taints policy, or a label change that matters. */
export function podTopologySpreadAfterTargetPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const o = asPod(oldObj)!;
  const n = asPod(newObj)!;
  const constraints = spreadConstraints(pod);
  if (
    !semanticEqual(n.spec?.tolerations, o.spec?.tolerations) &&
    constraints.some((c) => c.nodeTaintsPolicy === 'Honor')
  )
    return 'Queue';
  return afterPodLabelChange(o, n, constraints);
}

/** PodTopologySpread.isSchedulableAfterNodeChange: a node that carries (or carried) every topology key came, went, or changed. */
export function podTopologySpreadAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const o = asNode(oldObj);
  const n = asNode(newObj);
  const constraints = spreadConstraints(pod);
  const om = !!o && nodeLabelsMatchSpreadConstraints(o.metadata?.labels, constraints);
  const nm = !!n && nodeLabelsMatchSpreadConstraints(n.metadata?.labels, constraints);
  if (o && n) {
    if (om !== nm) return 'Queue';
    // checkTopologyKeyLabelsChanged, or different taints.
    const keyChanged = constraints.some(
      (c) => o.metadata?.labels?.[c.topologyKey] !== n.metadata?.labels?.[c.topologyKey],
    );
    return nm && (keyChanged || !semanticEqual(o.spec?.taints, n.spec?.taints)) ? 'Queue' : 'QueueSkip';
  }
  return (n ? nm : om) ? 'Queue' : 'QueueSkip';
}

/** One registration of a plugin's EventsToRegister; no hint means Queue (defaultQueueingHintFn). */
export interface ClusterEventWithHint {
  plugin: string;
  event: ClusterEvent;
  hint?: QueueingHintFn;
}

const A = ActionType;
const ev = (resource: EventResource, actionType: number): ClusterEvent => ({ resource, actionType });

/**
 * The queueing hint map of the default profile, for the filter plugins the simulation runs
 * (InPlacePodVerticalScaling is GA, so NodeResourcesFit registers the scale-down events; the
 * alpha InPlacePodVerticalScalingSchedulerPreemption and DRA extended resources are off).
 */
export const QUEUEING_HINT_MAP: readonly ClusterEventWithHint[] = [
  { plugin: 'NodeUnschedulable', event: ev('Node', A.Add | A.UpdateNodeTaint), hint: nodeUnschedulableAfterNodeChange },
  {
    plugin: 'NodeUnschedulable',
    event: ev('TargetPod', A.UpdatePodToleration),
    hint: nodeUnschedulableAfterTargetPodTolerationChange,
  },
  { plugin: 'NodeName', event: ev('Node', A.Add) },
  { plugin: 'TaintToleration', event: ev('Node', A.Add | A.UpdateNodeTaint), hint: taintTolerationAfterNodeChange },
  // isSchedulableAfterTargetPodTolerationChange always says Queue.
  { plugin: 'TaintToleration', event: ev('TargetPod', A.UpdatePodToleration) },
  { plugin: 'NodeAffinity', event: ev('Node', A.Add | A.UpdateNodeLabel), hint: nodeAffinityAfterNodeChange },
  { plugin: 'NodePorts', event: ev('AssignedPod', A.Delete), hint: nodePortsAfterAssignedPodDeleted },
  { plugin: 'NodePorts', event: ev('Node', A.Add) },
  { plugin: 'NodeResourcesFit', event: ev('AssignedPod', A.Delete), hint: nodeResourcesFitAfterAssignedPodDelete },
  {
    plugin: 'NodeResourcesFit',
    event: ev('Node', A.Add | A.UpdateNodeAllocatable),
    hint: nodeResourcesFitAfterNodeChange,
  },
  {
    plugin: 'NodeResourcesFit',
    event: ev('AssignedPod', A.UpdatePodScaleDown),
    hint: nodeResourcesFitAfterAssignedPodScaleDown,
  },
  // isSchedulableAfterTargetPodScaleDown always says Queue.
  { plugin: 'NodeResourcesFit', event: ev('TargetPod', A.UpdatePodScaleDown) },
  {
    plugin: 'PodTopologySpread',
    event: ev('AssignedPod', A.Add | A.UpdatePodLabel | A.Delete),
    hint: podTopologySpreadAfterAssignedPodChange,
  },
  {
    plugin: 'PodTopologySpread',
    event: ev('TargetPod', A.UpdatePodToleration | A.UpdatePodLabel),
    hint: podTopologySpreadAfterTargetPodChange,
  },
  {
    plugin: 'PodTopologySpread',
    event: ev('Node', A.Add | A.Delete | A.UpdateNodeLabel | A.UpdateNodeTaint),
    hint: podTopologySpreadAfterNodeChange,
  },
];

/** isEventOfInterest: some plugin registered the event (wildcards always are). */
export function isEventOfInterest(
  event: ClusterEvent,
  map: readonly ClusterEventWithHint[] = QUEUEING_HINT_MAP,
): boolean {
  return clusterEventIsWildCard(event) || map.some((r) => matchClusterEvents(r.event, event));
}
