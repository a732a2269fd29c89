// The kubelet component's plain-data state and the small helpers its parts share.
import type { Node, Pod, PodStatus, NodeStatus } from 'kubernetes-types/core/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { InformerState } from '../client-go/informer.ts';
import type { EventRecorderState } from '../client-go/record.ts';
import { recordEvent } from '../client-go/record.ts';
import { deepEqual as fastDeepEqual } from '../util/names.ts';
import type { ClientCtx } from '../world.ts';
import type { Backoff, KubeletEvent } from './backoff.ts';
import type { ContainerRecord, CriRecord, RuntimeState } from './container-runtime.ts';
import { mapVersion } from './container-runtime.ts';
import type { PodMachineContext } from './pod-machine.ts';
import type { ProbeType, ProbeWorker } from './probes.ts';
import type { NodeConfig } from './node-status.ts';

/** The simulated application in one container: healthy unless a fault says otherwise. */
export interface ContainerHealth {
  /** probe answers (false = the probe fails) */
  liveness?: boolean;
  readiness?: boolean;
  startup?: boolean;
  /** the process ignores SIGTERM (it is SIGKILLed at the end of the grace period) */
  ignoresSigterm?: boolean;
  /** how long it takes to exit on SIGTERM */
  shutdownMs?: number;
  /**
   * The app ends by itself this long after each start (a crash loop): with exitCode and its last words
   * in the log, or, with oom, killed by the kernel for going over its memory limit (exit 137, OOMKilled).
   * Null: it runs until stopped again.
   */
  exits?: AppExit | null;
}

/** How a crash-looping app ends each attempt (ContainerHealth.exits). */
interface AppExit {
  afterMs: number;
  exitCode: number;
  oom?: boolean;
  log?: string;
}

/** The kubelet's view of one container of a pod. */
export interface ContainerWork {
  name: string;
  image: string;
  /** runtime container ids of the attempts, oldest first (the last is the current one) */
  attempts: string[];
  /** attempt number (restartCount) the next CreateContainer gets */
  nextRestartCount: number;
  /** the kubelet's reason for not running it (ErrImagePull, ImagePullBackOff, CrashLoopBackOff …) */
  waiting?: { reason: string; message?: string };
  /** a PullImage in flight */
  /** a pull asked for at startedAt; the serial puller runs it from pullStartedAt */
  pull?: { startedAt: number; pullStartedAt?: number; image: string };
  lastPullError?: string;
  /** the exited attempt whose exit has been acted on */
  exitHandled?: string;
  /** probe workers of the current attempt */
  probes: Partial<Record<ProbeType, ProbeWorker>>;
}

/** One pod worker (pkg/kubelet/pod_workers.go) and the status manager's memory of the pod. */
export interface PodWork {
  key: string;
  uid: string;
  name: string;
  namespace: string;
  /** the pod lifecycle statechart, persisted (value + context) */
  machine: { value: unknown; context: PodMachineContext };
  sandboxId?: string;
  sandboxReady?: boolean;
  sandboxAttempt: number;
  /** a continuation (sandbox set-up, container create → start) is scheduled for this time */
  busyUntil: number;
  /** the pod worker's pending re-sync (after an error or at the end of a back-off) */
  resyncAt?: number;
  containers: ContainerWork[];
  terminating?: { since: number; gracePeriodSeconds: number };
  sandboxStopped?: boolean;
  finalDeleteSent?: boolean;
  /** the status last written successfully, and the revision that write made */
  lastSent?: PodStatus;
  lastSentRevision?: number;
  /** the token manager's cache: the projected service-account token was fetched (token-manager.ts) */
  tokenFetched?: boolean;
}

/** Everything one kubelet instance holds. */
export interface KubeletState {
  cfg: NodeConfig;
  /** Pods (keys, in order) whose status sync waits for a token of the kubelet's client. */
  statusWaiting?: string[];
  /** bumped at each power-off/boot: timers of an earlier boot are ignored */
  gen: number;
  up: boolean;
  bootedAt: number;
  bootID: string;
  /** containerd on this node (images survive a power-off) */
  runtime: RuntimeState;
  /** the PLEG's cache: runtime containers as of the last relist */
  plegCache: Record<string, ContainerRecord>;
  recorder: EventRecorderState;
  pods: InformerState<Pod>;
  /** its own Node (fieldSelector metadata.name=<node>): the nodeLister tryUpdateNodeStatus reads first */
  nodes: InformerState<Node>;
  /**
   * The serial image puller's queue (serializeImagePulls, the default): pulls asked for and when each
   * ends, in order; ended ones are dropped when the next is asked for.
   */
  imagePulls?: { ref: string; endsAt: number }[];
  workers: Record<string, PodWork>;
  crashBackoff: Backoff;
  imageBackoff: Backoff;
  nodeUID?: string;
  registered: boolean;
  lease?: Lease;
  leaseRetries: number;
  nodeReported?: NodeStatus;
  nodeReportedAt?: number;
  /** lastNodeUnschedulable: the Node's spec.unschedulable as last seen (absent: false) */
  lastNodeUnschedulable?: boolean;
  /** `ns/pod/container` → the simulated app's health (faults and test hooks) */
  health: Record<string, ContainerHealth>;
  /** when fastStatusUpdateOnce's next try is due (absent once it has ended) */
  fastStatusAt?: number;
  /** when the next (recurring) PLEG relist is due */
  plegNextAt?: number;
  /** when the pending one-shot `pleg-pending` marker is due (it holds `settle` open until that relist) */
  plegMarkerAt?: number;
}

/** Timer and continuation events the kubelet schedules for itself (each tagged with its boot). */
export type KubeletTimer =
  /** the sync loop's first round after a power-on: registration */
  | { type: 'register'; gen: number }
  /** a try of fastStatusUpdateOnce */
  | { type: 'fast-status'; gen: number }
  | { type: 'lease-tick'; gen: number }
  | { type: 'lease-retry'; gen: number; attempt: number }
  | { type: 'node-status-tick'; gen: number }
  | { type: 'pleg-relist'; gen: number }
  /** a no-op, non-recurring twin of the next relist while a container change is unreported */
  | { type: 'pleg-pending'; gen: number }
  /** `cause`: the pod notification that asked for this sync (its log position; see ClientCtx.cause) */
  | { type: 'pod-sync'; gen: number; key: string; uid: string; resync?: boolean; cause?: number }
  | { type: 'pull-done'; gen: number; key: string; uid: string; container: string; image: string }
  /** a process ends: after a stop, or (app: the pod key and container) by itself as its app's health says */
  | { type: 'container-exit'; gen: number; id: string; exitCode: number; app?: { key: string; container: string } }
  | { type: 'probe-tick'; gen: number; key: string; uid: string; container: string; probe: ProbeType; id: string }
  /** the client has a token again for the status syncs that waited (statusWaiting) */
  | { type: 'status-retry'; gen: number };

/** Faults and test hooks injected with `world.inject('kubelet/node-1', …)`. */
export type KubeletFault =
  | { type: 'power-off' }
  | { type: 'power-on' }
  /** pod is `ns/name`, or just the name with `namespace` given */
  | {
      type: 'crash';
      pod: string;
      namespace?: string;
      container?: string;
      exitCode?: number;
      oom?: boolean;
      log?: string;
    }
  | { type: 'set-health'; pod: string; namespace?: string; container?: string; health: ContainerHealth };

const GRPC_CODES: Record<CriRecord['code'], number> = { OK: 0, Unknown: 2, NotFound: 5, ResourceExhausted: 8 };

/** Log a CRI call (the runtime's record) as a request-log record: kind cri, component containerd/<node>, gRPC code number. */
export function logCri(ctx: ClientCtx, rec: CriRecord, object?: string): void {
  // Undefined fields are left out here, so the log does not copy the record again to drop them.
  const r: Parameters<ClientCtx['log']>[0] = {
    component: rec.component,
    kind: 'cri',
    verb: rec.verb,
    path: rec.path,
    node: rec.node,
    code: GRPC_CODES[rec.code],
  };
  if (object !== undefined) r.object = object;
  if (rec.message !== undefined) r.message = rec.message;
  ctx.log(r);
}

/**
 * Record a kubelet event about one container of `pod`: its reference carries the fieldPath
 * `spec.containers{<name>}` (kubecontainer.GenerateContainerRef), as kubectl's FROM column shows.
 */
export function emitForContainer(ctx: ClientCtx, st: KubeletState, pod: Pod, container: string, e: KubeletEvent): void {
  recordEvent(
    ctx,
    st.recorder,
    { apiVersion: pod.apiVersion, kind: pod.kind, metadata: pod.metadata, fieldPath: `spec.containers{${container}}` },
    e.type,
    e.reason,
    e.message,
    st.cfg.node,
  );
}

/** Record a kubelet event (source component kubelet, host = the node). */
export function emit(ctx: ClientCtx, st: KubeletState, obj: Parameters<typeof recordEvent>[2], e: KubeletEvent): void {
  recordEvent(ctx, st.recorder, obj, e.type, e.reason, e.message, st.cfg.node);
}

/** A runtime map as a relist saw it: the object and its in-place update count (see mapVersion). */
export interface MapToken {
  map: object;
  version: number;
}

/** The token for `map` now. */
export function mapToken(map: object): MapToken {
  return { map, version: mapVersion(map) };
}

/** Whether `map` is unchanged since `t` was taken. */
export function sameMap(t: MapToken | undefined, map: object): boolean {
  return t !== undefined && t.map === map && t.version === mapVersion(map);
}

/** Structural equality of plain data (undefined-valued keys count as absent). */
export function deepEqual(a: unknown, b: unknown): boolean {
  return fastDeepEqual(a, b);
}

function isMap(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** An RFC 7386 merge patch taking `from` to `to` (null removes a key; lists are replaced whole). */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (!isMap(from) || !isMap(to)) return to;
  const out: Record<string, unknown> = {};
  for (const k in from) if (from[k] !== undefined && to[k] === undefined) out[k] = null;
  for (const k in to) {
    const v = to[k];
    if (v === undefined || deepEqual(from[k], v)) continue;
    out[k] = isMap(from[k]) && isMap(v) ? createMergePatch(from[k], v) : v;
  }
  return out;
}

/** Whether a patch from createMergePatch says nothing (then `from` and `to` are deepEqual). */
export function isEmptyPatch(patch: unknown): boolean {
  for (const _ in patch as object) return false;
  return true;
}
