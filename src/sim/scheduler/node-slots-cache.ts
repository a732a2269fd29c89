// The memos of node-slots.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one node-slots.ts computes without them.

import type { NodeInfo } from './node-info.ts';
import type { NodeSlots } from './node-slots.ts';

/** The memo behind node-slots.ts' nodeSlots (behaviour-side, never state). */
export const slotsByList = new WeakMap<NodeInfo[], NodeSlots>();
