import type { Pod, ReplicaSet, Service, StatefulSet } from './k8s-types.ts';
import type { NodeInfo } from './node-info.ts';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { normalizeTable } from './framework-cache.ts';

// The scheduling framework's contracts (pkg/scheduler/framework/interface.go), as plain functions.

/** MaxNodeScore: every score plugin's normalized output lies in [0, 100]. */
export const MAX_NODE_SCORE = 100;

/** fwk.Code, the subset a filter returns. */
export type Code = 'Success' | 'Unschedulable' | 'UnschedulableAndUnresolvable';

/** fwk.Status as data: a code and the reasons that end up in FailedScheduling. */
export interface Status {
  code: Code;
  reasons: string[];
}

/** The only source of chance: `int(n)` returns an integer in [0, n). */
export interface Rng {
  int(n: number): number;
}

/** Objects the default-spreading selector is built from (helper.DefaultSelector's listers). */
export interface Listers {
  services?: Service[];
  replicaSets?: ReplicaSet[];
  statefulSets?: StatefulSet[];
  /** DefaultPreemption's pdbLister: every PodDisruptionBudget, for SelectVictimsOnNode. */
  pdbs?: PodDisruptionBudget[];
}

/** CycleState plus the snapshot: what every plugin may read during one scheduling cycle. */
export interface CycleContext {
  /** All nodes in the snapshot, in snapshot order. */
  allNodes: NodeInfo[];
  /** Per-cycle plugin state written by PreFilter / PreScore (keyed by plugin name). */
  state: Record<string, unknown>;
  listers: Listers;
  /** Print the taint in TaintToleration's reason, as v1.26–v1.34 did. */
  taintReasonWithKey?: boolean;
  /**
   * Set by the caller of a batch `scoreAll` when it knows each feasible node's position in
   * `allNodes` (feasible[i] === allNodes[feasibleIdx[i]]), so per-slot caches can be used.
   */
  feasibleIdx?: ArrayLike<number>;
}

/** fwk.PreFilterResult plus the status: reject the pod outright, or narrow the nodes to evaluate. */
interface PreFilterResult {
  status?: Status;
  /** Only these nodes can fit (e.g. node affinity on metadata.name); undefined = all nodes. */
  nodeNames?: string[];
}

/** A Filter plugin. */
export interface FilterPlugin {
  name: string;
  /** Runs once per cycle before any filter. */
  preFilter?(pod: Pod, ctx: CycleContext): PreFilterResult | undefined;
  filter(pod: Pod, nodeInfo: NodeInfo, ctx: CycleContext): Status;
  /** PreFilterExtensions.AddPod: `podToAdd` now counts on `nodeInfo` (replace ctx.state entries, never mutate them). */
  addPod?(pod: Pod, podToAdd: Pod, nodeInfo: NodeInfo, ctx: CycleContext): void;
  /** PreFilterExtensions.RemovePod: `podToRemove` no longer counts on `nodeInfo`. */
  removePod?(pod: Pod, podToRemove: Pod, nodeInfo: NodeInfo, ctx: CycleContext): void;
}

/** A Score plugin with its weight in the default profile. */
export interface ScorePlugin {
  name: string;
  weight: number;
  /** Returns false to Skip the plugin for this pod (every node then gets 0 from it). */
  preScore?(pod: Pod, feasible: NodeInfo[], ctx: CycleContext): boolean;
  score(pod: Pod, nodeInfo: NodeInfo, ctx: CycleContext): number;
  /** Optional batch form of `score`: out[i] = score(pod, feasible[i], ctx) for every i, in one pass. */
  scoreAll?(pod: Pod, feasible: NodeInfo[], ctx: CycleContext, out: number[]): void;
  /** NormalizeScore over the raw scores of the feasible nodes, in place. */
  normalize?(scores: number[], feasible: NodeInfo[], ctx: CycleContext): void;
}

/** A successful Status. */
export const SUCCESS: Status = Object.freeze({ code: 'Success', reasons: [] });

/** fwk.NewStatus. */
export function newStatus(code: Code, ...reasons: string[]): Status {
  return { code, reasons };
}

/** helper.DefaultNormalizeScore: scale to [0, maxPriority] by the max, optionally reversed. */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: number[]): void {
  let maxCount = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i] > maxCount) maxCount = scores[i];
  if (maxCount === 0) {
    if (reverse) for (let i = 0; i < scores.length; i++) scores[i] = maxPriority;
    return;
  }
  // Raw scores are usually small whole numbers (taint counts, affinity weights): divide once per value.
  const table = maxCount < 1024 && scores.length > 32 ? normalizeTable(maxCount + 1) : undefined;
  if (table) {
    for (let v = 0; v <= maxCount; v++) {
      let s = Math.trunc((maxPriority * v) / maxCount);
      if (reverse) s = maxPriority - s;
      table[v] = s;
    }
  }
  for (let i = 0; i < scores.length; i++) {
    const hit = table !== undefined ? table[scores[i]] : undefined;
    if (hit !== undefined) {
      scores[i] = hit;
      continue;
    }
    // Go int64 division truncates toward zero.
    let s = Math.trunc((maxPriority * scores[i]) / maxCount);
    if (reverse) s = maxPriority - s;
    scores[i] = s;
  }
}

/** corev1helpers.PodPriority: spec.priority, 0 when unset. */
export function podPriority(pod: Pod): number {
  return pod.spec?.priority ?? 0;
}
