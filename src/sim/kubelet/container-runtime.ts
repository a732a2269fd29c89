// containerd behind the CRI, as plain data per node. Each operation is named after the CRI call
// (k8s.io/cri-api runtime.v1 RuntimeService / ImageService) and returns the record the request log holds.
// Timers are not here: a pull or a graceful stop takes time, so the call returns how long, and the core
// schedules the completion (containerExited) on its own clock.
import { copyDict, newDict } from '../util/dict.ts';
import { allocatePodIP, releasePodIP, type PodIPAllocator } from './pod-ip.ts';
import {
  componentNames,
  criPaths,
  imageIDs,
  imageRepos,
  mapChangeLogs,
  normalizedRefs,
} from './container-runtime-cache.ts';
import { lastCall } from '../util/memo.ts';

/** Randomness comes from the world's seeded generator, injected as a function returning [0, 1). */
type Rng = () => number;

/** runtime.v1 ContainerState names. */
type CriContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED';

/** An image in containerd's store. */
export interface ImageRecord {
  /** fully qualified ref, e.g. docker.io/library/nginx:1.27 */
  ref: string;
  /** image ID the kubelet reports as imageID's digest part */
  id: string;
  sizeBytes: number;
}

/** A pod sandbox (the pause container plus its network namespace). */
export interface SandboxRecord {
  id: string;
  podUID: string;
  podName: string;
  namespace: string;
  attempt: number;
  state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
  ip: string;
  createdAt: number;
}

/** One container attempt. restartCount is the CRI "attempt" the kubelet stamps on it. */
export interface ContainerRecord {
  id: string;
  sandboxId: string;
  name: string;
  image: string;
  imageRef: string;
  state: CriContainerState;
  restartCount: number;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  /** containerd's reason: Completed (0), Error (non-zero), OOMKilled */
  reason?: string;
  message?: string;
  /** set by StopContainer so a later exit is known to be the kubelet's doing */
  stopRequestedAt?: number;
  /** What the app wrote to stdout/stderr (the simulated apps write only what a crash injection gives them). */
  log?: string;
}

/** Everything containerd on one node holds. */
export interface RuntimeState {
  node: string;
  /** download speed for image pulls, bytes per second */
  bandwidthBytesPerSec: number;
  /** images present, by fully qualified ref */
  images: Record<string, ImageRecord>;
  /** refs (fully qualified) that the registry does not have: pulling them fails with NotFound */
  missingImages: string[];
  sandboxes: Record<string, SandboxRecord>;
  containers: Record<string, ContainerRecord>;
  ipam: PodIPAllocator;
}

/** A CRI call as the request log records it (kind 'cri'); code is the gRPC status name. */
export interface CriRecord {
  t: number;
  component: string;
  kind: 'cri';
  verb: string;
  path: string;
  node: string;
  code: 'OK' | 'NotFound' | 'Unknown' | 'ResourceExhausted';
  object?: Record<string, unknown>;
  message?: string;
}

/** Approximate compressed sizes of the images the site uses (bytes). */
const IMAGE_SIZES: Record<string, number> = {
  'docker.io/library/nginx:1.27': 72_400_000,
  'docker.io/library/nginx:1.28': 72_200_000,
  'docker.io/library/busybox:1.36': 2_160_000,
  'docker.io/library/redis:7.4': 45_600_000,
  'registry.k8s.io/pause:3.10': 320_000,
};
/** Size assumed for an image not in the table. */
const DEFAULT_IMAGE_SIZE = 30_000_000;
/** Registry round trips (token, manifest, config) before layers flow. */
export const PULL_LATENCY_MS = 600;

/** The image the sandbox runs. */
const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';

/** Docker-style normalisation containerd applies: nginx → docker.io/library/nginx:latest. */
export function normalizeImageRef(image: string): string {
  let ref = normalizedRefs.get(image);
  if (ref === undefined) {
    ref = computeNormalizedRef(image);
    if (normalizedRefs.size >= 4096) normalizedRefs.clear();
    normalizedRefs.set(image, ref);
  }
  return ref;
}

function computeNormalizedRef(image: string): string {
  let name = image;
  const slash = name.indexOf('/');
  const first = slash === -1 ? '' : name.slice(0, slash);
  if (slash === -1) name = `docker.io/library/${name}`;
  else if (!(first.includes('.') || first.includes(':') || first === 'localhost')) name = `docker.io/${name}`;
  const lastPart = name.slice(name.lastIndexOf('/') + 1);
  if (!lastPart.includes(':') && !lastPart.includes('@')) name += ':latest';
  return name;
}

/** Character codes of the hex digits 0-9a-f. */
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/** The 64 character codes of the id being built (reused: the id is made in one go from them). */
const idCodes: number[] = new Array<number>(64).fill(48);

/** 64 hex digits, four per draw (high nibble first), as one flat string: ids key runtime maps, and a
 * string concatenated piece by piece would be a chain of ropes to flatten when it is first used as a key. */
function hex64(rng: Rng): string {
  for (let i = 0; i < 16; i++) {
    const v = Math.floor(rng() * 0x10000);
    idCodes[4 * i] = HEX_CODES[v >> 12];
    idCodes[4 * i + 1] = HEX_CODES[(v >> 8) & 15];
    idCodes[4 * i + 2] = HEX_CODES[(v >> 4) & 15];
    idCodes[4 * i + 3] = HEX_CODES[v & 15];
  }
  return String.fromCharCode.apply(null, idCodes);
}

/** A stable sha256-looking digest for an image ref (FNV-1a stretched to 64 hex digits). */
function fakeDigest(ref: string): string {
  let out = '';
  let h = 0x811c9dc5;
  for (let round = 0; out.length < 64; round++) {
    for (const ch of `${round}:${ref}`) {
      h ^= ch.charCodeAt(0);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 64);
}

function imageID(ref: string): string {
  let id = imageIDs.get(ref);
  if (id === undefined) {
    id = `sha256:${fakeDigest(ref)}`;
    if (imageIDs.size >= 4096) imageIDs.clear();
    imageIDs.set(ref, id);
  }
  return id;
}

/** A node's containerd with nothing but the pause image (kubeadm pre-pulls it). */
export function newRuntimeState(node: string, ipam: PodIPAllocator, bandwidthBytesPerSec = 12_500_000): RuntimeState {
  const pause = { ref: PAUSE_IMAGE, id: imageID(PAUSE_IMAGE), sizeBytes: IMAGE_SIZES[PAUSE_IMAGE] };
  const images = newDict<ImageRecord>();
  images[PAUSE_IMAGE] = pause;
  return { node, bandwidthBytesPerSec, images, missingImages: [], sandboxes: newDict(), containers: newDict(), ipam };
}

const componentOf = lastCall((node: string): string => {
  let component = componentNames.get(node);
  if (component === undefined) {
    component = `containerd/${node}`;
    if (componentNames.size >= 65536) componentNames.clear();
    componentNames.set(node, component);
  }
  return component;
});

/** A CRI record; its fields in the order `{ …, code, ...{ message, object } }` gave (no options object spread per call). */
function record(
  s: RuntimeState,
  t: number,
  service: 'RuntimeService' | 'ImageService',
  verb: string,
  object?: Record<string, unknown>,
  code: CriRecord['code'] = 'OK',
  message?: string,
): CriRecord {
  let path = criPaths.get(verb);
  if (path === undefined) {
    path = `/runtime.v1.${service}/${verb}`;
    criPaths.set(verb, path);
  }
  const r: CriRecord = { t, component: componentOf(s.node), kind: 'cri', verb, path, node: s.node, code };
  if (message !== undefined) r.message = message;
  if (object !== undefined) r.object = object;
  return r;
}

/** ImageStatus: is the image present (kubelet asks before deciding to pull)? */
export function ImageStatus(s: RuntimeState, image: string, now: number): { image?: ImageRecord; record: CriRecord } {
  const ref = normalizeImageRef(image);
  return { image: s.images[ref], record: record(s, now, 'ImageService', 'ImageStatus', { image: ref }) };
}

/** How long PullImage takes on this node: registry latency + size / bandwidth. */
export function pullImageDuration(s: RuntimeState, image: string): number {
  const ref = normalizeImageRef(image);
  if (s.missingImages.includes(ref)) return PULL_LATENCY_MS; // the manifest lookup fails fast
  const size = IMAGE_SIZES[ref] ?? DEFAULT_IMAGE_SIZE;
  return PULL_LATENCY_MS + Math.round((size / s.bandwidthBytesPerSec) * 1000);
}

/** The error containerd returns for a tag the registry does not have. */
export function imageNotFoundError(image: string): string {
  const ref = normalizeImageRef(image);
  return `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
}

/** PullImage, applied when the pull completes (call it pullImageDuration after the kubelet asked). */
export function PullImage(
  s: RuntimeState,
  image: string,
  now: number,
  durationMs = pullImageDuration(s, image),
): { state: RuntimeState; record: CriRecord; image?: ImageRecord; error?: string } {
  const ref = normalizeImageRef(image);
  if (s.missingImages.includes(ref)) {
    const error = imageNotFoundError(image);
    return {
      state: s,
      error,
      record: record(s, now, 'ImageService', 'PullImage', { image: ref, durationMs }, 'NotFound', error),
    };
  }
  const had = s.images[ref];
  const img: ImageRecord = had ?? { ref, id: imageID(ref), sizeBytes: IMAGE_SIZES[ref] ?? DEFAULT_IMAGE_SIZE };
  return {
    // A pull of an image the node already has (pulls started side by side) changes nothing.
    state: had ? s : { ...s, images: copyDict(s.images, ref, img) },
    image: img,
    record: record(s, now, 'ImageService', 'PullImage', { image: ref, imageRef: img.id, durationMs }),
  };
}

/** RunPodSandbox: pause container plus CNI ADD, which takes the next pod IP. */
export function RunPodSandbox(
  s: RuntimeState,
  pod: { uid: string; name: string; namespace: string; attempt?: number },
  now: number,
  rng: Rng,
): { state: RuntimeState; record: CriRecord; sandbox?: SandboxRecord; error?: string } {
  const id = hex64(rng);
  const alloc = allocatePodIP(s.ipam, id);
  if ('error' in alloc) {
    const error = `rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": plugin type="bridge" failed (add): ${alloc.error}`;
    return { state: s, error, record: record(s, now, 'RuntimeService', 'RunPodSandbox', undefined, 'Unknown', error) };
  }
  const sandbox: SandboxRecord = {
    id,
    podUID: pod.uid,
    podName: pod.name,
    namespace: pod.namespace,
    attempt: pod.attempt ?? 0,
    state: 'SANDBOX_READY',
    ip: alloc.ip,
    createdAt: now,
  };
  return {
    state: { ...s, ipam: alloc.allocator, sandboxes: setInPlace(s.sandboxes, id, sandbox) },
    sandbox,
    record: record(s, now, 'RuntimeService', 'RunPodSandbox', {
      podSandboxId: id,
      ip: alloc.ip,
      pod: `${pod.namespace}/${pod.name}`,
    }),
  };
}

/** StopPodSandbox: tear the network down (the IP goes back to the pool) and stop pause. */
export function StopPodSandbox(
  s: RuntimeState,
  sandboxId: string,
  now: number,
): { state: RuntimeState; record: CriRecord } {
  const sb = s.sandboxes[sandboxId];
  const state = sb
    ? {
        ...s,
        ipam: releasePodIP(s.ipam, sandboxId),
        sandboxes: copyDict(s.sandboxes, sandboxId, { ...sb, state: 'SANDBOX_NOTREADY' as const }),
      }
    : s;
  return { state, record: record(s, now, 'RuntimeService', 'StopPodSandbox', { podSandboxId: sandboxId }) };
}

/** RemovePodSandbox: stops it if needed, then forgets it and its containers. */
export function RemovePodSandbox(
  s: RuntimeState,
  sandboxId: string,
  now: number,
): { state: RuntimeState; record: CriRecord } {
  const stopped = StopPodSandbox(s, sandboxId, now).state;
  const sandboxes = copyDict(stopped.sandboxes);
  delete sandboxes[sandboxId];
  const containers = newDict<ContainerRecord>();
  for (const id in stopped.containers) {
    const c = stopped.containers[id];
    if (c.sandboxId !== sandboxId) containers[id] = c;
  }
  return {
    state: { ...stopped, sandboxes, containers },
    record: record(s, now, 'RuntimeService', 'RemovePodSandbox', { podSandboxId: sandboxId }),
  };
}

/** CreateContainer in a sandbox from a present image. */
export function CreateContainer(
  s: RuntimeState,
  args: { sandboxId: string; name: string; image: string; restartCount: number },
  now: number,
  rng: Rng,
): { state: RuntimeState; record: CriRecord; container?: ContainerRecord; error?: string } {
  const ref = normalizeImageRef(args.image);
  const img = s.images[ref];
  if (!s.sandboxes[args.sandboxId] || !img) {
    const error = !img
      ? `rpc error: code = NotFound desc = image "${ref}" not found`
      : `rpc error: code = NotFound desc = sandbox ${args.sandboxId} not found`;
    return {
      state: s,
      error,
      record: record(s, now, 'RuntimeService', 'CreateContainer', undefined, 'NotFound', error),
    };
  }
  const c: ContainerRecord = {
    id: hex64(rng),
    sandboxId: args.sandboxId,
    name: args.name,
    image: ref,
    imageRef: img.id,
    state: 'CONTAINER_CREATED',
    restartCount: args.restartCount,
    createdAt: now,
  };
  // Only the containers map changes, in place: the state object itself is the new state.
  setInPlace(s.containers, c.id, c);
  return {
    state: s,
    container: c,
    record: record(s, now, 'RuntimeService', 'CreateContainer', {
      containerId: c.id,
      name: c.name,
      attempt: c.restartCount,
    }),
  };
}

/** How many in-place updates `map` has had (0 for a fresh or restored map). */
export function mapVersion(map: object): number {
  return mapChangeLogs.get(map)?.length ?? 0;
}
/** The keys set in place in `map`, oldest first (entry i made version i + 1; a key may recur). */
export function mapChangeLog(map: object): readonly string[] {
  return mapChangeLogs.get(map) ?? NO_CHANGES;
}
const NO_CHANGES: readonly string[] = Object.freeze([]);
function setInPlace<T>(map: Record<string, T>, key: string, value: T): Record<string, T> {
  map[key] = value;
  const log = mapChangeLogs.get(map);
  if (log) log.push(key);
  else mapChangeLogs.set(map, [key]);
  return map;
}

/** StartContainer: created → running. */
export function StartContainer(
  s: RuntimeState,
  containerId: string,
  now: number,
): { state: RuntimeState; record: CriRecord; error?: string } {
  const c = s.containers[containerId];
  if (!c || c.state !== 'CONTAINER_CREATED') {
    const error = `rpc error: code = Unknown desc = failed to start container "${containerId}": container is not in created state`;
    return { state: s, error, record: record(s, now, 'RuntimeService', 'StartContainer', undefined, 'Unknown', error) };
  }
  setInPlace(s.containers, containerId, { ...c, state: 'CONTAINER_RUNNING' as const, startedAt: now });
  return {
    state: s,
    record: record(s, now, 'RuntimeService', 'StartContainer', { containerId }),
  };
}

/**
 * StopContainer with a grace timeout: SIGTERM now; the process exits after shutdownMs if it handles
 * SIGTERM (exit 0, or 143 if it dies of it), otherwise SIGKILL at the timeout (137).
 * Returns when the exit happens; the core calls containerExited then.
 */
export function StopContainer(
  s: RuntimeState,
  containerId: string,
  timeoutSeconds: number,
  now: number,
  behaviour: { handlesSigterm: boolean; shutdownMs: number } = { handlesSigterm: true, shutdownMs: 100 },
): { state: RuntimeState; record: CriRecord; exitAt: number; exitCode: number } {
  const c = s.containers[containerId];
  const graceMs = Math.max(0, timeoutSeconds) * 1000;
  const byTerm = behaviour.handlesSigterm && behaviour.shutdownMs <= graceMs;
  const exitAt = now + (byTerm ? behaviour.shutdownMs : graceMs);
  const exitCode = byTerm ? 0 : 137;
  const state =
    c && c.state !== 'CONTAINER_EXITED'
      ? { ...s, containers: copyDict(s.containers, containerId, { ...c, stopRequestedAt: now }) }
      : s;
  return {
    state,
    exitAt,
    exitCode,
    record: record(s, now, 'RuntimeService', 'StopContainer', { containerId, timeout: timeoutSeconds }),
  };
}

/** containerd's termination reason for an exit (what the kubelet shows as state.terminated.reason). */
function exitReason(exitCode: number, oom: boolean): string {
  if (oom) return 'OOMKilled';
  return exitCode === 0 ? 'Completed' : 'Error';
}

/** A running container's process ended (normal exit, crash, stop, or OOM kill: exit 137, OOMKilled). */
export function containerExited(
  s: RuntimeState,
  containerId: string,
  now: number,
  exit: { exitCode: number; oom?: boolean; log?: string },
): RuntimeState {
  const c = s.containers[containerId];
  if (!c || c.state === 'CONTAINER_EXITED') return s;
  const exitCode = exit.oom ? 137 : exit.exitCode;
  const done: ContainerRecord = {
    ...c,
    state: 'CONTAINER_EXITED',
    finishedAt: now,
    exitCode,
    reason: exitReason(exitCode, !!exit.oom),
    startedAt: c.startedAt ?? now,
  };
  // An app's last words end with a newline, as a line written to stderr does.
  if (exit.log) done.log = (c.log ?? '') + (exit.log.endsWith('\n') ? exit.log : `${exit.log}\n`);
  return { ...s, containers: copyDict<ContainerRecord>(s.containers, containerId, done) };
}

/** Crash injection: the app exits with a non-zero code. */
export function injectCrash(s: RuntimeState, containerId: string, now: number, exitCode = 1): RuntimeState {
  return containerExited(s, containerId, now, { exitCode });
}

/** OOM injection: the kernel kills the container (exit 137, reason OOMKilled). */
export function injectOOMKill(s: RuntimeState, containerId: string, now: number): RuntimeState {
  return containerExited(s, containerId, now, { exitCode: 137, oom: true });
}

/** ContainerStatus: one container's record (the PLEG reads exit codes and times from it). */
export function ContainerStatus(
  s: RuntimeState,
  containerId: string,
  now: number,
): { container?: ContainerRecord; record: CriRecord } {
  const container = s.containers[containerId];
  return {
    container,
    record: container
      ? record(s, now, 'RuntimeService', 'ContainerStatus', { containerId })
      : record(
          s,
          now,
          'RuntimeService',
          'ContainerStatus',
          undefined,
          'NotFound',
          `rpc error: code = NotFound desc = an error occurred when try to find container "${containerId}": not found`,
        ),
  };
}

/** ListPodSandbox, oldest first. */
export function ListPodSandbox(s: RuntimeState, now: number): { sandboxes: SandboxRecord[]; record: CriRecord } {
  const sandboxes = Object.values(s.sandboxes).sort((a, b) => a.createdAt - b.createdAt);
  return { sandboxes, record: record(s, now, 'RuntimeService', 'ListPodSandbox', { count: sandboxes.length }) };
}

/** ListContainers, optionally for one sandbox, oldest first (PLEG relists this every second). */
export function ListContainers(
  s: RuntimeState,
  now: number,
  filter: { sandboxId?: string } = {},
): { containers: ContainerRecord[]; record: CriRecord } {
  const containers = Object.values(s.containers)
    .filter((c) => !filter.sandboxId || c.sandboxId === filter.sandboxId)
    .sort((a, b) => a.createdAt - b.createdAt || a.restartCount - b.restartCount);
  return { containers, record: record(s, now, 'RuntimeService', 'ListContainers', { count: containers.length }) };
}

/** The kubelet's containerID for a container: containerd://<64 hex>. */
export function kubeContainerID(c: ContainerRecord): string {
  return `containerd://${c.id}`;
}

/** The kubelet's imageID for a container: the repo digest form docker.io/library/nginx@sha256:…. */
export function kubeImageID(c: ContainerRecord): string {
  let repo = imageRepos.get(c.image);
  if (repo === undefined) {
    repo = c.image.replace(/:[^:/]+$/, '');
    if (imageRepos.size >= 4096) imageRepos.clear();
    imageRepos.set(c.image, repo);
  }
  return `${repo}@${c.imageRef}`;
}
