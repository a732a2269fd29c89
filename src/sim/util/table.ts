// Constant lookup tables, built once at load and never changed. A function builds them so that the
// lint rule against module-level collections (eslint.config.js) tells them from memos, and their
// Readonly types keep them unchanged.

/** A constant set of `items`. */
export function setOf<T>(items: Iterable<T>): ReadonlySet<T> {
  return new Set(items);
}

/** A constant map of `entries`. */
export function mapOf<K, V>(entries: Iterable<readonly [K, V]>): ReadonlyMap<K, V> {
  return new Map(entries);
}
