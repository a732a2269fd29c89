// The memos of time.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one time.ts computes without them.

/** The memo behind time.ts' parseTime (behaviour-side, never state). */
export const parsed = new Map<string, number>();
