// Authentication: the identities the components present (user names and their bootstrap RBAC
// rules), and a kubelet's system:node:<node> identity.
import type { ApiServerConfig } from './config.ts';
import { R, type Identity, type PolicyRule } from '../api/identity.ts';
import type { Verb } from '../api/request.ts';
import { nodeIdentities } from './authn-cache.ts';

const READ: Verb[] = ['get', 'list', 'watch'];
const EVENTS = R(['create', 'update', 'patch'], ['events']);

/** Bootstrap-role-like rules per component (system:kube-scheduler, system:controller:*, system:node): every API server's table to start with. */
export const IDENTITIES: Readonly<Record<string, Identity>> = {
  kubectl: { user: 'kubernetes-admin', rules: [R(['*'], ['*'])], nonResourceURLs: ['*'] },
  'kube-apiserver': { user: 'system:apiserver', rules: [R(['*'], ['*'])], nonResourceURLs: ['*'] },
  scheduler: {
    user: 'system:kube-scheduler',
    rules: [
      R([...READ, 'delete'], ['pods']),
      R(['create'], ['pods/binding']),
      R(['patch', 'update'], ['pods/status']),
      R(READ, ['nodes', 'namespaces', 'services', 'replicasets', 'poddisruptionbudgets']),
      R(['get', 'create', 'update'], ['leases']),
      EVENTS,
    ],
  },
  // The controller manager's own client (leader election, its LeaderElection events); its controllers use their own service accounts.
  'kube-controller-manager': {
    user: 'system:kube-controller-manager',
    rules: [R(['get', 'create', 'update'], ['leases']), EVENTS],
  },
  'deployment-controller': {
    user: 'system:serviceaccount:kube-system:deployment-controller',
    rules: [
      R(['get', 'list', 'watch', 'update'], ['deployments']),
      R(['update'], ['deployments/status']),
      R(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['replicasets']),
      R(['get', 'list', 'watch', 'update'], ['pods']),
      EVENTS,
    ],
  },
  'replicaset-controller': {
    user: 'system:serviceaccount:kube-system:replicaset-controller',
    rules: [
      R(['get', 'list', 'watch', 'update'], ['replicasets']),
      R(['update'], ['replicasets/status']),
      R(['list', 'watch', 'patch', 'create', 'delete'], ['pods']),
      EVENTS,
    ],
  },
  'endpointslice-controller': {
    user: 'system:serviceaccount:kube-system:endpointslice-controller',
    rules: [
      R(READ, ['services', 'pods', 'nodes']),
      R([...READ, 'create', 'update', 'delete'], ['endpointslices']),
      EVENTS,
    ],
  },
  // system:controller:node-controller, which the taint eviction controller's requests carry too.
  'node-lifecycle-controller': {
    user: 'system:serviceaccount:kube-system:node-controller',
    rules: [
      R(['get', 'list', 'watch', 'delete', 'patch', 'update'], ['nodes']),
      R(['patch', 'update'], ['nodes/status']),
      R(['get', 'list', 'watch', 'delete'], ['pods']),
      R(['patch', 'update'], ['pods/status']),
      R(READ, ['leases']),
      EVENTS,
    ],
  },
  'garbage-collector': {
    user: 'system:serviceaccount:kube-system:generic-garbage-collector',
    rules: [R(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'])],
  },
  'pod-garbage-collector': {
    user: 'system:serviceaccount:kube-system:pod-garbage-collector',
    rules: [
      R(['list', 'watch', 'delete'], ['pods']),
      R(['patch'], ['pods/status']),
      R(['get', 'list', 'watch'], ['nodes']),
    ],
  },
};

/** Add or replace an identity of one API server (for components beyond the built-in table). */
export function registerIdentity(config: ApiServerConfig, component: string, identity: Identity): void {
  config.identities[component] = identity;
}

/** Resolve a component name to an identity: the server's table, plus `kubelet/<node>` as system:node:<node>. */
export function authenticate(config: ApiServerConfig, component: string): Identity | undefined {
  const listed = config.identities[component];
  if (listed) return listed;
  // Every request authenticates: build each node's identity once (it is only read).
  const known = nodeIdentities.get(component);
  if (known) return known;
  const m = /^kubelet\/(.+)$/.exec(component);
  if (m) {
    const id: Identity = { user: `system:node:${m[1]}`, node: m[1], rules: NODE_RULES };
    nodeIdentities.set(component, id);
    return id;
  }
  return undefined;
}
// system:node's rules, one array for every kubelet (which node is its own is the node authorizer's
// check, below): RBAC answers are then remembered once for all of them.
export const NODE_RULES: PolicyRule[] = [
  R([...READ, 'create', 'update', 'patch'], ['nodes']),
  R(['patch', 'update'], ['nodes/status']),
  R(['get', 'create', 'update', 'patch'], ['leases']),
  R([...READ, 'delete'], ['pods']),
  R(['create'], ['pods']),
  R(['patch', 'update'], ['pods/status']),
  R(READ, ['services', 'namespaces', 'endpointslices']),
  R(['create'], ['serviceaccounts/token']),
  EVENTS,
];
