// The kubelet's per-pod work: the pod worker's SyncPod (sandbox first, then per container: image,
// create, start, restart with back-off), the prober, the PLEG's view, graceful termination and the
// status manager (PATCH pods/{name}/status only when the status changed, final DELETE with grace 0).
// Src: pkg/kubelet/kuberuntime/kuberuntime_manager.go (SyncPod, computePodActions, doBackOff),
// kuberuntime_container.go (startContainer, killContainer), images/image_manager.go (EnsureImageExists),
// status/status_manager.go (syncPod, canBeDeleted), pod_workers.go.
import type { Container, Pod, PodCondition, PodStatus, Probe } from 'kubernetes-types/core/v1';
import { initialTransition, transition } from 'xstate';
import type { Ctx } from '../world.ts';
import {
  doBackOff,
  hasBackOffEntries,
  imagePullBackOffKey,
  imagePullBackOffMessage,
  isInBackOffSinceUpdate,
  backoffNext,
  type PodRef,
} from './backoff.ts';
import { plegSeen } from './pleg-cache.ts';
import { canonicalByJSON, initialMemo, transitionsOf, unchangedStatus } from './pod-worker-cache.ts';
import {
  CreateContainer,
  ImageStatus,
  PullImage,
  RemovePodSandbox,
  RunPodSandbox,
  StartContainer,
  StopContainer,
  StopPodSandbox,
  containerExited,
  normalizeImageRef,
  pullImageDuration,
  PULL_LATENCY_MS,
  type ContainerRecord,
  type SandboxRecord,
} from './container-runtime.ts';
import {
  FailedToInspectImage,
  createdContainerEvent,
  errorEvent,
  failedToPullImageEvent,
  imageAlreadyPresentEvent,
  killingContainerEvent,
  pullingImageEvent,
  pulledImageEvent,
  startedContainerEvent,
} from './events.ts';
import { invalidImageNameMessage } from './image-name.ts';
import { podMachine, type PodMachineEvent } from './pod-machine.ts';
import { releasePodIP } from './pod-ip.ts';
import { getServiceAccountTokens } from './token-manager.ts';
import { generateAPIPodStatus, getPhase, isPodConditionByKubelet, type ContainerView } from './pod-status.ts';
import {
  doProbe,
  firstProbeAt,
  httpProbeFailureOutput,
  newProbeWorker,
  withProbeDefaults,
  type ProbeType,
} from './probes.ts';
import {
  createMergePatch,
  deepEqual,
  emit,
  emitForContainer,
  isEmptyPatch,
  logCri,
  type ContainerHealth,
  type ContainerWork,
  type KubeletState,
  type KubeletTimer,
  type PodWork,
} from './kubelet-state.ts';

/** The kubelet's own context: its pod workers are handed its state beside it (one lookup per event, not per call). */
type KCtx = Ctx<KubeletState>;

/** pod_workers.go backOffPeriod: a failed sync is retried after 10 s (jittered by up to 50 %). */
const WORKER_BACKOFF_MS = 10_000;
/** How long RunPodSandbox takes (pause container + CNI ADD), ms. */
const SANDBOX_SETUP_MS: [number, number] = [250, 450];
/** CreateContainer → StartContainer, ms. */
const CREATE_TO_START_MS: [number, number] = [30, 80];
/** How long a healthy app takes to exit on SIGTERM, ms. */
const SIGTERM_EXIT_MS: [number, number] = [100, 400];
/** PLEG relist period. */
export const PLEG_RELIST_MS = 1000;

const PROBES: { type: ProbeType; field: 'livenessProbe' | 'readinessProbe' | 'startupProbe' }[] = [
  { type: 'startup', field: 'startupProbe' },
  { type: 'liveness', field: 'livenessProbe' },
  { type: 'readiness', field: 'readinessProbe' },
];

function podRef(w: PodWork): PodRef {
  return { name: w.name, namespace: w.namespace, uid: w.uid };
}

/**
 * Schedule a continuation for this boot (`ev.gen` is the kubelet's st.gen). Callers write the tag last in the
 * literal, where a spread of the untagged body would put it, so the object is built whole.
 */
export function later(ctx: KCtx, delayMs: number, ev: KubeletTimer, recurring = false): void {
  ctx.schedule(Math.max(0, delayMs), ev, recurring ? RECURRING : ONCE);
}

const RECURRING = Object.freeze({ recurring: true });
const ONCE = Object.freeze({ recurring: false });

/** workQueue.Enqueue(uid, delay): one pending re-sync per pod, the sooner wins. */
function requeue(ctx: KCtx, st: KubeletState, w: PodWork, delayMs: number): void {
  const at = ctx.now + Math.max(0, Math.round(delayMs));
  if (w.resyncAt !== undefined && w.resyncAt > ctx.now && w.resyncAt <= at) return;
  w.resyncAt = at;
  later(ctx, at - ctx.now, { type: 'pod-sync', key: w.key, uid: w.uid, resync: true, gen: st.gen });
}

/** containerd learns what the registry lacks (a new runtime object only when that changed). */
function syncMissingImages(ctx: KCtx, st: KubeletState): void {
  const missing = ctx.registry?.missing ?? [];
  const had = st.runtime.missingImages;
  if (missing.length === had.length && missing.every((m, i) => normalizeImageRef(m) === had[i])) return;
  st.runtime = { ...st.runtime, missingImages: missing.map(normalizeImageRef) };
}

function workerBackoff(ctx: KCtx): number {
  return WORKER_BACKOFF_MS * (1 + 0.5 * ctx.rng.float());
}

// The pod machine is a pure function of (value, context, event) and pods repeat the same few steps.
// Workers therefore share canonical machine objects (frozen plain data, one per distinct value and
// context), and each canonical machine memoises its transitions. Behaviour-side and bounded: a machine
// that is not canonical (from a restored snapshot) is looked up by its JSON once.
export type Machine = PodWork['machine'];

function deepFreeze<T>(x: T): T {
  if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const k of Object.keys(x)) deepFreeze((x as Record<string, unknown>)[k]);
  }
  return x;
}

/** The canonical machine equal to `m` (m itself if it is one). */
function canonical(m: Machine): Machine {
  if (transitionsOf.has(m)) return m;
  const json = JSON.stringify([m.value, m.context]);
  let c = canonicalByJSON.get(json);
  if (!c) {
    c = deepFreeze({ value: JSON.parse(JSON.stringify(m.value)), context: { ...m.context } });
    if (canonicalByJSON.size >= 8192) canonicalByJSON.clear();
    canonicalByJSON.set(json, c);
  }
  if (!transitionsOf.has(c)) transitionsOf.set(c, new Map());
  return c;
}

/** An event as a memo key: its type alone when that is all it carries (JSON otherwise, which starts with '{'). */
function eventKey(ev: PodMachineEvent): string {
  for (const k in ev) if (k !== 'type') return JSON.stringify(ev);
  return ev.type;
}

function send(w: PodWork, ev: PodMachineEvent): void {
  const from = canonical(w.machine);
  const memo = transitionsOf.get(from)!;
  const key = eventKey(ev);
  let next = memo.get(key);
  if (!next) {
    const snap = podMachine.resolveState({ value: from.value as never, context: from.context });
    const [to] = transition(podMachine, snap, ev);
    next = canonical({ value: to.value, context: to.context });
    memo.set(key, next);
  }
  w.machine = next;
}

function machineIs(w: PodWork, value: string): boolean {
  return w.machine.value === value;
}

/** The image-pull policy after defaulting (Always for :latest or no tag). */
function pullPolicy(c: Container): string {
  // The API server's defaulting sets the policy on every stored pod; this is for a pod that skipped it.
  if (c.imagePullPolicy) return c.imagePullPolicy;
  const last = c.image!.slice(c.image!.lastIndexOf('/') + 1);
  return !last.includes(':') || last.endsWith(':latest') ? 'Always' : 'IfNotPresent';
}

/** A new pod worker for a pod bound to this node; after a reboot attempts continue from the API's restartCount. */
export function newPodWork(
  st: KubeletState,
  pod: Pod,
  key = `${pod.metadata!.namespace}/${pod.metadata!.name}`,
): PodWork {
  const spec = pod.spec!;
  const c0 = spec.containers[0];
  const input = {
    restartPolicy: (spec.restartPolicy ?? 'Always') as 'Always' | 'OnFailure' | 'Never',
    hasReadinessProbe: !!c0?.readinessProbe,
    imagePresent: !!c0 && pullPolicy(c0) !== 'Always' && !!st.runtime.images[normalizeImageRef(c0.image!)],
  };
  let byInput = initialMemo.get(input.restartPolicy);
  if (!byInput) {
    byInput = [];
    initialMemo.set(input.restartPolicy, byInput);
  }
  const i = (input.hasReadinessProbe ? 2 : 0) + (input.imagePresent ? 1 : 0);
  let snap = byInput[i];
  if (!snap) {
    const [s0] = initialTransition(podMachine, input);
    snap = canonical({ value: s0.value, context: s0.context });
    byInput[i] = snap;
  }
  const ran = (name: string) => pod.status?.containerStatuses?.find((s) => s.name === name && s.containerID);
  return {
    // The caller's key string (the one `workers` is keyed by) serves every later lookup.
    key,
    uid: pod.metadata!.uid!,
    name: pod.metadata!.name!,
    namespace: pod.metadata!.namespace!,
    machine: canonical(snap),
    sandboxAttempt: pod.status?.podIP ? 1 : 0,
    busyUntil: 0,
    containers: spec.containers.map((c) => {
      const prev = ran(c.name);
      return {
        name: c.name,
        image: c.image!,
        attempts: [],
        nextRestartCount: prev ? (prev.restartCount ?? 0) + 1 : 0,
        probes: {},
      };
    }),
  };
}

function healthOf(st: KubeletState, w: PodWork, container: string): ContainerHealth {
  return st.health[`${w.key}/${container}`] ?? st.health[w.key] ?? {};
}

/** An app that ends by itself (its health's exits) ends this attempt as long after now as its health says. */
export function scheduleAppExit(ctx: KCtx, st: KubeletState, w: PodWork, container: string, id: string): void {
  const exits = healthOf(st, w, container).exits;
  if (exits)
    later(ctx, exits.afterMs, {
      type: 'container-exit',
      id,
      exitCode: exits.exitCode,
      gen: st.gen,
      app: { key: w.key, container },
    });
}

function currentId(c: ContainerWork): string | undefined {
  return c.attempts[c.attempts.length - 1];
}

/** Stop a container with the grace period: SIGTERM now, exit when the app is done or SIGKILL at the end. */
function stopContainer(
  ctx: KCtx,
  st: KubeletState,
  w: PodWork,
  c: ContainerWork,
  id: string,
  graceSeconds: number,
): void {
  const h = healthOf(st, w, c.name);
  const r = StopContainer(st.runtime, id, graceSeconds, ctx.now, {
    handlesSigterm: !h.ignoresSigterm,
    shutdownMs: h.shutdownMs ?? ctx.rng.jitter(SIGTERM_EXIT_MS[0], SIGTERM_EXIT_MS[1]),
  });
  st.runtime = r.state;
  logCri(ctx, r.record, `pods/${w.key}/${c.name}`);
  later(ctx, r.exitAt - ctx.now, { type: 'container-exit', id, exitCode: r.exitCode, gen: st.gen });
}

/**
 * A container's process ends at its timer: after a stop, with the exit code the stop gave; by itself,
 * as its app's health says now (an app made healthy since its start does not end).
 */
export function containerExitAt(
  st: KubeletState,
  ev: Extract<KubeletTimer, { type: 'container-exit' }>,
  now: number,
): void {
  if (!ev.app) {
    containerExit(st, ev.id, now, ev.exitCode);
    return;
  }
  const w = st.workers[ev.app.key];
  const exits = w && healthOf(st, w, ev.app.container).exits;
  // containerd makes an OOM kill exit 137 whatever the code.
  if (exits) containerExit(st, ev.id, now, exits.exitCode, exits.oom, exits.log);
}

/** The process of a container ended (its own exit after a stop, a crash, an OOM kill). */
export function containerExit(
  st: KubeletState,
  id: string,
  now: number,
  exitCode: number,
  oom = false,
  log?: string,
): void {
  st.runtime = containerExited(st.runtime, id, now, log === undefined ? { exitCode, oom } : { exitCode, oom, log });
}

// ---------------------------------------------------------------- SyncPod

/** One pass of the pod worker: as far as it can go now; continuations are scheduled. */
export function syncPod(ctx: KCtx, st: KubeletState, key: string): void {
  const w = st.workers[key];
  if (!w || !st.up) return;
  const pod = st.pods.items[key];
  if (!pod || pod.metadata?.uid !== w.uid) {
    teardown(ctx, st, w);
    return;
  }
  if (ctx.now < w.busyUntil) return;
  if (pod.metadata?.deletionTimestamp) {
    syncTerminating(ctx, st, w, pod);
    return;
  }
  if (!w.sandboxId) {
    const r = RunPodSandbox(
      st.runtime,
      { uid: w.uid, name: w.name, namespace: w.namespace, attempt: w.sandboxAttempt },
      ctx.now,
      ctx.rng.float,
    ); // the world's draw (a closure over its rng state)
    logCri(ctx, r.record, `pods/${w.key}`);
    if (r.error || !r.sandbox) {
      emit(ctx, st, pod, {
        type: 'Warning',
        reason: 'FailedCreatePodSandBox',
        message: `Failed to create pod sandbox: ${r.error}`,
      });
      requeue(ctx, st, w, workerBackoff(ctx));
    } else {
      st.runtime = r.state;
      // hostNetwork pods share the node's network namespace: no CNI address, the pod IP is the host's.
      if (pod.spec?.hostNetwork) st.runtime = { ...st.runtime, ipam: releasePodIP(st.runtime.ipam, r.sandbox.id) };
      w.sandboxId = r.sandbox.id;
      w.busyUntil = ctx.now + ctx.rng.jitter(SANDBOX_SETUP_MS[0], SANDBOX_SETUP_MS[1]);
      later(ctx, w.busyUntil - ctx.now, { type: 'pod-sync', key, uid: w.uid, gen: st.gen });
    }
    updatePodStatus(ctx, st, w, pod);
    // The volume manager's mount of the projected token volume, after the first status write.
    getServiceAccountTokens(ctx, w, pod);
    return;
  }
  if (!w.sandboxReady) {
    w.sandboxReady = true;
    send(w, { type: 'SANDBOX_READY' });
  }
  const specs = pod.spec!.containers;
  for (let i = 0; i < specs.length; i++) {
    if (syncContainer(ctx, st, w, pod, specs[i], w.containers[i], i === 0) === 'blocked') break;
  }
  updatePodStatus(ctx, st, w, pod);
}

/** kubelet's ShouldContainerBeRestarted for an exited attempt. */
function shouldRestart(pod: Pod, exitCode: number): boolean {
  const p = pod.spec?.restartPolicy ?? 'Always';
  return p === 'Always' || (p === 'OnFailure' && exitCode !== 0);
}

function syncContainer(
  ctx: KCtx,
  st: KubeletState,
  w: PodWork,
  pod: Pod,
  spec: Container,
  c: ContainerWork,
  main: boolean,
): 'ok' | 'blocked' {
  if (c.pull) return 'blocked';
  const id = currentId(c);
  const rt = id ? st.runtime.containers[id] : undefined;
  if (rt?.state === 'CONTAINER_CREATED') {
    const r = StartContainer(st.runtime, rt.id, ctx.now);
    logCri(ctx, r.record, `pods/${w.key}/${c.name}`);
    st.runtime = r.state;
    if (r.error) return 'ok';
    emitForContainer(ctx, st, pod, c.name, startedContainerEvent());
    if (main) send(w, { type: 'STARTED' });
    startProbes(ctx, st, w, spec, c, rt.id);
    // An app that cannot run (a bad config, a memory leak) ends by itself after each start.
    scheduleAppExit(ctx, st, w, c.name, rt.id);
    return 'ok';
  }
  if (rt) {
    const seen = st.plegCache[rt.id];
    // Until the PLEG has seen the exit, the kubelet believes the container runs.
    if (!seen || seen.state !== 'CONTAINER_EXITED') return 'ok';
    if (!shouldRestart(pod, seen.exitCode ?? 0)) {
      if (c.exitHandled !== seen.id) {
        c.exitHandled = seen.id;
        if (main) send(w, { type: 'EXITED', code: seen.exitCode ?? 0, oom: seen.reason === 'OOMKilled' });
      }
      c.waiting = undefined;
      return 'ok';
    }
    const r = doBackOff(st.crashBackoff, podRef(w), c.name, seen.finishedAt ?? ctx.now, ctx.now);
    if (r.inBackOff) {
      c.waiting = { reason: 'CrashLoopBackOff', message: r.message };
      if (c.exitHandled !== seen.id) {
        c.exitHandled = seen.id;
        if (main)
          send(w, { type: 'EXITED', code: seen.exitCode ?? 0, oom: seen.reason === 'OOMKilled', inBackOff: true });
        emitForContainer(ctx, st, pod, c.name, r.event);
        requeue(ctx, st, w, r.restartAtMs - ctx.now);
      }
      return 'ok';
    }
    st.crashBackoff = r.backoff;
    if (c.exitHandled !== seen.id) {
      c.exitHandled = seen.id;
      if (main) send(w, { type: 'EXITED', code: seen.exitCode ?? 0, oom: seen.reason === 'OOMKilled' });
    } else if (main) send(w, { type: 'BACKOFF_EXPIRED' });
    c.nextRestartCount = seen.restartCount + 1;
  }
  // EnsureImageExists: first applyDefaultImageTag, which a reference it cannot parse fails at once
  // (no runtime call; the pod worker retries after its back-off).
  const invalid = invalidImageNameMessage(spec.image!);
  if (invalid) {
    c.waiting = { reason: 'InvalidImageName', message: invalid };
    emitForContainer(ctx, st, pod, c.name, { type: 'Warning', reason: FailedToInspectImage, message: invalid });
    emitForContainer(ctx, st, pod, c.name, errorEvent('InvalidImageName'));
    requeue(ctx, st, w, workerBackoff(ctx));
    return 'ok';
  }
  const policy = pullPolicy(spec);
  const status = ImageStatus(st.runtime, spec.image!, ctx.now);
  logCri(ctx, status.record, normalizeImageRef(spec.image!));
  if (policy === 'Never' && !status.image) {
    const message = `Container image "${spec.image}" is not present with pull policy of Never`;
    c.waiting = { reason: 'ErrImageNeverPull', message };
    emitForContainer(ctx, st, pod, c.name, { type: 'Warning', reason: 'ErrImageNeverPull', message });
    return 'ok';
  }
  if (policy === 'Always' || !status.image) {
    // No failed pull on the node: nothing to look up (the key is a fresh string per pull).
    if (
      hasBackOffEntries(st.imageBackoff) &&
      isInBackOffSinceUpdate(st.imageBackoff, imagePullBackOffKey(w.uid, spec.image!), ctx.now)
    ) {
      const m = imagePullBackOffMessage(spec.image!, c.lastPullError);
      c.waiting = { reason: 'ImagePullBackOff', message: m.message };
      emitForContainer(ctx, st, pod, c.name, m.event);
      emitForContainer(ctx, st, pod, c.name, errorEvent('ImagePullBackOff'));
      if (main) send(w, { type: 'PULL_BACKOFF' });
      requeue(ctx, st, w, workerBackoff(ctx));
      return 'ok';
    }
    if (main && (machineIs(w, 'errImagePull') || machineIs(w, 'imagePullBackOff')))
      send(w, { type: 'BACKOFF_EXPIRED' });
    emitForContainer(ctx, st, pod, c.name, pullingImageEvent(spec.image!));
    syncMissingImages(ctx, st);
    const slot = queueImagePull(ctx, st, spec.image!);
    c.pull = { startedAt: ctx.now, pullStartedAt: slot.startsAt, image: spec.image! };
    later(ctx, slot.endsAt - ctx.now, {
      type: 'pull-done',
      key: w.key,
      uid: w.uid,
      container: c.name,
      image: spec.image!,
      gen: st.gen,
    });
    return 'blocked';
  }
  emitForContainer(ctx, st, pod, c.name, imageAlreadyPresentEvent(spec.image!));
  return createContainer(ctx, st, w, pod, c);
}

function createContainer(ctx: KCtx, st: KubeletState, w: PodWork, pod: Pod, c: ContainerWork): 'ok' | 'blocked' {
  const r = CreateContainer(
    st.runtime,
    { sandboxId: w.sandboxId!, name: c.name, image: c.image, restartCount: c.nextRestartCount },
    ctx.now,
    ctx.rng.float,
  );
  logCri(ctx, r.record, `pods/${w.key}/${c.name}`);
  if (r.error || !r.container) {
    c.waiting = { reason: 'CreateContainerError', message: r.error };
    emitForContainer(ctx, st, pod, c.name, { type: 'Warning', reason: 'Failed', message: `Error: ${r.error}` });
    return 'ok';
  }
  st.runtime = r.state;
  // The last three attempts, kept in the worker's own list (nothing else holds it).
  c.attempts.push(r.container.id);
  if (c.attempts.length > 3) c.attempts.shift();
  c.waiting = undefined;
  c.probes = {};
  emitForContainer(ctx, st, pod, c.name, createdContainerEvent());
  w.busyUntil = ctx.now + ctx.rng.jitter(CREATE_TO_START_MS[0], CREATE_TO_START_MS[1]);
  later(ctx, w.busyUntil - ctx.now, { type: 'pod-sync', key: w.key, uid: w.uid, gen: st.gen });
  return 'blocked';
}

/**
 * serialImagePuller (serializeImagePulls: true, the kubelet default): one pull at a time per node, in
 * the order asked. A pull queued behind one of the same image finds its content in containerd and
 * takes only the registry round trip.
 */
function queueImagePull(ctx: KCtx, st: KubeletState, image: string): { startsAt: number; endsAt: number } {
  const ref = normalizeImageRef(image);
  const queue = (st.imagePulls ?? []).filter((p) => p.endsAt > ctx.now);
  const startsAt = queue.length ? queue[queue.length - 1].endsAt : ctx.now;
  const sameBefore = queue.some((p) => p.ref === ref) && !st.runtime.missingImages.includes(ref);
  const endsAt = startsAt + (sameBefore ? PULL_LATENCY_MS : pullImageDuration(st.runtime, image));
  queue.push({ ref, endsAt });
  st.imagePulls = queue;
  return { startsAt, endsAt };
}

/** A PullImage finished: the image is there (Pulled, then create), or ErrImagePull with the back-off bumped. */
export function pullDone(ctx: KCtx, st: KubeletState, ev: Extract<KubeletTimer, { type: 'pull-done' }>): void {
  const w = st.workers[ev.key];
  const c = w?.containers.find((x) => x.name === ev.container);
  if (!w || w.uid !== ev.uid || !c?.pull) return;
  const startedAt = c.pull.startedAt;
  // The Pulled event's two durations: the pull itself, and since it was asked for (the queue's wait too).
  const pullStartedAt = c.pull.pullStartedAt ?? startedAt;
  c.pull = undefined;
  syncMissingImages(ctx, st);
  const r = PullImage(st.runtime, ev.image, ctx.now, ctx.now - pullStartedAt);
  logCri(ctx, r.record, normalizeImageRef(ev.image));
  const pod = st.pods.items[w.key];
  if (!pod || pod.metadata?.uid !== w.uid || pod.metadata?.deletionTimestamp) {
    if (r.image) st.runtime = r.state;
    syncPod(ctx, st, w.key);
    return;
  }
  const main = w.containers[0] === c;
  if (r.error || !r.image) {
    c.lastPullError = r.error;
    c.waiting = { reason: 'ErrImagePull', message: r.error };
    st.imageBackoff = backoffNext(st.imageBackoff, imagePullBackOffKey(w.uid, ev.image), ctx.now, ctx.now);
    emitForContainer(ctx, st, pod, c.name, failedToPullImageEvent(ev.image, r.error ?? ''));
    emitForContainer(ctx, st, pod, c.name, errorEvent('ErrImagePull'));
    if (main) send(w, { type: 'PULL_FAILED', message: r.error });
    requeue(ctx, st, w, workerBackoff(ctx));
    updatePodStatus(ctx, st, w, pod);
    return;
  }
  st.runtime = r.state;
  c.lastPullError = undefined;
  emitForContainer(
    ctx,
    st,
    pod,
    c.name,
    pulledImageEvent(ev.image, ctx.now - pullStartedAt, ctx.now - startedAt, r.image.sizeBytes),
  );
  if (main) send(w, { type: 'IMAGE_PULLED' });
  if (createContainer(ctx, st, w, pod, c) === 'ok') syncPod(ctx, st, w.key);
  else updatePodStatus(ctx, st, w, pod);
}

// ---------------------------------------------------------------- probes

function probeSpec(spec: Container, t: ProbeType): Probe | undefined {
  return t === 'startup' ? spec.startupProbe : t === 'liveness' ? spec.livenessProbe : spec.readinessProbe;
}

function startProbes(ctx: KCtx, st: KubeletState, w: PodWork, spec: Container, c: ContainerWork, id: string): void {
  c.probes = {};
  // Most containers have no probe: nothing to look at (the loop stays for the ones that do).
  if (!spec.startupProbe && !spec.livenessProbe && !spec.readinessProbe) return;
  for (let i = 0; i < PROBES.length; i++) {
    const type = PROBES[i].type;
    const p = spec[PROBES[i].field];
    if (!p) continue;
    const worker = newProbeWorker(type, id, ctx.now);
    c.probes[type] = worker;
    later(
      ctx,
      firstProbeAt(ctx.now, withProbeDefaults(p)) - ctx.now,
      { type: 'probe-tick', key: w.key, uid: w.uid, container: c.name, probe: type, id, gen: st.gen },
      true,
    );
  }
}

function probeFailureOutput(p: Probe, podIP: string | undefined): string {
  if (p.httpGet) return httpProbeFailureOutput(500);
  if (p.tcpSocket) return `dial tcp ${podIP ?? ''}:${p.tcpSocket.port}: connect: connection refused`;
  return '';
}

/** One prober tick: run the probe against the simulated app, publish results, kill on liveness failure. */
export function probeTick(ctx: KCtx, st: KubeletState, ev: Extract<KubeletTimer, { type: 'probe-tick' }>): void {
  const w = st.workers[ev.key];
  const c = w?.containers.find((x) => x.name === ev.container);
  const worker = c?.probes[ev.probe];
  if (!w || w.uid !== ev.uid || !c || !worker || worker.containerId !== ev.id) return;
  const pod = st.pods.items[w.key];
  const spec = pod?.spec?.containers.find((x) => x.name === c.name);
  const p = spec && probeSpec(spec, ev.probe);
  const rt = st.runtime.containers[ev.id];
  if (!pod || !spec || !p || rt?.state !== 'CONTAINER_RUNNING' || w.terminating) return;
  const timing = withProbeDefaults(p);
  const ok = healthOf(st, w, c.name)[ev.probe] !== false;
  const started = !spec.startupProbe || c.probes.startup?.published === 'Success';
  const sandbox = w.sandboxId ? st.runtime.sandboxes[w.sandboxId] : undefined;
  const res = doProbe(worker, timing, ctx.now, {
    containerName: c.name,
    started,
    outcome: ok ? { ok } : { ok, output: probeFailureOutput(p, sandbox?.ip) },
  });
  c.probes[ev.probe] = res.worker;
  for (const e of res.events) emitForContainer(ctx, st, pod, c.name, e);
  const main = w.containers[0] === c;
  if (res.changed && ev.probe === 'readiness' && main) {
    send(
      w,
      res.worker.published === 'Success'
        ? { type: 'PROBE_OK', probe: 'readiness' }
        : { type: 'PROBE_FAILED', probe: 'readiness' },
    );
  }
  if (res.kill) {
    emitForContainer(ctx, st, pod, c.name, killingContainerEvent(c.name, res.kill.message));
    if (main) send(w, { type: 'PROBE_FAILED', probe: 'liveness' });
    stopContainer(
      ctx,
      st,
      w,
      c,
      ev.id,
      p.terminationGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30,
    );
  }
  later(
    ctx,
    res.worker.nextTickAt - ctx.now,
    { type: 'probe-tick', key: ev.key, uid: ev.uid, container: ev.container, probe: ev.probe, id: ev.id, gen: st.gen },
    true,
  );
  if (res.changed) updatePodStatus(ctx, st, w, pod);
}

// ---------------------------------------------------------------- termination

function syncTerminating(ctx: KCtx, st: KubeletState, w: PodWork, pod: Pod): void {
  if (!w.terminating) {
    const grace = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    w.terminating = { since: ctx.now, gracePeriodSeconds: grace };
    send(w, { type: 'DELETE_REQUESTED' });
    for (const c of w.containers) {
      c.pull = undefined;
      c.probes = {};
      const id = currentId(c);
      const rt = id ? st.runtime.containers[id] : undefined;
      if (!rt || rt.state === 'CONTAINER_EXITED') continue;
      if (rt.state === 'CONTAINER_CREATED') {
        containerExit(st, rt.id, ctx.now, 0);
        continue;
      }
      emitForContainer(ctx, st, pod, c.name, killingContainerEvent(c.name));
      stopContainer(ctx, st, w, c, rt.id, grace);
    }
  }
  // Done when every attempt has exited and the PLEG has seen it.
  const stopped = w.containers.every((c) => {
    const id = currentId(c);
    const rt = id ? st.runtime.containers[id] : undefined;
    return !rt || (rt.state === 'CONTAINER_EXITED' && st.plegCache[rt.id]?.state === 'CONTAINER_EXITED');
  });
  if (!stopped) {
    updatePodStatus(ctx, st, w, pod);
    return;
  }
  if (w.sandboxId && !w.sandboxStopped) {
    const r = StopPodSandbox(st.runtime, w.sandboxId, ctx.now);
    st.runtime = r.state;
    logCri(ctx, r.record, `pods/${w.key}`);
    w.sandboxStopped = true;
    send(w, { type: 'CONTAINERS_STOPPED' });
  }
  // Once terminal the status manager syncs the pod (GET, a PATCH if needed) and deletes it.
  if (!updatePodStatus(ctx, st, w, pod, true, !w.finalDeleteSent) || w.finalDeleteSent) return;
  // status manager: the pod is terminal and its status is written → delete it for good.
  ctx.throttle(true);
  const r = ctx.api.delete('pods', w.namespace, w.name, { gracePeriodSeconds: 0, preconditions: { uid: w.uid } });
  if (r.ok || r.code === 404) w.finalDeleteSent = true;
}

/** The pod is gone from the API (final delete, force delete): kill what is left, remove the sandbox. */
export function teardown(ctx: KCtx, st: KubeletState, w: PodWork): void {
  for (const c of w.containers) {
    const id = currentId(c);
    const rt = id ? st.runtime.containers[id] : undefined;
    if (rt && rt.state !== 'CONTAINER_EXITED') {
      const r = StopContainer(st.runtime, rt.id, 0, ctx.now);
      logCri(ctx, r.record, `pods/${w.key}/${c.name}`);
      st.runtime = containerExited(r.state, rt.id, ctx.now, { exitCode: 137 });
    }
  }
  if (w.sandboxId && st.runtime.sandboxes[w.sandboxId]) {
    if (!w.sandboxStopped) {
      const s = StopPodSandbox(st.runtime, w.sandboxId, ctx.now);
      st.runtime = s.state;
      logCri(ctx, s.record, `pods/${w.key}`);
    }
    const r = RemovePodSandbox(st.runtime, w.sandboxId, ctx.now);
    st.runtime = r.state;
    logCri(ctx, r.record, `pods/${w.key}`);
  }
  for (const c of w.containers) for (const id of c.attempts) delete st.plegCache[id];
  plegSeen.delete(st.plegCache);
  delete st.workers[w.key];
}

// ---------------------------------------------------------------- status manager

function containerViews(st: KubeletState, w: PodWork, pod: Pod): ContainerView[] {
  const specs = pod.spec!.containers;
  const views: ContainerView[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    const c = w.containers[i];
    // The attempt the PLEG last saw (and the one before it), found in place (as viewsUnchanged does).
    const current = attemptSeen(st, c, 0);
    const previous = current && attemptSeen(st, c, 1);
    const running = current?.state === 'CONTAINER_RUNNING';
    const started = running && (!spec.startupProbe || c.probes.startup?.published === 'Success');
    const ready = started && (!spec.readinessProbe || c.probes.readiness?.published === 'Success');
    const waiting = running ? undefined : c.waiting;
    views.push({
      name: c.name,
      image: spec.image!,
      current,
      previous,
      waiting,
      ready,
      started,
      volumeMounts: spec.volumeMounts,
      resources: spec.resources,
    });
  }
  return views;
}

/** The newest (nth 0) or the one before (nth 1) of a container's attempts that the PLEG has seen. */
function attemptSeen(st: KubeletState, c: PodWork['containers'][number], nth: 0 | 1): ContainerRecord | undefined {
  let k = 0;
  for (let j = c.attempts.length - 1; j >= 0; j--) {
    const r = st.plegCache[c.attempts[j]];
    if (r && k++ === nth) return r;
  }
  return undefined;
}

/** The inputs of a status generation whose result deepEquals `base` (see unchangedStatus). */
export interface StatusInputs {
  pod: Pod;
  base: PodStatus;
  sandbox?: object;
  terminal: boolean;
  views: ContainerView[];
}

/** Tests: also run the full generation on a memo hit and throw if it would have written something. */
const testing = { verifyUnchanged: false };
/** Turn the check of the unchanged-status shortcut against the full generation on or off (tests). */
export function setVerifyUnchangedStatus(on: boolean): void {
  testing.verifyUnchanged = on;
}

/** Whether the pod's containers would now give exactly `views` (checked without building new views). */
function viewsUnchanged(views: ContainerView[], st: KubeletState, w: PodWork, pod: Pod): boolean {
  const specs = pod.spec!.containers;
  if (views.length !== specs.length) return false;
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    const c = w.containers[i];
    const v = views[i];
    const current = attemptSeen(st, c, 0);
    const previous = current && attemptSeen(st, c, 1);
    if (current !== v.current || previous !== v.previous) return false;
    const running = current?.state === 'CONTAINER_RUNNING';
    const started = running && (!spec.startupProbe || c.probes.startup?.published === 'Success');
    const ready = started && (!spec.readinessProbe || c.probes.readiness?.published === 'Success');
    const waiting = running ? undefined : c.waiting;
    if (
      v.started !== started ||
      v.ready !== ready ||
      v.waiting !== waiting ||
      v.image !== spec.image ||
      v.name !== c.name ||
      v.volumeMounts !== spec.volumeMounts ||
      v.resources !== spec.resources
    )
      return false;
  }
  return true;
}

/**
 * Generate the API status and PATCH it (RFC 7386 diff against what the server holds) if it differs.
 * Returns true when the server holds the generated status.
 */
export function updatePodStatus(
  ctx: KCtx,
  st: KubeletState,
  w: PodWork,
  pod: Pod,
  terminal = false,
  syncing = false,
): boolean {
  const fresh = w.lastSent === undefined || Number(pod.metadata?.resourceVersion ?? 0) >= (w.lastSentRevision ?? 0);
  const base: PodStatus = (fresh ? pod.status : w.lastSent) ?? {};
  const sandbox = w.sandboxReady && w.sandboxId && !w.sandboxStopped ? st.runtime.sandboxes[w.sandboxId] : undefined;
  const memo = unchangedStatus.get(w);
  // The generation counts too: the status carries it as observedGeneration (and a graceful deletion bumps it).
  if (
    memo &&
    memo.sandbox === sandbox &&
    memo.terminal === terminal &&
    (memo.pod === pod || (pod.spec === memo.pod.spec && pod.metadata?.generation === memo.pod.metadata?.generation)) &&
    viewsUnchanged(memo.views, st, w, pod)
  ) {
    let hit = memo.pod === pod && memo.base === base;
    if (!hit && fresh && deepEqual(base, memo.base)) {
      hit = true;
      memo.pod = pod;
      memo.base = base;
    }
    if (hit) {
      if (
        testing.verifyUnchanged &&
        !isEmptyPatch(
          createMergePatch(base, generatePodStatus(ctx, st, pod, base, sandbox, containerViews(st, w, pod), terminal)),
        )
      ) {
        throw new Error(`unchanged-status shortcut disagrees with the generation for ${w.key}`);
      }
      return !syncing || getForStatusSync(ctx, st, w) !== undefined;
    }
  }
  const views = containerViews(st, w, pod);
  const status = generatePodStatus(ctx, st, pod, base, sandbox, views, terminal);
  // An empty merge patch is the same test as deepEqual(status, base), and saves comparing twice.
  let patch = createMergePatch(base, status);
  if (isEmptyPatch(patch)) {
    remember(w, memo, pod, base, sandbox, terminal, views);
    return !syncing || getForStatusSync(ctx, st, w) !== undefined;
  }
  // The status manager's syncPod reads the pod from the API server first and patches against what
  // that returns (statusutil.PatchPodStatus sends nothing when the patch comes out empty).
  const live = getForStatusSync(ctx, st, w);
  if (!live) return false;
  if (live.status !== base) {
    patch = createMergePatch(live.status ?? {}, status);
    if (isEmptyPatch(patch)) {
      remember(w, memo, pod, status, sandbox, terminal, views);
      return true;
    }
  }
  // The PATCH follows its GET at once: it takes its token even if that means waiting (debt) for the next.
  ctx.throttle(true);
  const r = ctx.api.patch('pods', w.namespace, w.name, { metadata: { uid: w.uid }, status: patch }, 'status', {
    patchType: 'merge',
  });
  if (!r.ok) return false;
  w.lastSent = status;
  w.lastSentRevision = r.revision ?? Number(r.object.metadata?.resourceVersion ?? 0);
  remember(w, memo, pod, status, sandbox, terminal, views);
  return true;
}

/**
 * syncPod's GET of the pod (the live object, not the informer's); undefined when it fails or the pod
 * is another one now, or when the kubelet's client has no token: the sync then waits, in order.
 */
function getForStatusSync(ctx: KCtx, st: KubeletState, w: PodWork): Pod | undefined {
  const waiting = st.statusWaiting;
  const wait = waiting ? 0 : ctx.throttle();
  if (waiting || wait > 0) {
    if (!waiting) {
      st.statusWaiting = [];
      later(ctx, wait, { type: 'status-retry', gen: st.gen });
    }
    if (!st.statusWaiting!.includes(w.key)) st.statusWaiting!.push(w.key);
    return undefined;
  }
  const g = ctx.api.get('pods', w.namespace, w.name);
  return g.ok && g.object.metadata?.uid === w.uid ? g.object : undefined;
}

/** Record the inputs that generate `base` (in the worker's memo object when it has one). */
function remember(
  w: PodWork,
  memo: StatusInputs | undefined,
  pod: Pod,
  base: PodStatus,
  sandbox: SandboxRecord | undefined,
  terminal: boolean,
  views: ContainerView[],
): void {
  if (!memo) {
    unchangedStatus.set(w, { pod, base, sandbox, terminal, views });
    return;
  }
  memo.pod = pod;
  memo.base = base;
  memo.sandbox = sandbox;
  memo.terminal = terminal;
  memo.views = views;
}

/** The status the kubelet would write, built on `base` (what the server holds, as far as it knows). */
function generatePodStatus(
  ctx: KCtx,
  st: KubeletState,
  pod: Pod,
  base: PodStatus,
  sandbox: SandboxRecord | undefined,
  views: ContainerView[],
  terminal: boolean,
): PodStatus {
  // The pod's foreign conditions and the base's own, foreign first. Built on the server's status
  // (base is pod.status) that is the pod's list itself: the generation takes the foreign ones in
  // their order and finds the rest by type, which the split by type does not change.
  const foreign = pod.status?.conditions;
  const own = base.conditions;
  let conditions: PodCondition[] | undefined = foreign;
  if (foreign !== own) {
    conditions = [];
    if (foreign)
      for (let i = 0; i < foreign.length; i++)
        if (!isPodConditionByKubelet(foreign[i].type)) conditions.push(foreign[i]);
    if (own) for (let i = 0; i < own.length; i++) if (isPodConditionByKubelet(own[i].type)) conditions.push(own[i]);
  }
  const status = generateAPIPodStatus({
    // generation reads only the conditions, startTime and IP lists (reused when unchanged) of the status it builds on
    pod,
    status: { conditions, startTime: base.startTime, hostIPs: base.hostIPs, podIPs: base.podIPs },
    sandbox,
    containers: views,
    hostIP: st.cfg.internalIP,
    now: ctx.now,
  });
  if (terminal) status.phase = getPhase(pod, status.containerStatuses ?? [], true);
  if (!sandbox && base.podIP) {
    // The pod keeps the IP it was given until it is gone (the kubelet does not blank it).
    status.podIP = base.podIP;
    status.podIPs = base.podIPs;
  }
  if (pod.spec?.hostNetwork && status.podIP) {
    status.podIP = st.cfg.internalIP;
    status.podIPs = [{ ip: st.cfg.internalIP }];
  }
  return status;
}
