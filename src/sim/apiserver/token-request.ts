// POST serviceaccounts/NAME/token: the TokenRequest API (pkg/registry/core/serviceaccount/storage/
// token.go, authentication.k8s.io/v1). Nothing is stored: the answer is the request with its
// defaults and its status (the token and when it expires). The token is an opaque deterministic
// string, not a signed JWT: nothing in the simulator verifies one. The kubelet's requests are valid
// by construction: the checks a hand-made request can fail are kubectl's part (token-request-checks.ts).
import { rfc3339 } from '../util/names.ts';
import type { ApiServerConfig } from './config.ts';
import type { ApiRequest, ApiResult } from '../api/request.ts';
import type { TokenRequest, TokenRequestSpec } from 'kubernetes-types/authentication/v1';
import { keyOf } from '../api/resources.ts';
import { fail, logRequest } from './respond.ts';
import type { ApiHost } from './server.ts';
import { notFound } from '../api/status.ts';
import { storeGet } from './store.ts';

/** TokenREST.Create: the account must exist; spec.expirationSeconds defaults to an hour, the audiences to the API server's. */
export function doTokenRequest(
  h: ApiHost,
  config: ApiServerConfig,
  component: string,
  req: ApiRequest,
): ApiResult<unknown> {
  const name = req.name ?? '';
  const sa = storeGet(h.store, 'serviceaccounts', keyOf(req));
  if (!sa) return fail(h, component, req, notFound('serviceaccounts', name), 'storage');
  const spec: { -readonly [K in keyof TokenRequestSpec]?: TokenRequestSpec[K] } = {
    ...(req.body as TokenRequest | undefined)?.spec,
  };
  spec.expirationSeconds ??= 3600;
  // --api-audiences, which defaults to --service-account-issuer (kubeadm's).
  if (!spec.audiences?.length) spec.audiences = ['https://kubernetes.default.svc.cluster.local'];
  const refused = config.kubectlExtras?.tokenRequestChecks(h, name, req.namespace ?? '', spec);
  if (refused) return fail(h, component, req, refused, refused.code === 422 ? 'validation' : 'storage');
  logRequest(h, component, req, 201);
  const meta = sa.metadata!;
  return {
    ok: true,
    code: 201,
    object: {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace: meta.namespace, uid: meta.uid, creationTimestamp: rfc3339(h.now) },
      spec,
      // The expiry answered is the one asked for, even when the token itself lasts longer (3607 s: a year).
      status: {
        token: `sim.${meta.namespace}.${name}.${spec.boundObjectRef?.uid ?? ''}.${h.now}`,
        expirationTimestamp: rfc3339(h.now + spec.expirationSeconds * 1000),
      },
    },
  };
}
