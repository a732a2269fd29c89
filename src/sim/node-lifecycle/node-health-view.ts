// What a figure reads of the node lifecycle controller about one node (its statechart stage, the last
// probe, when the grace period runs out): apart from the controller so that it travels with the
// figures that draw it, not in the worker's core, which never reads it.
import type { WorldState } from '../world.ts';
import { defaultNodeMonitorConfig } from './node-health.ts';
import { NODE_LIFECYCLE_CONTROLLER, type NodeLifecycleControllerState } from './node-lifecycle-controller.ts';

/** What a figure needs about one node: the statechart stage, the last probe and when its grace period runs out. */
export interface NodeHealthView {
  machine: string;
  ready: 'True' | 'False' | 'Unknown';
  noScheduleTaint: string | null;
  noExecuteTaint: string | null;
  evictedPods: number;
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  gracePeriodMs: number;
  /** probeTimestamp + grace period: past it, the next pass marks the node Unknown. */
  graceEndsAt: number;
  disruptionMode: boolean;
}

/** Pure reader for figures: the controller's view of a node, from its state or from a whole world state. */
export function nodeHealthOf(
  state: NodeLifecycleControllerState | WorldState,
  node: string,
): NodeHealthView | undefined {
  let s = state as NodeLifecycleControllerState | undefined;
  if ('components' in state) {
    const entry = Object.values(state.components).find((c) => c.type === NODE_LIFECYCLE_CONTROLLER);
    s = entry?.state as NodeLifecycleControllerState | undefined;
  }
  const h = s?.health?.nodeHealthMap[node];
  const m = s?.machines[node];
  if (!s || !h || !m) return undefined;
  const grace = s.graceMs[node] ?? defaultNodeMonitorConfig.nodeMonitorGracePeriodMs;
  return {
    machine: m.value,
    ready: m.context.ready,
    noScheduleTaint: m.context.noScheduleTaint,
    noExecuteTaint: m.context.noExecuteTaint,
    evictedPods: m.context.evictedPods,
    probeTimestamp: h.probeTimestamp,
    readyTransitionTimestamp: h.readyTransitionTimestamp,
    gracePeriodMs: grace,
    graceEndsAt: h.probeTimestamp + grace,
    disruptionMode: s.disruptionMode,
  };
}
