// How a request's outcome is written to the request log and returned (the API server's audit line).
import { flatten } from '../util/names.ts';
import { type RequestRecord, type Stage, appendBuiltRecord, appendRecord } from '../request-log.ts';
import type { ApiRequest, ApiResult } from '../api/request.ts';
import { RESOURCES, cachedPath, encodeQuery, namesOf, resourcePath } from '../api/resources.ts';
import type { ApiHost } from './server.ts';
import type { Status } from '../api/status.ts';

/**
 * The query of a request as client-go encodes its options and an audit log's requestURI shows it:
 * a LIST's selectors, resourceVersion and limit, a GET's resourceVersion (0: from the watch cache),
 * a log's container, a write's dryRun=All, fieldManager and fieldValidation, a client's timeout.
 */
function requestQuery(req: ApiRequest): string {
  const o = req.options;
  if (!o) return '';
  const list = req.verb === 'list';
  const read = list || (req.verb === 'get' && !req.subresource);
  const write = req.verb !== 'get' && req.verb !== 'list';
  if (
    !(list && (o.labelSelector || o.fieldSelector || o.limit !== undefined)) &&
    !(read && o.resourceVersion !== undefined) &&
    !(write && (o.dryRun || o.fieldManager || o.fieldValidation)) &&
    !o.timeout &&
    !(req.subresource === 'log' && (o.container || o.previous || o.follow))
  )
    return '';
  return encodeQuery({
    labelSelector: list && o.labelSelector ? o.labelSelector : undefined,
    fieldSelector: list && o.fieldSelector ? o.fieldSelector : undefined,
    resourceVersion: read ? o.resourceVersion : undefined,
    limit: list && o.limit !== undefined ? String(o.limit) : undefined,
    dryRun: write && o.dryRun ? 'All' : undefined,
    fieldManager: write && o.fieldManager ? o.fieldManager : undefined,
    fieldValidation: write && o.fieldValidation ? o.fieldValidation : undefined,
    container: req.subresource === 'log' ? o.container || undefined : undefined,
    follow: req.subresource === 'log' && o.follow ? 'true' : undefined,
    previous: req.subresource === 'log' && o.previous ? 'true' : undefined,
    timeout: o.timeout,
  });
}

export function logRequest(
  h: ApiHost,
  component: string,
  req: ApiRequest,
  code: number,
  extra: { revision?: number; stage?: Stage; message?: string; node?: string; name?: string } = {},
): void {
  const method =
    req.verb === 'get' || req.verb === 'list'
      ? 'GET'
      : req.verb === 'watch'
        ? 'WATCH'
        : req.verb === 'create'
          ? 'POST'
          : req.verb === 'update'
            ? 'PUT'
            : req.verb === 'patch'
              ? 'PATCH'
              : 'DELETE';
  const name = extra.name ?? req.name;
  const pathName = req.verb === 'create' && !req.subresource ? undefined : name;
  const known = RESOURCES[req.resource] !== undefined;
  const bare =
    req.group !== undefined
      ? flatten(resourcePath(req.resource, req.namespace, pathName, req.subresource, req.group))
      : known
        ? cachedPath(req.resource, req.namespace, pathName, req.subresource)
        : flatten(resourcePath(req.resource, req.namespace, pathName, req.subresource));
  const query = requestQuery(req);
  const path = query ? flatten(`${bare}?${query}`) : bare;
  // A create names a new object: building its name beats caching strings most creates never reuse.
  const object = !name
    ? undefined
    : known && (req.verb !== 'create' || req.subresource)
      ? namesOf(req.resource, req.namespace, name).object
      : flatten(`${req.resource}/${req.namespace ? req.namespace + '/' : ''}${name}`);
  // The common shapes as whole literals (a field added afterwards would live outside the object);
  // the key order is the same either way: t component kind verb path code object revision stage message node.
  let rec: RequestRecord;
  const { revision, stage, message, node } = extra;
  if (!stage && !message && object !== undefined && revision !== undefined) {
    rec = node
      ? { t: h.now, component, kind: 'request', verb: method, path, code, object, revision, node }
      : { t: h.now, component, kind: 'request', verb: method, path, code, object, revision };
  } else if (!stage && !message && !node && revision === undefined) {
    rec =
      object !== undefined
        ? { t: h.now, component, kind: 'request', verb: method, path, code, object }
        : { t: h.now, component, kind: 'request', verb: method, path, code };
  } else {
    rec = { t: h.now, component, kind: 'request', verb: method, path, code };
    if (object !== undefined) rec.object = object;
    if (revision !== undefined) rec.revision = revision;
    if (stage) rec.stage = stage;
    if (message) rec.message = message;
    if (node) rec.node = node;
  }
  if (known)
    appendBuiltRecord(h.log, rec); // clean, and its strings come from the names cache
  else appendRecord(h.log, rec);
}

export function fail(h: ApiHost, component: string, req: ApiRequest, status: Status, stage: Stage): ApiResult<never> {
  logRequest(h, component, req, status.code, { stage, message: status.message });
  return { ok: false, code: status.code, status };
}
