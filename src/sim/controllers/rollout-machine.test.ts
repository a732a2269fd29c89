import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import type { Deployment } from 'kubernetes-types/apps/v1';
import { peek } from '../clock.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { storeGet } from '../apiserver/store.ts';
import { storeKey } from '../api/resources.ts';
import { statechartOf } from '../view/statechart.ts';
import { rolloutStateOf, type DeploymentControllerState } from './deployment-controller.ts';
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
  resyncAfterComplete: synced({
    lastAction: 'idle',
    updatedReplicas: 4,
    statusReplicas: 4,
    replicas: 5,
    availableReplicas: 4,
    progressingReason: 'NewReplicaSetAvailable',
  }),
  timedOut: synced({ lastAction: 'idle', availableReplicas: 2, progressingReason: 'ProgressDeadlineExceeded' }),
  PAUSE: { type: 'PAUSE' } as RolloutEvent,
  RESUME: { type: 'RESUME' } as RolloutEvent,
  NEW_TEMPLATE: { type: 'NEW_TEMPLATE' } as RolloutEvent,
};

const start = () => initialTransition(rolloutMachine)[0];
const step = (s: Snap, e: RolloutEvent) => transition(rolloutMachine, s, e)[0];
const play = (...events: RolloutEvent[]) => events.reduce(step, start());
const name = (s: Snap) => rolloutStateName(s.value);

/** The Deployment controller's rollout state for default/web after each event up to `ms` from now. */
function run(c: Cluster, ms: number, seen: Set<string>): void {
  const until = c.now + ms;
  for (let e = peek(c.world.state.queue); e && e.at <= until; e = peek(c.world.state.queue)) {
    c.world.next();
    const dc = c.world.state.components['deployment-controller']?.state as DeploymentControllerState | undefined;
    const v = dc && rolloutStateOf(dc, 'default/web');
    if (v) seen.add(v.state);
  }
  c.advance(until - c.now);
}

/** Once quiet, the state the controller holds is what the stored Deployment's status and conditions say. */
function expectAgreement(c: Cluster, want: RolloutStateName): void {
  const dc = c.world.state.components['deployment-controller'].state as DeploymentControllerState;
  const v = rolloutStateOf(dc, 'default/web')!;
  const d = storeGet(c.world.state.store, 'deployments', storeKey('deployments', 'default', 'web')) as Deployment;
  const progressing = d.status?.conditions?.find((x) => x.type === 'Progressing');
  const st = d.status ?? {};
  const done =
    st.updatedReplicas === d.spec?.replicas &&
    st.replicas === d.spec?.replicas &&
    st.availableReplicas === d.spec?.replicas;
  expect(v.state).toBe(want);
  if (want === 'complete') expect([progressing?.reason, done]).toEqual(['NewReplicaSetAvailable', true]);
  if (want === 'paused') expect([d.spec?.paused, progressing?.reason]).toEqual([true, 'DeploymentPaused']);
  if (want === 'deadlineExceeded')
    expect([progressing?.status, progressing?.reason, done]).toEqual(['False', 'ProgressDeadlineExceeded', false]);
}

describe('rollout machine, as the Deployment controller runs it in a cluster', () => {
  it('takes a Deployment through every state of the chart, each quiet state what its status says', () => {
    const seen = new Set<string>();
    const c = createCluster({ seed: 4, nodes: 3 });
    c.settle();
    const image = (tag: string) =>
      c.request({
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        options: { patchType: 'strategic' },
        body: { spec: { template: { spec: { containers: [{ name: 'web', image: tag }] } } } },
      });
    const pause = (paused: boolean) =>
      c.request({
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        options: { patchType: 'merge' },
        body: { spec: { paused } },
      });
    c.request({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          replicas: 4,
          progressDeadlineSeconds: 60,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
          },
        },
      },
    });
    run(c, 60_000, seen);
    expectAgreement(c, 'complete');
    // A rolling update, paused halfway and resumed.
    image('nginx:1.28');
    run(c, 2_000, seen);
    pause(true);
    run(c, 20_000, seen);
    expectAgreement(c, 'paused');
    pause(false);
    run(c, 60_000, seen);
    expectAgreement(c, 'complete');
    // An image nobody can pull: no progress for 60 s.
    c.image('nginx:9.9', 'missing');
    image('nginx:9.9');
    run(c, 120_000, seen);
    expectAgreement(c, 'deadlineExceeded');
    image('nginx:1.28');
    run(c, 60_000, seen);
    expectAgreement(c, 'complete');
    expect([...seen].sort().join(' ')).toBe(
      statechartOf(rolloutMachine)
        .states.filter((s) => s.type !== 'compound')
        .map((s) => s.id)
        .sort()
        .join(' '),
    );
  });
});

describe('rollout machine: explicit transitions', () => {
  it('starts scaling up', () => expect(name(start())).toBe('progressing.scalingUp'));

  it('follows the controller through a rolling update', () => {
    expect(name(play(E.scaledDown))).toBe('progressing.scalingDown');
    expect(name(play(E.waiting))).toBe('progressing.waitingForAvailability');
    const done = play(E.scaledUp, E.scaledDown, E.complete);
    expect(name(done)).toBe('complete');
    expect(done.context.summary?.progressingReason).toBe('NewReplicaSetAvailable');
  });

  it('a timeout wins until the controller reports progress or completion', () => {
    expect(name(play(E.timedOut))).toBe('deadlineExceeded');
    expect(name(play(E.timedOut, E.timedOut))).toBe('deadlineExceeded');
    expect(name(play(E.timedOut, E.scaledDown))).toBe('progressing.scalingDown');
    expect(name(play(E.timedOut, E.complete))).toBe('complete');
  });

  it('complete survives resyncs; a scaling event or new template makes it progress again', () => {
    expect(name(play(E.complete, E.resyncAfterComplete))).toBe('complete');
    expect(name(play(E.complete, E.scaledUp))).toBe('progressing.scalingUp');
    const next = play(E.complete, E.NEW_TEMPLATE);
    expect(name(next)).toBe('progressing.scalingUp');
    expect(next.context.rollouts).toBe(2);
  });

  it('pause holds the rollout; a template edited while paused rolls out on resume', () => {
    const paused = play(E.scaledUp, E.PAUSE);
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
    expect(name(play(E.RESUME))).toBe('progressing.scalingUp');
  });

  it('NEW_TEMPLATE mid-rollout restarts at scalingUp (rollover)', () => {
    const s = play(E.scaledDown, E.NEW_TEMPLATE);
    expect(name(s)).toBe('progressing.scalingUp');
    expect(s.context.rollouts).toBe(2);
  });
});

describe('rolloutSummary', () => {
  it('reads spec, status counts and the Progressing reason', () => {
    const d: Deployment = { spec: { replicas: 3, selector: {}, template: {} } };
    const s = rolloutSummary(
      d,
      {
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }],
      },
      'idle',
    );
    expect(s).toEqual({
      replicas: 3,
      statusReplicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      progressingReason: 'NewReplicaSetAvailable',
      lastAction: 'idle',
    });
    expect(summaryComplete(s)).toBe(true);
    expect(rolloutSummary(d, {}, 'idle').progressingReason).toBeNull();
  });
});
