// ObjectMeta's omitempty collections, as every stored object comes out of Go's JSON encoder: in the
// core, since the typed decoding (decode.ts) that calls it on a checked body is a part (RequestChecks).
import type { Unstructured } from './unstructured.ts';

/** ObjectMeta's collections tagged `json:",omitempty"`: Go's encoder writes none of them when empty. */
const META_OMITEMPTY = ['labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'] as const;

const isEmpty = (v: unknown): boolean =>
  Array.isArray(v) ? v.length === 0 : typeof v === 'object' && v !== null && Object.keys(v).length === 0;

/**
 * `obj` as it is stored: the object decodes into ObjectMeta and encodes back, so an empty
 * `labels: {}` or `ownerReferences: []` is not written (the same object when none is empty).
 */
export function omitEmptyMeta(obj: Unstructured): Unstructured {
  const m = obj?.metadata as Unstructured | undefined;
  if (typeof m !== 'object' || m === null || !META_OMITEMPTY.some((k) => isEmpty(m[k]))) return obj;
  const meta: Unstructured = {};
  for (const k in m) if (!((META_OMITEMPTY as readonly string[]).includes(k) && isEmpty(m[k]))) meta[k] = m[k];
  return { ...obj, metadata: meta };
}
