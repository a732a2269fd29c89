// The TokenRequest API: the kubelet's request as the real token manager sends it is answered 201
// with the defaults and an expiry; the checks a hand-made request can fail come with kubectl's part.
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { installKubectlExtras } from '../kubectl-extras.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { TokenRequest } from 'kubernetes-types/authentication/v1';
import { validateTokenRequest } from './token-request-checks.ts';

const token = (c: ReturnType<typeof createCluster>, spec: Unstructured, name = 'default', namespace = 'default') =>
  c.request({
    verb: 'create',
    resource: 'serviceaccounts',
    namespace,
    name,
    subresource: 'token',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec },
  });

describe('POST serviceaccounts/NAME/token', () => {
  it('answers 201 with the defaulted spec, a deterministic token and the expiry asked for', () => {
    const c = createCluster({ seed: 1 });
    const r = token(c, {});
    expect(r.ok && r.code).toBe(201);
    const o = (r.ok ? r.object : {}) as TokenRequest;
    expect(o.kind).toBe('TokenRequest');
    expect(o.spec).toEqual({ expirationSeconds: 3600, audiences: ['https://kubernetes.default.svc.cluster.local'] });
    expect(o.status?.expirationTimestamp).toBe('2026-01-01T01:00:00Z');
    expect(o.status?.token).toBe((token(c, {}) as { object: TokenRequest }).object.status?.token);
    // Nothing is stored: the store's revision does not move.
    const rev = c.world.state.store.revision;
    token(c, { expirationSeconds: 3607, audiences: ['vault'] });
    expect(c.world.state.store.revision).toBe(rev);
  });

  it('is 404 for an account that does not exist, in any namespace', () => {
    const c = createCluster({ seed: 1 });
    const r = token(c, {}, 'builder');
    expect(r.ok ? 0 : r.status.message).toBe('serviceaccounts "builder" not found');
    expect(r.code).toBe(404);
  });

  it('is allowed to a kubelet (system:node) and refused to a controller with no such rule', () => {
    const c = createCluster({ seed: 1 });
    const req = {
      verb: 'create' as const,
      resource: 'serviceaccounts',
      namespace: 'default',
      name: 'default',
      subresource: 'token',
      body: { spec: {} },
    };
    expect(c.world.kubectl(req, 'kubelet/node-1').code).toBe(201);
    expect(c.world.kubectl(req, 'replicaset-controller').code).toBe(403);
  });

  it("with kubectl's part: ValidateTokenRequest and the bound object's checks", () => {
    const c = createCluster({ seed: 1 });
    installKubectlExtras(c);
    expect(validateTokenRequest(600)).toEqual([]);
    expect(validateTokenRequest(2 ** 32)).toEqual([]);
    const short = token(c, { expirationSeconds: 599 });
    expect(short.ok ? '' : short.status.message).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    );
    const long = token(c, { expirationSeconds: 2 ** 32 + 1 });
    expect(long.ok ? '' : long.status.message).toContain('may not specify a duration larger than 2^32 seconds');
    const gone = token(c, { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web' } });
    expect(gone.ok ? '' : gone.status.message).toBe('pods "web" not found');
    const deploy = token(c, { boundObjectRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } });
    expect(deploy.ok ? '' : deploy.status.message).toBe('cannot bind token to object of type apps/v1, Kind=Deployment');
    const node = token(c, { boundObjectRef: { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'not-its-uid' } });
    expect(node.code).toBe(409);
    expect(node.ok ? '' : node.status.message).toMatch(
      /^Operation cannot be fulfilled on Node "node-1": the UID in the bound object reference \(not-its-uid\) does not match/,
    );
  });
});
