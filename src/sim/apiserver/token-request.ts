// POST serviceaccounts/NAME/token: the TokenRequest API (pkg/registry/core/serviceaccount/storage/
// token.go, authentication.k8s.io/v1). Nothing is stored: the answer is the request with its
// defaults and its status (the token and when it expires). The token is an opaque deterministic
// string, not a signed JWT: nothing in the simulator verifies one.
import { rfc3339 } from '../names.ts';
import type { ApiRequest, ApiResult, Obj } from './request.ts';
import { keyOf } from './resources.ts';
import { fail, logRequest } from './respond.ts';
import type { ApiHost } from './server.ts';
import { type FieldError, formatFieldError, notFound, statusError } from './status.ts';
import { storeGet, storeKey } from './store.ts';

/** The API server's audiences (--api-audiences, defaulting to --service-account-issuer as kubeadm sets it). */
export const API_AUDIENCES = ['https://kubernetes.default.svc.cluster.local'];
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: what the kubelet asks for a kube-api-access token. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;

/** ValidateTokenRequest: at least 10 minutes (MinTokenAgeSec), at most 2^32 seconds. */
export function validateTokenRequest(expirationSeconds: number): FieldError[] {
  const f = 'spec.expirationSeconds';
  if (expirationSeconds < 600) return [{ type: 'Invalid', field: f, value: expirationSeconds, detail: 'may not specify a duration less than 10 minutes' }];
  return expirationSeconds > 2 ** 32 ? [{ type: 'Invalid', field: f, value: expirationSeconds, detail: 'may not specify a duration larger than 2^32 seconds' }] : [];
}

/** TokenREST.Create: the account must exist, a bound Pod or Node must exist (and name the account, carry the uid). */
export function doTokenRequest(h: ApiHost, component: string, req: ApiRequest): ApiResult<unknown> {
  const name = req.name ?? '';
  const sa = storeGet(h.store, 'serviceaccounts', keyOf(req));
  if (!sa) return fail(h, component, req, notFound('serviceaccounts', name), 'storage');
  const body = (req.body ?? {}) as Obj;
  // SetDefaults_TokenRequestSpec: an hour.
  const spec: Obj = { ...body.spec, expirationSeconds: body.spec?.expirationSeconds ?? 3600 };
  if (!spec.audiences?.length) spec.audiences = API_AUDIENCES;
  const errs = validateTokenRequest(spec.expirationSeconds);
  if (errs.length) {
    return fail(h, component, req, statusError(422, 'Invalid', `TokenRequest.authentication.k8s.io "" is invalid: ${formatFieldError(errs[0])}`, { group: 'authentication.k8s.io', kind: 'TokenRequest', causes: [{ reason: 'FieldValueInvalid', message: formatFieldError(errs[0]).slice(errs[0].field.length + 2), field: errs[0].field }] }), 'validation');
  }
  const ref = spec.boundObjectRef as Obj | undefined;
  if (ref) {
    const kind = ref.kind === 'Pod' || ref.kind === 'Node' ? ref.kind : '';
    if (!kind || (ref.apiVersion ?? 'v1') !== 'v1') return fail(h, component, req, statusError(400, 'BadRequest', `cannot bind token to object of type ${ref.apiVersion?.includes('/') ? '' : '/'}${ref.apiVersion ?? ''}, Kind=${ref.kind ?? ''}`), 'storage');
    const resource = kind === 'Pod' ? 'pods' : 'nodes';
    const o = storeGet(h.store, resource, storeKey(resource, kind === 'Pod' ? req.namespace : undefined, ref.name ?? ''));
    if (!o) return fail(h, component, req, notFound(resource, ref.name ?? ''), 'storage');
    if (kind === 'Pod' && (o.spec as Obj)?.serviceAccountName !== name) {
      return fail(h, component, req, statusError(400, 'BadRequest', `cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`), 'storage');
    }
    if (ref.uid && ref.uid !== o.metadata.uid) {
      return fail(h, component, req, statusError(409, 'Conflict', `Operation cannot be fulfilled on ${kind} "${ref.name}": the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`, { name: ref.name, kind }), 'storage');
    }
  }
  logRequest(h, component, req, 201);
  const meta = sa.metadata;
  return {
    ok: true, code: 201,
    object: {
      kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace: meta.namespace, uid: meta.uid, creationTimestamp: rfc3339(h.now) },
      spec,
      // The expiry answered is the one asked for, even when the token itself is extended (3607 s: a year).
      status: { token: `sim.${meta.namespace}.${name}.${ref?.uid ?? ''}.${h.now}`, expirationTimestamp: rfc3339(h.now + spec.expirationSeconds * 1000) },
    },
  };
}
