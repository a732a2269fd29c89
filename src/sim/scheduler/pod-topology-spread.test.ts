import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from './k8s-types.ts';
import type { CycleContext } from './framework.ts';
import { addPod, newNodeInfo, removePod, setNode } from './node-info.ts';
import type { NodeInfo } from './node-info.ts';
import {
  buildDefaultConstraints,
  domainCounts,
  filterTopologySpreadConstraints,
  matchCounter,
  podTopologySpreadFilter,
  podTopologySpreadScore,
  scoreForCount,
  topologyNormalizingWeight,
} from './pod-topology-spread.ts';
import { makeNode, makePod } from '../testing/scheduler.ts';

function fooPod(name: string, extra: Parameters<typeof makePod>[2] = {}) {
  return makePod(name, [], { labels: { foo: '' }, ...extra });
}

const zoneConstraint = (maxSkew: number, key = 'zone') => ({
  maxSkew,
  topologyKey: key,
  whenUnsatisfiable: 'DoNotSchedule' as const,
  labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Exists' as const }] },
});

// Cluster layout of filtering_test.go (TestSingleConstraint): zone1 = node-a, node-b; zone2 = node-x, node-y.
function cluster(counts: Record<string, number>, extraNodes: NodeInfo[] = []): NodeInfo[] {
  const zones: Record<string, string> = { 'node-a': 'zone1', 'node-b': 'zone1', 'node-x': 'zone2', 'node-y': 'zone2' };
  return [
    ...Object.entries(zones).map(([n, z]) =>
      newNodeInfo(
        makeNode(n, undefined, { labels: { zone: z, node: n } }),
        Array.from({ length: counts[n] ?? 0 }, (_, i) => fooPod(`${n}-p${i}`)),
      ),
    ),
    ...extraNodes,
  ];
}

function runFilter(pod: ReturnType<typeof makePod>, nodes: NodeInfo[]): Record<string, string> {
  const ctx: CycleContext = { allNodes: nodes, state: {}, listers: {} };
  podTopologySpreadFilter.preFilter!(pod, ctx);
  return Object.fromEntries(nodes.map((ni) => [ni.name, podTopologySpreadFilter.filter(pod, ni, ctx).code]));
}

describe('PodTopologySpread Filter', () => {
  it('no existing pods: every node fits', () => {
    expect(runFilter(fooPod('p', { topologySpreadConstraints: [zoneConstraint(1)] }), cluster({}))).toEqual({
      'node-a': 'Success',
      'node-b': 'Success',
      'node-x': 'Success',
      'node-y': 'Success',
    });
  });

  it('pods spread across zones as 3/1: only zone2 fits with maxSkew 1', () => {
    // "pods spread across zones as 3/3, all nodes fit" is the balanced variant; here zone1 leads.
    const got = runFilter(
      fooPod('p', { topologySpreadConstraints: [zoneConstraint(1)] }),
      cluster({ 'node-a': 2, 'node-b': 1, 'node-x': 1 }),
    );
    expect(got).toEqual({
      'node-a': 'Unschedulable',
      'node-b': 'Unschedulable',
      'node-x': 'Success',
      'node-y': 'Success',
    });
  });

  it('maxSkew 3 lets zone1 take one more', () => {
    const got = runFilter(
      fooPod('p', { topologySpreadConstraints: [zoneConstraint(3)] }),
      cluster({ 'node-a': 2, 'node-b': 1, 'node-x': 1 }),
    );
    expect(Object.values(got)).toEqual(['Success', 'Success', 'Success', 'Success']);
  });

  it('a pod that does not match its own selector adds no self-match', () => {
    const pod = makePod('p', [], { labels: { other: '' }, topologySpreadConstraints: [zoneConstraint(1)] });
    const got = runFilter(pod, cluster({ 'node-a': 1, 'node-x': 0 }));
    expect(got['node-a']).toBe('Success'); // skew = 1 + 0 − 0
  });

  it('hostname spreading with maxSkew 1', () => {
    const got = runFilter(
      fooPod('p', { topologySpreadConstraints: [zoneConstraint(1, 'node')] }),
      cluster({ 'node-a': 1, 'node-b': 1, 'node-x': 1 }),
    );
    expect(got).toEqual({
      'node-a': 'Unschedulable',
      'node-b': 'Unschedulable',
      'node-x': 'Unschedulable',
      'node-y': 'Success',
    });
  });

  it('a node without the topology key is unresolvable, with its own reason', () => {
    const bare = newNodeInfo(makeNode('node-bare'));
    const nodes = cluster({}, [bare]);
    const pod = fooPod('p', { topologySpreadConstraints: [zoneConstraint(1)] });
    const ctx: CycleContext = { allNodes: nodes, state: {}, listers: {} };
    podTopologySpreadFilter.preFilter!(pod, ctx);
    expect(podTopologySpreadFilter.filter(pod, bare, ctx)).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ["node(s) didn't match pod topology spread constraints (missing required label)"],
    });
  });

  it('terminating pods and other namespaces are not counted', () => {
    const nodes = cluster({});
    nodes[0] = newNodeInfo(nodes[0].node, [
      fooPod('t'),
      { ...fooPod('gone'), metadata: { ...fooPod('gone').metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } },
      fooPod('elsewhere', { namespace: 'other' }),
    ]);
    // Only "t" counts: skew on node-a = 1 + 1 − 0 = 2 ≤ 2 (counting all three would give 4).
    const got = runFilter(fooPod('p', { topologySpreadConstraints: [zoneConstraint(2)] }), nodes);
    expect(got['node-a']).toBe('Success');
  });
});

describe('PodTopologySpread Score with the system defaults', () => {
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-7c5ddbdf54', namespace: 'default', uid: 'rs-uid' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: {} },
  };
  const owned = (name: string) =>
    makePod(name, [], {
      labels: { app: 'web' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7c5ddbdf54', uid: 'rs-uid', controller: true },
      ],
    });

  it('builds hostname (maxSkew 3) and zone (maxSkew 5) constraints from the owner', () => {
    const c = buildDefaultConstraints(owned('p'), { replicaSets: [rs] });
    expect(c.map((x) => [x.topologyKey, x.maxSkew])).toEqual([
      ['kubernetes.io/hostname', 3],
      ['topology.kubernetes.io/zone', 5],
    ]);
    expect(buildDefaultConstraints(makePod('bare'), { replicaSets: [rs] })).toEqual([]);
  });

  it('prefers the node with fewer pods of the same set (scoring.go formula)', () => {
    const zone = { 'topology.kubernetes.io/zone': 'z1' };
    const nodes = [
      newNodeInfo(makeNode('node-1', undefined, { labels: zone }), [owned('a'), owned('b')]),
      newNodeInfo(makeNode('node-2', undefined, { labels: zone }), [owned('c')]),
      newNodeInfo(makeNode('node-3', undefined, { labels: zone }), []),
    ];
    const ctx: CycleContext = { allNodes: nodes, state: {}, listers: { replicaSets: [rs] } };
    const pod = owned('new');
    expect(podTopologySpreadScore.preScore!(pod, nodes, ctx)).toBe(true);
    const raw = nodes.map((ni) => podTopologySpreadScore.score(pod, ni, ctx));
    // hostname: cnt·ln(5) + 2; zone: 3·ln(3) + 4 on every node.
    const zonePart = scoreForCount(3, 5, topologyNormalizingWeight(1));
    expect(raw).toEqual([2, 1, 0].map((c) => Math.round(scoreForCount(c, 3, Math.log(5)) + zonePart)));
    expect(raw).toEqual([13, 11, 9]);
    podTopologySpreadScore.normalize!(raw, nodes, ctx);
    expect(raw).toEqual([69, 84, 100]);
  });

  it('is skipped for a pod nobody selects', () => {
    const ctx: CycleContext = { allNodes: [], state: {}, listers: {} };
    expect(podTopologySpreadScore.preScore!(makePod('lonely', [], { labels: { a: 'b' } }), [], ctx)).toBe(false);
  });

  it('services that select the pod also make a default selector', () => {
    const c = buildDefaultConstraints(makePod('p', [], { labels: { app: 'web', tier: 'fe' } }), {
      services: [{ metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' } } }],
    });
    expect(c).toHaveLength(2);
    expect(c[0].selector.matchLabels).toEqual({ app: 'web' });
  });
});

describe('domainCounts cache', () => {
  it('follows relabelled nodes and moving pods with the system defaults (no required keys, missing = "")', () => {
    const ZONE = 'topology.kubernetes.io/zone';
    const zoneOf = (i: number, step: number): Record<string, string> =>
      (i + step) % 4 === 0 ? {} : { [ZONE]: `z${(i * step) % 3}` };
    const nodes = Array.from({ length: 12 }, (_, i) =>
      newNodeInfo(makeNode(`n${i}`, undefined, { labels: zoneOf(i, 1) })),
    );
    const c = filterTopologySpreadConstraints(
      [
        {
          maxSkew: 5,
          topologyKey: ZONE,
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
      {},
      'ScheduleAnyway',
    )[0];
    const pod = makePod('incoming', [], { labels: { app: 'web' } });
    const fresh = () => {
      const copies = nodes.map((ni) => newNodeInfo(ni.node, ni.pods));
      return { ...domainCounts(copies, c, matchCounter(c, 'default'), pod, [], true) };
    };
    const added: { p: ReturnType<typeof makePod>; ni: NodeInfo }[] = [];
    for (let step = 0; step < 60; step++) {
      const ni = nodes[(step * 5) % 12];
      if (step % 3 === 2) {
        // Another stride than the pods', so relabelled nodes hold pods.
        const r = nodes[(step * 7) % 12];
        setNode(r, makeNode(r.name, undefined, { labels: zoneOf(step, step) }));
      } else if (step % 7 === 6 && added.length) {
        const gone = added.shift()!;
        removePod(gone.ni, gone.p);
      } else {
        const p = makePod(`w${step}`, [], { labels: { app: step % 4 ? 'web' : 'db' } });
        addPod(ni, p);
        added.push({ p, ni });
      }
      expect({ ...domainCounts(nodes, c, matchCounter(c, 'default'), pod, [], true) }).toEqual(fresh());
    }
  });

  it('stays equal to a fresh count as pods come and go', () => {
    const zone = (i: number) => ({ 'topology.kubernetes.io/zone': `z${i % 3}` });
    const nodes = Array.from({ length: 9 }, (_, i) => newNodeInfo(makeNode(`n${i}`, undefined, { labels: zone(i) })));
    const c = filterTopologySpreadConstraints(
      [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
      {},
      'DoNotSchedule',
    )[0];
    const pod = makePod('incoming', [], { labels: { app: 'web' } });
    const fresh = () => {
      const copies = nodes.map((ni) => newNodeInfo(ni.node, ni.pods));
      return { ...domainCounts(copies, c, matchCounter(c, 'default'), pod, [c.topologyKey], false) };
    };
    const added: ReturnType<typeof makePod>[] = [];
    for (let step = 0; step < 40; step++) {
      const ni = nodes[(step * 7) % 9];
      if (step % 5 === 4 && added.length)
        removePod(
          nodes.find((n) => n.pods.includes(added[0]))!,
          added.shift()!,
        );
      else {
        const p = makePod(`w${step}`, [], { labels: { app: step % 3 ? 'web' : 'db' } });
        addPod(ni, p);
        added.push(p);
      }
      expect({ ...domainCounts(nodes, c, matchCounter(c, 'default'), pod, [c.topologyKey], false) }).toEqual(fresh());
    }
  });
});
