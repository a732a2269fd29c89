// Strategic merge patch and JSON merge patch (RFC 7386); JSON patch (RFC 6902), which only kubectl
// sends, is json-patch.ts, in kubectl's lazy chunk.
import { deepEqual } from '../util/names.ts';
import type { Unstructured } from './unstructured.ts';

/** patchMergeKey of the list fields the simulator patches (by field name; `ports` picks its key from the items). */
export const PATCH_MERGE_KEYS: Record<string, string> = {
  conditions: 'type',
  containerStatuses: 'name',
  initContainerStatuses: 'name',
  ephemeralContainerStatuses: 'name',
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  addresses: 'type',
  ownerReferences: 'uid',
  imagePullSecrets: 'name',
  images: 'names',
};

/** Strategic merge patch (the common cases): maps merge, lists with a merge key merge by key, `null` deletes. */
export function strategicMergePatch(target: unknown, patch: unknown, field = ''): unknown {
  if (Array.isArray(patch)) {
    let key = PATCH_MERGE_KEYS[field];
    if (field === 'ports')
      key = patch.some((p) => p && typeof p === 'object' && 'containerPort' in p) ? 'containerPort' : 'port';
    if (!key || key === 'names' || !Array.isArray(target)) return patch;
    const out = [...target] as Unstructured[];
    for (const item of patch as Unstructured[]) {
      if (!item || typeof item !== 'object') continue;
      const i = out.findIndex((x) => x && x[key] === item[key]);
      if (item.$patch === 'delete') {
        if (i >= 0) out.splice(i, 1);
        continue;
      }
      if (i >= 0) out[i] = strategicMergePatch(out[i], item) as Unstructured;
      else out.push(item);
    }
    return out;
  }
  if (patch === null || typeof patch !== 'object') return patch;
  const out: Unstructured =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Unstructured) } : {};
  const p = patch as Unstructured;
  for (const k in p) {
    // plain JSON: own keys, in the same order as Object.entries
    const v = p[k];
    if (v === null) delete out[k];
    else out[k] = strategicMergePatch(out[k], v, k);
  }
  return out;
}

/**
 * Whether `mergePatch(target, patch)` is deepEqual to `target`, found by walking the patch alone
 * (what it does not name is target's own): a status patch is small, the status it lands on is not.
 */
export function mergePatchIsNoop(target: unknown, patch: unknown): boolean {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return deepEqual(patch, target);
  // An object patch on anything but an object makes a new object.
  if (!target || typeof target !== 'object' || Array.isArray(target)) return false;
  const t = target as Unstructured;
  const p = patch as Unstructured;
  for (const k in p) {
    if (k === '__proto__') return deepEqual(mergePatch(target, patch), target); // sets a prototype: not plain data
    const v = p[k];
    const own = Object.hasOwn(t, k);
    // A deleted key is a change only when target has it; a key target lacks is added unless undefined.
    if (v === null) {
      if (own && t[k] !== undefined) return false;
    } else if (own ? !mergePatchIsNoop(t[k], v) : v !== undefined) return false;
  }
  return !hasNaNValue(t);
}

/** Whether one of `o`'s own values is NaN (deepEqual finds a copy of such an object unequal to it). */
export function hasNaNValue(o: Unstructured): boolean {
  for (const k in o) {
    const v = o[k];
    if (v !== v) return true;
  }
  return false;
}

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Unstructured =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Unstructured) } : {};
  const p = patch as Unstructured;
  for (const k in p) {
    // plain JSON: own keys, in the same order as Object.entries
    const v = p[k];
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
/** The status `patch` gives `status` (what patching the whole object leaves in its `status`). */
export function patchedStatus(status: unknown, patch: Unstructured, merge: boolean): unknown {
  if (!('status' in patch)) return status;
  const v = patch.status;
  if (v === null) return undefined;
  return merge ? mergePatch(status, v) : strategicMergePatch(status, v, 'status');
}
