import type { Taint, Toleration } from './k8s-types.ts';
import type { FilterPlugin, ScorePlugin } from './framework.ts';
import { MAX_NODE_SCORE, SUCCESS, defaultNormalizeScore, newStatus } from './framework.ts';

/**
 * The reason since kubernetes#134740 (v1.35, cherry-picked to 1.34 patches): the taint is no
 * longer named in pod status / events.
 */
const ERR_REASON_UNTOLERATED = 'node(s) had untolerated taint(s)';

/** The reason v1.26–v1.34 printed: "node(s) had untolerated taint {key: value}". */
export function untoleratedTaintReasonWithKey(taint: Pick<Taint, 'key' | 'value'>): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

/** Toleration.ToleratesTaint: empty effect matches all effects, empty key with Exists matches all keys. */
export function toleratesTaint(t: Toleration, taint: Pick<Taint, 'key' | 'value' | 'effect'>): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** TolerationsTolerateTaint: any toleration tolerates the taint. */
export function tolerationsTolerateTaint(
  tolerations: Toleration[] | undefined,
  taint: Pick<Taint, 'key' | 'value' | 'effect'>,
): boolean {
  for (const t of tolerations ?? []) if (toleratesTaint(t, taint)) return true;
  return false;
}

/** DoNotScheduleTaintsFilterFunc: only NoSchedule and NoExecute taints keep pods off a node. */
export function doNotScheduleTaintsFilter(t: Taint): boolean {
  return t.effect === 'NoSchedule' || t.effect === 'NoExecute';
}

/** FindMatchingUntoleratedTaint: the first taint (in node order) passing `inclusionFilter` that no toleration tolerates. */
export function findMatchingUntoleratedTaint(
  taints: Taint[] | undefined,
  tolerations: Toleration[] | undefined,
  inclusionFilter: (t: Taint) => boolean,
): Taint | undefined {
  for (const taint of taints ?? []) {
    if (!inclusionFilter(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}

/** TaintToleration Filter; `ctx.taintReasonWithKey` switches to the pre-1.35 message. */
export const taintTolerationFilter: FilterPlugin = {
  name: 'TaintToleration',
  filter(pod, nodeInfo, ctx) {
    const taint = findMatchingUntoleratedTaint(
      nodeInfo.node.spec?.taints,
      pod.spec?.tolerations,
      doNotScheduleTaintsFilter,
    );
    if (!taint) return SUCCESS;
    const reason = ctx.taintReasonWithKey ? untoleratedTaintReasonWithKey(taint) : ERR_REASON_UNTOLERATED;
    return newStatus('UnschedulableAndUnresolvable', reason);
  },
};

/** countIntolerableTaintsPreferNoSchedule, with the pod's ''/PreferNoSchedule tolerations only. */
function countIntolerableTaintsPreferNoSchedule(
  taints: Taint[] | undefined,
  tolerations: Toleration[] | undefined,
): number {
  if (!taints || taints.length === 0) return 0;
  const prefer = (tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
  let n = 0;
  for (const taint of taints ?? []) {
    if (taint.effect !== 'PreferNoSchedule') continue;
    if (!tolerationsTolerateTaint(prefer, taint)) n++;
  }
  return n;
}

/** TaintToleration Score (weight 3): fewer intolerable PreferNoSchedule taints is better (reverse-normalized). */
export const taintTolerationScore: ScorePlugin = {
  name: 'TaintToleration',
  weight: 3,
  score(pod, nodeInfo) {
    return countIntolerableTaintsPreferNoSchedule(nodeInfo.node.spec?.taints, pod.spec?.tolerations);
  },
  normalize(scores) {
    defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
  },
};
