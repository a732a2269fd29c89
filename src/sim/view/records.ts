// The request-log records of one step as the view draws and reads them: who → whom, a short label,
// whether it is a heartbeat (what "next thing that matters" skips), and one plain sentence.
import { RESOURCES } from '../api/resources.ts';
import type { ApiFaults } from '../apiserver/server.ts';
import { CONTROLLER_MANAGER, KUBE_CONTROLLER_MANAGER } from '../cluster.ts';
import { deepEqual } from '../util/names.ts';
import { causeOf, type RequestRecord } from '../request-log.ts';
import type { StoreEvent } from '../apiserver/store.ts';
import type { WorldState } from '../world.ts';
import type { Endpoint, StepCause, StepRecord } from './types.ts';
import { pluralOf } from './words.ts';
import { setOf } from '../util/table.ts';

// The namespace, disruption and serviceaccount controllers and the root-CA publisher run in
// kube-controller-manager too, started only once kubectl deletes a namespace, makes a
// PodDisruptionBudget or makes a namespace (controllers/namespace-controller.ts,
// disruption-controller.ts, serviceaccounts-controller.ts), so they are not in the boot list CONTROLLER_MANAGER.
const CONTROLLERS = setOf<string>([
  ...CONTROLLER_MANAGER,
  KUBE_CONTROLLER_MANAGER,
  'namespace-controller',
  'disruption-controller',
  'service-account-controller',
  'root-ca-cert-publisher',
]);

/** The canvas end a component is drawn at: its own box, or the process it runs in. */
/** HTTP methods that ask the API server to change something. */
const MUTATING = setOf(['POST', 'PUT', 'PATCH', 'DELETE']);

export function endpointOf(component: string): Endpoint {
  if (component === 'kubectl' || component === 'kube-apiserver' || component === 'etcd' || component === 'scheduler')
    return component;
  if (component === 'kube-scheduler') return 'scheduler';
  if (CONTROLLERS.has(component)) return 'kube-controller-manager';
  if (component.startsWith('kubelet/')) return component as `kubelet/${string}`;
  if (component.startsWith('containerd/')) return component as `containerd/${string}`;
  // Anything else talks to the API server from outside the cluster, as kubectl does.
  return 'kubectl';
}

/** The records with log positions in [fromCount, toCount) (positions as logCount counts them; dropped ones are skipped). */
export function stepRecordsOf(state: WorldState, fromCount: number, toCount: number): StepRecord[] {
  const dropped = state.logDropped ?? 0;
  const lo = Math.max(fromCount, dropped);
  const hi = Math.min(toCount, dropped + state.log.length);
  const out: StepRecord[] = [];
  for (let seq = lo; seq < hi; seq++) out.push(stepRecordOf(state, state.log[seq - dropped], seq));
  return out;
}

/** One record as a StepRecord; `seq` is its position in the whole log. */
function stepRecordOf(state: WorldState, rec: RequestRecord, seq: number): StepRecord {
  const ends = endsOf(rec);
  const t = targetOf(rec);
  // A write is a request that asks to change etcd, whether or not it was allowed to (a refused PATCH is still a write).
  const kind =
    rec.kind === 'request' ? (rec.revision !== undefined || MUTATING.has(rec.verb) ? 'write' : 'read') : rec.kind;
  const causeRec = kind === 'write' || kind === 'cri' ? causeRecordOf(state, seq) : undefined;
  return {
    seq,
    t: rec.t,
    kind,
    component: rec.component,
    from: ends.from,
    to: ends.to,
    label: labelOf(rec, t),
    verb: rec.verb,
    path: rec.path,
    object: rec.object ?? null,
    revision: rec.revision ?? null,
    code: rec.code,
    heartbeat: heartbeatOf(state, rec, t),
    sentence: sentenceOf(rec, t, state.apiServer.faults, causeRec?.rec),
    cause: causeRec ? causeView(causeRec.rec, causeRec.seq) : null,
  };
}

/** The notification (and its position) that woke the sync which sent the record at `seq`, if the log still has it. */
function causeRecordOf(state: WorldState, seq: number): { rec: RequestRecord; seq: number } | undefined {
  const cause = causeOf(state.causes, seq);
  if (cause === undefined) return undefined;
  const rec = state.log[cause - (state.logDropped ?? 0)];
  return rec && rec.kind === 'watch' ? { rec, seq: cause } : undefined;
}

function causeView(rec: RequestRecord, seq: number): StepCause {
  return { seq, label: labelOf(rec, targetOf(rec)), object: rec.object ?? null };
}

function endsOf(rec: RequestRecord): { from: Endpoint; to: Endpoint } {
  if (rec.kind === 'watch') return { from: 'kube-apiserver', to: endpointOf(rec.component) };
  if (rec.kind === 'cri') {
    const node = rec.node ?? rec.component.slice(rec.component.indexOf('/') + 1);
    return { from: `kubelet/${node}`, to: `containerd/${node}` };
  }
  // The API server's own writes (the bootstrap namespaces and the kubernetes Service) go to etcd.
  if (rec.component === 'kube-apiserver') return { from: 'kube-apiserver', to: 'etcd' };
  return { from: endpointOf(rec.component), to: 'kube-apiserver' };
}

// ---------------------------------------------------------------- what a record is about

/** The object a record concerns, from its path and its `object` name. */
interface Target {
  resource: string;
  namespace: string | null;
  name: string | null;
  subresource: string | null;
  /** A CRI record's container, or its image. */
  container: string | null;
  /** A list's or watch's query (`resourceVersion`, `fieldSelector`, `labelSelector`, `limit`), decoded. */
  query: Record<string, string>;
}

function targetOf(rec: RequestRecord): Target {
  const t: Target = { resource: '', namespace: null, name: null, subresource: null, container: null, query: {} };
  if (rec.kind === 'request' && rec.path) {
    const q = rec.path.indexOf('?');
    const path = q < 0 ? rec.path : rec.path.slice(0, q);
    // url.Values as client-go encodes them (`labelSelector=app%3Dweb`, a space as `+`).
    if (q >= 0) {
      const decode = (s: string) => {
        try {
          return decodeURIComponent(s.replace(/\+/g, ' '));
        } catch {
          return s;
        }
      };
      for (const kv of rec.path.slice(q + 1).split('&')) {
        const eq = kv.indexOf('=');
        if (eq > 0) t.query[decode(kv.slice(0, eq))] = decode(kv.slice(eq + 1));
      }
    }
    const segs = path.split('/').filter(Boolean);
    // /api/v1/… or /apis/<group>/<version>/…
    let rest = segs[0] === 'api' ? segs.slice(2) : segs.slice(3);
    if (rest[0] === 'namespaces' && rest.length >= 3 && RESOURCES[rest[2]]) {
      t.namespace = rest[1];
      rest = rest.slice(2);
    }
    t.resource = rest[0] ?? '';
    t.name = rest[1] ?? null;
    t.subresource = rest[2] ?? null;
  }
  if (rec.object !== undefined) {
    const slash = rec.object.indexOf('/');
    const resource = rec.object.slice(0, slash);
    if (slash < 0 || !RESOURCES[resource]) {
      // A CRI record about an image names the image itself.
      t.container = rec.object;
      return t;
    }
    t.resource = resource;
    const parts = rec.object.slice(slash + 1).split('/');
    if (RESOURCES[resource].namespaced) {
      t.namespace = parts[0] ?? null;
      t.name = parts[1] ?? null;
      t.container = parts[2] ?? null;
    } else {
      t.name = parts[0] ?? null;
    }
  }
  return t;
}

function labelOf(rec: RequestRecord, t: Target): string {
  if (rec.kind === 'cri') return rec.verb;
  if (rec.kind === 'watch') return `${rec.event ?? 'WATCH'} ${t.resource}`;
  return `${rec.verb} ${t.resource}${t.subresource ? '/' + t.subresource : ''}`;
}

// ---------------------------------------------------------------- heartbeats

/**
 * Whether a record is a heartbeat: a kubelet's Lease traffic (GET, PUT, PATCH, whatever the answer),
 * its GET of its own Node, its node-status PATCH when no condition's status changed, and the watch
 * notifications of such writes. A node coming back (Ready again) is not a heartbeat.
 */
export function isHeartbeat(state: WorldState, rec: RequestRecord): boolean {
  return heartbeatOf(state, rec, targetOf(rec));
}

function heartbeatOf(state: WorldState, rec: RequestRecord, t: Target): boolean {
  if (rec.kind === 'cri') return false;
  if (rec.kind === 'watch') {
    if (rec.event !== 'MODIFIED') return false;
    if (t.resource === 'leases') return t.namespace === 'kube-node-lease' || isLeaderLease(t);
    return t.resource === 'nodes' && rec.revision !== undefined && nodeWriteIsHeartbeat(state, rec.revision);
  }
  // A leader elector's GETs and renewals of its Lease (its creation, a takeover, is no heartbeat: it is a POST, or a PUT that changes the holder, told apart below).
  if (isLeaderLease(t) && (rec.component === 'kube-scheduler' || rec.component === KUBE_CONTROLLER_MANAGER))
    return rec.verb === 'GET' || (rec.verb === 'PUT' && !leaderChanged(state, rec.revision));
  if (!rec.component.startsWith('kubelet/')) return false;
  const node = rec.component.slice('kubelet/'.length);
  if (t.resource === 'leases' && t.namespace === 'kube-node-lease' && t.name === node)
    return rec.verb === 'GET' || rec.verb === 'PUT' || rec.verb === 'PATCH';
  if (t.resource !== 'nodes' || t.name !== node) return false;
  if (rec.verb === 'GET') return true;
  if (rec.verb !== 'PATCH' || t.subresource !== 'status' || rec.code !== 200) return false;
  return rec.revision === undefined || nodeWriteIsHeartbeat(state, rec.revision);
}

/** The leader-election Leases of kube-scheduler and kube-controller-manager. */
function isLeaderLease(t: Target): boolean {
  return (
    t.resource === 'leases' &&
    t.namespace === 'kube-system' &&
    (t.name === 'kube-scheduler' || t.name === KUBE_CONTROLLER_MANAGER)
  );
}

/** A Lease write at `revision` changed its holder (a takeover or a release, not a renewal). */
function leaderChanged(state: WorldState, revision: number | undefined): boolean {
  const e = revision === undefined ? undefined : historyAt(state.store.history, revision);
  const holder = (o: unknown) => (o as { spec?: { holderIdentity?: string } } | undefined)?.spec?.holderIdentity;
  return !!e && holder(e.prev) !== holder(e.object);
}

/**
 * A write of a Node at `revision` changed nothing a reader acts on: no condition changed status and
 * the spec (taints, cordon), labels and annotations are as they were. Once compacted out of the
 * history the change cannot be told, and the write counts as a heartbeat (which most are).
 */
function nodeWriteIsHeartbeat(state: WorldState, revision: number): boolean {
  const e = historyAt(state.store.history, revision);
  if (!e) return true;
  if (e.resource !== 'nodes' || e.type !== 'MODIFIED' || !e.prev) return false;
  const a = e.prev as NodeLike;
  const b = e.object as NodeLike;
  if (a.spec !== b.spec && !deepEqual(a.spec, b.spec)) return false;
  if (
    !deepEqual(a.metadata?.labels, b.metadata?.labels) ||
    !deepEqual(a.metadata?.annotations, b.metadata?.annotations)
  )
    return false;
  const before = a.status?.conditions ?? [];
  const after = b.status?.conditions ?? [];
  if (before.length !== after.length) return false;
  return after.every((c) => before.some((p) => p.type === c.type && p.status === c.status));
}

interface NodeLike {
  metadata?: { labels?: unknown; annotations?: unknown };
  spec?: unknown;
  status?: { conditions?: { type: string; status: string }[] };
}

/** The history entry written at `revision` (binary search: the history is in revision order). */
export function historyAt(h: readonly StoreEvent[], revision: number): StoreEvent | undefined {
  let lo = 0;
  let hi = h.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (h[mid].revision < revision) lo = mid + 1;
    else hi = mid;
  }
  return h[lo]?.revision === revision ? h[lo] : undefined;
}

// ---------------------------------------------------------------- sentences

/**
 * One plain English sentence, present tense, saying what a record is: who asks what of whom, and
 * what came of it. `faults` (the API server's at that moment) tells a down API server from a node
 * cut off from it, which the record alone cannot.
 */
export function narrate(rec: RequestRecord, faults?: ApiFaults, cause?: RequestRecord): string {
  return sentenceOf(rec, targetOf(rec), faults, cause);
}

/**
 * `cause`: the watch notification that woke the sync which sent `rec` (a write or a CRI call); the
 * sentence then ends by saying so.
 */
function sentenceOf(rec: RequestRecord, t: Target, faults: ApiFaults | undefined, cause?: RequestRecord): string {
  let s: string;
  // A streaming list's closing bookmark names no object: it says the initial state is all sent.
  if (rec.kind === 'watch' && rec.event === 'BOOKMARK')
    s = `the API server tells ${who(rec.component)} that it has sent every ${kindWord(t.resource)} there is; changes follow`;
  else if (rec.kind === 'watch')
    s = `the API server tells ${who(rec.component)} that ${thing(t)} ${happened(rec.event)}`;
  else if (rec.kind === 'cri') s = criSentence(rec, t);
  else s = requestSentence(rec, t, faults);
  if (cause) s += `, ${because(cause)}`;
  // "The scheduler …", but "kubectl …" and "containerd …": names keep their own case.
  return (s.startsWith('the ') ? 'T' + s.slice(1) : s) + '.';
}

/** "because the watch told it that ReplicaSet web-7d… was added": what woke a write's sender. */
function because(cause: RequestRecord): string {
  const t = targetOf(cause);
  // A streaming list's closing bookmark: the informer's cache is filled, and its handlers see every object at once.
  if (cause.event === 'BOOKMARK') return `because the watch has just sent it every ${kindWord(t.resource)} there is`;
  return `because the watch told it that ${thing(t)} ${happened(cause.event)}`;
}

/** How a component is named in a sentence ("the scheduler": the sentence capitalises a leading "the"). */
function who(component: string): string {
  if (component === 'kubectl') return 'kubectl';
  if (component === 'kube-apiserver') return 'the API server';
  if (component === 'scheduler' || component === 'kube-scheduler') return 'the scheduler';
  // A shared watch's notification goes to the process, which hands it to each controller reading it.
  if (component === KUBE_CONTROLLER_MANAGER) return "kube-controller-manager's controllers";
  if (CONTROLLERS.has(component)) return `the ${component}`;
  if (component.startsWith('kubelet/')) return `the kubelet on ${component.slice('kubelet/'.length)}`;
  if (component.startsWith('containerd/')) return `containerd on ${component.slice('containerd/'.length)}`;
  return component;
}

/** Kind names as a sentence says them: pods and nodes are plain words, the rest their kinds. */
function kindWord(resource: string): string {
  if (resource === 'pods') return 'pod';
  if (resource === 'nodes') return 'node';
  if (resource === 'namespaces') return 'namespace';
  return RESOURCES[resource]?.kind ?? resource;
}

/** "pods", "Deployments", "PriorityClasses": the resource's objects in a sentence. */
function plural(resource: string): string {
  return RESOURCES[resource] ? pluralOf(kindWord(resource)) : resource;
}

/** "pod web-…", "Deployment web in kube-system", "an Event about web-…". */
function thing(t: Target): string {
  if (!t.name) return t.resource ? `a ${kindWord(t.resource)}` : 'an object';
  // An Event is named after the object it is about, plus a unique suffix.
  const base =
    t.resource === 'events'
      ? `an Event about ${t.name.replace(/\.[0-9a-f]+$/, '')}`
      : // "node-2" says what it is; "node control-plane" needs the word.
        t.resource === 'nodes' && t.name.startsWith('node')
        ? t.name
        : `${kindWord(t.resource)} ${t.name}`;
  // Node Leases always live in kube-node-lease; saying so every time says nothing.
  const ns =
    t.namespace && t.namespace !== 'default' && !(t.resource === 'leases' && t.namespace === 'kube-node-lease')
      ? ` in ${t.namespace}`
      : '';
  return base + ns;
}

function happened(event: string | undefined): string {
  return event === 'ADDED' ? 'was added' : event === 'DELETED' ? 'was deleted' : 'changed';
}

/** The node a kubelet runs on, or null for any other component. */
function kubeletNode(component: string): string | null {
  return component.startsWith('kubelet/') ? component.slice('kubelet/'.length) : null;
}

/** What a request asks for, as the words after "asks the API server to …". */
function action(rec: RequestRecord, t: Target): string {
  const own = kubeletNode(rec.component);
  const ownLease = own !== null && t.resource === 'leases' && t.name === own;
  const leaderLease =
    isLeaderLease(t) && (rec.component === 'kube-scheduler' || rec.component === KUBE_CONTROLLER_MANAGER);
  const obj = thing(t);
  switch (rec.verb) {
    case 'WATCH':
      return `watch ${watched(t)}`;
    case 'GET':
      if (!t.name) return `list ${selected(t)}`;
      if (t.subresource === 'log') return `read the log of ${obj}`;
      if (ownLease) return 'read its Lease';
      if (leaderLease) return 'read the leader-election Lease';
      if (own !== null && t.resource === 'nodes' && t.name === own) return 'read its own Node object';
      return `read ${obj}`;
    case 'POST':
      if (t.resource === 'selfsubjectaccessreviews') return 'say whether it may do something (an access review)';
      if (t.subresource === 'binding') return `bind ${obj}${rec.node ? ` to ${rec.node}` : ''}`;
      if (t.subresource === 'eviction') return `evict ${obj}`;
      if (t.resource === 'events') return `record ${obj}`;
      if (ownLease) return 'create its Lease';
      if (leaderLease) return 'create the leader-election Lease, and so lead';
      if (own !== null && t.resource === 'nodes') return `register ${obj}`;
      return `create ${obj}`;
    case 'PUT':
    case 'PATCH':
      if (ownLease) return 'renew its Lease';
      if (leaderLease) return 'renew the leader-election Lease (or take it over)';
      if (t.subresource === 'status') return `${own !== null ? 'report' : 'update'} the status of ${obj}`;
      if (t.subresource === 'scale') return `scale ${obj}`;
      if (t.resource === 'events') return `count another occurrence of ${obj}`;
      return `${rec.verb === 'PUT' ? 'update' : 'change'} ${obj}`;
    case 'DELETE':
      return `delete ${obj}`;
    default:
      return `${rec.verb} ${obj}`;
  }
}

/** "pods bound to node-1 from revision 15", "Deployments from revision 31". */
function watched(t: Target): string {
  const rv = t.query.resourceVersion;
  // A streaming list (sendInitialEvents): the current state first, as the watch's opening events.
  if (t.query.sendInitialEvents === 'true')
    return `${selected(t)}, asking first for every one there is (a streaming list instead of a LIST)`;
  return selected(t) + (rv && rv !== '0' ? ` from revision ${rv}` : '');
}

/** "pods bound to node-1", "pods labelled app=web": the objects a list or watch selects. */
function selected(t: Target): string {
  let s = plural(t.resource);
  if (t.namespace && t.namespace !== 'default') s += ` in ${t.namespace}`;
  const field = t.query.fieldSelector;
  const node = field?.startsWith('spec.nodeName=') ? field.slice('spec.nodeName='.length) : null;
  if (node !== null) s += node ? ` bound to ${node}` : ' not yet bound to a node';
  else if (field) s += ` with ${field}`;
  const label = t.query.labelSelector;
  if (label) s += ` labelled ${label}`;
  return s;
}

function requestSentence(rec: RequestRecord, t: Target, faults: ApiFaults | undefined): string {
  // kube-controller-manager's own requests (leader election) come from the process, not its controllers.
  const subject = rec.component === KUBE_CONTROLLER_MANAGER ? 'kube-controller-manager' : who(rec.component);
  if (rec.code === 0) return `the API server refuses ${subject}: connection refused (${whyRefused(rec, faults)})`;
  const wants = action(rec, t);
  // The API server's own writes at start (namespaces, the kubernetes Service) go straight to etcd.
  if (rec.component === 'kube-apiserver' && rec.code < 400)
    return `the API server ${wants.replace(/^(\w+)/, '$1s')}${rec.revision !== undefined ? `; etcd stores it at revision ${rec.revision}` : ''}`;
  if (rec.code >= 400) return `${subject} asks the API server to ${wants}, but ${failure(rec)}`;
  const own = kubeletNode(rec.component);
  const outcome =
    rec.revision !== undefined
      ? `; etcd stores it at revision ${rec.revision}`
      : '; nothing changes, so etcd is not written';
  switch (rec.verb) {
    case 'GET':
      return `${subject} asks the API server to ${wants}`;
    case 'WATCH':
      return `${subject} opens a watch on ${watched(t)}`;
    case 'DELETE': {
      const change = rec.revision !== undefined ? `; etcd records the change at revision ${rec.revision}` : outcome;
      // A kubelet's own DELETE comes once the pod's containers have stopped: it removes the object.
      if (own !== null && t.resource === 'pods')
        return `${subject} asks the API server to delete ${thing(t)} now that its containers have stopped${change}`;
      return `${subject} asks the API server to ${wants}${change}`;
    }
    case 'POST':
      if (t.resource === 'selfsubjectaccessreviews')
        return `${subject} asks the API server whether it may do something (an access review); nothing is stored`;
      if (t.subresource === 'binding') return `${subject} binds ${thing(t)}${rec.node ? ` to ${rec.node}` : ''}`;
      break;
    case 'PUT':
    case 'PATCH':
      // A kubelet writing its own Lease or a status: it says so itself, it does not ask for a change.
      if (wants === 'renew its Lease') return `${subject} renews its Lease${outcome}`;
      if (rec.verb === 'PUT' && wants.startsWith('renew the leader-election Lease'))
        return `${subject} renews its leader-election Lease (or takes it over)${outcome}`;
      if (own !== null && t.subresource === 'status') return `${subject} reports the status of ${thing(t)}${outcome}`;
      break;
  }
  return `${subject} asks the API server to ${wants}${outcome}`;
}

function whyRefused(rec: RequestRecord, faults: ApiFaults | undefined): string {
  const node = kubeletNode(rec.component);
  const cutOff =
    node !== null
      ? `${node} is cut off from the control plane`
      : `${who(rec.component)} is cut off from the API server`;
  if (faults?.apiServerDown) return 'the API server is down';
  if (faults?.partitioned?.includes(rec.component)) return cutOff;
  // kubectl's own message says which: a down server is "127.0.0.1:6443 was refused".
  if (rec.component === 'kubectl' && rec.message?.startsWith('The connection to the server'))
    return 'the API server is down';
  return node !== null ? `the API server is down, or ${node} is cut off from it` : 'the API server is down';
}

function failure(rec: RequestRecord): string {
  const m = rec.message ?? '';
  switch (rec.code) {
    case 400:
      return m
        ? `the API server answers that ${unquoted(m)} (400 Bad Request)`
        : 'the request is malformed (400 Bad Request)';
    case 401:
      return 'the API server does not know who it is (401 Unauthorized)';
    case 403:
      return 'the API server forbids it (403 Forbidden)';
    case 404:
      return 'there is no such object (404 Not Found)';
    case 405:
      return 'that cannot be done to it (405 Method Not Allowed)';
    case 409:
      return m.includes('already exists')
        ? 'it already exists (409 AlreadyExists)'
        : 'the object has changed since it was read (409 Conflict)';
    case 410:
      return 'that revision has been compacted away (410 Gone)';
    case 413:
      return 'the request is too large (413)';
    // The message repeats the object's name ('Deployment.apps "web" is invalid: …'): keep what is wrong.
    case 422:
      return m
        ? `the object is invalid: ${unquoted(m.replace(/^\S+ "[^"]*" is invalid: /, ''))} (422 Invalid)`
        : 'the object is invalid (422 Invalid)';
    case 500:
      if (m.includes('database space exceeded')) return 'etcd is out of space (500: database space exceeded)';
      if (m.includes('timed out')) return 'etcd does not answer (500: request timed out)';
      return 'the API server fails (500)';
    default:
      return `it fails (${rec.code})`;
  }
}

/** A server message inside a sentence: without its own closing period. */
function unquoted(m: string): string {
  return m.replace(/[.\s]+$/, '');
}

const GRPC_NAMES: Record<number, string> = { 0: 'OK', 2: 'Unknown', 5: 'NotFound', 8: 'ResourceExhausted' };

/** `nginx:1.27` for `docker.io/library/nginx:1.27`: the image as the reader wrote it. */
function shortImage(ref: string): string {
  return ref.replace(/^docker\.io\/library\//, '').replace(/^docker\.io\//, '');
}

function criSentence(rec: RequestRecord, t: Target): string {
  const node = rec.node ?? rec.component.slice(rec.component.indexOf('/') + 1);
  const pod = t.name ? `pod ${t.name}${t.namespace && t.namespace !== 'default' ? ` in ${t.namespace}` : ''}` : 'a pod';
  const container = t.name && t.container ? `container ${t.container} of ${pod}` : 'a container';
  const image = t.name === null && t.container ? shortImage(t.container) : 'an image';
  let asks: string;
  switch (rec.verb) {
    case 'RunPodSandbox':
      asks = `start a sandbox for ${pod}`;
      break;
    case 'StopPodSandbox':
      asks = `stop the sandbox of ${pod}`;
      break;
    case 'RemovePodSandbox':
      asks = `remove the sandbox of ${pod}`;
      break;
    case 'CreateContainer':
      asks = `create ${container}`;
      break;
    case 'StartContainer':
      asks = `start ${container}`;
      break;
    case 'StopContainer':
      asks = `stop ${container}`;
      break;
    case 'ContainerStatus':
      asks = `report on ${container}`;
      break;
    case 'ImageStatus':
      asks = `check whether ${image} is on the node`;
      break;
    // Logged when the pull returns: the sentence says what came of it.
    case 'PullImage':
      asks = `pull ${image}`;
      break;
    case 'ListPodSandbox':
      asks = 'list its pod sandboxes';
      break;
    case 'ListContainers':
      asks = 'list its containers';
      break;
    default:
      asks = `run ${rec.verb}`;
  }
  const s = `the kubelet on ${node} asks containerd to ${asks}`;
  if (rec.code !== 0) {
    const code = GRPC_NAMES[rec.code] ?? String(rec.code);
    return rec.verb === 'PullImage' && rec.code === 5
      ? `${s}, which fails: the registry has no such image (NotFound)`
      : `${s}, which fails (${code})`;
  }
  return rec.verb === 'PullImage' ? `${s}; the image is now on the node` : s;
}
