// kubelet's restart and image-pull back-off: client-go's flowcontrol.Backoff as plain data.
// Src: k8s.io/client-go/util/flowcontrol/backoff.go (Next / IsInBackOffSince / IsInBackOffSinceUpdate),
// pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff), pkg/kubelet/images/image_manager.go.
import { goDuration } from '../util/duration.ts';

/** initialCrashLoopBackOff in kubelet.go. */
const initialCrashLoopBackOffMs = 10_000;
/** kubecontainer.MaxContainerBackOff. */
const MaxContainerBackOffMs = 300_000;
/** imageBackOffPeriod in kubelet.go. */
const imageBackOffPeriodMs = 10_000;
/** MaxImageBackOff in kubelet.go. */
const MaxImageBackOffMs = 300_000;

/** One backoffEntry: the current delay and when it was last bumped (Clock.Now() at Next). */
interface BackoffEntry {
  backoffMs: number;
  lastUpdateMs: number;
}

/** flowcontrol.Backoff without the clock: kubelet builds it with NewBackOff (no jitter). */
export interface Backoff {
  defaultDurationMs: number;
  maxDurationMs: number;
  perItemBackoff: Record<string, BackoffEntry>;
}

/** flowcontrol.NewBackOff(initial, max). */
function newBackOff(initialMs: number, maxMs: number): Backoff {
  return { defaultDurationMs: initialMs, maxDurationMs: maxMs, perItemBackoff: {} };
}

/** The kubelet's crash-loop back-off (10 s → 300 s). */
export function newCrashLoopBackOff(): Backoff {
  return newBackOff(initialCrashLoopBackOffMs, MaxContainerBackOffMs);
}

/** The kubelet's image-pull back-off (10 s → 300 s). */
export function newImageBackOff(): Backoff {
  return newBackOff(imageBackOffPeriodMs, MaxImageBackOffMs);
}

/** An entry expires after 2 × max without a Next, which is what resets a crash loop after 10 min. */
export function hasExpired(eventTimeMs: number, lastUpdateMs: number, maxDurationMs: number): boolean {
  return eventTimeMs - lastUpdateMs > maxDurationMs * 2;
}

/** Whether any id has an entry (none: every id is out of back-off). */
export function hasBackOffEntries(b: Backoff): boolean {
  for (const _ in b.perItemBackoff) return true;
  return false;
}

/** Backoff.Get: the current delay for id (0 when unknown). */
export function backoffGet(b: Backoff, id: string): number {
  return b.perItemBackoff[id]?.backoffMs ?? 0;
}

/** Backoff.Next: start at the default or double (capped); lastUpdate is the clock, not eventTime. */
export function backoffNext(b: Backoff, id: string, eventTimeMs: number, nowMs: number): Backoff {
  const entry = b.perItemBackoff[id];
  const backoffMs =
    !entry || hasExpired(eventTimeMs, entry.lastUpdateMs, b.maxDurationMs)
      ? b.defaultDurationMs
      : Math.min(entry.backoffMs * 2, b.maxDurationMs);
  return { ...b, perItemBackoff: { ...b.perItemBackoff, [id]: { backoffMs, lastUpdateMs: nowMs } } };
}

/** Backoff.IsInBackOffSince: is now still within the delay counted from eventTime (the last exit)? */
function isInBackOffSince(b: Backoff, id: string, eventTimeMs: number, nowMs: number): boolean {
  const entry = b.perItemBackoff[id];
  if (!entry) return false;
  if (hasExpired(eventTimeMs, entry.lastUpdateMs, b.maxDurationMs)) return false;
  return nowMs - eventTimeMs < entry.backoffMs;
}

/** Backoff.IsInBackOffSinceUpdate: the image puller counts from the last failed pull instead. */
export function isInBackOffSinceUpdate(b: Backoff, id: string, eventTimeMs: number): boolean {
  const entry = b.perItemBackoff[id];
  if (!entry) return false;
  if (hasExpired(eventTimeMs, entry.lastUpdateMs, b.maxDurationMs)) return false;
  return eventTimeMs - entry.lastUpdateMs < entry.backoffMs;
}

/** Backoff.GC: drop entries idle for more than 2 × max (kubelet runs it periodically). */
export function backoffGC(b: Backoff, nowMs: number): Backoff {
  const perItemBackoff: Record<string, BackoffEntry> = {};
  for (const [id, e] of Object.entries(b.perItemBackoff)) {
    if (!hasExpired(nowMs, e.lastUpdateMs, b.maxDurationMs)) perItemBackoff[id] = e;
  }
  return { ...b, perItemBackoff };
}

/** The pod identity the kubelet prints: format.Pod = name_namespace(uid). */
export interface PodRef {
  name: string;
  namespace: string;
  uid: string;
}

/** format.Pod(pod). */
function formatPod(p: PodRef): string {
  return `${p.name}_${p.namespace}(${p.uid})`;
}

/** getStableKey: the crash-loop backoff key (pod name, namespace, uid, container name, spec hash). */
export function getStableKey(p: PodRef, containerName: string, containerHash = '0'): string {
  return `${p.name}_${p.namespace}_${p.uid}_${containerName}_${containerHash}`;
}

/** The image-pull backoff key in image_manager.go: podUID_image. */
export function imagePullBackOffKey(podUID: string, image: string): string {
  return `${podUID}_${image}`;
}

/** A kubelet event as plain data (involved object is the container's pod). */
export interface KubeletEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** Outcome of doBackOff: either stay waiting in CrashLoopBackOff, or restart now with the bumped backoff. */
type DoBackOffResult =
  | { inBackOff: true; backoff: Backoff; message: string; event: KubeletEvent; restartAtMs: number }
  | { inBackOff: false; backoff: Backoff };

/** kubeGenericRuntimeManager.doBackOff for a container whose last attempt exited at finishedAt. */
export function doBackOff(
  b: Backoff,
  pod: PodRef,
  containerName: string,
  finishedAtMs: number,
  nowMs: number,
  containerHash = '0',
): DoBackOffResult {
  const key = getStableKey(pod, containerName, containerHash);
  if (isInBackOffSince(b, key, finishedAtMs, nowMs)) {
    const delay = backoffGet(b, key);
    return {
      inBackOff: true,
      backoff: b,
      message: `back-off ${goDuration(delay)} restarting failed container=${containerName} pod=${formatPod(pod)}`,
      event: {
        type: 'Warning',
        reason: 'BackOff',
        message: `Back-off restarting failed container ${containerName} in pod ${formatPod(pod)}`,
      },
      // The pod worker is re-synced when the back-off ends; the core schedules that sync here.
      restartAtMs: finishedAtMs + delay,
    };
  }
  return { inBackOff: false, backoff: backoffNext(b, key, finishedAtMs, nowMs) };
}

/** The waiting message and BackOff event while an image pull is backing off (newer kubelets add the last error to the waiting message only). */
export function imagePullBackOffMessage(image: string, prevPullErr?: string): { message: string; event: KubeletEvent } {
  const eventMessage = `Back-off pulling image "${image}"`;
  const message = prevPullErr ? `${eventMessage}: ErrImagePull: ${prevPullErr}` : eventMessage;
  return { message, event: { type: 'Normal', reason: 'BackOff', message: eventMessage } };
}
