// The memos of pleg.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one pleg.ts computes without them.

import type { MapToken } from './kubelet-state.ts';

/**
 * plegCache → the runtime's `containers` object the last relist compared it with. The runtime is
 * copy-on-write, so the same object again means nothing changed and the relist has nothing to do.
 * Behaviour-side (a restored snapshot has new objects, so it misses and relists in full); whoever
 * edits plegCache outside a relist deletes its entry.
 */
export const plegSeen = new WeakMap<object, MapToken>();

/**
 * plegCache → a runtime `containers` object in which the relist would find nothing to report.
 * Behaviour-side like plegSeen: a miss only means the full comparison runs (same answer).
 */
export const plegClean = new WeakMap<object, MapToken>();
