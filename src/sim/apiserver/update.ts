// PUT and PATCH: the update path (status vs main resource, generation, no-op writes) and the
// status-patch shortcut.
import { deepEqual } from '../util/names.ts';
import { type ApiServerConfig, kubectlExtras } from './config.ts';
import { admitAndValidate } from './admission.ts';
import { omitEmptyMeta } from '../api/omit-empty-meta.ts';
import type { Identity } from '../api/identity.ts';
import { shouldDeleteDuringUpdate } from './delete.ts';
import { leaseEventKey } from './event-leases.ts';
import { fromEventsV1, toEventsV1 } from './events-v1.ts';
import { hasNaNValue, mergePatch, mergePatchIsNoop, patchedStatus, strategicMergePatch } from '../api/patch.ts';
import type { ApiRequest, ApiResult, KObject, MetaObject } from '../api/request.ts';
import type { Unstructured } from '../api/unstructured.ts';
import { GENERATION_RESOURCES, STATUS_RESOURCES, keyOf } from '../api/resources.ts';
import { fail, logRequest } from './respond.ts';
import { toScale } from './scale.ts';
import type { ApiHost } from './server.ts';
import { conflict, notFound } from '../api/status.ts';
import { type StoreEvent, storeDelete, storeGet, storePut, storePutStamped } from './store.ts';
import { notifyWatchers } from './watch.ts';

export function doUpdate(
  h: ApiHost,
  config: ApiServerConfig,
  component: string,
  id: Identity,
  req: ApiRequest,
): ApiResult<unknown> {
  const key = keyOf(req);
  const cur = storeGet(h.store, req.resource, key) as MetaObject | undefined;
  if (!cur) return fail(h, component, req, notFound(req.resource, req.name ?? ''), 'storage');
  const sub = req.subresource;
  const body = req.body as Partial<MetaObject>;
  let next: MetaObject;
  // Whether the status shortcut's merge patch leaves the object as it is (undefined: not known).
  let noop: boolean | undefined;
  if (
    config.statusPatchShortcut &&
    sub === 'status' &&
    req.verb === 'patch' &&
    req.options?.patchType !== 'json' &&
    req.resource !== 'deployments' &&
    req.resource !== 'replicasets' &&
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    keepsIdentity(cur.metadata)
  ) {
    // A status patch (the kubelet sends three per pod) keeps only the status of the merged object,
    // and the identity fields the general path re-sets below are cur's own: patch the status alone
    // and keep cur's metadata object (the store copies it to stamp the revision).
    if (body.metadata?.resourceVersion && body.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      return fail(h, component, req, conflict(req.resource, req.name ?? ''), 'storage');
    }
    const merge = req.options?.patchType === 'merge';
    next = { ...cur, status: patchedStatus(cur.status, body, merge) };
    // Everything but the status is cur's own, so only the patched paths can differ.
    if (merge && !hasNaNValue(cur))
      noop = !('status' in body)
        ? true
        : body.status === null
          ? cur.status === undefined
          : mergePatchIsNoop(cur.status, body.status);
  } else {
    let patched: Unstructured | undefined;
    if (req.verb === 'patch' && req.options?.patchType === 'json') {
      // The registry's update applies the patch to the object it read (inside GuaranteedUpdate), so
      // a refused JSON patch is logged at the storage stage.
      const r = kubectlExtras(config).jsonPatched(
        sub === 'scale' ? toScale(req.resource, cur) : req.group ? toEventsV1(cur) : cur,
        req.body,
      );
      if ('status' in r) return fail(h, component, req, r.status, 'storage');
      patched = req.group ? fromEventsV1(r.object) : r.object;
    }
    const updated = updatedObject(req, cur, patched);
    if (updated === undefined) return fail(h, component, req, conflict(req.resource, req.name ?? ''), 'storage');
    if (updated instanceof FailedPrecondition)
      return fail(h, component, req, conflict(req.resource, req.name ?? '', updated.message), 'storage');
    next = updated;
  }
  // The body decodes into the Go type before anything reads it (the status shortcut's object is cur's own but the status).
  const decoded =
    sub === 'status' && req.resource !== 'nodes'
      ? { obj: next }
      : config.checks
        ? config.checks.decode(req.resource, next)
        : { obj: omitEmptyMeta(next) };
  if ('status' in decoded) return fail(h, component, req, decoded.status, 'validation');
  // fieldValidation=Strict: a PUT's body, or the patched object, strictly decoded.
  const strict =
    req.options?.fieldValidation === 'Strict' &&
    !sub &&
    config.kubectlExtras?.strictFieldValidation(
      req.resource,
      req.verb === 'patch' ? next : req.body,
      req.verb === 'patch',
    );
  if (strict) return fail(h, component, req, strict, 'validation');
  next = decoded.obj as MetaObject;
  const built = next;
  const r = admitAndValidate(h, config, id, req, next, cur, sub !== 'status');
  if ('status' in r) return fail(h, component, req, r.status, r.stage);
  next = r.obj as MetaObject;
  if (next === built && noop !== undefined ? noop : deepEqual(next, cur)) {
    // A no-op write does not touch etcd (GuaranteedUpdate short-circuits), so no new revision.
    logRequest(h, component, req, 200);
    return { ok: true, code: 200, object: sub === 'scale' ? toScale(req.resource, cur) : cur };
  }
  // The last finalizer of an object marked for deletion was removed: the write deletes it (a pod only
  // once its grace period is over, deletionGracePeriodSeconds 0).
  const ev = shouldDeleteDuringUpdate(req.resource, next)
    ? storeDelete(h.store, req.resource, key, next)!
    : next === built
      ? putOwn(h, req.resource, key, next)
      : storePut(h.store, req.resource, key, next);
  if (req.resource === 'events' && ev.type !== 'DELETED') leaseEventKey(h, key);
  logRequest(h, component, req, 200, { revision: ev.revision, node: next.spec?.nodeName as string | undefined });
  notifyWatchers(h, ev);
  return {
    ok: true,
    code: 200,
    object: sub === 'scale' ? toScale(req.resource, ev.object) : ev.object,
    revision: ev.revision,
  };
}

/**
 * Whether `{ ...m, uid: m.uid, creationTimestamp: …, resourceVersion: … }` (and the deletion fields)
 * would be `m` again, also to deepEqual (which finds a copy holding NaN unequal).
 */
function keepsIdentity(m: MetaObject['metadata']): boolean {
  return (
    'uid' in m &&
    'creationTimestamp' in m &&
    'name' in m &&
    'namespace' in m &&
    'resourceVersion' in m &&
    (!m.deletionTimestamp || 'deletionGracePeriodSeconds' in m) &&
    !hasNaNValue(m)
  );
}

/** A storage precondition the stored object fails (etcd3's Preconditions.Check), answered as a Conflict. */
class FailedPrecondition {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/**
 * The object a PUT or PATCH asks to store (before admission), with the identity fields the server
 * keeps; undefined on a stale resourceVersion.
 */
function updatedObject(
  req: ApiRequest,
  cur: MetaObject,
  jsonPatched?: Unstructured,
): MetaObject | FailedPrecondition | undefined {
  const sub = req.subresource;
  let incoming: Partial<MetaObject>;
  if (sub === 'scale') {
    const applyPatch = req.options?.patchType === 'merge' ? mergePatch : strategicMergePatch;
    const scale = (jsonPatched ??
      (req.verb === 'patch' ? applyPatch(toScale(req.resource, cur), req.body) : req.body)) as
      Partial<MetaObject> | undefined;
    if (scale?.metadata?.resourceVersion && scale.metadata.resourceVersion !== cur.metadata.resourceVersion)
      return undefined;
    incoming = { ...cur, spec: { ...cur.spec, replicas: scale?.spec?.replicas } };
  } else {
    const applyPatch = req.options?.patchType === 'merge' ? mergePatch : strategicMergePatch;
    // A patch is applied to the object in the request's version (events.k8s.io/v1's names for an Event).
    incoming = (jsonPatched ??
      (req.verb !== 'patch'
        ? req.body
        : req.group
          ? fromEventsV1(applyPatch(toEventsV1(cur), req.body) as Unstructured)
          : applyPatch(cur, req.body))) as Partial<MetaObject>;
  }
  const rv = incoming?.metadata?.resourceVersion;
  if (req.verb === 'update' && sub !== 'scale' && rv && rv !== cur.metadata.resourceVersion) return undefined;
  // A PUT's uid is a precondition (defaultUpdatedObjectInfo.Preconditions); a patch has none.
  const sentUID = incoming?.metadata?.uid;
  if (req.verb === 'update' && sub !== 'scale' && sentUID && sentUID !== cur.metadata.uid) {
    return new FailedPrecondition(
      `Precondition failed: UID in precondition: ${sentUID}, UID in object meta: ${cur.metadata.uid}`,
    );
  }
  if (
    req.verb === 'patch' &&
    (req.body as Partial<MetaObject> | undefined)?.metadata?.resourceVersion &&
    (req.body as MetaObject).metadata.resourceVersion !== cur.metadata.resourceVersion
  )
    return undefined;
  // A JSON patch that leaves a resourceVersion leaves the precondition GuaranteedUpdate checks (the
  // `test`/`replace` of /metadata/resourceVersion idiom); one that removes it updates unconditionally.
  if (jsonPatched && sub !== 'scale' && rv && rv !== cur.metadata.resourceVersion) return undefined;
  // The status subresource writes only status; the main resource never writes status (for kinds that have it).
  // Partial until the identity fields below are set again (a patch may have removed metadata).
  let next: Partial<MetaObject>;
  if (sub === 'status') {
    next = { ...cur, status: incoming.status };
    // deploymentStatusStrategy resets only spec and labels: annotations written through /status stick
    // (that is how the controller stamps deployment.kubernetes.io/revision on the Deployment).
    const a = incoming.metadata?.annotations;
    if (req.resource === 'deployments' && !deepEqual(a, cur.metadata.annotations)) {
      next.metadata = { ...cur.metadata };
      if (a && Object.keys(a).length) next.metadata.annotations = a;
      else delete next.metadata.annotations;
    }
  } else if (STATUS_RESOURCES.has(req.resource)) next = { ...incoming, status: cur.status };
  else next = { ...incoming };
  // A namespace's spec.finalizers change only through /finalize (namespaceStrategy.PrepareForUpdate).
  if (req.resource === 'namespaces' && !sub) next.spec = { ...next.spec, finalizers: cur.spec?.finalizers };
  // BeforeUpdate keeps the stored uid only when none is sent: a patched one is validation's to refuse (immutable).
  next.metadata = {
    ...next.metadata,
    uid: (sub !== 'status' && sub !== 'scale' && next.metadata?.uid) || cur.metadata.uid,
    creationTimestamp: cur.metadata.creationTimestamp,
    name: cur.metadata.name,
    namespace: cur.metadata.namespace,
    resourceVersion: cur.metadata.resourceVersion,
  };
  if (cur.metadata.deletionTimestamp) {
    next.metadata.deletionTimestamp = cur.metadata.deletionTimestamp;
    next.metadata.deletionGracePeriodSeconds = cur.metadata.deletionGracePeriodSeconds;
  }
  if (GENERATION_RESOURCES.has(req.resource)) {
    next.metadata.generation = cur.metadata.generation ?? 1;
    if (sub !== 'status' && generationChanges(req.resource, cur, next)) next.metadata.generation++;
  }
  return next as MetaObject;
}

/**
 * PrepareForUpdate's generation rule: a change of spec; a Deployment's annotations too (they are
 * copied to its ReplicaSets: apps/deployment/strategy.go); an EndpointSlice (no spec) counts every
 * change but metadata's, and its labels.
 */
function generationChanges(resource: string, cur: MetaObject, next: Partial<MetaObject>): boolean {
  // apiequality.Semantic.DeepEqual: an empty map equals a missing one.
  const annotations = (o: Partial<MetaObject>) =>
    o.metadata?.annotations && Object.keys(o.metadata.annotations).length ? o.metadata.annotations : undefined;
  if (resource === 'deployments')
    return !deepEqual(cur.spec, next.spec) || !deepEqual(annotations(cur), annotations(next));
  if (resource !== 'endpointslices') return !deepEqual(cur.spec, next.spec);
  const { metadata: cm, ...c } = cur;
  const { metadata: nm, ...n } = next;
  return !deepEqual(c, n) || !deepEqual(cm?.labels, nm?.labels);
}

/** storePut of an object this request built itself (no one else holds it): stamped in place, with one metadata copy. */
export function putOwn(h: ApiHost, resource: string, key: string, obj: KObject): StoreEvent {
  obj.metadata = { ...obj.metadata, resourceVersion: String(h.store.revision + 1) };
  return storePutStamped(h.store, resource, key, obj);
}
