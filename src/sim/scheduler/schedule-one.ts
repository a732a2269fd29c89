import { type Code, type CycleContext, type FilterPlugin, type Listers, type Rng, type ScorePlugin, type Status } from './framework.ts';
import type { Binding, Pod } from './k8s-types.ts';
import { nodeAffinityFilter, nodeAffinityScore } from './node-affinity.ts';
import type { NodeInfo } from './node-info.ts';
import { nodeName } from './node-name.ts';
import { type PostFilterOutcome, type PreemptionEvaluator, defaultPreemptionPostFilter, geNominatedPods, runFilterPluginsWithNominatedPods } from './preemption.ts';
import { nodePorts } from './node-ports.ts';
import { nodeResourcesBalancedAllocationScore, nodeResourcesFitFilter, nodeResourcesFitScore } from './node-resources.ts';
import { forgetSlots, nodeSlots, slotsMatch } from './node-slots.ts';
import { nodeUnschedulable } from './node-unschedulable.ts';
import { podTopologySpreadFilter, podTopologySpreadScore } from './pod-topology-spread.ts';
import { type FlatCache, type HostPick, failedRecords, fillScoreRecords, filterSets, filterSetsForSignature, findFeasibleFlat, flatCacheFor, flatFeasible, flatFeasibleIdx, localEntry, localSignatureId, newScoreCapture, prioritizeTotals } from './schedule-fast.ts';
import { taintTolerationFilter, taintTolerationScore } from './taint-toleration.ts';

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
const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** minFeasibleNodesPercentageToFind. */
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

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
interface ScoreRecord {
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
  /** PostFilterResult's NominatingInfo: the node to nominate, '' to clear, undefined to leave as is. */
  nominatedNodeName?: string;
  /** The preemption DefaultPreemption decided on, for the scheduler to carry out (the executor). */
  preemption?: { node: string; victims: Pod[] };
}

/** The outcome of one scheduling attempt. */
interface ScheduleResult {
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
interface ScheduleOptions {
  /** 0 (default) = adaptive. */
  percentageOfNodesToScore?: number;
  nextStartNodeIndex?: number;
  listers?: Listers;
  /** Run DefaultPreemption's PostFilter and append its message (default true). */
  preemption?: boolean;
  /** Its victim search, when the world has loaded it (World.parts.preemption; preemption.ts' PreemptionEvaluator). */
  preemptionEvaluator?: PreemptionEvaluator;
  /** Simulated now: the start time of victims that have none (util.GetPodStartTime's time.Now()). */
  now?: number;
  /** The queue's nominator: pods nominated to each node (NominatedPodsForNode), for the filters. */
  nominatedPods?: Record<string, Pod[]>;
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
}

/**
 * RunPostFilterPlugins with the default profile's one PostFilter plugin, DefaultPreemption (whose
 * status message is the FitError's PostFilterMsg). DynamicResources is in the profile too, but its
 * PreFilter skips a pod without ResourceClaims (every pod here), and a plugin skipped at PreFilter
 * adds nothing at PostFilter: real 1.37.2 prints no "no new claims to deallocate" (the oracle's trace).
 */
function runPostFilterPlugins(
  pod: Pod, allNodes: NodeInfo[], nodeToStatus: Record<string, FilterRecord>, ctx: CycleContext, filterPlugins: FilterPlugin[],
  rng: Rng, now: number, nominatedPods?: Record<string, Pod[]>, evaluator?: PreemptionEvaluator,
): PostFilterOutcome {
  return defaultPreemptionPostFilter(pod, nodeToStatus, {
    allNodes, ctx, plugins: filterPlugins, rng, now, nominatedByNode: nominatedPods, evaluator,
    runFilters: (p, ni, c) => failedRecord(runFilterPlugins(p, ni, c, filterPlugins)),
    fitErrorMessage: (n, statuses) => fitErrorMessage(n, statuses, ''),
  });
}

/** Per node, the other pods of equal or higher priority nominated to it; undefined when there are none. */
function nominatedFor(pod: Pod, nominatedPods: Record<string, Pod[]> | undefined): Record<string, Pod[]> | undefined {
  if (!nominatedPods) return undefined;
  let out: Record<string, Pod[]> | undefined;
  for (const node of Object.keys(nominatedPods)) {
    const ge = geNominatedPods(pod, nominatedPods[node]);
    if (ge.length > 0) (out ??= {})[node] = ge;
  }
  return out;
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

export function allSuccessRecords(plugins: FilterPlugin[]): FilterRecord[] {
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


/** The failing record of a runFilterPlugins result, if any. */
export function failedRecord(records: FilterRecord[]): FilterRecord | undefined {
  const last = records[records.length - 1];
  return last && last.code !== 'Success' ? last : undefined;
}

/** sortReasonsHistogram + NoNodeAvailableMsg: "0/N nodes are available: 2 reason, 1 other." */
function nodesAvailableMessage(numAllNodes: number, reasonsPerNode: string[][]): string {
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
function prioritizeNodes(pod: Pod, feasible: NodeInfo[], ctx: CycleContext, plugins: ScorePlugin[]): { scores: ScoreRecord[][]; totals: number[] } {
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
/** schedulePod: filter (from the rotating start index, stopping at numFeasibleNodesToFind), score, select. */
export function schedulePod(pod: Pod, nodeInfos: NodeInfo[], rng: Rng, opts: ScheduleOptions = {}): ScheduleResult {
  const filterPlugins = opts.filterPlugins ?? DEFAULT_FILTER_PLUGINS;
  const scorePlugins = opts.scorePlugins ?? DEFAULT_SCORE_PLUGINS;
  const n = nodeInfos.length;
  const start = n > 0 ? (opts.nextStartNodeIndex ?? 0) % n : 0;
  const perNode: NodeRecord[] = [];
  if (n === 0) {
    const fitError: FitError = { numAllNodes: 0, nodeToStatus: {}, unschedulablePlugins: [], postFilterMsg: '', message: ERR_NO_NODES_AVAILABLE, nominatedNodeName: '' };
    return { result: { fitError }, perNode, nextStartNodeIndex: 0, evaluatedNodes: 0, feasibleNodes: 0 };
  }
  const ctx: CycleContext = { allNodes: nodeInfos, state: {}, listers: opts.listers ?? {}, taintReasonWithKey: opts.taintReasonWithKey };
  const nodeToStatus: Record<string, FilterRecord> = {};
  const unschedulable = new Set<string>();
  const preemption = opts.preemption ?? true;
  const full = (opts.record ?? 'full') === 'full';
  const now = opts.now ?? 0;
  const nominated = nominatedFor(pod, opts.nominatedPods);
  const runFilters = (p: Pod, ni: NodeInfo, c: CycleContext) => failedRecord(runFilterPlugins(p, ni, c, filterPlugins));
  // handleSchedulingFailure's inputs: without PostFilter plugins the nomination is cleared.
  const fitErrorOf = (postFilter: PostFilterOutcome | undefined, rest: Omit<FitError, 'postFilterMsg' | 'nominatedNodeName' | 'preemption'>): FitError => ({
    ...rest,
    postFilterMsg: postFilter?.message ?? '',
    nominatedNodeName: postFilter ? postFilter.nominatedNodeName : '',
    ...(postFilter?.candidate ? { preemption: { node: postFilter.candidate.name, victims: postFilter.candidate.victims.pods } } : {}),
  });
  const postFilter = () => (preemption ? runPostFilterPlugins(pod, nodeInfos, nodeToStatus, ctx, filterPlugins, rng, now, opts.nominatedPods, opts.preemptionEvaluator) : undefined);

  // RunPreFilterPlugins: a rejection applies to every node; node-name results are intersected.
  let allowed: Set<string> | undefined;
  const narrowing: string[] = [];
  for (const pl of filterPlugins) {
    const res = pl.preFilter?.(pod, ctx);
    if (res?.status && res.status.code !== 'Success') {
      const rec: FilterRecord = { plugin: pl.name, code: res.status.code, reasons: res.status.reasons };
      for (const ni of nodeInfos) nodeToStatus[ni.name] = rec;
      const preFilterMsg = res.status.reasons.join(', ');
      const pf = postFilter();
      let message = `0/${n} nodes are available: ${preFilterMsg}.`;
      if (pf?.message) message += ` ${pf.message}`;
      const fitError = fitErrorOf(pf, { numAllNodes: n, nodeToStatus, unschedulablePlugins: [pl.name], message });
      return { result: { fitError }, perNode, nextStartNodeIndex: start, evaluatedNodes: 0, feasibleNodes: 0 };
    }
    if (res?.nodeNames) {
      const names = new Set(res.nodeNames);
      allowed = allowed ? new Set([...allowed].filter((x) => names.has(x))) : names;
      narrowing.push(pl.name);
    }
  }
  // evaluateNominatedNode: a pod nominated by an earlier preemption tries that node first, alone.
  const nnn = pod.status?.nominatedNodeName;
  const nominatedNode = nnn ? nodeInfos.find((ni) => ni.name === nnn) : undefined;
  if (nominatedNode) {
    const failed = runFilterPluginsWithNominatedPods(pod, nominatedNode, ctx, filterPlugins, nominated?.[nominatedNode.name], runFilters) as FilterRecord | undefined;
    if (full) perNode.push({ node: nominatedNode.name, filter: failed ? failedRecords(filterPlugins, failed) : allSuccessRecords(filterPlugins), scores: [], total: 0 });
    if (!failed) return { result: { node: nominatedNode.name }, perNode, nextStartNodeIndex: start, evaluatedNodes: 1, feasibleNodes: 1 };
    nodeToStatus[nominatedNode.name] = failed;
    unschedulable.add(failed.plugin);
    // The full pass below reaches this node again and records it again.
    if (full) perNode.length = 0;
  }
  let nodes = nodeInfos;
  if (allowed) {
    nodes = nodeInfos.filter((ni) => allowed!.has(ni.name));
    const absent: FilterRecord = {
      plugin: narrowing.join(','),
      code: 'UnschedulableAndUnresolvable',
      reasons: [`node(s) didn't satisfy plugin(s) [${[...narrowing].sort().join(' ')}]`],
    };
    // SetAbsentNodesStatus: a status set explicitly (the nominated node's) stays.
    for (const ni of nodeInfos) if (!allowed.has(ni.name) && !nodeToStatus[ni.name]) nodeToStatus[ni.name] = absent;
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
  // Nominated pods change what a node holds for this pod alone: such cycles take the reference path.
  const flatRecords = full && defaultProfile && nodes === nodeInfos && !nominated;
  // The per-node cache of node-local verdicts, for the default profile.
  const cached = defaultProfile && (!full || flatRecords) && !nominated;
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
    const nom = nominated?.[ni.name];
    if (nom) {
      const failedRec = runFilterPluginsWithNominatedPods(pod, ni, ctx, filterPlugins, nom, runFilters) as FilterRecord | undefined;
      processed++;
      const rec: NodeRecord | undefined = full ? { node: ni.name, filter: failedRec ? failedRecords(filterPlugins, failedRec) : allSuccessRecords(filterPlugins), scores: [], total: 0 } : undefined;
      if (rec) perNode.push(rec);
      if (failedRec) {
        nodeToStatus[ni.name] = failedRec;
        unschedulable.add(failedRec.plugin);
      } else {
        feasible.push(ni);
        if (rec) feasibleRecords.push(rec);
      }
      continue;
    }
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
    const pf = postFilter();
    const fitError = fitErrorOf(pf, {
      numAllNodes: n,
      nodeToStatus,
      unschedulablePlugins: [...unschedulable].sort(),
      message: fitErrorMessage(n, nodeToStatus, pf?.message ?? ''),
    });
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
const NOTE_LENGTH_LIMIT = 1024;

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
