// The TokenRequest's checks a hand-made request can fail (TokenREST.Create, ValidateTokenRequest),
// kubectl's part of the API server (kubectl-extras.ts): the kubelet's own requests pass them all.
import type { TokenRequestSpec } from 'kubernetes-types/authentication/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiHost } from './server.ts';
import { type FieldError, type Status, formatFieldError, notFound, statusError } from '../api/status.ts';
import { storeGet } from './store.ts';
import { storeKey } from '../api/resources.ts';

/** ValidateTokenRequest: at least 10 minutes (MinTokenAgeSec), at most 2^32 seconds. */
export function validateTokenRequest(expirationSeconds: number): FieldError[] {
  const f = 'spec.expirationSeconds';
  if (expirationSeconds < 600)
    return [
      {
        type: 'Invalid',
        field: f,
        value: expirationSeconds,
        detail: 'may not specify a duration less than 10 minutes',
      },
    ];
  return expirationSeconds > 2 ** 32
    ? [
        {
          type: 'Invalid',
          field: f,
          value: expirationSeconds,
          detail: 'may not specify a duration larger than 2^32 seconds',
        },
      ]
    : [];
}

/** The 422, 400, 404 or 409 a TokenRequest for account `name` gets (its spec defaulted), or undefined. */
export function tokenRequestChecks(
  h: ApiHost,
  name: string,
  namespace: string,
  spec: Partial<TokenRequestSpec>,
): Status | undefined {
  // The handler defaulted expirationSeconds.
  const errs = validateTokenRequest(spec.expirationSeconds!);
  if (errs.length) {
    const e = errs[0];
    return statusError(422, 'Invalid', `TokenRequest.authentication.k8s.io "" is invalid: ${formatFieldError(e)}`, {
      group: 'authentication.k8s.io',
      kind: 'TokenRequest',
      causes: [{ reason: 'FieldValueInvalid', message: formatFieldError(e).slice(e.field.length + 2), field: e.field }],
    });
  }
  const ref = spec.boundObjectRef;
  if (!ref) return undefined;
  // schema.FromAPIVersionAndKind: a Pod or a Node of the core group (a Secret's store is not served here).
  const kind = (ref.apiVersion ?? '') === 'v1' && (ref.kind === 'Pod' || ref.kind === 'Node') ? ref.kind : '';
  if (!kind) {
    const gv = String(ref.apiVersion ?? '');
    return statusError(
      400,
      'BadRequest',
      `cannot bind token to object of type ${gv.includes('/') ? gv : '/' + gv}, Kind=${ref.kind ?? ''}`,
    );
  }
  const resource = kind === 'Pod' ? 'pods' : 'nodes';
  const o = storeGet(h.store, resource, storeKey(resource, kind === 'Pod' ? namespace : undefined, ref.name ?? ''));
  if (!o) return notFound(resource, ref.name ?? '');
  if (kind === 'Pod' && (o as Pod).spec?.serviceAccountName !== name) {
    return statusError(
      400,
      'BadRequest',
      `cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`,
    );
  }
  if (ref.uid && ref.uid !== o.metadata!.uid) {
    return statusError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${kind} "${ref.name}": the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      { name: ref.name, kind },
    );
  }
  return undefined;
}
