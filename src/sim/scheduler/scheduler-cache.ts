// The memos of scheduler.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one scheduler.ts computes without them.

import type { NodeInfo } from './node-info.ts';
import type { SchedulerState } from './scheduler.ts';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Service } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';

/**
 * Where a pod last sat in its NodeInfo's pod list: checked first, so a status update does not scan
 * every pod on the node. Only a hint (verified against the NodeInfo it is used with, with a full
 * scan as fallback), so never state, and one table serves every node and every world.
 * (The memo behind scheduler.ts' rememberPodIndex.)
 */
export const podIndexHints = new Map<string, number>();

/**
 * The NodeInfo array handed to schedulePod, rebuilt only when the node set changes (not state:
 * a cache over it, keyed by the state object so a restored snapshot gets its own).
 * (The memo behind scheduler.ts' nodeList.)
 */
export const nodeListCache = new WeakMap<SchedulerState, { version: number; list: NodeInfo[] }>();

/** The memo behind scheduler.ts' listers (behaviour-side, never state). */
export const listerCache = new WeakMap<
  SchedulerState,
  {
    svcRv: string;
    rsRv: string;
    pdbRv: string;
    services: Service[];
    replicaSets: ReplicaSet[];
    pdbs: PodDisruptionBudget[];
  }
>();
