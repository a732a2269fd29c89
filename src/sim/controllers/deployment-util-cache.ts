// The memos of deployment-util.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one deployment-util.ts computes without them.

/**
 * Stored templates are immutable and keep their identity across status writes, so the answer for a
 * pair of template objects never changes: remembered (behaviour-side, weakly held).
 * (The memo behind deployment-util.ts' equalIgnoreHash.)
 */
export const equalIgnoreHashMemo = new WeakMap<object, WeakMap<object, boolean>>();
