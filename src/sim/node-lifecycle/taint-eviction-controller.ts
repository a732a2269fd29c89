// The taint eviction controller (pkg/controller/tainteviction) as a component: it watches nodes and pods
// and deletes the pods that do not tolerate a node's NoExecute taints, at once or when the shortest
// tolerationSeconds runs out. Decisions come from taint-eviction.ts; this file sends the requests.
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1';
import {
  informerHandle,
  listAndWatch,
  listerByIndex,
  listerGet,
  newInformer,
  type EventHandlers,
  type InformerEvent,
  type InformerState,
  memoHandlers,
} from '../client-go/informer.ts';
import { newEventRecorder, recordEvent, type EventRecorderState } from '../client-go/record.ts';
import type { ComponentDef, Ctx } from '../world.ts';
import {
  disruptionTargetCondition,
  fireDueWork,
  getNoExecuteTaints,
  handleNodeUpdate,
  handlePodUpdate,
  nextFireAt,
  newTaintEvictionState,
  type EvictionAction,
  type TaintEvictionState,
  type TaintManagerEvent,
} from './taint-eviction.ts';

/** Component type name. */
export const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';

/** The controller's state (plain data). */
export interface TaintEvictionControllerState {
  /** Tells this incarnation's timers from an earlier one's. */
  gen: string;
  nodes: InformerState<Node>;
  pods: InformerState<Pod>;
  /** NoExecute taints per node and the TimedWorkerQueue of deletions. */
  eviction: TaintEvictionState;
  /** When the pending deletion timer fires (null = none). */
  timerAt: number | null;
  recorder: EventRecorderState;
}

type TimerEvent = { type: 'evict'; gen: string; at: number };

function podRef(s: TaintEvictionControllerState, ns: string, name: string) {
  const p = listerGet(s.pods, `${ns}/${name}`);
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, uid: p?.metadata?.uid } };
}

function emit(ctx: Ctx<TaintEvictionControllerState>, events: TaintManagerEvent[]): void {
  for (const e of events)
    recordEvent(ctx, ctx.state.recorder, podRef(ctx.state, e.namespace, e.name), e.type, e.reason, e.message);
}

/** One timer for the earliest pending deletion; a later-found earlier one gets its own timer. */
function scheduleNext(ctx: Ctx<TaintEvictionControllerState>): void {
  const s = ctx.state;
  const next = nextFireAt(s.eviction);
  if (next === Infinity) return;
  const at = Math.max(next, ctx.now);
  if (s.timerAt !== null && s.timerAt <= at) return;
  s.timerAt = at;
  ctx.schedule(at - ctx.now, { type: 'evict', gen: s.gen, at } satisfies TimerEvent);
}

/** addConditionAndDeletePod: GET, PATCH status with DisruptionTarget (if not already so), graceful DELETE. */
function addConditionAndDeletePod(ctx: Ctx<TaintEvictionControllerState>, a: EvictionAction): void {
  const g = ctx.api.get('pods', a.namespace, a.name);
  if (!g.ok) return;
  const pod = g.object;
  const cur = pod.status?.conditions?.find((c) => c.type === a.condition.type);
  const same =
    cur &&
    cur.status === a.condition.status &&
    cur.reason === a.condition.reason &&
    cur.message === a.condition.message;
  if (!same) {
    // PatchPodStatus: a strategic merge patch with the pod's UID as precondition; conditions merge by type.
    // The condition is made against the pod just read: its generation is the one observed.
    const condition = pod.metadata?.generation
      ? disruptionTargetCondition(ctx.now, pod.metadata.generation)
      : a.condition;
    const r = ctx.api.patch(
      'pods',
      a.namespace,
      a.name,
      { metadata: { uid: pod.metadata?.uid }, status: { conditions: [condition] } },
      'status',
    );
    if (!r.ok) return;
  }
  // Default DeleteOptions: graceful, with the pod's terminationGracePeriodSeconds.
  ctx.api.delete('pods', a.namespace, a.name);
}

function fire(ctx: Ctx<TaintEvictionControllerState>): void {
  const s = ctx.state;
  const r = fireDueWork(s.eviction, ctx.now);
  s.eviction = r.state;
  for (const a of r.actions) {
    emit(ctx, [a.event]);
    addConditionAndDeletePod(ctx, a);
  }
}

function sameTaints(a: Taint[], b: Taint[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function handlers(ctx: Ctx<TaintEvictionControllerState>): { nodes: EventHandlers<Node>; pods: EventHandlers<Pod> } {
  const s = ctx.state;
  const nodeUpdated = (node: Node) => {
    const name = node.metadata?.name ?? '';
    const taints = getNoExecuteTaints(node.spec?.taints);
    // handleNodeUpdate returns early when the NoExecute taints are the ones it already knows.
    const known = s.eviction.taintedNodes[name];
    if (known ? sameTaints(known, taints) : taints.length === 0) return;
    const pods = listerByIndex(s.pods, 'nodeName', name);
    const r = handleNodeUpdate(s.eviction, node, pods, ctx.now);
    s.eviction = r.state;
    emit(ctx, r.events);
    scheduleNext(ctx);
  };
  const podChanged = (old: Pod | undefined, pod: Pod, deleted = false) => {
    // PodUpdated enqueues only when the node or the tolerations changed (or the pod came or went).
    // (A status write keeps the spec object itself: nothing to compare.)
    if (
      old &&
      !deleted &&
      (old.spec === pod.spec ||
        (old.spec?.nodeName === pod.spec?.nodeName &&
          JSON.stringify(old.spec?.tolerations ?? []) === JSON.stringify(pod.spec?.tolerations ?? [])))
    )
      return;
    const r = handlePodUpdate(s.eviction, pod, ctx.now, deleted);
    // Nothing changed (an unscheduled pod, an untainted node): the timer already matches the state,
    // since every change of the workers is followed by scheduleNext.
    if (r.state === s.eviction && r.events.length === 0) return;
    s.eviction = r.state;
    emit(ctx, r.events);
    scheduleNext(ctx);
  };
  return {
    nodes: {
      add: nodeUpdated,
      update: (_o, n) => nodeUpdated(n),
      // A node that is gone is forgotten; its pods are left to the garbage collector.
      delete: (n) => {
        const t = { ...s.eviction.taintedNodes };
        delete t[n.metadata?.name ?? ''];
        s.eviction = { ...s.eviction, taintedNodes: t };
      },
    },
    pods: {
      add: (p) => podChanged(undefined, p),
      update: (o, p) => podChanged(o, p),
      delete: (p) => podChanged(undefined, p, true),
    },
  };
}

/** The taint eviction controller (kube-controller-manager's "taint-eviction-controller"). */
export const taintEvictionControllerDef: ComponentDef<TaintEvictionControllerState, InformerEvent | TimerEvent> = {
  name: TAINT_EVICTION_CONTROLLER,
  // startTaintEvictionController: "taint-manager uses existing cluster role from node-controller", so
  // its requests carry the node-controller service account (as the audit log of a real cluster shows).
  identity: () => 'node-lifecycle-controller',
  init(ctx) {
    const s: TaintEvictionControllerState = {
      gen: `${ctx.now}.${ctx.rng.int(1_000_000_000)}`,
      nodes: newInformer('nodes', 'nodes'),
      pods: newInformer('pods', 'pods', {}, ['nodeName']),
      eviction: newTaintEvictionState(),
      timerAt: null,
      recorder: newEventRecorder(),
    };
    ctx.state = s;
    const h = handlers(ctx);
    // Pods first, so the first node pass sees the pods bound to each tainted node.
    listAndWatch(ctx, s.pods, h.pods);
    listAndWatch(ctx, s.nodes, h.nodes);
    return s;
  },
  handle(event, ctx) {
    const s = ctx.state;
    const h = memoHandlers(ctx, handlers, s);
    // Pods first: most notifications are pod changes (each informer answers only its own events).
    if (informerHandle(ctx, s.pods, event, h.pods)) return;
    if (informerHandle(ctx, s.nodes, event, h.nodes)) return;
    if (event?.type !== 'evict' || event.gen !== s.gen) return;
    if (event.at !== s.timerAt) return; // superseded by an earlier timer
    s.timerAt = null;
    fire(ctx);
    scheduleNext(ctx);
  },
};
