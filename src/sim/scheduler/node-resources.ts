import type { FilterPlugin, ScorePlugin } from './framework.ts';
import { MAX_NODE_SCORE, SUCCESS, newStatus } from './framework.ts';
import type { Code } from './framework.ts';
import type { NodeInfo } from './node-info.ts';
import { computePodResource } from './node-info.ts';

// noderesources: fit.go (Filter), least_allocated.go / resource_allocation.go (Score),
// balanced_allocation.go (NodeResourcesBalancedAllocation). Default scoring resources are
// cpu and memory with weight 1 each.

/** One InsufficientResource from fitsRequest. */
interface InsufficientResource {
  resourceName: 'pods' | 'cpu' | 'memory';
  reason: string;
  requested: number;
  used: number;
  capacity: number;
  /** The request exceeds the node's whole allocatable, so preemption cannot help. */
  unresolvable: boolean;
}

/** fitsRequest: pods count, then cpu, then memory, in Kubernetes' order. */
function fitsRequest(podMilliCPU: number, podMemory: number, ni: NodeInfo): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const allowed = ni.allocatable.allowedPodNumber;
  if (ni.pods.length + 1 > allowed) {
    out.push({
      resourceName: 'pods',
      reason: 'Too many pods',
      requested: 1,
      used: ni.pods.length,
      capacity: allowed,
      unresolvable: false,
    });
  }
  const a = ni.allocatable;
  const r = ni.requested;
  if (podMilliCPU > 0 && podMilliCPU > a.milliCPU - r.milliCPU) {
    out.push({
      resourceName: 'cpu',
      reason: 'Insufficient cpu',
      requested: podMilliCPU,
      used: r.milliCPU,
      capacity: a.milliCPU,
      unresolvable: podMilliCPU > a.milliCPU,
    });
  }
  if (podMemory > 0 && podMemory > a.memory - r.memory) {
    out.push({
      resourceName: 'memory',
      reason: 'Insufficient memory',
      requested: podMemory,
      used: r.memory,
      capacity: a.memory,
      unresolvable: podMemory > a.memory,
    });
  }
  return out;
}

/** NodeResourcesFit Filter: all reasons are kept; any unresolvable one makes the status unresolvable. */
export const nodeResourcesFitFilter: FilterPlugin = {
  name: 'NodeResourcesFit',
  filter(pod, nodeInfo) {
    const req = computePodResource(pod).requests;
    const a = nodeInfo.allocatable;
    const r = nodeInfo.requested;
    // Fast path for the common case: nothing is short, so no InsufficientResource list is built.
    if (
      nodeInfo.pods.length + 1 <= a.allowedPodNumber &&
      !(req.milliCPU > 0 && req.milliCPU > a.milliCPU - r.milliCPU) &&
      !(req.memory > 0 && req.memory > a.memory - r.memory)
    ) {
      return SUCCESS;
    }
    const insufficient = fitsRequest(req.milliCPU, req.memory, nodeInfo);
    if (insufficient.length === 0) return SUCCESS;
    const code: Code = insufficient.some((i) => i.unresolvable) ? 'UnschedulableAndUnresolvable' : 'Unschedulable';
    return newStatus(code, ...insufficient.map((i) => i.reason));
  },
};

/** leastRequestedScore: ((capacity − requested) × 100) / capacity, 0 when over capacity. */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** leastResourceScorer with weights: Σ score×weight / Σ weight over resources with allocatable > 0. */
export function leastAllocatedScorer(requested: number[], allocatable: number[], weights: number[] = [1, 1]): number {
  let nodeScore = 0;
  let weightSum = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    nodeScore += leastRequestedScore(requested[i], allocatable[i]) * weights[i];
    weightSum += weights[i];
  }
  return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
}

/** balancedResourceScorer: (1 − std) × 100 of the request fractions (capped at 1), truncated. */
export function balancedResourceScorer(requested: number[], allocatable: number[]): number {
  const fractions: number[] = [];
  let total = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    const f = Math.min(1, requested[i] / allocatable[i]);
    total += f;
    fractions.push(f);
  }
  let std = 0;
  if (fractions.length === 2) {
    std = Math.abs((fractions[0] - fractions[1]) / 2);
  } else if (fractions.length > 2) {
    const mean = total / fractions.length;
    let sum = 0;
    for (const f of fractions) sum += (f - mean) * (f - mean);
    std = Math.sqrt(sum / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/** NodeResourcesFit Score, LeastAllocated strategy (weight 1): uses non-zero requests so empty pods still spread. */
export const nodeResourcesFitScore: ScorePlugin = {
  name: 'NodeResourcesFit',
  weight: 1,
  score(pod, ni) {
    const p = computePodResource(pod).nonZero;
    const a = ni.allocatable;
    // leastAllocatedScorer for cpu:1, memory:1 without the arrays (this runs ~10^7 times in benchmarks).
    let sum = 0;
    let w = 0;
    if (a.milliCPU !== 0) {
      sum += leastRequestedScore(ni.nonZeroRequested.milliCPU + p.milliCPU, a.milliCPU);
      w++;
    }
    if (a.memory !== 0) {
      sum += leastRequestedScore(ni.nonZeroRequested.memory + p.memory, a.memory);
      w++;
    }
    return w === 0 ? 0 : Math.trunc(sum / w);
  },
};

/**
 * The 1.36+ score (kubernetes#135573): the change in balance the pod makes. Both balances are
 * balancedResourceScorer's, in [50, 100] (a std of fractions in [0, 1] is at most 0.5), so
 * 50 + (50 + with − without) / 2 stays in [50, 100]: 75 for no change, towards 100 for a better
 * balance, towards 50 for a worse one (Go's integer division).
 */
export function balancedAllocationScore(withPod: number, withoutPod: number): number {
  return MAX_NODE_SCORE / 2 + Math.trunc((MAX_NODE_SCORE / 2 + withPod - withoutPod) / 2);
}

/** The two-resource case of balancedResourceScorer (std = |f1 − f2| / 2), without the arrays: this runs for every node of every cycle. */
function balance2(r1: number, a1: number, r2: number, a2: number): number {
  const f1 = Math.min(1, r1 / a1);
  const f2 = Math.min(1, r2 / a2);
  return Math.trunc((1 - Math.abs((f1 - f2) / 2)) * MAX_NODE_SCORE);
}

/** NodeResourcesBalancedAllocation Score (weight 1): real requests (useRequested); skipped for best-effort pods. */
export const nodeResourcesBalancedAllocationScore: ScorePlugin = {
  name: 'NodeResourcesBalancedAllocation',
  weight: 1,
  preScore(pod) {
    // kubernetes#129138: scoring best-effort pods here piled them onto one node.
    const r = computePodResource(pod).requests;
    return r.milliCPU !== 0 || r.memory !== 0;
  },
  score(pod, ni) {
    const p = computePodResource(pod).requests;
    const a = ni.allocatable;
    const cpu = ni.requested.milliCPU;
    const mem = ni.requested.memory;
    if (a.milliCPU === 0 || a.memory === 0) {
      return balancedAllocationScore(
        balancedResourceScorer([cpu + p.milliCPU, mem + p.memory], [a.milliCPU, a.memory]),
        balancedResourceScorer([cpu, mem], [a.milliCPU, a.memory]),
      );
    }
    return balancedAllocationScore(
      balance2(cpu + p.milliCPU, a.milliCPU, mem + p.memory, a.memory),
      balance2(cpu, a.milliCPU, mem, a.memory),
    );
  },
};
