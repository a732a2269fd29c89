// What the scheduler's two paths share: the default profile (its plugins, in order), the records a
// figure reads, FitError and its messages, and the framework steps both run the same way
// (RunPreFilterPlugins, RunFilterPlugins, RunPostFilterPlugins). schedule-one.ts (the reference,
// as schedule_one.go) and schedule-fast.ts (the core's path, from caches) both import this module
// and never each other.
import type { Code, CycleContext, FilterPlugin, Listers, Rng, ScorePlugin, Status } from './framework.ts';
import type { Binding, Pod } from './k8s-types.ts';
import { nodeAffinityFilter, nodeAffinityScore } from './node-affinity.ts';
import type { NodeInfo } from './node-info.ts';
import { nodeName } from './node-name.ts';
import { nodePorts } from './node-ports.ts';
import {
  nodeResourcesBalancedAllocationScore,
  nodeResourcesFitFilter,
  nodeResourcesFitScore,
} from './node-resources.ts';
import { nodeUnschedulable } from './node-unschedulable.ts';
import { podTopologySpreadFilter, podTopologySpreadScore } from './pod-topology-spread.ts';
import {
  type PostFilterOutcome,
  type PreemptionEvaluator,
  defaultPreemptionPostFilter,
  geNominatedPods,
} from './preemption.ts';
import { taintTolerationFilter, taintTolerationScore } from './taint-toleration.ts';
import { allSuccess, successRecords } from './profile-cache.ts';

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
  /** PostFilterResult's NominatingInfo: the node to nominate, '' to clear, undefined to leave as is. */
  nominatedNodeName?: string;
  /** The preemption DefaultPreemption decided on, for the scheduler to carry out (the executor). */
  preemption?: { node: string; victims: Pod[] };
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

/** ErrNoNodesAvailable's message. */
export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/** The FitError of a cycle over no nodes at all (ErrNoNodesAvailable; the nomination is cleared). */
export function noNodesResult(): ScheduleResult {
  const fitError: FitError = {
    numAllNodes: 0,
    nodeToStatus: {},
    unschedulablePlugins: [],
    postFilterMsg: '',
    message: ERR_NO_NODES_AVAILABLE,
    nominatedNodeName: '',
  };
  return { result: { fitError }, perNode: [], nextStartNodeIndex: 0, evaluatedNodes: 0, feasibleNodes: 0 };
}

/** The cycle's CycleContext: the snapshot's nodes, empty state, the listers. */
export function newCycleContext(nodeInfos: NodeInfo[], opts: ScheduleOptions): CycleContext {
  return { allNodes: nodeInfos, state: {}, listers: opts.listers ?? {}, taintReasonWithKey: opts.taintReasonWithKey };
}

function successRecord(plugin: string): FilterRecord {
  // Shared and frozen: a cycle over hundreds of nodes would otherwise allocate one per plugin per node.
  let r = successRecords.get(plugin);
  if (!r) {
    r = Object.freeze({ plugin, code: 'Success', reasons: Object.freeze([]) as unknown as string[] });
    successRecords.set(plugin, r);
  }
  return r;
}

/** Every plugin's Success record, shared and frozen (a node every filter passed). */
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

/** runFilterPlugins' records when `failed` is the first failure. */
export function failedRecords(plugins: FilterPlugin[], failed: FilterRecord): FilterRecord[] {
  let i = 0;
  while (i < plugins.length && plugins[i].name !== failed.plugin) i++;
  const records = allSuccessRecords(plugins).slice(0, i);
  records.push(failed);
  return records;
}

/** RunPreFilterPlugins' outcome: a rejection for every node, or the nodes the plugins narrowed to. */
interface PreFilterOutcome {
  /** The first plugin's non-success status (the cycle ends: every node gets it). */
  rejected?: FilterRecord;
  /** PreFilterResult.NodeNames, intersected over the plugins; undefined = all nodes. */
  allowed?: Set<string>;
  /** The plugins that narrowed, in profile order. */
  narrowing: string[];
}

/** RunPreFilterPlugins: a rejection applies to every node; node-name results are intersected. */
export function runPreFilterPlugins(pod: Pod, ctx: CycleContext, plugins: FilterPlugin[]): PreFilterOutcome {
  let allowed: Set<string> | undefined;
  const narrowing: string[] = [];
  for (const pl of plugins) {
    const res = pl.preFilter?.(pod, ctx);
    if (res?.status && res.status.code !== 'Success') {
      return { rejected: { plugin: pl.name, code: res.status.code, reasons: res.status.reasons }, narrowing };
    }
    if (res?.nodeNames) {
      const names = new Set(res.nodeNames);
      allowed = allowed ? new Set([...allowed].filter((x) => names.has(x))) : names;
      narrowing.push(pl.name);
    }
  }
  return { allowed, narrowing };
}

/**
 * The nodes a PreFilterResult leaves (all when it did not narrow), and SetAbsentNodesStatus on the
 * others: a status set explicitly (the nominated node's) stays.
 */
export function narrowNodes(
  nodeInfos: NodeInfo[],
  pre: PreFilterOutcome,
  nodeToStatus: Record<string, FilterRecord>,
  unschedulable: Set<string>,
): NodeInfo[] {
  const allowed = pre.allowed;
  if (!allowed) return nodeInfos;
  const absent: FilterRecord = {
    plugin: pre.narrowing.join(','),
    code: 'UnschedulableAndUnresolvable',
    reasons: [`node(s) didn't satisfy plugin(s) [${[...pre.narrowing].sort().join(' ')}]`],
  };
  for (const ni of nodeInfos) if (!allowed.has(ni.name) && !nodeToStatus[ni.name]) nodeToStatus[ni.name] = absent;
  pre.narrowing.forEach((p) => unschedulable.add(p));
  return nodeInfos.filter((ni) => allowed.has(ni.name));
}

/** Per node, the other pods of equal or higher priority nominated to it; undefined when there are none. */
export function nominatedFor(
  pod: Pod,
  nominatedPods: Record<string, Pod[]> | undefined,
): Record<string, Pod[]> | undefined {
  if (!nominatedPods) return undefined;
  let out: Record<string, Pod[]> | undefined;
  for (const node of Object.keys(nominatedPods)) {
    const ge = geNominatedPods(pod, nominatedPods[node]);
    if (ge.length > 0) (out ??= {})[node] = ge;
  }
  return out;
}

/**
 * RunPostFilterPlugins with the default profile's one PostFilter plugin, DefaultPreemption (whose
 * status message is the FitError's PostFilterMsg). DynamicResources is in the profile too, but its
 * PreFilter skips a pod without ResourceClaims (every pod here), and a plugin skipped at PreFilter
 * adds nothing at PostFilter: real 1.37.2 prints no "no new claims to deallocate" (the oracle's trace).
 */
export function runPostFilterPlugins(
  pod: Pod,
  allNodes: NodeInfo[],
  nodeToStatus: Record<string, FilterRecord>,
  ctx: CycleContext,
  filterPlugins: FilterPlugin[],
  rng: Rng,
  now: number,
  nominatedPods?: Record<string, Pod[]>,
  evaluator?: PreemptionEvaluator,
): PostFilterOutcome {
  return defaultPreemptionPostFilter(pod, nodeToStatus, {
    allNodes,
    ctx,
    plugins: filterPlugins,
    rng,
    now,
    nominatedByNode: nominatedPods,
    evaluator,
    runFilters: (p, ni, c) => failedRecord(runFilterPlugins(p, ni, c, filterPlugins)),
    fitErrorMessage: (n, statuses) => fitErrorMessage(n, statuses, ''),
  });
}

/** handleSchedulingFailure's inputs from PostFilter's outcome: without PostFilter plugins the nomination is cleared. */
export function newFitError(
  postFilter: PostFilterOutcome | undefined,
  rest: Omit<FitError, 'postFilterMsg' | 'nominatedNodeName' | 'preemption'>,
): FitError {
  return {
    ...rest,
    postFilterMsg: postFilter?.message ?? '',
    nominatedNodeName: postFilter ? postFilter.nominatedNodeName : '',
    ...(postFilter?.candidate
      ? { preemption: { node: postFilter.candidate.name, victims: postFilter.candidate.victims.pods } }
      : {}),
  };
}

/** The FitError of a PreFilter rejection: "0/N nodes are available: <PreFilterMsg>." and PostFilter's message. */
export function preFilterFitError(
  n: number,
  rejected: FilterRecord,
  nodeToStatus: Record<string, FilterRecord>,
  postFilter: PostFilterOutcome | undefined,
): FitError {
  let message = `0/${n} nodes are available: ${rejected.reasons.join(', ')}.`;
  if (postFilter?.message) message += ` ${postFilter.message}`;
  return newFitError(postFilter, { numAllNodes: n, nodeToStatus, unschedulablePlugins: [rejected.plugin], message });
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
export function fitErrorMessage(
  numAllNodes: number,
  nodeToStatus: Record<string, FilterRecord>,
  postFilterMsg: string,
): string {
  let msg = nodesAvailableMessage(
    numAllNodes,
    Object.values(nodeToStatus).map((s) => s.reasons),
  );
  if (postFilterMsg) msg += ` ${postFilterMsg}`;
  return msg;
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
