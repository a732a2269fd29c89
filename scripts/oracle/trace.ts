// The oracle's trace: what one scenario did on a cluster (real or simulated), and the normalisation
// that makes the two comparable: generated names, UIDs and IPs renumbered by first appearance, times
// made relative to the scenario's start, volatile fields dropped. Shared by the recorder (real
// Kubernetes) and the comparison (the simulator), so both sides go through the same code.

/** One API request as the audit log (real) or the request log (simulator) saw it. */
export interface RawRequest {
  /** ms since the scenario's start. */
  t: number;
  component: string;
  /** Audit verb: get, list, watch, create, update, patch, delete, deletecollection. */
  verb: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Request URI with its query. */
  uri: string;
  user?: string;
  userAgent?: string;
  code: number;
}

/** An object as the API server returns it. */
export type KObj = { [k: string]: unknown; metadata?: { [k: string]: unknown } };

/** One executed script line. */
export interface RawStep { line: number; command: string; t: number; stdout: string; stderr: string; exitCode: number }

/** A state change worth timing: a node condition or taint, a pod deleted or bound, a leader Lease taken or handed back. */
export interface Transition { t: number; line: number; subject: string; what: string }

/** The objects after a `sim` line and at the end. */
export interface RawCheckpoint { line: number; t: number; objects: KObj[]; events: KObj[] }

/** A whole run before normalisation; `start` is the epoch ms of t=0 (object timestamps are absolute). */
export interface RawTrace {
  scenario: string;
  script: string;
  start: number;
  steps: RawStep[];
  requests: RawRequest[];
  checkpoints: RawCheckpoint[];
  transitions: Transition[];
  dropped: Record<string, number>;
}

/** A request after normalisation: consecutive identical ones collapse into one with a count. */
export interface TraceRequest { t: number; verb: string; resource: string; subresource?: string; code: number; uri: string; n?: number }

/** The committed, normalised trace (oracle/traces/<scenario>.json). */
export interface Trace {
  scenario: string;
  script: string;
  recorded?: Record<string, string>;
  /** What was left out, and how many. */
  dropped: Record<string, number>;
  components: Record<string, { user?: string; userAgent?: string; requests: TraceRequest[] }>;
  steps: { line: number; command: string; t: number; exitCode: number; stdout: string[]; stderr: string[] }[];
  checkpoints: { line: number; t: number; objects: Record<string, unknown>; events: NormEvent[] }[];
  transitions: Transition[];
  /**
   * The leader Leases' renewal PUTs, counted per component and script line rather than listed: one
   * every retryPeriod (2 s) for as long as a process leads, their place among the component's other
   * requests is chance, and what says something is how many fall in a line (leaderRenewals).
   */
  renewals?: Record<string, Record<string, number>>;
}

/** An event as compared: who, why, what, how often. */
interface NormEvent { object: string; reason: string; message: string; type: string; count: number; source: string }

/** The simulator's component name for an audit event's user (and user agent). */
export function componentOf(user: string, userAgent = ''): string | undefined {
  if (user === 'kube-apiserver-kubelet-client') return undefined; // the recorder's own reads
  if (user === 'kubernetes-admin') return 'kubectl';
  if (user.startsWith('system:node:')) return `kubelet/${user.slice('system:node:'.length)}`;
  if (user === 'system:kube-scheduler') return 'scheduler';
  if (user === 'system:kube-controller-manager') return 'kube-controller-manager';
  if (user === 'system:apiserver') return 'kube-apiserver';
  const sa = /^system:serviceaccount:kube-system:(.+)$/.exec(user);
  if (sa && userAgent.startsWith('kube-controller-manager/')) return sa[1];
  return user;
}

/** The leader-election Leases (kube-system) of kube-controller-manager and kube-scheduler, as kubeadm runs them. */
export const LEADER_LEASES = ['kube-controller-manager', 'kube-scheduler'] as const;
/** Where they live. */
export const LEADER_LEASE_NAMESPACE = 'kube-system';

/** The resources whose objects a checkpoint holds. */
export const CHECKPOINT_RESOURCES = ['deployments', 'replicasets', 'pods', 'nodes', 'services', 'endpointslices', 'poddisruptionbudgets'] as const;

// Kubernetes' rand.String alphabet (no vowels, no 0/1/3): generated suffixes and template hashes.
const ALNUM = '[bcdfghjklmnpqrstvwxz2456789]';
// A UUID, also right after the `_` of a leader-election identity (`<host>_<uuid>`), where \b sees none.
const UID_RE = /(?<![0-9A-Za-z-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const ISO_RE = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/g;
const IP_RE = /\b(?:\d{1,3}\.){3}\d{1,3}\b/g;
const EVENT_NAME_RE = /\.([0-9a-f]{12,20})\b/g;
const POD_RE = new RegExp(`(-h\\d+|-${ALNUM}{6,10})-(${ALNUM}{5})(?![a-z0-9])`, 'g');
const VOLUME_RE = new RegExp(`\\bkube-api-access-(${ALNUM}{5})(?![a-z0-9])`, 'g');

// describe's dates (time.RFC1123Z, as kubectl's describe prints a metav1.Time).
const RFC1123Z_RE = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d [+-]\d{4}\b/g;
// A resourceVersion in YAML, JSON or a query (0 means "any", so it stays).
const RESOURCE_VERSION_RE = /\b(resourceVersion"?\s*[:=]\s*"?)(\d*[1-9]\d*)\b/g;
// A leader-election identity, `<os.Hostname()>_<uuid>` (the uuid renumbered or not yet): the host is
// the recording machine's on one side, the simulated control-plane node's on the other.
const LEADER_HOST_RE = /\b[A-Za-z0-9][A-Za-z0-9.-]*_(?=(?:uid-\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b)/g;

/**
 * What differs by run and by cluster in any text, made alike: describe's dates, resourceVersions and
 * a leader-election identity's host. Idempotent, so the comparison applies it again to traces
 * recorded before it existed.
 */
export function volatile(s: string): string {
  return s.replace(RFC1123Z_RE, '<date>').replace(RESOURCE_VERSION_RE, '$1<rv>').replace(LEADER_HOST_RE, '<host>_');
}

/** Renumbers what a cluster generates (names, UIDs, IPs) in order of first sight; times relative to start. */
export class Normaliser {
  private readonly maps = new Map<string, Map<string, string>>();
  private readonly start: number;
  constructor(start: number) { this.start = start; }

  private id(kind: string, key: string, prefix: string): string {
    let m = this.maps.get(kind);
    if (!m) this.maps.set(kind, (m = new Map()));
    let v = m.get(key);
    if (v === undefined) m.set(key, (v = `${prefix}${m.size + 1}`));
    return v;
  }

  /** Registers a ReplicaSet's pod-template-hash (before any string that names it is normalised). */
  hash(h: string): void { this.id('hash', h, 'h'); }

  /** Seconds since the start, to 0.1 s. */
  seconds(iso: string): number { return Math.round((Date.parse(iso) - this.start) / 100) / 10; }

  /** One string with every generated part renumbered. */
  str(s: string): string {
    if (!s) return s;
    let out = s.replace(UID_RE, (u) => this.id('uid', u, 'uid-'));
    out = out.replace(ISO_RE, (t) => `T+${Math.round((Date.parse(t) - this.start) / 1000)}s`);
    const hashes = this.maps.get('hash');
    // A hash ends a line of kubectl's output as often as a string (`replicaset.apps/web-5d4b8c7f9`).
    if (hashes) for (const [h, v] of hashes) if (out.includes(h)) out = out.replace(new RegExp(`(^|[-/ "'(=\\s])${h}(?=$|[-/ "'),:.\\s])`, 'g'), `$1${v}`);
    out = out.replace(POD_RE, (_m, rs: string, suffix: string) => {
      const r = /^-h\d+$/.test(rs) ? rs : '-' + this.id('hash', rs.slice(1), 'h');
      return `${r}-${this.id('pod', suffix, 'p')}`;
    });
    out = out.replace(VOLUME_RE, (_m, x: string) => `kube-api-access-${this.id('volume', x, 'v')}`);
    out = out.replace(IP_RE, (ip) => (ip === '127.0.0.1' ? ip : this.id('ip', ip, 'ip-')));
    out = out.replace(EVENT_NAME_RE, (_m, x: string) => `.${this.id('event', x, 'e')}`);
    return volatile(out);
  }

  /** A deep copy of a JSON value with every string normalised and timestamps as seconds since start. */
  value(v: unknown): unknown {
    if (typeof v === 'string') {
      if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/.test(v)) return `T+${Math.round((Date.parse(v) - this.start) / 1000)}s`;
      return this.str(v);
    }
    if (Array.isArray(v)) return v.map((x) => this.value(x));
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[this.str(k)] = this.value(x);
      return o;
    }
    return v;
  }
}

/** An object without what changes on every write or says nothing about behaviour. */
function stripObject(o: KObj): KObj {
  const copy = JSON.parse(JSON.stringify(o)) as KObj;
  const md = (copy.metadata ?? {}) as Record<string, unknown>;
  delete md.resourceVersion;
  delete md.managedFields;
  delete md.selfLink;
  return copy;
}

/** Key of an object in a checkpoint: resource/namespace/name. */
function objectKey(resource: string, o: KObj): string {
  const md = (o.metadata ?? {}) as { namespace?: string; name?: string };
  return md.namespace ? `${resource}/${md.namespace}/${md.name}` : `${resource}/${md.name}`;
}

/** A raw run made comparable: the one normalisation both sides use. */
export function normalise(raw: RawTrace, recorded?: Record<string, string>): Trace {
  const n = new Normaliser(raw.start);
  // Hashes first, in the order their ReplicaSets were created, so h1 is the first template on both sides.
  const rsets: { t: number; hash: string }[] = [];
  for (const c of raw.checkpoints) for (const o of c.objects) {
    const md = o.metadata as { labels?: Record<string, string>; creationTimestamp?: string } | undefined;
    const h = md?.labels?.['pod-template-hash'];
    if (h && o.kind === 'ReplicaSet') rsets.push({ t: Date.parse(md?.creationTimestamp ?? '') || 0, hash: h });
  }
  rsets.sort((a, b) => a.t - b.t);
  for (const r of rsets) n.hash(r.hash);
  // Pods in the order the requests first name them (a binding, usually), as both sides log them.
  const components: Trace['components'] = {};
  const { requests, renewals } = leaderRenewals([...raw.requests].sort((a, b) => a.t - b.t), raw.steps);
  for (const r of requests) {
    const c = (components[r.component] ??= { ...(r.user ? { user: r.user } : {}), ...(r.userAgent ? { userAgent: n.str(r.userAgent) } : {}), requests: [] });
    const req: TraceRequest = { t: Math.round(r.t / 100) / 10, verb: r.verb, resource: r.resource, ...(r.subresource ? { subresource: r.subresource } : {}), code: r.code, uri: n.str(r.uri) };
    const last = c.requests[c.requests.length - 1];
    if (last && last.verb === req.verb && last.resource === req.resource && last.subresource === req.subresource && last.code === req.code) last.n = (last.n ?? 1) + 1;
    else c.requests.push(req);
  }
  const checkpoints = raw.checkpoints.map((c) => {
    const objects: Record<string, unknown> = {};
    const sorted = [...c.objects].sort((a, b) => String(a.metadata?.creationTimestamp ?? '').localeCompare(String(b.metadata?.creationTimestamp ?? '')));
    for (const o of sorted) {
      const res = resourceOfKind(String(o.kind));
      objects[n.str(objectKey(res, o))] = n.value(stripObject(o));
    }
    const events = c.events.map((e) => normEvent(n, e)).sort((a, b) => (a.object + a.reason + a.message).localeCompare(b.object + b.reason + b.message));
    return { line: c.line, t: Math.round(c.t / 100) / 10, objects, events };
  });
  const lines = (s: string) => (s ? n.str(s).replace(/\n$/, '').split('\n') : []);
  return {
    scenario: raw.scenario,
    script: raw.script,
    ...(recorded ? { recorded } : {}),
    dropped: raw.dropped,
    components,
    steps: raw.steps.map((s) => ({ line: s.line, command: s.command, t: Math.round(s.t / 100) / 10, exitCode: s.exitCode, stdout: lines(s.stdout), stderr: lines(s.stderr) })),
    checkpoints,
    ...(Object.keys(renewals).length ? { renewals } : {}),
    transitions: raw.transitions.map((x) => ({ ...x, t: Math.round(x.t / 100) / 10, subject: n.str(x.subject), what: n.str(x.what) })),
  };
}

/**
 * The leader Leases' renewals taken out of the requests (in time order) and counted per component and
 * line. A renewal is client-go's fast path, a PUT of the Lease in memory right after the last write
 * (tryAcquireOrRenew as leader) or the first one seen; a PUT after a GET (taking the Lease over, handing it back, a renewal
 * whose fast path failed) stays a request, compared in order with the GETs and POSTs around it.
 */
export function leaderRenewals(requests: RawRequest[], steps: Pick<RawStep, 'line' | 't'>[]): { requests: RawRequest[]; renewals: Record<string, Record<string, number>> } {
  const last = new Map<string, string>();
  const renewals: Record<string, Record<string, number>> = {};
  const kept: RawRequest[] = [];
  for (const r of requests) {
    const leader = r.resource === 'leases' && r.namespace === LEADER_LEASE_NAMESPACE && (LEADER_LEASES as readonly string[]).includes(r.name ?? '');
    if (!leader) { kept.push(r); continue; }
    const key = `${r.component}|${r.name}`;
    const prev = last.get(key);
    last.set(key, r.verb);
    // No request before it: the Lease was taken before t=0 (the cluster's start-up), so a renewal.
    if (r.verb === 'update' && r.code === 200 && prev !== 'get') {
      const line = String([...steps].reverse().find((s) => s.t <= r.t)?.line ?? 0);
      const c = (renewals[r.component] ??= {});
      c[line] = (c[line] ?? 0) + 1;
    } else kept.push(r);
  }
  return { requests: kept, renewals };
}

function normEvent(n: Normaliser, e: KObj): NormEvent {
  const io = (e.involvedObject ?? {}) as { kind?: string; name?: string };
  const src = (e.source ?? {}) as { component?: string };
  return {
    object: n.str(`${io.kind}/${io.name}`),
    reason: String(e.reason ?? ''),
    message: n.str(String(e.message ?? '')),
    type: String(e.type ?? ''),
    count: Number(e.count ?? (e.series as { count?: number } | undefined)?.count ?? 1),
    source: String(src.component || e.reportingComponent || ''),
  };
}

/** The resource (plural) of a kind among the checkpoint's. */
function resourceOfKind(kind: string): string {
  switch (kind) {
    case 'Deployment': return 'deployments';
    case 'ReplicaSet': return 'replicasets';
    case 'Pod': return 'pods';
    case 'Node': return 'nodes';
    case 'Service': return 'services';
    case 'EndpointSlice': return 'endpointslices';
    default: return kind.toLowerCase() + 's';
  }
}

/** Node and pod changes between two observations of the same object (for the transitions list). */
export function transitionsOf(prev: KObj | undefined, cur: KObj | undefined, kind: 'node' | 'pod' | 'lease'): string[] {
  const out: string[] = [];
  if (kind === 'lease') {
    // A leader Lease changes hands: a new holder took it, or the leader handed it back (ReleaseOnCancel).
    const holder = (o?: KObj) => (o?.spec as { holderIdentity?: string } | undefined)?.holderIdentity ?? '';
    if (cur && holder(prev) !== holder(cur)) out.push(holder(cur) ? 'acquired' : 'released');
    return out;
  }
  if (kind === 'node') {
    const cond = (o?: KObj) => ((o?.status as { conditions?: { type: string; status: string }[] })?.conditions ?? []).find((c) => c.type === 'Ready')?.status;
    const taints = (o?: KObj) => ((o?.spec as { taints?: { key: string; effect: string }[] })?.taints ?? []).map((t) => `${t.key}:${t.effect}`);
    const a = cond(prev); const b = cond(cur);
    if (b !== undefined && a !== b) out.push(`Ready=${b}`);
    const ta = new Set(taints(prev)); const tb = new Set(taints(cur));
    for (const t of tb) if (!ta.has(t)) out.push(`taint+ ${t}`);
    for (const t of ta) if (!tb.has(t)) out.push(`taint- ${t}`);
    return out;
  }
  const md = (o?: KObj) => (o?.metadata ?? {}) as { deletionTimestamp?: string };
  const spec = (o?: KObj) => (o?.spec ?? {}) as { nodeName?: string };
  if (cur && !prev) out.push('created');
  if (!md(prev).deletionTimestamp && md(cur).deletionTimestamp) out.push('deleting');
  if (!spec(prev).nodeName && spec(cur).nodeName) out.push('bound');
  // A deletion faster than the observer (a sample a second in the simulator) still began.
  if (prev && !cur) out.push(...(md(prev).deletionTimestamp ? [] : ['deleting']), 'deleted');
  return out;
}
