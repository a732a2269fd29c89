// The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds/admission.go):
// every pod gets 300 s of tolerance for a not-ready or unreachable node unless it already says otherwise.
import type { Pod, Toleration } from 'kubernetes-types/core/v1';
import { TaintNodeNotReady, TaintNodeUnreachable } from '../node-lifecycle/taints.ts';

/** --default-not-ready-toleration-seconds */
const defaultNotReadyTolerationSeconds = 300;
/** --default-unreachable-toleration-seconds */
const defaultUnreachableTolerationSeconds = 300;

/** The plugin's own loose check: same key or empty key, effect NoExecute or empty (operator and value are not looked at). */
function tolerates(tolerations: Toleration[], key: string): boolean {
  return tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
}

/** Admit (mutate) on pod CREATE/UPDATE: returns the pod with the two tolerations added where missing. */
export function mutate(pod: Pod, options: { notReadySeconds?: number; unreachableSeconds?: number } = {}): Pod {
  const tolerations = [...(pod.spec?.tolerations ?? [])];
  const add: Toleration[] = [];
  if (!tolerates(tolerations, TaintNodeNotReady)) {
    add.push({
      key: TaintNodeNotReady,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: options.notReadySeconds ?? defaultNotReadyTolerationSeconds,
    });
  }
  if (!tolerates(tolerations, TaintNodeUnreachable)) {
    add.push({
      key: TaintNodeUnreachable,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: options.unreachableSeconds ?? defaultUnreachableTolerationSeconds,
    });
  }
  if (add.length === 0) return pod;
  return { ...pod, spec: { ...pod.spec!, tolerations: [...tolerations, ...add] } };
}
