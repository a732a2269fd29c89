// A pod's lifecycle on its kubelet as an XState 5 machine. It only coordinates: every decision
// (backoff, probe thresholds, phase) is made by the pure functions beside it and arrives as an event.
// No delayed transitions and no invoked actors: the core's clock sends every timer as an event, so the
// machine runs with xstate's pure initialTransition / transition and its context is plain data.
import { assign } from 'xstate';
import { setup } from '../util/machine-setup.ts';

/** Input when the pod is bound to the node. */
interface PodMachineInput {
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  hasReadinessProbe?: boolean;
  imagePresent?: boolean;
}

/** Plain-data context. */
export interface PodMachineContext {
  restartPolicy: 'Always' | 'OnFailure' | 'Never';
  hasReadinessProbe: boolean;
  imagePresent: boolean;
  restartCount: number;
  lastExitCode: number | null;
  lastReason: string | null;
  /** waiting/terminated reason kubectl would show for the container */
  reason: string;
  ready: boolean;
}

/** Events the kubelet's sync loop, PLEG, prober and the core's timers send. */
export type PodMachineEvent =
  | { type: 'SANDBOX_READY' }
  | { type: 'IMAGE_PULLED' }
  | { type: 'PULL_FAILED'; message?: string }
  | { type: 'PULL_BACKOFF' }
  | { type: 'BACKOFF_EXPIRED' }
  | { type: 'STARTED' }
  | { type: 'PROBE_OK'; probe: 'readiness' }
  | { type: 'PROBE_FAILED'; probe: 'readiness' | 'liveness' }
  | { type: 'EXITED'; code: number; oom?: boolean; inBackOff?: boolean }
  | { type: 'DELETE_REQUESTED' }
  | { type: 'CONTAINERS_STOPPED' }
  | { type: 'GRACE_EXPIRED' };

/** The machine. States: pending → pulling ⇄ errImagePull/imagePullBackOff → creating → running.{notReady,ready,killing} ⇄ crashLoopBackOff; terminating → terminated. */
export const podMachine = setup({
  types: {
    context: {} as PodMachineContext,
    events: {} as PodMachineEvent,
    input: {} as PodMachineInput,
  },
  guards: {
    imagePresent: ({ context }) => context.imagePresent,
    noReadinessProbe: ({ context }) => !context.hasReadinessProbe,
    isLivenessFailure: ({ event }) => event.type === 'PROBE_FAILED' && event.probe === 'liveness',
    isReadinessFailure: ({ event }) => event.type === 'PROBE_FAILED' && event.probe === 'readiness',
    // restartPolicy decides whether an exit is final (kubelet's ShouldContainerBeRestarted).
    exitIsFinal: ({ context, event }) =>
      event.type === 'EXITED' &&
      (context.restartPolicy === 'Never' || (context.restartPolicy === 'OnFailure' && event.code === 0 && !event.oom)),
    // doBackOff said wait: the restart is delayed.
    inBackOff: ({ event }) => event.type === 'EXITED' && !!event.inBackOff,
  },
  actions: {
    markImagePresent: assign({ imagePresent: true }),
    setReason: assign((_, params: { reason: string }) => ({ reason: params.reason })),
    setReady: assign((_, params: { ready: boolean }) => ({ ready: params.ready })),
    recordExit: assign(({ event }) => {
      if (event.type !== 'EXITED') return {};
      const oom = !!event.oom;
      const code = oom ? 137 : event.code;
      return { lastExitCode: code, lastReason: oom ? 'OOMKilled' : code === 0 ? 'Completed' : 'Error', ready: false };
    }),
    countRestart: assign(({ context }) => ({ restartCount: context.restartCount + 1 })),
    showLastReason: assign(({ context }) => ({ reason: context.lastReason ?? 'Error' })),
  },
}).createMachine({
  id: 'pod',
  context: ({ input }) => ({
    restartPolicy: input?.restartPolicy ?? 'Always',
    hasReadinessProbe: !!input?.hasReadinessProbe,
    imagePresent: !!input?.imagePresent,
    restartCount: 0,
    lastExitCode: null,
    lastReason: null,
    reason: 'ContainerCreating',
    ready: false,
  }),
  initial: 'pending',
  on: {
    DELETE_REQUESTED: { target: '.terminating', actions: [{ type: 'setReady', params: { ready: false } }] },
  },
  states: {
    pending: {
      on: {
        SANDBOX_READY: [{ guard: 'imagePresent', target: 'creating' }, { target: 'pulling' }],
      },
    },
    pulling: {
      entry: [{ type: 'setReason', params: { reason: 'ContainerCreating' } }],
      on: {
        IMAGE_PULLED: { target: 'creating', actions: 'markImagePresent' },
        PULL_FAILED: 'errImagePull',
      },
    },
    errImagePull: {
      entry: [{ type: 'setReason', params: { reason: 'ErrImagePull' } }],
      on: { PULL_BACKOFF: 'imagePullBackOff', BACKOFF_EXPIRED: 'pulling' },
    },
    imagePullBackOff: {
      entry: [{ type: 'setReason', params: { reason: 'ImagePullBackOff' } }],
      on: { BACKOFF_EXPIRED: 'pulling' },
    },
    creating: {
      entry: [{ type: 'setReason', params: { reason: 'ContainerCreating' } }],
      on: {
        STARTED: [{ guard: 'noReadinessProbe', target: 'running.ready' }, { target: 'running.notReady' }],
      },
    },
    running: {
      initial: 'notReady',
      entry: [{ type: 'setReason', params: { reason: 'Running' } }],
      on: {
        EXITED: [
          { guard: 'exitIsFinal', target: 'terminated', actions: ['recordExit', 'showLastReason'] },
          { guard: 'inBackOff', target: 'crashLoopBackOff', actions: 'recordExit' },
          // First crash, or back-off expired long ago: the kubelet restarts at once.
          { target: 'creating', actions: ['recordExit', 'countRestart'] },
        ],
      },
      states: {
        notReady: {
          entry: [{ type: 'setReady', params: { ready: false } }],
          on: {
            PROBE_OK: 'ready',
            PROBE_FAILED: { guard: 'isLivenessFailure', target: 'killing' },
          },
        },
        ready: {
          entry: [{ type: 'setReady', params: { ready: true } }],
          on: {
            PROBE_FAILED: [
              { guard: 'isLivenessFailure', target: 'killing' },
              { guard: 'isReadinessFailure', target: 'notReady' },
            ],
          },
        },
        // "Container app failed liveness probe, will be restarted": stopping; EXITED follows.
        killing: {
          entry: [{ type: 'setReady', params: { ready: false } }],
        },
      },
    },
    crashLoopBackOff: {
      entry: [{ type: 'setReason', params: { reason: 'CrashLoopBackOff' } }],
      on: { BACKOFF_EXPIRED: { target: 'creating', actions: 'countRestart' } },
    },
    terminating: {
      on: {
        CONTAINERS_STOPPED: 'terminated',
        EXITED: { target: 'terminated', actions: 'recordExit' },
        // SIGKILL at the end of terminationGracePeriodSeconds.
        GRACE_EXPIRED: { target: 'terminated', actions: assign({ lastExitCode: 137, lastReason: 'Error' }) },
        DELETE_REQUESTED: {},
      },
    },
    terminated: {
      type: 'final',
    },
  },
});
