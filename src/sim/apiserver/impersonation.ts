// The impersonation filter (kubectl --as/--as-group) and who the server sees under it.
import type { ApiServerConfig } from './config.ts';
import { NODE_RULES } from './authn.ts';
import { type Identity, type PolicyRule, R } from '../api/identity.ts';
import { ruleAllows } from './rbac.ts';
import type { Verb } from '../api/request.ts';
import { type Status, statusError } from '../api/status.ts';
import { impersonatedIdentities } from './impersonation-cache.ts';

/** cluster-admin's rules (one array, so the RBAC answer cache is shared). */
const CLUSTER_ADMIN: PolicyRule[] = [R(['*'], ['*'])];
/** system:basic-user, bound to system:authenticated: every user may ask what it may do. */
const BASIC_USER = R(['create'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']);

/**
 * Who the server sees under impersonation: the user and the groups asked for plus
 * system:authenticated, and nothing the real user holds through its own groups. So
 * `--as kubernetes-admin` is not cluster-admin (kubeadm's admin gets that from its group,
 * kubeadm:cluster-admins, or system:masters), `--as system:node:node-1` is a node only with
 * `--as-group system:nodes`, and the components' users keep their user- and service-account-bound roles.
 */
function impersonatedIdentity(config: ApiServerConfig, user: string, groups: readonly string[] = []): Identity {
  let cache = impersonatedIdentities.get(config.identities);
  if (!cache) impersonatedIdentities.set(config.identities, (cache = new Map()));
  const key = `${user}\0${groups.join('\0')}`;
  const known = cache.get(key);
  if (known) return known;
  let id: Identity;
  const node = /^system:node:(.+)$/.exec(user);
  if (groups.includes('system:masters') || groups.includes('kubeadm:cluster-admins'))
    id = { user, rules: CLUSTER_ADMIN, nonResourceURLs: ['*'] };
  else if (node && groups.includes('system:nodes')) id = { user, node: node[1], rules: [...NODE_RULES, BASIC_USER] };
  else {
    const bound = Object.values(config.identities).find((i) => i.user === user && !i.nonResourceURLs);
    id = { user, rules: [...(bound?.rules ?? []), BASIC_USER] };
  }
  if (cache.size > 1000) cache.clear();
  cache.set(key, id);
  return id;
}

/**
 * The impersonation filter: the caller must be allowed to `impersonate` users (and groups), else
 * 403 (`users "jane" is forbidden: User "…" cannot impersonate resource "users" …`).
 */
export function impersonate(
  config: ApiServerConfig,
  caller: Identity,
  as: { user: string; groups?: string[] },
): Identity | Status {
  for (const [resource, name] of [['users', as.user], ...(as.groups ?? []).map((g) => ['groups', g])]) {
    if (!ruleAllows(caller.rules, 'impersonate' as Verb, resource)) {
      return statusError(
        403,
        'Forbidden',
        `${resource} "${name}" is forbidden: User "${caller.user}" cannot impersonate resource "${resource}" in API group "" at the cluster scope`,
        { name, group: '', kind: resource },
      );
    }
  }
  return impersonatedIdentity(config, as.user, as.groups);
}
