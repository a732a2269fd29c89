import type { Pod } from './k8s-types.ts';
import { podPriority } from './framework.ts';
import {
  EVENT_UNSCHEDULABLE_TIMEOUT,
  QUEUEING_HINT_MAP,
  clusterEventIsWildCard,
  isEventOfInterest,
  matchClusterEvents,
  podSchedulingPropertiesChange,
  type ClusterEvent,
  type ClusterEventWithHint,
} from './queueing-hints.ts';

// pkg/scheduler/backend/queue (PriorityQueue) as plain data: activeQ (a heap ordered by
// PrioritySort), backoffQ and errorBackoffQ (heaps ordered by backoff expiry, for pods rejected by
// plugins and for pods that failed with an error) and unschedulablePods. With SchedulerPopFromBackoffQ
// (beta, on since 1.33) an empty activeQ pops the head of backoffQ without waiting. Time is the
// simulated clock in ms; the caller runs flushBackoffQCompleted every 1 s and
// flushUnschedulablePodsLeftover every 30 s, as the scheduler's goroutines do. A cluster event
// moves an unschedulable pod only when a plugin that rejected it says, through its QueueingHintFn,
// that the event may help (queueing-hints.ts).

/** DefaultPodInitialBackoffDuration: 1 s. */
const DEFAULT_POD_INITIAL_BACKOFF_MS = 1_000;
/** DefaultPodMaxBackoffDuration: 10 s. */
const DEFAULT_POD_MAX_BACKOFF_MS = 10_000;
/** DefaultPodMaxInUnschedulablePodsDuration: 5 min. */
const DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS = 5 * 60_000;
/** How often flushBackoffQCompleted runs; also backoffQOrderingWindowDuration, the grain of backoff expiries. */
export const FLUSH_BACKOFF_Q_INTERVAL_MS = 1_000;
/** How often flushUnschedulablePodsLeftover runs. */
export const FLUSH_UNSCHEDULABLE_PODS_INTERVAL_MS = 30_000;

/** framework.QueuedPodInfo as data. */
interface QueuedPodInfo {
  /** namespace/name. */
  key: string;
  pod: Pod;
  /** When the pod last entered the queue (add, or the failed attempt); PrioritySort's tie-break. */
  timestamp: number;
  attempts: number;
  /** UnschedulableCount: failed attempts with a plugin's rejection (absent = 0). */
  unschedulableCount?: number;
  /** ConsecutiveErrorsCount: failed attempts in a row with an error and no rejection (absent = 0). */
  consecutiveErrorsCount?: number;
  initialAttemptTimestamp?: number;
  /** Plugins that rejected the pod in its last attempt; only their QueueingHints can move it. */
  unschedulablePlugins: string[];
  /** PendingPlugins: plugins that said Pending (a Queue from them skips backoff). */
  pendingPlugins?: string[];
  /**
   * podPriority(pod), kept beside it so heap comparisons need not reach into the pod (set whenever
   * `pod` is; when absent it is read from the pod).
   */
  priority?: number;
  /**
   * Not the scheduler's: the log position of the watch notification whose handler added the pod,
   * until its first attempt takes it (see Ctx.cause).
   */
  cause?: number;
}

/** The queue's whole state. */
export interface SchedulingQueue {
  activeQ: QueuedPodInfo[];
  /** entityBackoffQ: rejected by plugins (PopFromBackoffQ takes from here). */
  backoffQ: QueuedPodInfo[];
  /** entityErrorBackoffQ: failed with no plugin's rejection (a binding error, no nodes). */
  errorBackoffQ: QueuedPodInfo[];
  unschedulablePods: Record<string, QueuedPodInfo>;
  /** Popped and being scheduled (in flight). */
  inFlight: Record<string, QueuedPodInfo>;
  /** Which sub-queue holds each key, so membership checks stay O(1) with 30k pending pods. */
  where: Record<string, 'active' | 'backoff' | 'unschedulable' | 'inFlight'>;
  /**
   * inFlightEvents: in order, a marker for each popped pod and each event received while any pod
   * was in flight, so a failing pod is judged against the events since its own marker.
   */
  inFlightEvents: InFlightEntry[];
  schedulingCycle: number;
  podInitialBackoffMs: number;
  podMaxBackoffMs: number;
  podMaxInUnschedulablePodsDurationMs: number;
}

/** An inFlightEvents entry: a popped pod's marker, or an event with its objects. */
type InFlightEntry = { pod: string } | { event: ClusterEvent; oldObj?: unknown; newObj?: unknown };

/** queueingStrategy: where a pod goes after an event (ordered: a higher one wins). */
export const QueueingStrategy = { queueSkip: 0, queueAfterBackoff: 1, queueImmediately: 2 } as const;
type Strategy = (typeof QueueingStrategy)[keyof typeof QueueingStrategy];

/** podKey: namespace/name. */
function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** An empty queue with Kubernetes' default backoff settings. */
export function newSchedulingQueue(
  opts: Partial<
    Pick<SchedulingQueue, 'podInitialBackoffMs' | 'podMaxBackoffMs' | 'podMaxInUnschedulablePodsDurationMs'>
  > = {},
): SchedulingQueue {
  return {
    activeQ: [],
    backoffQ: [],
    errorBackoffQ: [],
    unschedulablePods: {},
    inFlight: {},
    where: {},
    inFlightEvents: [],
    schedulingCycle: 0,
    podInitialBackoffMs: opts.podInitialBackoffMs ?? DEFAULT_POD_INITIAL_BACKOFF_MS,
    podMaxBackoffMs: opts.podMaxBackoffMs ?? DEFAULT_POD_MAX_BACKOFF_MS,
    podMaxInUnschedulablePodsDurationMs:
      opts.podMaxInUnschedulablePodsDurationMs ?? DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS,
  };
}

/** PrioritySort.Less: higher priority first, then earlier timestamp (then key, for determinism). */
function prioritySortLess(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
  const pa = a.priority ?? podPriority(a.pod);
  const pb = b.priority ?? podPriority(b.pod);
  if (pa !== pb) return pa > pb;
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
  return a.key < b.key;
}

// The count backoff grows with: the errors in a row after an error, else the rejections.
function backoffCount(info: QueuedPodInfo): number {
  return info.consecutiveErrorsCount || info.unschedulableCount || 0;
}

/** calculateBackoffDuration: 0 before any failure, then initial × 2^(count−1), capped at max. */
export function calculateBackoffDuration(q: SchedulingQueue, info: QueuedPodInfo): number {
  const count = backoffCount(info);
  if (count === 0) return 0;
  let d = q.podInitialBackoffMs;
  for (let i = 1; i < count; i++) {
    if (d > q.podMaxBackoffMs - d) return q.podMaxBackoffMs;
    d += d;
  }
  return d;
}

// alignToWindow: backoff expiries are truncated to the 1 s ordering window.
const alignToWindow = (t: number) => t - (t % FLUSH_BACKOFF_Q_INTERVAL_MS);

/** getBackoffTime: when the pod's backoff completes, truncated to its window (−∞ if it never failed). */
function getBackoffTime(q: SchedulingQueue, info: QueuedPodInfo): number {
  if (q.podMaxBackoffMs === 0 || backoffCount(info) === 0) return -Infinity;
  return alignToWindow(info.timestamp + calculateBackoffDuration(q, info));
}

// A binary heap over a plain array. The sifts carry the moving element in hand and write each slot
// once (the same comparisons, so the same layout, as swapping at every step).
function heapPush<T>(h: T[], x: T, less: (a: T, b: T) => boolean): void {
  let i = h.length;
  h.push(x);
  while (i > 0) {
    const p = (i - 1) >> 1;
    const parent = h[p];
    if (!less(x, parent)) break;
    h[i] = parent;
    i = p;
  }
  h[i] = x;
}

function heapFix<T>(h: T[], i: number, less: (a: T, b: T) => boolean): void {
  const x = h[i];
  const n = h.length;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    let best = x;
    if (l < n && less(h[l], best)) {
      m = l;
      best = h[l];
    }
    if (r < n && less(h[r], best)) {
      m = r;
      best = h[r];
    }
    if (m === i) break;
    h[i] = best;
    i = m;
  }
  h[i] = x;
}

function heapPop<T>(h: T[], less: (a: T, b: T) => boolean): T | undefined {
  if (h.length === 0) return undefined;
  const top = h[0];
  const last = h.pop()!;
  if (h.length > 0) {
    h[0] = last;
    heapFix(h, 0, less);
  }
  return top;
}

function heapRemove<T>(h: T[], pred: (x: T) => boolean, less: (a: T, b: T) => boolean): T | undefined {
  const i = h.findIndex(pred);
  if (i < 0) return undefined;
  const x = h[i];
  const last = h.pop()!;
  if (i < h.length) {
    h[i] = last;
    heapFix(h, i, less);
    // The moved element may also need to go up.
    let j = i;
    while (j > 0) {
      const p = (j - 1) >> 1;
      if (!less(h[j], h[p])) break;
      [h[j], h[p]] = [h[p], h[j]];
      j = p;
    }
  }
  return x;
}

function backoffLess(q: SchedulingQueue): (a: QueuedPodInfo, b: QueuedPodInfo) => boolean {
  return (a, b) => {
    const ta = getBackoffTime(q, a);
    const tb = getBackoffTime(q, b);
    if (ta !== tb) return ta < tb;
    return prioritySortLess(a, b);
  };
}

function contains(q: SchedulingQueue, key: string): boolean {
  return key in q.where;
}

function toActive(q: SchedulingQueue, info: QueuedPodInfo): void {
  heapPush(q.activeQ, info, prioritySortLess);
  q.where[info.key] = 'active';
}

// Which backoff heap holds (or takes) the pod: the error one when no plugin rejected it.
function backoffHeap(q: SchedulingQueue, info: QueuedPodInfo): QueuedPodInfo[] {
  return info.unschedulablePlugins.length === 0 && !info.pendingPlugins?.length ? q.errorBackoffQ : q.backoffQ;
}

function toBackoff(q: SchedulingQueue, info: QueuedPodInfo): void {
  heapPush(backoffHeap(q, info), info, backoffLess(q));
  q.where[info.key] = 'backoff';
}

/**
 * Add: a new pending pod (no nodeName) goes straight to activeQ. `key` is podKey(pod), if at hand;
 * `cause` the notification whose handler adds it (Ctx.notification).
 */
export function add(q: SchedulingQueue, pod: Pod, now: number, key = podKey(pod), cause?: number): void {
  if (contains(q, key)) return;
  const info: QueuedPodInfo = {
    key,
    pod,
    timestamp: now,
    attempts: 0,
    unschedulablePlugins: [],
    priority: podPriority(pod),
  };
  if (cause !== undefined) info.cause = cause;
  toActive(q, info);
}

/**
 * Pop: the head of activeQ or, when that is empty, of backoffQ (PopFromBackoffQ), counted as a
 * scheduling attempt (undefined when both are empty; the real Pop blocks).
 */
export function pop(q: SchedulingQueue, now: number): QueuedPodInfo | undefined {
  const info = heapPop(q.activeQ, prioritySortLess) ?? heapPop(q.backoffQ, backoffLess(q));
  if (!info) return undefined;
  // where[key] goes from 'active' to 'inFlight' below (it is only ever looked up, never walked).
  info.attempts++;
  info.initialAttemptTimestamp ??= now;
  q.schedulingCycle++;
  q.inFlight[info.key] = info;
  q.where[info.key] = 'inFlight';
  q.inFlightEvents.push({ pod: info.key });
  return info;
}

/** Done: the pod's attempt is over; its marker goes, and with it the events no other pod in flight needs. */
export function done(q: SchedulingQueue, key: string): void {
  if (q.where[key] === 'inFlight') delete q.where[key];
  if (!(key in q.inFlight)) return;
  delete q.inFlight[key];
  const l = q.inFlightEvents;
  const i = l.findIndex((e) => 'pod' in e && e.pod === key);
  if (i >= 0) l.splice(i, 1);
  let n = 0;
  while (n < l.length && !('pod' in l[n])) n++;
  if (n > 0) l.splice(0, n);
}

/** isEntityBackingoff: the backoff ends in or after the current window. */
function isPodBackingoff(q: SchedulingQueue, info: QueuedPodInfo, now: number): boolean {
  return getBackoffTime(q, info) >= alignToWindow(now);
}

/**
 * isPodWorthRequeuing: ask the QueueingHintFns of the plugins that rejected the pod (and only
 * those) about one event. A Queue from a Pending plugin skips backoff; from an unschedulable one it
 * waits out the backoff. A pod no plugin rejected, and any wildcard event, requeue after backoff.
 */
export function isPodWorthRequeuing(
  info: QueuedPodInfo,
  event: ClusterEvent,
  oldObj: unknown,
  newObj: unknown,
  map: readonly ClusterEventWithHint[] = QUEUEING_HINT_MAP,
): Strategy {
  const pending = info.pendingPlugins ?? [];
  if (info.unschedulablePlugins.length === 0 && pending.length === 0) return QueueingStrategy.queueAfterBackoff;
  if (clusterEventIsWildCard(event)) {
    // A wildcard event naming a pod (ForceActivate) is for that pod only.
    const p = newObj as Pod | undefined;
    if (p && p.metadata?.uid !== info.pod.metadata?.uid) return QueueingStrategy.queueSkip;
    return QueueingStrategy.queueAfterBackoff;
  }
  let strategy: Strategy = QueueingStrategy.queueSkip;
  for (const r of map) {
    if (!matchClusterEvents(r.event, event)) continue;
    const isPending = pending.includes(r.plugin);
    if (!isPending && !info.unschedulablePlugins.includes(r.plugin)) continue;
    if (r.hint && r.hint(info.pod, oldObj, newObj) === 'QueueSkip') continue;
    if (isPending) return QueueingStrategy.queueImmediately;
    if (pending.length === 0) return QueueingStrategy.queueAfterBackoff;
    strategy = QueueingStrategy.queueAfterBackoff;
  }
  return strategy;
}

/** determineSchedulingHintForInFlightPod: the best strategy over the events received since the pod was popped. */
function determineSchedulingHintForInFlightPod(q: SchedulingQueue, info: QueuedPodInfo): Strategy {
  if (info.unschedulablePlugins.length === 0 && (info.pendingPlugins ?? []).length === 0)
    return QueueingStrategy.queueAfterBackoff;
  const l = q.inFlightEvents;
  const from = l.findIndex((e) => 'pod' in e && e.pod === info.key);
  // Not popped through this queue: nothing to judge by, so retry after backoff (as on the error path).
  if (from < 0) return QueueingStrategy.queueAfterBackoff;
  let strategy: Strategy = QueueingStrategy.queueSkip;
  for (let i = from + 1; i < l.length; i++) {
    const e = l[i];
    if ('pod' in e) continue;
    const s = isPodWorthRequeuing(info, e.event, e.oldObj, e.newObj);
    if (s === QueueingStrategy.queueImmediately) return s;
    if (s === QueueingStrategy.queueAfterBackoff) {
      strategy = s;
      if ((info.pendingPlugins ?? []).length === 0) return s;
    }
  }
  return strategy;
}

/**
 * AddUnschedulableIfNotPresent: a failed pod goes where the events seen during its attempt say:
 * unschedulablePods when none could help, else backoffQ or activeQ (a pod no plugin rejected, as
 * after a binding error, always retries after backoff).
 */
export function addUnschedulableIfNotPresent(
  q: SchedulingQueue,
  info: QueuedPodInfo,
  _podSchedulingCycle: number,
  unschedulablePlugins: string[],
  now: number,
  pendingPlugins: string[] = [],
): void {
  if (!contains(q, info.key) || q.where[info.key] === 'inFlight') {
    delete q.where[info.key];
    if (unschedulablePlugins.length === 0 && pendingPlugins.length === 0) {
      // Back because of an error (a binding failure, no nodes), not a rejection.
      info.consecutiveErrorsCount = (info.consecutiveErrorsCount ?? 0) + 1;
    } else {
      info.unschedulableCount = (info.unschedulableCount ?? 0) + 1;
      delete info.consecutiveErrorsCount;
    }
    info.timestamp = now;
    info.unschedulablePlugins = [...unschedulablePlugins];
    if (pendingPlugins.length > 0) info.pendingPlugins = [...pendingPlugins];
    else delete info.pendingPlugins;
    requeueWithQueueingStrategy(q, info, determineSchedulingHintForInFlightPod(q, info), now);
  }
  // In any case the attempt is over.
  done(q, info.key);
}

/** requeuePodWithQueueingStrategy: unschedulablePods on queueSkip, backoffQ while backing off, else activeQ. */
function requeueWithQueueingStrategy(q: SchedulingQueue, info: QueuedPodInfo, strategy: Strategy, now: number): void {
  if (strategy === QueueingStrategy.queueSkip) {
    q.unschedulablePods[info.key] = info;
    q.where[info.key] = 'unschedulable';
  } else if (strategy === QueueingStrategy.queueAfterBackoff && isPodBackingoff(q, info, now)) {
    toBackoff(q, info);
  } else {
    toActive(q, info);
  }
}

/**
 * MoveAllToActiveOrBackoffQueue: each unschedulable pod the event may help (isPodWorthRequeuing),
 * in key order for determinism, goes to backoffQ or activeQ; `preCheck` narrows the pods asked. An
 * event while pods are in flight is kept for them. Returns the keys moved.
 */
export function moveAllToActiveOrBackoffQueue(
  q: SchedulingQueue,
  event: ClusterEvent,
  oldObj: unknown,
  newObj: unknown,
  now: number,
  preCheck?: (pod: Pod) => boolean,
): string[] {
  if (!isEventOfInterest(event)) return [];
  return moveToActiveOrBackoffQueue(q, Object.keys(q.unschedulablePods).sort(), event, oldObj, newObj, now, preCheck);
}

function moveToActiveOrBackoffQueue(
  q: SchedulingQueue,
  keys: string[],
  event: ClusterEvent,
  oldObj: unknown,
  newObj: unknown,
  now: number,
  preCheck?: (pod: Pod) => boolean,
): string[] {
  const moved: string[] = [];
  for (const key of keys) {
    const info = q.unschedulablePods[key];
    if (preCheck && !preCheck(info.pod)) continue;
    const strategy = isPodWorthRequeuing(info, event, oldObj, newObj);
    if (strategy === QueueingStrategy.queueSkip) continue;
    delete q.unschedulablePods[key];
    delete q.where[key];
    requeueWithQueueingStrategy(q, info, strategy, now);
    moved.push(key);
  }
  // addEventIfAnyInFlight.
  if (Object.keys(q.inFlight).length > 0) q.inFlightEvents.push({ event, oldObj, newObj });
  return moved;
}

/** flushBackoffQCompleted: pods whose backoff completed (in an earlier window) move to activeQ, backoffQ's first. */
export function flushBackoffQCompleted(q: SchedulingQueue, now: number): string[] {
  const moved: string[] = [];
  const less = backoffLess(q);
  for (const h of [q.backoffQ, q.errorBackoffQ]) {
    while (h.length > 0 && !isPodBackingoff(q, h[0], now)) {
      const info = heapPop(h, less)!;
      toActive(q, info);
      moved.push(info.key);
    }
  }
  return moved;
}

/** flushUnschedulablePodsLeftover: pods unschedulable for longer than 5 min are retried anyway (UnschedulableTimeout). */
export function flushUnschedulablePodsLeftover(q: SchedulingQueue, now: number): string[] {
  const old = Object.keys(q.unschedulablePods)
    .sort()
    .filter((k) => now - q.unschedulablePods[k].timestamp > q.podMaxInUnschedulablePodsDurationMs);
  return old.length > 0
    ? moveToActiveOrBackoffQueue(q, old, EVENT_UNSCHEDULABLE_TIMEOUT, undefined, undefined, now)
    : [];
}

/** The earliest backoff expiry, so the simulation knows when the next flush matters. */
export function nextBackoffExpiry(q: SchedulingQueue): number | undefined {
  const t = Math.min(...[q.backoffQ[0], q.errorBackoffQ[0]].filter((i) => i).map((i) => getBackoffTime(q, i)));
  return t === Infinity ? undefined : t;
}

/** Point a queued entry at a newer copy of its pod. */
function setPod(info: QueuedPodInfo, pod: Pod): void {
  info.pod = pod;
  info.priority = podPriority(pod);
}

/**
 * Update: a changed pending pod replaces the queued copy. An unschedulable one moves only when its
 * rejectors' hints say the change (TargetPod events) may help; one in flight keeps the events.
 */
export function update(q: SchedulingQueue, oldPod: Pod, pod: Pod, now: number, key = podKey(pod)): void {
  const where = q.where[key];
  if (where === 'inFlight') {
    // addEventsIfPodInFlight.
    for (const event of podSchedulingPropertiesChange(pod, oldPod, true))
      q.inFlightEvents.push({ event, oldObj: oldPod, newObj: pod });
    setPod(q.inFlight[key], pod);
    return;
  }
  if (where === 'active') {
    const info = heapRemove(q.activeQ, (i) => i.key === key, prioritySortLess)!;
    setPod(info, pod);
    toActive(q, info);
    return;
  }
  if (where === 'backoff') {
    const info = removeFromBackoff(q, key);
    setPod(info, pod);
    toBackoff(q, info);
    return;
  }
  const u = q.unschedulablePods[key];
  if (u) {
    setPod(u, pod);
    for (const event of podSchedulingPropertiesChange(pod, oldPod, true)) {
      const strategy = isPodWorthRequeuing(u, event, oldPod, pod);
      if (strategy === QueueingStrategy.queueSkip) continue;
      delete q.unschedulablePods[key];
      delete q.where[key];
      requeueWithQueueingStrategy(q, u, strategy, now);
      return;
    }
    return;
  }
  add(q, pod, now, key);
}

/** Delete: the pod is gone (deleted, or bound by someone else); one in flight is left to its attempt's end. */
export function remove(q: SchedulingQueue, pod: Pod, key = podKey(pod)): void {
  const where = q.where[key];
  if (where === 'inFlight') return;
  if (where === 'active') heapRemove(q.activeQ, (i) => i.key === key, prioritySortLess);
  if (where === 'backoff') removeFromBackoff(q, key);
  delete q.unschedulablePods[key];
  delete q.where[key];
}

function removeFromBackoff(q: SchedulingQueue, key: string): QueuedPodInfo {
  const match = (i: QueuedPodInfo) => i.key === key;
  return heapRemove(q.backoffQ, match, backoffLess(q)) ?? heapRemove(q.errorBackoffQ, match, backoffLess(q))!;
}

/** Number of pods pending in the sub-queues (both backoff heaps together; not counting in-flight). */
export function pendingCount(q: SchedulingQueue): { active: number; backoff: number; unschedulable: number } {
  return {
    active: q.activeQ.length,
    backoff: q.backoffQ.length + q.errorBackoffQ.length,
    unschedulable: Object.keys(q.unschedulablePods).length,
  };
}
