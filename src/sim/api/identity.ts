// Who a client is (k8s.io/apiserver's user.Info and rbac/v1's PolicyRule, as the components here
// present them): an identity with its rules, built by components that bring their own (kube-proxy,
// CoreDNS) and checked by the API server's authenticator and authorizer.
import type { Verb } from './request.ts';

/** One RBAC policy rule (resources may name a subresource: `pods/binding`). */
export interface PolicyRule {
  verbs: Verb[] | ['*'];
  resources: string[] | ['*'];
  groups?: string[];
}

/**
 * An identity known to the authenticator. `nonResourceURLs` marks cluster-admin's power (its rule
 * `nonResourceURLs: ["*"]`), which the identity holds through a group rather than its user name.
 */
export interface Identity {
  user: string;
  rules: PolicyRule[];
  node?: string;
  nonResourceURLs?: string[];
}

/** A PolicyRule: these verbs on these resources. */
export const R = (verbs: Verb[] | ['*'], resources: string[] | ['*']): PolicyRule => ({ verbs, resources });

/** The client name a request with unknown credentials is logged under (no identity carries it: 401). */
export const UNKNOWN_CLIENT = 'kubectl (unknown credentials)';
