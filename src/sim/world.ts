// The world: all state as plain data, the component registry (behaviour by name), the event loop,
// inputs, snapshots and replay.
import { clonePlain } from './clone.ts';
import { createQueue, peek, pop, push, removeWhere, type EventQueue, type QueueEntry } from './clock.ts';
import {
  API_SERVER,
  breakAllWatches,
  breakWatchesOf,
  COMPACTION_INTERVAL_MS,
  compactTick,
  createApiServerState,
  createStore,
  extendEventLeases,
  handleRequest,
  KUBERNETES_SERVICE_INTERVAL_MS,
  leaveWatch,
  newApiServerConfig,
  openWatch,
  revokeEventLease,
  storeGet,
  SYSTEM_PRIORITY_CLASS_OBJECTS,
  watchSubscribers,
  type ApiFaults,
  type ApiHost,
  type ApiServerConfig,
  type ApiServerState,
  type ApiServerTimer,
  type StoreState,
} from './apiserver/index.ts';
import type { ApiRequest, ApiResult, ObjectList, RequestOptions } from './api/request.ts';
import { keyOf, logObjectName, type ResourceName, type ResourceTypes } from './api/resources.ts';
import type { WatchNotification, WatchOptions } from './api/watch.ts';
import { fnv1a32, hashJSON } from './util/names.ts';
import {
  appendBuiltRecord,
  appendRecord,
  noteCauses,
  trimCauses,
  type CauseLog,
  type RequestLog,
  type RequestRecord,
} from './request-log.ts';
import { bindRng, createRng, type Rng, type RngState } from './rng.ts';
import type { KObject } from './api/request.ts';
import {
  newTokenBucket,
  reserve,
  tokenDelay,
  tryAccept,
  type RateLimit,
  type TokenBucket,
} from './client-go/flowcontrol.ts';

/** One component instance's entry in the world. */
interface ComponentEntry {
  type: string;
  state: unknown;
  /** Who it authenticates as (defaults to its name: `scheduler`, `kubelet/node-1`). */
  identity?: string;
  reactionMs?: [number, number];
  params?: unknown;
  /** The process it runs in: components of one process share their watches (see AddComponentOptions). */
  process?: string;
  /** The generator its requests draw from when it has one of its own (AddComponentOptions.ownRng). */
  rng?: RngState;
  /** Its client's token bucket (ComponentDef.clientLimit), from its first throttled request on. */
  client?: TokenBucket;
}

/** An external input (kubectl request, fault, added component, injected event) with when it happened. */
export type Input =
  | { kind: 'request'; t: number; step: number; component: string; request: ApiRequest }
  | { kind: 'fault'; t: number; step: number; fault: FaultInput }
  | { kind: 'add-component'; t: number; step: number; name: string; type: string; opts: AddComponentOptions }
  | { kind: 'event'; t: number; step: number; target: string; event: unknown }
  | { kind: 'remove-component'; t: number; step: number; name: string };

/** Options of a component instance. */
export interface AddComponentOptions {
  params?: unknown;
  /** Watch reaction delay [min, max] ms (default [1, 3]). */
  reactionMs?: [number, number];
  /** Identity for authentication, when not the instance name. */
  identity?: string;
  /**
   * The process it runs in (`kube-controller-manager`): like client-go's shared informer factory,
   * the components of one process read one watch per resource and selector, so each change is one
   * notification to the process, handed to every reader in turn.
   */
  process?: string;
  /**
   * Its requests draw (the uids of what it creates) from a generator of its own, seeded from the
   * world's seed and its name, as the API server's bootstrap objects do: a process every cluster
   * runs (a leader elector) then moves none of the generated names the chapters quote.
   */
  ownRng?: boolean;
}

/** Faults that can be switched on and off. */
export type FaultInput =
  | { type: 'apiserver-down' }
  | { type: 'apiserver-up' }
  | { type: 'etcd-down' }
  | { type: 'etcd-up' }
  | { type: 'etcd-full' }
  | { type: 'etcd-space-freed' }
  | { type: 'api-latency'; ms: number }
  /** One component (a kubelet) cut off from the control plane, and back. */
  | { type: 'partition'; component: string }
  | { type: 'heal'; component: string }
  /** The image registry loses an image (pulls fail with NotFound), and gets it back. */
  | { type: 'image-missing'; image: string }
  | { type: 'image-available'; image: string };

/** The whole world as plain data. */
export interface WorldState extends ApiHost {
  seed: number;
  /** Client QPS and burst by component type where they differ from its default (WorldOptions.clientLimits). */
  clientLimits?: Record<string, RateLimit>;
  now: number;
  /** Events processed so far (positions inputs exactly for replay). */
  steps: number;
  queue: EventQueue<unknown>;
  rng: RngState;
  store: StoreState;
  apiServer: ApiServerState;
  log: RequestLog;
  /**
   * The most records the log keeps (the oldest go first, a quarter of the limit at a time), so a
   * figure left running, or a thousand-node cluster, does not grow without end; 0 keeps everything.
   */
  logLimit?: number;
  /** Records dropped from the front of the log so far (their count, for positions in the whole log). */
  logDropped?: number;
  /**
   * Which watch notification woke the sync that sent each record, for the records that have one
   * (CauseLog; set through Ctx.cause). Absent until the first such record; trimmed with the log.
   */
  causes?: CauseLog;
  components: Record<string, ComponentEntry>;
  inputs: Input[];
  /** The image registry the nodes pull from: images it does not have (as written in the fault). */
  registry?: { missing: string[] };
}

/** A typed API client bound to one identity (results typed by resource via ResourceTypes). */
interface ApiClient {
  /** GET one object (subresource `scale` returns an autoscaling/v1 Scale). */
  get<R extends ResourceName>(
    resource: R,
    namespace: string | undefined,
    name: string,
    subresource?: string,
  ): ApiResult<ResourceTypes[R]>;
  /** GET a list (namespace undefined = all namespaces); `metadata.resourceVersion` is the store revision. */
  list<R extends ResourceName>(
    resource: R,
    namespace?: string,
    options?: RequestOptions,
  ): ApiResult<ObjectList<ResourceTypes[R]>>;
  /** POST (metadata.generateName honoured). */
  create<R extends ResourceName>(
    resource: R,
    obj: ResourceTypes[R],
    namespace?: string,
    options?: RequestOptions,
  ): ApiResult<ResourceTypes[R]>;
  /** PUT; a stale metadata.resourceVersion gets 409. Subresource `status` writes only status. */
  update<R extends ResourceName>(resource: R, obj: ResourceTypes[R], subresource?: string): ApiResult<ResourceTypes[R]>;
  /** PATCH (strategic merge by default; `options.patchType: 'merge'` for RFC 7386). */
  patch<R extends ResourceName>(
    resource: R,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    subresource?: string,
    options?: RequestOptions,
  ): ApiResult<ResourceTypes[R]>;
  /** DELETE (pods: graceful unless gracePeriodSeconds 0). */
  delete<R extends ResourceName>(
    resource: R,
    namespace: string | undefined,
    name: string,
    options?: RequestOptions,
  ): ApiResult<ResourceTypes[R]>;
  /** POST pods/{name}/binding. */
  bind(namespace: string, pod: string, node: string): ApiResult<unknown>;
  /** Any request, untyped. */
  request(req: ApiRequest): ApiResult<unknown>;
}

/**
 * The part of a component's context that an API client uses: requests, watches, timers, the log and
 * its rate limiter, but not the component's state. client-go's helpers (informers, work queues,
 * event recorders, leader election) take this, so a Ctx<S> of any S passes as one without a cast,
 * and a helper cannot read or replace the state of the component it serves.
 */
export interface ClientCtx {
  readonly now: number;
  readonly name: string;
  /** Its own seeded random source (client-go's jitter, uids a process makes). */
  rng: Rng;
  api: ApiClient;
  /** Open a watch; notifications arrive as `{type:'watch', watchId, eventType, object, revision}` events. */
  watch(resource: ResourceName, opts?: WatchOptions): ApiResult<{ watchId: string; resourceVersion: string }>;
  stopWatch(watchId: string): void;
  /** Queue `event` to this component after `delayMs` (recurring = a heartbeat-like timer). */
  schedule(delayMs: number, event: unknown, opts?: { recurring?: boolean; target?: string }): void;
  /** Append a record (CRI calls etc.) to the request log; `component` defaults to this instance (a kubelet logs its runtime's calls as `containerd/<node>`). */
  log(rec: Omit<RequestRecord, 't' | 'component'> & { component?: string }): void;
  /**
   * The log position of the watch notification being handed to this component right now, while its
   * informers' handlers run; undefined for any other event (a timer, a resync, an input).
   */
  readonly notification?: number;
  /**
   * The notification that woke the sync under way (a position, as `notification` gives it): the
   * records this component's requests and CRI calls append meanwhile are noted as caused by it
   * (WorldState.causes). A sync sets it and clears it; the world clears it after every event.
   */
  cause?: number;
  /**
   * Client-side rate limiting: take a token of this component's client (0), or, when the bucket is
   * empty, return the ms until one is there and take nothing; the caller sends that request then, so
   * its requests keep their order. With `reserve`, the token is always taken (the bucket goes into
   * debt, as rate.Limiter.Reserve does) and the wait is only reported: for the second request of a
   * pair already under way. Always 0 for a component without a clientLimit.
   */
  throttle(reserve?: boolean): number;
}

/** What a component's handler gets: its client, its own state, and what its process sees of the machine. */
export interface Ctx<S = unknown> extends ClientCtx {
  /** This component's own slice of state (mutate in place; it is plain data). */
  state: S;
  /** The instance's creation parameters. */
  params: unknown;
  /**
   * Every instance's entry, read only: what one machine's kernel shares between its processes (the
   * pod network reads the kubelets' sandboxes and kube-proxy's last rules). Never for API objects:
   * those are read through `api`.
   */
  readonly components?: Readonly<Record<string, ComponentEntry>>;
  /** The image registry as the nodes see it (images it does not have). */
  readonly registry?: { readonly missing: readonly string[] };
  /**
   * Start or stop another instance, as a process starts its own loops (a leader elector its
   * controllers once it leads). Not inputs: the same events start them again on replay.
   */
  start(name: string, type: string, opts?: AddComponentOptions): void;
  stop(name: string): void;
  /** The optional parts this world has loaded (WorldParts): behaviour, never state. */
  readonly parts?: Readonly<WorldParts>;
}

/**
 * Parts of the core a world runs only once something needs them, each a chunk of its own that is
 * registered here before the first input that can need it (so a replay, a step back or a link gives
 * the same bytes whether it came early or late): behaviour, like the API server's configuration,
 * so neither a snapshot nor a replay carries it. Each part declares its own slot from its module
 * (`declare module '../world.ts'`), so the world names no part: `preemption` is scheduler/preemption.ts'.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the parts' own declarations
export interface WorldParts {}

/**
 * A component's behaviour: registered once by type, instantiated by name. `E` is the union of the
 * events it is sent (its own timers, its informers' and queues'), so `handle` narrows on `type`.
 */
export interface ComponentDef<S = unknown, E = unknown> {
  name: string;
  /** Identity for instances of this type, from the instance name (default: the instance name). */
  identity?(instance: string): string;
  init?(ctx: Ctx<S>): S | void;
  handle(event: E, ctx: Ctx<S>): void;
  /** Its process is asked to terminate (a recorded remove): the requests it sends before it goes. */
  stop?(ctx: Ctx<S>): void;
  /** Its API client's QPS and burst (client-go's token bucket; see Ctx.throttle). */
  clientLimit?: RateLimit;
  /** The node a process of this type runs on (from its params): a node's power-off and power-on reach it too. */
  nodeOf?(params: unknown): string | undefined;
}

/**
 * A ComponentDef of whatever state type, as the world's registry holds it: the world hands each def
 * only contexts of its own instances, whose state that def's init made, so a def's S never meets
 * another's (and E names what its instances are sent). TypeScript has no existential types;
 * ComponentDef's methods (method syntax, so their parameters are bivariant) let a ComponentDef<S, E>
 * of any S and E be stored as this without a cast.
 */
export type AnyComponentDef = ComponentDef<unknown, unknown>;

/** Options of a new world. */
export interface WorldOptions {
  seed?: number;
  /** Deep-freeze stored objects (default: only under a test runner, see FREEZE_BY_DEFAULT). */
  freeze?: boolean;
  apiLatencyMs?: number;
  /** Create the system namespaces (default, kube-system, kube-public, kube-node-lease) as the API server does at start (default true). */
  bootstrap?: boolean;
  /** Request-log records kept (default DEFAULT_LOG_LIMIT; 0 keeps every record). */
  logLimit?: number;
  /**
   * A component type's client QPS and burst in place of its ComponentDef.clientLimit, as
   * --kube-api-qps/--kube-api-burst set them (scale tests raise the controller manager's).
   */
  clientLimits?: Record<string, RateLimit>;
  /** kube-system ServiceAccounts the cluster's add-ons run as (kubeadm's addon phase made them before t=0; ClusterAddon.serviceAccounts). */
  serviceAccounts?: readonly string[];
}

/** Records the request log keeps by default: hours of a small cluster's traffic, about 30 MB. */
export const DEFAULT_LOG_LIMIT = 200_000;

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
/**
 * Whether stored objects are deep-frozen when WorldOptions.freeze is not given: under vitest (or
 * NODE_ENV=test), where it catches a component mutating a shared object; elsewhere freezing every
 * write is pure cost, since the tests already prove nothing mutates.
 */
export const FREEZE_BY_DEFAULT = !!(env?.VITEST || env?.NODE_ENV === 'test');

/** Namespaces the API server's bootstrap controller creates. */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** What `step()` did. */
interface StepResult {
  at: number;
  target: string;
  event: unknown;
}

/** An empty world state. */
function createWorldState(opts: WorldOptions = {}, apiConfig: ApiServerConfig = newApiServerConfig()): WorldState {
  const seed = opts.seed ?? 1;
  const w: WorldState = {
    seed,
    now: 0,
    steps: 0,
    queue: createQueue(),
    rng: createRng(seed),
    store: createStore(opts.freeze ?? FREEZE_BY_DEFAULT),
    apiServer: createApiServerState(opts.apiLatencyMs ?? 1, seed),
    log: [],
    components: {},
    inputs: [],
  };
  const limit = opts.logLimit ?? DEFAULT_LOG_LIMIT;
  if (limit > 0) w.logLimit = limit;
  if (opts.clientLimits) w.clientLimits = { ...opts.clientLimits };
  push(w.queue, COMPACTION_INTERVAL_MS, API_SERVER, { type: 'compact' }, true);
  if (opts.bootstrap ?? true) {
    for (const ns of SYSTEM_NAMESPACES)
      handleRequest(w, apiConfig, API_SERVER, {
        verb: 'create',
        resource: 'namespaces',
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      });
    // The API server's bootstrap controller: the `kubernetes` Service on the first address of the
    // service range, and its endpoint reconciler's EndpointSlice (the API server's own address).
    // Their uids come from a stream of their own (seeded from the world's seed), so the world's
    // generator — every name and tie-break after them — draws exactly as before.
    const main = w.rng;
    w.rng = createRng(seed ^ 0x6b756265);
    handleRequest(w, apiConfig, API_SERVER, {
      verb: 'create',
      resource: 'services',
      namespace: 'default',
      body: KUBERNETES_SERVICE,
    });
    handleRequest(w, apiConfig, API_SERVER, {
      verb: 'create',
      resource: 'endpointslices',
      namespace: 'default',
      body: KUBERNETES_ENDPOINTS,
    });
    // The scheduling/bootstrap-system-priority-classes post-start hook.
    for (const pc of SYSTEM_PRIORITY_CLASS_OBJECTS)
      handleRequest(w, apiConfig, API_SERVER, { verb: 'create', resource: 'priorityclasses', body: pc });
    // What the controller manager's serviceaccount controller and root-CA publisher have made in each
    // of them before a real cluster's t=0 (their own code is in kubectl's chunk: only kubectl makes a namespace).
    for (const namespace of SYSTEM_NAMESPACES) {
      handleRequest(w, apiConfig, API_SERVER, {
        verb: 'create',
        resource: 'serviceaccounts',
        namespace,
        body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } },
      });
      handleRequest(w, apiConfig, API_SERVER, {
        verb: 'create',
        resource: 'configmaps',
        namespace,
        body: ROOT_CA_CONFIG_MAP,
      });
    }
    for (const name of opts.serviceAccounts ?? [])
      handleRequest(w, apiConfig, API_SERVER, {
        verb: 'create',
        resource: 'serviceaccounts',
        namespace: 'kube-system',
        body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
      });
    w.rng = main;
  }
  return w;
}

/** The cluster's CA as the root-CA publisher reads it (--root-ca-file): PEM-shaped, not a real certificate. */
const ROOT_CA_CERT =
  '-----BEGIN CERTIFICATE-----\nZGVzaXJlZC1zdGF0ZSBzaW11bGF0ZWQgY2x1c3RlciBDQQ==\n-----END CERTIFICATE-----\n';

/** kube-root-ca.crt as the root-CA publisher creates it in every namespace. */
export const ROOT_CA_CONFIG_MAP = {
  apiVersion: 'v1' as const,
  kind: 'ConfigMap' as const,
  metadata: {
    name: 'kube-root-ca.crt',
    annotations: {
      'kubernetes.io/description':
        'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
    },
  },
  data: { 'ca.crt': ROOT_CA_CERT },
};

/** default/kubernetes as the API server creates it (10.96.0.1: the first address of 10.96.0.0/12). */
const KUBERNETES_SERVICE = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
  spec: {
    clusterIP: '10.96.0.1',
    clusterIPs: ['10.96.0.1'],
    ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
    type: 'ClusterIP',
    sessionAffinity: 'None',
  },
};

/**
 * The bootstrap controller's pass (UpdateKubernetesService): default/kubernetes made again if it is
 * gone; while the API server is down, the pass after it is back.
 */
function reconcileKubernetesService(w: WorldState, apiConfig: ApiServerConfig): void {
  if (w.apiServer.faults.apiServerDown) {
    push(
      w.queue,
      w.now + KUBERNETES_SERVICE_INTERVAL_MS,
      API_SERVER,
      { type: 'kubernetes-service' } satisfies ApiServerTimer,
      true,
    );
    return;
  }
  if (storeGet(w.store, 'services', keyOf({ resource: 'services', namespace: 'default', name: 'kubernetes' }))) return;
  handleRequest(w, apiConfig, API_SERVER, {
    verb: 'create',
    resource: 'services',
    namespace: 'default',
    body: KUBERNETES_SERVICE,
  });
}

/** The API server's address on the node network (the kubeadm control-plane node's InternalIP). */
const API_SERVER_ADDRESS = '10.0.0.10';

/** The EndpointSlice of default/kubernetes, as the API server's endpoint reconciler writes it. */
const KUBERNETES_ENDPOINTS = {
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
  addressType: 'IPv4',
  endpoints: [{ addresses: [API_SERVER_ADDRESS], conditions: { ready: true } }],
  ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
};

/** A running world: the state plus the registry of behaviours. */
export class World {
  state: WorldState;
  readonly defs: Map<string, AnyComponentDef>;
  /** This world's API server: its admission chain, validators, identities and kubelet client (behaviour, not state). */
  readonly apiConfig: ApiServerConfig;
  /** The optional parts registered on this world (kubectl's chunk, an add-on or a figure's options bring them). */
  readonly parts: WorldParts = {};

  /**
   * `apiConfig` is the API server's configuration, or a function making it for this world (a
   * cluster's kubelet client reads the world it belongs to); by default a bare API server.
   */
  constructor(
    opts: WorldOptions = {},
    defs: AnyComponentDef[] = [],
    apiConfig: ApiServerConfig | ((world: World) => ApiServerConfig) = newApiServerConfig(),
  ) {
    this.defs = new Map(defs.map((d) => [d.name, d]));
    this.apiConfig = typeof apiConfig === 'function' ? apiConfig(this) : apiConfig;
    this.state = createWorldState(opts, this.apiConfig);
  }

  /** Register a behaviour (not state: it is not recorded). */
  define(def: AnyComponentDef): this {
    this.defs.set(def.name, def);
    this.handlers.clear();
    return this;
  }

  /** Current simulated ms. */
  get now(): number {
    return this.state.now;
  }

  /** Inputs are cloned once on entry: the recorded copy is also what the API server stores from. */
  private record(input: Input): void {
    this.state.inputs.push(input);
  }

  /** Add a component instance (an input: recorded) and run its init. */
  addComponent(name: string, type: string, opts: AddComponentOptions = {}): void {
    this.record({
      kind: 'add-component',
      t: this.state.now,
      step: this.state.steps,
      name,
      type,
      opts: clonePlain(opts),
    });
    this.startComponent(name, type, opts);
  }

  /** Start an instance without recording it: an input, or a component starting another (ctx.start). */
  private startComponent(name: string, type: string, opts: AddComponentOptions): void {
    const def = this.defs.get(type);
    if (!def) throw new Error(`unknown component type ${type}`);
    const entry: ComponentEntry = { type, state: {} };
    if (opts.params !== undefined) entry.params = opts.params;
    if (opts.reactionMs) entry.reactionMs = opts.reactionMs;
    if (opts.process) entry.process = opts.process;
    if (opts.ownRng) entry.rng = createRng(this.state.seed ^ fnv1a32(name));
    const identity = opts.identity ?? def.identity?.(name);
    if (identity && identity !== name) entry.identity = identity;
    this.state.components[name] = entry;
    this.ctxCache.delete(name);
    if (def.init) {
      const ctx = this.ctx(name);
      const s = def.init(ctx);
      if (s !== undefined) entry.state = s;
    }
  }

  /**
   * Remove a component instance (a process stopping; recorded as input): its watches close and its
   * queued events are dropped, so an instance added later under the same name starts fresh.
   */
  removeComponent(name: string): void {
    if (!this.state.components[name]) return;
    this.record({ kind: 'remove-component', t: this.state.now, step: this.state.steps, name });
    // Asked to terminate (SIGTERM): its last words first (a leader elector releasing its Lease).
    this.defs.get(this.state.components[name].type)?.stop?.(this.ctx(name));
    this.stopComponent(name);
  }

  /** Tear an instance down without recording it: an input, or a component stopping another (ctx.stop). */
  private stopComponent(name: string): void {
    if (!this.state.components[name]) return;
    for (const [id, w] of Object.entries(this.state.apiServer.watchers))
      if (watchSubscribers(w).includes(name)) leaveWatch(this.state, id, name);
    removeWhere(this.state.queue, (e) => e.target === name);
    delete this.state.components[name];
    this.ctxCache.delete(name);
    this.handlers.delete(name);
  }

  /** A request by an external client (kubectl by default): recorded as input, answered at once. */
  kubectl(request: ApiRequest, component = 'kubectl'): ApiResult<unknown> {
    const req = clonePlain(request);
    this.record({ kind: 'request', t: this.state.now, step: this.state.steps, component, request: req });
    return handleRequest(this.state, this.apiConfig, component, req);
  }

  /**
   * Make a recorded input again, at its time (the clock moves on to it when behind): the one way a
   * replay, a timeline's replay and its recording apply inputs. It is recorded anew, as live inputs are.
   */
  applyInput(inp: Input): void {
    if (inp.t > this.state.now) this.state.now = inp.t;
    switch (inp.kind) {
      case 'request':
        this.kubectl(inp.request, inp.component);
        break;
      case 'fault':
        this.fault(inp.fault);
        break;
      case 'add-component':
        this.addComponent(inp.name, inp.type, inp.opts);
        break;
      case 'event':
        this.inject(inp.target, inp.event);
        break;
      case 'remove-component':
        this.removeComponent(inp.name);
        break;
    }
  }

  /** Switch a fault on or off (recorded as input). */
  fault(fault: FaultInput): void {
    this.record({ kind: 'fault', t: this.state.now, step: this.state.steps, fault: { ...fault } });
    applyFault(this.state, fault);
  }

  /** Inject an external event to a component (e.g. a container crash); recorded as input. */
  inject(target: string, event: unknown): void {
    const ev = clonePlain(event);
    this.record({ kind: 'event', t: this.state.now, step: this.state.steps, target, event: ev });
    push(this.state.queue, this.state.now, target, ev);
    // A machine's power reaches every process on it: the kubelet's, then (in the order they were
    // added) each component whose type says it runs on that node (kube-proxy's, an add-on's).
    const type = (ev as { type?: string } | null)?.type;
    if ((type === 'power-off' || type === 'power-on') && target.startsWith('kubelet/')) {
      for (const [name, e] of Object.entries(this.state.components)) {
        if (name !== target && this.defs.get(e.type)?.nodeOf?.(e.params) === target.slice(8))
          push(this.state.queue, this.state.now, name, clonePlain(ev));
      }
    }
  }

  private ctxCache = new Map<string, { state: WorldState; ctx: Ctx<unknown> }>();
  /** The position of the watch notification being delivered (Ctx.notification); not state: it lasts one dispatch. */
  private notifying: number | undefined;
  /** The cause of the sync under way (Ctx.cause); not state: cleared after every event. */
  private causing: number | undefined;

  /** Note the records appended since position `from` as caused by the sync under way, if it has a cause. */
  private noteCaused(from: number): void {
    const cause = this.causing;
    if (cause === undefined) return;
    const w = this.state;
    const to = logCount(w);
    if (to > from) noteCauses((w.causes ??= []), from, to, cause);
  }

  /** The context a component's handler sees (cached per component; rebuilt after restore). */
  ctx<S = unknown>(name: string): Ctx<S> {
    const c = this.ctxCache.get(name);
    if (c && c.state === this.state && this.state.components[name]) return c.ctx as Ctx<S>;
    const ctx = this.makeCtx<S>(name);
    if (this.state.components[name]) this.ctxCache.set(name, { state: this.state, ctx });
    return ctx;
  }

  private makeCtx<S>(name: string): Ctx<S> {
    const w = this.state;
    const entry = w.components[name];
    const identity = entry?.identity ?? name;
    const config = this.apiConfig;
    const send = (r: ApiRequest) => {
      const own = (entry ?? w.components[name])?.rng;
      if (!own) return handleRequest(w, config, name, r, identity);
      const main = w.rng;
      w.rng = own;
      try {
        return handleRequest(w, config, name, r, identity);
      } finally {
        w.rng = main;
      }
    };
    const req = (r: ApiRequest) => {
      if (this.causing === undefined) return send(r);
      const from = logCount(w);
      const res = send(r);
      this.noteCaused(from);
      return res;
    };
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the context's accessors are object-literal getters with their own `this`
    const world = this;
    const api: ApiClient = {
      get: (resource, namespace, n, subresource) =>
        req({ verb: 'get', resource, namespace, name: n, subresource }) as never,
      list: (resource, namespace, options) => req({ verb: 'list', resource, namespace, options }) as never,
      create: (resource, obj, namespace, options) =>
        req({
          verb: 'create',
          resource,
          namespace: namespace ?? (obj as KObject).metadata?.namespace,
          body: obj,
          options,
        }) as never,
      update: (resource, obj, subresource) =>
        req({
          verb: 'update',
          resource,
          namespace: (obj as KObject).metadata?.namespace,
          name: (obj as KObject).metadata?.name,
          subresource,
          body: obj,
        }) as never,
      patch: (resource, namespace, n, patch, subresource, options) =>
        req({ verb: 'patch', resource, namespace, name: n, subresource, body: patch, options }) as never,
      delete: (resource, namespace, n, options) =>
        req({ verb: 'delete', resource, namespace, name: n, options }) as never,
      bind: (namespace, pod, node) =>
        req({
          verb: 'create',
          resource: 'pods',
          namespace,
          name: pod,
          subresource: 'binding',
          body: {
            apiVersion: 'v1',
            kind: 'Binding',
            metadata: { name: pod, namespace },
            target: { apiVersion: 'v1', kind: 'Node', name: node },
          },
        }),
      request: req,
    };
    return {
      get now() {
        return w.now;
      },
      get components() {
        return w.components;
      },
      parts: this.parts,
      name,
      rng: bindRng(w.rng),
      api,
      watch: (resource, opts) => openWatch(w, config, name, resource, opts, identity),
      stopWatch: (id) => leaveWatch(w, id, name),
      schedule: (delayMs, event, opts) => {
        push(w.queue, w.now + delayMs, opts?.target ?? name, event, opts?.recurring ?? false);
      },
      // Read on nearly every handler call: the entry this context was made for (a new entry under the
      // name, or a restored world, gets a new context), not a lookup among every component's name.
      get state() {
        return (entry ?? w.components[name])?.state as S;
      },
      set state(s: S) {
        (entry ?? w.components[name]).state = s;
      },
      get params() {
        return (entry ?? w.components[name])?.params;
      },
      log: (rec) => {
        const from = logCount(w);
        appendLogRecord(w, rec, name);
        this.noteCaused(from);
      },
      get notification() {
        return world.notifying;
      },
      get cause() {
        return world.causing;
      },
      set cause(seq: number | undefined) {
        world.causing = seq;
      },
      get registry() {
        return w.registry ?? { missing: [] };
      },
      start: (n, type, opts) => this.startComponent(n, type, opts ?? {}),
      stop: (n) => this.stopComponent(n),
      throttle: (debt) => {
        const limit = (entry && w.clientLimits?.[entry.type]) ?? this.defs.get(entry?.type ?? '')?.clientLimit;
        if (!limit || !entry) return 0;
        const b = (entry.client ??= newTokenBucket(limit, w.now));
        if (debt) return reserve(b, limit, w.now);
        return tryAccept(b, limit, w.now) ? 0 : tokenDelay(b, limit, w.now);
      },
    };
  }

  /** Process the next event; undefined when the queue is empty. */
  step(): StepResult | undefined {
    const e = this.next();
    return e && { at: e.at, target: e.target, event: e.event };
  }

  /** Process the next event and return its queue entry (no result object: the loops below run millions). */
  next(): QueueEntry<unknown> | undefined {
    const w = this.state;
    const e = pop(w.queue);
    if (!e) return undefined;
    w.now = Math.max(w.now, e.at);
    w.steps++;
    this.dispatch(e);
    this.causing = undefined;
    if (w.logLimit && w.log.length > w.logLimit + (w.logLimit >> 2)) trimLog(w);
    return e;
  }

  private dispatch(e: QueueEntry<unknown>): void {
    const w = this.state;
    if (e.target === API_SERVER) {
      const t = e.event as ApiServerTimer;
      if (t.type === 'lease-revoke') {
        revokeEventLease(w, t.id);
        return;
      }
      if (t.type === 'kubernetes-service') {
        reconcileKubernetesService(w, this.apiConfig);
        return;
      }
      if (t.type === 'start') {
        this.startController(t.name, t.ownRng);
        return;
      }
      compactTick(w);
      push(w.queue, w.now + COMPACTION_INTERVAL_MS, API_SERVER, { type: 'compact' }, true);
      return;
    }
    const ev = e.event as { type?: string };
    if (ev?.type === 'watch') {
      const n = ev as WatchNotification;
      // A notification in flight on a watch that has since closed is lost, as on a dropped connection.
      const watcher = w.apiServer.watchers[n.watchId];
      if (!watcher) return;
      // Every version of an object, to every watcher, shares one name string.
      const o = n.object.metadata;
      const object = logObjectName(watcher.resource, o?.namespace || undefined, `${o?.name}`);
      const node = (n.object.spec as { nodeName?: string } | undefined)?.nodeName;
      // Built without undefined fields (appendRecord would copy it to drop them); same key order. One
      // literal per shape: a field added later would live outside the object (an extra allocation).
      const rec: RequestRecord =
        node === undefined
          ? {
              t: w.now,
              component: e.target,
              kind: 'watch',
              verb: 'WATCH',
              path: '',
              watcher: n.watchId,
              event: n.eventType,
              object,
              revision: n.revision,
              code: 200,
            }
          : {
              t: w.now,
              component: e.target,
              kind: 'watch',
              verb: 'WATCH',
              path: '',
              watcher: n.watchId,
              event: n.eventType,
              object,
              revision: n.revision,
              code: 200,
              node,
            };
      // Its strings are shared already (the object's name is made once for all its watchers).
      appendBuiltRecord(w.log, rec);
      // The handlers that run now were woken by this record: what they queue remembers it (Ctx.notification).
      this.notifying = logCount(w) - 1;
      try {
        if (watcher.subscribers) {
          // A shared watch: the process's informer hands the one notification to each reader in turn.
          watcher.dispatched!++;
          for (const name of watcher.subscribers) {
            // join/leave replace the array, so no copy is needed
            if (w.apiServer.watchers[n.watchId]) this.deliverTo(name, e.event);
          }
          return;
        }
        this.deliverTo(e.target, e.event);
      } finally {
        this.notifying = undefined;
      }
      return;
    }
    this.deliverTo(e.target, e.event);
  }

  /**
   * A controller of kubectl's chunk, started in the controller manager's process (if that process runs
   * its loops) by the first request that needs it: the namespace controller by a namespace's first
   * DELETE, the disruption controller by the first PodDisruptionBudget or eviction. (The real ones run
   * from the controller manager's start; only kubectl's requests can give them work.)
   */
  private startController(name: string, ownRng?: boolean): void {
    const gc = this.state.components['garbage-collector'];
    if (gc && !this.state.components[name] && this.defs.has(name))
      this.startComponent(name, name, gc.process ? { process: gc.process, ...(ownRng && { ownRng }) } : {});
  }

  // Per component: its entry, behaviour and context, found with one lookup per event (rebuilt when
  // the state is restored or the component replaced, and dropped when a behaviour is redefined).
  private handlers = new Map<
    string,
    { state: WorldState; entry: ComponentEntry; def: AnyComponentDef | undefined; ctx: Ctx<unknown> }
  >();

  private deliverTo(name: string, event: unknown): void {
    const w = this.state;
    const entry = w.components[name];
    if (!entry) return;
    let h = this.handlers.get(name);
    if (!h || h.state !== w || h.entry !== entry) {
      h = { state: w, entry, def: this.defs.get(entry.type), ctx: this.ctx(name) };
      this.handlers.set(name, h);
    }
    h.def?.handle(event, h.ctx);
  }

  /** Process every event with at ≤ t, then set the clock to t. */
  runUntil(t: number): void {
    const w = this.state;
    for (let e = peek(w.queue); e && e.at <= t; e = peek(w.queue)) this.next();
    if (t > w.now) w.now = t;
  }

  /** Advance the clock by ms. */
  advance(ms: number): void {
    this.runUntil(this.state.now + ms);
  }

  /** Run until only recurring timers are queued, or `maxMs` passes; returns whether it settled. */
  settle(maxMs = 60_000): boolean {
    const w = this.state;
    const deadline = w.now + maxMs;
    while (w.queue.pending > 0) {
      const e = peek(w.queue);
      if (!e || e.at > deadline) {
        w.now = Math.max(w.now, deadline);
        return false;
      }
      this.next();
    }
    return true;
  }

  /** A deep copy of the whole state. */
  snapshot(): WorldState {
    return copyState(this.state);
  }

  /** Put a snapshot back (copied, so the snapshot can be restored again). */
  restore(s: WorldState): void {
    this.state = copyState(s);
    // Cached contexts point at the old state: drop them so it can be collected.
    this.ctxCache.clear();
    this.handlers.clear();
  }

  /** Hash of the store and the log: equal for equal runs. */
  hash(): string {
    return hashWorld(this.state);
  }
}

/**
 * A copy of a world's state for a snapshot or a restore: everything deep-copied at once (so objects
 * the store and the caches share stay shared), except the request log's records, which are
 * appended and never changed afterwards: the copy has its own array of the same records. The log is
 * most of a long run's state (tens of thousands of records), and copying it made each snapshot cost
 * ~14 ms on an hour-old figure.
 */
function copyState(s: WorldState): WorldState {
  // The causes are numbers, appended like the log: a slice copies them.
  const { log, causes, ...rest } = s;
  const copied = clonePlain(rest) as Omit<WorldState, 'log' | 'causes'>;
  const out = {} as Record<string, unknown>;
  for (const k of Object.keys(s))
    out[k] = k === 'log' ? log.slice() : k === 'causes' ? causes!.slice() : (copied as Record<string, unknown>)[k];
  return out as unknown as WorldState;
}

/** Apply a fault to the state. */
function applyFault(w: WorldState, f: FaultInput): void {
  const faults: ApiFaults = w.apiServer.faults;
  switch (f.type) {
    case 'apiserver-down':
      if (!faults.apiServerDown) {
        faults.apiServerDown = true;
        breakAllWatches(w);
        // The leaseManager's reusable lease is process memory: a restarted API server grants a new one.
        if (w.apiServer.eventLeases) w.apiServer.eventLeases.prev = undefined;
      }
      break;
    case 'apiserver-up':
      faults.apiServerDown = false;
      break;
    case 'etcd-down':
      faults.etcdDown = true;
      break;
    case 'etcd-up':
      if (faults.etcdDown) {
        faults.etcdDown = false;
        extendEventLeases(w);
      }
      break;
    case 'etcd-full':
      faults.etcdFull = true;
      break;
    case 'etcd-space-freed':
      faults.etcdFull = false;
      break;
    case 'api-latency':
      faults.addedLatencyMs = f.ms;
      break;
    case 'partition':
      if (!(faults.partitioned ??= []).includes(f.component)) {
        faults.partitioned.push(f.component);
        breakWatchesOf(w, f.component);
      }
      break;
    case 'heal':
      if (faults.partitioned) faults.partitioned = faults.partitioned.filter((c) => c !== f.component);
      break;
    case 'image-missing':
      if (!(w.registry ??= { missing: [] }).missing.includes(f.image)) w.registry.missing.push(f.image);
      break;
    case 'image-available':
      if (w.registry) w.registry.missing = w.registry.missing.filter((i) => i !== f.image);
      break;
  }
}

/**
 * A component's own record (CRI calls): the same keys in the same order as `{ ...rec, t, component }`
 * with undefined fields left out, built in one pass (no spread, then no clean-up copy).
 */
function appendLogRecord(
  w: WorldState,
  rec: Omit<RequestRecord, 't' | 'component'> & { component?: string },
  name: string,
): void {
  const out = {} as Record<string, unknown>;
  const r = rec as Record<string, unknown>;
  for (const k in r) {
    if (k === 't') out.t = w.now;
    else if (k === 'component') out.component = r.component ?? name;
    else if (r[k] !== undefined) out[k] = r[k];
  }
  if (!('t' in out)) out.t = w.now;
  if (!('component' in out)) out.component = name;
  appendRecord(w.log, out as unknown as RequestRecord);
}

/** Drop the oldest records beyond the log's limit (called when it is a quarter over). */
function trimLog(w: WorldState): void {
  const n = w.log.length - (w.logLimit ?? w.log.length);
  if (n <= 0) return;
  w.log.splice(0, n);
  w.logDropped = (w.logDropped ?? 0) + n;
  if (w.causes) trimCauses(w.causes, w.logDropped);
}

/** Records written since the world began, dropped ones included (a position in the whole log). */
export function logCount(w: WorldState): number {
  return (w.logDropped ?? 0) + w.log.length;
}

/** Hash of the parts that must be byte-identical across equal runs. */
function hashWorld(w: WorldState): string {
  // The freeze flag is a debugging aid (on under tests only), not part of what a run produces.
  const { freeze: _freeze, ...store } = w.store;
  return hashJSON(
    w.logDropped
      ? { store, log: w.log, logDropped: w.logDropped, now: w.now, rng: w.rng }
      : { store, log: w.log, now: w.now, rng: w.rng },
  );
}

/** Rebuild a world from a seed and recorded inputs, up to `untilT`. */
export function replay(
  inputs: readonly Input[],
  opts: WorldOptions & { seed: number },
  defs: AnyComponentDef[],
  untilT: number,
  apiConfig?: ApiServerConfig | ((world: World) => ApiServerConfig),
): World {
  const world = new World(opts, defs, apiConfig);
  for (const inp of inputs) {
    if (inp.t > untilT) break;
    while (world.state.steps < inp.step && world.next()) {
      /* run to the exact point the input arrived */
    }
    world.applyInput(inp);
  }
  world.runUntil(untilT);
  return world;
}
