// The taint eviction controller (pkg/controller/tainteviction/taint_eviction.go) as plain data:
// which pods on a NoExecute-tainted node go now, later, or never, and the TimedWorkerQueue of deletions.
import type { Node, Pod, PodCondition, Taint, Toleration } from 'kubernetes-types/core/v1';
import { rfc3339 } from '../util/time.ts';

/** getNoExecuteTaints. */
export function getNoExecuteTaints(taints: Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/** Toleration.ToleratesTaint: effect (empty = all), key (empty with Exists = all), operator Exists/Equal. */
function toleratesTaint(tol: Toleration, taint: Taint): boolean {
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (tol.key && tol.key !== taint.key) return false;
  const op = tol.operator ?? 'Equal';
  if (op === 'Exists') return true;
  if (op === 'Equal') return (tol.value ?? '') === (taint.value ?? '');
  return false;
}

/** v1helper.GetMatchingTolerations: do the tolerations cover every taint, and which were used. */
export function getMatchingTolerations(
  taints: Taint[],
  tolerations: Toleration[],
): { allTolerated: boolean; used: Toleration[] } {
  if (taints.length === 0) return { allTolerated: true, used: [] };
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((tol) => toleratesTaint(tol, taint));
    if (!t) return { allTolerated: false, used: [] };
    used.push(t);
  }
  return { allTolerated: true, used };
}

/** getMinTolerationTime in ms: -1 means forever, 0 means now (any tolerationSeconds ≤ 0). */
export function getMinTolerationTime(tolerations: Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

/** A TimedWorker: a scheduled deletion. fired keeps the key after it ran, as TimedWorkerQueue does. */
interface TimedWorker {
  namespace: string;
  name: string;
  createdAt: number;
  fireAt: number;
  fired: boolean;
}

/** The controller's state: NoExecute taints per node and the deletion queue, keyed namespace/name. */
export interface TaintEvictionState {
  taintedNodes: Record<string, Taint[]>;
  workers: Record<string, TimedWorker>;
}

/** Empty state. */
export function newTaintEvictionState(): TaintEvictionState {
  return { taintedNodes: {}, workers: {} };
}

/** An event with reason TaintManagerEviction on the pod. */
export interface TaintManagerEvent {
  namespace: string;
  name: string;
  type: 'Normal';
  reason: 'TaintManagerEviction';
  message: string;
}

const key = (ns: string, name: string) => `${ns}/${name}`;

function event(ns: string, name: string, message: string): TaintManagerEvent {
  return { namespace: ns, name, type: 'Normal', reason: 'TaintManagerEviction', message };
}

/** cancelWorkWithEvent: drop scheduled work; the event only if a pending deletion was really cancelled. */
function cancelWorkWithEvent(
  s: TaintEvictionState,
  ns: string,
  name: string,
): { state: TaintEvictionState; events: TaintManagerEvent[] } {
  const k = key(ns, name);
  const w = s.workers[k];
  if (!w) return { state: s, events: [] };
  const workers = { ...s.workers };
  delete workers[k];
  return { state: { ...s, workers }, events: w.fired ? [] : [event(ns, name, `Cancelling deletion of Pod ${k}`)] };
}

function addWork(
  s: TaintEvictionState,
  ns: string,
  name: string,
  createdAt: number,
  fireAt: number,
): TaintEvictionState {
  const k = key(ns, name);
  if (s.workers[k]) return s; // "Trying to add already existing work"
  return { ...s, workers: { ...s.workers, [k]: { namespace: ns, name, createdAt, fireAt, fired: false } } };
}

/** processPodOnNode: delete now if a taint is not tolerated, at now + min(tolerationSeconds) if it is for a while, else never. */
export function processPodOnNode(
  s: TaintEvictionState,
  ns: string,
  name: string,
  tolerations: Toleration[],
  taints: Taint[],
  now: number,
): { state: TaintEvictionState; events: TaintManagerEvent[] } {
  let state = s;
  const events: TaintManagerEvent[] = [];
  const cancel = () => {
    const r = cancelWorkWithEvent(state, ns, name);
    state = r.state;
    events.push(...r.events);
  };
  if (taints.length === 0) cancel();
  const { allTolerated, used } = getMatchingTolerations(taints, tolerations);
  if (!allTolerated) {
    cancel();
    state = addWork(state, ns, name, now, now);
    return { state, events };
  }
  const min = getMinTolerationTime(used);
  if (min < 0) {
    cancel();
    return { state, events };
  }
  // The clock starts when the controller sees the taint, not at taint.timeAdded; both are within ms in practice.
  let startTime = now;
  const triggerTime = startTime + min;
  const scheduled = state.workers[key(ns, name)];
  if (scheduled) {
    startTime = scheduled.createdAt;
    if (startTime + min < triggerTime) return { state, events };
    cancel();
  }
  state = addWork(state, ns, name, startTime, triggerTime);
  return { state, events };
}

/** handleNodeUpdate: remember the node's NoExecute taints and (re)decide for each of its pods. */
export function handleNodeUpdate(
  s: TaintEvictionState,
  node: Node,
  podsOnNode: Pod[],
  now: number,
): { state: TaintEvictionState; events: TaintManagerEvent[] } {
  const nodeName = node.metadata?.name ?? '';
  const taints = getNoExecuteTaints(node.spec?.taints);
  const taintedNodes = { ...s.taintedNodes };
  if (taints.length === 0) delete taintedNodes[nodeName];
  else taintedNodes[nodeName] = taints;
  let state: TaintEvictionState = { ...s, taintedNodes };
  const events: TaintManagerEvent[] = [];
  for (const pod of podsOnNode) {
    const ns = pod.metadata?.namespace ?? 'default';
    const name = pod.metadata?.name ?? '';
    const r =
      taints.length === 0
        ? cancelWorkWithEvent(state, ns, name)
        : processPodOnNode(state, ns, name, pod.spec?.tolerations ?? [], taints, now);
    state = r.state;
    events.push(...r.events);
  }
  return { state, events };
}

/** handlePodUpdate: a pod was (re)bound or changed; deleted pods lose their work silently if already fired. */
export function handlePodUpdate(
  s: TaintEvictionState,
  pod: Pod,
  now: number,
  deleted = false,
): { state: TaintEvictionState; events: TaintManagerEvent[] } {
  const ns = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '';
  if (deleted) return cancelWorkWithEvent(s, ns, name);
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) return { state: s, events: [] };
  const taints = s.taintedNodes[nodeName];
  if (!taints) return { state: s, events: [] };
  return processPodOnNode(s, ns, name, pod.spec?.tolerations ?? [], taints, now);
}

/** The earliest pending deletion, for the core to schedule (Infinity if none). */
export function nextFireAt(s: TaintEvictionState): number {
  let min = Infinity;
  for (const w of Object.values(s.workers)) if (!w.fired) min = Math.min(min, w.fireAt);
  return min;
}

/** The DisruptionTarget condition the controller patches in before deleting. */
export function disruptionTargetCondition(now: number, generation?: number): PodCondition {
  // v1.PodCondition's fields in Go's order: observedGeneration is the pod's generation (1.34+, none
  // without one); lastProbeTime is a zero metav1.Time, which JSON writes as null.
  const c: Record<string, unknown> = { type: 'DisruptionTarget' };
  if (generation) c.observedGeneration = generation;
  Object.assign(c, {
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: rfc3339(now),
    reason: 'DeletionByTaintManager',
    message: 'Taint manager: deleting due to NoExecute taint',
  });
  return c as unknown as PodCondition;
}

/** One due deletion: the event, the status patch and a graceful DELETE the core must send. */
export interface EvictionAction {
  namespace: string;
  name: string;
  event: TaintManagerEvent;
  condition: PodCondition;
}

/** Fire every work whose time has come (deletePodHandler): mark it fired and return the actions. */
export function fireDueWork(
  s: TaintEvictionState,
  now: number,
): { state: TaintEvictionState; actions: EvictionAction[] } {
  const workers = { ...s.workers };
  const actions: EvictionAction[] = [];
  const due = Object.entries(workers)
    .filter(([, w]) => !w.fired && w.fireAt <= now)
    .sort((a, b) => a[1].fireAt - b[1].fireAt || (a[0] < b[0] ? -1 : 1));
  for (const [k, w] of due) {
    workers[k] = { ...w, fired: true };
    actions.push({
      namespace: w.namespace,
      name: w.name,
      event: event(w.namespace, w.name, `Marking for deletion Pod ${k}`),
      condition: disruptionTargetCondition(now),
    });
  }
  return { state: { ...s, workers }, actions };
}
