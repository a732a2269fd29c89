// What the disruption controller and the eviction API both read of a PodDisruptionBudget:
// policy/v1's condition names, apimeta.SetStatusCondition and k8s.io/component-helpers'
// apps/poddisruptionbudget helpers. Here, not in either, so the server names no controller's module.
import type { Condition, LabelSelector } from 'kubernetes-types/meta/v1';
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import { labelSelectorMatches } from './labels.ts';

/** policyv1.DisruptionAllowedCondition. */
export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
/** Its reasons when the controller could compute it. */
const SUFFICIENT_PODS = 'SufficientPods';
const INSUFFICIENT_PODS = 'InsufficientPods';

/** A selector as LabelSelectorAsSelector reads it: nil selects nothing, `{}` everything. */
export function selects(sel: LabelSelector | undefined | null, labels: Record<string, string> | undefined): boolean {
  return sel !== undefined && sel !== null && labelSelectorMatches(sel, labels);
}

/** apimeta.SetStatusCondition: the condition replaced by type; its lastTransitionTime moves only when its status does. */
export function setStatusCondition(
  conditions: Condition[],
  c: Omit<Condition, 'lastTransitionTime'>,
  now: string,
): Condition[] {
  const old = conditions.find((x) => x.type === c.type);
  const next: Condition = {
    type: c.type,
    status: c.status,
    observedGeneration: c.observedGeneration,
    lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : now,
    reason: c.reason,
    message: c.message,
  };
  if (next.observedGeneration === undefined || next.observedGeneration === 0) delete next.observedGeneration;
  return old ? conditions.map((x) => (x === old ? next : x)) : [...conditions, next];
}

/** pdbhelper.UpdateDisruptionAllowedCondition: True/SufficientPods when disruptions are allowed, else False/InsufficientPods. */
export function updateDisruptionAllowedCondition(
  status: PodDisruptionBudgetStatus,
  now: string,
): PodDisruptionBudgetStatus {
  const ok = status.disruptionsAllowed > 0;
  const conditions = setStatusCondition(
    status.conditions ?? [],
    {
      type: DISRUPTION_ALLOWED,
      status: ok ? 'True' : 'False',
      reason: ok ? SUFFICIENT_PODS : INSUFFICIENT_PODS,
      message: '',
      observedGeneration: status.observedGeneration,
    },
    now,
  );
  return { ...status, conditions };
}

/** pdbhelper.ConditionsAreUpToDate. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const st = pdb.status;
  const cond = st?.conditions?.find((c) => c.type === DISRUPTION_ALLOWED);
  if (!cond || (st?.observedGeneration ?? 0) !== (pdb.metadata?.generation ?? 0)) return false;
  return (st?.disruptionsAllowed ?? 0) > 0
    ? cond.status === 'True' && cond.reason === SUFFICIENT_PODS
    : cond.status === 'False' && cond.reason === INSUFFICIENT_PODS;
}
