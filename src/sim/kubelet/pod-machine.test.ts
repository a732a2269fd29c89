import { describe, it, expect } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { podMachine, type PodMachineEvent, type PodMachineInput } from './pod-machine.ts';

const events: PodMachineEvent[] = [
  { type: 'SANDBOX_READY' }, { type: 'IMAGE_PULLED' }, { type: 'PULL_FAILED' }, { type: 'PULL_BACKOFF' },
  { type: 'BACKOFF_EXPIRED' }, { type: 'STARTED' }, { type: 'PROBE_OK', probe: 'readiness' },
  { type: 'PROBE_FAILED', probe: 'readiness' }, { type: 'PROBE_FAILED', probe: 'liveness' },
  { type: 'EXITED', code: 1 }, { type: 'EXITED', code: 1, inBackOff: true }, { type: 'EXITED', code: 137, oom: true, inBackOff: true },
  { type: 'EXITED', code: 0 }, { type: 'DELETE_REQUESTED' }, { type: 'CONTAINERS_STOPPED' }, { type: 'GRACE_EXPIRED' },
];

const serializeState = (s: { value: unknown }) => JSON.stringify(s.value);

function paths(input: PodMachineInput) {
  return getShortestPaths(podMachine, { events, input, serializeState });
}

/** Replay a path with the pure API only. */
function replay(input: PodMachineInput, steps: { event: { type: string } }[]) {
  let [snap] = initialTransition(podMachine, input);
  for (const step of steps) {
    // getShortestPaths starts each path with the machine's own init event.
    if (step.event.type === 'xstate.init') continue;
    [snap] = transition(podMachine, snap, step.event as PodMachineEvent);
  }
  return snap;
}

describe('pod machine', () => {
  const withProbe: PodMachineInput = { restartPolicy: 'Always', hasReadinessProbe: true };
  it('reaches every state', () => {
    const reached = new Set(paths(withProbe).map((p) => JSON.stringify(p.state.value)));
    for (const v of ['pending', 'pulling', 'errImagePull', 'imagePullBackOff', 'creating', 'crashLoopBackOff', 'terminating', 'terminated']) {
      expect(reached).toContain(JSON.stringify(v));
    }
    for (const sub of ['notReady', 'ready', 'killing']) expect(reached).toContain(JSON.stringify({ running: sub }));
  });

  it('every shortest path replays to the same state with transition()', () => {
    for (const input of [withProbe, { restartPolicy: 'Never' as const }, { imagePresent: true, restartPolicy: 'OnFailure' as const }]) {
      for (const p of paths(input)) {
        const snap = replay(input, p.steps);
        expect(snap.value).toEqual(p.state.value);
        // Context stays plain data.
        expect(JSON.parse(JSON.stringify(snap.context))).toEqual(snap.context);
      }
    }
  });

  it('crash loop: first exit restarts at once, later ones back off', () => {
    let [s] = initialTransition(podMachine, { imagePresent: true });
    for (const e of [{ type: 'SANDBOX_READY' }, { type: 'STARTED' }, { type: 'EXITED', code: 1 }] as PodMachineEvent[]) [s] = transition(podMachine, s, e);
    expect(s.value).toBe('creating');
    expect(s.context.restartCount).toBe(1);
    for (const e of [{ type: 'STARTED' }, { type: 'EXITED', code: 137, oom: true, inBackOff: true }] as PodMachineEvent[]) [s] = transition(podMachine, s, e);
    expect(s.value).toBe('crashLoopBackOff');
    expect(s.context).toMatchObject({ reason: 'CrashLoopBackOff', lastExitCode: 137, lastReason: 'OOMKilled', restartCount: 1 });
    [s] = transition(podMachine, s, { type: 'BACKOFF_EXPIRED' });
    expect([s.value, s.context.restartCount]).toEqual(['creating', 2]);
  });

  it('image pull failure path and readiness', () => {
    let [s] = initialTransition(podMachine, { hasReadinessProbe: true });
    const seq: PodMachineEvent[] = [{ type: 'SANDBOX_READY' }, { type: 'PULL_FAILED' }, { type: 'PULL_BACKOFF' }, { type: 'BACKOFF_EXPIRED' }, { type: 'IMAGE_PULLED' }, { type: 'STARTED' }];
    const seen: unknown[] = [];
    for (const e of seq) {
      [s] = transition(podMachine, s, e);
      seen.push(s.context.reason);
    }
    expect(seen).toEqual(['ContainerCreating', 'ErrImagePull', 'ImagePullBackOff', 'ContainerCreating', 'ContainerCreating', 'Running']);
    expect([s.value, s.context.ready]).toEqual([{ running: 'notReady' }, false]);
    [s] = transition(podMachine, s, { type: 'PROBE_OK', probe: 'readiness' });
    expect(s.context.ready).toBe(true);
    [s] = transition(podMachine, s, { type: 'DELETE_REQUESTED' });
    [s] = transition(podMachine, s, { type: 'GRACE_EXPIRED' });
    expect([s.value, s.status, s.context.lastExitCode]).toEqual(['terminated', 'done', 137]);
  });
});
