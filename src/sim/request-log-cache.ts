// The memos of request-log.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one request-log.ts computes without them.

/**
 * Paths recur: one flat copy of each instead of a fresh concatenation per record. Bounded; a
 * behaviour-side cache, not state. Object names are only flattened: the records that come here
 * (CRI calls) name a fresh concatenation each time, and looking each up in a map of 200,000 cost
 * more than the few kB sharing them saved (the map itself kept up to 200,000 names alive).
 * (The memo behind request-log.ts' intern.)
 */
export const interned = new Map<string, string>();
