// The memos of statechart.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one statechart.ts computes without them.

import type { Statechart } from './statechart.ts';

/** The memo behind statechart.ts' statechartOf (behaviour-side, never state). */
export const charts = new WeakMap<object, Statechart>();
