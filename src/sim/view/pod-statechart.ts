// The pod on its kubelet as a statechart (issue item 6 for the hub and scheduler figures): the
// kubelet's own pod machine (kubelet/pod-machine.ts), lit at the state the node's kubelet holds the
// pod in, with the reason read from that machine's context and the API server's view of the pod.
import { kubeletStateOf, podLifecycleOf } from '../kubelet/kubelet.ts';
import { podMachine } from '../kubelet/pod-machine.ts';
import type { WorldState } from '../world.ts';
import { statechartOf, stateIdOf, type StatechartView } from './statechart.ts';
import type { PodView } from './types.ts';

/**
 * Why the kubelet holds the pod where it does, in one sentence: kubectl's STATUS, readiness and
 * restarts, and the container's last exit when there was one.
 */
function podReasonOf(
  pod: PodView,
  ctx: { reason: string; ready: boolean; restartCount: number; lastExitCode: number | null; lastReason: string | null },
): string {
  const exit =
    ctx.lastExitCode !== null ? `; last exit ${ctx.lastExitCode}${ctx.lastReason ? ` (${ctx.lastReason})` : ''}` : '';
  const counts = `Ready=${ctx.ready ? 'True' : 'False'}, ${ctx.restartCount} ${ctx.restartCount === 1 ? 'restart' : 'restarts'}${exit}`;
  // The kubelet knows first; the API server (and kubectl) learn it from its next status write.
  if (ctx.reason && ctx.reason !== pod.status)
    return `The kubelet on ${pod.node} has it ${ctx.reason} (${counts}); kubectl still shows ${pod.status} until the kubelet reports it.`;
  return `kubectl shows ${pod.status} on ${pod.node}: ${counts}.`;
}

/** The kubelet's statechart for one bound pod, lit at its state there (null when the kubelet holds no worker for it: stopped, or not told yet). */
export function podStatechartOf(state: WorldState, pod: PodView): StatechartView {
  const chart = statechartOf(podMachine);
  const subject = `${pod.name} on ${pod.node ?? 'no node'}`;
  const kubelet = pod.node ? kubeletStateOf(state, pod.node) : undefined;
  const life = kubelet?.up ? podLifecycleOf(kubelet, `${pod.namespace}/${pod.name}`) : undefined;
  if (!life) {
    const why = !pod.node
      ? 'No node yet: no kubelet holds this pod.'
      : !kubelet?.up
        ? `The kubelet on ${pod.node} is not running: nobody runs this pod's statechart.`
        : `The kubelet on ${pod.node} has not taken the pod up yet.`;
    return { chart, current: null, reason: why, subject };
  }
  return { chart, current: stateIdOf(life.value), reason: podReasonOf(pod, life.context), subject };
}
