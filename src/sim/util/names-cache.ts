// The memos of names.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one names.ts computes without them.

/** The memo behind names.ts' rfc3339 (behaviour-side, never state). */
export const rfcSeconds = new Map<number, string>();
