import { describe, expect, it } from 'vitest';
import { addPod, computePodResource, newNodeInfo, removePod } from './node-info.ts';
import {
  balancedAllocationScore,
  balancedResourceScorer,
  leastAllocatedScorer,
  nodeResourcesBalancedAllocationScore,
  nodeResourcesFitFilter,
  nodeResourcesFitScore,
} from './node-resources.ts';
import type { CycleContext } from './framework.ts';
import { makeNode, makePod } from '../testing/scheduler.ts';

const ctx: CycleContext = { allNodes: [], state: {}, listers: {} };

function nodeWith(name: string, cpu: string, memory: string, podRequests: Record<string, string>[]) {
  return newNodeInfo(
    makeNode(name, { cpu, memory, pods: '110' }),
    podRequests.map((r, i) => makePod(`${name}-p${i}`, [r])),
  );
}

// Ported from pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go (TestLeastAllocatedScoringStrategy).
describe('NodeResourcesFit LeastAllocated', () => {
  const twoContainers = [
    { cpu: '1000', memory: '2000' },
    { cpu: '2000', memory: '3000' },
  ];
  it.each([
    [
      'nothing scheduled, nothing requested',
      [],
      [
        ['4000', '10000', []],
        ['4000', '10000', []],
      ],
      [100, 100],
    ],
    [
      'nothing scheduled, resources requested, differently sized nodes',
      twoContainers,
      [
        ['4000', '10000', []],
        ['6000', '10000', []],
      ],
      [37, 50],
    ],
    [
      'no resources requested, pods scheduled with resources',
      [],
      [
        [
          '10000',
          '20000',
          [
            { cpu: '3000', memory: '0' },
            { cpu: '3000', memory: '0' },
          ],
        ],
        [
          '10000',
          '20000',
          [
            { cpu: '3000', memory: '0' },
            { cpu: '3000', memory: '5000' },
          ],
        ],
      ],
      [70, 57],
    ],
    [
      'resources requested, pods scheduled with resources',
      twoContainers,
      [
        ['10000', '20000', [{ cpu: '3000', memory: '0' }]],
        ['10000', '20000', [{ cpu: '3000', memory: '5000' }]],
      ],
      [57, 45],
    ],
    [
      'resources requested, pods scheduled with resources, differently sized nodes',
      twoContainers,
      [
        ['10000', '20000', [{ cpu: '3000', memory: '0' }]],
        ['10000', '50000', [{ cpu: '3000', memory: '5000' }]],
      ],
      [57, 60],
    ],
    [
      'requested resources exceed node capacity',
      [{ cpu: '3000', memory: '0' }],
      [
        ['4000', '10000', [{ cpu: '3000', memory: '0' }]],
        ['4000', '10000', [{ cpu: '3000', memory: '5000' }]],
      ],
      [50, 25],
    ],
  ] as const)('%s', (_name, req, nodes, expected) => {
    const pod = makePod(
      'incoming',
      req.map((r) => ({ ...r })),
    );
    const scores = nodes.map(([cpu, mem, pods], i) =>
      nodeResourcesFitScore.score(
        pod,
        nodeWith(
          `node${i + 1}`,
          cpu,
          mem,
          pods.map((p) => ({ ...p })),
        ),
        ctx,
      ),
    );
    expect(scores).toEqual(expected);
  });

  it('weights memory 2 : cpu 1 (37 → 41)', () => {
    // "nothing scheduled, resources requested with different weight on CPU and memory"
    expect(leastAllocatedScorer([3000, 5000], [4000, 10000], [1, 2])).toBe(41);
    expect(leastAllocatedScorer([3000, 5000], [6000, 10000], [1, 2])).toBe(50);
  });

  it('uses 100m / 200Mi for containers without requests, but keeps an explicit 0', () => {
    const none = makePod('p', [{}]);
    expect(computePodResource(none).nonZero).toEqual({ milliCPU: 100, memory: 200 * 1024 * 1024 });
    expect(computePodResource(none).requests).toEqual({ milliCPU: 0, memory: 0 });
    const zero = makePod('z', [{ cpu: '0', memory: '0' }]);
    expect(computePodResource(zero).nonZero).toEqual({ milliCPU: 0, memory: 0 });
  });
});

// Ported from balanced_allocation_test.go (TestNodeResourcesBalancedAllocation), with the 1.36+
// score of the change in balance (kubernetes#135573): 50 + (50 + with − without) / 2.
describe('NodeResourcesBalancedAllocation', () => {
  it('nothing scheduled, resources requested, differently sized nodes: 68 and 75', () => {
    const pod = makePod('p', [
      { cpu: '1000', memory: '2000' },
      { cpu: '2000', memory: '3000' },
    ]);
    // node1: without the pod 0 and 0 → 100; with it 0.75 and 0.5, std 0.125 → 87; 50 + (50 + 87 − 100) / 2 = 68.
    expect(nodeResourcesBalancedAllocationScore.score(pod, nodeWith('node1', '4000', '10000', []), ctx)).toBe(68);
    // node2: 100 without, 0.5 and 0.5 → 100 with: no change, 75.
    expect(nodeResourcesBalancedAllocationScore.score(pod, nodeWith('node2', '6000', '10000', []), ctx)).toBe(75);
  });

  it('resources requested, pods scheduled with resources: 73 and 74', () => {
    const pod = makePod('p', [
      { cpu: '1000', memory: '2000' },
      { cpu: '2000', memory: '3000' },
    ]);
    // node1: 0.3 and 0 → 85 without; 0.6 and 0.25 → 82 with; 50 + (50 + 82 − 85) / 2 = 73.
    expect(
      nodeResourcesBalancedAllocationScore.score(
        pod,
        nodeWith('node1', '10000', '20000', [{ cpu: '3000', memory: '0' }]),
        ctx,
      ),
    ).toBe(73);
    // node2: 0.3 and 0.25 → 97 without; 0.6 and 0.5 → 95 with; 50 + (50 + 95 − 97) / 2 = 74.
    expect(
      nodeResourcesBalancedAllocationScore.score(
        pod,
        nodeWith('node2', '10000', '20000', [{ cpu: '3000', memory: '5000' }]),
        ctx,
      ),
    ).toBe(74);
  });

  it('balancedAllocationScore: 75 for no change, 100 and 50 at the ends', () => {
    expect(balancedAllocationScore(90, 90)).toBe(75);
    expect(balancedAllocationScore(100, 50)).toBe(100);
    expect(balancedAllocationScore(50, 100)).toBe(50);
    expect(balancedAllocationScore(87, 100)).toBe(68); // 37 / 2 truncates
  });

  it('caps fractions at 1 and uses the population std for 3+ resources', () => {
    expect(balancedResourceScorer([6000, 5000], [4000, 10000])).toBe(75);
    expect(balancedResourceScorer([1, 1, 1], [2, 4, 4])).toBe(88);
  });

  it('skips best-effort pods (kubernetes#129138)', () => {
    expect(nodeResourcesBalancedAllocationScore.preScore!(makePod('be', [{}]), [], ctx)).toBe(false);
    expect(nodeResourcesBalancedAllocationScore.preScore!(makePod('bu', [{ cpu: '100m' }]), [], ctx)).toBe(true);
  });
});

// fit_test.go (TestEnoughRequests) style: reasons and codes.
describe('NodeResourcesFit Filter', () => {
  it('reports every insufficient resource, cpu before memory', () => {
    const ni = nodeWith('n', '1', '1Gi', [{ cpu: '800m', memory: '900Mi' }]);
    expect(nodeResourcesFitFilter.filter(makePod('p', [{ cpu: '300m', memory: '200Mi' }]), ni, ctx)).toEqual({
      code: 'Unschedulable',
      reasons: ['Insufficient cpu', 'Insufficient memory'],
    });
  });

  it('is unresolvable when the request exceeds the whole node', () => {
    const ni = nodeWith('n', '1', '1Gi', []);
    expect(nodeResourcesFitFilter.filter(makePod('p', [{ cpu: '2' }]), ni, ctx)).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['Insufficient cpu'],
    });
  });

  it('counts pods against allocatable pods', () => {
    const ni = newNodeInfo(makeNode('n', { cpu: '4', memory: '8Gi', pods: '2' }), [makePod('a'), makePod('b')]);
    expect(nodeResourcesFitFilter.filter(makePod('p'), ni, ctx)).toEqual({
      code: 'Unschedulable',
      reasons: ['Too many pods'],
    });
  });

  it('keeps totals incremental across add and remove', () => {
    const ni = nodeWith('n', '4', '8Gi', []);
    const p = makePod('x', [{ cpu: '250m', memory: '64Mi' }, {}]);
    addPod(ni, p);
    expect(ni.requested).toMatchObject({ milliCPU: 250, memory: 64 * 1024 * 1024 });
    expect(ni.nonZeroRequested).toMatchObject({ milliCPU: 350, memory: 264 * 1024 * 1024 });
    expect(removePod(ni, p)).toBe(true);
    expect(ni.requested).toMatchObject({ milliCPU: 0, memory: 0 });
    expect(ni.pods).toHaveLength(0);
  });
});
