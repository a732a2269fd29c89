import type { Pod } from './k8s-types.ts';
import { podPriority } from './framework.ts';

// pkg/scheduler/backend/queue (PriorityQueue) as plain data: activeQ (a heap ordered by
// PrioritySort), backoffQ (a heap ordered by backoff expiry) and unschedulablePods. Time is the
// simulated clock in ms; the caller runs flushBackoffQCompleted every 1 s and
// flushUnschedulablePodsLeftover every 30 s, as the scheduler's goroutines do.

/** DefaultPodInitialBackoffDuration: 1 s. */
export const DEFAULT_POD_INITIAL_BACKOFF_MS = 1_000;
/** DefaultPodMaxBackoffDuration: 10 s. */
export const DEFAULT_POD_MAX_BACKOFF_MS = 10_000;
/** DefaultPodMaxInUnschedulablePodsDuration: 5 min. */
export const DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS = 5 * 60_000;
/** How often flushBackoffQCompleted runs. */
export const FLUSH_BACKOFF_Q_INTERVAL_MS = 1_000;
/** How often flushUnschedulablePodsLeftover runs. */
export const FLUSH_UNSCHEDULABLE_PODS_INTERVAL_MS = 30_000;

/** framework.QueuedPodInfo as data. */
export interface QueuedPodInfo {
  /** namespace/name. */
  key: string;
  pod: Pod;
  /** When the pod last entered the queue (add, or the failed attempt); PrioritySort's tie-break. */
  timestamp: number;
  attempts: number;
  initialAttemptTimestamp?: number;
  /** Plugins that rejected the pod in its last attempt; events for other plugins don't move it. */
  unschedulablePlugins: string[];
  /**
   * podPriority(pod), kept beside it so heap comparisons need not reach into the pod (set whenever
   * `pod` is; when absent it is read from the pod).
   */
  priority?: number;
}

/** The queue's whole state. */
export interface SchedulingQueue {
  activeQ: QueuedPodInfo[];
  backoffQ: QueuedPodInfo[];
  unschedulablePods: Record<string, QueuedPodInfo>;
  /** Popped and being scheduled (in flight). */
  inFlight: Record<string, QueuedPodInfo>;
  /** Which sub-queue holds each key, so membership checks stay O(1) with 30k pending pods. */
  where: Record<string, 'active' | 'backoff' | 'unschedulable' | 'inFlight'>;
  schedulingCycle: number;
  moveRequestCycle: number;
  podInitialBackoffMs: number;
  podMaxBackoffMs: number;
  podMaxInUnschedulablePodsDurationMs: number;
}

/** A cluster event that may make unschedulable pods schedulable. */
export type ClusterEvent = 'NodeAdd' | 'NodeUpdate' | 'AssignedPodAdd' | 'AssignedPodUpdate' | 'AssignedPodDelete' | 'UnschedulableTimeout' | 'ForceActivate';

// EventsToRegister of the default filters, reduced to the events the simulation emits.
const EVENT_PLUGINS: Record<ClusterEvent, string[] | '*'> = {
  NodeAdd: ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'PodTopologySpread'],
  NodeUpdate: ['NodeUnschedulable', 'TaintToleration', 'NodeAffinity', 'NodeResourcesFit', 'PodTopologySpread'],
  AssignedPodAdd: ['PodTopologySpread'],
  AssignedPodUpdate: ['PodTopologySpread', 'NodeResourcesFit'],
  AssignedPodDelete: ['NodeResourcesFit', 'NodePorts', 'PodTopologySpread'],
  UnschedulableTimeout: '*',
  ForceActivate: '*',
};

/** podKey: namespace/name. */
export function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** An empty queue with Kubernetes' default backoff settings. */
export function newSchedulingQueue(opts: Partial<Pick<SchedulingQueue, 'podInitialBackoffMs' | 'podMaxBackoffMs' | 'podMaxInUnschedulablePodsDurationMs'>> = {}): SchedulingQueue {
  return {
    activeQ: [],
    backoffQ: [],
    unschedulablePods: {},
    inFlight: {},
    where: {},
    schedulingCycle: 0,
    moveRequestCycle: -1,
    podInitialBackoffMs: opts.podInitialBackoffMs ?? DEFAULT_POD_INITIAL_BACKOFF_MS,
    podMaxBackoffMs: opts.podMaxBackoffMs ?? DEFAULT_POD_MAX_BACKOFF_MS,
    podMaxInUnschedulablePodsDurationMs: opts.podMaxInUnschedulablePodsDurationMs ?? DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS,
  };
}

/** PrioritySort.Less: higher priority first, then earlier timestamp (then key, for determinism). */
export function prioritySortLess(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
  const pa = a.priority ?? podPriority(a.pod);
  const pb = b.priority ?? podPriority(b.pod);
  if (pa !== pb) return pa > pb;
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp;
  return a.key < b.key;
}

/** calculateBackoffDuration: 0 before any attempt, then initial × 2^(attempts−1), capped at max. */
export function calculateBackoffDuration(q: SchedulingQueue, info: QueuedPodInfo): number {
  if (info.attempts === 0) return 0;
  let d = q.podInitialBackoffMs;
  for (let i = 1; i < info.attempts; i++) {
    if (d > q.podMaxBackoffMs - d) return q.podMaxBackoffMs;
    d += d;
  }
  return d;
}

/** getBackoffTime: when the pod may leave backoffQ. */
export function getBackoffTime(q: SchedulingQueue, info: QueuedPodInfo): number {
  return info.timestamp + calculateBackoffDuration(q, info);
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
    if (l < n && less(h[l], best)) { m = l; best = h[l]; }
    if (r < n && less(h[r], best)) { m = r; best = h[r]; }
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

function toBackoff(q: SchedulingQueue, info: QueuedPodInfo): void {
  heapPush(q.backoffQ, info, backoffLess(q));
  q.where[info.key] = 'backoff';
}

/** Add: a new pending pod (no nodeName) goes straight to activeQ. `key` is podKey(pod), if at hand. */
export function add(q: SchedulingQueue, pod: Pod, now: number, key = podKey(pod)): void {
  if (contains(q, key)) return;
  toActive(q, { key, pod, timestamp: now, attempts: 0, unschedulablePlugins: [], priority: podPriority(pod) });
}

/** Pop: the head of activeQ, counted as a scheduling attempt (undefined when empty; the real Pop blocks). */
export function pop(q: SchedulingQueue, now: number): QueuedPodInfo | undefined {
  const info = heapPop(q.activeQ, prioritySortLess);
  if (!info) return undefined;
  // where[key] goes from 'active' to 'inFlight' below (it is only ever looked up, never walked).
  info.attempts++;
  info.initialAttemptTimestamp ??= now;
  q.schedulingCycle++;
  q.inFlight[info.key] = info;
  q.where[info.key] = 'inFlight';
  return info;
}

/** Done: the pod's attempt finished successfully (assumed/bound). */
export function done(q: SchedulingQueue, key: string): void {
  if (q.where[key] === 'inFlight') delete q.where[key];
  delete q.inFlight[key];
}

/** isPodBackingoff. */
export function isPodBackingoff(q: SchedulingQueue, info: QueuedPodInfo, now: number): boolean {
  return getBackoffTime(q, info) > now;
}

/**
 * AddUnschedulableIfNotPresent: a failed pod waits in unschedulablePods for a relevant event, or in
 * backoffQ when an event already arrived during its cycle or it failed for no plugin's reason.
 */
export function addUnschedulableIfNotPresent(q: SchedulingQueue, info: QueuedPodInfo, podSchedulingCycle: number, unschedulablePlugins: string[], now: number): void {
  if (q.where[info.key] === 'inFlight') delete q.where[info.key];
  delete q.inFlight[info.key];
  if (contains(q, info.key)) return;
  info.timestamp = now;
  info.unschedulablePlugins = [...unschedulablePlugins];
  if (q.moveRequestCycle >= podSchedulingCycle || unschedulablePlugins.length === 0) {
    toBackoff(q, info);
  } else {
    q.unschedulablePods[info.key] = info;
    q.where[info.key] = 'unschedulable';
  }
}

function requeue(q: SchedulingQueue, info: QueuedPodInfo, now: number): void {
  if (isPodBackingoff(q, info, now)) toBackoff(q, info);
  else toActive(q, info);
}

function interested(info: QueuedPodInfo, event: ClusterEvent): boolean {
  const plugins = EVENT_PLUGINS[event];
  if (plugins === '*' || info.unschedulablePlugins.length === 0) return true;
  return info.unschedulablePlugins.some((p) => plugins.includes(p));
}

/** MoveAllToActiveOrBackoffQueue: wake unschedulable pods an event may help, in key order for determinism. */
export function moveAllToActiveOrBackoffQueue(q: SchedulingQueue, event: ClusterEvent, now: number): string[] {
  const moved: string[] = [];
  for (const key of Object.keys(q.unschedulablePods).sort()) {
    const info = q.unschedulablePods[key];
    if (!interested(info, event)) continue;
    delete q.unschedulablePods[key];
    delete q.where[key];
    requeue(q, info, now);
    moved.push(key);
  }
  // Pods in flight right now will go to backoffQ instead of waiting (moveRequestCycle).
  q.moveRequestCycle = q.schedulingCycle;
  return moved;
}

/** flushBackoffQCompleted: pods whose backoff expired move to activeQ. */
export function flushBackoffQCompleted(q: SchedulingQueue, now: number): string[] {
  const moved: string[] = [];
  const less = backoffLess(q);
  while (q.backoffQ.length > 0 && getBackoffTime(q, q.backoffQ[0]) <= now) {
    const info = heapPop(q.backoffQ, less)!;
    toActive(q, info);
    moved.push(info.key);
  }
  return moved;
}

/** flushUnschedulablePodsLeftover: pods unschedulable for longer than 5 min are retried anyway. */
export function flushUnschedulablePodsLeftover(q: SchedulingQueue, now: number): string[] {
  const moved: string[] = [];
  for (const key of Object.keys(q.unschedulablePods).sort()) {
    const info = q.unschedulablePods[key];
    if (now - info.timestamp > q.podMaxInUnschedulablePodsDurationMs) {
      delete q.unschedulablePods[key];
      delete q.where[key];
      requeue(q, info, now);
      moved.push(key);
    }
  }
  return moved;
}

/** The earliest backoff expiry, so the simulation knows when the next flush matters. */
export function nextBackoffExpiry(q: SchedulingQueue): number | undefined {
  return q.backoffQ.length ? getBackoffTime(q, q.backoffQ[0]) : undefined;
}

/** Point a queued entry at a newer copy of its pod. */
export function setPod(info: QueuedPodInfo, pod: Pod): void {
  info.pod = pod;
  info.priority = podPriority(pod);
}

/** Update: a changed pending pod replaces the queued copy; an unschedulable one gets another try. */
export function update(q: SchedulingQueue, pod: Pod, now: number, key = podKey(pod)): void {
  const where = q.where[key];
  if (where === 'active') {
    const info = heapRemove(q.activeQ, (i) => i.key === key, prioritySortLess)!;
    setPod(info, pod);
    toActive(q, info);
    return;
  }
  if (where === 'backoff') {
    const info = heapRemove(q.backoffQ, (i) => i.key === key, backoffLess(q))!;
    setPod(info, pod);
    toBackoff(q, info);
    return;
  }
  const u = q.unschedulablePods[key];
  if (u) {
    delete q.unschedulablePods[key];
    delete q.where[key];
    setPod(u, pod);
    requeue(q, u, now);
    return;
  }
  if (key in q.inFlight) {
    setPod(q.inFlight[key], pod);
    return;
  }
  add(q, pod, now, key);
}

/** Delete: the pod is gone (deleted, or bound by someone else). */
export function remove(q: SchedulingQueue, pod: Pod, key = podKey(pod)): void {
  const where = q.where[key];
  if (where === 'active') heapRemove(q.activeQ, (i) => i.key === key, prioritySortLess);
  if (where === 'backoff') heapRemove(q.backoffQ, (i) => i.key === key, backoffLess(q));
  delete q.unschedulablePods[key];
  delete q.inFlight[key];
  delete q.where[key];
}

/** Number of pods pending in all three sub-queues (not counting in-flight). */
export function pendingCount(q: SchedulingQueue): { active: number; backoff: number; unschedulable: number } {
  return { active: q.activeQ.length, backoff: q.backoffQ.length, unschedulable: Object.keys(q.unschedulablePods).length };
}
