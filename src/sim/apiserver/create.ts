// POST: names (generateName), defaulting/admission/validation, the first write.
import { generateName, newUID, rfc3339 } from '../util/names.ts';
import type { ApiServerConfig } from './config.ts';
import { admitAndValidate } from './admission.ts';
import { omitEmptyMeta } from '../api/omit-empty-meta.ts';
import { allocationTxn } from './defaults.ts';
import type { Identity } from '../api/identity.ts';
import { leaseEventKey } from './event-leases.ts';
import type { ApiRequest, ApiResult, MetaObject } from '../api/request.ts';
import type { Unstructured } from '../api/unstructured.ts';
import { GENERATION_RESOURCES, RESOURCES, STATUS_RESOURCES, apiVersionOf } from '../api/resources.ts';
import { fail, logRequest } from './respond.ts';
import type { ApiHost } from './server.ts';
import { alreadyExists, invalid, statusError } from '../api/status.ts';
import { type StoreEvent, storeGet, storePutStamped } from './store.ts';
import { storeKey } from '../api/resources.ts';
import { notifyWatchers } from './watch.ts';

export function doCreate(
  h: ApiHost,
  config: ApiServerConfig,
  component: string,
  id: Identity,
  req: ApiRequest,
): ApiResult<unknown> {
  // Without the request checks (a figure's own writes: request-checks.ts) the body is stored as sent.
  const decoded = config.checks
    ? config.checks.decode(req.resource, req.body ?? {})
    : { obj: omitEmptyMeta((req.body ?? {}) as Unstructured) };
  if ('status' in decoded) return fail(h, component, req, decoded.status, 'validation');
  // fieldValidation=Strict (kubectl's): the strict decoder's unknown fields. A replay that leaves
  // kubectl's part out (replayCluster) skips the check; a link's or a figure's replay installs it.
  const strict =
    req.options?.fieldValidation === 'Strict' &&
    config.kubectlExtras?.strictFieldValidation(req.resource, req.body, false);
  if (strict) return fail(h, component, req, strict, 'validation');
  const body = decoded.obj;
  const info = RESOURCES[req.resource];
  const meta: MetaObject['metadata'] = { ...(body.metadata as MetaObject['metadata'] | undefined) };
  if (info.namespaced) meta.namespace = req.namespace;
  // The key a generated name was found free under (nothing is written before the put).
  let freeKey: string | undefined;
  if (!meta.name && meta.generateName) {
    // GenerateName retries on a clash, as the registry does since 1.28.
    for (let i = 0; i < 8; i++) {
      meta.name = generateName(h.apiServer.nameRng, meta.generateName);
      const k = storeKey(req.resource, meta.namespace, meta.name);
      if (!storeGet(h.store, req.resource, k)) {
        freeKey = k;
        break;
      }
    }
  }
  if (!meta.name) {
    return fail(
      h,
      component,
      req,
      invalid(req.resource, '', [
        { type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' },
      ]),
      'validation',
    );
  }
  let obj: MetaObject = startsWithTypeMeta(body)
    ? { ...body, metadata: meta }
    : { apiVersion: apiVersionOf(req.resource), kind: info.kind, ...body, metadata: meta };
  // PrepareForCreate: the status of a new object is the server's, not the client's (nodes excepted).
  if (STATUS_RESOURCES.has(req.resource) && req.resource !== 'nodes') delete obj.status;
  // A Service's addresses are taken in defaulting; a create that fails or is a dry run gives them back.
  const revert = req.resource === 'services' ? allocationTxn(h) : undefined;
  const r = admitAndValidate(h, config, id, req, obj, undefined, true); // (the name it reports is the object's)
  if ('status' in r) {
    revert?.();
    logRequest(h, component, req, r.status.code, { stage: r.stage, message: r.status.message, name: meta.name });
    return { ok: false, code: r.status.code, status: r.status };
  }
  obj = r.obj as MetaObject;
  // Not through the names cache: most created objects (Events) are never addressed again.
  const key = freeKey ?? storeKey(req.resource, meta.namespace, meta.name);
  // etcd3's store.Create refuses a client-set resourceVersion (one that parses as a non-zero
  // number) before it looks for the key; the error is no Status, so the API server answers 500.
  // A dry run never reaches it (DryRunnableStorage only looks the key up).
  const sentRV = obj.metadata.resourceVersion;
  if (!req.options?.dryRun && typeof sentRV === 'string' && /^\d+$/.test(sentRV) && Number(sentRV) !== 0) {
    const st = statusError(500, '', 'resourceVersion should not be set on objects to be created');
    revert?.();
    logRequest(h, component, req, 500, { stage: 'storage', message: st.message, name: meta.name });
    return { ok: false, code: 500, status: st };
  }
  if (freeKey === undefined && storeGet(h.store, req.resource, key)) {
    const st = alreadyExists(req.resource, meta.name);
    revert?.();
    logRequest(h, component, req, 409, { stage: 'storage', message: st.message, name: meta.name });
    return { ok: false, code: 409, status: st };
  }
  // Rest-destructure rather than `delete`: a deleted property drops every stored metadata object
  // into V8's slow dictionary mode, and the scheduler reads metadata millions of times in a burst.
  // (Without a client-sent resourceVersion there is nothing to leave out.)
  const sentMeta = obj.metadata;
  const createdMeta = 'resourceVersion' in sentMeta ? withoutResourceVersion(sentMeta) : sentMeta;
  let ev: StoreEvent;
  if (req.options?.dryRun) {
    obj.metadata = { ...createdMeta, uid: newUID(h.rng), creationTimestamp: rfc3339(h.now) };
    if (GENERATION_RESOURCES.has(req.resource)) obj.metadata.generation = 1;
    revert?.();
    logRequest(h, component, req, 201, { name: meta.name });
    return { ok: true, code: 201, object: obj };
  } else if (GENERATION_RESOURCES.has(req.resource)) {
    obj.metadata = {
      ...createdMeta,
      uid: newUID(h.rng),
      creationTimestamp: rfc3339(h.now),
      generation: 1,
      resourceVersion: String(h.store.revision + 1),
    };
    ev = storePutStamped(h.store, req.resource, key, obj);
  } else {
    // The stored metadata in one copy, stamped as storePut would (resourceVersion last): `obj` is
    // this request's own object, stored as it is.
    obj.metadata = {
      ...createdMeta,
      uid: newUID(h.rng),
      creationTimestamp: rfc3339(h.now),
      resourceVersion: String(h.store.revision + 1),
    };
    ev = storePutStamped(h.store, req.resource, key, obj);
  }
  if (req.resource === 'events') leaseEventKey(h, key);
  logRequest(h, component, req, 201, {
    revision: ev.revision,
    name: meta.name,
    node: obj.spec?.nodeName as string | undefined,
  });
  notifyWatchers(h, ev);
  return { ok: true, code: 201, object: ev.object, revision: ev.revision };
}

/**
 * Whether a body's first own keys are apiVersion then kind (as every client writes them): then
 * `{ apiVersion, kind, ...body }` has body's keys in body's order and body's values, and a plain
 * copy (V8 clones the shape at once) is the same object.
 */
function startsWithTypeMeta(body: Unstructured): boolean {
  let i = 0;
  for (const k in body) {
    if (k !== (i === 0 ? 'apiVersion' : 'kind')) return false;
    if (++i === 2) return Object.hasOwn(body, 'apiVersion') && Object.hasOwn(body, 'kind');
  }
  return false;
}

function withoutResourceVersion(meta: Unstructured): Unstructured {
  const { resourceVersion: _rv, ...rest } = meta;
  return rest;
}
