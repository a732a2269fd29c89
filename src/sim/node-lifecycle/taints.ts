// Node taints the node-lifecycle controller owns. Src: pkg/controller/nodelifecycle/node_lifecycle_controller.go
// (doNoScheduleTaintingPass, processTaintBaseEviction, markNodeAsReachable) and pkg/controller/util/node
// (SwapNodeControllerTaint, which stamps timeAdded on every taint it adds).
import type { Node, Taint } from 'kubernetes-types/core/v1';
import { rfc3339 } from '../util/time.ts';
import { setOf } from '../util/table.ts';

/** v1.TaintNodeNotReady */
export const TaintNodeNotReady = 'node.kubernetes.io/not-ready';
/** v1.TaintNodeUnreachable */
export const TaintNodeUnreachable = 'node.kubernetes.io/unreachable';
/** v1.TaintNodeUnschedulable */
const TaintNodeUnschedulable = 'node.kubernetes.io/unschedulable';
/** v1.TaintNodeMemoryPressure */
const TaintNodeMemoryPressure = 'node.kubernetes.io/memory-pressure';
/** v1.TaintNodeDiskPressure */
const TaintNodeDiskPressure = 'node.kubernetes.io/disk-pressure';
/** v1.TaintNodePIDPressure */
const TaintNodePIDPressure = 'node.kubernetes.io/pid-pressure';
/** v1.TaintNodeNetworkUnavailable */
const TaintNodeNetworkUnavailable = 'node.kubernetes.io/network-unavailable';

/** UnreachableTaintTemplate: what an unreachable node gets so its pods are evicted. */
export const UnreachableTaintTemplate: Taint = { key: TaintNodeUnreachable, effect: 'NoExecute' };
/** NotReadyTaintTemplate. */
export const NotReadyTaintTemplate: Taint = { key: TaintNodeNotReady, effect: 'NoExecute' };

/** nodeConditionToTaintKeyStatusMap: condition type → status → NoSchedule taint key. */
const nodeConditionToTaintKeyStatusMap: Record<string, Record<string, string>> = {
  Ready: { False: TaintNodeNotReady, Unknown: TaintNodeUnreachable },
  MemoryPressure: { True: TaintNodeMemoryPressure },
  DiskPressure: { True: TaintNodeDiskPressure },
  NetworkUnavailable: { True: TaintNodeNetworkUnavailable },
  PIDPressure: { True: TaintNodePIDPressure },
};

const conditionTaintKeys = setOf(Object.values(nodeConditionToTaintKeyStatusMap).flatMap((m) => Object.values(m)));

/** Taint.MatchTaint: same key and effect. */
export function matchTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** taintutils.TaintExists. */
export function taintExists(taints: Taint[] | undefined, t: Taint): boolean {
  // A loop, not some(): every monitor pass asks this of every node.
  if (taints) for (let i = 0; i < taints.length; i++) if (matchTaint(taints[i], t)) return true;
  return false;
}

/** SwapNodeControllerTaint on plain data: add (stamped with timeAdded = now) then remove. */
export function swapNodeControllerTaint(node: Node, taintsToAdd: Taint[], taintsToRemove: Taint[], now: number): Node {
  let taints = [...(node.spec?.taints ?? [])];
  for (const t of taintsToAdd) {
    const stamped: Taint = { ...t, timeAdded: rfc3339(now) };
    const i = taints.findIndex((x) => matchTaint(x, t));
    // AddOrUpdateTaint leaves an identical taint alone, so its timeAdded is kept.
    if (i === -1) taints.push(stamped);
    else if (taints[i].value !== t.value) taints[i] = stamped;
  }
  taints = taints.filter((x) => !taintsToRemove.some((r) => matchTaint(x, r)));
  return { ...node, spec: { ...node.spec, taints } };
}

/** doNoScheduleTaintingPass: the NoSchedule taints the node's conditions (and cordon) call for, as a diff. */
export function doNoScheduleTaintingPass(node: Node): { taintsToAdd: Taint[]; taintsToDel: Taint[] } {
  const wanted: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = nodeConditionToTaintKeyStatusMap[c.type]?.[c.status];
    if (key) wanted.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) wanted.push({ key: TaintNodeUnschedulable, effect: 'NoSchedule' });
  // Only NoSchedule taints this controller owns are compared; others belong to users.
  const owned = (node.spec?.taints ?? []).filter(
    (t) => t.effect === 'NoSchedule' && (t.key === TaintNodeUnschedulable || conditionTaintKeys.has(t.key)),
  );
  return {
    taintsToAdd: wanted.filter((w) => !owned.some((o) => matchTaint(o, w))),
    taintsToDel: owned.filter((o) => !wanted.some((w) => matchTaint(o, w))),
  };
}

/** Apply doNoScheduleTaintingPass to a node (unchanged object when nothing differs). */
export function applyNoScheduleTaints(node: Node, now: number): Node {
  const { taintsToAdd, taintsToDel } = doNoScheduleTaintingPass(node);
  if (taintsToAdd.length === 0 && taintsToDel.length === 0) return node;
  return swapNodeControllerTaint(node, taintsToAdd, taintsToDel, now);
}

/** The NoExecute swap processTaintBaseEviction does straight away when the opposite taint is already there. */
export function noExecuteSwapFor(readyStatus: string | undefined): { add: Taint; remove: Taint } | undefined {
  if (readyStatus === 'False') return { add: NotReadyTaintTemplate, remove: UnreachableTaintTemplate };
  if (readyStatus === 'Unknown') return { add: UnreachableTaintTemplate, remove: NotReadyTaintTemplate };
  return undefined;
}

/** markNodeAsReachable: drop both NoExecute taints (the caller also removes the node from the taint queue). */
export function markNodeAsReachable(node: Node): { node: Node; removed: boolean } {
  const before = node.spec?.taints ?? [];
  const taints = before.filter(
    (t) => !matchTaint(t, UnreachableTaintTemplate) && !matchTaint(t, NotReadyTaintTemplate),
  );
  if (taints.length === before.length) return { node, removed: false };
  return { node: { ...node, spec: { ...node.spec, taints } }, removed: true };
}

/** labelNodeDisruptionExclusion. */
const labelNodeDisruptionExclusion = 'node.kubernetes.io/exclude-disruption';

/** isNodeExcludedFromDisruptionChecks: the label's presence (any value) keeps the node out of zone counting. */
export function isNodeExcludedFromDisruptionChecks(node: Node): boolean {
  return node.metadata?.labels?.[labelNodeDisruptionExclusion] !== undefined;
}
