// The fast path of schedulePod (schedule-fast.ts) pinned to the reference path (schedule-one.ts):
// the same picks, rng draws, statuses and records, pod after pod.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Pod, ReplicaSet } from './k8s-types.ts';
import { addPod, newNodeInfo, removePod, setNode } from './node-info.ts';
import { DEFAULT_FILTER_PLUGINS, DEFAULT_SCORE_PLUGINS, schedulePod } from './schedule-one.ts';
import { localSignatureId } from './schedule-fast.ts';
import { arbCluster, arbPod, build } from '../testing/scheduler-arbitraries.ts';
import { makeNode, makePod, seededRng, tol } from '../testing/scheduler.ts';
import { runs } from '../../test/fc.ts';

// The default plugins in arrays of their own: schedulePod takes its general path (every plugin
// called per node, records built as it goes), the reference for the cached paths.
const reference = { filterPlugins: [...DEFAULT_FILTER_PLUGINS], scorePlugins: [...DEFAULT_SCORE_PLUGINS] };

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
          const a = schedulePod(pod, full, rf, { ...reference, nextStartNodeIndex: nf });
          const b = schedulePod(pod, lean, rl, { nextStartNodeIndex: nl, record: 'none' });
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
    const r = schedulePod(makePod('web', [{ cpu: '2' }]), nodes, seededRng(1), {});
    expect('fitError' in r.result && r.result.fitError.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
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
          const a = schedulePod(pod, full, rf, { ...reference, nextStartNodeIndex: nf, listers });
          // The records from the flat cache, over the lean list (whose caches the record-less cycles share).
          const c = schedulePod(pod, lean, rc, { nextStartNodeIndex: nl, listers });
          const b = schedulePod(pod, lean, rl, { nextStartNodeIndex: nl, listers, record: 'none' });
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
