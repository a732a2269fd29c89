import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Taint } from './k8s-types.ts';
import type { CycleContext, Rng } from './framework.ts';
import { addPod, newNodeInfo } from './node-info.ts';
import {
  DEFAULT_FILTER_PLUGINS,
  failedRecord,
  failedSchedulingMessage,
  fitErrorMessage,
  newBinding,
  numFeasibleNodesToFind,
  runFilterPlugins,
  scheduledEventMessage,
  truncateMessage,
} from './profile.ts';
import type { FitError } from './profile.ts';
import { schedulePod, selectHost } from './schedule-one.ts';
import { PREEMPTION_EVALUATOR } from './preemption-evaluator.ts';
import { arbCluster, arbPod, build } from '../testing/scheduler-arbitraries.ts';
import { makeNode, makePod, seededRng } from '../testing/scheduler.ts';
import { runs } from '../../test/fc.ts';

const cp: Taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };

function fitErrorOf(r: ReturnType<typeof schedulePod>): FitError {
  if (!('fitError' in r.result)) throw new Error(`expected a fit error, got ${JSON.stringify(r.result)}`);
  return r.result.fitError;
}

// Ported from pkg/scheduler/schedule_one_test.go (TestNumFeasibleNodesToFind).
describe('numFeasibleNodesToFind', () => {
  it.each([
    ['not set percentageOfNodesToScore and nodes number not more than 50', 0, 10, 10],
    ['set percentageOfNodesToScore and nodes number not more than 50', 40, 10, 10],
    ['not set percentageOfNodesToScore and nodes number more than 50', 0, 1000, 420],
    ['set percentageOfNodesToScore and nodes number more than 50', 40, 1000, 400],
    ['not set percentageOfNodesToScore and nodes number more than 50*125', 0, 6000, 300],
    ['set percentageOfNodesToScore and nodes number more than 50*125', 40, 6000, 2400],
    ['exactly 100 nodes: never fewer than 100', 0, 100, 100],
  ])('%s', (_n, pct, nodes, want) => {
    expect(numFeasibleNodesToFind(pct, nodes)).toBe(want);
  });
});

describe('selectHost (reservoir sampling)', () => {
  const totals = [10, 20, 20, 5, 20].map((total, i) => ({ node: `n${i}`, total }));
  const always = (v: number): Rng & { calls: number[] } => {
    const r = { calls: [] as number[], int: (n: number) => (r.calls.push(n), v) };
    return r;
  };
  it('replaces the pick with probability 1/count: always 0 → the last tie', () => {
    const rng = always(0);
    expect(selectHost(totals, rng)).toBe('n4');
    expect(rng.calls).toEqual([2, 3]); // one draw per extra tie, Intn(cntOfMaxScore)
  });
  it('never 0 → the first node with the top score', () => {
    expect(selectHost(totals, always(1))).toBe('n1');
  });
  it('a single top node uses no randomness', () => {
    const rng = always(0);
    expect(
      selectHost(
        [
          { node: 'a', total: 1 },
          { node: 'b', total: 3 },
        ],
        rng,
      ),
    ).toBe('b');
    expect(rng.calls).toEqual([]);
  });
});

describe('schedulePod', () => {
  const workers = () => ['node-1', 'node-2', 'node-3'].map((n) => newNodeInfo(makeNode(n)));

  it('picks the emptiest node and records why', () => {
    const nodes = workers();
    addPod(nodes[0], makePod('busy', [{ cpu: '2', memory: '2Gi' }]));
    addPod(nodes[2], makePod('half', [{ cpu: '1', memory: '1Gi' }]));
    const r = schedulePod(makePod('web-1', [{ cpu: '500m', memory: '256Mi' }]), nodes, seededRng(1));
    expect(r.result).toEqual({ node: 'node-2' });
    const n2 = r.perNode.find((p) => p.node === 'node-2')!;
    expect(n2.filter.map((f) => f.code)).toEqual(DEFAULT_FILTER_PLUGINS.map(() => 'Success'));
    expect(n2.scores.map((s) => [s.plugin, s.raw, s.normalized, s.weighted])).toEqual([
      ['TaintToleration', 0, 100, 300],
      ['NodeAffinity', 0, 0, 0], // skipped: no preferred terms
      // cpu (4000−500)·100/4000 = 87, memory (8192−256)·100/8192 = 96 → (87+96)/2 = 91
      ['NodeResourcesFit', 91, 91, 91],
      ['PodTopologySpread', 0, 0, 0], // skipped: nothing selects the pod
      // with the pod: fractions 0.125 and 0.03125 → std 0.046875 → 95; the empty node without it: 100;
      // the change in balance (1.36+): 50 + (50 + 95 − 100) / 2 = 72
      ['NodeResourcesBalancedAllocation', 72, 72, 72],
    ]);
    expect(n2.total).toBe(n2.scores.reduce((a, s) => a + s.weighted, 0));
    expect(r.perNode.map((p) => p.node)).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('skips scoring when a single node fits', () => {
    const nodes = [newNodeInfo(makeNode('control-plane', undefined, { taints: [cp] })), ...workers().slice(0, 1)];
    const r = schedulePod(makePod('p'), nodes, seededRng(1));
    expect(r.result).toEqual({ node: 'node-1' });
    expect(r.perNode[1]).toMatchObject({ node: 'node-1', scores: [] });
  });

  it('breaks ties with the injected rng, deterministically per seed', () => {
    const pick = (seed: number) =>
      (schedulePod(makePod('p'), workers(), seededRng(seed)).result as { node: string }).node;
    expect(pick(7)).toBe(pick(7));
    const seen = new Set(Array.from({ length: 40 }, (_, s) => pick(s)));
    expect([...seen].sort()).toEqual(['node-1', 'node-2', 'node-3']);
    const rng = seededRng(3);
    schedulePod(makePod('p'), workers(), rng);
    expect(rng.draws).toBe(2);
  });

  it('rotates nextStartNodeIndex by the number of nodes processed', () => {
    const nodes = Array.from({ length: 200 }, (_, i) => newNodeInfo(makeNode(`n${i}`)));
    const r1 = schedulePod(makePod('p'), nodes, seededRng(1), { nextStartNodeIndex: 0 });
    expect(r1.evaluatedNodes).toBe(100);
    expect(r1.feasibleNodes).toBe(100);
    expect(r1.nextStartNodeIndex).toBe(100);
    expect(r1.perNode).toHaveLength(100);
    expect(r1.perNode[0].node).toBe('n0');
    const r2 = schedulePod(makePod('p'), nodes, seededRng(1), { nextStartNodeIndex: r1.nextStartNodeIndex });
    expect(r2.nextStartNodeIndex).toBe(0);
    expect(r2.perNode[0].node).toBe('n100');
  });

  it('builds FailedScheduling like FitError.Error(), with the preemption tail', () => {
    const nodes = [
      newNodeInfo(makeNode('control-plane', undefined, { taints: [cp] })),
      newNodeInfo(makeNode('node-1', { cpu: '2', memory: '4Gi' })),
      newNodeInfo(
        makeNode('node-2', undefined, { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] }),
      ),
    ];
    const r = schedulePod(makePod('big', [{ cpu: '3' }]), nodes, seededRng(1));
    const fe = fitErrorOf(r);
    expect(fe.message).toBe(
      '0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint(s). ' +
        'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    expect(Object.keys(fe.nodeToStatus)).toHaveLength(3);
    expect(fe.unschedulablePlugins).toEqual(['NodeResourcesFit', 'TaintToleration']);
  });

  it('says "No preemption victims" where evicting could help but nothing has lower priority', () => {
    const nodes = workers();
    for (const ni of nodes) addPod(ni, makePod(`hog-${ni.name}`, [{ cpu: '3500m' }]));
    const r = schedulePod(makePod('web', [{ cpu: '1', memory: '100Mi' }]), nodes, seededRng(1), {
      taintReasonWithKey: true,
    });
    expect(failedSchedulingMessage(fitErrorOf(r))).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
  });

  it('mixes reasons per node and sorts the histogram as strings', () => {
    const nodes = [
      newNodeInfo(makeNode('a', { cpu: '1', memory: '1Gi', pods: '110' }, { labels: { disk: 'hdd' } })),
      newNodeInfo(makeNode('b', undefined, { unschedulable: true })),
      newNodeInfo(makeNode('c', undefined, { labels: { disk: 'ssd' } })),
    ];
    addPod(nodes[0], makePod('x', [{ cpu: '900m', memory: '900Mi' }]));
    const r = schedulePod(
      makePod('p', [{ cpu: '200m', memory: '200Mi' }], { nodeSelector: { disk: 'hdd' } }),
      nodes,
      seededRng(1),
      { taintReasonWithKey: true },
    );
    // b fails NodeUnschedulable before NodeAffinity: the framework stops at the first failing plugin.
    expect(fitErrorOf(r).message).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) were unschedulable. " +
        'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });

  it('names the taint when asked (pre-1.35 wording) and honours preemptionPolicy Never', () => {
    const nodes = [newNodeInfo(makeNode('control-plane', undefined, { taints: [cp] }))];
    const r = schedulePod(makePod('p', [], { preemptionPolicy: 'Never' }), nodes, seededRng(1), {
      taintReasonWithKey: true,
    });
    expect(fitErrorOf(r).message).toBe(
      '0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it('says where it will preempt when lower-priority pods could be evicted, and nominates that node', () => {
    const nodes = [newNodeInfo(makeNode('node-1', { cpu: '1', memory: '1Gi', pods: '110' }))];
    addPod(nodes[0], makePod('low', [{ cpu: '800m' }], { priority: 0 }));
    const r = schedulePod(makePod('high', [{ cpu: '500m' }], { priority: 1000 }), nodes, seededRng(1), {
      preemptionEvaluator: PREEMPTION_EVALUATOR,
    });
    // Evaluator.Preempt's success status, prefixed by DefaultPreemption.PostFilter (no full stop).
    expect(fitErrorOf(r).message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod on node node-1, preempting 1 victims',
    );
    expect(fitErrorOf(r).nominatedNodeName).toBe('node-1');
    expect(fitErrorOf(r).preemption?.victims.map((p) => p.metadata?.name)).toEqual(['low']);
    expect(
      schedulePod(makePod('high', [{ cpu: '500m' }], { priority: 1000 }), nodes, seededRng(1), { preemption: false })
        .result,
    ).toHaveProperty('fitError');
  });

  it('narrows to the node a DaemonSet-style pod pins with matchFields (NodeAffinity PreFilterResult)', () => {
    const pinned = (names: string[][]) =>
      makePod('ds-abcde', [], {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: names.map((values) => ({
                matchFields: [{ key: 'metadata.name', operator: 'In', values }],
              })),
            },
          },
        },
      });
    const nodes = [
      newNodeInfo(makeNode('node-1')),
      newNodeInfo(
        makeNode('node-2', undefined, { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] }),
      ),
      newNodeInfo(makeNode('node-3')),
    ];
    const r = schedulePod(pinned([['node-2']]), nodes, seededRng(1));
    expect(r.perNode.map((p) => p.node)).toEqual(['node-2']);
    expect(fitErrorOf(r).message).toBe(
      "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. " +
        'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    expect(schedulePod(pinned([['node-3']]), nodes, seededRng(1)).result).toEqual({ node: 'node-3' });
    // Two terms are ORed: both names are candidates.
    expect(schedulePod(pinned([['node-2'], ['node-3']]), nodes, seededRng(1)).perNode.map((p) => p.node)).toEqual([
      'node-2',
      'node-3',
    ]);
  });

  it('rejects at PreFilter when ANDed name requirements conflict', () => {
    const pod = makePod('p', [], {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchFields: [
                  { key: 'metadata.name', operator: 'In', values: ['node-1'] },
                  { key: 'metadata.name', operator: 'In', values: ['node-2'] },
                ],
              },
            ],
          },
        },
      },
    });
    const r = schedulePod(pod, [newNodeInfo(makeNode('node-1')), newNodeInfo(makeNode('node-2'))], seededRng(1));
    expect(fitErrorOf(r).message).toBe(
      '0/2 nodes are available: pod affinity terms conflict. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
  });

  it('reports no nodes', () => {
    expect(fitErrorOf(schedulePod(makePod('p'), [], seededRng(1))).message).toBe('no nodes available to schedule pods');
  });

  it('fitErrorMessage sorts "count reason" strings like sort.Strings', () => {
    const st = (reasons: string[]) => ({ plugin: 'X', code: 'Unschedulable' as const, reasons });
    const statuses = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`n${i}`, st([i < 10 ? 'b' : 'a'])]));
    expect(fitErrorMessage(12, statuses, '')).toBe('0/12 nodes are available: 10 b, 2 a.');
  });
});

describe('events and binding', () => {
  const pod = makePod('web-7c5ddbdf54-x2k9p', [], { uid: 'u-1' });
  it('Scheduled message', () => {
    expect(scheduledEventMessage(pod, 'node-2')).toBe('Successfully assigned default/web-7c5ddbdf54-x2k9p to node-2');
  });
  it('Binding as DefaultBinder builds it', () => {
    expect(newBinding(pod, 'node-2')).toEqual({
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'web-7c5ddbdf54-x2k9p', namespace: 'default', uid: 'u-1' },
      target: { kind: 'Node', name: 'node-2' },
    });
  });
  it('truncates at NoteLengthLimit', () => {
    const m = truncateMessage('x'.repeat(2000));
    expect(m).toHaveLength(1024);
    expect(m.endsWith(' ...')).toBe(true);
  });
});

describe('schedulePod properties', () => {
  it('the chosen node passes every filter; otherwise every node has exactly one status', () => {
    fc.assert(
      fc.property(arbCluster, arbPod, fc.integer({ min: 0, max: 1000 }), (cluster, pod, seed) => {
        const nodes = build(cluster);
        const r = schedulePod(pod, nodes, seededRng(seed));
        if ('node' in r.result) {
          const chosen = nodes.find((n) => n.name === (r.result as { node: string }).node)!;
          const ctx: CycleContext = { allNodes: nodes, state: {}, listers: {} };
          for (const pl of DEFAULT_FILTER_PLUGINS) pl.preFilter?.(pod, ctx);
          expect(failedRecord(runFilterPlugins(pod, chosen, ctx, DEFAULT_FILTER_PLUGINS))).toBeUndefined();
        } else {
          const fe = r.result.fitError;
          expect(fe.numAllNodes).toBe(nodes.length);
          expect(Object.keys(fe.nodeToStatus)).toHaveLength(nodes.length);
          const counted = [...fe.message.split(' preemption:')[0].matchAll(/(?:: |, )(\d+) /g)].reduce(
            (a, m) => a + Number(m[1]),
            0,
          );
          const reasons = Object.values(fe.nodeToStatus).reduce((a, s) => a + s.reasons.length, 0);
          expect(counted).toBe(reasons);
          expect(fe.message.startsWith(`0/${nodes.length} nodes are available: `)).toBe(true);
        }
      }),
      { numRuns: runs(0.3) },
    );
  });

  it('is a pure function of its inputs and the rng', () => {
    fc.assert(
      fc.property(arbCluster, arbPod, fc.integer(), (cluster, pod, seed) => {
        const a = schedulePod(pod, build(cluster), seededRng(seed));
        const b = schedulePod(pod, build(cluster), seededRng(seed));
        expect(a).toEqual(b);
      }),
      { numRuns: runs(0.1) },
    );
  });
});
