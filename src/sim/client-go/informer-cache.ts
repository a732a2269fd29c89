// The memos of informer.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one informer.ts computes without them.

/**
 * `ns/uid` of a controlling owner, one flat string (and one one-element array) per owner: every object
 * it owns, in every version, is filed under it, and a string built per call is flattened and hashed
 * again at each lookup. Keyed by uid (unique per object); behaviour-side and bounded, never state.
 * (The memo behind informer.ts' ownerEntry.)
 */
export const ownerValues = new Map<string, { ns: string; value: string; values: string[] }>();

/**
 * One (read-only) array per node name for the nodeName index. Bounded, never state.
 * (The memo behind informer.ts' nodeValues.)
 */
export const nodeArrays = new Map<string, string[]>();

/**
 * Handlers close over a component's context and state; building them for every event would make a
 * dozen closures per notification. Kept per context and builder, rebuilt when the state is replaced.
 * (The memo behind informer.ts' memoHandlers.)
 */
export const handlerMemo = new WeakMap<object, Map<unknown, { state: unknown; value: unknown }>>();

/** The memo behind informer.ts' listerList (behaviour-side, never state). */
export const sortedKeys = new WeakMap<object, { resourceVersion: string; keys: string[] }>();

/**
 * The key informerHandle last found for a notified object of a resource: the readers of a shared
 * watch get the same object in a row (their handlers' own lookups would evict it from the names cache's).
 */
export const lastNotified: { object: unknown; resource: string; key: string } = {
  object: undefined,
  resource: '',
  key: '',
};
