import { type CycleContext, type FilterPlugin, type Rng, podPriority } from './framework.ts';
import type { Pod } from './k8s-types.ts';
import { parseTime } from '../names.ts';
import { type NodeInfo, addPod, cloneNodeInfo, removePod } from './node-info.ts';

// DefaultPreemption (framework/plugins/defaultpreemption) and its evaluator (framework/preemption):
// PostFilter → Preempt → evaluate (PodEligibleToPreemptOthers, findCandidates, DryRunPreemption,
// SelectVictimsOnNode, SelectCandidate / pickOneNodeForPreemption). The executor's API calls are
// the scheduler component's (scheduler.ts). The simulator serves no PodDisruptionBudgets, so every
// victim is "non-violating" and NumPDBViolations is always 0; GenericWorkload (pod groups) is off by
// default in 1.37 and not modelled, so each victim is one pod.

/** One plugin's verdict on one node (schedule-one.ts' FilterRecord, repeated to keep this file a leaf). */
export interface PreemptionStatus {
  plugin: string;
  code: 'Success' | 'Unschedulable' | 'UnschedulableAndUnresolvable';
  reasons: string[];
}

/** extenderv1.Victims: the pods to evict, most important first. */
export interface Victims {
  pods: Pod[];
  numPDBViolations: number;
}

/** preemption.Candidate: a node and what must go from it. */
export interface Candidate {
  name: string;
  victims: Victims;
}

/** DefaultPreemptionArgs' defaults (apis/config/v1/defaults.go). */
export const DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE = 10;
export const DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE = 100;

/** PodEligibleToPreemptOthers' refusal message for preemptionPolicy: Never. */
export const NOT_ELIGIBLE_PREEMPTION_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';
/** PodEligibleToPreemptOthers' refusal while an earlier victim on the nominated node terminates. */
export const NOT_ELIGIBLE_TERMINATING_POD = 'not eligible due to a terminating pod on the nominated node.';
/** The status of nodes where removing pods cannot help (absent from the dry run's statuses). */
export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
/** SelectVictimsOnNode's status for a node with no lower-priority pods. */
export const NO_PREEMPTION_VICTIMS = 'No preemption victims found for incoming pod';

/** Evaluator.Preempt's success message (without DefaultPreemption's "preemption: " prefix). */
export function preemptionSuccessMessage(node: string, numVictims: number): string {
  return `found a potential placement for pod on node ${node}, preempting ${numVictims} victims`;
}

/** The DisruptionTarget condition's message on a victim (executor.go PreemptPod). */
export function preemptionConditionMessage(schedulerName: string): string {
  return `${schedulerName}: preempting to accommodate a higher priority pod`;
}

/** The Normal/Preempted event on a victim (executor.go PreemptPod; preemptor.Type() is "pod"). */
export function preemptedEventMessage(preemptorUid: string, node: string): string {
  return `Preempted by pod ${preemptorUid} on node ${node}`;
}

/** A filter pass: the first failing plugin's status, or undefined when every filter passed. */
export type RunFilters = (pod: Pod, ni: NodeInfo, ctx: CycleContext) => PreemptionStatus | undefined;

/** calculateNumCandidates: 10% of the nodes, at least 100, at most all of them. */
export function calculateNumCandidates(numNodes: number, pct = DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE, abs = DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE): number {
  let n = Math.trunc((numNodes * pct) / 100);
  if (n < abs) n = abs;
  if (n > numNodes) n = numNodes;
  return n;
}

/** GetOffsetAndNumCandidates: a random start (rand.Int31n, here the world's seeded rng) and the count. */
export function getOffsetAndNumCandidates(numNodes: number, rng: Rng): [number, number] {
  return [rng.int(numNodes), calculateNumCandidates(numNodes)];
}

/** util.GetPodStartTime in simulated ms: status.startTime, or now for a pod not started yet. */
export function podStartTime(pod: Pod, now: number): number {
  const t = pod.status?.startTime;
  return t ? parseTime(t) : now;
}

/** MoreImportantVictim for single-pod victims: higher priority, then the earlier start. */
export function moreImportantVictim(a: Pod, b: Pod, now: number): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a, now) < podStartTime(b, now);
}

/** PodTerminatingByPreemption: being deleted, with DisruptionTarget=True by PreemptionByScheduler. */
export function podTerminatingByPreemption(p: Pod): boolean {
  if (!p.metadata?.deletionTimestamp) return false;
  const c = (p.status?.conditions ?? []).find((x) => x.type === 'DisruptionTarget');
  return !!c && c.status === 'True' && c.reason === 'PreemptionByScheduler';
}

/**
 * PodEligibleToPreemptOthers: not with preemptionPolicy Never; not while a lower-priority pod on the
 * nominated node is still terminating from an earlier preemption (unless that node cannot help anyway).
 */
export function podEligibleToPreemptOthers(pod: Pod, nodeToStatus: Record<string, PreemptionStatus>, nodes: NodeInfo[]): { ok: boolean; msg: string } {
  if (pod.spec?.preemptionPolicy === 'Never') return { ok: false, msg: NOT_ELIGIBLE_PREEMPTION_POLICY_NEVER };
  const nom = pod.status?.nominatedNodeName;
  if (nom) {
    // A node without an explicit status has the absent status, UnschedulableAndUnresolvable.
    const st = nodeToStatus[nom];
    if (!st || st.code === 'UnschedulableAndUnresolvable') return { ok: true, msg: '' };
    const ni = nodes.find((n) => n.name === nom);
    const prio = podPriority(pod);
    if (ni) for (const p of ni.pods) if (podPriority(p) < prio && podTerminatingByPreemption(p)) return { ok: false, msg: NOT_ELIGIBLE_TERMINATING_POD };
  }
  return { ok: true, msg: '' };
}

/** The PreFilter extensions (AddPod / RemovePod) of the filters that have them, on a cycle's state. */
function runPreFilterExtension(op: 'addPod' | 'removePod', plugins: FilterPlugin[], pod: Pod, other: Pod, ni: NodeInfo, ctx: CycleContext): void {
  for (const pl of plugins) pl[op]?.(pod, other, ni, ctx);
}

/** A copy of the cycle state the extensions can change (they replace entries, never mutate them). */
export function cloneCycleContext(ctx: CycleContext): CycleContext {
  return { ...ctx, state: { ...ctx.state } };
}

/**
 * NominatedPodsForNode filtered as addGENominatedPods does: other pods of equal or higher priority
 * nominated to the node.
 */
export function geNominatedPods(pod: Pod, nominated: readonly Pod[] | undefined): Pod[] {
  if (!nominated || nominated.length === 0) return [];
  const prio = podPriority(pod);
  const uid = pod.metadata?.uid;
  return nominated.filter((p) => podPriority(p) >= prio && p.metadata?.uid !== uid);
}

/**
 * RunFilterPluginsWithNominatedPods: filter once with the equal-or-higher-priority nominated pods added
 * (and the PreFilter state told of them), then, if that passed and pods were added, once without them,
 * so a pod that fits only thanks to a nominated pod (spreading) is not let through either.
 */
export function runFilterPluginsWithNominatedPods(
  pod: Pod, ni: NodeInfo, ctx: CycleContext, plugins: FilterPlugin[], nominated: readonly Pod[] | undefined, runFilters: RunFilters,
): PreemptionStatus | undefined {
  const add = geNominatedPods(pod, nominated);
  if (add.length === 0) return runFilters(pod, ni, ctx);
  const niOut = cloneNodeInfo(ni);
  const ctxOut = cloneCycleContext(ctx);
  for (const p of add) {
    addPod(niOut, p);
    runPreFilterExtension('addPod', plugins, pod, p, niOut, ctxOut);
  }
  const first = runFilters(pod, niOut, ctxOut);
  if (first) return first;
  return runFilters(pod, ni, ctx);
}

/**
 * SelectVictimsOnNode: remove every lower-priority pod, check the pod fits, then add them back from
 * the most important down (reprieve) and keep as victims only those whose return breaks the fit.
 * `ni` and `ctx` are the caller's copies (DryRunPreemption hands in nodeInfo.Snapshot(), state.Clone()).
 */
export function selectVictimsOnNode(
  pod: Pod, ni: NodeInfo, ctx: CycleContext, plugins: FilterPlugin[], nominated: readonly Pod[] | undefined, runFilters: RunFilters, now: number,
): { victims: Pod[]; numPDBViolations: number; status?: PreemptionStatus } {
  const prio = podPriority(pod);
  const potential = ni.pods.filter((p) => podPriority(p) < prio);
  if (potential.length === 0) {
    return { victims: [], numPDBViolations: 0, status: { plugin: 'DefaultPreemption', code: 'UnschedulableAndUnresolvable', reasons: [NO_PREEMPTION_VICTIMS] } };
  }
  for (const v of potential) {
    removePod(ni, v);
    runPreFilterExtension('removePod', plugins, pod, v, ni, ctx);
  }
  const fit = runFilterPluginsWithNominatedPods(pod, ni, ctx, plugins, nominated, runFilters);
  if (fit) return { victims: [], numPDBViolations: 0, status: fit };
  // Go's sort.Slice is not stable; equal victims (same priority, same start) keep node order here.
  const sorted = potential
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (moreImportantVictim(a.p, b.p, now) ? -1 : moreImportantVictim(b.p, a.p, now) ? 1 : a.i - b.i))
    .map((x) => x.p);
  // No PodDisruptionBudgets: FilterVictimsWithPDBViolation puts every victim in nonViolatingVictims.
  const victims: Pod[] = [];
  for (const v of sorted) {
    addPod(ni, v);
    runPreFilterExtension('addPod', plugins, pod, v, ni, ctx);
    if (runFilterPluginsWithNominatedPods(pod, ni, ctx, plugins, nominated, runFilters)) {
      removePod(ni, v);
      runPreFilterExtension('removePod', plugins, pod, v, ni, ctx);
      victims.push(v);
    }
  }
  return { victims, numPDBViolations: 0 };
}

/**
 * DryRunPreemption: SelectVictimsOnNode on the potential nodes from `offset` round, stopping once
 * `numCandidates` candidates are found (Go checks nodes in parallel and cancels then; one at a time,
 * that is "stop at the numCandidates-th"). Returns the candidates and the failed nodes' statuses.
 */
export function dryRunPreemption(
  pod: Pod, potentialNodes: NodeInfo[], ctx: CycleContext, plugins: FilterPlugin[], nominatedByNode: Record<string, Pod[]> | undefined,
  runFilters: RunFilters, offset: number, numCandidates: number, now: number,
): { candidates: Candidate[]; statuses: Record<string, PreemptionStatus> } {
  const candidates: Candidate[] = [];
  const statuses: Record<string, PreemptionStatus> = {};
  const n = potentialNodes.length;
  for (let i = 0; i < n; i++) {
    const ni = potentialNodes[(offset + i) % n];
    const r = selectVictimsOnNode(pod, cloneNodeInfo(ni), cloneCycleContext(ctx), plugins, nominatedByNode?.[ni.name], runFilters, now);
    if (!r.status && r.victims.length > 0) {
      // newCandidateList(numCandidates): a full list disregards further candidates.
      if (candidates.length < numCandidates) candidates.push({ name: ni.name, victims: { pods: r.victims, numPDBViolations: r.numPDBViolations } });
      if (candidates.length >= numCandidates) break;
      continue;
    }
    statuses[ni.name] = r.status ?? { plugin: 'DefaultPreemption', code: 'Unschedulable', reasons: [`expected at least one victim pod on node "${ni.name}"`] };
  }
  return { candidates, statuses };
}

/** util.GetEarliestPodStartTime: the earliest start among the highest-priority victims. */
export function earliestPodStartTime(victims: Victims, now: number): number {
  let earliest = podStartTime(victims.pods[0], now);
  let maxPriority = podPriority(victims.pods[0]);
  for (const p of victims.pods) {
    const prio = podPriority(p);
    if (prio === maxPriority) earliest = Math.min(earliest, podStartTime(p, now));
    else if (prio > maxPriority) {
      maxPriority = prio;
      earliest = podStartTime(p, now);
    }
  }
  return earliest;
}

const MAX_INT32_PLUS_1 = 2 ** 31;

/**
 * pickOneNodeForPreemption: fewest PDB violations, then the lowest highest-priority victim, the
 * smallest sum of priorities, the fewest victims, the latest start of the highest-priority victims,
 * then the first. Go walks a map (random order); here the candidates' dry-run order stands in.
 */
export function pickOneNodeForPreemption(candidates: Candidate[], now: number): string {
  if (candidates.length === 0) return '';
  const byName = new Map(candidates.map((c) => [c.name, c.victims]));
  const scoreFuncs: ((node: string) => number)[] = [
    (node) => -byName.get(node)!.numPDBViolations,
    (node) => -podPriority(byName.get(node)!.pods[0]),
    (node) => -byName.get(node)!.pods.reduce((s, p) => s + podPriority(p) + MAX_INT32_PLUS_1, 0),
    (node) => -byName.get(node)!.pods.length,
    (node) => earliestPodStartTime(byName.get(node)!, now),
  ];
  let all = candidates.map((c) => c.name);
  for (const f of scoreFuncs) {
    let selected: string[] = [];
    let maxScore = -Infinity;
    for (const node of all) {
      const score = f(node);
      if (score > maxScore) {
        maxScore = score;
        selected = [];
      }
      if (score === maxScore) selected.push(node);
    }
    if (selected.length === 1) return selected[0];
    all = selected;
  }
  return all[0];
}

/** SelectCandidate: the only one, or pickOneNodeForPreemption's. */
export function selectCandidate(candidates: Candidate[], now: number): Candidate | undefined {
  if (candidates.length <= 1) return candidates[0];
  const name = pickOneNodeForPreemption(candidates, now);
  return candidates.find((c) => c.name === name) ?? candidates[0];
}

/** What DefaultPreemption.PostFilter returns: its status and the PostFilterResult's nomination. */
export interface PostFilterOutcome {
  code: 'Success' | 'Unschedulable';
  /** The status message, "preemption: " included. */
  message: string;
  /** The chosen node and its victims, on Success. */
  candidate?: Candidate;
  /** NominatingInfo: a node to nominate, '' to clear the nomination, undefined to leave it. */
  nominatedNodeName?: string;
}

/** Inputs of one PostFilter run beyond the pod and the filters' verdicts. */
export interface PreemptionInput {
  allNodes: NodeInfo[];
  ctx: CycleContext;
  plugins: FilterPlugin[];
  runFilters: RunFilters;
  rng: Rng;
  now: number;
  nominatedByNode?: Record<string, Pod[]>;
  /** FitError.Error() over the dry run's statuses, with absent nodes "not helpful". */
  fitErrorMessage: (numAllNodes: number, nodeToStatus: Record<string, PreemptionStatus>) => string;
}

/** DefaultPreemption.PostFilter (Evaluator.Preempt without the actuation, which the scheduler does). */
export function defaultPreemptionPostFilter(pod: Pod, nodeToStatus: Record<string, PreemptionStatus>, input: PreemptionInput): PostFilterOutcome {
  const { allNodes, ctx, plugins, runFilters, rng, now, nominatedByNode } = input;
  const eligible = podEligibleToPreemptOthers(pod, nodeToStatus, allNodes);
  if (!eligible.ok) return { code: 'Unschedulable', message: 'preemption: ' + eligible.msg };
  // findCandidates: only nodes whose filters said Unschedulable (resolvable) may be helped.
  const potential = allNodes.filter((ni) => nodeToStatus[ni.name]?.code === 'Unschedulable');
  let candidates: Candidate[] = [];
  let statuses: Record<string, PreemptionStatus> = {};
  if (potential.length > 0) {
    const [offset, num] = getOffsetAndNumCandidates(potential.length, rng);
    ({ candidates, statuses } = dryRunPreemption(pod, potential, ctx, plugins, nominatedByNode, runFilters, offset, num, now));
  }
  if (candidates.length === 0) {
    const notHelpful: PreemptionStatus = { plugin: 'DefaultPreemption', code: 'UnschedulableAndUnresolvable', reasons: [PREEMPTION_NOT_HELPFUL] };
    const full: Record<string, PreemptionStatus> = {};
    for (const ni of allNodes) full[ni.name] = statuses[ni.name] ?? notHelpful;
    return { code: 'Unschedulable', message: 'preemption: ' + input.fitErrorMessage(allNodes.length, full), nominatedNodeName: '' };
  }
  const best = selectCandidate(candidates, now)!;
  return { code: 'Success', message: 'preemption: ' + preemptionSuccessMessage(best.name, best.victims.pods.length), candidate: best, nominatedNodeName: best.name };
}

/** getLowerPriorityNominatedPods: pods nominated to `node` with a lower priority than `priority`. */
export function getLowerPriorityNominatedPods(nominated: readonly Pod[] | undefined, priority: number): Pod[] {
  return (nominated ?? []).filter((p) => podPriority(p) < priority);
}
