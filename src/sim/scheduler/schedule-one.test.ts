import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Node, Pod, ReplicaSet, Taint } from './k8s-types.ts';
import type { CycleContext, Rng } from './framework.ts';
import { addPod, newNodeInfo, removePod, setNode } from './node-info.ts';
import type { NodeInfo } from './node-info.ts';
import {
  DEFAULT_FILTER_PLUGINS,
  DEFAULT_SCORE_PLUGINS,
  failedRecord,
  failedSchedulingMessage,
  fitErrorMessage,
  localSignatureId,
  newBinding,
  numFeasibleNodesToFind,
  runFilterPlugins,
  scheduledEventMessage,
  schedulePod,
  selectHost,
  truncateMessage,
} from './schedule-one.ts';
import type { FitError } from './schedule-one.ts';
import { makeNode, makePod, seededRng, tol } from './test-helpers.ts';
import { runs } from '../../test/fc.ts';

// The default plugins in arrays of their own: schedulePod takes its general path (every plugin
// called per node, records built as it goes), the reference for the cached paths.
const reference = { filterPlugins: [...DEFAULT_FILTER_PLUGINS], scorePlugins: [...DEFAULT_SCORE_PLUGINS] };

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
    expect(selectHost([{ node: 'a', total: 1 }, { node: 'b', total: 3 }], rng)).toBe('b');
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
      // fractions 0.125 and 0.03125 → std 0.046875 → 95
      ['NodeResourcesBalancedAllocation', 95, 95, 95],
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
    const pick = (seed: number) => (schedulePod(makePod('p'), workers(), seededRng(seed)).result as { node: string }).node;
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
      newNodeInfo(makeNode('node-2', undefined, { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] })),
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
    const r = schedulePod(makePod('web', [{ cpu: '1', memory: '100Mi' }]), nodes, seededRng(1), { taintReasonWithKey: true });
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
    const r = schedulePod(makePod('p', [{ cpu: '200m', memory: '200Mi' }], { nodeSelector: { disk: 'hdd' } }), nodes, seededRng(1), { taintReasonWithKey: true });
    // b fails NodeUnschedulable before NodeAffinity: the framework stops at the first failing plugin.
    expect(fitErrorOf(r).message).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) were unschedulable. " +
        'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });

  it('names the taint when asked (pre-1.35 wording) and honours preemptionPolicy Never', () => {
    const nodes = [newNodeInfo(makeNode('control-plane', undefined, { taints: [cp] }))];
    const r = schedulePod(makePod('p', [], { preemptionPolicy: 'Never' }), nodes, seededRng(1), { taintReasonWithKey: true });
    expect(fitErrorOf(r).message).toBe(
      '0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it('leaves the tail off when lower-priority pods could be evicted', () => {
    const nodes = [newNodeInfo(makeNode('node-1', { cpu: '1', memory: '1Gi', pods: '110' }))];
    addPod(nodes[0], makePod('low', [{ cpu: '800m' }], { priority: 0 }));
    const r = schedulePod(makePod('high', [{ cpu: '500m' }], { priority: 1000 }), nodes, seededRng(1));
    expect(fitErrorOf(r).message).toBe('0/1 nodes are available: 1 Insufficient cpu.');
    expect(schedulePod(makePod('high', [{ cpu: '500m' }], { priority: 1000 }), nodes, seededRng(1), { preemption: false }).result).toHaveProperty('fitError');
  });

  it('narrows to the node a DaemonSet-style pod pins with matchFields (NodeAffinity PreFilterResult)', () => {
    const pinned = (names: string[][]) =>
      makePod('ds-abcde', [], {
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: names.map((values) => ({ matchFields: [{ key: 'metadata.name', operator: 'In', values }] })) } } },
      });
    const nodes = [
      newNodeInfo(makeNode('node-1')),
      newNodeInfo(makeNode('node-2', undefined, { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] })),
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
    expect(schedulePod(pinned([['node-2'], ['node-3']]), nodes, seededRng(1)).perNode.map((p) => p.node)).toEqual(['node-2', 'node-3']);
  });

  it('rejects at PreFilter when ANDed name requirements conflict', () => {
    const pod = makePod('p', [], {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }, { key: 'metadata.name', operator: 'In', values: ['node-2'] }] }],
          },
        },
      },
    });
    const r = schedulePod(pod, [newNodeInfo(makeNode('node-1')), newNodeInfo(makeNode('node-2'))], seededRng(1));
    expect(fitErrorOf(r).message).toBe('0/2 nodes are available: pod affinity terms conflict. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.');
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

// Properties over random small clusters.
const arbTaint = fc.record({
  key: fc.constantFrom('a', 'b', 'node-role.kubernetes.io/control-plane'),
  value: fc.constantFrom('', 'x'),
  effect: fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule'),
}) as fc.Arbitrary<Taint>;

const arbNode = (i: number): fc.Arbitrary<{ node: Node; pods: Pod[] }> =>
  fc
    .record({
      cpu: fc.constantFrom('500m', '1', '2', '4'),
      mem: fc.constantFrom('512Mi', '1Gi', '4Gi'),
      maxPods: fc.integer({ min: 0, max: 4 }),
      taints: fc.array(arbTaint, { maxLength: 2 }),
      zone: fc.constantFrom('z1', 'z2'),
      disk: fc.constantFrom('ssd', 'hdd'),
      unschedulable: fc.boolean(),
      pods: fc.array(fc.record({ cpu: fc.constantFrom('100m', '300m', '1'), port: fc.constantFrom(0, 80) }), { maxLength: 3 }),
    })
    .map((r) => ({
      node: makeNode(`node-${i}`, { cpu: r.cpu, memory: r.mem, pods: String(r.maxPods) }, {
        taints: r.taints,
        labels: { 'topology.kubernetes.io/zone': r.zone, disk: r.disk },
        unschedulable: r.unschedulable,
      }),
      pods: r.pods.map((p, j) => {
        const pod = makePod(`e-${i}-${j}`, [{ cpu: p.cpu }], { labels: { app: 'web' } });
        if (p.port) pod.spec!.containers[0].ports = [{ containerPort: 80, hostPort: p.port }];
        return pod;
      }),
    }));

const arbCluster = fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbNode(i))));

const arbPod = fc
  .record({
    cpu: fc.constantFrom('0', '100m', '700m', '3'),
    tolerate: fc.boolean(),
    disk: fc.constantFrom(undefined, 'ssd', 'hdd'),
    port: fc.constantFrom(0, 80),
    spread: fc.boolean(),
  })
  .map((r) => {
    const pod = makePod('incoming', [{ cpu: r.cpu }], {
      labels: { app: 'web' },
      tolerations: r.tolerate ? [tol('a', 'Exists')] : undefined,
      nodeSelector: r.disk ? { disk: r.disk } : undefined,
      topologySpreadConstraints: r.spread
        ? [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }]
        : undefined,
    });
    if (r.port) pod.spec!.containers[0].ports = [{ containerPort: 80, hostPort: r.port }];
    return pod;
  });

function build(cluster: { node: Node; pods: Pod[] }[]): NodeInfo[] {
  return cluster.map((c) => newNodeInfo(c.node, c.pods));
}

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
          const counted = [...fe.message.split(' preemption:')[0].matchAll(/(?:: |, )(\d+) /g)].reduce((a, m) => a + Number(m[1]), 0);
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

describe('schedulePod without records', () => {
  it('picks the same nodes with the same rng draws as the full run, pod after pod', () => {
    fc.assert(
      fc.property(arbCluster, fc.array(arbPod, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 1000 }), (cluster, pods, seed) => {
        // Two copies of the cluster, each taking the pods it places (so node caches see changes).
        const full = build(cluster);
        const lean = build(cluster);
        const rf = seededRng(seed);
        const rl = seededRng(seed);
        let nf = 0;
        let nl = 0;
        pods.forEach((p, k) => {
          const pod = { ...p, metadata: { ...p.metadata, name: `incoming-${k}`, uid: `uid-incoming-${k}` } };
          const a = schedulePod(pod, full, rf, { ...reference, nextStartNodeIndex: nf, dynamicResources: true });
          const b = schedulePod(pod, lean, rl, { nextStartNodeIndex: nl, dynamicResources: true, record: 'none' });
          expect(b.perNode).toEqual([]);
          expect(b.result).toEqual(a.result);
          expect([b.nextStartNodeIndex, b.evaluatedNodes, b.feasibleNodes]).toEqual([a.nextStartNodeIndex, a.evaluatedNodes, a.feasibleNodes]);
          expect(rl.draws).toBe(rf.draws);
          nf = a.nextStartNodeIndex;
          nl = b.nextStartNodeIndex;
          if ('node' in a.result) {
            const node = a.result.node;
            addPod(full.find((n) => n.name === node)!, { ...pod, spec: { ...pod.spec!, nodeName: node } });
            addPod(lean.find((n) => n.name === node)!, { ...pod, spec: { ...pod.spec!, nodeName: node } });
          }
        });
      }),
      { numRuns: runs(0.3) },
    );
  });

  it('puts DynamicResources\' PostFilter reason before preemption, as 1.34+ with DRA on', () => {
    const nodes = [1, 2, 3].map((i) => newNodeInfo(makeNode(`node-${i}`, { cpu: '4', memory: '8Gi', pods: '110' }), [makePod(`db-${i}`, [{ cpu: '3' }])]));
    const r = schedulePod(makePod('web', [{ cpu: '2' }]), nodes, seededRng(1), { dynamicResources: true });
    expect('fitError' in r.result && r.result.fitError.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
  });
});

// The lean path (flat per-slot caches, batch scoring) against the full path (every plugin called
// per node, with records) on clusters big enough for the partial walk (numFeasibleNodesToFind), with
// default spreading from ReplicaSets, pods coming and going and nodes relabelled between cycles.
describe('schedulePod flat caches', () => {
  const ZONE = 'topology.kubernetes.io/zone';
  const replicaSets: ReplicaSet[] = ['a', 'b', 'c'].flatMap((app) => ['default', 'other'].map((ns) => ({
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: `rs-${app}`, namespace: ns },
    spec: { selector: { matchLabels: { app } }, template: {} },
  }) as ReplicaSet));
  const listers = { replicaSets, services: [] };
  const arbBigNode = fc.record({
    cpu: fc.constantFrom('1', '2', '4'),
    maxPods: fc.constantFrom('1', '2', '6', '110'),
    zone: fc.constantFrom(undefined, 'z1', 'z2', 'z3'),
    prefer: fc.boolean(),
  });
  const arbIncoming = fc.record({
    app: fc.constantFrom('a', 'b', 'c'),
    ns: fc.constantFrom('default', 'other'),
    cpu: fc.constantFrom('10m', '100m', '700m'),
    spread: fc.constantFrom('none', 'none', 'soft', 'hard'),
    tolerate: fc.boolean(),
  });
  const arbStep = fc.record({
    pod: arbIncoming,
    remove: fc.option(fc.nat(), { freq: 4 }),
    relabel: fc.option(fc.record({ node: fc.nat(), zone: fc.constantFrom(undefined, 'z1', 'z4') }), { freq: 6 }),
  });
  const nodeOf = (i: number, r: { cpu: string; maxPods: string; zone?: string; prefer: boolean }) =>
    makeNode(`node-${i}`, { cpu: r.cpu, memory: '8Gi', pods: r.maxPods }, {
      labels: r.zone ? { [ZONE]: r.zone } : {},
      taints: r.prefer ? [{ key: 'x', value: 'y', effect: 'PreferNoSchedule' }] : undefined,
    });

  it('gives the same node, the same counts and the same rng draws as the full path', () => {
    fc.assert(
      fc.property(fc.array(arbBigNode, { minLength: 101, maxLength: 140 }), fc.array(arbStep, { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 1000 }), fc.boolean(), (specs, steps, seed, uniform) => {
        const full = specs.map((r, i) => newNodeInfo(nodeOf(i, r)));
        const lean = specs.map((r, i) => newNodeInfo(nodeOf(i, r)));
        const rf = seededRng(seed);
        const rl = seededRng(seed);
        const rc = seededRng(seed);
        let nf = 0;
        let nl = 0;
        const placed: { pod: Pod; node: number }[] = [];
        steps.forEach((st, k) => {
          // Uniform pods share one node-local signature, as a ReplicaSet's do (the all-pass walk).
          const q = uniform ? { ...st.pod, cpu: '10m', tolerate: false, spread: 'none' } : st.pod;
          const pod = makePod(`${q.app}-${k}`, [{ cpu: q.cpu, memory: '16Mi' }], {
            namespace: q.ns,
            labels: { app: q.app },
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${q.app}`, uid: 'u', controller: true }],
            tolerations: q.tolerate ? [tol('x', 'Exists')] : undefined,
            topologySpreadConstraints: q.spread === 'none' ? undefined : [
              { maxSkew: 2, topologyKey: ZONE, whenUnsatisfiable: q.spread === 'hard' ? 'DoNotSchedule' : 'ScheduleAnyway', labelSelector: { matchLabels: { app: q.app } } },
              { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: q.app } } },
            ],
          });
          const a = schedulePod(pod, full, rf, { ...reference, nextStartNodeIndex: nf, listers, dynamicResources: true });
          // The records from the flat cache, over the lean list (whose caches the record-less cycles share).
          const c = schedulePod(pod, lean, rc, { nextStartNodeIndex: nl, listers, dynamicResources: true });
          const b = schedulePod(pod, lean, rl, { nextStartNodeIndex: nl, listers, dynamicResources: true, record: 'none' });
          expect(c.perNode).toEqual(a.perNode);
          expect(c.result).toEqual(a.result);
          expect(rc.draws).toBe(rf.draws);
          expect([c.nextStartNodeIndex, c.evaluatedNodes, c.feasibleNodes]).toEqual([a.nextStartNodeIndex, a.evaluatedNodes, a.feasibleNodes]);
          expect(b.result).toEqual(a.result);
          expect([b.nextStartNodeIndex, b.evaluatedNodes, b.feasibleNodes]).toEqual([a.nextStartNodeIndex, a.evaluatedNodes, a.feasibleNodes]);
          expect(rl.draws).toBe(rf.draws);
          nf = a.nextStartNodeIndex;
          nl = b.nextStartNodeIndex;
          if ('node' in a.result) {
            const i = Number(a.result.node.slice('node-'.length));
            const bound = { ...pod, spec: { ...pod.spec!, nodeName: a.result.node } };
            addPod(full[i], bound);
            addPod(lean[i], bound);
            placed.push({ pod: bound, node: i });
          }
          if (st.remove !== null && placed.length > 0) {
            const [gone] = placed.splice(st.remove % placed.length, 1);
            removePod(full[gone.node], gone.pod);
            removePod(lean[gone.node], gone.pod);
          }
          if (st.relabel !== null) {
            const i = st.relabel.node % specs.length;
            const node = nodeOf(i, { ...specs[i], zone: st.relabel.zone });
            setNode(full[i], node);
            setNode(lean[i], node);
          }
        });
      }),
      { numRuns: runs(0.04) },
    );
  });
});

describe('localSignatureId', () => {
  it('gives equal ids exactly to pods whose node-local inputs are equal, whatever came before', () => {
    const base = (name: string, extra: Parameters<typeof makePod>[2] = {}) => makePod(name, [{ cpu: '10m', memory: '16Mi' }], extra);
    const pods = [
      base('a', { tolerations: [tol('x', 'Exists')] }),
      base('b', { tolerations: [tol('x', 'Exists')] }),
      base('c', { tolerations: [tol('x', 'Exists', undefined, 'NoSchedule')] }),
      base('d', { tolerations: [tol('x', 'Exists')] }),
      base('e'),
      base('f', { nodeSelector: { disk: 'ssd' } }),
      base('g', { nodeSelector: { disk: 'ssd' } }),
      base('h', { nodeSelector: { disk: 'hdd' } }),
      makePod('i', [{ cpu: '20m', memory: '16Mi' }], { tolerations: [tol('x', 'Exists')] }),
      base('j', { tolerations: [tol('x', 'Exists')], priority: 5 }),
      base('k', { tolerations: [tol('x', 'Exists')] }),
    ];
    const ids = pods.map((p) => localSignatureId(p, false));
    const group = (i: number) => ids.indexOf(ids[i]);
    expect(pods.map((_, i) => group(i))).toEqual([0, 0, 2, 0, 4, 5, 5, 7, 8, 9, 0]);
    expect(localSignatureId(pods[0], true)).not.toBe(ids[0]);
  });
});
