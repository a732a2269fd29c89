// Zones, disruption modes and the rate-limited NoExecute taint queue of the node-lifecycle controller.
// Src: node_lifecycle_controller.go (ComputeZoneState, handleDisruption, setLimiterInZone, HealthyQPSFunc,
// ReducedQPSFunc, addPodEvictorForNewZone), scheduler/rate_limited_queue.go (RateLimitedTimedQueue, Try,
// SwapLimiter), client-go flowcontrol token bucket (golang.org/x/time/rate).
import type { Node, NodeCondition } from 'kubernetes-types/core/v1';

/** ZoneState values (stateInitial … stateFullDisruption). */
export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** The controller's flags that shape eviction pacing. */
export interface EvictionConfig {
  /** --node-eviction-rate */
  evictionLimiterQPS: number;
  /** --secondary-node-eviction-rate */
  secondaryEvictionLimiterQPS: number;
  /** --large-cluster-size-threshold */
  largeClusterThreshold: number;
  /** --unhealthy-zone-threshold */
  unhealthyZoneThreshold: number;
}

/** kube-controller-manager defaults. */
export const defaultEvictionConfig: EvictionConfig = {
  evictionLimiterQPS: 0.1,
  secondaryEvictionLimiterQPS: 0.01,
  largeClusterThreshold: 50,
  unhealthyZoneThreshold: 0.55,
};

/** scheduler.EvictionRateLimiterBurst */
const EvictionRateLimiterBurst = 1;
/** scheduler.NodeEvictionPeriod: how often doNoExecuteTaintingPass drains the queues. */
const NodeEvictionPeriodMs = 100;

/** nodetopology.GetZoneKey: region + ":\x00:" + zone, "" when neither label is set. */
export function getZoneKey(node: Node): string {
  const l = node.metadata?.labels ?? {};
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\x00:${zone}`;
}

/** ComputeZoneState: a missing Ready condition counts as not ready. */
export function computeZoneState(
  nodeReadyConditions: (NodeCondition | undefined)[],
  unhealthyZoneThreshold = defaultEvictionConfig.unhealthyZoneThreshold,
): { notReady: number; state: ZoneState } {
  return {
    notReady: countNotReady(nodeReadyConditions),
    state: zoneStateOf(nodeReadyConditions, unhealthyZoneThreshold),
  };
}

function countNotReady(nodeReadyConditions: (NodeCondition | undefined)[]): number {
  let notReadyNodes = 0;
  for (let i = 0; i < nodeReadyConditions.length; i++) {
    const c = nodeReadyConditions[i];
    if (!c || c.status !== 'True') notReadyNodes++;
  }
  return notReadyNodes;
}

// ComputeZoneState's verdict without a result object (asked of every zone on every monitor pass).
function zoneStateOf(nodeReadyConditions: (NodeCondition | undefined)[], unhealthyZoneThreshold: number): ZoneState {
  const notReadyNodes = countNotReady(nodeReadyConditions);
  const readyNodes = nodeReadyConditions.length - notReadyNodes;
  if (readyNodes === 0 && notReadyNodes > 0) return 'FullDisruption';
  // Go compares in float32; 0.55 as float32 is 0.550000011920929.
  if (
    notReadyNodes > 2 &&
    Math.fround(notReadyNodes / (notReadyNodes + readyNodes)) >= Math.fround(unhealthyZoneThreshold)
  ) {
    return 'PartialDisruption';
  }
  return 'Normal';
}

/** HealthyQPSFunc: the normal rate whatever the size (used for Normal and, per zone, FullDisruption). */
export function healthyQPSFunc(_nodeNum: number, cfg: EvictionConfig = defaultEvictionConfig): number {
  return cfg.evictionLimiterQPS;
}

/** ReducedQPSFunc: PartialDisruption slows a large zone to the secondary rate and stops a small one. */
export function reducedQPSFunc(nodeNum: number, cfg: EvictionConfig = defaultEvictionConfig): number {
  return nodeNum > cfg.largeClusterThreshold ? cfg.secondaryEvictionLimiterQPS : 0;
}

/** setLimiterInZone's choice of rate for a zone in a state. */
export function zoneEvictionQPS(
  state: ZoneState,
  zoneSize: number,
  cfg: EvictionConfig = defaultEvictionConfig,
): number {
  if (state === 'PartialDisruption') return reducedQPSFunc(zoneSize, cfg);
  return healthyQPSFunc(zoneSize, cfg);
}

// ---- token bucket -------------------------------------------------------------------------

/** flowcontrol token bucket (qps ≤ 0 is the fakeNeverRateLimiter). Starts full. */
interface TokenBucket {
  qps: number;
  burst: number;
  tokens: number;
  lastMs: number;
}

/** NewTokenBucketRateLimiter(qps, burst) at time now. */
export function newTokenBucket(qps: number, burst: number, now: number): TokenBucket {
  return { qps, burst, tokens: burst, lastMs: now };
}

function refill(b: TokenBucket, now: number): TokenBucket {
  if (b.qps <= 0) return b;
  const tokens = Math.min(b.burst, b.tokens + ((now - b.lastMs) / 1000) * b.qps);
  return { ...b, tokens, lastMs: now };
}

/** TryAccept: take a token if one is there. */
export function tryAccept(b: TokenBucket, now: number): { bucket: TokenBucket; ok: boolean } {
  if (b.qps <= 0) return { bucket: b, ok: false };
  const r = refill(b, now);
  // A tiny epsilon so 10 × 0.1 s of refill counts as a whole token despite float rounding.
  if (r.tokens >= 1 - 1e-9) return { bucket: { ...r, tokens: Math.max(0, r.tokens - 1) }, ok: true };
  return { bucket: r, ok: false };
}

/** When the next token will be there (Infinity for a stopped limiter). */
export function nextTokenAt(b: TokenBucket, now: number): number {
  if (b.qps <= 0) return Infinity;
  const r = refill(b, now);
  if (r.tokens >= 1 - 1e-9) return now;
  return now + Math.ceil(((1 - r.tokens) / b.qps) * 1000);
}

// ---- RateLimitedTimedQueue ----------------------------------------------------------------

/** TimedValue: a node name waiting to be tainted. */
interface TimedValue {
  value: string;
  uid: string;
  addedAt: number;
  processAt: number;
  seq: number;
}

/** RateLimitedTimedQueue as data. `set` keeps values that were processed until Remove is called (UniqueQueue). */
interface RateLimitedTimedQueue {
  queue: TimedValue[];
  set: string[];
  limiter: TokenBucket;
  seq: number;
}

/** NewRateLimitedTimedQueue(NewTokenBucketRateLimiter(qps, burst)). */
export function newRateLimitedTimedQueue(
  qps: number,
  now: number,
  burst = EvictionRateLimiterBurst,
): RateLimitedTimedQueue {
  return { queue: [], set: [], limiter: newTokenBucket(qps, burst, now), seq: 0 };
}

/** Add: no-op (false) if the value is already in the set. */
export function queueAdd(
  q: RateLimitedTimedQueue,
  value: string,
  uid: string,
  now: number,
): { queue: RateLimitedTimedQueue; added: boolean } {
  if (q.set.includes(value)) return { queue: q, added: false };
  const tv: TimedValue = { value, uid, addedAt: now, processAt: now, seq: q.seq };
  const queue = [...q.queue, tv].sort((a, b) => a.processAt - b.processAt || a.seq - b.seq);
  return { queue: { ...q, queue, set: [...q.set, value], seq: q.seq + 1 }, added: true };
}

/** Remove: from the queue and the set, so the value can be added again. */
export function queueRemove(
  q: RateLimitedTimedQueue,
  value: string,
): { queue: RateLimitedTimedQueue; removed: boolean } {
  const removed = q.set.includes(value);
  // Every healthy node is "removed" on every pass: when it is in neither list, the queue stays as it is.
  if (!removed && !queueHas(q, value)) return { queue: q, removed };
  return {
    queue: { ...q, queue: q.queue.filter((v) => v.value !== value), set: q.set.filter((v) => v !== value) },
    removed,
  };
}

/** Whether `value` is in the queue or its set (what Remove would take out). */
export function queueHas(q: RateLimitedTimedQueue, value: string): boolean {
  if (q.set.includes(value)) return true;
  for (let i = 0; i < q.queue.length; i++) if (q.queue[i].value === value) return true;
  return false;
}

/**
 * Try: walk the queue head while the limiter gives tokens. A token is spent even when the head is not
 * due yet, as in the Go code. fn returns [done, retryAfterMs]; done values leave the queue but stay in the set.
 */
export function queueTry(
  q: RateLimitedTimedQueue,
  now: number,
  fn: (v: TimedValue) => [boolean, number],
): RateLimitedTimedQueue {
  let cur = q;
  while (cur.queue.length > 0) {
    const head = cur.queue[0];
    const t = tryAccept(cur.limiter, now);
    cur = { ...cur, limiter: t.bucket };
    if (!t.ok) break;
    if (now < head.processAt) break;
    const [ok, wait] = fn(head);
    const rest = cur.queue.slice(1);
    if (!ok) {
      const again = { ...head, processAt: now + wait + 1 };
      cur = { ...cur, queue: [...rest, again].sort((a, b) => a.processAt - b.processAt || a.seq - b.seq) };
    } else {
      cur = { ...cur, queue: rest };
    }
  }
  return cur;
}

/** The first NodeEvictionPeriod tick (a multiple of 100 ms) at which Try could process the head, Infinity if never. */
export function nextTryAt(q: RateLimitedTimedQueue, now: number): number {
  if (q.queue.length === 0) return Infinity;
  const t = Math.max(q.queue[0].processAt, nextTokenAt(q.limiter, now), now);
  if (t === Infinity) return Infinity;
  return Math.ceil(t / NodeEvictionPeriodMs) * NodeEvictionPeriodMs;
}

/** SwapLimiter: a new bucket at the new rate; drained if the old one had no token (burst 1 logic). */
export function swapLimiter(q: RateLimitedTimedQueue, newQPS: number, now: number): RateLimitedTimedQueue {
  if (q.limiter.qps === newQPS) return q;
  if (newQPS <= 0) return { ...q, limiter: { qps: 0, burst: 0, tokens: 0, lastMs: now } };
  let limiter = newTokenBucket(newQPS, EvictionRateLimiterBurst, now);
  const old = tryAccept(q.limiter, now);
  if (!old.ok) limiter = tryAccept(limiter, now).bucket;
  return { ...q, limiter };
}

// ---- zones ---------------------------------------------------------------------------------

/** Per-zone state of the controller: zone states and one NoExecute tainter queue per zone. */
export interface ZonesState {
  zoneStates: Record<string, ZoneState>;
  zoneNoExecuteTainter: Record<string, RateLimitedTimedQueue>;
}

/** Empty zones state. */
export function newZonesState(): ZonesState {
  return { zoneStates: {}, zoneNoExecuteTainter: {} };
}

/** addPodEvictorForNewZone: a new zone starts Initial with a normal-rate tainter. */
export function addPodEvictorForNewZone(
  z: ZonesState,
  node: Node,
  now: number,
  cfg: EvictionConfig = defaultEvictionConfig,
): ZonesState {
  const zone = getZoneKey(node);
  if (z.zoneStates[zone] !== undefined) return z;
  return {
    zoneStates: { ...z.zoneStates, [zone]: 'Initial' },
    zoneNoExecuteTainter: { ...z.zoneNoExecuteTainter, [zone]: newRateLimitedTimedQueue(cfg.evictionLimiterQPS, now) },
  };
}

/** What handleDisruption decided beyond the new zones state. */
interface DisruptionResult {
  zones: ZonesState;
  /** entering master disruption mode: remove NoExecute taints from every node */
  markAllNodesReachable: boolean;
  /** exiting it: every node's probe and transition timestamps are reset to now */
  resetHealthTimestamps: boolean;
  logs: string[];
}

/**
 * Whether every zone keeps its state this pass (the same zones, each computing to the state it is in):
 * handleDisruption then changes nothing, so a steady pass can skip it.
 */
export function zoneStatesUnchanged(
  z: ZonesState,
  zoneToNodeConditions: Record<string, (NodeCondition | undefined)[]>,
  cfg: EvictionConfig = defaultEvictionConfig,
): boolean {
  let zones = 0;
  for (const k in zoneToNodeConditions) {
    if (z.zoneStates[k] !== zoneStateOf(zoneToNodeConditions[k], cfg.unhealthyZoneThreshold)) return false;
    zones++;
  }
  for (const _ in z.zoneStates) zones--;
  return zones === 0;
}

/** handleDisruption: new zone states, limiter rates, and the all-zones-down special case. */
export function handleDisruption(
  z: ZonesState,
  zoneToNodeConditions: Record<string, (NodeCondition | undefined)[]>,
  now: number,
  cfg: EvictionConfig = defaultEvictionConfig,
): DisruptionResult {
  const logs: string[] = [];
  const zoneStates = { ...z.zoneStates };
  const tainters = { ...z.zoneNoExecuteTainter };
  const newZoneStates: Record<string, ZoneState> = {};
  let allAreFullyDisrupted = true;
  for (const k of Object.keys(zoneToNodeConditions).sort()) {
    const { state } = computeZoneState(zoneToNodeConditions[k], cfg.unhealthyZoneThreshold);
    if (state !== 'FullDisruption') allAreFullyDisrupted = false;
    newZoneStates[k] = state;
    if (zoneStates[k] === undefined) {
      logs.push(`Setting initial state for unseen zone: ${k}`);
      zoneStates[k] = 'Initial';
    }
  }
  let allWasFullyDisrupted = true;
  for (const k of Object.keys(zoneStates).sort()) {
    if (zoneToNodeConditions[k] === undefined) {
      delete zoneStates[k];
      continue;
    }
    if (zoneStates[k] !== 'FullDisruption') {
      allWasFullyDisrupted = false;
      break;
    }
  }
  const result = (markAllNodesReachable = false, resetHealthTimestamps = false): DisruptionResult => ({
    zones: { zoneStates, zoneNoExecuteTainter: tainters },
    markAllNodesReachable,
    resetHealthTimestamps,
    logs,
  });
  if (allAreFullyDisrupted && allWasFullyDisrupted) return result();
  if (allAreFullyDisrupted) {
    // With every node silent the likelier fault is the control plane's own network: evict nothing.
    logs.push('Controller detected that all Nodes are not-Ready. Entering master disruption mode.');
    for (const k of Object.keys(zoneStates)) {
      if (tainters[k]) tainters[k] = swapLimiter(tainters[k], 0, now);
      zoneStates[k] = 'FullDisruption';
    }
    return result(true, false);
  }
  if (allWasFullyDisrupted) {
    logs.push('Controller detected that some Nodes are Ready. Exiting master disruption mode.');
    for (const k of Object.keys(zoneStates)) {
      const size = zoneToNodeConditions[k]?.length ?? 0;
      if (tainters[k]) tainters[k] = swapLimiter(tainters[k], zoneEvictionQPS(newZoneStates[k], size, cfg), now);
      zoneStates[k] = newZoneStates[k];
    }
    return result(false, true);
  }
  for (const k of Object.keys(zoneStates).sort()) {
    const newState = newZoneStates[k];
    if (newState === undefined || zoneStates[k] === newState) continue;
    logs.push(`Controller detected that zone ${k} is now in state ${newState}.`);
    const size = zoneToNodeConditions[k]?.length ?? 0;
    if (tainters[k]) tainters[k] = swapLimiter(tainters[k], zoneEvictionQPS(newState, size, cfg), now);
    zoneStates[k] = newState;
  }
  return result();
}
