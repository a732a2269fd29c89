import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from './k8s-types.ts';
import type { CycleContext } from './framework.ts';
import { newNodeInfo } from './node-info.ts';
import {
  taintTolerationFilter,
  taintTolerationScore,
  toleratesTaint,
  untoleratedTaintReasonWithKey,
} from './taint-toleration.ts';
import { makeNode, makePod, tol } from '../testing/scheduler.ts';

const ctx: CycleContext = { allNodes: [], state: {}, listers: {} };

// Ported from staging/src/k8s.io/api/core/v1/toleration_test.go (TestTolerationToleratesTaint).
describe('toleratesTaint', () => {
  it.each<[string, Toleration, Taint, boolean]>([
    [
      'same key and effect, Exists, taint has no value',
      tol('foo', 'Exists', undefined, 'NoSchedule'),
      { key: 'foo', effect: 'NoSchedule' },
      true,
    ],
    [
      'same key and effect, Exists, taint has some value',
      tol('foo', 'Exists', undefined, 'NoSchedule'),
      { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      true,
    ],
    [
      'same effect, empty key with Exists matches all taints',
      tol('', 'Exists', undefined, 'NoSchedule'),
      { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      true,
    ],
    [
      'same key, effect and value, Equal',
      tol('foo', 'Equal', 'bar', 'NoSchedule'),
      { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      true,
    ],
    [
      'same key and effect, different values, Equal',
      tol('foo', 'Equal', 'value1', 'NoSchedule'),
      { key: 'foo', value: 'value2', effect: 'NoSchedule' },
      false,
    ],
    [
      'same key and value, different effects, Equal',
      tol('foo', 'Equal', 'bar', 'NoSchedule'),
      { key: 'foo', value: 'bar', effect: 'NoExecute' },
      false,
    ],
    [
      'empty operator means Equal',
      tol('foo', undefined, 'bar', 'NoSchedule'),
      { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      true,
    ],
    [
      'empty effect matches every effect',
      tol('foo', 'Equal', 'bar'),
      { key: 'foo', value: 'bar', effect: 'NoExecute' },
      true,
    ],
    [
      'empty key and effect with Exists tolerates everything',
      tol(undefined, 'Exists'),
      { key: 'x', value: 'y', effect: 'NoExecute' },
      true,
    ],
    ['different keys', tol('foo', 'Exists'), { key: 'bar', effect: 'NoSchedule' }, false],
  ])('%s → %s', (_n, t, taint, want) => {
    expect(toleratesTaint(t, taint)).toBe(want);
  });
});

// Ported from pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go (TestTaintTolerationFilter).
describe('TaintToleration Filter', () => {
  const dedicated = (value: string, effect: Taint['effect'] = 'NoSchedule'): Taint[] => [
    { key: 'dedicated', value, effect },
  ];
  it.each<[string, Toleration[] | undefined, Taint[], boolean]>([
    ['a pod having no tolerations cannot go onto a node with taints', undefined, dedicated('user1'), false],
    [
      'a pod tolerating dedicated=user1:NoSchedule fits',
      [tol('dedicated', 'Equal', 'user1', 'NoSchedule')],
      dedicated('user1'),
      true,
    ],
    [
      "a pod tolerating user2 doesn't fit a node for user1",
      [tol('dedicated', 'Equal', 'user2', 'NoSchedule')],
      dedicated('user1'),
      false,
    ],
    [
      'operator Exists tolerates the taint',
      [tol('foo', 'Exists', undefined, 'NoSchedule')],
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      true,
    ],
    [
      'multiple tolerations, multiple taints, all tolerated',
      [tol('dedicated', 'Equal', 'user2', 'NoSchedule'), tol('foo', 'Exists', undefined, 'NoSchedule')],
      [
        { key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      ],
      true,
    ],
    [
      'key and value match but effect does not',
      [tol('foo', 'Equal', 'bar', 'PreferNoSchedule')],
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      false,
    ],
    [
      'toleration with empty effect tolerates NoSchedule',
      [tol('foo', 'Equal', 'bar')],
      [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }],
      true,
    ],
    [
      'PreferNoSchedule taints never block',
      [tol('dedicated', 'Equal', 'user2', 'NoSchedule')],
      [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }],
      true,
    ],
    [
      'no toleration, PreferNoSchedule taint',
      undefined,
      [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }],
      true,
    ],
    ['NoExecute blocks as well', undefined, [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }], false],
  ])('%s', (_n, tolerations, taints, fits) => {
    const st = taintTolerationFilter.filter(
      makePod('p', [], { tolerations }),
      newNodeInfo(makeNode('n', undefined, { taints })),
      ctx,
    );
    expect(st.code).toBe(fits ? 'Success' : 'UnschedulableAndUnresolvable');
    if (!fits) expect(st.reasons).toEqual(['node(s) had untolerated taint(s)']);
  });

  it('names the first untolerated taint in the pre-1.35 format', () => {
    const taints: Taint[] = [
      { key: 'a', value: 'x', effect: 'PreferNoSchedule' },
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
    ];
    const st = taintTolerationFilter.filter(makePod('p'), newNodeInfo(makeNode('n', undefined, { taints })), {
      ...ctx,
      taintReasonWithKey: true,
    });
    expect(st.reasons).toEqual(['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }']);
    expect(untoleratedTaintReasonWithKey({ key: 'dedicated', value: 'user1' })).toBe(
      'node(s) had untolerated taint {dedicated: user1}',
    );
  });
});

// Ported from taint_toleration_test.go (TestTaintTolerationScore).
describe('TaintToleration Score', () => {
  function scores(tolerations: Toleration[] | undefined, nodeTaints: Taint[][]): number[] {
    const pod = makePod('p', [], { tolerations });
    const raw = nodeTaints.map((taints, i) =>
      taintTolerationScore.score(pod, newNodeInfo(makeNode(`n${i}`, undefined, { taints })), ctx),
    );
    taintTolerationScore.normalize!(raw, [], ctx);
    return raw;
  }
  it('a node whose taints are tolerated scores higher', () => {
    expect(
      scores(
        [tol('foo', 'Equal', 'bar', 'PreferNoSchedule')],
        [
          [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }],
          [{ key: 'foo', value: 'blah', effect: 'PreferNoSchedule' }],
        ],
      ),
    ).toEqual([100, 0]);
  });
  it('nodes whose taints are all tolerated score the same however many taints they have', () => {
    const t = [
      tol('cpu-type', 'Equal', 'arm64', 'PreferNoSchedule'),
      tol('disk-type', 'Equal', 'ssd', 'PreferNoSchedule'),
    ];
    expect(
      scores(t, [
        [],
        [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }],
        [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ],
      ]),
    ).toEqual([100, 100, 100]);
  });
  it('the more intolerable taints a node has, the lower it scores', () => {
    const t = [tol('foo', 'Equal', 'bar', 'PreferNoSchedule')];
    expect(
      scores(t, [
        [],
        [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }],
        [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ],
      ]),
    ).toEqual([100, 50, 0]);
  });
  it('only PreferNoSchedule taints count, and only ""/PreferNoSchedule tolerations', () => {
    const t = [tol('cpu-type', 'Equal', 'arm64', 'NoSchedule')];
    expect(
      scores(t, [
        [],
        [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }],
        [{ key: 'x', value: 'y', effect: 'NoSchedule' }],
      ]),
    ).toEqual([100, 0, 100]);
  });
});
