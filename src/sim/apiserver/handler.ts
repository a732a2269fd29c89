// The request pipeline: connection, authentication, authorization, then the verb's handler
// (admission, validation and storage happen there).
import { admitDelete } from './admission.ts';
import { authenticate } from './authn.ts';
import type { Identity } from '../api/identity.ts';
import { type ApiServerConfig, kubectlExtras, requestChecks } from './config.ts';
import { doBinding } from './binding.ts';
import { doCreate } from './create.ts';
import { doDelete } from './delete.ts';
import { doGet, doList } from './get.ts';
import { authorize } from './rbac.ts';
import type { ApiRequest, ApiResult } from '../api/request.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { Eviction } from 'kubernetes-types/policy/v1';
import { RESOURCES, resourcePath } from '../api/resources.ts';
import { fail } from './respond.ts';
import type { ApiHost } from './server.ts';
import { KUBECTL_CONNECTION_REFUSED, type Status, statusError } from '../api/status.ts';
import type { KObject } from '../api/request.ts';
import { doUpdate } from './update.ts';
import { doTokenRequest } from './token-request.ts';
import { fromEventsV1, responseInEventsV1 } from './events-v1.ts';
import { EVENTS_GROUP } from '../api/resources.ts';
import { openWatch } from './watch.ts';

/** Serve one request for `component`: the whole pipeline, logged. */
export function handleRequest(
  h: ApiHost,
  config: ApiServerConfig,
  component: string,
  req: ApiRequest,
  identity = component,
): ApiResult<unknown> {
  return req.group === undefined
    ? serve(h, config, component, req, identity)
    : handleInGroup(h, config, component, req, identity);
}

function serve(
  h: ApiHost,
  config: ApiServerConfig,
  component: string,
  req: ApiRequest,
  identity: string,
): ApiResult<unknown> {
  if (req.verb === 'watch')
    return openWatch(h, config, component, req.resource, { ...req.options, namespace: req.namespace }, identity);
  if (req.resource === 'selfsubjectaccessreviews')
    return kubectlExtras(config).selfSubjectAccessReview(h, config, component, req, identity);
  // (An eviction's dry run is in its body's deleteOptions: kubectl's part decides.)
  if (
    (req.options?.dryRun || (req.body as Eviction | undefined)?.deleteOptions?.dryRun) &&
    req.verb !== 'get' &&
    req.verb !== 'list'
  ) {
    const x = kubectlExtras(config);
    if (x.isDryRun(h, req))
      return x.dryRunRequest(h, req, (scratch) => serve(scratch, config, component, req, identity));
  }
  const f = h.apiServer.faults;
  if (f.apiServerDown) {
    const msg =
      component === 'kubectl'
        ? KUBECTL_CONNECTION_REFUSED
        : `Get "https://127.0.0.1:6443${resourcePath(req.resource, req.namespace, req.name, req.subresource)}": dial tcp 127.0.0.1:6443: connect: connection refused`;
    return fail(h, component, req, statusError(0, 'ConnectionRefused', msg), 'connection');
  }
  if (f.partitioned?.includes(component)) {
    const msg = `Get "https://127.0.0.1:6443${resourcePath(req.resource, req.namespace, req.name, req.subresource)}": dial tcp 127.0.0.1:6443: connect: connection refused`;
    return fail(h, component, req, statusError(0, 'ConnectionRefused', msg), 'connection');
  }
  const info = RESOURCES[req.resource];
  if (!info || (req.subresource && !info.subresources.includes(req.subresource))) {
    return fail(
      h,
      component,
      req,
      statusError(404, 'NotFound', 'the server could not find the requested resource'),
      'storage',
    );
  }
  if (!info.namespaced && req.namespace) req = { ...req, namespace: undefined };
  if (info.namespaced && !req.namespace && req.verb !== 'list') {
    req = { ...req, namespace: (req.body as KObject | undefined)?.metadata?.namespace ?? 'default' };
  }
  let id = authenticate(config, identity);
  if (!id) return fail(h, component, req, statusError(401, 'Unauthorized', 'Unauthorized'), 'authentication');
  if (req.options?.impersonate) {
    const as = requestChecks(config).impersonate(config, id, req.options.impersonate);
    if ((as as Status).kind === 'Status') return fail(h, component, req, as as Status, 'authorization');
    id = as as Identity;
  }
  const denied = authorize(h, id, req);
  if (denied) return fail(h, component, req, denied, 'authorization');
  if (f.etcdDown) return fail(h, component, req, statusError(500, '', 'etcdserver: request timed out'), 'storage');
  // A full etcd (NOSPACE alarm) still serves reads and deletes.
  if (f.etcdFull && req.verb !== 'get' && req.verb !== 'list' && req.verb !== 'delete') {
    return fail(h, component, req, statusError(500, '', 'etcdserver: mvcc: database space exceeded'), 'storage');
  }
  switch (req.verb) {
    case 'get':
      return doGet(h, config, component, req);
    case 'list':
      return doList(h, config, component, req);
    case 'create':
      if (req.subresource === 'binding') return doBinding(h, component, id, req);
      if (req.subresource === 'token') return doTokenRequest(h, config, component, req);
      // Only kubectl evicts (drain): the eviction subresource, with its budgets' check, comes with it.
      if (req.subresource === 'eviction') return kubectlExtras(config).evict(h, config, component, req);
      return doCreate(h, config, component, id, req);
    case 'update':
    case 'patch':
      return doUpdate(h, config, component, id, req);
    case 'delete': {
      const refused = admitDelete(h, config, id, req);
      if (refused) return fail(h, component, req, refused, 'admission');
      // The namespace registry's own Delete comes with kubectl, the one client that deletes a namespace.
      return (
        (req.resource === 'namespaces' && config.kubectlExtras?.namespaceDelete(h, component, req)) ||
        doDelete(h, component, req, false)
      );
    }
    default:
      return fail(
        h,
        component,
        req,
        statusError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`),
        'storage',
      );
  }
}

/**
 * A request in another group's version of a resource: events.k8s.io/v1 Events, over the same
 * storage as core/v1's. The body is converted to the stored form (a PATCH is applied to the object
 * in the request's version, see update.ts, and a field selector mapped, see get.ts), the answer
 * back to the request's version.
 */
function handleInGroup(
  h: ApiHost,
  config: ApiServerConfig,
  component: string,
  req: ApiRequest,
  identity: string,
): ApiResult<unknown> {
  if (!RESOURCES[req.resource]) return serve(h, config, component, { ...req, group: undefined }, identity);
  if (req.group !== EVENTS_GROUP || req.resource !== 'events' || req.subresource || req.verb === 'watch') {
    // Watches of events.k8s.io/v1 are not served here: no component or kubectl command opens one.
    return fail(
      h,
      component,
      req,
      statusError(404, 'NotFound', 'the server could not find the requested resource'),
      'storage',
    );
  }
  let r = req;
  if ((req.verb === 'create' || req.verb === 'update') && req.body && typeof req.body === 'object')
    r = { ...req, body: fromEventsV1(req.body as Unstructured) };
  const res = serve(h, config, component, r, identity);
  return res.ok ? { ...res, object: responseInEventsV1(res.object as Unstructured) } : res;
}
