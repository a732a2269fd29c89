// A node as the node-lifecycle controller sees it, as an XState 5 machine. Decisions come from the pure
// functions (tryUpdateNodeHealth, doNoScheduleTaintingPass, the taint queue, the taint eviction
// controller, handleDisruption) and arrive as events; the machine names the stages for the widgets.
// No delays, no actors: use it with initialTransition / transition.
import { assign } from 'xstate';
import { setup } from '../util/machine-setup.ts';

/** Plain-data context. */
export interface NodeMachineContext {
  /** Ready condition as written in the API */
  ready: 'True' | 'False' | 'Unknown';
  noScheduleTaint: string | null;
  noExecuteTaint: string | null;
  evictedPods: number;
}

/** Events from the controller's passes and the core's clock. */
export type NodeMachineEvent =
  | { type: 'HEARTBEAT' }
  | { type: 'HEARTBEAT_MISSED' }
  | { type: 'GRACE_EXCEEDED' }
  | { type: 'KUBELET_NOT_READY' }
  | { type: 'NOSCHEDULE_TAINTED' }
  | { type: 'NOEXECUTE_TAINTED' }
  | { type: 'TOLERATION_EXPIRED'; pods: number }
  | { type: 'TAINTS_REMOVED' }
  | { type: 'ALL_ZONES_DOWN' }
  | { type: 'SOME_NODES_READY' };

/** healthy → graceRunning → unknown/notReady → tainted → evicting → recovered → healthy; disrupted when every zone is down. */
export const nodeMachine = setup({
  types: {
    context: {} as NodeMachineContext,
    events: {} as NodeMachineEvent,
  },
  guards: {
    tainted: ({ context }) => context.noScheduleTaint !== null || context.noExecuteTaint !== null,
  },
  actions: {
    setReady: assign((_, params: { ready: 'True' | 'False' | 'Unknown' }) => ({ ready: params.ready })),
    taintNoSchedule: assign(({ context }) => ({
      noScheduleTaint:
        context.ready === 'False'
          ? 'node.kubernetes.io/not-ready:NoSchedule'
          : 'node.kubernetes.io/unreachable:NoSchedule',
    })),
    taintNoExecute: assign(({ context }) => ({
      noExecuteTaint:
        context.ready === 'False'
          ? 'node.kubernetes.io/not-ready:NoExecute'
          : 'node.kubernetes.io/unreachable:NoExecute',
    })),
    countEvictions: assign(({ context, event }) => ({
      evictedPods: context.evictedPods + (event.type === 'TOLERATION_EXPIRED' ? event.pods : 0),
    })),
    // markNodeAsReachable removes NoExecute; doNoScheduleTaintingPass removes NoSchedule once Ready=True.
    clearTaints: assign({ noScheduleTaint: null, noExecuteTaint: null }),
    clearNoExecute: assign({ noExecuteTaint: null }),
  },
}).createMachine({
  id: 'node',
  context: { ready: 'True', noScheduleTaint: null, noExecuteTaint: null, evictedPods: 0 },
  initial: 'healthy',
  states: {
    healthy: {
      on: {
        HEARTBEAT_MISSED: 'graceRunning',
        KUBELET_NOT_READY: { target: 'notReady', actions: [{ type: 'setReady', params: { ready: 'False' } }] },
        ALL_ZONES_DOWN: 'disrupted',
      },
    },
    // The Lease is not being renewed; probeTimestamp + 50 s has not passed yet.
    graceRunning: {
      on: {
        // Ready=True in the node's status again. Coming out of disruption mode the node may still
        // carry its taints (and the context its Unknown): it recovers, then sheds them.
        HEARTBEAT: [
          { guard: 'tainted', target: 'recovered', actions: [{ type: 'setReady', params: { ready: 'True' } }] },
          { target: 'healthy', actions: [{ type: 'setReady', params: { ready: 'True' } }] },
        ],
        HEARTBEAT_MISSED: {},
        GRACE_EXCEEDED: { target: 'unknown', actions: [{ type: 'setReady', params: { ready: 'Unknown' } }] },
        ALL_ZONES_DOWN: 'disrupted',
      },
    },
    // Ready=Unknown ("Kubelet stopped posting node status."), pods marked NotReady.
    unknown: {
      on: {
        NOSCHEDULE_TAINTED: { actions: 'taintNoSchedule' },
        NOEXECUTE_TAINTED: { target: 'tainted', actions: 'taintNoExecute' },
        HEARTBEAT: { target: 'recovered', actions: [{ type: 'setReady', params: { ready: 'True' } }] },
        ALL_ZONES_DOWN: 'disrupted',
      },
    },
    // Ready=False reported by the kubelet itself.
    notReady: {
      on: {
        NOSCHEDULE_TAINTED: { actions: 'taintNoSchedule' },
        NOEXECUTE_TAINTED: { target: 'tainted', actions: 'taintNoExecute' },
        HEARTBEAT: { target: 'recovered', actions: [{ type: 'setReady', params: { ready: 'True' } }] },
        ALL_ZONES_DOWN: 'disrupted',
      },
    },
    // NoExecute taint on: the taint eviction controller counts down the pods' tolerationSeconds.
    tainted: {
      on: {
        NOSCHEDULE_TAINTED: { actions: 'taintNoSchedule' },
        TOLERATION_EXPIRED: { target: 'evicting', actions: 'countEvictions' },
        HEARTBEAT: { target: 'recovered', actions: [{ type: 'setReady', params: { ready: 'True' } }] },
        ALL_ZONES_DOWN: { target: 'disrupted', actions: 'clearNoExecute' },
      },
    },
    // Pods deleted (Terminating until the kubelet confirms, which it cannot while down).
    evicting: {
      on: {
        TOLERATION_EXPIRED: { actions: 'countEvictions' },
        HEARTBEAT: { target: 'recovered', actions: [{ type: 'setReady', params: { ready: 'True' } }] },
        ALL_ZONES_DOWN: { target: 'disrupted', actions: 'clearNoExecute' },
      },
    },
    // Ready again; the controller removes its taints on the next pass.
    recovered: {
      on: {
        TAINTS_REMOVED: { target: 'healthy', actions: 'clearTaints' },
        HEARTBEAT: {},
      },
    },
    // Master disruption mode: no NoExecute taints, no evictions anywhere.
    disrupted: {
      on: {
        // Leaving it gives every node a fresh grace period from now.
        SOME_NODES_READY: 'graceRunning',
        HEARTBEAT: { target: 'recovered', actions: [{ type: 'setReady', params: { ready: 'True' } }] },
      },
    },
  },
});
