// The memos of pod-ip.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one pod-ip.ts computes without them.

/** The memo behind pod-ip.ts' prefix (behaviour-side, never state). */
export const prefixes = new Map<string, string>();

/** net prefix → host → the address string, one string object per address (they key `allocated`). */
export const ipStrings = new Map<string, string[]>();
