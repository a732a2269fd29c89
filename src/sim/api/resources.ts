// The resources this API server serves and their REST paths, qualified names, etcd keys and the
// per-object string cache every request reads them through.
import { flatten } from '../util/names.ts';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type {
  ConfigMap,
  Event as CoreEvent,
  Namespace,
  Node,
  Pod,
  Service,
  ServiceAccount,
} from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import { mapOf, setOf } from '../util/table.ts';
import { cachedNames } from './resources-cache.ts';

/** The group Events are also served in. */
export const EVENTS_GROUP = 'events.k8s.io';
/** Its version. */
export const EVENTS_GROUP_VERSION = 'events.k8s.io/v1';

/** Kubernetes' etcd prefixes per resource (nodes are still "minions"). */
export const REGISTRY_PREFIX: Record<string, string> = {
  namespaces: '/registry/namespaces',
  nodes: '/registry/minions',
  leases: '/registry/leases',
  pods: '/registry/pods',
  deployments: '/registry/deployments',
  replicasets: '/registry/replicasets',
  services: '/registry/services/specs',
  endpointslices: '/registry/endpointslices',
  events: '/registry/events',
};

/** The etcd key of an object. */
export function storeKey(resource: string, namespace: string | undefined, name: string): string {
  const prefix = REGISTRY_PREFIX[resource] ?? `/registry/${resource}`;
  return namespace ? `${prefix}/${namespace}/${name}` : `${prefix}/${name}`;
}

/** The Kubernetes type of each served resource (for the typed client and informers). */
export interface ResourceTypes {
  namespaces: Namespace;
  nodes: Node;
  leases: Lease;
  pods: Pod;
  deployments: Deployment;
  replicasets: ReplicaSet;
  services: Service;
  endpointslices: EndpointSlice;
  events: CoreEvent;
  priorityclasses: PriorityClass;
  poddisruptionbudgets: PodDisruptionBudget;
  serviceaccounts: ServiceAccount;
  configmaps: ConfigMap;
}

/** Static facts about one REST resource. */
export interface ResourceInfo {
  kind: string;
  group: string;
  version: string;
  namespaced: boolean;
  subresources: string[];
}

/** The resources this API server serves. */
export const RESOURCES: Record<string, ResourceInfo> = {
  namespaces: { kind: 'Namespace', group: '', version: 'v1', namespaced: false, subresources: ['status', 'finalize'] },
  nodes: { kind: 'Node', group: '', version: 'v1', namespaced: false, subresources: ['status'] },
  leases: { kind: 'Lease', group: 'coordination.k8s.io', version: 'v1', namespaced: true, subresources: [] },
  pods: {
    kind: 'Pod',
    group: '',
    version: 'v1',
    namespaced: true,
    subresources: ['status', 'binding', 'eviction', 'log'],
  },
  deployments: {
    kind: 'Deployment',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    subresources: ['status', 'scale'],
  },
  replicasets: {
    kind: 'ReplicaSet',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    subresources: ['status', 'scale'],
  },
  services: { kind: 'Service', group: '', version: 'v1', namespaced: true, subresources: ['status'] },
  endpointslices: {
    kind: 'EndpointSlice',
    group: 'discovery.k8s.io',
    version: 'v1',
    namespaced: true,
    subresources: [],
  },
  events: { kind: 'Event', group: '', version: 'v1', namespaced: true, subresources: [] },
  priorityclasses: {
    kind: 'PriorityClass',
    group: 'scheduling.k8s.io',
    version: 'v1',
    namespaced: false,
    subresources: [],
  },
  poddisruptionbudgets: {
    kind: 'PodDisruptionBudget',
    group: 'policy',
    version: 'v1',
    namespaced: true,
    subresources: ['status'],
  },
  serviceaccounts: { kind: 'ServiceAccount', group: '', version: 'v1', namespaced: true, subresources: ['token'] },
  configmaps: { kind: 'ConfigMap', group: '', version: 'v1', namespaced: true, subresources: [] },
};

/** Resource names served. */
export type ResourceName = keyof ResourceTypes;

/** `deployments.apps`, `pods`: the qualified resource used in error messages. */
export function qualifiedResource(resource: string): string {
  const g = RESOURCES[resource]?.group;
  return g ? `${resource}.${g}` : resource;
}

/** `Deployment.apps`, `Pod`: the qualified kind used in 422 messages. */
export function qualifiedKind(resource: string): string {
  const r = RESOURCES[resource];
  return r.group ? `${r.kind}.${r.group}` : r.kind;
}

/** apiVersion for a resource: `v1`, `apps/v1`. */
export function apiVersionOf(resource: string): string {
  const r = RESOURCES[resource];
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/**
 * Resources served in a second group too, over the same storage (the API server's other version of
 * the same internal type): Events in events.k8s.io/v1.
 */
export const OTHER_GROUP_VERSIONS: Record<string, { group: string; version: string }[]> = {
  events: [{ group: 'events.k8s.io', version: 'v1' }],
};

/** The REST path of a request: `/apis/apps/v1/namespaces/default/deployments/web/status` (`group`: one of OTHER_GROUP_VERSIONS). */
export function resourcePath(
  resource: string,
  namespace?: string,
  name?: string,
  subresource?: string,
  group?: string,
): string {
  const r = RESOURCES[resource];
  const other = group === undefined ? undefined : OTHER_GROUP_VERSIONS[resource]?.find((g) => g.group === group);
  let p = other
    ? `/apis/${other.group}/${other.version}`
    : r.group
      ? `/apis/${r.group}/${r.version}`
      : `/api/${r.version}`;
  if (r.namespaced && namespace) p += `/namespaces/${namespace}`;
  p += `/${resource}`;
  if (name) p += `/${name}`;
  if (subresource) p += `/${subresource}`;
  return p;
}

/** url.QueryEscape: all but letters, digits and `-_.~` percent-encoded, a space as `+`. */
function queryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}

/** url.Values.Encode: `k=v` pairs in key order, escaped, joined by `&` (what client-go puts after `?`). */
export function encodeQuery(q: Record<string, string | undefined>): string {
  return Object.keys(q)
    .filter((k) => q[k] !== undefined)
    .sort()
    .map((k) => `${queryEscape(k)}=${queryEscape(q[k]!)}`)
    .join('&');
}

/** The strings one object is known by: its etcd key, its log name, its REST path and its informer key. */
export interface ObjectNames {
  key: string;
  object: string;
  path: string;
  sub?: Record<string, string>;
  nsName?: string;
}

/** The strings of object `name`, built afresh: what namesOf keeps (namespace '' for cluster-scoped; name '' for the collection). */
function buildObjectNames(resource: string, namespace: string | undefined, name: string): ObjectNames {
  const ns = namespace ?? '';
  const scoped = RESOURCES[resource]?.namespaced ? namespace : undefined;
  return {
    key: flatten(storeKey(resource, scoped, name)),
    object: flatten(`${resource}/${ns ? ns + '/' : ''}${name}`),
    path: flatten(resourcePath(resource, namespace, name || undefined)),
  };
}

/** The cached strings of object `name` (one copy per object, see resources-cache.ts). */
export function namesOf(resource: string, namespace: string | undefined, name: string): ObjectNames {
  return cachedNames(resource, namespace, name, buildObjectNames);
}

/** `resource/namespace/name` as the request log names an object (one shared string per object). */
export function logObjectName(resource: string, namespace: string | undefined, name: string): string {
  return namesOf(resource, namespace, name).object;
}

// kind → resource, the RESTMapper's reverse table (RESOURCES never changes once loaded).
const resourceByKind = mapOf(Object.entries(RESOURCES).map(([r, info]) => [info.kind, r] as const));

/** The served resource of a kind (`Pod` → `pods`), or undefined. */
export function resourceOfKind(kind: string | undefined): string | undefined {
  return kind === undefined ? undefined : resourceByKind.get(kind);
}

/** cache.MetaNamespaceKeyFunc's `ns/name` (or `name`) of an object of `resource`, one string per object. */
export function informerKeyOf(resource: string, namespace: string | undefined, name: string): string {
  if (!RESOURCES[resource]) return namespace ? `${namespace}/${name}` : name;
  const n = namesOf(resource, namespace || undefined, name);
  return (n.nsName ??= flatten(namespace ? `${namespace}/${name}` : name));
}

/** resourcePath through the cache (the same string). */
export function cachedPath(
  resource: string,
  namespace: string | undefined,
  name: string | undefined,
  subresource: string | undefined,
): string {
  const n = namesOf(resource, namespace, name ?? '');
  if (!subresource) return n.path;
  return ((n.sub ??= {})[subresource] ??= flatten(`${n.path}/${subresource}`));
}
export const STATUS_RESOURCES = setOf([
  'pods',
  'deployments',
  'replicasets',
  'nodes',
  'services',
  'namespaces',
  'poddisruptionbudgets',
]);
/** Resources whose strategy keeps metadata.generation (pods since PodObservedGenerationTracking, 1.33). */
export const GENERATION_RESOURCES = setOf([
  'deployments',
  'replicasets',
  'pods',
  'endpointslices',
  'poddisruptionbudgets',
]);
/** The store key of what a request (an ApiRequest, or anything naming a resource, namespace and name) addresses. */
export function keyOf(req: { resource: string; namespace?: string; name?: string }): string {
  return namesOf(req.resource, req.namespace, req.name ?? '').key;
}
