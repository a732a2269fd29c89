import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { Deployment } from 'kubernetes-types/apps/v1';
import {
  rolloutMachine,
  rolloutStateName,
  rolloutSummary,
  summaryComplete,
  type RolloutEvent,
  type RolloutStateName,
  type RolloutSummary,
} from './rollout-machine.ts';

type Snap = SnapshotFrom<typeof rolloutMachine>;

const base: RolloutSummary = {
  replicas: 3,
  statusReplicas: 3,
  updatedReplicas: 1,
  readyReplicas: 3,
  availableReplicas: 3,
  progressingReason: 'ReplicaSetUpdated',
  lastAction: 'scaleUpNew',
};
const synced = (s: Partial<RolloutSummary>): RolloutEvent => ({ type: 'SYNCED', status: { ...base, ...s } });
const E = {
  scaledUp: synced({ lastAction: 'scaleUpNew' }),
  scaledDown: synced({ lastAction: 'scaleDownOld', updatedReplicas: 2 }),
  waiting: synced({ lastAction: 'idle', availableReplicas: 2 }),
  complete: synced({ lastAction: 'idle', updatedReplicas: 3, progressingReason: 'NewReplicaSetAvailable' }),
  // A scale-up of a finished Deployment: not complete yet, condition still NewReplicaSetAvailable.
  resyncAfterComplete: synced({ lastAction: 'idle', updatedReplicas: 4, statusReplicas: 4, replicas: 5, availableReplicas: 4, progressingReason: 'NewReplicaSetAvailable' }),
  timedOut: synced({ lastAction: 'idle', availableReplicas: 2, progressingReason: 'ProgressDeadlineExceeded' }),
  PAUSE: { type: 'PAUSE' } as RolloutEvent,
  RESUME: { type: 'RESUME' } as RolloutEvent,
  NEW_TEMPLATE: { type: 'NEW_TEMPLATE' } as RolloutEvent,
};
const allEvents = Object.values(E);

const start = () => initialTransition(rolloutMachine)[0];
const step = (s: Snap, e: RolloutEvent) => transition(rolloutMachine, s, e)[0];
const run = (...events: RolloutEvent[]) => events.reduce(step, start());
const name = (s: Snap) => rolloutStateName(s.value);

describe('rollout machine: every state along its shortest path (xstate/graph)', () => {
  // The rollouts counter grows without bound, so the graph is keyed on state value + pending flag.
  const paths = getShortestPaths(rolloutMachine, {
    events: allEvents,
    serializeState: (s) => JSON.stringify({ v: s.value, p: s.context.pendingTemplate }),
  });
  const reached = new Set(paths.map((p) => rolloutStateName(p.state.value)));

  it('reaches all six states', () => {
    const all: RolloutStateName[] = ['progressing.scalingUp', 'progressing.scalingDown', 'progressing.waitingForAvailability', 'complete', 'paused', 'deadlineExceeded'];
    expect([...reached].sort()).toEqual([...all].sort());
  });

  it.each(paths.map((p) => ({ key: `${rolloutStateName(p.state.value)}${p.state.context.pendingTemplate ? ' (template pending)' : ''}`, p })))(
    'pure replay reaches $key',
    ({ p }) => {
      const end = p.steps.reduce((s, st) => step(s, st.event), start());
      expect(end.value).toEqual(p.state.value);
      expect(end.context.pendingTemplate).toBe(p.state.context.pendingTemplate);
      // The snapshot stays plain data: it survives JSON and continues from a restored state.
      const persisted = JSON.parse(JSON.stringify(rolloutMachine.getPersistedSnapshot(end)));
      const restored = rolloutMachine.resolveState({ value: persisted.value, context: persisted.context });
      expect(step(restored, E.NEW_TEMPLATE).value).toEqual(step(end, E.NEW_TEMPLATE).value);
    },
  );
});

describe('rollout machine: explicit transitions', () => {
  it('starts scaling up', () => expect(name(start())).toBe('progressing.scalingUp'));

  it('follows the controller through a rolling update', () => {
    expect(name(run(E.scaledDown))).toBe('progressing.scalingDown');
    expect(name(run(E.waiting))).toBe('progressing.waitingForAvailability');
    const done = run(E.scaledUp, E.scaledDown, E.complete);
    expect(name(done)).toBe('complete');
    expect(done.context.summary?.progressingReason).toBe('NewReplicaSetAvailable');
  });

  it('a timeout wins until the controller reports progress or completion', () => {
    expect(name(run(E.timedOut))).toBe('deadlineExceeded');
    expect(name(run(E.timedOut, E.timedOut))).toBe('deadlineExceeded');
    expect(name(run(E.timedOut, E.scaledDown))).toBe('progressing.scalingDown');
    expect(name(run(E.timedOut, E.complete))).toBe('complete');
  });

  it('complete survives resyncs; a scaling event or new template makes it progress again', () => {
    expect(name(run(E.complete, E.resyncAfterComplete))).toBe('complete');
    expect(name(run(E.complete, E.scaledUp))).toBe('progressing.scalingUp');
    const next = run(E.complete, E.NEW_TEMPLATE);
    expect(name(next)).toBe('progressing.scalingUp');
    expect(next.context.rollouts).toBe(2);
  });

  it('pause holds the rollout; a template edited while paused rolls out on resume', () => {
    const paused = run(E.scaledUp, E.PAUSE);
    expect(name(paused)).toBe('paused');
    expect(name(step(paused, E.complete))).toBe('paused');
    expect(name(step(paused, E.RESUME))).toBe('progressing.waitingForAvailability');
    const edited = step(paused, E.NEW_TEMPLATE);
    expect(edited.context).toMatchObject({ pendingTemplate: true, rollouts: 1 });
    const resumed = step(edited, E.RESUME);
    expect(name(resumed)).toBe('progressing.scalingUp');
    expect(resumed.context).toMatchObject({ pendingTemplate: false, rollouts: 2 });
    // PAUSE and RESUME are ignored where they mean nothing.
    expect(name(step(paused, E.PAUSE))).toBe('paused');
    expect(name(run(E.RESUME))).toBe('progressing.scalingUp');
  });

  it('NEW_TEMPLATE mid-rollout restarts at scalingUp (rollover)', () => {
    const s = run(E.scaledDown, E.NEW_TEMPLATE);
    expect(name(s)).toBe('progressing.scalingUp');
    expect(s.context.rollouts).toBe(2);
  });
});

describe('rolloutSummary', () => {
  it('reads spec, status counts and the Progressing reason', () => {
    const d: Deployment = { spec: { replicas: 3, selector: {}, template: {} } };
    const s = rolloutSummary(d, { replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }] }, 'idle');
    expect(s).toEqual({ replicas: 3, statusReplicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, progressingReason: 'NewReplicaSetAvailable', lastAction: 'idle' });
    expect(summaryComplete(s)).toBe(true);
    expect(rolloutSummary(d, {}, 'idle').progressingReason).toBeNull();
  });
});
