// The kubelet (with containerd behind its CRI) as a component, one instance per node: registers
// its Node, keeps its Lease, reports node status, runs the pods bound to it, and answers faults
// (power off/on, container crash, app health). Everything it says goes through the API server.
// Src: pkg/kubelet/kubelet.go, kubelet_node_status.go, nodelease, pleg/generic.go, status/status_manager.go.
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import {
  informerHandle,
  isInformerEvent,
  listAndWatch,
  listerGet,
  metaNamespaceKey,
  newInformer,
  type EventHandlers,
} from '../client-go/informer.ts';
import { newEventRecorder } from '../client-go/record.ts';
import { KUBELET_CLIENT } from '../client-go/flowcontrol.ts';
import type { ClientCtx, ComponentDef, Ctx, World, WorldState } from '../world.ts';
import type { ApiResult, RequestOptions } from '../api/request.ts';
import { newCrashLoopBackOff, newImageBackOff } from './backoff.ts';
import { newRuntimeState } from './container-runtime.ts';
import {
  LEASE_RENEW_INTERVAL_MS,
  NODE_STATUS_REPORT_FREQUENCY_MS,
  NODE_STATUS_UPDATE_FREQUENCY_MS,
  computeNodeStatus,
  initialNode,
  nodeConditionEvents,
  newLease,
  nodeConfig,
  renewedLease,
  statusForComparison,
} from './node-status.ts';
import { newDict } from '../util/dict.ts';
import { handlersCache, unchangedNodeStatus } from './kubelet-cache.ts';
import { newPodIPAllocator } from './pod-ip.ts';
import type { PodMachineContext } from './pod-machine.ts';
import {
  PLEG_RELIST_MS,
  containerExit,
  containerExitAt,
  later,
  scheduleAppExit,
  newPodWork,
  probeTick,
  pullDone,
  syncPod,
  teardown,
  updatePodStatus,
} from './pod-worker.ts';
import { relist, relistPending } from './pleg.ts';
import {
  deepEqual,
  emit,
  mapToken,
  sameMap,
  type ContainerHealth,
  type KubeletFault,
  type KubeletState,
  type KubeletTimer,
} from './kubelet-state.ts';

type KCtx = Ctx<KubeletState>;

/** backoffEnsureLease's first sleep before doubling (100 ms → 200 ms, 400 ms …), component-helpers lease controller. */
const LEASE_ENSURE_INITIAL_MS = 100;
/** The jitter factor of the kubelet's heartbeat loops (wait.JitterUntil …, 0.04, sliding). */
const JITTER_FACTOR = 0.04;
/** maxBackoff of the lease controller. */
const LEASE_RETRY_MAX_MS = 7000;
/** maxUpdateRetries of the lease controller. */
const LEASE_MAX_UPDATE_RETRIES = 5;

function uuid(ctx: ClientCtx): string {
  const h = ctx.rng.chars('0123456789abcdef', 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function nodeRef(st: KubeletState): { apiVersion: string; kind: string; metadata: { name: string; uid: string } } {
  // The kubelet's node events reference the node with UID = node name (kubelet.go nodeRef).
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: st.cfg.node, uid: st.cfg.node } };
}

// ---------------------------------------------------------------- boot, registration, lease, node status

function podHandlers(ctx: KCtx): EventHandlers<Pod> {
  const st = ctx.state;
  const touch = (pod: Pod) => {
    if (pod.spec?.nodeName !== st.cfg.node) return;
    // The informer has just keyed this object: the same (flat, hashed) string, no new one per event.
    const key = metaNamespaceKey(pod);
    const w = st.workers[key];
    if (w && w.uid !== pod.metadata?.uid) teardown(ctx, st, w);
    if (!st.workers[key]) st.workers[key] = newPodWork(st, pod, key);
    // The pod worker runs once the informer has stored the object (a list fires handlers first).
    const cause = ctx.notification;
    later(
      ctx,
      0,
      cause === undefined
        ? { type: 'pod-sync', key, uid: pod.metadata!.uid!, gen: st.gen }
        : { type: 'pod-sync', key, uid: pod.metadata!.uid!, gen: st.gen, cause },
    );
  };
  return {
    add: touch,
    // PodConfig's checkAndUpdatePod: a status-only change (the kubelet's own PATCH) is not an update.
    update: (old, pod) => {
      if (!sameButStatus(old, pod)) touch(pod);
    },
    delete: (pod) => {
      const key = metaNamespaceKey(pod);
      const w = st.workers[key];
      if (w && w.uid === pod.metadata?.uid) teardown(ctx, st, w);
    },
  };
}

function handlersOf(ctx: KCtx, st: KubeletState): EventHandlers<Pod> {
  const hit = handlersCache.get(ctx);
  if (hit && hit.st === st) return hit.h;
  const h = podHandlers(ctx);
  handlersCache.set(ctx, { st, h });
  return h;
}

function sameButStatus(a: Pod, b: Pod): boolean {
  return (
    sameExcept(a, b, 'status', 'metadata') &&
    sameExcept(a.metadata ?? {}, b.metadata ?? {}, 'resourceVersion', 'managedFields')
  );
}

/** deepEqual of two objects leaving out two keys (undefined-valued keys count as absent, as in deepEqual). */
function sameExcept(a: object, b: object, skip1: string, skip2: string): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k in x) if (k !== skip1 && k !== skip2 && x[k] !== undefined && !deepEqual(x[k], y[k])) return false;
  for (const k in y) if (k !== skip1 && k !== skip2 && y[k] !== undefined && x[k] === undefined) return false;
  return true;
}

/**
 * How long after start the kubelet registers: its informers start with the process, its sync loop
 * first waits for updateRuntimeUp (which initialises the runtime-dependent modules); both v1.37.2
 * restart traces show the node watch 0.2 s before the POST. Until then the node is not ready.
 */
const REGISTER_DELAY_MS = 200;
/** fastStatusUpdateOnce's period (wait.Until, 100 ms). */
const FAST_STATUS_PERIOD_MS = 100;
/** nodeReadyGracePeriod: fastStatusUpdateOnce gives up this long after start. */
const NODE_READY_GRACE_PERIOD_MS = 120_000;

/** Start the kubelet (registered at once), or restart it after power-on: node informer and fast status loop now, registration after REGISTER_DELAY_MS. */
function boot(ctx: KCtx, reboot: boolean): void {
  const st = ctx.state;
  st.up = true;
  // What waited for the client's tokens belonged to the process that stopped.
  delete st.statusWaiting;
  st.bootedAt = ctx.now;
  st.bootID = uuid(ctx);
  emit(ctx, st, nodeRef(st), { type: 'Normal', reason: 'Starting', message: 'Starting kubelet.' });
  st.nodes = ownNodeInformer(st.cfg.node);
  if (!reboot) {
    // A cluster is built with its kubelets registered (its t=0 is a running cluster, as the recorder's
    // is): the first start registers at once, and its fast loop, which would find the Node it just
    // posted Ready, is left out.
    startSync(ctx, false);
    listAndWatch(ctx, st.nodes, NO_NODE_HANDLERS);
  } else {
    // NewMainKubelet starts the node informer; Run starts fastStatusUpdateOnce (a first try at once).
    listAndWatch(ctx, st.nodes, NO_NODE_HANDLERS);
    fastStatusTry(ctx);
    later(ctx, REGISTER_DELAY_MS, { type: 'register', gen: st.gen });
  }
  later(ctx, PLEG_RELIST_MS, { type: 'pleg-relist', gen: st.gen }, true);
  st.plegNextAt = ctx.now + PLEG_RELIST_MS;
}

/** The sync loop's first round once updateRuntimeUp has run: register, then lease, pods, the 10 s status ticks. */
function startSync(ctx: KCtx, reboot: boolean): void {
  const st = ctx.state;
  // initializeRuntimeDependentModules asks getNodeAnyWay for the Node: without it in the node
  // informer (a first start), initialNode runs the setters on a Node without conditions and the
  // pressure ones record their events; registration records them again (count 2).
  if (!listerGet(st.nodes, st.cfg.node))
    for (const reason of nodeConditionEvents(
      undefined,
      computeNodeStatus(st.cfg, st.bootID, st.runtime.images, ctx.now),
    ))
      recordNodeStatusEvent(ctx, reason);
  registerNode(ctx, reboot);
  // A fastStatusUpdateOnce try due now has waited on syncNodeStatusMux: it runs as the sync lets go.
  if (st.fastStatusAt === ctx.now) fastStatusTry(ctx);
  // The lease controller's first sync runs at once (JitterUntil starts with a call).
  leaseSync(ctx);
  const inf = newInformer('pods', 'pods', { fieldSelector: `spec.nodeName=${st.cfg.node}` });
  st.pods = inf;
  listAndWatch(ctx, inf, podHandlers(ctx));
  later(ctx, jittered(ctx, NODE_STATUS_UPDATE_FREQUENCY_MS, 'status'), { type: 'node-status-tick', gen: st.gen }, true);
}

/**
 * One try of fastStatusUpdateOnce (fastNodeStatusUpdate, under syncNodeStatusMux: each runs whole in
 * one event here, and a try due at the registration runs right after it, as one waiting on the
 * mutex does, before the lister has the sync's PATCH). It reads the Node from the lister; while
 * that copy is not Ready=True it runs the setters on it, which record their events again each time
 * it is stale, and PATCHes only once the node is ready, from that copy. Ends then, when the copy is
 * Ready, or after nodeReadyGracePeriod.
 */
function fastStatusTry(ctx: KCtx): void {
  const st = ctx.state;
  st.fastStatusAt = undefined;
  if (ctx.now - st.bootedAt >= NODE_READY_GRACE_PERIOD_MS) return;
  const original = listerGet(st.nodes, st.cfg.node);
  const was = original?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  if (was === 'True') return;
  if (original && was) {
    // Not ready until updateRuntimeUp has first run (the runtime status check, PLEG's first relist).
    const ready = ctx.now - st.bootedAt >= REGISTER_DELAY_MS;
    const status = computeNodeStatus(st.cfg, st.bootID, st.runtime.images, ctx.now, original.status, ready);
    for (const reason of nodeConditionEvents(original.status, status)) recordNodeStatusEvent(ctx, reason);
    recordNodeSchedulableEvent(ctx, original);
    if (ready) {
      // A failed PATCH (the copy is probably stale) falls back to syncNodeStatus, which GETs.
      const r = ctx.api.patch('nodes', undefined, st.cfg.node, { status }, 'status', HEARTBEAT);
      if (!r.ok) syncNodeStatus(ctx);
      else {
        st.nodeReported = r.object.status;
        st.nodeReportedAt = ctx.now;
      }
      return;
    }
  }
  st.fastStatusAt = ctx.now + FAST_STATUS_PERIOD_MS;
  later(ctx, FAST_STATUS_PERIOD_MS, { type: 'fast-status', gen: st.gen }, true);
}

/** tryRegisterWithAPIServer: POST the Node; if it exists (reboot), take it over and update its status from the lister. */
function registerNode(ctx: KCtx, reboot: boolean): void {
  const st = ctx.state;
  const status = computeNodeStatus(st.cfg, st.bootID, st.runtime.images, ctx.now);
  const r = ctx.api.create('nodes', initialNode(st.cfg, status));
  if (r.ok) {
    st.registered = true;
    st.nodeUID = r.object.metadata?.uid;
    st.nodeReported = r.object.status;
    st.nodeReportedAt = ctx.now;
    // initialNode ran the setters on a Node without conditions: the pressure ones record their events.
    for (const reason of nodeConditionEvents(undefined, status)) recordNodeStatusEvent(ctx, reason);
    emit(ctx, st, nodeRef(st), {
      type: 'Normal',
      reason: 'NodeAllocatableEnforced',
      message: 'Updated Node Allocatable limit across pods',
    });
    recordNodeStatusEvent(ctx, 'NodeReady');
    return;
  }
  if (r.code !== 409) return; // retried by the next node-status tick
  // initialNode ran the setters here too, before the POST.
  for (const reason of nodeConditionEvents(undefined, status)) recordNodeStatusEvent(ctx, reason);
  const got = ctx.api.get('nodes', undefined, st.cfg.node);
  if (!got.ok) return;
  st.registered = true;
  st.nodeUID = got.object.metadata?.uid;
  if (reboot) {
    emit(ctx, st, nodeRef(st), {
      type: 'Warning',
      reason: 'Rebooted',
      message: `Node ${st.cfg.node} has been rebooted, boot id: ${st.bootID}`,
    });
  }
  // syncNodeStatus goes on with updateNodeStatus: its first try reads the (stale) lister.
  for (let i = 0; i < NODE_STATUS_UPDATE_RETRY; i++) if (tryUpdateNodeStatus(ctx, i)) return;
}

/**
 * tryUpdateNodeStatus: the Node from the node informer on the first try (to spare the API server
 * and etcd), a GET on the retries; compute the status against that copy, PATCH only when it differs
 * or nodeStatusReportFrequency has passed. Comparing with the server's copy (not with what was last
 * posted) is what corrects, at the next 10 s tick, a Ready=Unknown the node lifecycle controller
 * wrote while the node was cut off. False when the read or the PATCH failed (the caller tries again).
 */
function tryUpdateNodeStatus(ctx: KCtx, tryNumber: number): boolean {
  const st = ctx.state;
  if (tryNumber === 0) {
    const cached = listerGet(st.nodes, st.cfg.node);
    return cached ? updateNodeStatus(ctx, cached) : false;
  }
  const got = heartbeatGetNode(ctx);
  if (!got.ok) return false;
  return updateNodeStatus(ctx, got.object);
}

/** NODE_STATUS_UPDATE_RETRY (nodeStatusUpdateRetry): tries of tryUpdateNodeStatus per tick. */
const NODE_STATUS_UPDATE_RETRY = 5;

/** syncNodeStatus: register if needed, then updateNodeStatus with up to nodeStatusUpdateRetry tries. */
function syncNodeStatus(ctx: KCtx): void {
  if (!ctx.state.registered) {
    registerNode(ctx, false);
    return;
  }
  for (let i = 0; i < NODE_STATUS_UPDATE_RETRY; i++) if (tryUpdateNodeStatus(ctx, i)) return;
}

/**
 * The heartbeat client's requests (node status, the Node lease): kubelet's server.go gives that client
 * a timeout of min(nodeStatusUpdateFrequency, nodeLeaseDurationSeconds) = 10 s, which client-go sends
 * as `?timeout=10s` on every request.
 */
const HEARTBEAT: RequestOptions = { timeout: '10s' };

/** GET this kubelet's Node with the heartbeat client. */
function heartbeatGetNode(ctx: KCtx): ApiResult<Node> {
  return ctx.api.request({
    verb: 'get',
    resource: 'nodes',
    name: ctx.state.cfg.node,
    options: HEARTBEAT,
  }) as ApiResult<Node>;
}

/** updateNodeStatus: compute now; PATCH only on a change or when nodeStatusReportFrequency has passed. */
function updateNodeStatus(ctx: KCtx, server?: Node): boolean {
  const st = ctx.state;
  if (!st.registered) {
    registerNode(ctx, false);
    return true;
  }
  const prev = server?.status ?? st.nodeReported;
  const due = st.nodeReportedAt === undefined || ctx.now - st.nodeReportedAt >= NODE_STATUS_REPORT_FREQUENCY_MS;
  // The comparison leaves out heartbeat times, so the same server status, images and boot give the
  // same "unchanged" verdict as last time: nothing to compute until a report is due.
  const memo = unchangedNodeStatus.get(st);
  if (!due && memo && memo.prev === prev && memo.bootID === st.bootID && sameMap(memo.images, st.runtime.images)) {
    recordNodeSchedulableEvent(ctx, server);
    return true;
  }
  const status = computeNodeStatus(st.cfg, st.bootID, st.runtime.images, ctx.now, prev);
  const changed = !deepEqual(statusForComparison(status), statusForComparison(prev));
  if (!changed) unchangedNodeStatus.set(st, { prev, bootID: st.bootID, images: mapToken(st.runtime.images) });
  // setNodeStatus runs its setters, and they record their events, before the PATCH is decided on;
  // the schedulable one is the last setter.
  else for (const reason of nodeConditionEvents(prev, status)) recordNodeStatusEvent(ctx, reason);
  recordNodeSchedulableEvent(ctx, server);
  if (!changed && !due) return true;
  const r = ctx.api.patch('nodes', undefined, st.cfg.node, { status }, 'status', HEARTBEAT);
  if (!r.ok) return false;
  st.nodeReported = r.object.status;
  st.nodeReportedAt = ctx.now;
  return true;
}

/** recordNodeStatusEvent: "Node <name> status is now: <event>", on the Node. */
function recordNodeStatusEvent(ctx: KCtx, event: string): void {
  const st = ctx.state;
  emit(ctx, st, nodeRef(st), { type: 'Normal', reason: event, message: `Node ${st.cfg.node} status is now: ${event}` });
}

/**
 * recordNodeSchedulableEvent: NodeNotSchedulable when the Node's spec.unschedulable turns true (kubectl
 * cordon), NodeSchedulable when it turns false again; the process starts from "schedulable".
 */
function recordNodeSchedulableEvent(ctx: KCtx, server: Node | undefined): void {
  const st = ctx.state;
  const unschedulable = server?.spec?.unschedulable === true;
  if (!server || unschedulable === (st.lastNodeUnschedulable ?? false)) return;
  recordNodeStatusEvent(ctx, unschedulable ? 'NodeNotSchedulable' : 'NodeSchedulable');
  if (unschedulable) st.lastNodeUnschedulable = true;
  else delete st.lastNodeUnschedulable;
}

/**
 * SetNodeOwnerFunc: the Node's uid for the lease's owner reference, read from the API (the Node as
 * it is now, not as this kubelet registered it); undefined when the GET fails.
 */
function nodeOwnerUID(ctx: KCtx): string | undefined {
  const got = heartbeatGetNode(ctx);
  return got.ok ? got.object.metadata?.uid : undefined;
}

/**
 * ensureLease: GET the Lease; if missing, create it owned by the Node. undefined on an error; a Node
 * that cannot be read for the owner is no error: no Lease this time (newLeasePostProcessFunc), the
 * next sync tries again.
 */
function ensureLease(ctx: KCtx): { lease?: Lease; created: boolean } | undefined {
  const st = ctx.state;
  const got = ctx.api.request({
    verb: 'get',
    resource: 'leases',
    namespace: 'kube-node-lease',
    name: st.cfg.node,
    options: HEARTBEAT,
  }) as ApiResult<Lease>;
  if (got.ok) return { lease: got.object, created: false };
  if (got.code !== 404) return undefined;
  const owner = nodeOwnerUID(ctx);
  if (!owner) return { created: false };
  const r = ctx.api.create('leases', newLease(st.cfg.node, owner, ctx.now), 'kube-node-lease', HEARTBEAT);
  return r.ok ? { lease: r.object, created: true } : undefined;
}

/**
 * retryUpdateLease: up to maxUpdateRetries PUTs with renewTime = now, back to back; a conflict reads
 * the Lease again first (a lease without an owner asks for the Node's uid each time).
 */
function retryUpdateLease(ctx: KCtx, base: Lease): boolean {
  const st = ctx.state;
  let lease: Lease | undefined = base;
  for (let i = 0; i < LEASE_MAX_UPDATE_RETRIES; i++) {
    if (!lease) return false;
    const owner = lease.metadata?.ownerReferences?.length ? undefined : nodeOwnerUID(ctx);
    const r = ctx.api.request({
      verb: 'update',
      resource: 'leases',
      namespace: 'kube-node-lease',
      name: st.cfg.node,
      body: renewedLease(lease, st.cfg.node, owner, ctx.now),
      options: HEARTBEAT,
    }) as ApiResult<Lease>;
    if (r.ok) {
      st.lease = r.object;
      return true;
    }
    // OptimisticLockError: the newer version is needed to go on.
    if (r.code === 409) lease = ensureLease(ctx)?.lease;
  }
  return false;
}

/**
 * The lease controller's sync: renew from the Lease it last wrote (no GET); when that fails, fall
 * back to backoffEnsureLease, which GETs (or creates) the Lease, retrying every 200 ms doubling to
 * 7 s until it gets an answer, and renews what it read. The next sync follows renewInterval after
 * this one ends (wait.JitterUntil, sliding).
 */
function leaseSync(ctx: KCtx): void {
  const st = ctx.state;
  if (st.lease && retryUpdateLease(ctx, st.lease)) {
    nextLeaseSync(ctx);
    return;
  }
  backoffEnsureLease(ctx, 0);
}

/** One try of backoffEnsureLease's loop; `attempt` tries have failed before it. */
function backoffEnsureLease(ctx: KCtx, attempt: number): void {
  const st = ctx.state;
  const r = ensureLease(ctx);
  if (!r) {
    st.leaseRetries = attempt + 1;
    later(ctx, Math.min(LEASE_ENSURE_INITIAL_MS * 2 ** (attempt + 1), LEASE_RETRY_MAX_MS), {
      type: 'lease-retry',
      attempt: attempt + 1,
      gen: st.gen,
    });
    return;
  }
  st.leaseRetries = 0;
  st.lease = r.lease;
  // A Lease just created needs no renewal.
  if (!r.created && r.lease) retryUpdateLease(ctx, r.lease);
  nextLeaseSync(ctx);
}

/** wait.JitterUntil(sync, renewInterval, 0.04, sliding): the next sync renewInterval (+ up to 4 %) after this one. */
function nextLeaseSync(ctx: KCtx): void {
  later(ctx, jittered(ctx, LEASE_RENEW_INTERVAL_MS, 'lease'), { type: 'lease-tick', gen: ctx.state.gen }, true);
}

/**
 * wait.Jitter(d, 0.04): d plus a part of up to 4 % of d, in whole ms. The part is a hash of the node,
 * the loop and the time rather than a draw from the world's random stream, so heartbeats spread out
 * without moving every other random choice (pod names, placements) of a run.
 */
function jittered(ctx: KCtx, d: number, loop: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${ctx.state.cfg.node}:${loop}:${ctx.now}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return d + (h % (Math.floor(d * JITTER_FACTOR) + 1));
}

/** PLEG relist: compare the runtime with the cache, and sync the pods whose containers changed (true if any). */
function plegRelist(ctx: KCtx): boolean {
  const st = ctx.state;
  const keys = relist(st);
  for (const key of keys) syncPod(ctx, st, key);
  return keys.length > 0;
}

/**
 * The relist is a recurring timer, which `settle` does not wait for; while a change is unreported,
 * keep a one-shot no-op event due at the same tick (queued after the relist, so the order of
 * everything else is unchanged) so settle runs until the pod status shows it.
 */
function holdSettleForPleg(ctx: KCtx, st: KubeletState): void {
  if (!st.up || st.plegNextAt === undefined || st.plegMarkerAt === st.plegNextAt) return;
  if (!relistPending(st)) return;
  st.plegMarkerAt = st.plegNextAt;
  later(ctx, st.plegNextAt - ctx.now, { type: 'pleg-pending', gen: st.gen });
}

// ---------------------------------------------------------------- faults

function powerOffState(ctx: KCtx): void {
  const st = ctx.state;
  if (!st.up) return;
  st.up = false;
  st.gen++;
  if (st.pods.watchId) ctx.stopWatch(st.pods.watchId);
  if (st.nodes?.watchId) ctx.stopWatch(st.nodes.watchId);
  // Memory is gone; the disk keeps the images (containerd's content store).
  // host-local IPAM keeps its last reserved IP on disk too, so the next pod gets a new address.
  const ipam = { ...newPodIPAllocator(st.cfg.podCIDR), lastReserved: st.runtime.ipam.lastReserved };
  st.runtime = { ...newRuntimeState(st.cfg.node, ipam, st.cfg.bandwidthBytesPerSec), images: st.runtime.images };
  st.plegCache = newDict();
  st.workers = newDict();
  delete st.imagePulls; // the puller's queue is process memory
  st.pods = newInformer('pods', 'pods', { fieldSelector: `spec.nodeName=${st.cfg.node}` });
  st.crashBackoff = newCrashLoopBackOff();
  st.imageBackoff = newImageBackOff();
  st.recorder = newEventRecorder();
  st.lease = undefined;
  st.leaseRetries = 0;
  st.registered = false;
  st.nodeReported = undefined;
  st.nodeReportedAt = undefined;
  delete st.lastNodeUnschedulable; // process memory
}

/** The running attempt of a pod's container (its first, unless named), when the kubelet is up and it runs. */
function runningAttempt(st: KubeletState, pod: string, container?: string) {
  const w = st.workers[pod];
  const c = w && (container ? w.containers.find((x) => x.name === container) : w.containers[0]);
  const id = c?.attempts[c.attempts.length - 1];
  return st.up && id && st.runtime.containers[id]?.state === 'CONTAINER_RUNNING' ? { w, c, id } : undefined;
}

function handleFault(ctx: KCtx, f: KubeletFault): void {
  const st = ctx.state;
  if (f.type === 'power-off') return powerOffState(ctx);
  if (f.type === 'power-on') {
    if (!st.up) {
      st.gen++;
      boot(ctx, true);
    }
    return;
  }
  // The pod as the kubelet keys its workers: `ns/name` (as given when the fault names no namespace).
  const pod = f.namespace ? `${f.namespace}/${f.pod}` : f.pod;
  const run = runningAttempt(st, pod, f.container);
  if (f.type === 'crash') {
    if (run) containerExit(st, run.id, ctx.now, f.oom ? 137 : (f.exitCode ?? 1), !!f.oom, f.log);
    return;
  }
  const k = f.container ? `${pod}/${f.container}` : pod;
  st.health[k] = { ...st.health[k], ...f.health };
  // An app that now ends by itself ends its running attempt too, as long after now as after a start.
  if (run && f.health.exits) scheduleAppExit(ctx, st, run.w, run.c.name, run.id);
}

// ---------------------------------------------------------------- the component

/** The kubelet's node informer: its own Node only. */
function ownNodeInformer(node: string) {
  return newInformer('nodes', 'nodes', { fieldSelector: `metadata.name=${node}` });
}

// The node informer needs no handlers: tryUpdateNodeStatus only reads its cache.
const NO_NODE_HANDLERS: EventHandlers<Node> = {};

/** A fresh kubelet state for node `cfg.node` (nothing registered yet). */
function initialState(ctx: Pick<Ctx, 'name' | 'params'>): KubeletState {
  const cfg = nodeConfig(ctx.name, ctx.params ?? {});
  return {
    cfg,
    gen: 0,
    up: false,
    bootedAt: 0,
    bootID: '',
    runtime: newRuntimeState(cfg.node, newPodIPAllocator(cfg.podCIDR), cfg.bandwidthBytesPerSec),
    plegCache: newDict(),
    recorder: newEventRecorder(),
    pods: newInformer('pods', 'pods', { fieldSelector: `spec.nodeName=${cfg.node}` }),
    nodes: ownNodeInformer(cfg.node),
    workers: newDict(),
    crashBackoff: newCrashLoopBackOff(),
    imageBackoff: newImageBackOff(),
    registered: false,
    leaseRetries: 0,
    health: newDict(),
  };
}

/** The kubelet component (type `kubelet`, instances `kubelet/node-1` …, identity system:node:<node>). */
export const kubeletDef: ComponentDef<KubeletState> = {
  name: 'kubelet',
  clientLimit: KUBELET_CLIENT,
  init(ctx) {
    ctx.state = initialState(ctx);
    boot(ctx, false);
    return ctx.state;
  },
  handle(event, ctx) {
    // The state object lives as long as the component (read once: the getter finds it per call).
    const st = ctx.state;
    if (handleEvent(event, ctx, st)) holdSettleForPleg(ctx, st);
  },
};

/**
 * One event: faults, informer deliveries, then this boot's timers. False when it cannot have changed
 * the runtime's containers (the PLEG has nothing new to hold `settle` for).
 */
function handleEvent(event: unknown, ctx: KCtx, st: KubeletState): boolean {
  const ev = event as { type?: string; gen?: number };
  if (ev.type === 'power-off' || ev.type === 'power-on' || ev.type === 'crash' || ev.type === 'set-health') {
    handleFault(ctx, event as KubeletFault);
    return true;
  }
  if (!st.up) return true; // powered off: nothing runs, watches are gone
  if (isInformerEvent(event)) {
    if (informerHandle(ctx, st.pods, event, handlersOf(ctx, st))) return true;
    if (informerHandle(ctx, st.nodes, event, NO_NODE_HANDLERS)) return true;
  }
  if (ev.gen === undefined || ev.gen !== st.gen) return true; // a timer from an earlier boot
  const t = event as KubeletTimer;
  switch (t.type) {
    case 'register':
      startSync(ctx, true);
      return true;
    case 'fast-status':
      if (st.fastStatusAt === ctx.now) fastStatusTry(ctx);
      return false; // else it ran early
    case 'lease-tick':
      leaseSync(ctx);
      return false;
    case 'lease-retry':
      backoffEnsureLease(ctx, t.attempt);
      return false;
    case 'node-status-tick':
      // wait.JitterUntil(syncNodeStatus, nodeStatusUpdateFrequency, 0.04, sliding)
      later(
        ctx,
        jittered(ctx, NODE_STATUS_UPDATE_FREQUENCY_MS, 'status'),
        { type: 'node-status-tick', gen: st.gen },
        true,
      );
      syncNodeStatus(ctx);
      // The status manager's periodic batch: re-send what the server does not have, retry final deletes.
      for (const key of Object.keys(st.workers).sort()) {
        const w = st.workers[key];
        const pod = st.pods.items[key];
        if (pod?.metadata?.deletionTimestamp) syncPod(ctx, st, key);
        else if (pod && ctx.now >= w.busyUntil) updatePodStatus(ctx, st, w, pod);
      }
      return true;
    case 'pleg-relist':
      later(ctx, PLEG_RELIST_MS, { type: 'pleg-relist', gen: st.gen }, true);
      st.plegNextAt = ctx.now + PLEG_RELIST_MS;
      // A relist that finds no change leaves nothing pending (it has just taken the runtime's token).
      return plegRelist(ctx);
    case 'pleg-pending':
      return false; // only held settle open until the relist just before it
    case 'pod-sync': {
      const w = st.workers[t.key];
      if (!w || w.uid !== t.uid) return true;
      if (t.resync) {
        if (w.resyncAt !== ctx.now) return true;
        w.resyncAt = undefined;
      } // superseded by a sooner one
      // What this sync sends now was asked for by the pod's notification (the world clears it after the event).
      if (t.cause !== undefined) ctx.cause = t.cause;
      syncPod(ctx, st, t.key);
      return true;
    }
    case 'pull-done':
      pullDone(ctx, st, t);
      return true;
    case 'container-exit':
      containerExitAt(st, t, ctx.now);
      return true;
    case 'probe-tick':
      probeTick(ctx, st, t);
      return true;
    case 'status-retry':
      statusRetry(ctx, st);
      return true;
  }
  return true;
}

// The status syncs that waited for a token, in order (as the status manager's batch runs them).
function statusRetry(c: Ctx<KubeletState>, st: KubeletState): void {
  const keys = st.statusWaiting ?? [];
  delete st.statusWaiting;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const w = st.workers[key];
    const pod = st.pods.items[key];
    if (!w || !pod) continue;
    if (pod.metadata?.deletionTimestamp) syncPod(c, st, key);
    else updatePodStatus(c, st, w, pod);
  }
}

// ---------------------------------------------------------------- readers and fault helpers

/** The kubelet state of a node in a world (undefined when there is no such kubelet). */
export function kubeletStateOf(world: World | WorldState, node: string): KubeletState | undefined {
  const ws = 'state' in world && 'defs' in world ? world.state : world;
  return ws.components[`kubelet/${node}`]?.state as KubeletState | undefined;
}

/** Pure reader: where a pod (`ns/name`) is in its lifecycle statechart on this kubelet. */
export function podLifecycleOf(
  state: KubeletState,
  key: string,
): { value: unknown; state: string; context: PodMachineContext } | undefined {
  const w = state.workers[key];
  if (!w) return undefined;
  const flat = (v: unknown): string =>
    typeof v === 'string'
      ? v
      : Object.entries(v as Record<string, unknown>)
          .map(([k, s]) => `${k}.${flat(s)}`)
          .join(',');
  return { value: w.machine.value, state: flat(w.machine.value), context: w.machine.context };
}

/** Power a node off: the kubelet and all its containers stop; only images on disk survive. */
export function powerOff(world: World, node: string): void {
  world.inject(`kubelet/${node}`, { type: 'power-off' } satisfies KubeletFault);
}
/** Power a node on: it boots like a new kubelet and restarts the pods that still exist. */
export function powerOn(world: World, node: string): void {
  world.inject(`kubelet/${node}`, { type: 'power-on' } satisfies KubeletFault);
}
/** Cut a node off from the control plane (its containers keep running). */
export function partitionNode(world: World, node: string): void {
  world.fault({ type: 'partition', component: `kubelet/${node}` });
}
/** End a node's partition. */
export function healNode(world: World, node: string): void {
  world.fault({ type: 'heal', component: `kubelet/${node}` });
}
/** Crash a pod's container (exit 1, or OOM-killed: exit 137 OOMKilled), optionally with the app's last words in its log. */
export function crashContainer(
  world: World,
  node: string,
  pod: string,
  opts: { container?: string; exitCode?: number; oom?: boolean; log?: string } = {},
): void {
  world.inject(`kubelet/${node}`, { type: 'crash', pod, ...opts } satisfies KubeletFault);
}
/** Make a container's simulated app healthy or not (probe answers, SIGTERM handling). */
export function setContainerHealth(
  world: World,
  node: string,
  pod: string,
  health: ContainerHealth,
  container?: string,
): void {
  world.inject(`kubelet/${node}`, { type: 'set-health', pod, container, health } satisfies KubeletFault);
}
/** The registry loses an image: pulls of it fail with NotFound. */
export function imageMissing(world: World, image: string): void {
  world.fault({ type: 'image-missing', image });
}
/** The registry has the image again. */
export function imageAvailable(world: World, image: string): void {
  world.fault({ type: 'image-available', image });
}
