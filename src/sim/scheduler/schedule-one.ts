// The reference path: pkg/scheduler/schedule_one.go's schedulePod → findNodesThatFitPod →
// findNodesThatPassFilters → prioritizeNodes → selectHost, plain, with no cache. The core runs the
// fast path (schedule-fast.ts' schedulePodFast, every case, the same answers), which
// schedule-fast.test.ts holds to this one; nothing in the worker loads this file. Other profiles
// than the default (the tests' plugin lists) run here only.
import type { CycleContext, FilterPlugin, Rng, ScorePlugin } from './framework.ts';
import type { Pod } from './k8s-types.ts';
import type { NodeInfo } from './node-info.ts';
import { runFilterPluginsWithNominatedPods } from './preemption.ts';
import {
  type FilterRecord,
  type NodeRecord,
  type ScheduleOptions,
  type ScheduleResult,
  type ScoreRecord,
  DEFAULT_FILTER_PLUGINS,
  DEFAULT_SCORE_PLUGINS,
  allSuccessRecords,
  failedRecord,
  failedRecords,
  fitErrorMessage,
  narrowNodes,
  newCycleContext,
  newFitError,
  noNodesResult,
  numFeasibleNodesToFind,
  preFilterFitError,
  runFilterPlugins,
  runPostFilterPlugins,
  runPreFilterPlugins,
} from './profile.ts';

/** What findNodesThatFitPod found (framework.Diagnosis with the feasible nodes and the figure's records). */
interface Diagnosis {
  feasible: NodeInfo[];
  /** NodeToStatus: the first failing plugin's status per rejected node. */
  nodeToStatus: Record<string, FilterRecord>;
  unschedulablePlugins: Set<string>;
  /** A PreFilter plugin's rejection, which ends the cycle for every node. */
  preFilterRejected?: FilterRecord;
  /** The nodes findNodesThatPassFilters walked (what nextStartNodeIndex moves by). */
  processed: number;
  /** ScheduleResult.EvaluatedNodes as this model counts it: the nominated node alone when it fits, else `processed`. */
  evaluated: number;
  /** Each reached node's filter records, in walk order (for the figure). */
  perNode: NodeRecord[];
}

/**
 * schedulePod: filter (from the rotating start index, stopping at numFeasibleNodesToFind), score,
 * select. PostFilter runs here too (schedulingCycle runs it on the FitError schedulePod returns).
 */
export function schedulePod(pod: Pod, nodeInfos: NodeInfo[], rng: Rng, opts: ScheduleOptions = {}): ScheduleResult {
  const filterPlugins = opts.filterPlugins ?? DEFAULT_FILTER_PLUGINS;
  const scorePlugins = opts.scorePlugins ?? DEFAULT_SCORE_PLUGINS;
  const n = nodeInfos.length;
  if (n === 0) return noNodesResult();
  const full = (opts.record ?? 'full') === 'full';
  const start = (opts.nextStartNodeIndex ?? 0) % n;
  const ctx = newCycleContext(nodeInfos, opts);

  const d = findNodesThatFitPod(pod, nodeInfos, ctx, filterPlugins, start, opts);
  const perNode = full ? d.perNode : [];
  const nextStartNodeIndex = (start + d.processed) % n;
  const counts = { nextStartNodeIndex, evaluatedNodes: d.evaluated, feasibleNodes: d.feasible.length };

  if (d.feasible.length === 0) {
    const preemption = opts.preemption ?? true;
    const pf = preemption
      ? runPostFilterPlugins(
          pod,
          nodeInfos,
          d.nodeToStatus,
          ctx,
          filterPlugins,
          rng,
          opts.now ?? 0,
          opts.nominatedPods,
          opts.preemptionEvaluator,
        )
      : undefined;
    const fitError = d.preFilterRejected
      ? preFilterFitError(n, d.preFilterRejected, d.nodeToStatus, pf)
      : newFitError(pf, {
          numAllNodes: n,
          nodeToStatus: d.nodeToStatus,
          unschedulablePlugins: [...d.unschedulablePlugins].sort(),
          message: fitErrorMessage(n, d.nodeToStatus, pf?.message ?? ''),
        });
    return { result: { fitError }, perNode, ...counts };
  }
  // "When only one node after predicate, just use it": no scoring at all.
  if (d.feasible.length === 1) return { result: { node: d.feasible[0].name }, perNode, ...counts };

  const { scores, totals } = prioritizeNodes(pod, d.feasible, ctx, scorePlugins);
  // The feasible nodes' records are the walk's, in the same order.
  const feasibleRecords = d.perNode.filter((rec) => !failedRecord(rec.filter));
  feasibleRecords.forEach((rec, i) => {
    rec.scores = scores[i];
    rec.total = totals[i];
  });
  const node = selectHost(
    d.feasible.map((ni, i) => ({ node: ni.name, total: totals[i] })),
    rng,
  );
  return { result: { node }, perNode, ...counts };
}

/** findNodesThatFitPod: PreFilter, the nominated node first, then the filters over the (narrowed) nodes. */
function findNodesThatFitPod(
  pod: Pod,
  allNodes: NodeInfo[],
  ctx: CycleContext,
  plugins: FilterPlugin[],
  start: number,
  opts: ScheduleOptions,
): Diagnosis {
  const d: Diagnosis = {
    feasible: [],
    nodeToStatus: {},
    unschedulablePlugins: new Set(),
    processed: 0,
    evaluated: 0,
    perNode: [],
  };
  // Run "prefilter" plugins.
  const pre = runPreFilterPlugins(pod, ctx, plugins);
  if (pre.rejected) {
    d.preFilterRejected = pre.rejected;
    for (const ni of allNodes) d.nodeToStatus[ni.name] = pre.rejected;
    return d;
  }
  // "NominatedNodeName" can be set in a previous scheduling cycle as a result of preemption: that
  // node is likely the only one that fits, so it is evaluated first, alone (evaluateNominatedNode).
  const nnn = pod.status?.nominatedNodeName;
  const nominatedNode = nnn ? allNodes.find((ni) => ni.name === nnn) : undefined;
  if (nominatedNode) {
    const failed = filterNode(pod, nominatedNode, ctx, plugins, opts.nominatedPods);
    if (!failed) {
      d.feasible.push(nominatedNode);
      d.evaluated = 1;
      d.perNode.push({ node: nominatedNode.name, filter: allSuccessRecords(plugins), scores: [], total: 0 });
      return d;
    }
    d.nodeToStatus[nominatedNode.name] = failed;
    d.unschedulablePlugins.add(failed.plugin);
  }
  const nodes = narrowNodes(allNodes, pre, d.nodeToStatus, d.unschedulablePlugins);
  findNodesThatPassFilters(pod, nodes, ctx, plugins, start, opts, d);
  d.evaluated = d.processed;
  return d;
}

/**
 * findNodesThatPassFilters: from the start index, until numFeasibleNodesToFind nodes fit. Kubernetes
 * filters in parallel and cancels once enough nodes fit; sequentially that is "stop after the
 * numNodesToFind-th feasible node".
 */
function findNodesThatPassFilters(
  pod: Pod,
  nodes: NodeInfo[],
  ctx: CycleContext,
  plugins: FilterPlugin[],
  start: number,
  opts: ScheduleOptions,
  d: Diagnosis,
): void {
  const m = nodes.length;
  const numNodesToFind = numFeasibleNodesToFind(opts.percentageOfNodesToScore ?? 0, m);
  for (let i = 0; i < m && d.feasible.length < numNodesToFind; i++) {
    const ni = nodes[(start + i) % m];
    const failed = filterNode(pod, ni, ctx, plugins, opts.nominatedPods);
    d.processed++;
    d.perNode.push({
      node: ni.name,
      filter: failed ? failedRecords(plugins, failed) : allSuccessRecords(plugins),
      scores: [],
      total: 0,
    });
    if (failed) {
      d.nodeToStatus[ni.name] = failed;
      d.unschedulablePlugins.add(failed.plugin);
    } else d.feasible.push(ni);
  }
}

/** RunFilterPluginsWithNominatedPods over the profile's filters: the first failure, or undefined when the node fits. */
function filterNode(
  pod: Pod,
  ni: NodeInfo,
  ctx: CycleContext,
  plugins: FilterPlugin[],
  nominatedPods: Record<string, Pod[]> | undefined,
): FilterRecord | undefined {
  const runFilters = (p: Pod, n: NodeInfo, c: CycleContext) => failedRecord(runFilterPlugins(p, n, c, plugins));
  return runFilterPluginsWithNominatedPods(pod, ni, ctx, plugins, nominatedPods?.[ni.name], runFilters);
}

/** prioritizeNodes: PreScore, Score, NormalizeScore, × weight, summed per node. */
function prioritizeNodes(
  pod: Pod,
  feasible: NodeInfo[],
  ctx: CycleContext,
  plugins: ScorePlugin[],
): { scores: ScoreRecord[][]; totals: number[] } {
  const n = feasible.length;
  const scores: ScoreRecord[][] = feasible.map(() => new Array(plugins.length));
  const totals: number[] = new Array(n).fill(0);
  for (let p = 0; p < plugins.length; p++) {
    const pl = plugins[p];
    const active = pl.preScore ? pl.preScore(pod, feasible, ctx) : true;
    const raw = feasible.map((ni) => (active ? pl.score(pod, ni, ctx) : 0));
    const normalized = [...raw];
    if (active && pl.normalize) pl.normalize(normalized, feasible, ctx);
    for (let i = 0; i < n; i++) {
      const weighted = normalized[i] * pl.weight;
      scores[i][p] = { plugin: pl.name, raw: raw[i], normalized: normalized[i], weighted };
      totals[i] += weighted;
    }
  }
  return { scores, totals };
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
