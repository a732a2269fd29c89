// The core's PostFilter without the evaluator against the full one: where no pod outranks another,
// both must give the same statuses, message, nomination and rng draws; where one does, the core
// must refuse rather than guess. And a cluster must end in the same bytes whether the part was
// registered from the start or only at the first input that needs it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCluster } from '../cluster.ts';
import { registerValidator } from '../apiserver/validation.ts';
import { PRIORITY_CLASS_VALIDATION } from '../apiserver/priority-class-validation.ts';
import { PREEMPTION_EVALUATOR, filterVictimsWithPDBViolation } from './preemption-evaluator.ts';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { schedulePod } from './schedule-one.ts';
import { makeNode, makePod, seededRng } from '../testing/scheduler.ts';
import { arbCluster, arbPod, build } from '../testing/scheduler-arbitraries.ts';
import { addPod, newNodeInfo } from './node-info.ts';
import { runs } from '../../test/fc.ts';
import { storeGet } from '../apiserver/store.ts';
import { storeKey } from '../api/resources.ts';

describe('DefaultPreemption without its evaluator (the core) against the full one', () => {
  it('gives the same FitError and draws the same rng when no running pod has a lower priority', () => {
    fc.assert(
      fc.property(
        arbCluster,
        arbPod,
        fc.array(fc.constantFrom(0, 1000, 5000), { minLength: 18, maxLength: 18 }),
        fc.constantFrom(0, 1000),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 5 }),
        (cluster, incoming, prios, prio, seed, start) => {
          // Running pods at the incoming pod's priority or above: no victim anywhere.
          let k = 0;
          const withPrio = cluster.map((c) => ({
            node: c.node,
            pods: c.pods.map((p) => ({
              ...p,
              spec: { ...p.spec!, priority: Math.max(prio, prios[k++ % prios.length]) },
            })),
          }));
          const pod = { ...incoming, spec: { ...incoming.spec!, priority: prio } };
          const nominated = {
            [withPrio[0].node.metadata!.name!]: [makePod('nominated', [{ cpu: '500m' }], { priority: prio + 1 })],
          };
          const core = seededRng(seed);
          const full = seededRng(seed);
          const a = schedulePod(pod, build(withPrio), core, {
            nextStartNodeIndex: start,
            nominatedPods: nominated,
            now: 5000,
          });
          const b = schedulePod(pod, build(withPrio), full, {
            nextStartNodeIndex: start,
            nominatedPods: nominated,
            now: 5000,
            preemptionEvaluator: PREEMPTION_EVALUATOR,
          });
          expect(a).toEqual(b);
          expect(core.draws).toBe(full.draws);
          expect(core.int(1 << 30)).toBe(full.int(1 << 30));
        },
      ),
      { numRuns: runs(0.5) },
    );
  });

  it('answers "No preemption victims" itself on each node the filters said may be helped', () => {
    const nodes = ['node-1', 'node-2'].map((n) => newNodeInfo(makeNode(n, { cpu: '1' })));
    for (const ni of nodes) addPod(ni, makePod(`busy-${ni.name}`, [{ cpu: '1' }], { nodeName: ni.name }));
    const rng = seededRng(3);
    const r = schedulePod(makePod('p', [{ cpu: '500m' }]), nodes, rng);
    if (!('fitError' in r.result)) throw new Error('the pod should not fit');
    expect(r.result.fitError.postFilterMsg).toBe(
      'preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    );
    expect(r.result.fitError.nominatedNodeName).toBe('');
    // GetOffsetAndNumCandidates' one draw, as the full dry run takes it.
    expect(rng.draws).toBe(1);
  });

  it('refuses, rather than guessing, when a pod outranks one it could evict', () => {
    const ni = newNodeInfo(makeNode('node-1', { cpu: '1' }));
    addPod(ni, makePod('low', [{ cpu: '1' }], { nodeName: 'node-1', priority: 0 }));
    const pod = makePod('high', [{ cpu: '500m' }], { priority: 1000 });
    expect(() => schedulePod(pod, [ni], seededRng(1))).toThrow(/preemption needs its evaluator/);
    const r = schedulePod(pod, [ni], seededRng(1), { preemptionEvaluator: PREEMPTION_EVALUATOR });
    expect('fitError' in r.result && r.result.fitError.postFilterMsg).toBe(
      'preemption: found a potential placement for pod on node node-1, preempting 1 victims',
    );
  });
});

describe('the preemption part, registered early or at the first input that needs it', () => {
  // A low-priority Deployment fills the nodes; a PriorityClass and a pod that outranks them follow.
  // Sent as requests (a demo's or a link's inputs), not through kubectl, which would bring the part.
  const filler = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'filler', namespace: 'default' },
    spec: {
      replicas: 6,
      selector: { matchLabels: { app: 'filler' } },
      template: {
        metadata: { labels: { app: 'filler' } },
        spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1500m' } } }] },
      },
    },
  };
  const high = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 };
  const urgent = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'urgent', namespace: 'default' },
    spec: {
      priorityClassName: 'high',
      containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1500m' } } }],
    },
  };
  const run = (when: 'start' | 'at-need' | 'never') => {
    const c = createCluster({ seed: 7 });
    // The PriorityClass needs its own part (the class's validation) in every run; this test moves only preemption's.
    registerValidator(c.world.apiConfig, 'priorityclasses', PRIORITY_CLASS_VALIDATION);
    if (when === 'start') c.world.parts.preemption = PREEMPTION_EVALUATOR;
    c.advance(10_000 - c.now);
    c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: filler });
    c.advance(40_000 - c.now);
    c.request({ verb: 'create', resource: 'priorityclasses', body: high });
    c.advance(45_000 - c.now);
    if (when === 'at-need') c.world.parts.preemption = PREEMPTION_EVALUATOR;
    c.request({ verb: 'create', resource: 'pods', namespace: 'default', body: urgent });
    c.advance(90_000 - c.now);
    return c;
  };

  it('gives the same world and request log either way, and the pod preempts', () => {
    const early = run('start');
    const late = run('at-need');
    expect(late.world.hash()).toBe(early.world.hash());
    expect(JSON.stringify(late.world.state.log)).toBe(JSON.stringify(early.world.state.log));
    // The preemptor was placed where a victim made room (nominated, then bound).
    const pod = storeGet(early.world.state.store, 'pods', storeKey('pods', 'default', 'urgent')) as
      { spec?: { nodeName?: string } } | undefined;
    expect(pod?.spec?.nodeName).toMatch(/^node-/);
  });

  it('is needed there: a world without it refuses the preemptor rather than answering differently', () => {
    expect(() => run('never')).toThrow(/preemption needs its evaluator/);
  });
});

/** A PodDisruptionBudget as the disruption controller leaves it: `allowed` disruptions, `disrupted` pods in flight. */
function pdb(
  name: string,
  matchLabels: Record<string, string> | undefined,
  allowed: number,
  disrupted: string[] = [],
  namespace = 'default',
): PodDisruptionBudget {
  return {
    metadata: { name, namespace },
    spec: { minAvailable: 1, ...(matchLabels && { selector: { matchLabels } }) },
    status: {
      disruptionsAllowed: allowed,
      currentHealthy: 1,
      desiredHealthy: 1,
      expectedPods: 1,
      ...(disrupted.length && { disruptedPods: Object.fromEntries(disrupted.map((d) => [d, '2026-12-01T00:00:00Z'])) }),
    },
  };
}

describe('FilterVictimsWithPDBViolation', () => {
  const pod = (name: string, labels?: Record<string, string>, namespace?: string) =>
    makePod(name, [{ cpu: '100m' }], { labels, namespace });
  it('counts each matching budget down victim by victim: the first victims it allows do not violate, the next do', () => {
    const victims = [
      pod('a1', { app: 'a' }),
      pod('a2', { app: 'a' }),
      pod('b1', { app: 'b' }),
      pod('a3', { app: 'a' }),
    ];
    const r = filterVictimsWithPDBViolation(victims, [pdb('a', { app: 'a' }, 1)]);
    expect(r.violating.map((p) => p.metadata!.name)).toEqual(['a2', 'a3']);
    expect(r.nonViolating.map((p) => p.metadata!.name)).toEqual(['a1', 'b1']);
  });
  it('ignores budgets in another namespace, with an empty selector, or that list the pod as already disrupted; and pods without labels', () => {
    const victims = [pod('a1', { app: 'a' }), pod('x', undefined), pod('a2', { app: 'a' })];
    expect(filterVictimsWithPDBViolation(victims, [pdb('other', { app: 'a' }, 0, [], 'staging')]).violating).toEqual(
      [],
    );
    expect(filterVictimsWithPDBViolation(victims, [pdb('empty', {}, 0), pdb('nil', undefined, 0)]).violating).toEqual(
      [],
    );
    expect(
      filterVictimsWithPDBViolation(victims, [pdb('a', { app: 'a' }, 0, ['a1'])]).violating.map(
        (p) => p.metadata!.name,
      ),
    ).toEqual(['a2']);
    expect(filterVictimsWithPDBViolation([pod('x', {})], [pdb('all', { app: 'a' }, 0)]).violating).toEqual([]);
  });
});

describe('SelectVictimsOnNode and DryRunPreemption with budgets', () => {
  /** Two one-CPU nodes, each full with one low-priority pod; `late` on node-2 started later. */
  const nodes = () => {
    const out = ['node-1', 'node-2'].map((n) => newNodeInfo(makeNode(n, { cpu: '1' })));
    addPod(out[0], {
      ...makePod('early', [{ cpu: '600m' }], { nodeName: 'node-1', priority: 0, labels: { app: 'early' } }),
      status: { startTime: '2026-12-01T00:00:00Z' },
    });
    addPod(out[1], {
      ...makePod('late', [{ cpu: '600m' }], { nodeName: 'node-2', priority: 0, labels: { app: 'late' } }),
      status: { startTime: '2026-12-01T00:00:05Z' },
    });
    return out;
  };
  const urgent = makePod('urgent', [{ cpu: '500m' }], { priority: 1000 });
  const nominate = (pdbs: PodDisruptionBudget[]) => {
    const r = schedulePod(urgent, nodes(), seededRng(1), {
      preemptionEvaluator: PREEMPTION_EVALUATOR,
      listers: { pdbs },
      now: 60_000,
    });
    if (!('fitError' in r.result)) throw new Error('urgent should not fit without preemption');
    return r.result.fitError;
  };
  it('without budgets the later-started victim is taken (the tie-break); a budget on it moves the choice to the other node', () => {
    expect(nominate([]).nominatedNodeName).toBe('node-2');
    const guarded = nominate([pdb('late', { app: 'late' }, 0)]);
    expect(guarded.nominatedNodeName).toBe('node-1');
    expect(guarded.preemption?.victims.map((p) => p.metadata!.name)).toEqual(['early']);
  });
  it('when every candidate breaks a budget, the one with fewer violations wins, and it still preempts', () => {
    const both = nominate([pdb('late', { app: 'late' }, 0), pdb('early', { app: 'early' }, 0)]);
    // One violation each: the tie-break (the latest start) decides again.
    expect(both.nominatedNodeName).toBe('node-2');
    expect(both.postFilterMsg).toBe(
      'preemption: found a potential placement for pod on node node-2, preempting 1 victims',
    );
  });
});
