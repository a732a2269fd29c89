import { describe, it, expect } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { nodeMachine, type NodeMachineEvent } from './node-machine.ts';

const events: NodeMachineEvent[] = [
  { type: 'HEARTBEAT' }, { type: 'HEARTBEAT_MISSED' }, { type: 'GRACE_EXCEEDED' }, { type: 'KUBELET_NOT_READY' },
  { type: 'NOSCHEDULE_TAINTED' }, { type: 'NOEXECUTE_TAINTED' }, { type: 'TOLERATION_EXPIRED', pods: 2 },
  { type: 'TAINTS_REMOVED' }, { type: 'ALL_ZONES_DOWN' }, { type: 'SOME_NODES_READY' },
];
const serializeState = (s: { value: unknown }) => JSON.stringify(s.value);

describe('node machine', () => {
  const paths = getShortestPaths(nodeMachine, { events, serializeState });

  it('reaches every state', () => {
    const reached = new Set(paths.map((p) => p.state.value));
    expect([...reached].sort()).toEqual(['disrupted', 'evicting', 'graceRunning', 'healthy', 'notReady', 'recovered', 'tainted', 'unknown']);
  });

  it('every path replays with the pure transition()', () => {
    for (const p of paths) {
      let [s] = initialTransition(nodeMachine);
      for (const step of p.steps) {
        // getShortestPaths starts each path with the machine's own init event.
        if ((step.event as { type: string }).type === 'xstate.init') continue;
        [s] = transition(nodeMachine, s, step.event as NodeMachineEvent);
      }
      expect(s.value).toEqual(p.state.value);
      expect(JSON.parse(JSON.stringify(s.context))).toEqual(s.context);
    }
  });

  it('the single-node failure story', () => {
    let [s] = initialTransition(nodeMachine);
    const story: NodeMachineEvent[] = [
      { type: 'HEARTBEAT_MISSED' }, { type: 'GRACE_EXCEEDED' }, { type: 'NOSCHEDULE_TAINTED' }, { type: 'NOEXECUTE_TAINTED' },
      { type: 'TOLERATION_EXPIRED', pods: 2 },
    ];
    for (const e of story) [s] = transition(nodeMachine, s, e);
    expect(s.value).toBe('evicting');
    expect(s.context).toEqual({ ready: 'Unknown', noScheduleTaint: 'node.kubernetes.io/unreachable:NoSchedule', noExecuteTaint: 'node.kubernetes.io/unreachable:NoExecute', evictedPods: 2 });
    [s] = transition(nodeMachine, s, { type: 'HEARTBEAT' });
    [s] = transition(nodeMachine, s, { type: 'TAINTS_REMOVED' });
    expect([s.value, s.context.noExecuteTaint, s.context.ready]).toEqual(['healthy', null, 'True']);
  });
});
