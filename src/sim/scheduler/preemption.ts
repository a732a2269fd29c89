import { type CycleContext, type FilterPlugin, type Rng, podPriority } from './framework.ts';
import type { Pod } from './k8s-types.ts';
import { type NodeInfo, addPod, cloneNodeInfo } from './node-info.ts';
import type { dryRunPreemption, runPreemption, selectCandidate } from './preemption-evaluator.ts';

// DefaultPreemption (framework/plugins/defaultpreemption) and its evaluator (framework/preemption):
// PostFilter → Preempt → evaluate (PodEligibleToPreemptOthers, findCandidates, DryRunPreemption,
// SelectVictimsOnNode, SelectCandidate / pickOneNodeForPreemption). The executor's API calls are
// the scheduler component's (scheduler.ts). Simplified: the scheduler reads no PodDisruptionBudgets (they
// come with kubectl's chunk, apiserver/eviction.ts), so every victim is "non-violating" and
// NumPDBViolations is always 0; GenericWorkload (pod groups) is off by
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
const DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE = 10;
const DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE = 100;

/** PodEligibleToPreemptOthers' refusal message for preemptionPolicy: Never. */
const NOT_ELIGIBLE_PREEMPTION_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';
/** PodEligibleToPreemptOthers' refusal while an earlier victim on the nominated node terminates. */
export const NOT_ELIGIBLE_TERMINATING_POD = 'not eligible due to a terminating pod on the nominated node.';
/** The status of nodes where removing pods cannot help (absent from the dry run's statuses). */
const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
/** SelectVictimsOnNode's status for a node with no lower-priority pods. */
export const NO_PREEMPTION_VICTIMS = 'No preemption victims found for incoming pod';

/** Evaluator.Preempt's success message (without DefaultPreemption's "preemption: " prefix). */
function preemptionSuccessMessage(node: string, numVictims: number): string {
  return `found a potential placement for pod on node ${node}, preempting ${numVictims} victims`;
}

/** A filter pass: the first failing plugin's status, or undefined when every filter passed. */
export type RunFilters = (pod: Pod, ni: NodeInfo, ctx: CycleContext) => PreemptionStatus | undefined;

/** calculateNumCandidates: 10% of the nodes, at least 100, at most all of them. */
export function calculateNumCandidates(
  numNodes: number,
  pct = DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE,
  abs = DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE,
): number {
  let n = Math.trunc((numNodes * pct) / 100);
  if (n < abs) n = abs;
  if (n > numNodes) n = numNodes;
  return n;
}

/** GetOffsetAndNumCandidates: a random start (rand.Int31n, here the world's seeded rng) and the count. */
function getOffsetAndNumCandidates(numNodes: number, rng: Rng): [number, number] {
  return [rng.int(numNodes), calculateNumCandidates(numNodes)];
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
export function podEligibleToPreemptOthers(
  pod: Pod,
  nodeToStatus: Record<string, PreemptionStatus>,
  nodes: NodeInfo[],
): { ok: boolean; msg: string } {
  if (pod.spec?.preemptionPolicy === 'Never') return { ok: false, msg: NOT_ELIGIBLE_PREEMPTION_POLICY_NEVER };
  const nom = pod.status?.nominatedNodeName;
  if (nom) {
    // A node without an explicit status has the absent status, UnschedulableAndUnresolvable.
    const st = nodeToStatus[nom];
    if (!st || st.code === 'UnschedulableAndUnresolvable') return { ok: true, msg: '' };
    const ni = nodes.find((n) => n.name === nom);
    const prio = podPriority(pod);
    if (ni)
      for (const p of ni.pods)
        if (podPriority(p) < prio && podTerminatingByPreemption(p))
          return { ok: false, msg: NOT_ELIGIBLE_TERMINATING_POD };
  }
  return { ok: true, msg: '' };
}

/** The PreFilter extensions (AddPod / RemovePod) of the filters that have them, on a cycle's state. */
export function runPreFilterExtension(
  op: 'addPod' | 'removePod',
  plugins: FilterPlugin[],
  pod: Pod,
  other: Pod,
  ni: NodeInfo,
  ctx: CycleContext,
): void {
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
  pod: Pod,
  ni: NodeInfo,
  ctx: CycleContext,
  plugins: FilterPlugin[],
  nominated: readonly Pod[] | undefined,
  runFilters: RunFilters,
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
interface PreemptionInput {
  allNodes: NodeInfo[];
  ctx: CycleContext;
  plugins: FilterPlugin[];
  runFilters: RunFilters;
  rng: Rng;
  now: number;
  nominatedByNode?: Record<string, Pod[]>;
  /** FitError.Error() over the dry run's statuses, with absent nodes "not helpful". */
  fitErrorMessage: (numAllNodes: number, nodeToStatus: Record<string, PreemptionStatus>) => string;
  /** The victim search and choice (preemption-evaluator.ts), when the cluster has loaded it (see PreemptionEvaluator). */
  evaluator?: PreemptionEvaluator;
}

/**
 * The part of DefaultPreemption that runs only when a pod could evict another (a lower-priority pod
 * on a node the filters said may be helped): DryRunPreemption with SelectVictimsOnNode, and
 * SelectCandidate. It is a chunk of its own (preemption-evaluator.ts), registered on a world before
 * the first input that can need it: kubectl installs it with its part of the API server (a pod
 * outranks another only through a PriorityClass or a priority a reader sets), a link's replay before
 * it restores, an add-on whose pods carry a priority (CoreDNS) with the add-on.
 */
export interface PreemptionEvaluator {
  dryRunPreemption: typeof dryRunPreemption;
  selectCandidate: typeof selectCandidate;
  /** The executor's goroutine: the victims' API calls (scheduled only for a candidate the evaluator chose). */
  runPreemption: typeof runPreemption;
}

declare module '../world.ts' {
  /** The victim search's slot among a world's optional parts (World.parts.preemption). */
  interface WorldParts {
    /** DefaultPreemption's victim search (scheduler/preemption-evaluator.ts). */
    preemption?: PreemptionEvaluator;
  }
}

/** A node's status when it holds no pod of lower priority than the preemptor (SelectVictimsOnNode's first return). */
const noVictims = (): PreemptionStatus => ({
  plugin: 'DefaultPreemption',
  code: 'UnschedulableAndUnresolvable',
  reasons: [NO_PREEMPTION_VICTIMS],
});

/**
 * DefaultPreemption.PostFilter (Evaluator.Preempt without the actuation, which the scheduler does).
 * When no potential node holds a pod of lower priority than `pod` (every figure's case), the dry run
 * can only find "No preemption victims" on each of them: that answer is given here, after the same
 * rng draw, without the evaluator (preemption-evaluator.test.ts holds the two to the same outcome).
 */
export function defaultPreemptionPostFilter(
  pod: Pod,
  nodeToStatus: Record<string, PreemptionStatus>,
  input: PreemptionInput,
): PostFilterOutcome {
  const { allNodes, ctx, plugins, runFilters, rng, now, nominatedByNode } = input;
  const eligible = podEligibleToPreemptOthers(pod, nodeToStatus, allNodes);
  if (!eligible.ok) return { code: 'Unschedulable', message: 'preemption: ' + eligible.msg };
  // findCandidates: only nodes whose filters said Unschedulable (resolvable) may be helped.
  const potential = allNodes.filter((ni) => nodeToStatus[ni.name]?.code === 'Unschedulable');
  let candidates: Candidate[] = [];
  let statuses: Record<string, PreemptionStatus> = {};
  if (potential.length > 0) {
    const [offset, num] = getOffsetAndNumCandidates(potential.length, rng);
    const prio = podPriority(pod);
    if (potential.some((ni) => ni.pods.some((p) => podPriority(p) < prio))) {
      ({ candidates, statuses } = evaluatorOf(input).dryRunPreemption(
        pod,
        potential,
        ctx,
        plugins,
        nominatedByNode,
        runFilters,
        offset,
        num,
        now,
      ));
    } else for (const ni of potential) statuses[ni.name] = noVictims();
  }
  if (candidates.length === 0) {
    const notHelpful: PreemptionStatus = {
      plugin: 'DefaultPreemption',
      code: 'UnschedulableAndUnresolvable',
      reasons: [PREEMPTION_NOT_HELPFUL],
    };
    const full: Record<string, PreemptionStatus> = {};
    for (const ni of allNodes) full[ni.name] = statuses[ni.name] ?? notHelpful;
    return {
      code: 'Unschedulable',
      message: 'preemption: ' + input.fitErrorMessage(allNodes.length, full),
      nominatedNodeName: '',
    };
  }
  const best = evaluatorOf(input).selectCandidate(candidates, now)!;
  return {
    code: 'Success',
    message: 'preemption: ' + preemptionSuccessMessage(best.name, best.victims.pods.length),
    candidate: best,
    nominatedNodeName: best.name,
  };
}

/** The evaluator a victim search needs; without it the world was not given the part before the input that needed it, a bug of whoever built the cluster. */
function evaluatorOf(input: PreemptionInput): PreemptionEvaluator {
  if (!input.evaluator)
    throw new Error(
      'this pod outranks another: preemption needs its evaluator (scheduler/preemption-evaluator.ts), registered on the world before the first input that can need it',
    );
  return input.evaluator;
}
