// Strategic merge patch, JSON merge patch (RFC 7386) and the JSON-patch step of the patch handler.
import { deepEqual } from '../names.ts';
import { MAX_JSON_PATCH_OPERATIONS, applyJSONPatch, decodeJSONPatch } from './json-patch.ts';
import type { Obj } from './request.ts';
import { type FieldError, type Status, formatFieldError, statusError } from './status.ts';

/** patchMergeKey of the list fields the simulator patches (by field name; `ports` picks its key from the items). */
export const PATCH_MERGE_KEYS: Record<string, string> = {
  conditions: 'type', containerStatuses: 'name', initContainerStatuses: 'name', ephemeralContainerStatuses: 'name',
  containers: 'name', initContainers: 'name', env: 'name', volumes: 'name', volumeMounts: 'mountPath',
  addresses: 'type', ownerReferences: 'uid', imagePullSecrets: 'name', images: 'names',
};

/** Strategic merge patch (the common cases): maps merge, lists with a merge key merge by key, `null` deletes. */
export function strategicMergePatch(target: unknown, patch: unknown, field = ''): unknown {
  if (Array.isArray(patch)) {
    let key = PATCH_MERGE_KEYS[field];
    if (field === 'ports') key = patch.some((p) => p && typeof p === 'object' && 'containerPort' in p) ? 'containerPort' : 'port';
    if (!key || key === 'names' || !Array.isArray(target)) return patch;
    const out = [...target] as Obj[];
    for (const item of patch as Obj[]) {
      if (!item || typeof item !== 'object') continue;
      const i = out.findIndex((x) => x && x[key] === item[key]);
      if (item.$patch === 'delete') { if (i >= 0) out.splice(i, 1); continue; }
      if (i >= 0) out[i] = strategicMergePatch(out[i], item) as Obj;
      else out.push(item);
    }
    return out;
  }
  if (patch === null || typeof patch !== 'object') return patch;
  const out: Obj = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Obj) } : {};
  const p = patch as Obj;
  for (const k in p) { // plain JSON: own keys, in the same order as Object.entries
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
  const t = target as Obj;
  const p = patch as Obj;
  for (const k in p) {
    if (k === '__proto__') return deepEqual(mergePatch(target, patch), target); // sets a prototype: not plain data
    const v = p[k];
    const own = Object.hasOwn(t, k);
    // A deleted key is a change only when target has it; a key target lacks is added unless undefined.
    if (v === null) { if (own && t[k] !== undefined) return false; }
    else if (own ? !mergePatchIsNoop(t[k], v) : v !== undefined) return false;
  }
  return !hasNaNValue(t);
}

/** Whether one of `o`'s own values is NaN (deepEqual finds a copy of such an object unequal to it). */
export function hasNaNValue(o: Obj): boolean {
  for (const k in o) { const v = o[k]; if (v !== v) return true; }
  return false;
}

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Obj = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Obj) } : {};
  const p = patch as Obj;
  for (const k in p) { // plain JSON: own keys, in the same order as Object.entries
    const v = p[k];
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
/** The status `patch` gives `status` (what patching the whole object leaves in its `status`). */
export function patchedStatus(status: unknown, patch: Obj, merge: boolean): unknown {
  if (!('status' in patch)) return status;
  const v = patch.status;
  if (v === null) return undefined;
  return merge ? mergePatch(status, v) : strategicMergePatch(status, v, 'status');
}

/**
 * jsonPatcher.applyJSPatch on the object as it is stored: a body that is not a list of operations
 * is a 400, more than 10,000 operations a 413, and an operation that does not apply a 422 built by
 * NewGenericServerResponse, whose message is fixed: json-patch's own error text is not sent.
 */
export function jsonPatched(cur: Obj, body: unknown): { object: Obj } | { status: Status } {
  const d = decodeJSONPatch(body);
  if (!d.ok) return { status: statusError(400, 'BadRequest', d.message) };
  if (d.ops.length > MAX_JSON_PATCH_OPERATIONS) {
    return { status: statusError(413, 'RequestEntityTooLarge', `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${d.ops.length}`) };
  }
  const r = applyJSONPatch(cur, d.ops);
  if (!r.ok) return { status: statusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {}) };
  const o = r.doc as Obj;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) {
    // The patched document no longer decodes into the kind (a `replace` of "" with an array):
    // NewInvalid(GroupKind{}, "", patch: Invalid value: <the document>). The decoder's text is
    // SimpleMetaFactory.Interpret's as remembered, not confirmed in the source.
    const e: FieldError = { type: 'Invalid', field: 'patch', value: JSON.stringify(o), detail: `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }` };
    return { status: statusError(422, 'Invalid', ` "" is invalid: ${formatFieldError(e)}`, { name: '', group: '', kind: '', causes: [{ reason: 'FieldValueInvalid', message: formatFieldError(e).slice('patch: '.length), field: 'patch' }] }) };
  }
  if (!o.metadata || typeof o.metadata !== 'object' || Array.isArray(o.metadata)) o.metadata = {};
  // The document is decoded into the request's kind: a removed kind or apiVersion is filled in from
  // it. (A changed one fails that decoding in Kubernetes; here the stored kind is simply kept.)
  if (o.kind !== cur.kind || o.apiVersion !== cur.apiVersion) { o.kind = cur.kind; o.apiVersion = cur.apiVersion; }
  return { object: o };
}
