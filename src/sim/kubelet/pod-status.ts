// The kubelet's generateAPIPodStatus: from what containerd reports plus the kubelet's own
// waiting reasons and probe results to the API PodStatus. Src: pkg/kubelet/kubelet_pods.go
// (getPhase, convertToAPIContainerStatuses), pkg/kubelet/status/generate.go (Generate*Condition).
import type {
  Pod,
  PodStatus,
  PodCondition,
  ContainerStatus,
  ContainerState,
  Container,
  ResourceRequirements,
  VolumeMount,
  VolumeMountStatus,
} from 'kubernetes-types/core/v1';
import { quantityOf, quantityString, scaledValue, type Quantity } from '../api/quantity.ts';
import { kubeContainerID, kubeImageID, type ContainerRecord, type SandboxRecord } from './container-runtime.ts';
import { rfc3339 } from '../util/time.ts';
import { mountStatuses, podResources, qosOf, unreadyMessages } from './pod-status-cache.ts';

/** What the kubelet knows of one container: runtime attempts plus its own verdicts. */
export interface ContainerView {
  name: string;
  image: string;
  /** latest attempt in the runtime, if any */
  current?: ContainerRecord;
  /** the attempt before it (source of lastState) */
  previous?: ContainerRecord;
  /** the kubelet's reason for not running it: ContainerCreating, ErrImagePull, ImagePullBackOff, CrashLoopBackOff … */
  waiting?: { reason: string; message?: string };
  /** readiness result (true when there is no readiness probe and the container runs) */
  ready: boolean;
  /** startup probe passed (true when there is no startup probe and the container runs) */
  started: boolean;
  /** the container's volumeMounts in the spec (reported once the runtime has the container) */
  volumeMounts?: VolumeMount[];
  /** the container's resources in the spec: what the kubelet admitted it with and runs it with */
  resources?: ResourceRequirements;
}

/** The container's mounts as the kubelet reports them (recursiveReadOnly Disabled: none asks for it). */
function volumeMountStatuses(mounts: VolumeMount[]): VolumeMountStatus[] {
  let out = mountStatuses.get(mounts);
  if (!out) {
    out = mounts.map((m) =>
      m.readOnly
        ? { name: m.name, mountPath: m.mountPath, readOnly: true, recursiveReadOnly: 'Disabled' }
        : { name: m.name, mountPath: m.mountPath },
    );
    mountStatuses.set(mounts, out);
  }
  return out;
}

function terminatedState(c: ContainerRecord): ContainerState {
  return {
    terminated: {
      exitCode: c.exitCode ?? 0,
      reason: c.reason,
      startedAt: c.startedAt !== undefined ? rfc3339(c.startedAt) : undefined,
      finishedAt: c.finishedAt !== undefined ? rfc3339(c.finishedAt) : undefined,
      containerID: kubeContainerID(c),
    },
  };
}

/** convertToAPIContainerStatuses for one container. */
export function convertContainerStatus(v: ContainerView): ContainerStatus {
  const c = v.current;
  let state: ContainerState;
  let lastState: ContainerState = {};
  let running = false;
  if (v.waiting) {
    const waiting: { reason: string; message?: string } = { reason: v.waiting.reason };
    if (v.waiting.message) waiting.message = v.waiting.message;
    state = { waiting };
    // While waiting to restart, the exited attempt is the last termination.
    if (c?.state === 'CONTAINER_EXITED') lastState = terminatedState(c);
    else if (v.previous?.state === 'CONTAINER_EXITED') lastState = terminatedState(v.previous);
  } else if (c?.state === 'CONTAINER_RUNNING') {
    state = { running: { startedAt: rfc3339(c.startedAt ?? c.createdAt) } };
    running = true;
    if (v.previous?.state === 'CONTAINER_EXITED') lastState = terminatedState(v.previous);
  } else if (c?.state === 'CONTAINER_EXITED') {
    state = terminatedState(c);
    if (v.previous?.state === 'CONTAINER_EXITED') lastState = terminatedState(v.previous);
  } else {
    state = { waiting: { reason: 'ContainerCreating' } };
  }
  const status: ContainerStatus = {
    name: v.name,
    state,
    lastState,
    ready: running && v.ready,
    restartCount: c?.restartCount ?? 0,
    image: v.image,
    imageID: c ? kubeImageID(c) : '',
    started: running && v.started,
  };
  if (c) {
    status.containerID = kubeContainerID(c);
    // InPlacePodVerticalScaling (GA): what the container was admitted with (its requests) and runs
    // with; a real node's cgroups hold what was allocated, so both are the spec's.
    const requests = v.resources?.requests;
    if (requests && Object.keys(requests).length) status.allocatedResources = requests;
    status.resources = containerResourcesStatus(v.resources);
  }
  if (c && v.volumeMounts?.length) status.volumeMounts = volumeMountStatuses(v.volumeMounts);
  return status;
}

/** A container status's resources: its spec's limits and requests (empty ones omitted, as JSON's omitempty). */
function containerResourcesStatus(r: ResourceRequirements | undefined): ResourceRequirements {
  const out: ResourceRequirements = {};
  if (r?.limits && Object.keys(r.limits).length) out.limits = r.limits;
  if (r?.requests && Object.keys(r.requests).length) out.requests = r.requests;
  return out;
}

export type ResourceList = Record<string, string>;
/** A ResourceList entry being summed: nano units, Go's format, and the string ParseQuantity kept (a copy keeps it, Add drops it). */
interface Amount {
  n: bigint;
  f: Quantity['format'];
  s?: string;
}

/** addResourceList: a new name copied, an existing one added to (Go's Add keeps the first's format unless it was zero). */
function addResources(list: Record<string, Amount>, more: Record<string, Amount | string> | undefined): void {
  for (const k in more) {
    const m = more[k];
    const v = typeof m === 'string' ? amountOf(m) : m;
    const c = list[k];
    list[k] = c ? { n: c.n + v.n, f: c.n ? c.f : v.f } : v;
  }
}

function amountOf(v: string): Amount {
  const q = quantityOf(v);
  return { n: scaledValue(q, -9), f: q.format, s: q.s };
}

/** maxResourceList: each name's larger amount. */
function maxResources(list: Record<string, Amount>, more: Record<string, Amount>): void {
  for (const k in more) if (!list[k] || more[k].n > list[k].n) list[k] = more[k];
}

/** resourcehelper's aggregateContainerResourcesByFn over the spec: app containers and sidecars summed, at least the largest init container. */
function aggregateContainerResources(pod: Pod, of: 'requests' | 'limits'): Record<string, Amount> {
  const out: Record<string, Amount> = {};
  const sidecars: Record<string, Amount> = {};
  const init: Record<string, Amount> = {};
  for (const c of pod.spec?.containers ?? NONE) addResources(out, c.resources?.[of]);
  for (const c of pod.spec?.initContainers ?? NONE) {
    let r: Record<string, Amount> = {};
    addResources(r, c.resources?.[of]);
    if (c.restartPolicy === 'Always') {
      addResources(out, r);
      addResources(sidecars, r);
      r = sidecars;
    } else addResources(r, sidecars);
    maxResources(init, r);
  }
  maxResources(out, init);
  return out;
}

/** The list as the API stores it (undefined when empty): each kept string, or the sum as Quantity.String() writes it. */
function resourceList(list: Record<string, Amount>): ResourceList | undefined {
  let out: ResourceList | undefined;
  for (const k in list)
    (out ??= {})[k] = list[k].s ?? quantityString({ form: 'dec', mantissa: list[k].n, exp: -9, format: list[k].f });
  return out;
}

/**
 * generateAPIPodStatus's pod-level status.allocatedResources (PodRequests) and status.resources
 * (PodRequests and PodLimits: the pod's cgroup on a real node holds them), one object per spec.
 */
function podLevelResources(pod: Pod): { allocated?: ResourceList; resources: ResourceRequirements } {
  const spec = pod.spec ?? NONE;
  let out = podResources.get(spec);
  if (!out) {
    const requests = aggregateContainerResources(pod, 'requests');
    const limits = aggregateContainerResources(pod, 'limits');
    // Overhead adds to every request, and to a limit only where one is set.
    const overhead = pod.spec?.overhead;
    addResources(requests, overhead);
    for (const k in overhead) if (limits[k]?.n) addResources(limits, { [k]: overhead[k] });
    const l = resourceList(limits);
    const r = resourceList(requests);
    out = { allocated: r, resources: l ? (r ? { limits: l, requests: r } : { limits: l }) : r ? { requests: r } : {} };
    podResources.set(spec, out);
  }
  return out;
}

/** HasAnyRegularContainerStarted: a regular container is running or has terminated. */
function hasAnyRegularContainerStarted(pod: Pod, statuses: ContainerStatus[]): boolean {
  const containers = pod.spec?.containers ?? NONE;
  for (let i = 0; i < statuses.length; i++) {
    const st = statuses[i];
    if (!st.state?.running && !st.state?.terminated) continue;
    for (let j = 0; j < containers.length; j++) if (containers[j].name === st.name) return true;
  }
  return false;
}

// Status generation runs for every pod many times: its loops are indexed and its absent lists are
// these shared empty ones, so it allocates only what it returns.
const NONE = Object.freeze([]) as never[];

/** The status of container `name` (the same one Array.find gives). */
function statusNamed(info: ContainerStatus[], name: string): ContainerStatus | undefined {
  for (let i = 0; i < info.length; i++) if (info[i].name === name) return info[i];
  return undefined;
}

/** getPhase (kubelet_pods.go), given every container status (regular and init) of the pod. */
export function getPhase(pod: Pod, info: ContainerStatus[], podIsTerminal = false): NonNullable<PodStatus['phase']> {
  const spec = pod.spec!;
  const inits = spec.initContainers ?? NONE;
  let pendingInitialization = 0;
  let failedInitialization = 0;
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    if (c.restartPolicy === 'Always') continue;
    const st = statusNamed(info, c.name);
    if (!st) {
      pendingInitialization++;
      continue;
    }
    if (st.state?.running) pendingInitialization++;
    else if (st.state?.terminated) {
      if (st.state.terminated.exitCode !== 0) failedInitialization++;
    } else if (st.state?.waiting) {
      if (st.lastState?.terminated) {
        if (st.lastState.terminated.exitCode !== 0) failedInitialization++;
      } else pendingInitialization++;
    } else pendingInitialization++;
  }
  let unknown = 0,
    running = 0,
    waiting = 0,
    stopped = 0,
    succeeded = 0;
  // Sidecars: running ones count as running; until started they hold initialisation.
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    if (c.restartPolicy !== 'Always') continue;
    const st = statusNamed(info, c.name);
    if (!st) {
      unknown++;
      continue;
    }
    if (st.state?.running) {
      if (!st.started) pendingInitialization++;
      running++;
    } else if (st.state?.terminated) {
      // terminated sidecars do not count
    } else if (st.state?.waiting) {
      if (!st.lastState?.terminated) {
        pendingInitialization++;
        waiting++;
      }
    } else {
      pendingInitialization++;
      unknown++;
    }
  }
  for (let i = 0; i < spec.containers.length; i++) {
    const st = statusNamed(info, spec.containers[i].name);
    if (!st) {
      unknown++;
      continue;
    }
    if (st.state?.running) running++;
    else if (st.state?.terminated) {
      stopped++;
      if (st.state.terminated.exitCode === 0) succeeded++;
    } else if (st.state?.waiting) {
      // A container waiting to be restarted has run before: it counts as stopped, not pending.
      if (st.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  const restartPolicy = spec.restartPolicy ?? 'Always';
  if (failedInitialization > 0 && restartPolicy === 'Never') return 'Failed';
  if ((pendingInitialization > 0 && !hasAnyRegularContainerStarted(pod, info)) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

function unreadyMessage(name: string): string {
  let m = unreadyMessages.get(name);
  if (m === undefined) {
    m = `containers with unready status: ${goList([name])}`;
    if (unreadyMessages.size >= 4096) unreadyMessages.clear();
    unreadyMessages.set(name, m);
  }
  return m;
}

function goList(names: string[]): string {
  return `[${names.join(' ')}]`;
}

function condition(type: string, ok: boolean, reason?: string, message?: string): PodCondition {
  const c: PodCondition = { type, status: ok ? 'True' : 'False' };
  if (!ok && reason) c.reason = reason;
  if (!ok && message) c.message = message;
  return c;
}

/** kubetypes.PodSandboxNotReadyReason (1.37): why PodReadyToStartContainers is False. */
const PodSandboxNotReadyReason = 'PodSandboxNotReady';
/** The message when the pod has no sandbox yet (kubetypes.PodSandboxNotReadyMsgNoPodSandbox, 1.37). */
const PodSandboxNotReadyMsgNoPodSandbox = 'no pod sandbox exists';
/** The message when its sandbox is there but not ready (kubetypes.PodSandboxNotReadyMsgSandboxNotReady, 1.37). */
const PodSandboxNotReadyMsgSandboxNotReady = 'pod sandbox is not ready';

/**
 * GeneratePodReadyToStartContainersCondition: True once the sandbox exists and has its network
 * (right after RunPodSandbox, before any image pull); False with reason PodSandboxNotReady and the
 * message PodSandboxChanged gives (1.37): no sandbox, or one that is not ready (stopped, being
 * replaced). Its other reasons (several ready sandboxes, a changed network namespace, no IP) cannot
 * arise here: a pod has one sandbox, with the pod network and its IP.
 */
export function generatePodReadyToStartContainersCondition(sandbox: SandboxRecord | undefined): PodCondition {
  if (!sandbox)
    return condition('PodReadyToStartContainers', false, PodSandboxNotReadyReason, PodSandboxNotReadyMsgNoPodSandbox);
  return condition(
    'PodReadyToStartContainers',
    sandbox.state === 'SANDBOX_READY',
    PodSandboxNotReadyReason,
    PodSandboxNotReadyMsgSandboxNotReady,
  );
}

function isInitContainerInitialized(c: Container, st: ContainerStatus): boolean {
  if (c.restartPolicy === 'Always') return !!st.started;
  // A regular init container reports Ready once it exited 0.
  return st.ready || (!!st.state?.terminated && st.state.terminated.exitCode === 0);
}

/** GeneratePodInitializedCondition (status/generate.go). */
function generatePodInitializedCondition(pod: Pod, statuses: ContainerStatus[], phase: string): PodCondition {
  const inits = pod.spec?.initContainers ?? NONE;
  // No init containers (the usual pod): nothing unknown or incomplete.
  if (inits.length === 0) {
    if (phase === 'Succeeded') return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
    return condition('Initialized', true);
  }
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const st = statusNamed(statuses, c.name);
    if (!st) unknown.push(c.name);
    else if (!isInitContainerInitialized(c, st)) incomplete.push(c.name);
  }
  // Note: True *with* a reason here, unlike the other conditions.
  if (phase === 'Succeeded' && unknown.length === 0)
    return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
  if (hasAnyRegularContainerStarted(pod, statuses)) return condition('Initialized', true);
  const msgs: string[] = [];
  if (unknown.length) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (incomplete.length) msgs.push(`containers with incomplete status: ${goList(incomplete)}`);
  if (msgs.length) return condition('Initialized', false, 'ContainersNotInitialized', msgs.join(', '));
  return condition('Initialized', true);
}

/** GenerateContainersReadyCondition: sidecars and regular containers must all be ready. */
export function generateContainersReadyCondition(pod: Pod, statuses: ContainerStatus[], phase: string): PodCondition {
  // The usual pod (no sidecars, every container known and ready) needs no name lists.
  const inits = pod.spec?.initContainers ?? NONE;
  const containers = pod.spec?.containers ?? NONE;
  // Nor does one with a single known container that is not ready yet (every pod while it starts).
  let sidecars = false;
  for (let i = 0; i < inits.length; i++) if (inits[i].restartPolicy === 'Always') sidecars = true;
  if (!sidecars && containers.length <= 1) {
    const st = containers.length ? statusNamed(statuses, containers[0].name) : undefined;
    if (containers.length === 0 || st) {
      if (phase === 'Succeeded') return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
      if (phase === 'Failed') return { type: 'ContainersReady', status: 'False', reason: 'PodFailed' };
      if (containers.length === 0 || st!.ready) return condition('ContainersReady', true);
      return condition('ContainersReady', false, 'ContainersNotReady', unreadyMessage(containers[0].name));
    }
  }
  const unknown: string[] = [];
  const unready: string[] = [];
  const check = (name: string) => {
    const st = statusNamed(statuses, name);
    if (!st) unknown.push(name);
    else if (!st.ready) unready.push(name);
  };
  for (const c of inits) if (c.restartPolicy === 'Always') check(c.name);
  for (const c of containers) check(c.name);
  // A finished pod's containers are done, not unready.
  if (phase === 'Succeeded' && unknown.length === 0)
    return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
  if (phase === 'Failed') return { type: 'ContainersReady', status: 'False', reason: 'PodFailed' };
  const msgs: string[] = [];
  if (unknown.length) msgs.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready.length) msgs.push(`containers with unready status: ${goList(unready)}`);
  if (msgs.length) return condition('ContainersReady', false, 'ContainersNotReady', msgs.join(', '));
  return condition('ContainersReady', true);
}

/** GeneratePodReadyCondition: ContainersReady plus readiness gates. */
function generatePodReadyCondition(pod: Pod, containersReady: PodCondition, existing: PodCondition[]): PodCondition {
  if (containersReady.status !== 'True') return { ...containersReady, type: 'Ready' };
  const msgs: string[] = [];
  for (const g of pod.spec?.readinessGates ?? []) {
    const c = existing.find((x) => x.type === g.conditionType);
    if (!c) msgs.push(`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`);
    else if (c.status !== 'True')
      msgs.push(`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`);
  }
  if (msgs.length) return condition('Ready', false, 'ReadinessGatesNotReady', msgs.join(', '));
  return condition('Ready', true);
}

/** GetPodQOS, reduced to what the sim's pods use (cpu and memory requests/limits). */
export function getPodQOS(containers: Container[]): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  let q = qosOf.get(containers);
  if (q === undefined) {
    q = computePodQOS(containers);
    qosOf.set(containers, q);
  }
  return q;
}

const NO_QUANTITIES: Record<string, string | number> = Object.freeze({});

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

function computePodQOS(containers: Container[]): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  let any = false;
  let guaranteed = true;
  for (let i = 0; i < containers.length; i++) {
    const req = containers[i].resources?.requests ?? NO_QUANTITIES;
    const lim = containers[i].resources?.limits ?? NO_QUANTITIES;
    if (hasKeys(req) || hasKeys(lim)) any = true;
    if (lim.cpu === undefined || (req.cpu !== undefined && req.cpu !== lim.cpu)) guaranteed = false;
    if (lim.memory === undefined || (req.memory !== undefined && req.memory !== lim.memory)) guaranteed = false;
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** Whether the kubelet owns a pod condition type (podConditionsByKubelet.includes, without the scan). */
export function isPodConditionByKubelet(type: string): boolean {
  switch (type) {
    case 'PodScheduled':
    case 'Ready':
    case 'Initialized':
    case 'ContainersReady':
    case 'PodReadyToStartContainers':
      return true;
    default:
      return false;
  }
}

/**
 * Keep lastTransitionTime when a condition's status is unchanged (status manager's updateLastTransitionTime).
 * The condition comes out with v1.PodCondition's fields in Go's order: type, observedGeneration (the
 * pod's generation, 1.34+, left out when the pod has none), status, lastProbeTime (a zero metav1.Time:
 * null, which omitempty does not drop), lastTransitionTime, reason, message.
 */
function stamp(c: PodCondition, old: PodCondition[], now: number, generation: number | undefined): PodCondition {
  let prev: PodCondition | undefined;
  for (let i = 0; i < old.length; i++)
    if (old[i].type === c.type) {
      prev = old[i];
      break;
    }
  const out: Record<string, unknown> = { type: c.type };
  if (generation !== undefined) out.observedGeneration = generation;
  out.status = c.status;
  out.lastProbeTime = null;
  out.lastTransitionTime =
    prev && prev.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : rfc3339(now);
  if (c.reason !== undefined) out.reason = c.reason;
  if (c.message !== undefined) out.message = c.message;
  const cond = out as unknown as PodCondition;
  // An unchanged condition is the previous object itself: every stored version of the pod then
  // shares it instead of holding a copy (same fields in the same order, so the same JSON).
  return prev && sameCondition(prev, cond) ? prev : cond;
}

/** sameFlatObject(prev, c): the same keys in the same order (it decides the JSON) with the same (primitive) values. */
function sameCondition(prev: PodCondition, c: PodCondition): boolean {
  const p = prev as unknown as Record<string, unknown>;
  const q = c as unknown as Record<string, unknown>;
  const pk = Object.keys(p);
  const qk = Object.keys(q);
  if (pk.length !== qk.length) return false;
  for (let j = 0; j < pk.length; j++) if (pk[j] !== qk[j] || p[pk[j]] !== q[pk[j]]) return false;
  return true;
}

/** Each generated container status that equals the previous one (by name) is the previous object itself. */
function reuseUnchanged(statuses: ContainerStatus[], previous: ContainerStatus[] | undefined): ContainerStatus[] {
  if (!previous?.length) return statuses;
  for (let i = 0; i < statuses.length; i++) {
    const p = previous[i]?.name === statuses[i].name ? previous[i] : previous.find((x) => x.name === statuses[i].name);
    if (p && sameInOrder(p, statuses[i])) statuses[i] = p;
  }
  return statuses;
}

/** Deep equality of plain JSON data with keys in the same order (so the same JSON text). */
function sameInOrder(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i] || !sameInOrder((a as Record<string, unknown>)[ka[i]], (b as Record<string, unknown>)[kb[i]]))
      return false;
  }
  return true;
}

/** `[{ ip }]`, or `prev` itself when it is exactly that (stored versions then share it; the same JSON). */
function ipList(prev: { ip?: string }[] | undefined, ip: string): { ip: string }[] {
  if (prev?.length === 1 && prev[0].ip === ip && onlyKeyIp(prev[0])) return prev as { ip: string }[];
  return [{ ip }];
}

function onlyKeyIp(o: object): boolean {
  for (const k in o) if (k !== 'ip') return false;
  return true;
}

/** generateAPIPodStatus: phase, conditions (in the order the kubelet writes them), IPs, container statuses. */
export function generateAPIPodStatus(args: {
  pod: Pod;
  /** the status to build on (conditions, startTime); pod.status when absent */
  status?: PodStatus;
  sandbox?: SandboxRecord;
  containers: ContainerView[];
  initContainers?: ContainerView[];
  hostIP: string;
  now: number;
}): PodStatus {
  const { pod, sandbox, now } = args;
  const old = args.status ?? pod.status;
  const containerStatuses = reuseUnchanged(args.containers.map(convertContainerStatus), old?.containerStatuses);
  const initContainerStatuses = args.initContainers?.length ? args.initContainers.map(convertContainerStatus) : NONE;
  const noInit = initContainerStatuses.length === 0;
  const phase = getPhase(pod, noInit ? containerStatuses : [...containerStatuses, ...initContainerStatuses]);
  const existing = old?.conditions ?? NONE;
  const all = noInit ? containerStatuses : [...initContainerStatuses, ...containerStatuses];
  const containersReady = generateContainersReadyCondition(pod, all, phase);
  // Conditions the kubelet does not own (DisruptionTarget, readiness gates) come first, as in Go.
  let foreign = 0;
  for (let i = 0; i < existing.length; i++) if (!isPodConditionByKubelet(existing[i].type)) foreign++;
  const readyToStart = generatePodReadyToStartContainersCondition(sandbox);
  const initialized = generatePodInitializedCondition(pod, all, phase);
  // Ready is built from ContainersReady before either is stamped (it copies the unstamped condition).
  const ready = generatePodReadyCondition(pod, containersReady, existing);
  const gen = pod.metadata?.generation || undefined;
  const owned = [
    stamp(readyToStart, existing, now, gen),
    stamp(initialized, existing, now, gen),
    stamp(ready, existing, now, gen),
    stamp(containersReady, existing, now, gen),
    stamp({ type: 'PodScheduled', status: 'True' }, existing, now, gen),
  ];
  let conditions = owned;
  if (foreign) {
    conditions = [];
    for (let i = 0; i < existing.length; i++)
      if (!isPodConditionByKubelet(existing[i].type)) conditions.push(existing[i]);
    for (let i = 0; i < owned.length; i++) conditions.push(owned[i]);
  }
  const status: PodStatus = {};
  // status.observedGeneration (PodObservedGenerationTracking, 1.34+): the generation this status is for.
  if (gen !== undefined) (status as PodStatus & { observedGeneration?: number }).observedGeneration = gen;
  Object.assign(status, {
    phase,
    conditions,
    hostIP: args.hostIP,
    hostIPs: ipList(old?.hostIPs, args.hostIP),
    startTime: old?.startTime ?? rfc3339(now),
    containerStatuses,
    qosClass: getPodQOS(pod.spec?.containers ?? NONE),
  });
  // InPlacePodLevelResourcesVerticalScaling (beta, on since 1.36): the pod's own allocation and resources.
  const level = podLevelResources(pod);
  const withLevel = status as PodStatus & { allocatedResources?: ResourceList; resources?: ResourceRequirements };
  if (level.allocated) withLevel.allocatedResources = level.allocated;
  withLevel.resources = level.resources;
  if (initContainerStatuses.length) status.initContainerStatuses = initContainerStatuses;
  if (sandbox?.ip) {
    status.podIP = sandbox.ip;
    status.podIPs = ipList(old?.podIPs, sandbox.ip);
  }
  return status;
}
