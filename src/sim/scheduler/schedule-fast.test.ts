// The fast path (schedule-fast.ts' schedulePodFast, what the core runs) pinned to the reference path
// (schedule-one.ts' schedulePod, an optional part): the same picks, rng draws, statuses and records,
// pod after pod.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Pod, ReplicaSet } from './k8s-types.ts';
import { addPod, newNodeInfo, removePod, setNode } from './node-info.ts';
import { schedulePod } from './schedule-one.ts';
import { localSignatureId, schedulePodFast } from './schedule-fast.ts';
import { arbCluster, arbPod, build } from '../testing/scheduler-arbitraries.ts';
import { makeNode, makePod, seededRng, tol } from '../testing/scheduler.ts';
import { runs } from '../../test/fc.ts';

// What the fast path serves beyond arbPod's pods: a PreFilterResult narrowing the nodes (matchFields
// on metadata.name, a conflict rejecting at PreFilter), a node nominated by an earlier preemption,
// and other pods nominated to nodes (the queue's nominator after a preemption): of lower priority
// (the filters ignore them), of equal or higher (the filters count them on that node).
const arbNominated = fc.record({
  node: fc.integer({ min: 0, max: 6 }),
  priority: fc.constantFrom(-1, 0, 5),
  cpu: fc.constantFrom('100m', '700m', '3'),
  port: fc.constantFrom(0, 80),
});
const arbExtras = fc.record({
  pin: fc.option(
    fc.constantFrom<string[][]>([['node-0']], [['node-1'], ['node-3']], [['node-2', 'node-9']], [['node-0', 'node-1']]),
    { freq: 3 },
  ),
  conflict: fc.boolean(),
  nominatedNode: fc.option(fc.integer({ min: 0, max: 6 }), { freq: 3 }),
  nominated: fc.array(arbNominated, { maxLength: 3 }),
});

/** The nominator's NominatedPodsForNode for every node; undefined when none are. */
function nominatedPodsOf(
  k: number,
  list: { node: number; priority: number; cpu: string; port: number }[],
): Record<string, Pod[]> | undefined {
  if (list.length === 0) return undefined;
  const out: Record<string, Pod[]> = {};
  list.forEach((x, j) => {
    const p = makePod(`nominated-${k}-${j}`, [{ cpu: x.cpu }], { priority: x.priority, labels: { app: 'web' } });
    if (x.port) p.spec!.containers[0].ports = [{ containerPort: 80, hostPort: x.port }];
    (out[`node-${x.node}`] ??= []).push(p);
  });
  return out;
}

function withExtras(
  p: Pod,
  k: number,
  x: { pin: string[][] | null; conflict: boolean; nominatedNode: number | null },
): Pod {
  const pod: Pod = {
    ...p,
    metadata: { ...p.metadata, name: `incoming-${k}`, uid: `uid-incoming-${k}` },
    spec: { ...p.spec! },
  };
  if (x.pin) {
    const terms = x.conflict
      ? [
          {
            matchFields: [
              { key: 'metadata.name', operator: 'In', values: ['node-0'] },
              { key: 'metadata.name', operator: 'In', values: ['node-1'] },
            ],
          },
        ]
      : x.pin.map((values) => ({ matchFields: [{ key: 'metadata.name', operator: 'In', values }] }));
    pod.spec!.affinity = {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
    };
  }
  return x.nominatedNode === null ? pod : { ...pod, status: { nominatedNodeName: `node-${x.nominatedNode}` } };
}

describe('schedulePodFast against the reference', () => {
  it('gives the same result, records, counts and rng draws, with and without records, pod after pod', () => {
    fc.assert(
      fc.property(
        arbCluster,
        fc.array(fc.tuple(arbPod, arbExtras), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 1000 }),
        (cluster, pods, seed) => {
          // Two copies of the cluster, each taking the pods it places (so node caches see changes).
          const ref = build(cluster);
          const fast = build(cluster);
          const rr = seededRng(seed);
          const rf = seededRng(seed);
          const rl = seededRng(seed);
          let nr = 0;
          let nf = 0;
          pods.forEach(([p, x], k) => {
            const pod = withExtras(p, k, x);
            const nominatedPods = nominatedPodsOf(k, x.nominated);
            const a = schedulePod(pod, ref, rr, { nextStartNodeIndex: nr, nominatedPods });
            const c = schedulePodFast(pod, fast, rf, { nextStartNodeIndex: nf, nominatedPods });
            const b = schedulePodFast(pod, fast, rl, { nextStartNodeIndex: nf, nominatedPods, record: 'none' });
            expect(c.perNode).toEqual(a.perNode);
            expect(c.result).toEqual(a.result);
            expect(b.perNode).toEqual([]);
            expect(b.result).toEqual(a.result);
            for (const r of [b, c])
              expect([r.nextStartNodeIndex, r.evaluatedNodes, r.feasibleNodes]).toEqual([
                a.nextStartNodeIndex,
                a.evaluatedNodes,
                a.feasibleNodes,
              ]);
            expect(rf.draws).toBe(rr.draws);
            expect(rl.draws).toBe(rr.draws);
            nr = a.nextStartNodeIndex;
            nf = c.nextStartNodeIndex;
            if ('node' in a.result) {
              const node = a.result.node;
              addPod(
                ref.find((n) => n.name === node)!,
                { ...pod, spec: { ...pod.spec!, nodeName: node } },
              );
              addPod(
                fast.find((n) => n.name === node)!,
                { ...pod, spec: { ...pod.spec!, nodeName: node } },
              );
            }
          });
        },
      ),
      { numRuns: runs(0.3) },
    );
  });

  it("puts DynamicResources' PostFilter reason before preemption, as 1.34+ with DRA on", () => {
    const nodes = [1, 2, 3].map((i) =>
      newNodeInfo(makeNode(`node-${i}`, { cpu: '4', memory: '8Gi', pods: '110' }), [
        makePod(`db-${i}`, [{ cpu: '3' }]),
      ]),
    );
    const r = schedulePodFast(makePod('web', [{ cpu: '2' }]), nodes, seededRng(1), {});
    expect('fitError' in r.result && r.result.fitError.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
  });
});

// The lean path (flat per-slot caches, batch scoring) against the full path (every plugin called
// per node, with records) on clusters big enough for the partial walk (numFeasibleNodesToFind), with
// default spreading from ReplicaSets, pods coming and going and nodes relabelled between cycles.
describe('schedulePodFast flat caches', () => {
  const ZONE = 'topology.kubernetes.io/zone';
  const replicaSets: ReplicaSet[] = ['a', 'b', 'c'].flatMap((app) =>
    ['default', 'other'].map((ns) => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: `rs-${app}`, namespace: ns },
      spec: { selector: { matchLabels: { app } }, template: {} },
    })),
  );
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
    makeNode(
      `node-${i}`,
      { cpu: r.cpu, memory: '8Gi', pods: r.maxPods },
      {
        labels: r.zone ? { [ZONE]: r.zone } : {},
        taints: r.prefer ? [{ key: 'x', value: 'y', effect: 'PreferNoSchedule' }] : undefined,
      },
    );

  it('gives the same node, records, counts and rng draws as the reference', () => {
    fc.assert(
      fc.property(
        fc.array(arbBigNode, { minLength: 101, maxLength: 140 }),
        fc.array(arbStep, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.boolean(),
        (specs, steps, seed, uniform) => {
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
              ownerReferences: [
                { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${q.app}`, uid: 'u', controller: true },
              ],
              tolerations: q.tolerate ? [tol('x', 'Exists')] : undefined,
              topologySpreadConstraints:
                q.spread === 'none'
                  ? undefined
                  : [
                      {
                        maxSkew: 2,
                        topologyKey: ZONE,
                        whenUnsatisfiable: q.spread === 'hard' ? 'DoNotSchedule' : 'ScheduleAnyway',
                        labelSelector: { matchLabels: { app: q.app } },
                      },
                      {
                        maxSkew: 1,
                        topologyKey: 'kubernetes.io/hostname',
                        whenUnsatisfiable: 'ScheduleAnyway',
                        labelSelector: { matchLabels: { app: q.app } },
                      },
                    ],
            });
            const a = schedulePod(pod, full, rf, { nextStartNodeIndex: nf, listers });
            // The records from the flat cache, over the lean list (whose caches the record-less cycles share).
            const c = schedulePodFast(pod, lean, rc, { nextStartNodeIndex: nl, listers });
            const b = schedulePodFast(pod, lean, rl, { nextStartNodeIndex: nl, listers, record: 'none' });
            expect(c.perNode).toEqual(a.perNode);
            expect(c.result).toEqual(a.result);
            expect(rc.draws).toBe(rf.draws);
            expect([c.nextStartNodeIndex, c.evaluatedNodes, c.feasibleNodes]).toEqual([
              a.nextStartNodeIndex,
              a.evaluatedNodes,
              a.feasibleNodes,
            ]);
            expect(b.result).toEqual(a.result);
            expect([b.nextStartNodeIndex, b.evaluatedNodes, b.feasibleNodes]).toEqual([
              a.nextStartNodeIndex,
              a.evaluatedNodes,
              a.feasibleNodes,
            ]);
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
        },
      ),
      { numRuns: runs(0.04) },
    );
  });
});

describe('localSignatureId', () => {
  it('gives equal ids exactly to pods whose node-local inputs are equal, whatever came before', () => {
    const base = (name: string, extra: Parameters<typeof makePod>[2] = {}) =>
      makePod(name, [{ cpu: '10m', memory: '16Mi' }], extra);
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
