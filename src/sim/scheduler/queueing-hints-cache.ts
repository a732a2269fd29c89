// The memos of queueing-hints.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one queueing-hints.ts computes without them.

import type { Node } from './k8s-types.ts';
import type { Resource } from './node-info.ts';

/**
 * allocatableOf parses quantities; one node object is asked about once per unschedulable pod.
 * (The memo behind queueing-hints.ts' allocatable.)
 */
export const allocatableCache = new WeakMap<Node, Resource>();
