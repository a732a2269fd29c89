import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { createCluster } from '../cluster.ts';
import { applyAction } from '../figures/actions.ts';
import { rolloutMachine } from '../controllers/rollout-machine.ts';
import { podMachine } from '../kubelet/pod-machine.ts';
import { nodeMachine, type NodeMachineEvent } from '../node-lifecycle/node-machine.ts';
import type { NodeHealthView } from '../node-lifecycle/node-health-view.ts';
import {
  labelOfKey,
  nodeReasonOf,
  nodeStatechartOf,
  rolloutStatechartOf,
  stateIdOf,
  statechartOf,
} from './statechart.ts';

describe('statechartOf', () => {
  it('reads every state of the node machine, in document order, healthy first', () => {
    const c = statechartOf(nodeMachine);
    expect(c.machine).toBe('node');
    expect(c.initial).toBe('healthy');
    expect(c.states.map((s) => s.id)).toEqual(Object.keys(nodeMachine.config.states!));
    expect(c.states.filter((s) => s.initial).map((s) => s.id)).toEqual(['healthy']);
    expect(c.states.find((s) => s.id === 'graceRunning')!.label).toBe('grace running');
  });

  it('lists exactly the transitions the machine takes: every (state, event) it reports leads where xstate goes', () => {
    const c = statechartOf(nodeMachine);
    const events: NodeMachineEvent[] = [
      { type: 'HEARTBEAT' },
      { type: 'HEARTBEAT_MISSED' },
      { type: 'GRACE_EXCEEDED' },
      { type: 'KUBELET_NOT_READY' },
      { type: 'NOSCHEDULE_TAINTED' },
      { type: 'NOEXECUTE_TAINTED' },
      { type: 'TOLERATION_EXPIRED', pods: 1 },
      { type: 'TAINTS_REMOVED' },
      { type: 'ALL_ZONES_DOWN' },
      { type: 'SOME_NODES_READY' },
    ];
    const [start] = initialTransition(nodeMachine);
    for (const s of c.states) {
      for (const e of events) {
        const from = nodeMachine.resolveState({ value: s.id, context: start.context });
        const [next] = transition(nodeMachine, from, e);
        const listed = c.transitions.filter((t) => t.from === s.id && t.event === e.type);
        // An event the chart does not list is ignored there; a listed one leads to its target (or stays, targetless).
        // Several listed for one event only when guards choose among them (the last may be the fallback); the one xstate takes is listed.
        if (listed.length > 1) expect(listed.slice(0, -1).every((t) => t.guarded)).toBe(true);
        if (listed.length) expect(listed.map((t) => t.to ?? s.id)).toContain(stateIdOf(next.value));
        else expect(stateIdOf(next.value)).toBe(s.id);
        if (from.can(e)) expect(listed.length).toBeGreaterThan(0);
      }
    }
    expect(c.transitions).toContainEqual({
      from: 'graceRunning',
      to: 'unknown',
      event: 'GRACE_EXCEEDED',
      guarded: false,
    });
    expect(c.transitions).toContainEqual({ from: 'unknown', to: null, event: 'NOSCHEDULE_TAINTED', guarded: false });
    // Out of disruption mode a node still tainted recovers first; an untainted one is healthy at once.
    expect(c.transitions.filter((t) => t.from === 'graceRunning' && t.event === 'HEARTBEAT')).toEqual([
      { from: 'graceRunning', to: 'recovered', event: 'HEARTBEAT', guarded: true },
      { from: 'graceRunning', to: 'healthy', event: 'HEARTBEAT', guarded: false },
    ]);
  });

  it('keeps nesting, initial children, root transitions and guards (pod and rollout machines)', () => {
    const pod = statechartOf(podMachine);
    expect(pod.states.find((s) => s.id === 'running.ready')).toMatchObject({
      parent: 'running',
      depth: 1,
      key: 'ready',
    });
    expect(pod.states.find((s) => s.id === 'running.notReady')!.initial).toBe(true);
    expect(pod.states.find((s) => s.id === 'terminated')!.type).toBe('final');
    expect(pod.transitions).toContainEqual({
      from: null,
      to: 'terminating',
      event: 'DELETE_REQUESTED',
      guarded: false,
    });
    expect(pod.transitions).toContainEqual({ from: 'pending', to: 'creating', event: 'SANDBOX_READY', guarded: true });
    expect(pod.transitions).toContainEqual({ from: 'pending', to: 'pulling', event: 'SANDBOX_READY', guarded: false });
    const ro = statechartOf(rolloutMachine);
    expect(ro.initial).toBe('progressing');
    expect(ro.states.map((s) => s.id)).toEqual(
      expect.arrayContaining(['progressing.scalingUp', 'complete', 'paused', 'deadlineExceeded']),
    );
    expect(ro.transitions).toContainEqual(
      expect.objectContaining({ from: 'complete', to: 'progressing.scalingUp', event: 'NEW_TEMPLATE' }),
    );
  });

  it('is plain JSON and the same object for the same machine', () => {
    const c = statechartOf(podMachine);
    expect(JSON.parse(JSON.stringify(c))).toEqual(c);
    expect(statechartOf(podMachine)).toBe(c);
  });
});

describe('the small helpers', () => {
  it('words a key and flattens a snapshot value', () => {
    expect(labelOfKey('imagePullBackOff')).toBe('image pull back off');
    expect(labelOfKey('healthy')).toBe('healthy');
    expect(stateIdOf('complete')).toBe('complete');
    expect(stateIdOf({ progressing: 'scalingUp' })).toBe('progressing.scalingUp');
    expect(stateIdOf({ running: { deep: 'x' } })).toBe('running.deep.x');
  });

  it('gives the reason the controller has, with its own numbers', () => {
    const h: NodeHealthView = {
      machine: 'unknown',
      ready: 'Unknown',
      noScheduleTaint: 'node.kubernetes.io/unreachable:NoSchedule',
      noExecuteTaint: null,
      evictedPods: 0,
      probeTimestamp: 100_000,
      readyTransitionTimestamp: 150_000,
      gracePeriodMs: 50_000,
      graceEndsAt: 150_000,
      disruptionMode: false,
    };
    expect(nodeReasonOf(h, 150_001)).toBe(
      'Ready=Unknown: no Lease renewal for 50 s (grace period 50 s); tainted node.kubernetes.io/unreachable:NoSchedule.',
    );
    expect(nodeReasonOf({ ...h, machine: 'graceRunning', ready: 'True', noScheduleTaint: null }, 123_000)).toBe(
      'Ready=True: no Lease renewal for 23 s; at 50 s the controller marks it Unknown (27 s left).',
    );
    expect(nodeReasonOf(undefined, 0)).toMatch(/not running/);
    // The process is up but has not taken its Lease yet, so it has started no controller.
    expect(nodeReasonOf(undefined, 0, true)).toMatch(
      /^kube-controller-manager is up but has not started its controllers/,
    );
  });
});

describe('nodeStatechartOf on a live cluster', () => {
  it('follows node-2 from healthy through grace running to unknown and tainted, and back to healthy', () => {
    const c = createCluster({ seed: 3, nodes: 3 });
    c.settle();
    c.advance(20_000);
    expect(nodeStatechartOf(c.world.state, 'node-2').current).toBe('healthy');
    c.node('node-2', 'stop');
    const seen: string[] = [];
    for (let t = 0; t < 120_000; t += 1000) {
      c.advance(1000);
      const v = nodeStatechartOf(c.world.state, 'node-2');
      if (seen[seen.length - 1] !== v.current) seen.push(v.current!);
    }
    // 'unknown' lasts ~100 ms now (1.37 taints NoExecute right after the Unknown write): a 1 s sample skips it
    expect(seen).toEqual(['healthy', 'graceRunning', 'tainted']);
    const v = nodeStatechartOf(c.world.state, 'node-2');
    expect(v.reason).toContain('node.kubernetes.io/unreachable:NoExecute');
    c.node('node-2', 'start');
    c.advance(30_000);
    expect(nodeStatechartOf(c.world.state, 'node-2').current).toBe('healthy');
    c.controlPlane('stop');
    expect(nodeStatechartOf(c.world.state, 'node-2')).toMatchObject({ current: null, subject: 'node-2' });
  });
});

describe('rolloutStatechartOf on a live cluster', () => {
  it("lights web's rollout from progressing to complete, paused, and back, with the controller's reason", () => {
    const c = createCluster({ seed: 3, nodes: 3 });
    c.settle();
    expect(rolloutStatechartOf(c.world.state, 'default/web')).toMatchObject({
      current: null,
      subject: 'Deployment web',
    });
    applyAction(c, { type: 'apply', name: 'web', image: 'nginx:1.27', replicas: 3 });
    c.advance(1000);
    const early = rolloutStatechartOf(c.world.state, 'default/web');
    expect(early.chart.machine).toBe('rollout');
    expect(early.current).toMatch(/^progressing\./);
    c.advance(60_000);
    const done = rolloutStatechartOf(c.world.state, 'default/web');
    expect(done.current).toBe('complete');
    expect(done.reason).toMatch(/^NewReplicaSetAvailable: .*3 of 3 updated, 3 available, 3 total\)\.$/);
    applyAction(c, { type: 'rollout', name: 'web', verb: 'pause' });
    c.advance(2000);
    expect(rolloutStatechartOf(c.world.state, 'default/web')).toMatchObject({
      current: 'paused',
      reason: 'Deployment is paused.',
    });
    c.controlPlane('stop');
    expect(rolloutStatechartOf(c.world.state, 'default/web').current).toBeNull();
  });
});
