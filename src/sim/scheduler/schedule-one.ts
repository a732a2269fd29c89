import type { Binding, Pod, Toleration } from './k8s-types.ts';
import type { Code, CycleContext, FilterPlugin, Listers, Rng, ScorePlugin, Status } from './framework.ts';
import { podPriority } from './framework.ts';
import type { NodeInfo } from './node-info.ts';
import { cloneNodeInfo, removePod } from './node-info.ts';
import { nodeUnschedulable } from './node-unschedulable.ts';
import { nodeName } from './node-name.ts';
import { taintTolerationFilter, taintTolerationScore } from './taint-toleration.ts';
import { nodeAffinityFilter, nodeAffinityScore } from './node-affinity.ts';
import { nodePorts } from './node-ports.ts';
import { LOCAL_CACHE, computePodResource, podHostPorts, type HostPort, type LocalCache } from './node-info.ts';
import { nodeResourcesBalancedAllocationScore, nodeResourcesFitFilter, nodeResourcesFitScore } from './node-resources.ts';
import { podTopologySpreadFilter, podTopologySpreadScore } from './pod-topology-spread.ts';
import { catchUp, forgetSlots, newSlotView, nodeSlots, slotsMatch, type NodeSlots, type SlotView } from './node-slots.ts';

// pkg/scheduler/schedule_one.go: schedulePod → findNodesThatFitPod → prioritizeNodes → selectHost,
// FitError.Error() from framework/types.go, and DefaultPreemption's PostFilter message.

/** The default profile's filters, in MultiPoint order. */
export const DEFAULT_FILTER_PLUGINS: FilterPlugin[] = [
  nodeUnschedulable,
  nodeName,
  taintTolerationFilter,
  nodeAffinityFilter,
  nodePorts,
  nodeResourcesFitFilter,
  podTopologySpreadFilter,
];

/** The default profile's scorers with their weights (InterPodAffinity and ImageLocality not modelled). */
export const DEFAULT_SCORE_PLUGINS: ScorePlugin[] = [
  taintTolerationScore,
  nodeAffinityScore,
  nodeResourcesFitScore,
  podTopologySpreadScore,
  nodeResourcesBalancedAllocationScore,
];

/** minFeasibleNodesToFind. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** minFeasibleNodesPercentageToFind. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/** numFeasibleNodesToFind: all nodes below 100, else an adaptive percentage (50 − n/125, at least 5%), at least 100. */
export function numFeasibleNodesToFind(percentageOfNodesToScore: number, numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let percentage = percentageOfNodesToScore;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}

/** One plugin's filter verdict on one node. */
export interface FilterRecord {
  plugin: string;
  code: Code;
  reasons: string[];
}

/** One plugin's score on one node. */
export interface ScoreRecord {
  plugin: string;
  raw: number;
  normalized: number;
  weighted: number;
}

/** What the figure shows for a node: why it was kept or dropped, and how it scored. */
export interface NodeRecord {
  node: string;
  /** Filters run in order; the framework stops at the first failure, so a failure is last. */
  filter: FilterRecord[];
  scores: ScoreRecord[];
  total: number;
}

/** framework.FitError as data. */
export interface FitError {
  numAllNodes: number;
  /** NodeToStatus: the first failing plugin's status per rejected node. */
  nodeToStatus: Record<string, FilterRecord>;
  unschedulablePlugins: string[];
  postFilterMsg: string;
  /** FitError.Error(): the FailedScheduling message and the PodScheduled condition message. */
  message: string;
}

/** The outcome of one scheduling attempt. */
export interface ScheduleResult {
  result: { node: string } | { fitError: FitError };
  /**
   * The nodes the filter pass reached, in the order it reached them (from nextStartNodeIndex). On
   * big clusters the search stops at numFeasibleNodesToFind, and the nodes after that point are
   * absent here, as they were never considered.
   */
  perNode: NodeRecord[];
  /** Pass this to the next call (sched.nextStartNodeIndex). */
  nextStartNodeIndex: number;
  evaluatedNodes: number;
  feasibleNodes: number;
}

/** Options for schedulePod; all plain data. */
export interface ScheduleOptions {
  /** 0 (default) = adaptive. */
  percentageOfNodesToScore?: number;
  nextStartNodeIndex?: number;
  listers?: Listers;
  /** Run DefaultPreemption's PostFilter and append its message (default true). */
  preemption?: boolean;
  /** Name the taint in TaintToleration's reason, as v1.26–v1.34 did (default false). */
  taintReasonWithKey?: boolean;
  filterPlugins?: FilterPlugin[];
  scorePlugins?: ScorePlugin[];
  /**
   * 'full' (default) keeps every node's filter and score records in `perNode` for the figure;
   * 'none' leaves `perNode` empty, so a 30,000-pod burst allocates no per-node objects.
   * The chosen node, the FitError and the rng draws are the same either way.
   */
  record?: 'full' | 'none';
  /**
   * DynamicResources is in the profile (DRA on by default since 1.34): its PostFilter runs before
   * DefaultPreemption and, for a pod without claims, adds "no new claims to deallocate" to the message.
   */
  dynamicResources?: boolean;
}

/** DynamicResources.PostFilter's reason for a pod without ResourceClaims. */
export const NO_NEW_CLAIMS_TO_DEALLOCATE = 'no new claims to deallocate';

/**
 * RunPostFilterPlugins' message: the reasons of each rejecting PostFilter plugin, joined by ", "
 * (DynamicResources, then DefaultPreemption); empty when preemption found candidates (success).
 */
export function postFilterMessage(pod: Pod, allNodes: NodeInfo[], nodeToStatus: Record<string, FilterRecord>, ctx: CycleContext, filterPlugins: FilterPlugin[], preemption: boolean, dynamicResources: boolean): string {
  const reasons: string[] = [];
  if (dynamicResources) reasons.push(NO_NEW_CLAIMS_TO_DEALLOCATE);
  if (preemption) {
    const pf = preemptionPostFilter(pod, allNodes, nodeToStatus, ctx, filterPlugins);
    if (pf.candidates.length > 0) return '';
    reasons.push(pf.message);
  }
  return reasons.join(', ');
}

// The filters whose PreFilter returns Skip in Kubernetes when the pod asks for nothing they check
// (or whose Filter cannot fail for such a pod): the framework then never calls their Filter.
const SKIPPABLE = new Map<FilterPlugin, (pod: Pod, ctx: CycleContext) => boolean>([
  [nodeName, (pod) => !pod.spec?.nodeName],
  [nodePorts, (pod) => podHostPorts(pod).length === 0],
  [nodeAffinityFilter, (pod) => !pod.spec?.nodeSelector && !pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution],
  [podTopologySpreadFilter, (_pod, ctx) => ctx.state['PodTopologySpread'] === undefined],
]);

// Plugins whose verdict depends on more than the pod and the one node (they read cluster-wide counts).
const NON_LOCAL = new Set<FilterPlugin | ScorePlugin>([podTopologySpreadFilter, podTopologySpreadScore]);

interface FilterSets { active: FilterPlugin[]; local: FilterPlugin[]; global: FilterPlugin[] }
// The filter lists for each set of PreFilter-skipped plugins (by bit mask), made once per profile.
const filterSetsMemo = new WeakMap<FilterPlugin[], Map<number, FilterSets>>();

/** The filters that run (all with records; else those not skipped), split into node-local and cluster-wide. */
function filterSets(plugins: FilterPlugin[], full: boolean, pod: Pod, ctx: CycleContext): FilterSets {
  let mask = 0;
  if (!full) for (let i = 0; i < plugins.length && i < 30; i++) if (SKIPPABLE.get(plugins[i])?.(pod, ctx)) mask |= 1 << i;
  let byMask = filterSetsMemo.get(plugins);
  if (!byMask) filterSetsMemo.set(plugins, (byMask = new Map()));
  let sets = byMask.get(mask);
  if (!sets) {
    // Beyond 30 plugins the mask cannot tell them apart: filter afresh (never memoised).
    const active = full ? plugins : plugins.filter((pl) => !SKIPPABLE.get(pl)?.(pod, ctx));
    sets = { active, local: active.filter((pl) => !NON_LOCAL.has(pl)), global: active.filter((pl) => NON_LOCAL.has(pl)) };
    if (plugins.length <= 30) byMask.set(mask, sets);
  }
  return sets;
}

// The last signature's default filter sets: what decides the skips (nodeName, host ports, node
// selector and affinity) is part of the signature, and PodTopologySpread's by its PreFilter state.
let lastSetsSig = 0;
let lastSetsPts = false;
let lastSets: FilterSets | undefined;

/** filterSets for the default profile without records, for a pod of signature `sig`. */
function filterSetsForSignature(sig: number, pod: Pod, ctx: CycleContext): FilterSets {
  const pts = ctx.state['PodTopologySpread'] !== undefined;
  if (lastSets === undefined || lastSetsSig !== sig || lastSetsPts !== pts) {
    lastSets = filterSets(DEFAULT_FILTER_PLUGINS, false, pod, ctx);
    lastSetsSig = sig;
    lastSetsPts = pts;
  }
  return lastSets;
}

const signatureIds = new Map<string, number>();
let nextSignatureId = 1;

// The previous pod's signature parts: the pods of a burst mostly share them (one template), so
// comparing field by field against the last pod spares building and hashing the long key.
interface SignatureParts {
  cpu: number; mem: number; nzCPU: number; nzMem: number;
  nodeName: string; taintReasonWithKey: boolean; priority: number;
  tolerations: Toleration[] | undefined; nodeSelector: unknown; nodeAffinity: unknown; hostPorts: readonly HostPort[];
  id: number;
}
let lastSignature: SignatureParts | undefined;

function sameTolerations(a: Toleration[] | undefined, b: Toleration[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    // JSON.stringify's view of a toleration: these five fields (undefined ones left out).
    if (x.key !== y.key || x.operator !== y.operator || x.value !== y.value || x.effect !== y.effect || x.tolerationSeconds !== y.tolerationSeconds) return false;
    for (const k in x) if (k !== 'key' && k !== 'operator' && k !== 'value' && k !== 'effect' && k !== 'tolerationSeconds') return false;
    for (const k in y) if (k !== 'key' && k !== 'operator' && k !== 'value' && k !== 'effect' && k !== 'tolerationSeconds') return false;
  }
  return true;
}

/**
 * An id for what the node-local plugins read from a pod (requests, tolerations, node affinity and
 * selector, host ports, nodeName): equal ids give equal verdicts on an unchanged node.
 */
export function localSignatureId(pod: Pod, taintReasonWithKey: boolean): number {
  const r = computePodResource(pod);
  const sp = pod.spec;
  const hostPorts = podHostPorts(pod);
  const nodeSelector = sp?.nodeSelector;
  const nodeAffinity = sp?.affinity?.nodeAffinity;
  const l = lastSignature;
  if (l && l.cpu === r.requests.milliCPU && l.mem === r.requests.memory && l.nzCPU === r.nonZero.milliCPU && l.nzMem === r.nonZero.memory
    && l.nodeName === (sp?.nodeName ?? '') && l.taintReasonWithKey === taintReasonWithKey && l.priority === (sp?.priority ?? 0)
    && nodeSelector === undefined && l.nodeSelector === undefined && nodeAffinity === undefined && l.nodeAffinity === undefined
    && hostPorts.length === 0 && l.hostPorts.length === 0 && sameTolerations(l.tolerations, sp?.tolerations)) {
    return l.id;
  }
  const key = `${r.requests.milliCPU}/${r.requests.memory}/${r.nonZero.milliCPU}/${r.nonZero.memory}|${sp?.nodeName ?? ''}|${taintReasonWithKey}|${sp?.priority ?? 0}|`
    + `${JSON.stringify(sp?.tolerations ?? null)}|${JSON.stringify(nodeSelector ?? null)}|${JSON.stringify(nodeAffinity ?? null)}|${JSON.stringify(hostPorts)}`;
  let id = signatureIds.get(key);
  if (id === undefined) {
    // Ids only grow, so clearing the table never makes an old cache entry match a new pod.
    if (signatureIds.size > 10_000) signatureIds.clear();
    id = nextSignatureId++;
    signatureIds.set(key, id);
  }
  lastSignature = {
    cpu: r.requests.milliCPU, mem: r.requests.memory, nzCPU: r.nonZero.milliCPU, nzMem: r.nonZero.memory,
    nodeName: sp?.nodeName ?? '', taintReasonWithKey, priority: sp?.priority ?? 0,
    tolerations: sp?.tolerations, nodeSelector, nodeAffinity, hostPorts, id,
  };
  return id;
}

function localEntry(ni: NodeInfo, sig: number, nScore: number): LocalCache {
  let c = ni[LOCAL_CACHE];
  if (!c || c.gen !== ni.generation || c.sig !== sig) {
    c = ni[LOCAL_CACHE] = { gen: ni.generation, sig, fail: undefined, raw: new Array(nScore).fill(-1), fixed: -1 };
  }
  return c;
}

/**
 * The same node-local verdicts as LOCAL_CACHE, but in flat arrays indexed by the node's slot in one
 * NodeInfo list (see node-slots.ts; the scheduler hands the same array to every cycle while the
 * node set is unchanged): a cycle over hundreds of nodes reads a few contiguous arrays instead of
 * one cache object per node. An entry holds while its slot's version and the pod signature do.
 */
interface FlatCache {
  slots: NodeSlots;
  /** The slot version each entry was computed at (−1 = never). */
  at: Float64Array;
  sig: Float64Array;
  /** undefined = not computed, null = passed, else the first failing record. */
  fail: (FilterRecord | null | undefined)[];
  fixed: Float64Array;
  /** raw[p * slots + i] (one plugin's scores contiguous, as a cycle reads them); −1 = not computed. */
  raw: Float64Array;
  nScore: number;
  /**
   * For signature `goodSig`: good[k] = 1 when slot k's entry is current and passed; `bad` counts
   * the other slots. With bad = 0 the filter pass needs to look at no node (see findFeasibleFlat).
   */
  goodSig: number;
  good: Uint8Array;
  bad: number;
  /** How far `good` has caught up with changed slots. */
  goodView: SlotView;
}

function flatCacheFor(slots: NodeSlots, nScore: number): FlatCache {
  let fc = slots.extra.get('schedule-one/flat') as FlatCache | undefined;
  if (!fc || fc.nScore !== nScore) {
    const n = slots.objs.length;
    fc = {
      slots, at: new Float64Array(n).fill(-1), sig: new Float64Array(n), fail: new Array(n).fill(undefined),
      fixed: new Float64Array(n).fill(-1), raw: new Float64Array(n * nScore).fill(-1), nScore,
      goodSig: 0, good: new Uint8Array(n), bad: n, goodView: newSlotView(n),
    };
    slots.extra.set('schedule-one/flat', fc);
  }
  return fc;
}

/** Clear slot i's entry for signature `sig` at the slot's current version. */
function resetFlatEntry(fc: FlatCache, i: number, sig: number): void {
  fc.at[i] = fc.slots.ver[i];
  fc.sig[i] = sig;
  fc.fail[i] = undefined;
  fc.fixed[i] = -1;
  const stride = fc.at.length;
  for (let p = 0; p < fc.nScore; p++) fc.raw[p * stride + i] = -1;
}

const flatFeasible: NodeInfo[] = [];
const flatFeasibleIdx: number[] = [];

/** The first failing node-local filter's record on `ni`, or null when all pass. */
function localVerdict(pod: Pod, ni: NodeInfo, ctx: CycleContext, localFilters: FilterPlugin[]): FilterRecord | null {
  for (let p = 0; p < localFilters.length; p++) {
    const st = localFilters[p].filter(pod, ni, ctx);
    if (st.code !== 'Success') return { plugin: localFilters[p].name, code: st.code, reasons: st.reasons };
  }
  return null;
}

/**
 * The filter pass of schedulePod over the flat cache: the same walk from `start`, stopping at
 * numNodesToFind feasible nodes, with the same first failures (local filters come before
 * PodTopologySpread in the profile). Returns the number of nodes processed.
 */
function findFeasibleFlat(
  pod: Pod, nodes: NodeInfo[], ctx: CycleContext, fc: FlatCache, sig: number, start: number, numNodesToFind: number,
  localFilters: FilterPlugin[], globalFilters: FilterPlugin[],
  feasible: NodeInfo[], feasibleIdx: number[], nodeToStatus: Record<string, FilterRecord>, unschedulable: Set<string>,
): number {
  const m = nodes.length;
  const at = fc.at;
  const sigs = fc.sig;
  const fails = fc.fail;
  const ver = fc.slots.ver;
  const ng = globalFilters.length;
  const good = fc.good;
  if (fc.goodSig !== sig) {
    fc.goodSig = sig;
    good.fill(0);
    fc.bad = m;
    fc.goodView = newSlotView(m);
    fc.goodView.epoch = fc.slots.epoch;
    fc.goodView.pos = fc.slots.changedBase + fc.slots.changed.length;
  } else {
    // A changed node is looked at again right away (its verdict is a pure function of pod and node).
    catchUp(fc.slots, fc.goodView, (k) => {
      if (good[k]) {
        good[k] = 0;
        fc.bad++;
      }
      if (at[k] !== ver[k] || sigs[k] !== sig) resetFlatEntry(fc, k, sig);
      if (fails[k] === undefined) fails[k] = localVerdict(pod, nodes[k], ctx, localFilters);
      if (fails[k] === null) {
        good[k] = 1;
        fc.bad--;
      }
    });
  }
  if (fc.bad === 0 && ng === 0) {
    // Every node passes: the walk takes the next numNodesToFind nodes from start, all feasible.
    const take = Math.min(m, numNodesToFind);
    for (let j = 0, k = start; j < take; j++) {
      feasible[j] = nodes[k];
      feasibleIdx[j] = k;
      if (++k === m) k = 0;
    }
    feasible.length = take;
    feasibleIdx.length = take;
    return take;
  }
  let processed = 0;
  let found = 0;
  let k = start;
  while (processed < m && found < numNodesToFind) {
    if (at[k] !== ver[k] || sigs[k] !== sig) resetFlatEntry(fc, k, sig);
    let fail = fails[k];
    if (fail === undefined) fail = fails[k] = localVerdict(pod, nodes[k], ctx, localFilters);
    if (fail === null && !good[k]) {
      good[k] = 1;
      fc.bad--;
    }
    let failedRec = fail ?? undefined;
    for (let p = 0; !failedRec && p < ng; p++) {
      const st = globalFilters[p].filter(pod, nodes[k], ctx);
      if (st.code !== 'Success') failedRec = { plugin: globalFilters[p].name, code: st.code, reasons: st.reasons };
    }
    processed++;
    if (failedRec) {
      nodeToStatus[nodes[k].name] = failedRec;
      unschedulable.add(failedRec.plugin);
    } else {
      feasible[found] = nodes[k];
      feasibleIdx[found] = k;
      found++;
    }
    if (++k === m) k = 0;
  }
  feasible.length = found;
  feasibleIdx.length = found;
  return processed;
}

/** ErrNoNodesAvailable's message. */
export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

const successRecords = new Map<string, FilterRecord>();
const allSuccess = new WeakMap<FilterPlugin[], FilterRecord[]>();

function successRecord(plugin: string): FilterRecord {
  // Shared and frozen: a cycle over hundreds of nodes would otherwise allocate one per plugin per node.
  let r = successRecords.get(plugin);
  if (!r) {
    r = Object.freeze({ plugin, code: 'Success', reasons: Object.freeze([]) as unknown as string[] }) as FilterRecord;
    successRecords.set(plugin, r);
  }
  return r;
}

function allSuccessRecords(plugins: FilterPlugin[]): FilterRecord[] {
  let r = allSuccess.get(plugins);
  if (!r) {
    r = Object.freeze(plugins.map((p) => successRecord(p.name))) as FilterRecord[];
    allSuccess.set(plugins, r);
  }
  return r;
}

/**
 * runFilterPlugins: run filters in order, stopping at the first non-success (framework.RunFilterPlugins).
 * Returns the records of the plugins that ran; the last one is the failure, if any.
 */
export function runFilterPlugins(pod: Pod, ni: NodeInfo, ctx: CycleContext, plugins: FilterPlugin[]): FilterRecord[] {
  for (let i = 0; i < plugins.length; i++) {
    const st: Status = plugins[i].filter(pod, ni, ctx);
    if (st.code !== 'Success') {
      const records = allSuccessRecords(plugins).slice(0, i);
      records.push({ plugin: plugins[i].name, code: st.code, reasons: st.reasons });
      return records;
    }
  }
  return allSuccessRecords(plugins);
}

// runFilterPlugins' records when `failed` is the first failure.
function failedRecords(plugins: FilterPlugin[], failed: FilterRecord): FilterRecord[] {
  let i = 0;
  while (i < plugins.length && plugins[i].name !== failed.plugin) i++;
  const records = allSuccessRecords(plugins).slice(0, i);
  records.push(failed);
  return records;
}

/** The failing record of a runFilterPlugins result, if any. */
export function failedRecord(records: FilterRecord[]): FilterRecord | undefined {
  const last = records[records.length - 1];
  return last && last.code !== 'Success' ? last : undefined;
}

/** sortReasonsHistogram + NoNodeAvailableMsg: "0/N nodes are available: 2 reason, 1 other." */
export function nodesAvailableMessage(numAllNodes: number, reasonsPerNode: string[][]): string {
  const counts = new Map<string, number>();
  for (const reasons of reasonsPerNode) for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  // sort.Strings over "count reason": byte order, so "10 x" sorts before "2 y" as in Go.
  const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let msg = `0/${numAllNodes} nodes are available:`;
  if (parts.length) msg += ` ${parts.join(', ')}.`;
  return msg;
}

/** FitError.Error(). */
export function fitErrorMessage(numAllNodes: number, nodeToStatus: Record<string, FilterRecord>, postFilterMsg: string): string {
  let msg = nodesAvailableMessage(numAllNodes, Object.values(nodeToStatus).map((s) => s.reasons));
  if (postFilterMsg) msg += ` ${postFilterMsg}`;
  return msg;
}

/** PodEligibleToPreemptOthers' refusal message for preemptionPolicy: Never. */
export const NOT_ELIGIBLE_PREEMPTION_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';
/** Reason for nodes where removing pods cannot help (UnschedulableAndUnresolvable). */
export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
/** Reason for nodes with no lower-priority pods. */
export const NO_PREEMPTION_VICTIMS = 'No preemption victims found for incoming pod';

/**
 * DefaultPreemption.PostFilter when no candidate exists: "preemption: 0/N nodes are available: …".
 * Returns the candidate nodes instead when evicting lower-priority pods would make room (victim
 * selection and nomination are not modelled: the caller decides what to do with them).
 */
export function preemptionPostFilter(
  pod: Pod,
  allNodes: NodeInfo[],
  nodeToStatus: Record<string, FilterRecord>,
  ctx: CycleContext,
  filterPlugins: FilterPlugin[],
): { message: string; candidates: string[] } {
  if (pod.spec?.preemptionPolicy === 'Never') return { message: 'preemption: ' + NOT_ELIGIBLE_PREEMPTION_POLICY_NEVER, candidates: [] };
  const prio = podPriority(pod);
  const statuses: Record<string, FilterRecord> = {};
  const candidates: string[] = [];
  for (const ni of allNodes) {
    const st = nodeToStatus[ni.name];
    if (!st) continue;
    if (st.code === 'UnschedulableAndUnresolvable') {
      statuses[ni.name] = { plugin: 'DefaultPreemption', code: 'UnschedulableAndUnresolvable', reasons: [PREEMPTION_NOT_HELPFUL] };
      continue;
    }
    // SelectVictimsOnNode: remove every lower-priority pod, then see whether the pod fits.
    const victims = ni.pods.filter((p) => podPriority(p) < prio);
    if (victims.length === 0) {
      statuses[ni.name] = { plugin: 'DefaultPreemption', code: 'UnschedulableAndUnresolvable', reasons: [NO_PREEMPTION_VICTIMS] };
      continue;
    }
    const what = cloneNodeInfo(ni);
    for (const v of victims) removePod(what, v);
    const failed = failedRecord(runFilterPlugins(pod, what, ctx, filterPlugins));
    if (failed) statuses[ni.name] = failed;
    else candidates.push(ni.name);
  }
  if (candidates.length > 0) return { message: '', candidates };
  return { message: 'preemption: ' + fitErrorMessage(allNodes.length, statuses, ''), candidates };
}

/** selectHost: the highest total, ties broken by reservoir sampling with `rng` (one draw per extra tie). */
export function selectHost(totals: { node: string; total: number }[], rng: Rng): string {
  if (totals.length === 0) throw new Error('empty priorityList');
  let maxScore = totals[0].total;
  let selected = totals[0].node;
  let cntOfMaxScore = 1;
  for (let i = 1; i < totals.length; i++) {
    const ns = totals[i];
    if (ns.total > maxScore) {
      maxScore = ns.total;
      selected = ns.node;
      cntOfMaxScore = 1;
    } else if (ns.total === maxScore) {
      cntOfMaxScore++;
      // Replace the candidate with probability 1/cntOfMaxScore.
      if (rng.int(cntOfMaxScore) === 0) selected = ns.node;
    }
  }
  return selected;
}

/** prioritizeNodes: PreScore, Score, NormalizeScore, × weight, summed per node. */
export function prioritizeNodes(pod: Pod, feasible: NodeInfo[], ctx: CycleContext, plugins: ScorePlugin[]): { scores: ScoreRecord[][]; totals: number[] } {
  const n = feasible.length;
  const scores: ScoreRecord[][] = new Array(n);
  const totals: number[] = new Array(n).fill(0);
  for (let i = 0; i < n; i++) scores[i] = new Array(plugins.length);
  // Typed like prioritizeTotals' arrays, so the normalizers see one kind of array (and stay fast).
  const raw = new Float64Array(n) as unknown as number[];
  const normalized = new Float64Array(n) as unknown as number[];
  for (let p = 0; p < plugins.length; p++) {
    const pl = plugins[p];
    const active = pl.preScore ? pl.preScore(pod, feasible, ctx) : true;
    for (let i = 0; i < n; i++) normalized[i] = raw[i] = active ? pl.score(pod, feasible[i], ctx) : 0;
    if (active && pl.normalize) pl.normalize(normalized, feasible, ctx);
    for (let i = 0; i < n; i++) {
      const weighted = normalized[i] * pl.weight;
      scores[i][p] = { plugin: pl.name, raw: raw[i], normalized: normalized[i], weighted };
      totals[i] += weighted;
    }
  }
  return { scores, totals };
}

// Per-cycle arrays of prioritizeTotals, reused from cycle to cycle (slot 0 the totals, 1 + p plugin
// p's scores): a burst would otherwise allocate several arrays of hundreds of numbers per pod.
const scratchPool: Float64Array[] = [];
// The last view handed out per slot: a burst asks for the same length cycle after cycle.
const scratchViews: Float64Array[] = [];
function scratchArray(slot: number, n: number): Float64Array {
  const v = scratchViews[slot];
  if (v !== undefined && v.length === n) return v;
  let a = scratchPool[slot];
  if (!a || a.length < n) a = scratchPool[slot] = new Float64Array(Math.max(n, 1024));
  return (scratchViews[slot] = a.subarray(0, n));
}

/**
 * prioritizeNodes without the per-node records: the same sums in the same order, so the same totals.
 * The result is a scratch array, valid until the next call.
 */
export function prioritizeTotals(pod: Pod, feasible: NodeInfo[], ctx: CycleContext, plugins: ScorePlugin[], sig = 0, flat?: { fc: FlatCache; idx: number[] }, capture?: ScoreCapture, pick?: HostPick): ArrayLike<number> {
  const n = feasible.length;
  const np = plugins.length;
  const totals = scratchArray(0, n);
  totals.fill(0);
  const active: boolean[] = new Array(np);
  for (let p = 0; p < np; p++) active[p] = plugins[p].preScore ? plugins[p].preScore!(pod, feasible, ctx) : true;
  if (capture) capture.active = active;
  // Raw scores per plugin; with a signature, node-local ones are gathered in one pass over the nodes.
  const raw: (Float64Array | undefined)[] = new Array(np).fill(undefined);
  if (sig !== 0) {
    // Node-local plugins without NormalizeScore add raw × weight: cache that sum per node. Every
    // term is an integer, so summing in another order gives exactly the same totals.
    const fixed = plugins.filter((pl, p) => active[p] && !pl.normalize && !NON_LOCAL.has(pl));
    const gathered: number[] = [];
    for (let p = 0; p < np; p++) {
      if (active[p] && plugins[p].normalize && !NON_LOCAL.has(plugins[p])) { gathered.push(p); raw[p] = scratchArray(1 + p, n); }
    }
    const ng = gathered.length;
    if (flat) {
      // The same values from the flat cache (the filter pass made every feasible slot's entry current).
      const { fc, idx } = flat;
      const stride = fc.at.length;
      const fixedAt = fc.fixed;
      const rawAt = fc.raw;
      for (let i = 0; i < n; i++) {
        const k = idx[i];
        let f = fixedAt[k];
        if (f < 0) {
          f = 0;
          for (const pl of fixed) f += pl.score(pod, feasible[i], ctx) * pl.weight;
          fixedAt[k] = f;
        }
        totals[i] = f;
      }
      for (let g = 0; g < ng; g++) {
        const p = gathered[g];
        const out = raw[p]!;
        const pl = plugins[p];
        for (let i = 0; i < n; i++) {
          const at = p * stride + idx[i];
          let v = rawAt[at];
          if (v < 0) v = rawAt[at] = pl.score(pod, feasible[i], ctx);
          out[i] = v;
        }
      }
    }
    for (let i = 0; !flat && i < n; i++) {
      const ni = feasible[i];
      const c = localEntry(ni, sig, np);
      if (c.fixed < 0) {
        let sum = 0;
        for (const pl of fixed) sum += pl.score(pod, ni, ctx) * pl.weight;
        c.fixed = sum;
      }
      totals[i] = c.fixed;
      for (let g = 0; g < ng; g++) {
        const p = gathered[g];
        let v = c.raw[p];
        if (v < 0) v = c.raw[p] = plugins[p].score(pod, ni, ctx);
        raw[p]![i] = v;
      }
    }
  }
  // The last plugin summed below: its pass also makes selectHost's, when asked to pick.
  let last = -1;
  for (let p = np - 1; pick && p >= 0 && last < 0; p--) if (active[p] && !(sig !== 0 && !plugins[p].normalize && !NON_LOCAL.has(plugins[p]))) last = p;
  for (let p = 0; p < np; p++) {
    const pl = plugins[p];
    if (!active[p]) continue; // every node scores 0: the totals don't move
    if (sig !== 0 && !pl.normalize && !NON_LOCAL.has(pl)) continue; // in the cached sum
    let scores = raw[p];
    if (!scores) {
      scores = scratchArray(1 + p, n);
      if (pl.scoreAll) {
        ctx.feasibleIdx = flat?.idx;
        pl.scoreAll(pod, feasible, ctx, scores as unknown as number[]);
        ctx.feasibleIdx = undefined;
      } else for (let i = 0; i < n; i++) scores[i] = pl.score(pod, feasible[i], ctx);
    }
    if (capture) capture.raw[p] = Float64Array.from(scores);
    // The normalizers read and write by index and length only, so a typed array serves.
    if (pl.normalize) pl.normalize(scores as unknown as number[], feasible, ctx);
    if (capture) capture.normalized[p] = pl.normalize ? Float64Array.from(scores) : capture.raw[p];
    const w = pl.weight;
    if (p === last) pick!.index = addAndSelectHost(totals, scores, w, pick!.rng);
    else for (let i = 0; i < n; i++) totals[i] += scores[i] * w;
  }
  if (pick && last < 0) pick.index = selectHostIndex(totals, pick.rng);
  return totals;
}

/** The raw and normalized scores prioritizeTotals saw for each plugin it summed (not the cached fixed sum). */
export interface ScoreCapture {
  /** Each plugin's PreScore verdict. */
  active: boolean[];
  raw: (Float64Array | undefined)[];
  normalized: (Float64Array | undefined)[];
}

function newScoreCapture(np: number): ScoreCapture {
  return { active: [], raw: new Array(np).fill(undefined), normalized: new Array(np).fill(undefined) };
}

/**
 * prioritizeNodes' records from what prioritizeTotals captured: plugins it did not sum one by one
 * are either inactive (every node 0) or node-local without NormalizeScore (raw = normalized),
 * scored here again. The totals are prioritizeTotals' (the same integers, so the same sums).
 */
function fillScoreRecords(pod: Pod, feasible: NodeInfo[], ctx: CycleContext, plugins: ScorePlugin[], capture: ScoreCapture, totals: ArrayLike<number>, records: NodeRecord[]): void {
  const n = feasible.length;
  const np = plugins.length;
  for (let i = 0; i < n; i++) records[i].scores = new Array(np);
  for (let p = 0; p < np; p++) {
    const pl = plugins[p];
    const raw = capture.raw[p];
    const normalized = capture.normalized[p];
    const active = capture.active[p];
    for (let i = 0; i < n; i++) {
      let r = 0;
      let v = 0;
      if (raw !== undefined) { r = raw[i]; v = normalized![i]; } else if (active) v = r = pl.score(pod, feasible[i], ctx);
      records[i].scores[p] = { plugin: pl.name, raw: r, normalized: v, weighted: v * pl.weight };
    }
  }
  for (let i = 0; i < n; i++) records[i].total = totals[i];
}

/** Where prioritizeTotals puts selectHostIndex's answer when asked to pick with `rng`. */
export interface HostPick {
  rng: Rng;
  index: number;
}

// The last sum and selectHostIndex in one pass: totals[i] += scores[i] × w, then the same
// reservoir sampling over the finished totals, in the same order (the same rng draws).
function addAndSelectHost(totals: Float64Array, scores: Float64Array, w: number, rng: Rng): number {
  const n = totals.length;
  if (n === 0) throw new Error('empty priorityList');
  let maxScore = totals[0] + scores[0] * w;
  totals[0] = maxScore;
  let selected = 0;
  let cntOfMaxScore = 1;
  for (let i = 1; i < n; i++) {
    const t = totals[i] + scores[i] * w;
    totals[i] = t;
    if (t > maxScore) {
      maxScore = t;
      selected = i;
      cntOfMaxScore = 1;
    } else if (t === maxScore) {
      cntOfMaxScore++;
      if (rng.int(cntOfMaxScore) === 0) selected = i;
    }
  }
  return selected;
}

/** selectHost over parallel totals: the same reservoir sampling (same rng draws), returning the index. */
export function selectHostIndex(totals: ArrayLike<number>, rng: Rng): number {
  if (totals.length === 0) throw new Error('empty priorityList');
  let maxScore = totals[0];
  let selected = 0;
  let cntOfMaxScore = 1;
  for (let i = 1; i < totals.length; i++) {
    const t = totals[i];
    if (t > maxScore) {
      maxScore = t;
      selected = i;
      cntOfMaxScore = 1;
    } else if (t === maxScore) {
      cntOfMaxScore++;
      if (rng.int(cntOfMaxScore) === 0) selected = i;
    }
  }
  return selected;
}

/** schedulePod: filter (from the rotating start index, stopping at numFeasibleNodesToFind), score, select. */
export function schedulePod(pod: Pod, nodeInfos: NodeInfo[], rng: Rng, opts: ScheduleOptions = {}): ScheduleResult {
  const filterPlugins = opts.filterPlugins ?? DEFAULT_FILTER_PLUGINS;
  const scorePlugins = opts.scorePlugins ?? DEFAULT_SCORE_PLUGINS;
  const n = nodeInfos.length;
  const start = n > 0 ? (opts.nextStartNodeIndex ?? 0) % n : 0;
  const perNode: NodeRecord[] = [];
  if (n === 0) {
    const fitError: FitError = { numAllNodes: 0, nodeToStatus: {}, unschedulablePlugins: [], postFilterMsg: '', message: ERR_NO_NODES_AVAILABLE };
    return { result: { fitError }, perNode, nextStartNodeIndex: 0, evaluatedNodes: 0, feasibleNodes: 0 };
  }
  const ctx: CycleContext = { allNodes: nodeInfos, state: {}, listers: opts.listers ?? {}, taintReasonWithKey: opts.taintReasonWithKey };
  const nodeToStatus: Record<string, FilterRecord> = {};
  const unschedulable = new Set<string>();
  const preemption = opts.preemption ?? true;
  const dynamicResources = opts.dynamicResources ?? false;
  const full = (opts.record ?? 'full') === 'full';

  // RunPreFilterPlugins: a rejection applies to every node; node-name results are intersected.
  let allowed: Set<string> | undefined;
  const narrowing: string[] = [];
  for (const pl of filterPlugins) {
    const res = pl.preFilter?.(pod, ctx);
    if (res?.status && res.status.code !== 'Success') {
      const rec: FilterRecord = { plugin: pl.name, code: res.status.code, reasons: res.status.reasons };
      for (const ni of nodeInfos) nodeToStatus[ni.name] = rec;
      const preFilterMsg = res.status.reasons.join(', ');
      const postFilterMsg = postFilterMessage(pod, nodeInfos, nodeToStatus, ctx, filterPlugins, preemption, dynamicResources);
      let message = `0/${n} nodes are available: ${preFilterMsg}.`;
      if (postFilterMsg) message += ` ${postFilterMsg}`;
      const fitError: FitError = { numAllNodes: n, nodeToStatus, unschedulablePlugins: [pl.name], postFilterMsg, message };
      return { result: { fitError }, perNode, nextStartNodeIndex: start, evaluatedNodes: 0, feasibleNodes: 0 };
    }
    if (res?.nodeNames) {
      const names = new Set(res.nodeNames);
      allowed = allowed ? new Set([...allowed].filter((x) => names.has(x))) : names;
      narrowing.push(pl.name);
    }
  }
  let nodes = nodeInfos;
  if (allowed) {
    nodes = nodeInfos.filter((ni) => allowed!.has(ni.name));
    const absent: FilterRecord = {
      plugin: narrowing.join(','),
      code: 'UnschedulableAndUnresolvable',
      reasons: [`node(s) didn't satisfy plugin(s) [${[...narrowing].sort().join(' ')}]`],
    };
    for (const ni of nodeInfos) if (!allowed.has(ni.name)) nodeToStatus[ni.name] = absent;
    narrowing.forEach((p) => unschedulable.add(p));
  }

  // Kubernetes filters in parallel and cancels once enough nodes fit; sequentially that is
  // "stop after the numNodesToFind-th feasible node".
  const m = nodes.length;
  const numNodesToFind = numFeasibleNodesToFind(opts.percentageOfNodesToScore ?? 0, m);
  let feasible: NodeInfo[] = [];
  const feasibleRecords: NodeRecord[] = [];
  let processed = 0;
  const defaultProfile = filterPlugins === DEFAULT_FILTER_PLUGINS && scorePlugins === DEFAULT_SCORE_PLUGINS;
  // With the default profile over the whole node list, the records are rebuilt from the flat
  // cache's verdicts and scores (see flatRecords below) instead of calling every plugin again.
  const flatRecords = full && defaultProfile && nodes === nodeInfos;
  // The per-node cache of node-local verdicts, for the default profile.
  const cached = defaultProfile && (!full || flatRecords);
  const sig = cached ? localSignatureId(pod, !!opts.taintReasonWithKey) : 0;
  // Without records, plugins that PreFilter-skipped are left out of the loop (their Filter would say Success).
  const { active: activeFilters, local: localFilters, global: globalFilters } = cached
    ? filterSetsForSignature(sig, pod, ctx)
    : filterSets(filterPlugins, full, pod, ctx);
  const nf = activeFilters.length;
  const nScore = scorePlugins.length;
  let fc: FlatCache | undefined;
  if (cached && nodes === nodeInfos) {
    let slots = nodeSlots(nodes);
    if (!slotsMatch(slots, nodes)) {
      forgetSlots(nodes);
      slots = nodeSlots(nodes);
    }
    fc = flatCacheFor(slots, nScore);
  }
  // The flat pass fills arrays kept from cycle to cycle (nothing holds on to them after a cycle).
  const feasibleIdx: number[] = fc ? flatFeasibleIdx : [];
  if (fc) feasible = flatFeasible;
  if (fc) processed = findFeasibleFlat(pod, nodes, ctx, fc, sig, start, numNodesToFind, localFilters, globalFilters, feasible, feasibleIdx, nodeToStatus, unschedulable);
  for (let i = 0; !fc && i < m && feasible.length < numNodesToFind; i++) {
    const k = (start + i) % m;
    const ni = nodes[k];
    if (cached) {
      // Local filters come before PodTopologySpread in the profile, so the first failure is the same.
      const c = localEntry(ni, sig, nScore);
      if (c.fail === undefined) {
        c.fail = null;
        for (let p = 0; p < localFilters.length; p++) {
          const st = localFilters[p].filter(pod, ni, ctx);
          if (st.code !== 'Success') { c.fail = { plugin: localFilters[p].name, code: st.code, reasons: st.reasons }; break; }
        }
      }
      let failedRec = (c.fail ?? undefined) as FilterRecord | undefined;
      for (let p = 0; !failedRec && p < globalFilters.length; p++) {
        const st = globalFilters[p].filter(pod, ni, ctx);
        if (st.code !== 'Success') failedRec = { plugin: globalFilters[p].name, code: st.code, reasons: st.reasons };
      }
      processed++;
      if (failedRec) {
        nodeToStatus[ni.name] = failedRec;
        unschedulable.add(failedRec.plugin);
      } else feasible.push(ni);
      continue;
    }
    if (!full) {
      // The same first-failure walk as runFilterPlugins, without building the records.
      let failedRec: FilterRecord | undefined;
      for (let p = 0; p < nf; p++) {
        const st = activeFilters[p].filter(pod, ni, ctx);
        if (st.code !== 'Success') { failedRec = { plugin: activeFilters[p].name, code: st.code, reasons: st.reasons }; break; }
      }
      processed++;
      if (failedRec) {
        nodeToStatus[ni.name] = failedRec;
        unschedulable.add(failedRec.plugin);
      } else feasible.push(ni);
      continue;
    }
    const records = runFilterPlugins(pod, ni, ctx, filterPlugins);
    const failed = failedRecord(records);
    const rec: NodeRecord = { node: ni.name, filter: records, scores: [], total: 0 };
    perNode.push(rec);
    processed++;
    if (failed) {
      nodeToStatus[ni.name] = failed;
      unschedulable.add(failed.plugin);
    } else {
      feasible.push(ni);
      feasibleRecords.push(rec);
    }
  }
  const nextStartNodeIndex = (start + processed) % n;
  if (flatRecords) {
    // runFilterPlugins' records for the nodes the walk reached, in its order: every filter's
    // Success, or the successes before the first failure and the failure itself.
    const succ = allSuccessRecords(filterPlugins);
    for (let j = 0, k = start; j < processed; j++) {
      const ni = nodes[k];
      const failed = nodeToStatus[ni.name];
      const rec: NodeRecord = { node: ni.name, filter: failed ? failedRecords(filterPlugins, failed) : succ, scores: [], total: 0 };
      perNode.push(rec);
      if (!failed) feasibleRecords.push(rec);
      if (++k === m) k = 0;
    }
  }

  if (feasible.length === 0) {
    const postFilterMsg = postFilterMessage(pod, nodeInfos, nodeToStatus, ctx, filterPlugins, preemption, dynamicResources);
    const fitError: FitError = {
      numAllNodes: n,
      nodeToStatus,
      unschedulablePlugins: [...unschedulable].sort(),
      postFilterMsg,
      message: fitErrorMessage(n, nodeToStatus, postFilterMsg),
    };
    return { result: { fitError }, perNode, nextStartNodeIndex, evaluatedNodes: processed, feasibleNodes: 0 };
  }
  if (feasible.length === 1) {
    // "When only one node after predicate, just use it": no scoring at all.
    return { result: { node: feasible[0].name }, perNode, nextStartNodeIndex, evaluatedNodes: processed, feasibleNodes: 1 };
  }
  if (!full || flatRecords) {
    const capture = flatRecords ? newScoreCapture(scorePlugins.length) : undefined;
    const pick: HostPick = { rng, index: -1 };
    const totals = prioritizeTotals(pod, feasible, ctx, scorePlugins, cached ? sig : 0, fc ? { fc, idx: feasibleIdx } : undefined, capture, pick);
    if (capture) fillScoreRecords(pod, feasible, ctx, scorePlugins, capture, totals, feasibleRecords);
    const node = pick.index;
    return { result: { node: feasible[node].name }, perNode, nextStartNodeIndex, evaluatedNodes: processed, feasibleNodes: feasible.length };
  }
  const { scores, totals } = prioritizeNodes(pod, feasible, ctx, scorePlugins);
  feasibleRecords.forEach((rec, i) => {
    rec.scores = scores[i];
    rec.total = totals[i];
  });
  const node = selectHost(
    feasible.map((ni, i) => ({ node: ni.name, total: totals[i] })),
    rng,
  );
  return { result: { node }, perNode, nextStartNodeIndex, evaluatedNodes: processed, feasibleNodes: feasible.length };
}

/** validation.NoteLengthLimit: events and conditions are cut to 1024 bytes. */
export const NOTE_LENGTH_LIMIT = 1024;

/** truncateMessage: cut long FailedScheduling messages with " ...". */
export function truncateMessage(message: string): string {
  if (message.length <= NOTE_LENGTH_LIMIT) return message;
  const suffix = ' ...';
  return message.slice(0, NOTE_LENGTH_LIMIT - suffix.length) + suffix;
}

/** The Normal/Scheduled event message (finishBinding). */
export function scheduledEventMessage(pod: Pod, node: string): string {
  return `Successfully assigned ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} to ${node}`;
}

/** The Warning/FailedScheduling event message (handleSchedulingFailure). */
export function failedSchedulingMessage(fitError: FitError): string {
  return truncateMessage(fitError.message);
}

/**
 * DefaultBinder's Binding body for POST /api/v1/namespaces/{ns}/pods/{name}/binding. The Go binder
 * sets `Target: v1.ObjectReference{Kind: "Node", Name: nodeName}`, so target has no apiVersion.
 */
export function newBinding(pod: Pod, node: string): Binding {
  return {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: pod.metadata?.name, namespace: pod.metadata?.namespace, uid: pod.metadata?.uid },
    target: { kind: 'Node', name: node },
  };
}
