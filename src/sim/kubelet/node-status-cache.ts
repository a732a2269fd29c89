// The memos of node-status.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one node-status.ts computes without them.

/** The memo behind node-status.ts' machineIDs (behaviour-side, never state). */
export const machineIDCache = new Map<string, { machineID: string; systemUUID: string }>();
