// DefaultPreemption's victim search and choice (framework/preemption: DryRunPreemption,
// SelectVictimsOnNode, SelectCandidate / pickOneNodeForPreemption) and its executor's goroutine
// (prepareCandidateAsync's API calls): the part that runs only when a pod outranks a pod on a node
// it could be helped on. A chunk of its own, not the figures' core: a
// world gets it as `parts.preemption` (PREEMPTION_EVALUATOR) before the first input that can need it
// (preemption.ts' PreemptionEvaluator says who registers it); the core answers every other case.
import { type CycleContext, type FilterPlugin, podPriority } from './framework.ts';
import type { Pod } from './k8s-types.ts';
import { rfc3339 } from '../util/names.ts';
import { parseTime } from '../util/time.ts';
import { type NodeInfo, addPod, cloneNodeInfo, removePod } from './node-info.ts';
import type { Ctx } from '../world.ts';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { type LabelRequirement, labelSelectorRequirements, matchesLabels } from '../api/labels.ts';
import type { InvolvedObject } from '../client-go/record.ts';
import { type PreemptEvent, type SchedulerState, recordSchedulerEvent } from './scheduler.ts';
import {
  type Candidate,
  type PreemptionEvaluator,
  type PreemptionStatus,
  type RunFilters,
  type Victims,
  NO_PREEMPTION_VICTIMS,
  cloneCycleContext,
  runFilterPluginsWithNominatedPods,
  runPreFilterExtension,
} from './preemption.ts';

/** The DisruptionTarget condition's message on a victim (executor.go PreemptPod). */
export function preemptionConditionMessage(schedulerName: string): string {
  return `${schedulerName}: preempting to accommodate a higher priority pod`;
}

/** The Normal/Preempted event on a victim (executor.go PreemptPod; preemptor.Type() is "pod"). */
export function preemptedEventMessage(preemptorUid: string, node: string): string {
  return `Preempted by pod ${preemptorUid} on node ${node}`;
}

/** getLowerPriorityNominatedPods: pods nominated to `node` with a lower priority than `priority`. */
function getLowerPriorityNominatedPods(nominated: readonly Pod[] | undefined, priority: number): Pod[] {
  return (nominated ?? []).filter((p) => podPriority(p) < priority);
}

/** util.GetPodStartTime in simulated ms: status.startTime, or now for a pod not started yet. */
function podStartTime(pod: Pod, now: number): number {
  const t = pod.status?.startTime;
  return t ? parseTime(t)! : now;
}

/** MoreImportantVictim for single-pod victims: higher priority, then the earlier start. */
function moreImportantVictim(a: Pod, b: Pod, now: number): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a, now) < podStartTime(b, now);
}

/**
 * SelectVictimsOnNode: remove every lower-priority pod, check the pod fits, then add them back from
 * the most important down (reprieve) and keep as victims only those whose return breaks the fit.
 * `ni` and `ctx` are the caller's copies (DryRunPreemption hands in nodeInfo.Snapshot(), state.Clone()).
 */
function selectVictimsOnNode(
  pod: Pod,
  ni: NodeInfo,
  ctx: CycleContext,
  plugins: FilterPlugin[],
  nominated: readonly Pod[] | undefined,
  runFilters: RunFilters,
  now: number,
): { victims: Pod[]; numPDBViolations: number; status?: PreemptionStatus } {
  const prio = podPriority(pod);
  const potential = ni.pods.filter((p) => podPriority(p) < prio);
  if (potential.length === 0) {
    return {
      victims: [],
      numPDBViolations: 0,
      status: { plugin: 'DefaultPreemption', code: 'UnschedulableAndUnresolvable', reasons: [NO_PREEMPTION_VICTIMS] },
    };
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
  // Reprieve the victims whose eviction would break a PodDisruptionBudget first, then the others,
  // each group from the most important down.
  const { violating, nonViolating } = filterVictimsWithPDBViolation(sorted, ctx.listers.pdbs ?? []);
  const victims: Pod[] = [];
  const reprieve = (v: Pod): boolean => {
    addPod(ni, v);
    runPreFilterExtension('addPod', plugins, pod, v, ni, ctx);
    if (!runFilterPluginsWithNominatedPods(pod, ni, ctx, plugins, nominated, runFilters)) return true;
    removePod(ni, v);
    runPreFilterExtension('removePod', plugins, pod, v, ni, ctx);
    victims.push(v);
    return false;
  };
  let numPDBViolations = 0;
  for (const v of violating) if (!reprieve(v)) numPDBViolations++;
  for (const v of nonViolating) reprieve(v);
  // The victims back in order of importance when both groups gave some (sort.Slice, as above).
  if (violating.length && nonViolating.length) {
    const order = new Map(sorted.map((p, i) => [p, i]));
    victims.sort((a, b) =>
      moreImportantVictim(a, b, now) ? -1 : moreImportantVictim(b, a, now) ? 1 : order.get(a)! - order.get(b)!,
    );
  }
  return { victims, numPDBViolations };
}

/**
 * FilterVictimsWithPDBViolation (framework/preemption/util.go): a victim violates when evicting it
 * takes a matching budget's DisruptionsAllowed below zero, counting the victims before it (a pod
 * the budget already lists in DisruptedPods is being evicted and does not count). Budgets with an
 * empty or invalid selector match nothing; a pod without labels matches none.
 */
export function filterVictimsWithPDBViolation(
  victims: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
): { violating: Pod[]; nonViolating: Pod[] } {
  const allowed = pdbs.map((pdb) => pdb.status?.disruptionsAllowed ?? 0);
  const selectors = pdbs.map((pdb) => selectorOf(pdb.spec?.selector));
  const isViolating = (pod: Pod): boolean => {
    const labels = pod.metadata?.labels;
    if (!labels || Object.keys(labels).length === 0) return false;
    for (const [i, pdb] of pdbs.entries()) {
      if (pdb.metadata?.namespace !== pod.metadata?.namespace) continue;
      const sel = selectors[i];
      if (!sel || !matchesLabels(sel, labels)) continue;
      if (pdb.status?.disruptedPods && Object.hasOwn(pdb.status.disruptedPods, pod.metadata?.name ?? '')) continue;
      if (--allowed[i] < 0) return true;
    }
    return false;
  };
  const violating: Pod[] = [];
  const nonViolating: Pod[] = [];
  for (const v of victims) (isViolating(v) ? violating : nonViolating).push(v);
  return { violating, nonViolating };
}

/** metav1.LabelSelectorAsSelector for matching, or undefined when it selects nothing (nil, empty or invalid). */
function selectorOf(sel: LabelSelector | undefined): LabelRequirement[] | undefined {
  if (!sel) return undefined;
  const reqs = labelSelectorRequirements(sel);
  return reqs.length ? reqs : undefined;
}

/**
 * DryRunPreemption: SelectVictimsOnNode on the potential nodes from `offset` round, stopping once
 * enough candidates are found (Go checks nodes in parallel and cancels then; one at a time, that is
 * "stop at the candidate that makes enough"). Returns the candidates, those that break no
 * PodDisruptionBudget first, and the failed nodes' statuses.
 */
export function dryRunPreemption(
  pod: Pod,
  potentialNodes: NodeInfo[],
  ctx: CycleContext,
  plugins: FilterPlugin[],
  nominatedByNode: Record<string, Pod[]> | undefined,
  runFilters: RunFilters,
  offset: number,
  numCandidates: number,
  now: number,
): { candidates: Candidate[]; statuses: Record<string, PreemptionStatus> } {
  // newCandidateList(numCandidates) twice: candidates that break no budget, and those that do; a
  // full list disregards further candidates. The search stops (Go cancels its goroutines) once one
  // candidate breaks no budget and the two lists hold numCandidates between them.
  const nonViolating: Candidate[] = [];
  const violating: Candidate[] = [];
  const statuses: Record<string, PreemptionStatus> = {};
  const n = potentialNodes.length;
  for (let i = 0; i < n; i++) {
    const ni = potentialNodes[(offset + i) % n];
    const r = selectVictimsOnNode(
      pod,
      cloneNodeInfo(ni),
      cloneCycleContext(ctx),
      plugins,
      nominatedByNode?.[ni.name],
      runFilters,
      now,
    );
    if (!r.status && r.victims.length > 0) {
      const list = r.numPDBViolations === 0 ? nonViolating : violating;
      if (list.length < numCandidates)
        list.push({ name: ni.name, victims: { pods: r.victims, numPDBViolations: r.numPDBViolations } });
      if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
      continue;
    }
    statuses[ni.name] = r.status ?? {
      plugin: 'DefaultPreemption',
      code: 'Unschedulable',
      reasons: [`expected at least one victim pod on node "${ni.name}"`],
    };
  }
  return { candidates: [...nonViolating, ...violating], statuses };
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

// The goroutine: clear lower-priority nominations on the node, then PreemptPod each victim (the last
// one after the others, as Go does). The simulator has no waiting (Permit) or PreBind pods, so every
// victim is preempted through the API server, never "in kube-scheduler memory".
export function runPreemption(ctx: Ctx<SchedulerState>, ev: PreemptEvent): void {
  const s = ctx.state;
  // Eventf(victim, pod, …): the preemptor is the Preempted event's related object.
  const [preemptorNs, preemptorName] = ev.preemptor.key.split('/');
  const preemptorRef: InvolvedObject = s.pods.items[ev.preemptor.key] ?? {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: preemptorNs, name: preemptorName, uid: ev.preemptor.uid },
  };
  const nominated = Object.keys(s.nominator ?? {})
    .filter((k) => s.nominator![k] === ev.node)
    .map((k) => s.pods.items[k])
    .filter((p): p is Pod => !!p);
  for (const p of getLowerPriorityNominatedPods(nominated, ev.preemptor.priority)) {
    if (!p.status?.nominatedNodeName) continue;
    ctx.api.patch(
      'pods',
      p.metadata?.namespace,
      p.metadata?.name ?? '',
      { status: { nominatedNodeName: null } },
      'status',
    );
  }
  for (const vk of ev.victims) {
    const victim = s.pods.items[vk];
    if (!victim) continue;
    const ns = victim.metadata?.namespace;
    const name = victim.metadata?.name ?? '';
    const cur = (victim.status?.conditions ?? []).find((c) => c.type === 'DisruptionTarget');
    const message = preemptionConditionMessage(ev.preemptor.schedulerName);
    // UpdatePodCondition: only a changed condition is written.
    if (!cur || cur.status !== 'True' || cur.reason !== 'PreemptionByScheduler' || cur.message !== message) {
      const gen = victim.metadata?.generation;
      const condition = {
        type: 'DisruptionTarget',
        ...(gen !== undefined ? { observedGeneration: gen } : {}),
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime:
          cur && cur.status === 'True' && cur.lastTransitionTime ? cur.lastTransitionTime : rfc3339(ctx.now),
        reason: 'PreemptionByScheduler',
        message,
      };
      const res = ctx.api.patch('pods', ns, name, { status: { conditions: [condition] } }, 'status');
      if (!res.ok) continue;
    }
    const del = ctx.api.delete('pods', ns, name);
    if (!del.ok) continue;
    recordSchedulerEvent(
      ctx,
      victim,
      preemptorRef,
      'Normal',
      'Preempted',
      'Preempting',
      preemptedEventMessage(ev.preemptor.uid, ev.node),
    );
  }
}

/** The evaluator as a world registers it (World.parts.preemption). */
export const PREEMPTION_EVALUATOR: PreemptionEvaluator = { dryRunPreemption, selectCandidate, runPreemption };
