// The sentence about the pods on an unreachable node, shared by the figures that stop a node. A
// module of its own: the cluster figure's chunk takes it without node-detail's readers.
import type { Frame } from '../view/types.ts';
import { agree, listOf } from '../view/words.ts';

/**
 * What the frame shows of the pods on an unreachable node: the node-lifecycle controller sets each
 * one's Ready condition to False (MarkPodsNotReady), which kubectl's READY column does not show.
 */
export function podsMarked(f: Frame, node: string): string {
  const on = f.pods.filter((p) => p.node === node && !p.terminating);
  const notReady = on.filter((p) => !p.ready).map((p) => p.name);
  const stillReady = on.filter((p) => p.ready).map((p) => p.name);
  if (!on.length) return `No pod is bound to ${node}.`;
  const n = on.length;
  if (!stillReady.length)
    return `${agree(n, 'The pod', 'The pods')} on ${node} (${listOf(notReady)}) ${agree(n, 'is', 'are')} marked not ready (${agree(n, 'its', 'their')} Ready condition is False), but ${agree(n, 'stays', 'stay')} bound to it.`;
  return `${listOf(stillReady)} on ${node} ${agree(stillReady.length, 'is', 'are')} still marked ready; the controller marks the pods of a node that is not Ready as not ready on its next pass${notReady.length ? ` (${listOf(notReady)} already)` : ''}.`;
}
