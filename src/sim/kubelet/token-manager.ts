// The kubelet's token manager (pkg/kubelet/token/token_manager.go) as the projected volume's SetUp
// calls it (pkg/volume/projected/projected.go): each serviceAccountToken source of a pod's projected
// volumes is a TokenRequest bound to the pod, made once per pod worker and then served from the
// cache. Simplified: the cache's refresh (at 80 % of the token's life, 48 minutes for kube-api-access)
// is not modelled, and a refused request does not hold the sandbox back (the real mount fails and the
// pod waits with FailedMount); the next sync asks again.
import type { Pod } from 'kubernetes-types/core/v1';
import type { Ctx } from '../world.ts';
import type { KubeletState, PodWork } from './kubelet-state.ts';

/** GetServiceAccountToken for each projected serviceAccountToken source of the pod, unless cached. */
export function getServiceAccountTokens(ctx: Ctx<KubeletState>, w: PodWork, pod: Pod): void {
  if (w.tokenFetched) return;
  let ok = true;
  for (const v of pod.spec?.volumes ?? []) {
    for (const s of v.projected?.sources ?? []) {
      const t = s.serviceAccountToken;
      if (!t) continue;
      const spec = {
        audiences: t.audience ? [t.audience] : undefined,
        expirationSeconds: t.expirationSeconds,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: w.name, uid: w.uid },
      };
      const r = ctx.api.request({
        verb: 'create',
        resource: 'serviceaccounts',
        namespace: w.namespace,
        name: pod.spec?.serviceAccountName ?? 'default',
        subresource: 'token',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec },
      });
      ok &&= r.ok;
    }
  }
  w.tokenFetched = ok;
}
