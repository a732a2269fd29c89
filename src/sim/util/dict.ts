// Plain objects used as dictionaries (id → record) in the simulation's state.
//
// V8 gives an empty `{}` a hidden class and, for each new key, a new hidden class hung off the
// previous one; ids and pod keys are unique, so every node's maps grew a private chain of hidden
// classes (and the shared root's transition list grew with every first key) before V8 gave up and
// switched the object to dictionary mode. Starting in dictionary mode skips all of that. The objects
// stay ordinary plain data (Object.prototype, insertion order, structuredClone and JSON alike).

/** An empty object already in dictionary mode (deleting a key that is not the last one puts it there). */
export function newDict<T>(): Record<string, T> {
  const o = { a: undefined, b: undefined } as Record<string, unknown>;
  delete o.a;
  delete o.b;
  return o as Record<string, T>;
}

/** A dictionary-mode copy of `src` (same keys in the same order), with `key` set to `value` when given. */
export function copyDict<T>(src: Record<string, T>, key?: string, value?: T): Record<string, T> {
  const out = newDict<T>();
  for (const k in src) out[k] = src[k];
  if (key !== undefined) out[key] = value as T;
  return out;
}
