import { describe, expect, it } from 'vitest';
import type { NodeSelectorRequirement, NodeSelectorTerm } from './k8s-types.ts';
import type { CycleContext } from './framework.ts';
import { newNodeInfo } from './node-info.ts';
import {
  nodeAffinityFilter,
  nodeAffinityScore,
  nodeSelectorRequirementMatches,
  nodeSelectorTermMatches,
  requiredNodeAffinityMatches,
} from './node-affinity.ts';
import { makeNode, makePod } from '../testing/scheduler.ts';

const ctx: CycleContext = { allNodes: [], state: {}, listers: {} };
const labels = { foo: 'bar', kernel: '6', gpu: 'true', 'kubernetes.io/hostname': 'n1' };

// Operator cases after component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go and
// node_affinity_test.go (TestNodeAffinity).
describe('node selector requirement operators', () => {
  it.each<[NodeSelectorRequirement, boolean | undefined]>([
    [{ key: 'foo', operator: 'In', values: ['bar', 'value2'] }, true],
    [{ key: 'foo', operator: 'In', values: ['value1'] }, false],
    [{ key: 'missing', operator: 'In', values: ['x'] }, false],
    [{ key: 'foo', operator: 'NotIn', values: ['bar'] }, false],
    [{ key: 'foo', operator: 'NotIn', values: ['baz'] }, true],
    [{ key: 'missing', operator: 'NotIn', values: ['x'] }, true],
    [{ key: 'gpu', operator: 'Exists' }, true],
    [{ key: 'missing', operator: 'Exists' }, false],
    [{ key: 'gpu', operator: 'DoesNotExist' }, false],
    [{ key: 'missing', operator: 'DoesNotExist' }, true],
    [{ key: 'kernel', operator: 'Gt', values: ['5'] }, true],
    [{ key: 'kernel', operator: 'Gt', values: ['6'] }, false],
    [{ key: 'kernel', operator: 'Lt', values: ['7'] }, true],
    [{ key: 'kernel', operator: 'Lt', values: ['6'] }, false],
    [{ key: 'foo', operator: 'Gt', values: ['1'] }, false], // label "bar" is not an integer
    [{ key: 'missing', operator: 'Lt', values: ['1'] }, false],
    [{ key: 'kernel', operator: 'Gt', values: ['a'] }, undefined], // invalid requirement
    [{ key: 'kernel', operator: 'Gt', values: ['1', '2'] }, undefined],
    [{ key: 'foo', operator: 'In', values: [] }, undefined],
    [{ key: 'foo', operator: 'Exists', values: ['bar'] }, undefined],
  ])('%j → %s', (req, want) => {
    expect(nodeSelectorRequirementMatches(req, labels)).toBe(want);
  });
});

describe('NodeAffinity Filter', () => {
  const node = makeNode('n1', undefined, { labels: { foo: 'bar', zone: 'a' } });
  const ni = newNodeInfo(node);
  const required = (terms: NodeSelectorTerm[]) =>
    makePod('p', [], {
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } },
    });

  it.each<[string, ReturnType<typeof makePod>, boolean]>([
    ['no nodeSelector and no affinity', makePod('p'), true],
    ['nodeSelector matches', makePod('p', [], { nodeSelector: { foo: 'bar' } }), true],
    ['nodeSelector does not match', makePod('p', [], { nodeSelector: { foo: 'baz' } }), false],
    ['nodeSelector needs every label', makePod('p', [], { nodeSelector: { foo: 'bar', disk: 'ssd' } }), false],
    [
      'terms are ORed',
      required([
        { matchExpressions: [{ key: 'foo', operator: 'In', values: ['x'] }] },
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
      ]),
      true,
    ],
    [
      'expressions in a term are ANDed',
      required([
        {
          matchExpressions: [
            { key: 'foo', operator: 'In', values: ['bar'] },
            { key: 'zone', operator: 'In', values: ['b'] },
          ],
        },
      ]),
      false,
    ],
    ['an empty term matches nothing', required([{}]), false],
    ['no terms match nothing', required([]), false],
    [
      'matchFields metadata.name',
      required([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }]),
      true,
    ],
    [
      'matchFields other name',
      required([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }]),
      false,
    ],
  ])('%s', (_n, pod, fits) => {
    const st = nodeAffinityFilter.filter(pod, ni, ctx);
    expect(st.code === 'Success').toBe(fits);
    if (!fits)
      expect(st).toEqual({
        code: 'UnschedulableAndUnresolvable',
        reasons: ["node(s) didn't match Pod's node affinity/selector"],
      });
    expect(requiredNodeAffinityMatches(pod, node)).toBe(fits);
  });

  it('nodeSelectorTermMatches rejects an invalid requirement', () => {
    expect(nodeSelectorTermMatches({ matchExpressions: [{ key: 'foo', operator: 'Gt', values: ['x'] }] }, node)).toBe(
      false,
    );
  });
});

// node_affinity_test.go (TestNodeAffinityPriority): weights of matching preferred terms, max → 100.
describe('NodeAffinity Score', () => {
  it('sums preferred weights and normalizes by the max', () => {
    const pod = makePod('p', [], {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 2, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } },
            { weight: 4, preference: { matchExpressions: [{ key: 'key', operator: 'In', values: ['value'] }] } },
            {
              weight: 5,
              preference: {
                matchExpressions: [
                  { key: 'foo', operator: 'In', values: ['bar'] },
                  { key: 'key', operator: 'In', values: ['value'] },
                  { key: 'az', operator: 'In', values: ['az1'] },
                ],
              },
            },
          ],
        },
      },
    });
    const nodes = [
      makeNode('machine1', undefined, { labels: { foo: 'bar' } }),
      makeNode('machine5', undefined, { labels: { foo: 'bar', key: 'value', az: 'az1' } }),
      makeNode('machine2', undefined, { labels: { key: 'value' } }),
    ];
    expect(nodeAffinityScore.preScore!(pod, [], ctx)).toBe(true);
    const raw = nodes.map((n) => nodeAffinityScore.score(pod, newNodeInfo(n), ctx));
    expect(raw).toEqual([2, 11, 4]);
    nodeAffinityScore.normalize!(raw, [], ctx);
    expect(raw).toEqual([18, 100, 36]);
    expect(nodeAffinityScore.preScore!(makePod('q'), [], ctx)).toBe(false);
  });
});
