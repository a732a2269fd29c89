import { describe, it, expect } from 'vitest';
import type { Node, Pod, Taint, Toleration } from 'kubernetes-types/core/v1';
import {
  getMinTolerationTime,
  getMatchingTolerations,
  handleNodeUpdate,
  handlePodUpdate,
  fireDueWork,
  nextFireAt,
  newTaintEvictionState,
  processPodOnNode,
} from './taint-eviction.ts';

const unreachable: Taint = {
  key: 'node.kubernetes.io/unreachable',
  effect: 'NoExecute',
  timeAdded: '2026-01-01T00:01:00Z',
};
const tol = (seconds?: number): Toleration => ({
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds === undefined ? {} : { tolerationSeconds: seconds }),
});
const pod = (name: string, tolerations: Toleration[] = []): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { nodeName: 'node-1', containers: [], tolerations },
});
const node = (taints: Taint[]): Node => ({ metadata: { name: 'node-1' }, spec: { taints } });

describe('getMinTolerationTime', () => {
  it.each<[Toleration[], number]>([
    [[], 0],
    [[tol()], -1],
    [[tol(300)], 300_000],
    [[tol(300), tol(60)], 60_000],
    [[tol(300), tol(0)], 0],
    [[tol(-5)], 0],
    [[tol(), tol(30)], 30_000],
  ])('%j → %d', (t, want) => expect(getMinTolerationTime(t)).toBe(want));
});

describe('GetMatchingTolerations', () => {
  it('Equal needs the value, Exists does not', () => {
    const t: Taint = { key: 'gpu', value: 'a100', effect: 'NoExecute' };
    expect(getMatchingTolerations([t], [{ key: 'gpu', operator: 'Equal', value: 'a100' }]).allTolerated).toBe(true);
    expect(getMatchingTolerations([t], [{ key: 'gpu', value: 'h100' }]).allTolerated).toBe(false);
    expect(getMatchingTolerations([t], [{ operator: 'Exists' }]).allTolerated).toBe(true);
  });
});

describe('taint eviction decisions', () => {
  it('no toleration: delete now', () => {
    const r = handleNodeUpdate(newTaintEvictionState(), node([unreachable]), [pod('a')], 60_000);
    expect(nextFireAt(r.state)).toBe(60_000);
    const f = fireDueWork(r.state, 60_000);
    expect(f.actions.map((a) => a.event.message)).toEqual(['Marking for deletion Pod default/a']);
    expect(f.actions[0].condition).toMatchObject({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    });
  });

  it('tolerationSeconds 300: later, counted from when the controller saw the taint', () => {
    const r = handleNodeUpdate(newTaintEvictionState(), node([unreachable]), [pod('a', [tol(300)])], 60_050);
    expect(nextFireAt(r.state)).toBe(360_050);
    expect(fireDueWork(r.state, 360_049).actions).toEqual([]);
    expect(fireDueWork(r.state, 360_050).actions).toHaveLength(1);
  });

  it('toleration without seconds: never', () => {
    const r = handleNodeUpdate(newTaintEvictionState(), node([unreachable]), [pod('a', [tol()])], 0);
    expect(nextFireAt(r.state)).toBe(Infinity);
  });

  it('a later update does not postpone the deadline', () => {
    let s = handleNodeUpdate(newTaintEvictionState(), node([unreachable]), [pod('a', [tol(300)])], 60_000).state;
    s = handleNodeUpdate(s, node([unreachable]), [pod('a', [tol(300)])], 120_000).state;
    expect(nextFireAt(s)).toBe(360_000);
    // Go compares createdAt + min with now + min, which is always earlier once work exists, so even a
    // shorter toleration keeps the old deadline (the quirk kubernetes#109226 discusses).
    s = handlePodUpdate(s, pod('a', [tol(100)]), 130_000).state;
    expect(nextFireAt(s)).toBe(360_000);
  });

  it('taint removed early: cancel with an event', () => {
    const s = handleNodeUpdate(newTaintEvictionState(), node([unreachable]), [pod('a', [tol(300)])], 60_000).state;
    const r = handleNodeUpdate(s, node([]), [pod('a', [tol(300)])], 100_000);
    expect(r.events).toEqual([
      {
        namespace: 'default',
        name: 'a',
        type: 'Normal',
        reason: 'TaintManagerEviction',
        message: 'Cancelling deletion of Pod default/a',
      },
    ]);
    expect(nextFireAt(r.state)).toBe(Infinity);
  });

  it('no cancel event after the deletion already fired', () => {
    let s = handleNodeUpdate(newTaintEvictionState(), node([unreachable]), [pod('a')], 0).state;
    s = fireDueWork(s, 0).state;
    expect(handlePodUpdate(s, pod('a'), 1, true).events).toEqual([]);
  });

  it('a NoSchedule taint alone evicts nobody', () => {
    const r = handleNodeUpdate(
      newTaintEvictionState(),
      node([{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]),
      [pod('a')],
      0,
    );
    expect(nextFireAt(r.state)).toBe(Infinity);
  });

  it('processPodOnNode with an untolerated extra taint deletes now even if another is tolerated', () => {
    const r = processPodOnNode(
      newTaintEvictionState(),
      'default',
      'a',
      [tol(300)],
      [unreachable, { key: 'x', effect: 'NoExecute' }],
      5,
    );
    expect(nextFireAt(r.state)).toBe(5);
  });
});
