// SelfSubjectAccessReviews: a virtual resource, answered from the RBAC tables and never stored.
import { authenticate } from './authn.ts';
import type { Identity } from '../api/identity.ts';
import type { ApiServerConfig } from './config.ts';
import { impersonate } from './impersonation.ts';
import { ruleAllows } from './rbac.ts';
import { type Stage, appendRecord } from '../request-log.ts';
import type { ApiRequest, ApiResult, Verb } from '../api/request.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { ApiHost } from './server.ts';
import { KUBECTL_CONNECTION_REFUSED, type Status, statusError } from '../api/status.ts';

/**
 * The non-resource URLs system:discovery and system:public-info-viewer let every authenticated user
 * GET (the bootstrap policy's ClusterRoles, policy.go, read in a vendored copy).
 */
const DISCOVERY_URLS = [
  '/api',
  '/api/*',
  '/apis',
  '/apis/*',
  '/healthz',
  '/livez',
  '/openapi',
  '/openapi/*',
  '/readyz',
  '/version',
  '/version/',
];
/** SubjectAccessReview attributes (authorization.k8s.io/v1 ResourceAttributes / NonResourceAttributes). */
interface AccessAttributes {
  resourceAttributes?: {
    namespace?: string;
    verb?: string;
    group?: string;
    resource?: string;
    subresource?: string;
    name?: string;
  };
  nonResourceAttributes?: { path?: string; verb?: string };
}

/**
 * Whether RBAC allows `id` what the attributes describe (a request of `*` matches only `*` rules).
 * Simplified: the simulator's rules name no API groups, resource names or namespaces, and a node's
 * own-object checks (the node authorizer's graph) are left out of a review.
 */
function accessAllowed(id: Identity, a: AccessAttributes): boolean {
  const n = a.nonResourceAttributes;
  if (n && !a.resourceAttributes) {
    const path = n.path ?? '';
    const urls = id.nonResourceURLs ?? [];
    const match = (u: string) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1)));
    return urls.some(match) || (n.verb === 'get' && DISCOVERY_URLS.some(match));
  }
  const r = a.resourceAttributes ?? {};
  const res = r.subresource ? `${r.resource ?? ''}/${r.subresource}` : (r.resource ?? '');
  return ruleAllows(id.rules, (r.verb ?? '') as Verb, res);
}

/** The REST path of SelfSubjectAccessReviews (a virtual resource: created, answered, never stored). */
const SSAR_PATH = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

/**
 * POST selfsubjectaccessreviews: the caller's (or the impersonated user's) answer from the same
 * RBAC tables requests are authorised with. It reads nothing from etcd, so it answers while etcd is
 * down; system:basic-user lets every authenticated user create one.
 */
export function selfSubjectAccessReview(
  h: ApiHost,
  config: ApiServerConfig,
  component: string,
  req: ApiRequest,
  identity: string,
): ApiResult<unknown> {
  const refuse = (status: Status, stage: Stage): ApiResult<never> => {
    appendRecord(h.log, {
      t: h.now,
      component,
      kind: 'request',
      verb: 'POST',
      path: SSAR_PATH,
      code: status.code,
      stage,
      message: status.message,
    });
    return { ok: false, code: status.code, status };
  };
  const f = h.apiServer.faults;
  if (f.apiServerDown || f.partitioned?.includes(component)) {
    const msg =
      component === 'kubectl' && f.apiServerDown
        ? KUBECTL_CONNECTION_REFUSED
        : `Post "https://127.0.0.1:6443${SSAR_PATH}": dial tcp 127.0.0.1:6443: connect: connection refused`;
    return refuse(statusError(0, 'ConnectionRefused', msg), 'connection');
  }
  if (req.verb !== 'create' || req.name || req.subresource)
    return refuse(
      statusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'),
      'storage',
    );
  const caller = authenticate(config, identity);
  if (!caller) return refuse(statusError(401, 'Unauthorized', 'Unauthorized'), 'authentication');
  const id = req.options?.impersonate ? impersonate(config, caller, req.options.impersonate) : caller;
  if ((id as Status).kind === 'Status') return refuse(id as Status, 'authorization');
  const spec = ((req.body as Unstructured)?.spec ?? {}) as AccessAttributes;
  const allowed = accessAllowed(id as Identity, spec);
  appendRecord(h.log, { t: h.now, component, kind: 'request', verb: 'POST', path: SSAR_PATH, code: 201 });
  return {
    ok: true,
    code: 201,
    object: {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec,
      status: { allowed },
    },
  };
}
