import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Event as CoreEvent, Namespace, Node, Pod, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
// The kube-apiserver model: REST paths, the request pipeline (authentication → authorization →
// admission → validation → storage), defaulting, watches served from an index, faults.
import { push, type EventQueue } from './clock.ts';
import { attachKey, detachKey, extendAll, newEventLeases, revokeExpired, revokeTime, type EventLeases } from './event-ttl.ts';
import { deepEqual, flatten, generateName, newUID, rfc3339 } from './names.ts';
import { MAX_JSON_PATCH_OPERATIONS, applyJSONPatch, decodeJSONPatch } from './json-patch.ts';
import { appendBuiltRecord, appendRecord, type RequestLog, type RequestRecord, type Stage, type WatchEventType } from './request-log.ts';
import { jitter, int, type RngState } from './rng.ts';
import {
  storeCompact, storeDelete, storeGet, storeHistorySince, storeKey, storeList, storePut, storePutStamped,
  type KObject, type StoreEvent, type StoreState,
} from './store.ts';

// ---------------------------------------------------------------- resources and paths

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
  namespaces: { kind: 'Namespace', group: '', version: 'v1', namespaced: false, subresources: ['status'] },
  nodes: { kind: 'Node', group: '', version: 'v1', namespaced: false, subresources: ['status'] },
  leases: { kind: 'Lease', group: 'coordination.k8s.io', version: 'v1', namespaced: true, subresources: [] },
  pods: { kind: 'Pod', group: '', version: 'v1', namespaced: true, subresources: ['status', 'binding', 'eviction', 'log'] },
  deployments: { kind: 'Deployment', group: 'apps', version: 'v1', namespaced: true, subresources: ['status', 'scale'] },
  replicasets: { kind: 'ReplicaSet', group: 'apps', version: 'v1', namespaced: true, subresources: ['status', 'scale'] },
  services: { kind: 'Service', group: '', version: 'v1', namespaced: true, subresources: ['status'] },
  endpointslices: { kind: 'EndpointSlice', group: 'discovery.k8s.io', version: 'v1', namespaced: true, subresources: [] },
  events: { kind: 'Event', group: '', version: 'v1', namespaced: true, subresources: [] },
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

/** The REST path of a request: `/apis/apps/v1/namespaces/default/deployments/web/status`. */
export function resourcePath(resource: string, namespace?: string, name?: string, subresource?: string): string {
  const r = RESOURCES[resource];
  let p = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  if (r.namespaced && namespace) p += `/namespaces/${namespace}`;
  p += `/${resource}`;
  if (name) p += `/${name}`;
  if (subresource) p += `/${subresource}`;
  return p;
}

/** url.QueryEscape: all but letters, digits and `-_.~` percent-encoded, a space as `+`. */
export function queryEscape(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%20/g, '+');
}

/** url.Values.Encode: `k=v` pairs in key order, escaped, joined by `&` (what client-go puts after `?`). */
export function encodeQuery(q: Record<string, string | undefined>): string {
  return Object.keys(q).filter((k) => q[k] !== undefined).sort().map((k) => `${queryEscape(k)}=${queryEscape(q[k]!)}`).join('&');
}

/**
 * The query of a request as client-go encodes its options and an audit log's requestURI shows it:
 * a LIST's selectors, resourceVersion and limit, a log's container, a write's dryRun=All.
 */
function requestQuery(req: ApiRequest): string {
  const o = req.options;
  if (!o) return '';
  const list = req.verb === 'list';
  const write = req.verb !== 'get' && req.verb !== 'list';
  if (!(list && (o.labelSelector || o.fieldSelector || o.resourceVersion !== undefined || o.limit !== undefined))
    && !(write && o.dryRun) && !(req.subresource === 'log' && (o.container || o.previous))) return '';
  return encodeQuery({
    labelSelector: list && o.labelSelector ? o.labelSelector : undefined,
    fieldSelector: list && o.fieldSelector ? o.fieldSelector : undefined,
    resourceVersion: list ? o.resourceVersion : undefined,
    limit: list && o.limit !== undefined ? String(o.limit) : undefined,
    dryRun: write && o.dryRun ? 'All' : undefined,
    container: req.subresource === 'log' ? o.container || undefined : undefined,
    previous: req.subresource === 'log' && o.previous ? 'true' : undefined,
  });
}

/** The strings one object is known by: its etcd key, its log name, its REST path and its informer key. */
interface ObjectNames { key: string; object: string; path: string; sub?: Record<string, string>; nsName?: string }

// resource → namespace → name → strings. Every request about an object needs them, and building
// them by concatenation costs a flatten and a hash per lookup; one entry per object keeps a single
// flat copy (behaviour-side cache, not state; cleared when it grows past the bound).
const objectNames = new Map<string, Map<string, Map<string, ObjectNames>>>();
let objectNamesSize = 0;

/** The cached strings of object `name` (namespace '' for cluster-scoped; name '' for the collection). */
function namesOf(resource: string, namespace: string | undefined, name: string): ObjectNames {
  const ns = namespace ?? '';
  // One request, and one notification's readers, ask for the same object several times in a row;
  // a request also asks for its namespace or its collection in between (the two latest are kept).
  if (name === lastName && ns === lastNs && resource === lastResource && lastNames) return lastNames;
  if (name === prevName && ns === prevNs && resource === prevResource && prevNames) {
    const n = prevNames;
    prevResource = lastResource; prevNs = lastNs; prevName = lastName; prevNames = lastNames;
    lastResource = resource; lastNs = ns; lastName = name; lastNames = n;
    return n;
  }
  // Most asks are about pods in one namespace: the last resource's and namespace's map is at hand.
  let byName = resource === mapResource && ns === mapNs ? mapOfNames : undefined;
  if (!byName) {
    let byNs = objectNames.get(resource);
    if (!byNs) objectNames.set(resource, (byNs = new Map()));
    byName = byNs.get(ns);
    if (!byName) byNs.set(ns, (byName = new Map()));
    mapResource = resource; mapNs = ns; mapOfNames = byName;
  }
  let n = byName.get(name);
  if (!n) {
    if (objectNamesSize >= 300_000) { objectNames.clear(); objectNamesSize = 0; lastNames = prevNames = mapOfNames = undefined; return namesOf(resource, namespace, name); }
    objectNamesSize++;
    const scoped = RESOURCES[resource]?.namespaced ? namespace : undefined;
    n = { key: flatten(storeKey(resource, scoped, name)), object: flatten(`${resource}/${ns ? ns + '/' : ''}${name}`), path: flatten(resourcePath(resource, namespace, name || undefined)) };
    byName.set(name, n);
  }
  prevResource = lastResource; prevNs = lastNs; prevName = lastName; prevNames = lastNames;
  lastResource = resource; lastNs = ns; lastName = name; lastNames = n;
  return n;
}
let lastResource = '';
let lastNs = '';
let lastName = '';
let lastNames: ObjectNames | undefined;
let prevResource = '';
let prevNs = '';
let prevName = '';
let prevNames: ObjectNames | undefined;
let mapResource = '';
let mapNs = '';
let mapOfNames: Map<string, ObjectNames> | undefined;

/** `resource/namespace/name` as the request log names an object (one shared string per object). */
export function logObjectName(resource: string, namespace: string | undefined, name: string): string {
  return namesOf(resource, namespace, name).object;
}

const resourceByKind = new Map<string, string>();

/** The served resource of a kind (`Pod` → `pods`), or undefined. */
export function resourceOfKind(kind: string | undefined): string | undefined {
  if (kind === undefined) return undefined;
  if (resourceByKind.size === 0) for (const [r, info] of Object.entries(RESOURCES)) resourceByKind.set(info.kind, r);
  return resourceByKind.get(kind);
}

/** cache.MetaNamespaceKeyFunc's `ns/name` (or `name`) of an object of `resource`, one string per object. */
export function informerKeyOf(resource: string, namespace: string | undefined, name: string): string {
  if (!RESOURCES[resource]) return namespace ? `${namespace}/${name}` : name;
  const n = namesOf(resource, namespace || undefined, name);
  return (n.nsName ??= flatten(namespace ? `${namespace}/${name}` : name));
}

/** resourcePath through the cache (the same string). */
function cachedPath(resource: string, namespace: string | undefined, name: string | undefined, subresource: string | undefined): string {
  const n = namesOf(resource, namespace, name ?? '');
  if (!subresource) return n.path;
  return ((n.sub ??= {})[subresource] ??= flatten(`${n.path}/${subresource}`));
}

// ---------------------------------------------------------------- requests and results

/** Kubernetes API verbs (RBAC names). */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

/** metav1.Status for failures (and a few successes). */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  code: number;
  details?: { name?: string; group?: string; kind?: string; causes?: { reason: string; message: string; field: string }[] };
}

/** Options on a request (list/watch/delete). */
export interface RequestOptions {
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
  /** PATCH content type: `strategic` (default, lists with merge keys merge by key), `merge` (RFC 7386) or `json` (RFC 6902). */
  patchType?: 'strategic' | 'merge' | 'json';
  /** DELETE: what happens to the object's dependents (Background by default; see the garbage collector). */
  propagationPolicy?: 'Background' | 'Orphan' | 'Foreground';
  /** LIST: the page size the client asks for (kubectl get's --chunk-size, 500); logged, every page is one here. */
  limit?: number;
  /** pods/log: which container, and its previous (terminated) instance. */
  container?: string;
  previous?: boolean;
  /** kubectl's --as/--as-group: act as this user (the Impersonate-User/-Group headers). */
  impersonate?: { user: string; groups?: string[] };
}

/** A request as a component builds it. */
export interface ApiRequest {
  verb: Verb;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  body?: unknown;
  options?: RequestOptions;
}

/** The answer: an object (or list) on success, a Status on failure. */
export type ApiResult<T = KObject> =
  | { ok: true; code: number; object: T; revision?: number }
  | { ok: false; code: number; status: Status };

/** A list response. */
export interface ObjectList<T = KObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string };
  items: T[];
}

/** Build a failure Status. */
export function statusError(code: number, reason: string, message: string, details?: Status['details']): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code };
  if (details) s.details = details;
  return s;
}

/** 404 NotFound: `deployments.apps "x" not found`. */
export function notFound(resource: string, name: string): Status {
  return statusError(404, 'NotFound', `${qualifiedResource(resource)} "${name}" not found`, { name, group: RESOURCES[resource]?.group, kind: resource });
}

/** 409 AlreadyExists: `deployments.apps "web" already exists`. */
export function alreadyExists(resource: string, name: string): Status {
  return statusError(409, 'AlreadyExists', `${qualifiedResource(resource)} "${name}" already exists`, { name, group: RESOURCES[resource]?.group, kind: resource });
}

/** 409 Conflict on a stale resourceVersion. */
export function conflict(resource: string, name: string, detail = 'the object has been modified; please apply your changes to the latest version and try again'): Status {
  return statusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(resource)} "${name}": ${detail}`, { name, group: RESOURCES[resource]?.group, kind: resource });
}

/** kubectl's one-line rendering of a failed request (`Error from server (NotFound): pods "x" not found`). */
export function kubectlErrorMessage(status: Status): string {
  if (status.code === 0) return KUBECTL_CONNECTION_REFUSED;
  // StandardErrorMessage: a Status without a reason (etcd's errors passed through) prints none.
  if (!status.reason) return `Error from server: ${status.message}`;
  return `Error from server (${status.reason}): ${status.message}`;
}

/** What kubectl prints when nothing listens on 6443. */
export const KUBECTL_CONNECTION_REFUSED = 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?';

// ---------------------------------------------------------------- field errors (validation)

/** A field.Error: the typed cause of a 422. */
export interface FieldError {
  type: 'Invalid' | 'Required' | 'NotSupported' | 'Forbidden' | 'Duplicate' | 'TooLong';
  field: string;
  value?: unknown;
  detail?: string;
}

/** Go's rendering of a bad value in field errors (simple types plainly, strings quoted, IntOrString via String()). */
export function formatBadValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof GoValue) return v.text;
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')) {
    const entries = Object.entries(v as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `map[string]string{${entries.map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`).join(', ')}}`;
  }
  return JSON.stringify(v);
}

/** A bad value already rendered the way Go's %#v prints it. */
export class GoValue {
  readonly text: string;
  constructor(text: string) { this.text = text; }
}

/** metav1.LabelSelector as %#v prints it (the "field is immutable" message of a Deployment selector). */
export function goLabelSelector(sel: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined): GoValue {
  const ml = sel?.matchLabels
    ? `map[string]string{${Object.keys(sel.matchLabels).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(sel.matchLabels![k])}`).join(', ')}}`
    : 'map[string]string(nil)';
  const me = sel?.matchExpressions?.length
    ? `[]v1.LabelSelectorRequirement{${sel.matchExpressions.map((e) => `v1.LabelSelectorRequirement{Key:${JSON.stringify(e.key)}, Operator:${JSON.stringify(e.operator)}, Values:[]string{${(e.values ?? []).map((x) => JSON.stringify(x)).join(', ')}}}`).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoValue(`v1.LabelSelector{MatchLabels:${ml}, MatchExpressions:${me}}`);
}

const TYPE_TEXT: Record<FieldError['type'], string> = {
  Invalid: 'Invalid value', Required: 'Required value', NotSupported: 'Unsupported value',
  Forbidden: 'Forbidden', Duplicate: 'Duplicate value', TooLong: 'Too long',
};

/** field.Error.Error(): `spec.replicas: Invalid value: -1: must be greater than or equal to 0`. */
export function formatFieldError(e: FieldError): string {
  let s = `${e.field}: ${TYPE_TEXT[e.type]}`;
  if (e.type === 'Invalid' || e.type === 'NotSupported' || e.type === 'Duplicate') s += `: ${formatBadValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** errors.NewInvalid: the 422 Status built from field errors. */
export function invalid(resource: string, name: string, errs: FieldError[]): Status {
  const body = errs.length === 1 ? formatFieldError(errs[0]) : `[${errs.map(formatFieldError).join(', ')}]`;
  return statusError(422, 'Invalid', `${qualifiedKind(resource)} "${name}" is invalid: ${body}`, {
    name, group: RESOURCES[resource].group, kind: RESOURCES[resource].kind,
    causes: errs.map((e) => ({ reason: `Field${e.type === 'Invalid' ? 'ValueInvalid' : 'Value' + e.type}`, message: formatFieldError(e).slice(e.field.length + 2), field: e.field })),
  });
}

// ---------------------------------------------------------------- selectors

/** One parsed label requirement. */
export interface LabelRequirement { key: string; op: 'in' | 'notin' | 'exists' | '!'; values: string[] }
/** One parsed field requirement. */
export interface FieldRequirement { field: string; op: '=' | '!='; value: string; path: string[] }

/** Parse a label selector string (`app=web,tier in (a,b),!canary`). */
export function parseLabelSelector(s: string | undefined): LabelRequirement[] {
  if (!s) return [];
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { parts.push(cur); cur = ''; } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter(Boolean).map((p): LabelRequirement => {
    let m = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(p);
    if (m) return { key: m[1], op: m[2] as 'in' | 'notin', values: m[3].split(',').map((x) => x.trim()) };
    m = /^([^!=\s]+)\s*(==|=|!=)\s*(.*)$/.exec(p);
    if (m) return { key: m[1], op: m[2] === '!=' ? 'notin' : 'in', values: [m[3].trim()] };
    if (p.startsWith('!')) return { key: p.slice(1).trim(), op: '!', values: [] };
    return { key: p, op: 'exists', values: [] };
  });
}

/** Whether labels satisfy every requirement. */
export function matchesLabels(reqs: readonly LabelRequirement[], labels: Record<string, string> | undefined): boolean {
  for (const r of reqs) {
    const v = labels?.[r.key];
    switch (r.op) {
      case 'in': if (v === undefined || !r.values.includes(v)) return false; break;
      case 'notin': if (v !== undefined && r.values.includes(v)) return false; break;
      case 'exists': if (v === undefined) return false; break;
      case '!': if (v !== undefined) return false; break;
    }
  }
  return true;
}

/** metav1.LabelSelectorAsSelector rendered as a string (matchLabels + matchExpressions). */
export function labelSelectorAsString(sel: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined): string {
  if (!sel) return '';
  const parts: string[] = [];
  for (const k of Object.keys(sel.matchLabels ?? {}).sort()) parts.push(`${k}=${sel.matchLabels![k]}`);
  for (const e of sel.matchExpressions ?? []) {
    if (e.operator === 'In') parts.push(`${e.key} in (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else parts.push(`!${e.key}`);
  }
  return parts.join(',');
}

/** Parse a field selector string (`spec.nodeName=node-2,status.phase!=Failed`). */
export function parseFieldSelector(s: string | undefined): FieldRequirement[] {
  if (!s) return [];
  return s.split(',').map((p) => p.trim()).filter(Boolean).map((p) => {
    const m = /^([^!=]+)(==|=|!=)(.*)$/.exec(p);
    if (!m) throw new Error(`invalid field selector: ${p}`);
    const field = m[1].trim();
    return { field, op: m[2] === '!=' ? '!=' : '=', value: m[3].trim(), path: field.split('.') };
  });
}

/** Read a dotted field path (`spec.nodeName`); missing reads as "". */
export function fieldValue(obj: KObject, path: string | readonly string[]): string {
  let cur: unknown = obj;
  for (const part of typeof path === 'string' ? path.split('.') : path) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === null ? '' : String(cur);
}

/** Whether an object satisfies every field requirement. */
export function matchesFields(reqs: readonly FieldRequirement[], obj: KObject): boolean {
  for (const r of reqs) {
    const v = fieldValue(obj, r.path);
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}

// ---------------------------------------------------------------- state

/** One open watch. */
export interface Watcher {
  id: string;
  /** The component that opened it (its reaction delay paces deliveries). */
  component: string;
  /**
   * The process whose components share this watch (client-go's shared informers: every controller
   * in kube-controller-manager reads one pods watch). Notifications go to the process, which hands
   * each to its subscribers in order.
   */
  process?: string;
  /** Components reading this watch, in the order they joined (just `component` when not shared); replaced on join/leave, never edited. */
  subscribers?: string[];
  /** The selectors as requested: a joining component must ask for exactly the same. */
  selector?: string;
  /** Notifications handed out so far (a component may join only before the first). */
  dispatched?: number;
  resource: string;
  namespace?: string;
  labels: LabelRequirement[];
  fields: FieldRequirement[];
  /** The index bucket it sits in: `*` or a pod's nodeName value. */
  bucket: string;
  /** Time of the last queued notification (deliveries to one watcher never reorder). */
  lastAt: number;
  /** Only events after this revision are sent (a watch from a future rv waits for it, as the watch cache does). */
  fromRevision: number;
}

/** Faults in force at this level. */
export interface ApiFaults {
  apiServerDown: boolean;
  etcdDown: boolean;
  etcdFull: boolean;
  addedLatencyMs: number;
  /** Components cut off from the API server (network partition): their connections are refused. */
  partitioned?: string[];
}

/** The API server's own plain-data state. */
export interface ApiServerState {
  watchers: Record<string, Watcher>;
  /** resource → bucket → watcher ids (`*` = every object, else pods by spec.nodeName). */
  watchIndex: Record<string, Record<string, string[]>>;
  nextWatchId: number;
  /** Base latency of the API server (ms) before a watcher sees an event. */
  latencyMs: number;
  /** Revision seen at the previous compaction tick: what the next tick compacts to. */
  compactCandidate: number;
  allocatedIPs: Record<string, string>;
  /** NodePorts handed out or asked for (absent until the first NodePort Service). */
  allocatedNodePorts?: Record<string, string>;
  faults: ApiFaults;
  /** Admission plugins switched off in this world. */
  disabledAdmission: string[];
  /** The etcd leases Events are written with (made at the first Event; see event-ttl.ts). */
  eventLeases?: EventLeases;
}

/** Everything the API server touches: a subset of the world state. */
export interface ApiHost {
  now: number;
  store: StoreState;
  apiServer: ApiServerState;
  rng: RngState;
  log: RequestLog;
  queue: EventQueue<unknown>;
  /** component name → reaction delay [min, max] ms, identity and process. */
  components: Record<string, { reactionMs?: [number, number]; identity?: string; process?: string }>;
}

/** Fresh API server state. */
export function createApiServerState(latencyMs = 1): ApiServerState {
  return {
    watchers: {}, watchIndex: {}, nextWatchId: 1, latencyMs, compactCandidate: 0, allocatedIPs: {},
    faults: { apiServerDown: false, etcdDown: false, etcdFull: false, addedLatencyMs: 0 },
    disabledAdmission: [],
  };
}

/** Compaction interval (`--etcd-compaction-interval`, default 5 min). */
export const COMPACTION_INTERVAL_MS = 5 * 60 * 1000;
/** The API server's own component name in the queue. */
export const API_SERVER = 'kube-apiserver';

/** What the API server's own queue entries carry: the compaction tick, or etcd revoking an Event lease. */
export type ApiServerTimer = { type: 'compact' } | { type: 'lease-revoke'; id: number };

/**
 * An Event was written (created or updated): like the real registry, every write carries the
 * --event-ttl lease, so the Event goes an hour after its last write; a newly granted lease's
 * revocation is queued (as a recurring entry, so settle does not wait an hour for it).
 */
function leaseEventKey(h: ApiHost, key: string): void {
  const l = (h.apiServer.eventLeases ??= newEventLeases());
  const granted = attachKey(l, key, h.now);
  if (granted !== undefined) push(h.queue, revokeTime(l.leases[granted].expiresAt), API_SERVER, { type: 'lease-revoke', id: granted } satisfies ApiServerTimer, true);
}

/**
 * etcd's lessor revokes an expired lease: the Events still attached are deleted (one revision each
 * here; etcd deletes them in one transaction) and watchers of Events see them go. Not while etcd is
 * down: its return extends every lease (extendEventLeases).
 */
export function revokeEventLease(h: ApiHost, id: number): void {
  const l = h.apiServer.eventLeases;
  if (!l || h.apiServer.faults.etcdDown) return;
  const keys = revokeExpired(l, id, h.now);
  if (!keys) return;
  for (const key of keys) {
    const ev = storeDelete(h.store, 'events', key);
    if (ev) notifyWatchers(h, ev);
  }
}

/** etcd is back (a new leader's lessor.Promote): every Event lease runs its whole TTL again from now. */
export function extendEventLeases(h: ApiHost): void {
  const l = h.apiServer.eventLeases;
  if (!l) return;
  for (const { id, revokeAt } of extendAll(l, h.now)) push(h.queue, revokeAt, API_SERVER, { type: 'lease-revoke', id } satisfies ApiServerTimer, true);
}

/** A compaction tick: compact to the revision seen one interval ago (so ≥ 5 min of history stays). */
export function compactTick(h: ApiHost): void {
  if (h.apiServer.faults.apiServerDown) return; // the compactor runs inside the API server
  if (!h.apiServer.faults.etcdDown && h.apiServer.compactCandidate > 0) storeCompact(h.store, h.apiServer.compactCandidate);
  h.apiServer.compactCandidate = h.store.revision;
}

// ---------------------------------------------------------------- identities and RBAC

/** One RBAC policy rule (resources may name a subresource: `pods/binding`). */
export interface PolicyRule { verbs: Verb[] | ['*']; resources: string[] | ['*']; groups?: string[] }

/**
 * An identity known to the authenticator. `nonResourceURLs` marks cluster-admin's power (its rule
 * `nonResourceURLs: ["*"]`), which the identity holds through a group rather than its user name.
 */
export interface Identity { user: string; rules: PolicyRule[]; node?: string; nonResourceURLs?: string[] }

const R = (verbs: Verb[] | ['*'], resources: string[] | ['*']): PolicyRule => ({ verbs, resources });
const READ: Verb[] = ['get', 'list', 'watch'];
const EVENTS = R(['create', 'update', 'patch'], ['events']);

/** Bootstrap-role-like rules per component (system:kube-scheduler, system:controller:*, system:node). */
export const IDENTITIES: Record<string, Identity> = {
  kubectl: { user: 'kubernetes-admin', rules: [R(['*'], ['*'])], nonResourceURLs: ['*'] },
  'kube-apiserver': { user: 'system:apiserver', rules: [R(['*'], ['*'])], nonResourceURLs: ['*'] },
  scheduler: {
    user: 'system:kube-scheduler',
    rules: [R([...READ, 'delete'], ['pods']), R(['create'], ['pods/binding']), R(['patch', 'update'], ['pods/status']),
      R(READ, ['nodes', 'namespaces', 'services', 'replicasets']), R(['get', 'create', 'update'], ['leases']), EVENTS],
  },
  'deployment-controller': {
    user: 'system:serviceaccount:kube-system:deployment-controller',
    rules: [R(['get', 'list', 'watch', 'update'], ['deployments']), R(['update'], ['deployments/status']),
      R(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['replicasets']), R(['get', 'list', 'watch', 'update'], ['pods']), EVENTS],
  },
  'replicaset-controller': {
    user: 'system:serviceaccount:kube-system:replicaset-controller',
    rules: [R(['get', 'list', 'watch', 'update'], ['replicasets']), R(['update'], ['replicasets/status']),
      R(['list', 'watch', 'patch', 'create', 'delete'], ['pods']), EVENTS],
  },
  'endpointslice-controller': {
    user: 'system:serviceaccount:kube-system:endpointslice-controller',
    rules: [R(READ, ['services', 'pods', 'nodes']), R([...READ, 'create', 'update', 'delete'], ['endpointslices']), EVENTS],
  },
  'node-lifecycle-controller': {
    user: 'system:serviceaccount:kube-system:node-controller',
    rules: [R(['get', 'list', 'watch', 'delete', 'patch', 'update'], ['nodes']), R(['patch', 'update'], ['nodes/status']),
      R(['list', 'watch', 'delete'], ['pods']), R(['patch', 'update'], ['pods/status']), R(READ, ['leases']), EVENTS],
  },
  'garbage-collector': {
    user: 'system:serviceaccount:kube-system:generic-garbage-collector',
    rules: [R(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'])],
  },
  'pod-garbage-collector': {
    user: 'system:serviceaccount:kube-system:pod-garbage-collector',
    rules: [R(['list', 'watch', 'delete'], ['pods']), R(['patch'], ['pods/status']), R(['get', 'list', 'watch'], ['nodes'])],
  },
  'taint-eviction-controller': {
    user: 'system:serviceaccount:kube-system:taint-eviction-controller',
    rules: [R([...READ, 'delete'], ['pods']), R(['patch'], ['pods/status']), R(READ, ['nodes']), EVENTS],
  },
};

/** Add or replace an identity (for components beyond the built-in table). */
export function registerIdentity(component: string, identity: Identity): void {
  IDENTITIES[component] = identity;
}

/** Resolve a component name to an identity: table entries, plus `kubelet/<node>` as system:node:<node>. */
export function authenticate(component: string): Identity | undefined {
  if (IDENTITIES[component]) return IDENTITIES[component];
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
const nodeIdentities = new Map<string, Identity>();
// system:node's rules, one array for every kubelet (which node is its own is the node authorizer's
// check, below): RBAC answers are then remembered once for all of them.
const NODE_RULES: PolicyRule[] = [R([...READ, 'create', 'update', 'patch'], ['nodes']), R(['patch', 'update'], ['nodes/status']),
  R(['get', 'create', 'update', 'patch'], ['leases']), R([...READ, 'delete'], ['pods']), R(['create'], ['pods']),
  R(['patch', 'update'], ['pods/status']), R(READ, ['services', 'namespaces', 'endpointslices']), EVENTS];

// ---------------------------------------------------------------- impersonation and access reviews

/** cluster-admin's rules (one array, so the RBAC answer cache is shared). */
const CLUSTER_ADMIN: PolicyRule[] = [R(['*'], ['*'])];
/** system:basic-user, bound to system:authenticated: every user may ask what it may do. */
const BASIC_USER = R(['create'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']);
/**
 * The non-resource URLs system:discovery and system:public-info-viewer let every authenticated user
 * GET (the bootstrap policy's ClusterRoles, policy.go, read in a vendored copy).
 */
const DISCOVERY_URLS = ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'];

const impersonatedIdentities = new Map<string, Identity>();

/**
 * Who the server sees under impersonation: the user and the groups asked for plus
 * system:authenticated, and nothing the real user holds through its own groups. So
 * `--as kubernetes-admin` is not cluster-admin (kubeadm's admin gets that from its group,
 * kubeadm:cluster-admins, or system:masters), `--as system:node:node-1` is a node only with
 * `--as-group system:nodes`, and the components' users keep their user- and service-account-bound roles.
 */
export function impersonatedIdentity(user: string, groups: readonly string[] = []): Identity {
  const key = `${user}\0${groups.join('\0')}`;
  const known = impersonatedIdentities.get(key);
  if (known) return known;
  let id: Identity;
  const node = /^system:node:(.+)$/.exec(user);
  if (groups.includes('system:masters') || groups.includes('kubeadm:cluster-admins')) id = { user, rules: CLUSTER_ADMIN, nonResourceURLs: ['*'] };
  else if (node && groups.includes('system:nodes')) id = { user, node: node[1], rules: [...NODE_RULES, BASIC_USER] };
  else {
    const bound = Object.values(IDENTITIES).find((i) => i.user === user && !i.nonResourceURLs);
    id = { user, rules: [...(bound?.rules ?? []), BASIC_USER] };
  }
  if (impersonatedIdentities.size > 1000) impersonatedIdentities.clear();
  impersonatedIdentities.set(key, id);
  return id;
}

/**
 * The impersonation filter: the caller must be allowed to `impersonate` users (and groups), else
 * 403 (`users "jane" is forbidden: User "…" cannot impersonate resource "users" …`).
 */
function impersonate(caller: Identity, as: { user: string; groups?: string[] }): Identity | Status {
  for (const [resource, name] of [['users', as.user], ...(as.groups ?? []).map((g) => ['groups', g])]) {
    if (!ruleAllows(caller.rules, 'impersonate' as Verb, resource)) {
      return statusError(403, 'Forbidden', `${resource} "${name}" is forbidden: User "${caller.user}" cannot impersonate resource "${resource}" in API group "" at the cluster scope`, { name, group: '', kind: resource });
    }
  }
  return impersonatedIdentity(as.user, as.groups);
}

/** SubjectAccessReview attributes (authorization.k8s.io/v1 ResourceAttributes / NonResourceAttributes). */
export interface AccessAttributes {
  resourceAttributes?: { namespace?: string; verb?: string; group?: string; resource?: string; subresource?: string; name?: string };
  nonResourceAttributes?: { path?: string; verb?: string };
}

/**
 * Whether RBAC allows `id` what the attributes describe (a request of `*` matches only `*` rules).
 * Simplified: the simulator's rules name no API groups, resource names or namespaces, and a node's
 * own-object checks (the node authorizer's graph) are left out of a review.
 */
export function accessAllowed(id: Identity, a: AccessAttributes): boolean {
  const n = a.nonResourceAttributes;
  if (n && !a.resourceAttributes) {
    const path = n.path ?? '';
    const urls = id.nonResourceURLs ?? [];
    const match = (u: string) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1)));
    return urls.some(match) || (n.verb === 'get' && DISCOVERY_URLS.some(match));
  }
  const r = a.resourceAttributes ?? {};
  const res = r.subresource ? `${r.resource ?? ''}/${r.subresource}` : r.resource ?? '';
  return ruleAllows(id.rules, (r.verb ?? '') as Verb, res);
}

/** The REST path of SelfSubjectAccessReviews (a virtual resource: created, answered, never stored). */
export const SSAR_PATH = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

/**
 * POST selfsubjectaccessreviews: the caller's (or the impersonated user's) answer from the same
 * RBAC tables requests are authorised with. It reads nothing from etcd, so it answers while etcd is
 * down; system:basic-user lets every authenticated user create one.
 */
function selfSubjectAccessReview(h: ApiHost, component: string, req: ApiRequest, identity: string): ApiResult<unknown> {
  const refuse = (status: Status, stage: Stage): ApiResult<never> => {
    appendRecord(h.log, { t: h.now, component, kind: 'request', verb: 'POST', path: SSAR_PATH, code: status.code, stage, message: status.message });
    return { ok: false, code: status.code, status };
  };
  const f = h.apiServer.faults;
  if (f.apiServerDown || f.partitioned?.includes(component)) {
    const msg = component === 'kubectl' && f.apiServerDown ? KUBECTL_CONNECTION_REFUSED : `Post "https://127.0.0.1:6443${SSAR_PATH}": dial tcp 127.0.0.1:6443: connect: connection refused`;
    return refuse(statusError(0, 'ConnectionRefused', msg), 'connection');
  }
  if (req.verb !== 'create' || req.name || req.subresource) return refuse(statusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'), 'storage');
  const caller = authenticate(identity);
  if (!caller) return refuse(statusError(401, 'Unauthorized', 'Unauthorized'), 'authentication');
  const id = req.options?.impersonate ? impersonate(caller, req.options.impersonate) : caller;
  if ((id as Status).kind === 'Status') return refuse(id as Status, 'authorization');
  const spec = ((req.body as Obj)?.spec ?? {}) as AccessAttributes;
  const allowed = accessAllowed(id as Identity, spec);
  appendRecord(h.log, { t: h.now, component, kind: 'request', verb: 'POST', path: SSAR_PATH, code: 201 });
  return { ok: true, code: 201, object: { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: {}, spec, status: { allowed } } };
}

function ruleAllows(rules: PolicyRule[], verb: Verb, res: string): boolean {
  return rules.some((r) => ((r.verbs as string[]).includes('*') || (r.verbs as string[]).includes(verb))
    && ((r.resources as string[]).includes('*') || (r.resources as string[]).includes(res)));
}

// Every request is authorised: remember each rule set's answer per verb and resource (rules never
// change once an identity exists; a behaviour-side cache keyed by the rules array).
const ruleAnswers = new WeakMap<PolicyRule[], Map<string, Map<string, boolean>>>();
let lastRules: PolicyRule[] | undefined;
let lastAnswers: Map<string, Map<string, boolean>> | undefined;
function ruleAllowsCached(rules: PolicyRule[], verb: Verb, res: string): boolean {
  let byVerb = rules === lastRules ? lastAnswers : ruleAnswers.get(rules);
  if (!byVerb) ruleAnswers.set(rules, (byVerb = new Map()));
  lastRules = rules;
  lastAnswers = byVerb;
  let m = byVerb.get(verb);
  if (!m) byVerb.set(verb, (m = new Map()));
  let a = m.get(res);
  if (a === undefined) m.set(res, (a = ruleAllows(rules, verb, res)));
  return a;
}

/** 403 Forbidden, worded like the RBAC authorizer. */
export function forbidden(id: Identity, req: ApiRequest, reason?: string): Status {
  const res = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  const group = RESOURCES[req.resource]?.group ?? '';
  const scope = RESOURCES[req.resource]?.namespaced && req.namespace ? `in the namespace "${req.namespace}"` : 'at the cluster scope';
  const who = reason ?? `User "${id.user}" cannot ${req.verb} resource "${res}" in API group "${group}" ${scope}`;
  const subject = req.name ? `${qualifiedResource(req.resource)} "${req.name}"` : qualifiedResource(req.resource);
  return statusError(403, 'Forbidden', `${subject} is forbidden: ${who}`, { name: req.name, group, kind: req.resource });
}

/** RBAC plus the node authorizer's NodeRestriction idea: a kubelet writes only its own node, lease and pods. */
export function authorize(h: ApiHost, id: Identity, req: ApiRequest): Status | undefined {
  const res = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  if (!ruleAllowsCached(id.rules, req.verb, res)) return forbidden(id, req);
  if (id.node && req.verb !== 'get' && req.verb !== 'list' && req.verb !== 'watch') {
    const node = id.node;
    const deny = (why: string) => forbidden(id, req, why);
    if (req.resource === 'nodes' && (req.name ?? (req.body as KObject | undefined)?.metadata?.name) !== node) {
      return deny(`node "${node}" is not allowed to modify node "${req.name ?? ''}"`);
    }
    if (req.resource === 'leases' && (req.namespace !== 'kube-node-lease' || (req.name ?? (req.body as KObject)?.metadata?.name) !== node)) {
      return deny(`node "${node}" is not allowed to modify lease "${req.name ?? ''}"`);
    }
    if (req.resource === 'pods') {
      if (req.verb === 'create') {
        const nn = ((req.body as KObject)?.spec as { nodeName?: string } | undefined)?.nodeName;
        if (nn !== node) return deny(`node "${node}" can only create pods with spec.nodeName set to itself`);
      } else {
        const cur = storeGet(h.store, 'pods', namesOf('pods', req.namespace, req.name ?? '').key);
        if (cur && (cur.spec as { nodeName?: string })?.nodeName !== node) {
          return deny(`node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
        }
      }
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- admission and validation hooks

/** What admission sees. */
export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  object?: KObject;
  oldObject?: KObject;
  user: string;
}

/**
 * A mutating/validating admission plugin: returns the (possibly new) object, or a Status to refuse.
 * It never changes `a.object` in place: parts of it are the stored object's own (copy on write).
 */
export interface AdmissionPlugin {
  name: string;
  admit(a: AdmissionAttributes, h: ApiHost): KObject | Status | undefined;
}

const admissionPlugins: AdmissionPlugin[] = [];

/** Register (or replace by name) an admission plugin; plugins run in registration order. */
export function registerAdmissionPlugin(p: AdmissionPlugin): void {
  const i = admissionPlugins.findIndex((x) => x.name === p.name);
  if (i >= 0) admissionPlugins[i] = p;
  else admissionPlugins.push(p);
}

/** Names of the registered admission plugins, in order. */
export function admissionPluginNames(): string[] {
  return admissionPlugins.map((p) => p.name);
}

/** A validator: field errors for a new object (and the old one on update). */
export type Validator = (obj: KObject, old: KObject | undefined) => FieldError[];
const validators: Record<string, Validator[]> = {};

/** Add a validator for a resource (runs after the built-in ones). */
export function registerValidator(resource: string, v: Validator): void {
  (validators[resource] ??= []).push(v);
}

// NamespaceLifecycle: objects go only into namespaces that exist.
registerAdmissionPlugin({
  name: 'NamespaceLifecycle',
  admit(a, h) {
    if (a.operation !== 'CREATE' || !RESOURCES[a.resource]?.namespaced || a.subresource) return undefined;
    const ns = a.namespace ?? 'default';
    if (!storeGet(h.store, 'namespaces', namesOf('namespaces', undefined, ns).key)) {
      return statusError(404, 'NotFound', `namespaces "${ns}" not found`, { name: ns, kind: 'namespaces' });
    }
    return undefined;
  },
});

// ---------------------------------------------------------------- defaulting

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Kubernetes' imagePullPolicy default: Always for `:latest` or no tag, else IfNotPresent. */
export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const i = last.lastIndexOf(':');
  if (i < 0) return 'Always';
  return last.slice(i + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(p: Obj | undefined): Obj | undefined {
  if (!p) return p;
  return { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3, ...p };
}

/** SetDefaults_PodSpec (the fields the simulator reads). */
export function defaultPodSpec(spec: Obj | undefined): Obj {
  const s: Obj = { restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', securityContext: {}, ...spec };
  const c = (x: Obj): Obj => {
    const out: Obj = { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', ...x };
    if (!out.imagePullPolicy && typeof out.image === 'string') out.imagePullPolicy = defaultImagePullPolicy(out.image);
    for (const k of ['livenessProbe', 'readinessProbe', 'startupProbe']) if (out[k]) out[k] = defaultProbe(out[k]);
    if (Array.isArray(out.ports)) out.ports = out.ports.map((p: Obj) => ({ protocol: 'TCP', ...p }));
    return out;
  };
  if (Array.isArray(s.containers)) s.containers = s.containers.map(c);
  if (Array.isArray(s.initContainers)) s.initContainers = s.initContainers.map(c);
  return s;
}

function defaultTemplate(t: Obj | undefined): Obj | undefined {
  return t ? { ...t, spec: defaultPodSpec(t.spec) } : t;
}

/** The scheme defaults of each resource (run before admission plugins, as decoding does). */
export function applyDefaults(resource: string, obj: Obj, h: ApiHost): Obj {
  switch (resource) {
    case 'pods': {
      const spec = defaultPodSpec(obj.spec);
      return { ...obj, spec, status: obj.status ?? { phase: 'Pending', qosClass: getPodQOS(spec) } };
    }
    case 'deployments': {
      const spec: Obj = { replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, ...obj.spec };
      const strategy: Obj = { type: 'RollingUpdate', ...spec.strategy };
      if (strategy.type === 'RollingUpdate') strategy.rollingUpdate = { maxUnavailable: '25%', maxSurge: '25%', ...strategy.rollingUpdate };
      spec.strategy = strategy;
      spec.template = defaultTemplate(spec.template);
      return { ...obj, spec, status: obj.status ?? {} };
    }
    case 'replicasets':
      return { ...obj, spec: { replicas: 1, ...obj.spec, template: defaultTemplate(obj.spec?.template) }, status: obj.status ?? { replicas: 0 } };
    case 'services': {
      const spec: Obj = { type: 'ClusterIP', sessionAffinity: 'None', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster', ...obj.spec };
      if (Array.isArray(spec.ports)) spec.ports = spec.ports.map((p: Obj) => ({ protocol: 'TCP', targetPort: p.port, ...p }));
      if (!spec.clusterIP && spec.clusterIP !== 'None') {
        spec.clusterIP = allocateClusterIP(h);
        spec.clusterIPs = [spec.clusterIP];
      } else if (spec.clusterIP !== 'None') h.apiServer.allocatedIPs[spec.clusterIP] = 'x'; // an address asked for is taken too
      if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && Array.isArray(spec.ports)) {
        const taken = (h.apiServer.allocatedNodePorts ??= {});
        spec.ports = spec.ports.map((p: Obj) => {
          if (p.nodePort) { taken[p.nodePort] = 'x'; return p; }
          return { ...p, nodePort: allocateNodePort(h) };
        });
      }
      return { ...obj, spec, status: obj.status ?? { loadBalancer: {} } };
    }
    case 'namespaces': {
      // The API server labels every namespace with its own name (kubernetes.io/metadata.name, 1.21+).
      const name = obj.metadata?.name;
      const meta = name ? { ...obj.metadata, labels: { ...obj.metadata?.labels, 'kubernetes.io/metadata.name': name } } : obj.metadata;
      return { ...obj, metadata: meta, spec: { finalizers: ['kubernetes'], ...obj.spec }, status: { phase: 'Active' } };
    }
    default:
      return obj;
  }
}

/** qos.GetPodQOS: Guaranteed when every container's requests equal its cpu+memory limits, BestEffort with none, else Burstable. */
export function getPodQOS(spec: Obj | undefined): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const cs: Obj[] = [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = cs.length > 0;
  for (const c of cs) {
    const req = { ...c.resources?.limits, ...c.resources?.requests } as Record<string, unknown>; // requests default to limits
    const lim = (c.resources?.limits ?? {}) as Record<string, unknown>;
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) if (lim[r] === undefined || String(req[r]) !== String(lim[r])) guaranteed = false;
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** A free ClusterIP from 10.96.0.0/12, chosen by the rng as the allocator picks at random. */
export function allocateClusterIP(h: ApiHost): string {
  for (;;) {
    const off = 1 + int(h.rng, (1 << 20) - 2);
    const ip = `${10}.${96 + (off >> 16)}.${(off >> 8) & 255}.${off & 255}`;
    if (!h.apiServer.allocatedIPs[ip]) { h.apiServer.allocatedIPs[ip] = 'x'; return ip; }
  }
}

/** --service-node-port-range's default, 30000-32767. */
export const NODE_PORT_RANGE = { base: 30000, size: 2768 };

/**
 * A free NodePort. The allocator keeps the low band for ports asked for by number
 * (ServiceNodePortStaticSubrange: offset min(max(16, size/32), 128) = 86) and picks the others at
 * random from above it, here with the rng (a collision draws again where Go scans on to the next free port).
 */
export function allocateNodePort(h: ApiHost): number {
  const taken = (h.apiServer.allocatedNodePorts ??= {});
  const offset = Math.min(Math.max(16, Math.floor(NODE_PORT_RANGE.size / 32)), 128);
  for (;;) {
    const port = NODE_PORT_RANGE.base + offset + int(h.rng, NODE_PORT_RANGE.size - offset);
    if (!taken[port]) { taken[port] = 'x'; return port; }
  }
}

// ---------------------------------------------------------------- built-in validation

/**
 * IsDNS1123Subdomain's pattern, `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`,
 * checked character by character: every create's name goes through it, and the regular expression
 * costs several times as much.
 */
export function isDNS1123Subdomain(s: string): boolean {
  if (s.length === 0) return false;
  let prev = 46; // the start is like a '.': a label follows
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) prev = c;
    else if (c === 45 && prev !== 46) prev = c; // '-' inside a label, not at its start
    else if (c === 46 && prev !== 46 && prev !== 45) prev = c; // '.' after a label that ends alphanumeric
    else return false;
  }
  return prev !== 46 && prev !== 45;
}
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** ValidateObjectMeta's name check per resource kind of name. */
export function validateName(resource: string, name: string): FieldError[] {
  if (resource === 'namespaces') {
    if (name.length > 63) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: 'must be no more than 63 characters' }];
    if (!DNS1123_LABEL.test(name)) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')" }];
    return [];
  }
  if (resource === 'services') {
    if (!DNS1035_LABEL.test(name) || name.length > 63) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')" }];
    return [];
  }
  if (name.length > 253) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: 'must be no more than 253 characters' }];
  if (!isDNS1123Subdomain(name)) return [{ type: 'Invalid', field: 'metadata.name', value: name, detail: "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')" }];
  return [];
}

/** ValidatePodUpdate's message when a pod's spec changes beyond the mutable fields. */
export const POD_UPDATE_FORBIDDEN = 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** Whether a pod spec update only touches what Kubernetes allows (images, activeDeadlineSeconds, added tolerations). */
export function podSpecUpdateAllowed(oldSpec: Obj | undefined, newSpec: Obj | undefined): boolean {
  if (deepEqual(oldSpec, newSpec)) return true;
  if (!oldSpec || !newSpec) return false;
  const strip = (spec: Obj): Obj => {
    const c = { ...spec };
    delete c.activeDeadlineSeconds;
    delete c.tolerations;
    for (const k of ['containers', 'initContainers']) if (Array.isArray(c[k])) c[k] = c[k].map((x: Obj) => ({ ...x, image: undefined }));
    return c;
  };
  if (!deepEqual(strip(oldSpec), strip(newSpec))) return false;
  const oldTol: Obj[] = oldSpec.tolerations ?? [];
  const newTol: Obj[] = newSpec.tolerations ?? [];
  return oldTol.every((t) => newTol.some((n) => deepEqual(t, n)));
}

function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return parseInt(v.replace('%', ''), 10) || 0;
  return 0;
}

function validatePodSpec(spec: Obj | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec || !Array.isArray(spec.containers) || spec.containers.length === 0) {
    errs.push({ type: 'Required', field: `${path}.containers` });
    return errs;
  }
  const seen = new Set<string>();
  spec.containers.forEach((c: Obj, i: number) => {
    if (!c.name) errs.push({ type: 'Required', field: `${path}.containers[${i}].name` });
    else if (seen.has(c.name)) errs.push({ type: 'Duplicate', field: `${path}.containers[${i}].name`, value: c.name });
    seen.add(c.name);
    if (!c.image) errs.push({ type: 'Required', field: `${path}.containers[${i}].image` });
  });
  return errs;
}

function validateReplicas(v: unknown, field: string): FieldError[] {
  return typeof v === 'number' && v < 0 ? [{ type: 'Invalid', field, value: v, detail: 'must be greater than or equal to 0' }] : [];
}

function validateSelectorMatchesTemplate(spec: Obj, errs: FieldError[]): void {
  if (!spec.selector || (!spec.selector.matchLabels && !spec.selector.matchExpressions)) {
    errs.push({ type: 'Required', field: 'spec.selector' });
    return;
  }
  const labels = spec.template?.metadata?.labels ?? {};
  if (!matchesLabels(parseLabelSelector(labelSelectorAsString(spec.selector)), labels)) {
    errs.push({ type: 'Invalid', field: 'spec.template.metadata.labels', value: labels, detail: '`selector` does not match template `labels`' });
  }
}

/** The built-in validation of each resource (ValidateDeployment, ValidatePod … in miniature). */
export function validateBuiltin(resource: string, obj: Obj, old: Obj | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (!old) errs.push(...validateName(resource, obj.metadata?.name ?? ''));
  switch (resource) {
    case 'pods':
      // A status write carries the stored spec itself, validated when it was stored.
      if (old && obj.spec === old.spec) break;
      errs.push(...validatePodSpec(obj.spec, 'spec'));
      if (old && !podSpecUpdateAllowed(old.spec, obj.spec)) {
        errs.push({ type: 'Forbidden', field: 'spec', detail: POD_UPDATE_FORBIDDEN });
      }
      break;
    case 'deployments': {
      const spec = obj.spec ?? {};
      errs.push(...validateReplicas(spec.replicas, 'spec.replicas'));
      validateSelectorMatchesTemplate(spec, errs);
      const ru = spec.strategy?.rollingUpdate;
      if (spec.strategy?.type === 'RollingUpdate' && ru && intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push({ type: 'Invalid', field: 'spec.strategy.rollingUpdate.maxUnavailable', value: ru.maxUnavailable, detail: 'may not be 0 when `maxSurge` is 0' });
      }
      errs.push(...validatePodSpec(spec.template?.spec, 'spec.template.spec'));
      if (old && !deepEqual(old.spec?.selector, spec.selector)) {
        errs.push({ type: 'Invalid', field: 'spec.selector', value: goLabelSelector(spec.selector), detail: 'field is immutable' });
      }
      break;
    }
    case 'replicasets': {
      const spec = obj.spec ?? {};
      errs.push(...validateReplicas(spec.replicas, 'spec.replicas'));
      validateSelectorMatchesTemplate(spec, errs);
      break;
    }
  }
  return errs;
}

// ---------------------------------------------------------------- the pipeline

function logRequest(h: ApiHost, component: string, req: ApiRequest, code: number, extra: { revision?: number; stage?: Stage; message?: string; node?: string; name?: string } = {}): void {
  const method = req.verb === 'get' || req.verb === 'list' ? 'GET' : req.verb === 'watch' ? 'WATCH'
    : req.verb === 'create' ? 'POST' : req.verb === 'update' ? 'PUT' : req.verb === 'patch' ? 'PATCH' : 'DELETE';
  const name = extra.name ?? req.name;
  const pathName = req.verb === 'create' && !req.subresource ? undefined : name;
  const known = RESOURCES[req.resource] !== undefined;
  const bare = known ? cachedPath(req.resource, req.namespace, pathName, req.subresource) : flatten(resourcePath(req.resource, req.namespace, pathName, req.subresource));
  const query = requestQuery(req);
  const path = query ? flatten(`${bare}?${query}`) : bare;
  // A create names a new object: building its name beats caching strings most creates never reuse.
  const object = !name ? undefined : known && (req.verb !== 'create' || req.subresource) ? namesOf(req.resource, req.namespace, name).object : flatten(`${req.resource}/${req.namespace ? req.namespace + '/' : ''}${name}`);
  // The common shapes as whole literals (a field added afterwards would live outside the object);
  // the key order is the same either way: t component kind verb path code object revision stage message node.
  let rec: RequestRecord;
  const { revision, stage, message, node } = extra;
  if (!stage && !message && object !== undefined && revision !== undefined) {
    rec = node ? { t: h.now, component, kind: 'request', verb: method, path, code, object, revision, node } : { t: h.now, component, kind: 'request', verb: method, path, code, object, revision };
  } else if (!stage && !message && !node && revision === undefined) {
    rec = object !== undefined ? { t: h.now, component, kind: 'request', verb: method, path, code, object } : { t: h.now, component, kind: 'request', verb: method, path, code };
  } else {
    rec = { t: h.now, component, kind: 'request', verb: method, path, code };
    if (object !== undefined) rec.object = object;
    if (revision !== undefined) rec.revision = revision;
    if (stage) rec.stage = stage;
    if (message) rec.message = message;
    if (node) rec.node = node;
  }
  if (known) appendBuiltRecord(h.log, rec); // clean, and its strings come from the names cache
  else appendRecord(h.log, rec);
}

function fail(h: ApiHost, component: string, req: ApiRequest, status: Status, stage: Stage): ApiResult<never> {
  logRequest(h, component, req, status.code, { stage, message: status.message });
  return { ok: false, code: status.code, status };
}

/** patchMergeKey of the list fields the simulator patches (by field name; `ports` picks its key from the items). */
export const PATCH_MERGE_KEYS: Record<string, string> = {
  conditions: 'type', containerStatuses: 'name', initContainerStatuses: 'name', ephemeralContainerStatuses: 'name',
  containers: 'name', initContainers: 'name', env: 'name', volumes: 'name', volumeMounts: 'mountPath',
  addresses: 'type', ownerReferences: 'uid', imagePullSecrets: 'name', images: 'names',
};

/** Strategic merge patch (the common cases): maps merge, lists with a merge key merge by key, `null` deletes. */
export function strategicMergePatch(target: unknown, patch: unknown, field = ''): unknown {
  if (Array.isArray(patch)) {
    let key = PATCH_MERGE_KEYS[field];
    if (field === 'ports') key = patch.some((p) => p && typeof p === 'object' && 'containerPort' in p) ? 'containerPort' : 'port';
    if (!key || key === 'names' || !Array.isArray(target)) return patch;
    const out = [...target] as Obj[];
    for (const item of patch as Obj[]) {
      if (!item || typeof item !== 'object') continue;
      const i = out.findIndex((x) => x && x[key] === item[key]);
      if (item.$patch === 'delete') { if (i >= 0) out.splice(i, 1); continue; }
      if (i >= 0) out[i] = strategicMergePatch(out[i], item) as Obj;
      else out.push(item);
    }
    return out;
  }
  if (patch === null || typeof patch !== 'object') return patch;
  const out: Obj = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Obj) } : {};
  const p = patch as Obj;
  for (const k in p) { // plain JSON: own keys, in the same order as Object.entries
    const v = p[k];
    if (v === null) delete out[k];
    else out[k] = strategicMergePatch(out[k], v, k);
  }
  return out;
}

/**
 * Whether `mergePatch(target, patch)` is deepEqual to `target`, found by walking the patch alone
 * (what it does not name is target's own): a status patch is small, the status it lands on is not.
 */
export function mergePatchIsNoop(target: unknown, patch: unknown): boolean {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return deepEqual(patch, target);
  // An object patch on anything but an object makes a new object.
  if (!target || typeof target !== 'object' || Array.isArray(target)) return false;
  const t = target as Obj;
  const p = patch as Obj;
  for (const k in p) {
    if (k === '__proto__') return deepEqual(mergePatch(target, patch), target); // sets a prototype: not plain data
    const v = p[k];
    const own = Object.hasOwn(t, k);
    // A deleted key is a change only when target has it; a key target lacks is added unless undefined.
    if (v === null) { if (own && t[k] !== undefined) return false; }
    else if (own ? !mergePatchIsNoop(t[k], v) : v !== undefined) return false;
  }
  return !hasNaNValue(t);
}

/** Whether one of `o`'s own values is NaN (deepEqual finds a copy of such an object unequal to it). */
function hasNaNValue(o: Obj): boolean {
  for (const k in o) { const v = o[k]; if (v !== v) return true; }
  return false;
}

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Obj = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Obj) } : {};
  const p = patch as Obj;
  for (const k in p) { // plain JSON: own keys, in the same order as Object.entries
    const v = p[k];
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

const STATUS_RESOURCES = new Set(['pods', 'deployments', 'replicasets', 'nodes', 'services', 'namespaces']);
const GENERATION_RESOURCES = new Set(['deployments', 'replicasets']);

// ---------------------------------------------------------------- dry run

/** The scratch hosts dry-run requests are served on (a request there runs the pipeline as it is). */
const dryRunHosts = new WeakSet<ApiHost>();

/**
 * dryRun=All: the whole pipeline (authorization, defaulting, admission, validation, allocation)
 * served on a scratch copy of what a write touches, so nothing is stored, no revision is made, no
 * watcher hears of it, no address is taken and the world's generator draws nothing. The log shows
 * the request with `?dryRun=All`; the object comes back as the storage layer's dry run gives it
 * (a created one without a resourceVersion, a changed one with the one it has).
 */
function dryRunRequest(h: ApiHost, component: string, req: ApiRequest, identity: string): ApiResult<unknown> {
  const s = h.store;
  const objects: StoreState['objects'] = {};
  for (const r of Object.keys(s.objects)) objects[r] = { ...s.objects[r] };
  const scratch: ApiHost = {
    now: h.now, components: h.components, rng: [...h.rng] as RngState, log: [],
    queue: { heap: [], nextSeq: h.queue.nextSeq, pending: 0 },
    store: { ...s, objects, createRevision: Object.assign(Object.create(null), s.createRevision), history: [...s.history] },
    apiServer: {
      ...h.apiServer, watchers: {}, watchIndex: {}, allocatedIPs: { ...h.apiServer.allocatedIPs },
      allocatedNodePorts: h.apiServer.allocatedNodePorts && { ...h.apiServer.allocatedNodePorts },
      eventLeases: h.apiServer.eventLeases && structuredClone(h.apiServer.eventLeases),
    },
  };
  dryRunHosts.add(scratch);
  const res = handleRequest(scratch, component, req, identity);
  // (Their paths carry ?dryRun=All: the request's options say so.)
  for (const rec of scratch.log) {
    const { revision: _revision, ...kept } = rec;
    appendRecord(h.log, kept);
  }
  if (!res.ok) return res;
  const obj = res.object as Obj;
  if (!obj?.metadata) return { ok: true, code: res.code, object: obj };
  const live = req.name ? storeGet(s, req.resource, keyOf({ ...req, namespace: RESOURCES[req.resource]?.namespaced ? (req.namespace ?? (req.body as Obj)?.metadata?.namespace ?? 'default') : undefined })) as Obj | undefined : undefined;
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  return { ok: true, code: res.code, object: { ...obj, metadata: live ? { ...meta, resourceVersion: live.metadata.resourceVersion } : meta } };
}

/** Serve one request for `component`: the whole pipeline, logged. */
export function handleRequest(h: ApiHost, component: string, req: ApiRequest, identity = component): ApiResult<unknown> {
  if (req.verb === 'watch') return openWatch(h, component, req.resource, { ...req.options, namespace: req.namespace }, identity);
  if (req.resource === 'selfsubjectaccessreviews') return selfSubjectAccessReview(h, component, req, identity);
  if (req.options?.dryRun && req.verb !== 'get' && req.verb !== 'list' && !dryRunHosts.has(h)) return dryRunRequest(h, component, req, identity);
  const f = h.apiServer.faults;
  if (f.apiServerDown) {
    const msg = component === 'kubectl' ? KUBECTL_CONNECTION_REFUSED
      : `Get "https://127.0.0.1:6443${resourcePath(req.resource, req.namespace, req.name, req.subresource)}": dial tcp 127.0.0.1:6443: connect: connection refused`;
    return fail(h, component, req, statusError(0, 'ConnectionRefused', msg), 'connection');
  }
  if (f.partitioned?.includes(component)) {
    const msg = `Get "https://127.0.0.1:6443${resourcePath(req.resource, req.namespace, req.name, req.subresource)}": dial tcp 127.0.0.1:6443: connect: connection refused`;
    return fail(h, component, req, statusError(0, 'ConnectionRefused', msg), 'connection');
  }
  const info = RESOURCES[req.resource];
  if (!info || (req.subresource && !info.subresources.includes(req.subresource))) {
    return fail(h, component, req, statusError(404, 'NotFound', 'the server could not find the requested resource'), 'storage');
  }
  if (!info.namespaced && req.namespace) req = { ...req, namespace: undefined };
  if (info.namespaced && !req.namespace && req.verb !== 'list') {
    req = { ...req, namespace: (req.body as KObject | undefined)?.metadata?.namespace ?? 'default' };
  }
  let id = authenticate(identity);
  if (!id) return fail(h, component, req, statusError(401, 'Unauthorized', 'Unauthorized'), 'authentication');
  if (req.options?.impersonate) {
    const as = impersonate(id, req.options.impersonate);
    if ((as as Status).kind === 'Status') return fail(h, component, req, as as Status, 'authorization');
    id = as as Identity;
  }
  const denied = authorize(h, id, req);
  if (denied) return fail(h, component, req, denied, 'authorization');
  if (f.etcdDown) return fail(h, component, req, statusError(500, '', 'etcdserver: request timed out'), 'storage');
  // A full etcd (NOSPACE alarm) still serves reads and deletes.
  if (f.etcdFull && req.verb !== 'get' && req.verb !== 'list' && req.verb !== 'delete') {
    return fail(h, component, req, statusError(500, '', 'etcdserver: mvcc: database space exceeded'), 'storage');
  }
  switch (req.verb) {
    case 'get': return doGet(h, component, req);
    case 'list': return doList(h, component, req);
    case 'create':
      if (req.subresource === 'binding') return doBinding(h, component, id, req);
      if (req.subresource === 'eviction') return doDelete(h, component, { ...req, verb: 'delete', options: { ...req.options, ...(req.body as Obj)?.deleteOptions } }, true);
      return doCreate(h, component, id, req);
    case 'update':
    case 'patch': return doUpdate(h, component, id, req);
    case 'delete': return doDelete(h, component, req, false);
    default: return fail(h, component, req, statusError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`), 'storage');
  }
}

function keyOf(req: ApiRequest): string {
  return namesOf(req.resource, req.namespace, req.name ?? '').key;
}

function toScale(resource: string, o: Obj): Obj {
  return {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: { name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion, creationTimestamp: o.metadata.creationTimestamp },
    spec: { replicas: o.spec?.replicas ?? 0 },
    status: { replicas: o.status?.replicas ?? 0, selector: labelSelectorAsString(o.spec?.selector) },
  };
  void resource;
}

/** The API server's connection to the kubelet of a node (the one it opens for logs, exec, port-forward). */
export interface KubeletConnection {
  /** The kubelet's address (the node's InternalIP). */
  ip: string;
  /** Whether a connection to it gets through (a powered-off or cut-off node does not answer). */
  reachable: boolean;
  /** GET /containerLogs/…: the container's output, or the kubelet's refusal (validateContainerLogStatus). */
  containerLogs(namespace: string, pod: string, container: string, previous: boolean): { ok: true; text: string } | { ok: false; message: string };
}

let kubeletConnector: ((h: ApiHost, node: string) => KubeletConnection | undefined) | undefined;

/** How the API server reaches a node's kubelet (registered by the kubelet module, like an admission plugin). */
export function registerKubeletConnector(fn: (h: ApiHost, node: string) => KubeletConnection | undefined): void {
  kubeletConnector = fn;
}

/** GET pods/NAME/log: the container is chosen and checked here, the output comes from the node's kubelet. */
function doPodLog(h: ApiHost, component: string, req: ApiRequest): ApiResult<unknown> {
  const pod = storeGet(h.store, 'pods', keyOf(req)) as Obj | undefined;
  if (!pod) return fail(h, component, req, notFound('pods', req.name ?? ''), 'storage');
  const name = req.name ?? '';
  const names = [...((pod.spec?.initContainers ?? []) as Obj[]), ...((pod.spec?.containers ?? []) as Obj[])].map((c) => c.name as string);
  let container = req.options?.container;
  if (!container) {
    const main = (pod.spec?.containers ?? []) as Obj[];
    if (main.length !== 1) return fail(h, component, req, statusError(400, 'BadRequest', `a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`), 'storage');
    container = main[0].name as string;
  } else if (!names.includes(container)) {
    return fail(h, component, req, statusError(400, 'BadRequest', `container ${container} is not valid for pod ${name}`), 'storage');
  }
  const node = pod.spec?.nodeName as string | undefined;
  if (!node) return fail(h, component, req, statusError(400, 'BadRequest', `pod ${name} does not have a host assigned`), 'storage');
  const conn = kubeletConnector?.(h, node);
  if (!conn || !conn.reachable) {
    const url = `https://${conn?.ip ?? node}:10250/containerLogs/${req.namespace}/${name}/${container}`;
    return fail(h, component, req, statusError(500, '', `Get "${url}": dial tcp ${conn?.ip ?? node}:10250: connect: no route to host`), 'storage');
  }
  const r = conn.containerLogs(req.namespace ?? 'default', name, container, !!req.options?.previous);
  if (!r.ok) return fail(h, component, req, statusError(400, 'BadRequest', r.message), 'storage');
  logRequest(h, component, req, 200, { node });
  return { ok: true, code: 200, object: r.text };
}

function doGet(h: ApiHost, component: string, req: ApiRequest): ApiResult<unknown> {
  if (req.resource === 'pods' && req.subresource === 'log') return doPodLog(h, component, req);
  const o = storeGet(h.store, req.resource, keyOf(req));
  if (!o) return fail(h, component, req, notFound(req.resource, req.name ?? ''), 'storage');
  logRequest(h, component, req, 200);
  return { ok: true, code: 200, object: req.subresource === 'scale' ? toScale(req.resource, o as Obj) : o };
}

// client-go's shared informer factory lists each resource once for all the informers of a process:
// a sibling's LIST of the same selectors at the same revision is that one list (no second request).
// Behaviour-side and exact: with no write in between, a fresh list would be the same objects.
const processLists = new WeakMap<StoreState, Map<string, { revision: number; result: ApiResult<unknown> }>>();

function doList(h: ApiHost, component: string, req: ApiRequest): ApiResult<unknown> {
  const process = h.components[component]?.process;
  if (!process) return doListUncached(h, component, req);
  let lists = processLists.get(h.store);
  if (!lists) processLists.set(h.store, (lists = new Map()));
  const key = `${process}|${req.resource}|${req.namespace ?? ''}|${req.options?.labelSelector ?? ''}|${req.options?.fieldSelector ?? ''}`;
  const hit = lists.get(key);
  if (hit && hit.revision === h.store.revision) return hit.result;
  const result = doListUncached(h, component, req);
  lists.set(key, { revision: h.store.revision, result });
  return result;
}

function doListUncached(h: ApiHost, component: string, req: ApiRequest): ApiResult<unknown> {
  const labels = parseLabelSelector(req.options?.labelSelector);
  const fields = parseFieldSelector(req.options?.fieldSelector);
  const items = storeList(h.store, req.resource, req.namespace).filter((o) => matchesLabels(labels, o.metadata?.labels as Record<string, string>) && matchesFields(fields, o));
  logRequest(h, component, req, 200);
  const list: ObjectList = { apiVersion: apiVersionOf(req.resource), kind: RESOURCES[req.resource].kind + 'List', metadata: { resourceVersion: String(h.store.revision) }, items };
  return { ok: true, code: 200, object: list };
}

/** Run defaulting, admission plugins and validation; returns the object to store or a refusal. */
function admitAndValidate(h: ApiHost, id: Identity, req: ApiRequest, obj: Obj, old: Obj | undefined, defaults: boolean): { obj: Obj } | { status: Status; stage: Stage } {
  if (defaults) obj = applyDefaults(req.resource, obj, h);
  // One attributes record for the chain (each plugin sees the object as the previous one left it).
  const attrs: AdmissionAttributes = { operation: old ? 'UPDATE' : 'CREATE', resource: req.resource, subresource: req.subresource, namespace: req.namespace, name: obj.metadata?.name, object: obj, oldObject: old, user: id.user };
  for (const p of admissionPlugins) {
    if (h.apiServer.disabledAdmission.includes(p.name)) continue;
    const r = p.admit(attrs, h);
    if (r && (r as Status).kind === 'Status') return { status: r as Status, stage: 'admission' };
    if (r) attrs.object = obj = r as Obj;
  }
  const errs = validateBuiltin(req.resource, obj, old);
  for (const v of validators[req.resource] ?? []) errs.push(...v(obj, old));
  if (errs.length) return { status: invalid(req.resource, obj.metadata?.name ?? '', errs), stage: 'validation' };
  return { obj };
}

function doCreate(h: ApiHost, component: string, id: Identity, req: ApiRequest): ApiResult<unknown> {
  const body = (req.body ?? {}) as Obj;
  const info = RESOURCES[req.resource];
  const meta: Obj = { ...body.metadata };
  if (info.namespaced) meta.namespace = req.namespace;
  // The key a generated name was found free under (nothing is written before the put).
  let freeKey: string | undefined;
  if (!meta.name && meta.generateName) {
    // GenerateName retries on a clash, as the registry does since 1.28.
    for (let i = 0; i < 8; i++) {
      meta.name = generateName(h.rng, meta.generateName);
      const k = storeKey(req.resource, meta.namespace, meta.name);
      if (!storeGet(h.store, req.resource, k)) { freeKey = k; break; }
    }
  }
  if (!meta.name) {
    return fail(h, component, req, invalid(req.resource, '', [{ type: 'Required', field: 'metadata.name', detail: 'name or generateName is required' }]), 'validation');
  }
  let obj: Obj = startsWithTypeMeta(body) ? { ...body } : { apiVersion: apiVersionOf(req.resource), kind: info.kind, ...body };
  obj.metadata = meta;
  // PrepareForCreate: the status of a new object is the server's, not the client's (nodes excepted).
  if (STATUS_RESOURCES.has(req.resource) && req.resource !== 'nodes') delete obj.status;
  const r = admitAndValidate(h, id, req, obj, undefined, true); // (the name it reports is the object's)
  if ('status' in r) { logRequest(h, component, req, r.status.code, { stage: r.stage, message: r.status.message, name: meta.name }); return { ok: false, code: r.status.code, status: r.status }; }
  obj = r.obj;
  // Not through the names cache: most created objects (Events) are never addressed again.
  const key = freeKey ?? storeKey(req.resource, meta.namespace, meta.name);
  if (freeKey === undefined && storeGet(h.store, req.resource, key)) {
    const st = alreadyExists(req.resource, meta.name);
    logRequest(h, component, req, 409, { stage: 'storage', message: st.message, name: meta.name });
    return { ok: false, code: 409, status: st };
  }
  // Rest-destructure rather than `delete`: a deleted property drops every stored metadata object
  // into V8's slow dictionary mode, and the scheduler reads metadata millions of times in a burst.
  // (Without a client-sent resourceVersion there is nothing to leave out.)
  const sentMeta = obj.metadata as Obj;
  const createdMeta = 'resourceVersion' in sentMeta ? withoutResourceVersion(sentMeta) : sentMeta;
  let ev: StoreEvent;
  if (req.options?.dryRun || GENERATION_RESOURCES.has(req.resource)) {
    obj.metadata = { ...createdMeta, uid: newUID(h.rng), creationTimestamp: rfc3339(h.now) };
    if (GENERATION_RESOURCES.has(req.resource)) obj.metadata.generation = 1;
    if (req.options?.dryRun) { logRequest(h, component, req, 201, { name: meta.name }); return { ok: true, code: 201, object: obj }; }
    ev = storePut(h.store, req.resource, key, obj as KObject);
  } else {
    // The stored metadata in one copy, stamped as storePut would (resourceVersion last): `obj` is
    // this request's own object, stored as it is.
    obj.metadata = { ...createdMeta, uid: newUID(h.rng), creationTimestamp: rfc3339(h.now), resourceVersion: String(h.store.revision + 1) };
    ev = storePutStamped(h.store, req.resource, key, obj as KObject);
  }
  if (req.resource === 'events') leaseEventKey(h, key);
  logRequest(h, component, req, 201, { revision: ev.revision, name: meta.name, node: (obj.spec as Obj)?.nodeName });
  notifyWatchers(h, ev);
  return { ok: true, code: 201, object: ev.object, revision: ev.revision };
}

/**
 * Whether a body's first own keys are apiVersion then kind (as every client writes them): then
 * `{ apiVersion, kind, ...body }` has body's keys in body's order and body's values, and a plain
 * copy (V8 clones the shape at once) is the same object.
 */
function startsWithTypeMeta(body: Obj): boolean {
  let i = 0;
  for (const k in body) {
    if (k !== (i === 0 ? 'apiVersion' : 'kind')) return false;
    if (++i === 2) return Object.hasOwn(body, 'apiVersion') && Object.hasOwn(body, 'kind');
  }
  return false;
}

function withoutResourceVersion(meta: Obj): Obj {
  const { resourceVersion: _rv, ...rest } = meta;
  return rest;
}

function doUpdate(h: ApiHost, component: string, id: Identity, req: ApiRequest): ApiResult<unknown> {
  const key = keyOf(req);
  const cur = storeGet(h.store, req.resource, key) as Obj | undefined;
  if (!cur) return fail(h, component, req, notFound(req.resource, req.name ?? ''), 'storage');
  const sub = req.subresource;
  const body = req.body as Obj;
  let next: Obj;
  // Whether the status shortcut's merge patch leaves the object as it is (undefined: not known).
  let noop: boolean | undefined;
  if (statusPatchShortcut && sub === 'status' && req.verb === 'patch' && req.options?.patchType !== 'json' && !GENERATION_RESOURCES.has(req.resource) && body !== null && typeof body === 'object' && !Array.isArray(body) && keepsIdentity(cur.metadata)) {
    // A status patch (the kubelet sends three per pod) keeps only the status of the merged object,
    // and the identity fields the general path re-sets below are cur's own: patch the status alone
    // and keep cur's metadata object (the store copies it to stamp the revision).
    if (body.metadata?.resourceVersion && body.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      return fail(h, component, req, conflict(req.resource, req.name ?? ''), 'storage');
    }
    const merge = req.options?.patchType === 'merge';
    next = { ...cur, status: patchedStatus(cur.status, body, merge) };
    // Everything but the status is cur's own, so only the patched paths can differ.
    if (merge && !hasNaNValue(cur)) noop = !('status' in body) ? true : body.status === null ? cur.status === undefined : mergePatchIsNoop(cur.status, body.status);
  } else {
    let patched: Obj | undefined;
    if (req.verb === 'patch' && req.options?.patchType === 'json') {
      // The registry's update applies the patch to the object it read (inside GuaranteedUpdate), so
      // a refused JSON patch is logged at the storage stage.
      const r = jsonPatched(sub === 'scale' ? toScale(req.resource, cur) : cur, req.body);
      if ('status' in r) return fail(h, component, req, r.status, 'storage');
      patched = r.object;
    }
    const updated = updatedObject(req, cur, patched);
    if (updated === undefined) return fail(h, component, req, conflict(req.resource, req.name ?? ''), 'storage');
    next = updated;
  }
  const built = next;
  const r = admitAndValidate(h, id, req, next, cur, sub !== 'status');
  if ('status' in r) return fail(h, component, req, r.status, r.stage);
  next = r.obj;
  if (next === built && noop !== undefined ? noop : deepEqual(next, cur)) {
    // A no-op write does not touch etcd (GuaranteedUpdate short-circuits), so no new revision.
    logRequest(h, component, req, 200);
    return { ok: true, code: 200, object: sub === 'scale' ? toScale(req.resource, cur) : cur };
  }
  // The last finalizer of an object marked for deletion was removed: the write deletes it (a pod only
  // once its grace period is over, deletionGracePeriodSeconds 0).
  const ev = shouldDeleteDuringUpdate(req.resource, next) ? storeDelete(h.store, req.resource, key, next as KObject)!
    : next === built ? putOwn(h, req.resource, key, next) : storePut(h.store, req.resource, key, next as KObject);
  if (req.resource === 'events' && ev.type !== 'DELETED') leaseEventKey(h, key);
  logRequest(h, component, req, 200, { revision: ev.revision, node: (next.spec as Obj)?.nodeName });
  notifyWatchers(h, ev);
  return { ok: true, code: 200, object: sub === 'scale' ? toScale(req.resource, ev.object as Obj) : ev.object, revision: ev.revision };
}

let statusPatchShortcut = true;
/** Tests: serve status patches through the general update path too (to compare the two). */
export function setStatusPatchShortcut(on: boolean): void { statusPatchShortcut = on; }

/**
 * Whether `{ ...m, uid: m.uid, creationTimestamp: …, resourceVersion: … }` (and the deletion fields)
 * would be `m` again, also to deepEqual (which finds a copy holding NaN unequal).
 */
function keepsIdentity(m: Obj): boolean {
  return 'uid' in m && 'creationTimestamp' in m && 'name' in m && 'namespace' in m && 'resourceVersion' in m
    && (!m.deletionTimestamp || 'deletionGracePeriodSeconds' in m) && !hasNaNValue(m);
}

/** The status `patch` gives `status` (what patching the whole object leaves in its `status`). */
function patchedStatus(status: unknown, patch: Obj, merge: boolean): unknown {
  if (!('status' in patch)) return status;
  const v = patch.status;
  if (v === null) return undefined;
  return merge ? mergePatch(status, v) : strategicMergePatch(status, v, 'status');
}

/**
 * The object a PUT or PATCH asks to store (before admission), with the identity fields the server
 * keeps; undefined on a stale resourceVersion.
 */
function updatedObject(req: ApiRequest, cur: Obj, jsonPatched?: Obj): Obj | undefined {
  const sub = req.subresource;
  let incoming: Obj;
  if (sub === 'scale') {
    const applyPatch = req.options?.patchType === 'merge' ? mergePatch : strategicMergePatch;
    const scale = (jsonPatched ?? (req.verb === 'patch' ? applyPatch(toScale(req.resource, cur), req.body) : req.body)) as Obj;
    if (scale?.metadata?.resourceVersion && scale.metadata.resourceVersion !== cur.metadata.resourceVersion) return undefined;
    incoming = { ...cur, spec: { ...cur.spec, replicas: scale?.spec?.replicas } };
  } else {
    const applyPatch = req.options?.patchType === 'merge' ? mergePatch : strategicMergePatch;
    incoming = (jsonPatched ?? (req.verb === 'patch' ? applyPatch(cur, req.body) : req.body)) as Obj;
  }
  const rv = incoming?.metadata?.resourceVersion;
  if (req.verb === 'update' && sub !== 'scale' && rv && rv !== cur.metadata.resourceVersion) return undefined;
  if (req.verb === 'patch' && (req.body as Obj)?.metadata?.resourceVersion && (req.body as Obj).metadata.resourceVersion !== cur.metadata.resourceVersion) return undefined;
  // A JSON patch that leaves a resourceVersion leaves the precondition GuaranteedUpdate checks (the
  // `test`/`replace` of /metadata/resourceVersion idiom); one that removes it updates unconditionally.
  if (jsonPatched && sub !== 'scale' && rv && rv !== cur.metadata.resourceVersion) return undefined;
  // The status subresource writes only status; the main resource never writes status (for kinds that have it).
  let next: Obj;
  if (sub === 'status') {
    next = { ...cur, status: incoming.status };
    // deploymentStatusStrategy resets only spec and labels: annotations written through /status stick
    // (that is how the controller stamps deployment.kubernetes.io/revision on the Deployment).
    const a = incoming.metadata?.annotations;
    if (req.resource === 'deployments' && !deepEqual(a, cur.metadata.annotations)) {
      next.metadata = { ...cur.metadata };
      if (a) next.metadata.annotations = a; else delete next.metadata.annotations;
    }
  }
  else if (STATUS_RESOURCES.has(req.resource)) next = { ...incoming, status: cur.status };
  else next = { ...incoming };
  next.metadata = { ...next.metadata, uid: cur.metadata.uid, creationTimestamp: cur.metadata.creationTimestamp, name: cur.metadata.name, namespace: cur.metadata.namespace, resourceVersion: cur.metadata.resourceVersion };
  if (cur.metadata.deletionTimestamp) { next.metadata.deletionTimestamp = cur.metadata.deletionTimestamp; next.metadata.deletionGracePeriodSeconds = cur.metadata.deletionGracePeriodSeconds; }
  if (GENERATION_RESOURCES.has(req.resource)) {
    next.metadata.generation = cur.metadata.generation ?? 1;
    if (sub !== 'status' && !deepEqual(cur.spec, next.spec)) next.metadata.generation++;
  }
  return next;
}

/**
 * jsonPatcher.applyJSPatch on the object as it is stored: a body that is not a list of operations
 * is a 400, more than 10,000 operations a 413, and an operation that does not apply a 422 built by
 * NewGenericServerResponse, whose message is fixed: json-patch's own error text is not sent.
 */
function jsonPatched(cur: Obj, body: unknown): { object: Obj } | { status: Status } {
  const d = decodeJSONPatch(body);
  if (!d.ok) return { status: statusError(400, 'BadRequest', d.message) };
  if (d.ops.length > MAX_JSON_PATCH_OPERATIONS) {
    return { status: statusError(413, 'RequestEntityTooLarge', `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${d.ops.length}`) };
  }
  const r = applyJSONPatch(cur, d.ops);
  if (!r.ok) return { status: statusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {}) };
  const o = r.doc as Obj;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) {
    // The patched document no longer decodes into the kind (a `replace` of "" with an array):
    // NewInvalid(GroupKind{}, "", patch: Invalid value: <the document>). The decoder's text is
    // SimpleMetaFactory.Interpret's as remembered, not confirmed in the source.
    const e: FieldError = { type: 'Invalid', field: 'patch', value: JSON.stringify(o), detail: `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }` };
    return { status: statusError(422, 'Invalid', ` "" is invalid: ${formatFieldError(e)}`, { name: '', group: '', kind: '', causes: [{ reason: 'FieldValueInvalid', message: formatFieldError(e).slice('patch: '.length), field: 'patch' }] }) };
  }
  if (!o.metadata || typeof o.metadata !== 'object' || Array.isArray(o.metadata)) o.metadata = {};
  // The document is decoded into the request's kind: a removed kind or apiVersion is filled in from
  // it. (A changed one fails that decoding in Kubernetes; here the stored kind is simply kept.)
  if (o.kind !== cur.kind || o.apiVersion !== cur.apiVersion) { o.kind = cur.kind; o.apiVersion = cur.apiVersion; }
  return { object: o };
}

/** storePut of an object this request built itself (no one else holds it): stamped in place, with one metadata copy. */
function putOwn(h: ApiHost, resource: string, key: string, obj: Obj): StoreEvent {
  obj.metadata = { ...obj.metadata, resourceVersion: String(h.store.revision + 1) };
  return storePutStamped(h.store, resource, key, obj as KObject);
}

function doBinding(h: ApiHost, component: string, id: Identity, req: ApiRequest): ApiResult<unknown> {
  const key = keyOf(req);
  const cur = storeGet(h.store, 'pods', key) as Obj | undefined;
  if (!cur) return fail(h, component, req, notFound('pods', req.name ?? ''), 'storage');
  const node = (req.body as Obj)?.target?.name as string | undefined;
  if (!node) return fail(h, component, req, invalid('pods', req.name ?? '', [{ type: 'Required', field: 'target.name' }]), 'validation');
  if (cur.spec?.nodeName) {
    return fail(h, component, req, statusError(409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${req.name}": pod ${req.name} is already assigned to node "${cur.spec.nodeName}"`), 'storage');
  }
  if (cur.metadata.deletionTimestamp) {
    return fail(h, component, req, statusError(409, 'Conflict', `Operation cannot be fulfilled on pods/binding "${req.name}": pod ${req.name} is being deleted, cannot be assigned to a host`), 'storage');
  }
  void id;
  const conds = ((cur.status?.conditions ?? []) as Obj[]).filter((c) => c.type !== 'PodScheduled');
  conds.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(h.now) });
  const next = { ...cur, spec: { ...cur.spec, nodeName: node }, status: { ...cur.status, conditions: conds } };
  const ev = putOwn(h, 'pods', key, next);
  logRequest(h, component, req, 201, { revision: ev.revision, node });
  notifyWatchers(h, ev);
  return { ok: true, code: 201, object: { kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201, metadata: {} }, revision: ev.revision };
}

function doDelete(h: ApiHost, component: string, req: ApiRequest, eviction: boolean): ApiResult<unknown> {
  const key = keyOf(req);
  const cur = storeGet(h.store, req.resource, key) as Obj | undefined;
  if (!cur) return fail(h, component, { ...req, subresource: eviction ? 'eviction' : undefined, verb: eviction ? 'create' : 'delete' }, notFound(req.resource, req.name ?? ''), 'storage');
  const logReq = eviction ? { ...req, verb: 'create' as Verb, subresource: 'eviction' } : req;
  const pre = req.options?.preconditions;
  if (pre?.uid && pre.uid !== cur.metadata.uid) {
    return fail(h, component, logReq, conflict(req.resource, req.name ?? '', `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${cur.metadata.uid}`), 'storage');
  }
  if (pre?.resourceVersion && pre.resourceVersion !== cur.metadata.resourceVersion) {
    return fail(h, component, logReq, conflict(req.resource, req.name ?? '', `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${cur.metadata.resourceVersion}`), 'storage');
  }
  const okCode = eviction ? 201 : 200;
  // deletionFinalizersForGarbageCollection: Orphan and Foreground ask the garbage collector to deal
  // with the dependents first, through a finalizer it removes when done.
  const finalizers = finalizersForDeletion(cur.metadata.finalizers as string[] | undefined, req.options?.propagationPolicy);
  const finalizersChanged = !sameStrings(finalizers, (cur.metadata.finalizers as string[] | undefined) ?? []);
  if (cur.metadata.deletionTimestamp && req.resource !== 'pods') {
    // Already being deleted (waiting for its finalizers): only a change of policy is written.
    if (!finalizersChanged) { logRequest(h, component, logReq, okCode); return { ok: true, code: okCode, object: cur }; }
    return markForDeletion(h, component, logReq, okCode, key, cur, cur.metadata.deletionTimestamp, cur.metadata.deletionGracePeriodSeconds ?? 0, finalizers);
  }
  if (req.resource === 'pods') {
    // Graceful deletion: an unscheduled pod goes at once; otherwise the kubelet finishes it with grace 0.
    let grace = req.options?.gracePeriodSeconds ?? cur.spec?.terminationGracePeriodSeconds ?? 30;
    if (!cur.spec?.nodeName) grace = 0;
    const phase = cur.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') grace = 0;
    if (grace > 0) {
      const existing = cur.metadata.deletionGracePeriodSeconds as number | undefined;
      if (existing !== undefined && existing <= grace && !finalizersChanged) {
        logRequest(h, component, logReq, okCode, { node: cur.spec?.nodeName });
        return { ok: true, code: okCode, object: cur };
      }
      const next: Obj = { ...cur, metadata: { ...cur.metadata, deletionTimestamp: rfc3339(h.now + grace * 1000), deletionGracePeriodSeconds: grace } };
      if (finalizersChanged) setFinalizers(next.metadata, finalizers);
      if (eviction) {
        const conds = ((cur.status?.conditions ?? []) as Obj[]).filter((c) => c.type !== 'DisruptionTarget');
        conds.push({ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', lastTransitionTime: rfc3339(h.now) });
        next.status = { ...cur.status, conditions: conds };
      }
      const ev = storePut(h.store, 'pods', key, next as KObject);
      logRequest(h, component, logReq, okCode, { revision: ev.revision, node: cur.spec?.nodeName });
      notifyWatchers(h, ev);
      return { ok: true, code: okCode, object: ev.object, revision: ev.revision };
    }
  }
  if (finalizers.length) {
    // Finalizers left (the collector's, or anyone's): marked now, removed when the last one goes.
    return markForDeletion(h, component, logReq, okCode, key, cur, (cur.metadata.deletionTimestamp as string | undefined) ?? rfc3339(h.now), 0, finalizers);
  }
  const ev = storeDelete(h.store, req.resource, key)!;
  if (req.resource === 'events' && h.apiServer.eventLeases) detachKey(h.apiServer.eventLeases, key);
  logRequest(h, component, logReq, okCode, { revision: ev.revision, node: cur.spec?.nodeName });
  notifyWatchers(h, ev);
  return { ok: true, code: okCode, object: ev.object, revision: ev.revision };
}

/** metav1.FinalizerOrphanDependents and metav1.FinalizerDeleteDependents. */
export const FINALIZER_ORPHAN = 'orphan';
/** The finalizer of a foreground (blocking) deletion. */
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

/** The object's finalizers with the garbage collector's two replaced by what `policy` asks for. */
function finalizersForDeletion(current: string[] | undefined, policy: RequestOptions['propagationPolicy']): string[] {
  const out = (current ?? []).filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (policy === 'Orphan') out.push(FINALIZER_ORPHAN);
  if (policy === 'Foreground') out.push(FINALIZER_FOREGROUND);
  // A policy that was not given keeps a finalizer an earlier DELETE asked for.
  if (policy === undefined) for (const f of current ?? []) if ((f === FINALIZER_ORPHAN || f === FINALIZER_FOREGROUND) && !out.includes(f)) out.push(f);
  return out;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function setFinalizers(meta: Obj, finalizers: string[]): void {
  if (finalizers.length) meta.finalizers = finalizers;
  else delete meta.finalizers;
}

/** The object stays, with deletionTimestamp and the finalizers that must go before it does. */
function markForDeletion(h: ApiHost, component: string, req: ApiRequest, code: number, key: string, cur: Obj, deletionTimestamp: string, grace: number, finalizers: string[]): ApiResult<unknown> {
  const next: Obj = { ...cur, metadata: { ...cur.metadata, deletionTimestamp, deletionGracePeriodSeconds: grace } };
  setFinalizers(next.metadata, finalizers);
  const ev = storePut(h.store, req.resource, key, next as KObject);
  logRequest(h, component, req, code, { revision: ev.revision, node: cur.spec?.nodeName });
  notifyWatchers(h, ev);
  return { ok: true, code, object: ev.object, revision: ev.revision };
}

/** ShouldDeleteDuringUpdate: marked for deletion and no finalizer left (a pod: also its grace period over). */
function shouldDeleteDuringUpdate(resource: string, next: Obj): boolean {
  const m = next.metadata;
  if (!m?.deletionTimestamp || (m.finalizers as string[] | undefined)?.length) return false;
  return resource !== 'pods' || m.deletionGracePeriodSeconds === 0;
}

// ---------------------------------------------------------------- watches

/** What a watcher's component receives in its queue. */
export interface WatchNotification {
  type: 'watch';
  watchId: string;
  eventType: WatchEventType;
  object: KObject;
  revision: number;
}

/** Sent to a component when its watch ends (API server down, or 410 while resuming). */
export interface WatchClosed {
  type: 'watch-closed';
  watchId: string;
  status?: Status;
}

/** Options for opening a watch. */
export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Start after this revision; omit (or "0") to get synthetic ADDED events for the current state first. */
  resourceVersion?: string;
}

/** Open a watch for `component`; events are queued to it as `WatchNotification`s. */
export function openWatch(h: ApiHost, component: string, resource: string, opts: WatchOptions = {}, identity = component): ApiResult<{ watchId: string; resourceVersion: string }> {
  const req: ApiRequest = { verb: 'watch', resource, namespace: opts.namespace, options: { ...opts } };
  const f = h.apiServer.faults;
  const logWatch = (code: number, stage?: Stage, message?: string) => appendRecord(h.log, {
    t: h.now, component, kind: 'request', verb: 'WATCH',
    path: resourcePath(resource, opts.namespace) + '?' + encodeQuery({ fieldSelector: opts.fieldSelector || undefined, labelSelector: opts.labelSelector || undefined, resourceVersion: opts.resourceVersion, watch: 'true' }),
    code, stage, message,
  });
  const refuse = (st: Status, stage: Stage): ApiResult<never> => { logWatch(st.code, stage, st.message); return { ok: false, code: st.code, status: st }; };
  if (f.apiServerDown || f.partitioned?.includes(component)) return refuse(statusError(0, 'ConnectionRefused', `Get "https://127.0.0.1:6443${resourcePath(resource, opts.namespace)}?watch=true": dial tcp 127.0.0.1:6443: connect: connection refused`), 'connection');
  if (!RESOURCES[resource]) return refuse(statusError(404, 'NotFound', 'the server could not find the requested resource'), 'storage');
  if (!RESOURCES[resource].namespaced) opts = { ...opts, namespace: undefined };
  const id = authenticate(identity);
  if (!id) return refuse(statusError(401, 'Unauthorized', 'Unauthorized'), 'authentication');
  const denied = authorize(h, id, req);
  if (denied) return refuse(denied, 'authorization');
  const labels = parseLabelSelector(opts.labelSelector);
  const fields = parseFieldSelector(opts.fieldSelector);
  const process = h.components[component]?.process;
  const fromRevision = opts.resourceVersion && opts.resourceVersion !== '0' ? Number(opts.resourceVersion) : h.store.revision;
  if (process) {
    const shared = sharedWatchFor(h, process, resource, opts, fromRevision);
    if (shared) {
      // One watch per process and selector: the component reads the open one (no new request).
      shared.subscribers = [...shared.subscribers!, component]; // replaced, never edited: a dispatch in progress keeps its list
      return { ok: true, code: 200, object: { watchId: shared.id, resourceVersion: String(h.store.revision) } };
    }
  }
  let backlog: StoreEvent[] = [];
  let synthetic: KObject[] = [];
  if (opts.resourceVersion !== undefined && opts.resourceVersion !== '' && opts.resourceVersion !== '0') {
    const rv = Number(opts.resourceVersion);
    const hist = storeHistorySince(h.store, rv);
    if (!hist.ok) return refuse(statusError(410, 'Expired', hist.message), 'storage');
    backlog = hist.events.filter((e) => e.resource === resource);
  } else {
    synthetic = storeList(h.store, resource, opts.namespace);
  }
  const nodeField = resource === 'pods' ? fields.find((x) => x.field === 'spec.nodeName' && x.op === '=') : undefined;
  const w: Watcher = {
    id: `w${h.apiServer.nextWatchId++}`, component, resource, namespace: opts.namespace, labels, fields,
    bucket: nodeField ? nodeField.value : '*', lastAt: h.now, fromRevision,
  };
  if (process) Object.assign(w, { process, subscribers: [component], selector: selectorKey(opts), dispatched: 0 });
  h.apiServer.watchers[w.id] = w;
  ((h.apiServer.watchIndex[resource] ??= {})[w.bucket] ??= []).push(w.id);
  logWatch(200);
  for (const o of synthetic) if (matchObj(w, o)) deliver(h, w, 'ADDED', o, Number(o.metadata?.resourceVersion));
  for (const e of backlog) dispatchTo(h, w, e);
  return { ok: true, code: 200, object: { watchId: w.id, resourceVersion: String(h.store.revision) } };
}

/** Close a watch (the client stops it); no notification is sent. */
export function closeWatch(h: ApiHost, watchId: string): void {
  const w = h.apiServer.watchers[watchId];
  if (!w) return;
  delete h.apiServer.watchers[watchId];
  const ids = h.apiServer.watchIndex[w.resource]?.[w.bucket];
  if (ids) {
    const i = ids.indexOf(watchId);
    if (i >= 0) ids.splice(i, 1);
    if (ids.length === 0) delete h.apiServer.watchIndex[w.resource][w.bucket];
  }
}

/** The components reading a watch. */
export function watchSubscribers(w: Watcher): readonly string[] {
  return w.subscribers ?? [w.component];
}

/** `component` stops reading a watch; the watch closes when nobody reads it any more. */
export function leaveWatch(h: ApiHost, watchId: string, component: string): void {
  const w = h.apiServer.watchers[watchId];
  if (!w) return;
  if (w.subscribers && w.subscribers.length > 1) {
    const i = w.subscribers.indexOf(component);
    if (i >= 0) { w.subscribers = w.subscribers.filter((c) => c !== component); return; }
    if (w.subscribers.length) return; // not a reader of it: leave it open for those who are
  }
  closeWatch(h, watchId);
}

/** Break every open watch (API server going down): each reader gets `watch-closed`. */
export function breakAllWatches(h: ApiHost): void {
  for (const id of Object.keys(h.apiServer.watchers)) {
    const w = h.apiServer.watchers[id];
    closeWatch(h, id);
    for (const c of watchSubscribers(w)) push(h.queue, h.now, c, { type: 'watch-closed', watchId: id } satisfies WatchClosed);
  }
}

/** Break the watches of one component (it is cut off by a partition): it gets `watch-closed` for each. */
export function breakWatchesOf(h: ApiHost, component: string): void {
  for (const id of Object.keys(h.apiServer.watchers)) {
    if (!watchSubscribers(h.apiServer.watchers[id]).includes(component)) continue;
    leaveWatch(h, id, component);
    push(h.queue, h.now, component, { type: 'watch-closed', watchId: id } satisfies WatchClosed);
  }
}

function selectorKey(opts: WatchOptions): string {
  return `${opts.namespace ?? ''}?${opts.labelSelector ?? ''}?${opts.fieldSelector ?? ''}`;
}

/**
 * An open watch of `process` that a component asking for the same selectors from `fromRevision`
 * can read instead of opening its own: nothing handed out yet, and no change to the resource
 * between the two revisions (so both would see exactly the same notifications).
 */
function sharedWatchFor(h: ApiHost, process: string, resource: string, opts: WatchOptions, fromRevision: number): Watcher | undefined {
  const key = selectorKey(opts);
  for (const id of h.apiServer.watchIndex[resource]?.['*'] ?? []) {
    const w = h.apiServer.watchers[id];
    if (w.process !== process || w.selector !== key || w.dispatched !== 0) continue;
    const lo = Math.min(w.fromRevision, fromRevision);
    const hi = Math.max(w.fromRevision, fromRevision);
    if (lo !== hi && lo < h.store.compactedRevision) continue;
    if (lo !== hi && changedBetween(h.store.history, resource, lo, hi)) continue;
    return w;
  }
  return undefined;
}

function changedBetween(history: readonly StoreEvent[], resource: string, lo: number, hi: number): boolean {
  for (let i = history.length - 1; i >= 0 && history[i].revision > lo; i--) {
    if (history[i].revision <= hi && history[i].resource === resource) return true;
  }
  return false;
}

function matchObj(w: Watcher, o: KObject | undefined): boolean {
  if (!o) return false;
  if (w.namespace && o.metadata?.namespace !== w.namespace) return false;
  if (w.labels.length === 0 && w.fields.length === 0) return true; // most watches select everything
  return matchesLabels(w.labels, o.metadata?.labels as Record<string, string> | undefined) && matchesFields(w.fields, o);
}

/** A watcher's reaction delay [min, max] ms unless its component sets one. */
const DEFAULT_REACTION_MS: readonly [number, number] = [1, 3];

function deliver(h: ApiHost, w: Watcher, type: WatchEventType, object: KObject, revision: number): void {
  const react = h.components[w.component]?.reactionMs ?? DEFAULT_REACTION_MS;
  // A fixed reaction (kubectl's) draws nothing, so a client's watch leaves the world's random choices as they were.
  const reaction = react[0] === react[1] ? react[0] : jitter(h.rng, react[0], react[1]);
  const at = Math.max(h.now + h.apiServer.latencyMs + h.apiServer.faults.addedLatencyMs + reaction, w.lastAt);
  w.lastAt = at;
  push(h.queue, at, w.process ?? w.component, { type: 'watch', watchId: w.id, eventType: type, object, revision } satisfies WatchNotification);
}

/** The watch cache's filtering: a change that moves an object out of a selector is DELETED for that watcher. */
function dispatchTo(h: ApiHost, w: Watcher, e: StoreEvent): void {
  if (e.revision <= w.fromRevision) return;
  const cur = e.type === 'DELETED' ? undefined : e.object;
  const nowMatch = matchObj(w, cur);
  const wasMatch = matchObj(w, e.prev);
  if (e.type === 'DELETED') { if (wasMatch) deliver(h, w, 'DELETED', e.object, e.revision); return; }
  if (nowMatch && wasMatch) deliver(h, w, 'MODIFIED', e.object, e.revision);
  else if (nowMatch) deliver(h, w, 'ADDED', e.object, e.revision);
  else if (wasMatch) deliver(h, w, 'DELETED', { ...e.prev!, metadata: { ...e.prev!.metadata, resourceVersion: String(e.revision) } }, e.revision);
}

/** Notify the watchers a store event concerns, found through the index (never a scan of all watchers). */
export function notifyWatchers(h: ApiHost, e: StoreEvent): void {
  const idx = h.apiServer.watchIndex[e.resource];
  if (!idx) return;
  // Read in place: dispatching queues notifications and never opens or closes a watch.
  const watchers = h.apiServer.watchers;
  const all = idx['*'];
  if (all) for (let i = 0; i < all.length; i++) dispatchTo(h, watchers[all[i]], e);
  if (e.resource === 'pods') {
    const a = ((e.object.spec as Obj | undefined)?.nodeName as string | undefined) ?? '';
    const b = ((e.prev?.spec as Obj | undefined)?.nodeName as string | undefined) ?? '';
    const onA = idx[a];
    if (onA) for (let i = 0; i < onA.length; i++) dispatchTo(h, watchers[onA[i]], e);
    const onB = b !== a ? idx[b] : undefined;
    if (onB) for (let i = 0; i < onB.length; i++) dispatchTo(h, watchers[onB[i]], e);
  }
}
