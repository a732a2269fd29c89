// The memos of pod-topology-spread.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one pod-topology-spread.ts computes without them.

import type { Listers } from './framework.ts';
import type { NodeSlots } from './node-slots.ts';
import type { MatchCounter, PtsViews, SpreadConstraint } from './pod-topology-spread.ts';

/**
 * buildDefaultConstraints per listers object (the scheduler keeps one while no Service or
 * ReplicaSet changes), by what the selector is made of: namespace, controller and labels. The
 * pods of one ReplicaSet then share one result; callers only read it.
 * (The memo behind pod-topology-spread.ts' buildDefaultConstraints.)
 */
export const defaultConstraintsMemo = new WeakMap<Listers, Map<string, SpreadConstraint[]>>();

/** The memo behind pod-topology-spread.ts' namespacesWithServices (behaviour-side, never state). */
export const serviceNamespaces = new WeakMap<Listers, Set<string>>();

/**
 * The counters made for a constraint object, by namespace: default constraints are shared by the
 * pods of a ReplicaSet (buildDefaultConstraints' memo), so a burst makes each counter once.
 * (The memo behind pod-topology-spread.ts' matchCounter.)
 */
export const countersOf = new WeakMap<SpreadConstraint, Map<string, MatchCounter>>();

/** The memo behind pod-topology-spread.ts' viewsOf (behaviour-side, never state). */
export const ptsViews = new WeakMap<NodeSlots, PtsViews>();

// Scratch arrays reused across calls so that scoring allocates nothing; every call overwrites what it reads.
let tableBuf = new Float64Array(1024);
let tableView = tableBuf.subarray(0, 0);

/** Scratch for normalize's per-value table (valid until the next call). */
export function scratchTable(n: number): Float64Array {
  if (tableView.length !== n) {
    if (tableBuf.length < n) tableBuf = new Float64Array(n);
    tableView = tableBuf.subarray(0, n);
  }
  return tableView;
}

let termsBuf = new Float64Array(64);

/** Scratch for scoreAll's per-domain terms (valid until the next call). */
export function domainTerms(n: number): Float64Array {
  if (termsBuf.length < n) termsBuf = new Float64Array(n * 2);
  return termsBuf;
}

let scratchBuf = new Float64Array(1024);
let scratchView = scratchBuf.subarray(0, 0);

/** A zeroed scratch array of length n (reused: valid until the next call). */
export function scratch(n: number): Float64Array {
  if (scratchView.length !== n) {
    if (scratchBuf.length < n) scratchBuf = new Float64Array(n * 2);
    scratchView = scratchBuf.subarray(0, n);
  }
  scratchView.fill(0);
  return scratchView;
}
