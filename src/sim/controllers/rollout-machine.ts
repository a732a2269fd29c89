// A Deployment rollout as the deployment controller sees it after each sync.
// The machine only coordinates: every decision about numbers lives in deployment-util.ts, and the
// controller reports the outcome of a sync as a plain RolloutSummary. It is meant to be advanced
// purely with xstate's `initialTransition(rolloutMachine)` / `transition(rolloutMachine, snapshot,
// event)`, so it has no delays, no invoked actors, and its context is plain JSON data.
// The state names mirror the Progressing condition reasons of pkg/controller/deployment/progress.go.

import type { Deployment, DeploymentStatus } from 'kubernetes-types/apps/v1';
import { assign } from 'xstate';
import { setup } from '../util/machine-setup.ts';
import { getDeploymentCondition, NewRSAvailableReason, specReplicas, TimedOutReason } from './deployment-util.ts';

/** What the last sync did: which rolloutRolling/rolloutRecreate phase acted. */
export type RolloutAction = 'scaleUpNew' | 'scaleDownNew' | 'scaleDownOld' | 'createNewRS' | 'waitForOldPods' | 'idle';

/** The controller's view after a sync: spec size, the status it wrote, and what it did. */
export interface RolloutSummary {
  /** spec.replicas */
  replicas: number;
  /** status.replicas (pods of every RS) */
  statusReplicas: number;
  updatedReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  /** Reason of the Progressing condition after the sync, if any. */
  progressingReason: string | null;
  lastAction: RolloutAction;
}

/** Events the deployment controller (or kubectl, via the controller) sends to the machine. */
export type RolloutEvent =
  { type: 'SYNCED'; status: RolloutSummary } | { type: 'PAUSE' } | { type: 'RESUME' } | { type: 'NEW_TEMPLATE' };

/** Plain-data context: the last summary and how many template changes started a rollout. */
export interface RolloutContext {
  summary: RolloutSummary | null;
  rollouts: number;
  /** A template change arrived while paused; it rolls out on RESUME. */
  pendingTemplate: boolean;
}

/** Builds the summary the machine consumes from a Deployment and the status just computed. */
export function rolloutSummary(d: Deployment, status: DeploymentStatus, lastAction: RolloutAction): RolloutSummary {
  return {
    replicas: specReplicas(d),
    statusReplicas: status.replicas ?? 0,
    updatedReplicas: status.updatedReplicas ?? 0,
    readyReplicas: status.readyReplicas ?? 0,
    availableReplicas: status.availableReplicas ?? 0,
    progressingReason: getDeploymentCondition(status, 'Progressing')?.reason ?? null,
    lastAction,
  };
}

/** DeploymentComplete over a summary: every desired replica updated and available, no old pods. */
export function summaryComplete(s: RolloutSummary): boolean {
  return s.updatedReplicas === s.replicas && s.statusReplicas === s.replicas && s.availableReplicas === s.replicas;
}

type SyncedEvent = Extract<RolloutEvent, { type: 'SYNCED' }>;

// The same ordered judgement from any active state: a reported timeout wins until the controller
// reports progress, completion comes next, and otherwise the last action names the substate.
const syncTransitions = [
  { guard: 'isTimedOut', target: '#rollout.deadlineExceeded', actions: 'recordSummary' },
  { guard: 'isComplete', target: '#rollout.complete', actions: 'recordSummary' },
  { guard: 'scaledUp', target: '#rollout.progressing.scalingUp', actions: 'recordSummary' },
  { guard: 'scaledDown', target: '#rollout.progressing.scalingDown', actions: 'recordSummary' },
  { target: '#rollout.progressing.waitingForAvailability', actions: 'recordSummary' },
] as const;

/** The rollout machine; advance it with xstate's pure transition(). */
export const rolloutMachine = setup({
  types: {
    context: {} as RolloutContext,
    events: {} as RolloutEvent,
  },
  guards: {
    isTimedOut: ({ event }) => (event as SyncedEvent).status.progressingReason === TimedOutReason,
    isComplete: ({ event }) => summaryComplete((event as SyncedEvent).status),
    // A finished rollout that is merely resynced keeps NewReplicaSetAvailable; stay complete.
    stillComplete: ({ event }) => {
      const s = (event as SyncedEvent).status;
      return summaryComplete(s) || (s.progressingReason === NewRSAvailableReason && s.lastAction === 'idle');
    },
    scaledUp: ({ event }) => {
      const a = (event as SyncedEvent).status.lastAction;
      return a === 'scaleUpNew' || a === 'createNewRS';
    },
    scaledDown: ({ event }) => {
      const a = (event as SyncedEvent).status.lastAction;
      return a === 'scaleDownOld' || a === 'scaleDownNew';
    },
    hasPendingTemplate: ({ context }) => context.pendingTemplate,
  },
  actions: {
    recordSummary: assign({ summary: ({ event }) => (event as SyncedEvent).status }),
    countRollout: assign({ rollouts: ({ context }) => context.rollouts + 1, pendingTemplate: false }),
    rememberTemplate: assign({ pendingTemplate: true }),
    clearPendingTemplate: assign({ pendingTemplate: false }),
  },
}).createMachine({
  id: 'rollout',
  context: { summary: null, rollouts: 1, pendingTemplate: false },
  initial: 'progressing',
  states: {
    progressing: {
      initial: 'scalingUp',
      states: {
        scalingUp: {},
        scalingDown: {},
        waitingForAvailability: {},
      },
      on: {
        SYNCED: [...syncTransitions],
        PAUSE: { target: 'paused' },
        NEW_TEMPLATE: { target: '.scalingUp', reenter: true, actions: 'countRollout' },
      },
    },
    complete: {
      on: {
        SYNCED: [{ guard: 'stillComplete', actions: 'recordSummary' }, ...syncTransitions.slice(2)],
        PAUSE: { target: 'paused' },
        NEW_TEMPLATE: { target: 'progressing.scalingUp', actions: 'countRollout' },
      },
    },
    deadlineExceeded: {
      on: {
        SYNCED: [...syncTransitions],
        PAUSE: { target: 'paused' },
        NEW_TEMPLATE: { target: 'progressing.scalingUp', actions: 'countRollout' },
      },
    },
    paused: {
      on: {
        // A paused Deployment is only scaled (sync/scale), never rolled: keep the figures, stay.
        SYNCED: { actions: 'recordSummary' },
        NEW_TEMPLATE: { actions: 'rememberTemplate' },
        RESUME: [
          { guard: 'hasPendingTemplate', target: 'progressing.scalingUp', actions: 'countRollout' },
          { target: 'progressing.waitingForAvailability', actions: 'clearPendingTemplate' },
        ],
      },
    },
  },
});

/** The states a widget can show, as dotted paths. */
export type RolloutStateName =
  | 'progressing.scalingUp'
  | 'progressing.scalingDown'
  | 'progressing.waitingForAvailability'
  | 'complete'
  | 'paused'
  | 'deadlineExceeded';

/** Flattens a snapshot value ({progressing: 'scalingUp'} or 'complete') to a RolloutStateName. */
export function rolloutStateName(value: unknown): RolloutStateName {
  if (typeof value === 'string') return value as RolloutStateName;
  const [k, v] = Object.entries(value as Record<string, string>)[0];
  return `${k}.${v}` as RolloutStateName;
}
