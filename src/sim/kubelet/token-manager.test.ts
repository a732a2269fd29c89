// The kubelet's token manager: a TokenRequest bound to the pod for the projected token volume, once
// per pod worker, after the pod's first status write (as the real traces order them).
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../api/request.ts';
import { createCluster } from '../cluster.ts';
import { appDeployment } from '../testing/world.ts';
import type { Ctx } from '../world.ts';
import type { KubeletState, PodWork } from './kubelet-state.ts';
import { getServiceAccountTokens } from './token-manager.ts';

/** A context whose API answers `code` and remembers each request. */
function fakeCtx(code: number): { ctx: Ctx<KubeletState>; sent: ApiRequest[] } {
  const sent: ApiRequest[] = [];
  const api = {
    request: (r: ApiRequest) => {
      sent.push(r);
      return code < 300 ? { ok: true, code, object: {} } : { ok: false, code, status: {} };
    },
  };
  return { ctx: { api } as unknown as Ctx<KubeletState>, sent };
}

const work = (): PodWork => ({ name: 'web-1', namespace: 'team-a', uid: 'u-1' }) as PodWork;
const pod = (volumes: NonNullable<Pod['spec']>['volumes'], serviceAccountName = 'builder'): Pod => ({
  metadata: { name: 'web-1', namespace: 'team-a', uid: 'u-1' },
  spec: { serviceAccountName, containers: [], volumes },
});

describe('getServiceAccountTokens', () => {
  it('asks for each projected serviceAccountToken source, bound to the pod, with its audience and expiry', () => {
    const { ctx, sent } = fakeCtx(201);
    const w = work();
    getServiceAccountTokens(
      ctx,
      w,
      pod([
        {
          name: 'kube-api-access-abcde',
          projected: {
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt' } },
            ],
          },
        },
        {
          name: 'vault',
          projected: { sources: [{ serviceAccountToken: { audience: 'vault', expirationSeconds: 600, path: 't' } }] },
        },
        { name: 'data', emptyDir: {} },
      ]),
    );
    expect(sent.map((r) => [r.verb, r.resource, r.namespace, r.name, r.subresource])).toEqual([
      ['create', 'serviceaccounts', 'team-a', 'builder', 'token'],
      ['create', 'serviceaccounts', 'team-a', 'builder', 'token'],
    ]);
    expect((sent[0].body as { spec: unknown }).spec).toEqual({
      audiences: undefined,
      expirationSeconds: 3607,
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: 'u-1' },
    });
    expect((sent[1].body as { spec: { audiences: string[] } }).spec.audiences).toEqual(['vault']);
    // Cached: the worker's next sync asks nothing.
    getServiceAccountTokens(
      ctx,
      w,
      pod([{ name: 'kube-api-access-abcde', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }]),
    );
    expect(sent).toHaveLength(2);
  });

  it('asks again at the next sync after a refusal, and nothing for a pod without a token volume', () => {
    const refused = fakeCtx(404);
    const w = work();
    const p = pod([
      { name: 'kube-api-access-abcde', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
    ]);
    getServiceAccountTokens(refused.ctx, w, p);
    getServiceAccountTokens(refused.ctx, w, p);
    expect(refused.sent).toHaveLength(2);
    const none = fakeCtx(201);
    getServiceAccountTokens(none.ctx, work(), pod([{ name: 'data', emptyDir: {} }]));
    expect(none.sent).toEqual([]);
  });

  it("in a cluster: one TokenRequest per pod started, from its node's kubelet, after the pod's first status write", () => {
    const c = createCluster({ seed: 1 });
    c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: appDeployment('web', 3) });
    c.settle();
    const tokens = c.log.filter(
      (r) => r.kind === 'request' && r.path === '/api/v1/namespaces/default/serviceaccounts/default/token',
    );
    expect(tokens.map((r) => r.code)).toEqual([201, 201, 201]);
    expect(new Set(tokens.map((r) => r.component))).toEqual(
      new Set(['kubelet/node-1', 'kubelet/node-2', 'kubelet/node-3']),
    );
    for (const t of tokens) {
      const i = c.log.indexOf(t);
      const firstPatch = c.log.findIndex(
        (r) =>
          r.kind === 'request' &&
          r.component === t.component &&
          r.verb === 'PATCH' &&
          r.path.endsWith('/status') &&
          r.path.includes('/pods/'),
      );
      expect(firstPatch).toBeGreaterThanOrEqual(0);
      expect(firstPatch).toBeLessThan(i);
    }
  });
});
