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

/** The memo behind informer.ts' metaNamespaceKey (behaviour-side, never state). */
export const keyCache = new WeakMap<object, string>();

/** The memo behind informer.ts' listerList (behaviour-side, never state). */
export const sortedKeys = new WeakMap<object, { resourceVersion: string; keys: string[] }>();

let lastKeyed: object | undefined;
let lastKey = '';

/** metaNamespaceKey's last answer, when `o` is the object it was for (one notified object reaches several informers in a row). */
export function lastKeyOf(o: object): string | undefined {
  return o === lastKeyed ? lastKey : undefined;
}

/** Remember metaNamespaceKey's answer `k` for `o`. */
export function rememberKey(o: object, k: string): void {
  lastKeyed = o;
  lastKey = k;
}

let lastNotified: unknown;
let lastNotifiedResource = '';
let lastNotifiedKeyValue = '';

/** The informer key last found for notified object `obj` of `resource`, or undefined for another. */
export function lastNotifiedKey(obj: unknown, resource: string): string | undefined {
  return obj === lastNotified && resource === lastNotifiedResource ? lastNotifiedKeyValue : undefined;
}

/** Remember informer key `key` of notified object `obj` of `resource`. */
export function rememberNotifiedKey(obj: unknown, resource: string, key: string): void {
  lastNotified = obj; lastNotifiedResource = resource; lastNotifiedKeyValue = key;
}
