import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Pod } from './k8s-types.ts';
import { addPod, newNodeInfo } from './node-info.ts';
import { nodeResourcesFitFilter } from './node-resources.ts';
import { podTopologySpreadFilter } from './pod-topology-spread.ts';
import {
  NOT_ELIGIBLE_TERMINATING_POD,
  calculateNumCandidates,
  podEligibleToPreemptOthers,
  podTerminatingByPreemption,
} from './preemption.ts';
import {
  PREEMPTION_EVALUATOR,
  earliestPodStartTime,
  pickOneNodeForPreemption,
  preemptedEventMessage,
  preemptionConditionMessage,
} from './preemption-evaluator.ts';
import { DEFAULT_FILTER_PLUGINS, type FitError, failedRecord, runFilterPlugins } from './profile.ts';
import { schedulePod } from './schedule-one.ts';
import type { CycleContext } from './framework.ts';
import { makeNode, makePod, seededRng } from '../testing/scheduler.ts';
import { arbCluster, arbPod, build } from '../testing/scheduler-arbitraries.ts';
import { rfc3339 } from '../util/names.ts';
import { runs } from '../../test/fc.ts';

// Cases from defaultpreemption/default_preemption_test.go (TestSelectBestCandidate,
// TestSelectVictimsOnNode, TestPodEligibleToPreemptOthers), with NodeResourcesFit as the only filter.

const [neg, low, mid, high, veryHigh] = [-100, 0, 100, 1000, 10000];
const small = { cpu: '100m', memory: '100' };
const medium = { cpu: '200m', memory: '200' };
const large = { cpu: '300m', memory: '300' };
const veryLarge = { cpu: '500m', memory: '500' };
// epochTimeN: N nanoseconds after the Unix epoch upstream; N seconds after the simulated epoch here.
const epoch = (n: number) => rfc3339(n * 1000);

function victim(name: string, node: string, priority: number, req: Record<string, string>, start = 0): Pod {
  const p = makePod(name, [req], { priority, nodeName: node });
  return { ...p, status: { startTime: epoch(start) } };
}

function preempt(nodeNames: string[], pod: Pod, pods: Pod[], plugins = [nodeResourcesFitFilter]): FitError {
  const nodes = nodeNames.map((n) => newNodeInfo(makeNode(n, { ...veryLarge, pods: '110' })));
  for (const p of pods)
    addPod(
      nodes.find((ni) => ni.name === p.spec!.nodeName)!,
      p,
    );
  const r = schedulePod(pod, nodes, seededRng(4), {
    filterPlugins: plugins,
    scorePlugins: [],
    now: 100_000,
    preemptionEvaluator: PREEMPTION_EVALUATOR,
  });
  if (!('fitError' in r.result)) throw new Error('expected a FitError');
  return r.result.fitError;
}

describe('SelectCandidate / pickOneNodeForPreemption (TestSelectBestCandidate)', () => {
  const cases: { name: string; nodes: string[]; pod: Pod; pods: Pod[]; expected: string[] }[] = [
    {
      name: 'a pod that fits on both nodes when lower priority pods are preempted',
      nodes: ['node1', 'node2'],
      pod: makePod('p', [large], { priority: high }),
      pods: [victim('p1', 'node1', mid, large), victim('p2', 'node2', mid, large)],
      expected: ['node1', 'node2'],
    },
    {
      name: 'node with min highest priority pod is picked',
      nodes: ['node1', 'node2', 'node3'],
      pod: makePod('p', [veryLarge], { priority: high }),
      pods: [
        victim('p1.1', 'node1', mid, medium),
        victim('p1.2', 'node1', mid, large),
        victim('p2.1', 'node2', mid, medium),
        victim('p2.2', 'node2', low, medium),
        victim('p3.1', 'node3', low, medium),
        victim('p3.2', 'node3', low, medium),
      ],
      expected: ['node3'],
    },
    {
      name: 'when highest priorities are the same, minimum sum of priorities is picked',
      nodes: ['node1', 'node2', 'node3'],
      pod: makePod('p', [veryLarge], { priority: high }),
      pods: [
        victim('p1.1', 'node1', mid, medium),
        victim('p1.2', 'node1', mid, large),
        victim('p2.1', 'node2', mid, large),
        victim('p2.2', 'node2', low, medium),
        victim('p3.1', 'node3', mid, medium),
        victim('p3.2', 'node3', mid, medium),
      ],
      expected: ['node2'],
    },
    {
      name: 'when highest priority and sum are the same, minimum number of pods is picked',
      nodes: ['node1', 'node2', 'node3'],
      pod: makePod('p', [veryLarge], { priority: high }),
      pods: [
        victim('p1.1', 'node1', mid, small),
        victim('p1.2', 'node1', neg, small),
        victim('p1.3', 'node1', mid, small),
        victim('p1.4', 'node1', neg, small),
        victim('p2.1', 'node2', mid, large),
        victim('p2.2', 'node2', neg, medium),
        victim('p3.1', 'node3', mid, medium),
        victim('p3.2', 'node3', neg, small),
        victim('p3.3', 'node3', low, small),
      ],
      expected: ['node2'],
    },
    {
      name: 'sum of adjusted priorities is considered',
      nodes: ['node1', 'node2', 'node3'],
      pod: makePod('p', [veryLarge], { priority: high }),
      pods: [
        victim('p1.1', 'node1', mid, small),
        victim('p1.2', 'node1', neg, small),
        victim('p1.3', 'node1', neg, small),
        victim('p2.1', 'node2', mid, large),
        victim('p2.2', 'node2', neg, medium),
        victim('p3.1', 'node3', mid, medium),
        victim('p3.2', 'node3', neg, small),
        victim('p3.3', 'node3', low, small),
      ],
      expected: ['node2'],
    },
    {
      name: 'non-overlapping lowest high priority, sum priorities, and number of pods',
      nodes: ['node1', 'node2', 'node3', 'node4'],
      pod: makePod('p', [veryLarge], { priority: veryHigh }),
      pods: [
        victim('p1.1', 'node1', mid, small),
        victim('p1.2', 'node1', low, small),
        victim('p1.3', 'node1', low, small),
        victim('p2.1', 'node2', high, large),
        victim('p3.1', 'node3', mid, medium),
        victim('p3.2', 'node3', low, small),
        victim('p3.3', 'node3', low, small),
        victim('p3.4', 'node3', low, medium),
        victim('p4.1', 'node4', mid, medium),
        victim('p4.2', 'node4', mid, small),
        victim('p4.3', 'node4', mid, small),
        victim('p4.4', 'node4', neg, small),
      ],
      expected: ['node1'],
    },
    {
      name: "same priority, same number of victims, different start time for each node's pod",
      nodes: ['node1', 'node2', 'node3'],
      pod: makePod('p', [veryLarge], { priority: high }),
      pods: [
        victim('p1.1', 'node1', mid, medium, 2),
        victim('p1.2', 'node1', mid, medium, 2),
        victim('p2.1', 'node2', mid, medium, 3),
        victim('p2.2', 'node2', mid, medium, 3),
        victim('p3.1', 'node3', mid, medium, 1),
        victim('p3.2', 'node3', mid, medium, 1),
      ],
      expected: ['node2'],
    },
    {
      name: 'same priority, same number of victims, different start time for all pods',
      nodes: ['node1', 'node2', 'node3'],
      pod: makePod('p', [veryLarge], { priority: high }),
      pods: [
        victim('p1.1', 'node1', mid, medium, 4),
        victim('p1.2', 'node1', mid, medium, 2),
        victim('p2.1', 'node2', mid, medium, 5),
        victim('p2.2', 'node2', mid, medium, 1),
        victim('p3.1', 'node3', mid, medium, 3),
        victim('p3.2', 'node3', mid, medium, 6),
      ],
      expected: ['node3'],
    },
    {
      name: 'different priority, same number of victims, different start time for all pods',
      nodes: ['node1', 'node2', 'node3'],
      pod: makePod('p', [veryLarge], { priority: high }),
      pods: [
        victim('p1.1', 'node1', low, medium, 4),
        victim('p1.2', 'node1', mid, medium, 2),
        victim('p2.1', 'node2', mid, medium, 6),
        victim('p2.2', 'node2', low, medium, 1),
        victim('p3.1', 'node3', low, medium, 3),
        victim('p3.2', 'node3', mid, medium, 5),
      ],
      expected: ['node2'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const fe = preempt(c.nodes, c.pod, c.pods);
      expect(c.expected).toContain(fe.preemption?.node);
      expect(fe.nominatedNodeName).toBe(fe.preemption?.node);
      expect(fe.postFilterMsg).toBe(
        `preemption: found a potential placement for pod on node ${fe.preemption!.node}, preempting ${fe.preemption!.victims.length} victims`,
      );
    });
  }

  it('falls back to the first candidate in dry-run order when every criterion ties', () => {
    const v = (n: string) => ({
      name: n,
      victims: { pods: [victim(`${n}-v`, n, mid, small, 1)], numPDBViolations: 0 },
    });
    expect(pickOneNodeForPreemption([v('b'), v('a')], 0)).toBe('b');
    expect(pickOneNodeForPreemption([], 0)).toBe('');
  });
});

describe('SelectVictimsOnNode (TestSelectVictimsOnNode)', () => {
  it('Basic: Preempt single lower priority pod', () => {
    const fe = preempt(['node1'], makePod('p', [large], { priority: high }), [victim('victim', 'node1', low, large)]);
    expect(fe.preemption?.victims.map((p) => p.metadata?.name)).toEqual(['victim']);
  });

  it('Priority: Prefer lower priority victim', () => {
    const fe = preempt(['node1'], makePod('p', [large], { priority: high }), [
      victim('high-prio', 'node1', high, small),
      victim('mid-prio', 'node1', mid, small),
      victim('low-prio', 'node1', low, small),
    ]);
    expect(fe.preemption?.victims.map((p) => p.metadata?.name)).toEqual(['low-prio']);
  });

  it('reprieves the most important pods first and keeps only what must go', () => {
    // veryLarge node (500m): p1 300m mid, p2 100m low, p3 100m low; the pod needs 300m.
    const fe = preempt(['node1'], makePod('p', [large], { priority: high }), [
      victim('p1', 'node1', mid, large),
      victim('p2', 'node1', low, small, 1),
      victim('p3', 'node1', low, small, 2),
    ]);
    // p1 (highest) is reprieved first and breaks the fit, so it goes; p2 and p3 then both fit back.
    expect(fe.preemption?.victims.map((p) => p.metadata?.name)).toEqual(['p1']);
  });

  it('orders victims by priority, then the earlier start', () => {
    const fe = preempt(['node1'], makePod('p', [veryLarge], { priority: high }), [
      victim('late', 'node1', low, medium, 9),
      victim('early', 'node1', low, medium, 1),
      victim('mid', 'node1', mid, small, 5),
    ]);
    expect(fe.preemption?.victims.map((p) => p.metadata?.name)).toEqual(['mid', 'early', 'late']);
  });

  it('finds no victims among pods of equal or higher priority', () => {
    const fe = preempt(['node1'], makePod('p', [large], { priority: mid }), [victim('p1', 'node1', mid, veryLarge)]);
    expect(fe.preemption).toBeUndefined();
    expect(fe.nominatedNodeName).toBe('');
    expect(fe.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
  });

  it('reports the filter that still fails once every lower-priority pod is gone', () => {
    const fe = preempt(['node1'], makePod('p', [{ cpu: '300m' }], { priority: high }), [
      victim('keep', 'node1', veryHigh, large),
      victim('p1', 'node1', low, small),
    ]);
    expect(fe.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu.',
    );
  });

  it('keeps PodTopologySpread counts right while removing and reprieving (AddPod/RemovePod extensions)', () => {
    const spread = {
      maxSkew: 1,
      topologyKey: 'kubernetes.io/hostname',
      whenUnsatisfiable: 'DoNotSchedule' as const,
      labelSelector: { matchLabels: { app: 'a' } },
    };
    const labelled = (name: string, node: string, priority: number) => {
      const p = victim(name, node, priority, small);
      return { ...p, metadata: { ...p.metadata, labels: { app: 'a' } } };
    };
    // node1 holds two app=a pods, node2 none: the pod (app=a) fails spreading on node1 and fits node2.
    // Make node2 full with a high-priority pod so only preemption on node1 could help.
    const pod = {
      ...makePod('p', [small], { priority: high, topologySpreadConstraints: [spread] }),
      metadata: { name: 'p', namespace: 'default', uid: 'uid-p', labels: { app: 'a' } },
    };
    const fe = preempt(
      ['node1', 'node2'],
      pod,
      [labelled('a1', 'node1', low), labelled('a2', 'node1', low), victim('big', 'node2', veryHigh, veryLarge)],
      [nodeResourcesFitFilter, podTopologySpreadFilter],
    );
    // Removing both a1, a2 makes node1's count 0; reprieving a1 gives skew 1+1-0 = 2 > 1 (node2 has
    // 0), so a1 goes; a2 then breaks it the same way: both are victims.
    expect(fe.preemption?.node).toBe('node1');
    expect(fe.preemption?.victims.map((p) => p.metadata?.name).sort()).toEqual(['a1', 'a2']);
  });
});

describe('PodEligibleToPreemptOthers (TestPodEligibleToPreemptOthers)', () => {
  const terminating = (name: string, priority: number): Pod => ({
    ...victim(name, 'node1', priority, small),
    metadata: { name, namespace: 'default', uid: `uid-${name}`, deletionTimestamp: epoch(1) },
    status: { conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }] },
  });
  const nominated = (priority: number): Pod => ({
    ...makePod('p', [small], { priority }),
    status: { nominatedNodeName: 'node1' },
  });
  const nodes = () => {
    const ni = newNodeInfo(makeNode('node1'));
    addPod(ni, terminating('t', low));
    return [ni];
  };
  it('refuses while a lower-priority victim on the nominated node terminates', () => {
    expect(
      podEligibleToPreemptOthers(
        nominated(high),
        { node1: { plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons: [] } },
        nodes(),
      ),
    ).toEqual({ ok: false, msg: NOT_ELIGIBLE_TERMINATING_POD });
  });
  it('allows it when the nominated node cannot help, or the terminating pod is not lower priority', () => {
    expect(
      podEligibleToPreemptOthers(
        nominated(high),
        { node1: { plugin: 'NodeAffinity', code: 'UnschedulableAndUnresolvable', reasons: [] } },
        nodes(),
      ).ok,
    ).toBe(true);
    expect(
      podEligibleToPreemptOthers(
        nominated(low),
        { node1: { plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons: [] } },
        nodes(),
      ).ok,
    ).toBe(true);
  });
  it('knows a pod terminating by preemption', () => {
    expect(podTerminatingByPreemption(terminating('t', 0))).toBe(true);
    expect(podTerminatingByPreemption(victim('v', 'n', 0, small))).toBe(false);
  });
});

describe('nominated pods in the filters (RunFilterPluginsWithNominatedPods)', () => {
  it('counts a nominated pod of equal or higher priority, not a lower one', () => {
    const nodes = [newNodeInfo(makeNode('node1', { cpu: '1', memory: '1Gi', pods: '110' }))];
    const nom = makePod('nominated', [{ cpu: '800m' }], { priority: mid });
    const sched = (priority: number) =>
      schedulePod(makePod('q', [{ cpu: '500m' }], { priority }), nodes, seededRng(1), {
        nominatedPods: { node1: [nom] },
        preemptionEvaluator: PREEMPTION_EVALUATOR,
      }).result;
    expect(sched(low)).toHaveProperty('fitError');
    expect(sched(mid)).toHaveProperty('fitError');
    expect(sched(high)).toEqual({ node: 'node1' });
  });

  it('tries the nominated node first and takes it when it fits', () => {
    const nodes = ['node1', 'node2', 'node3'].map((n) => newNodeInfo(makeNode(n)));
    const pod = { ...makePod('p', [small]), status: { nominatedNodeName: 'node3' } };
    const r = schedulePod(pod, nodes, seededRng(1), {
      nextStartNodeIndex: 1,
      preemptionEvaluator: PREEMPTION_EVALUATOR,
    });
    expect(r.result).toEqual({ node: 'node3' });
    expect(r.evaluatedNodes).toBe(1);
    expect(r.nextStartNodeIndex).toBe(1);
  });
});

describe('messages and numbers', () => {
  it('matches the executor and the args defaults', () => {
    expect(preemptionConditionMessage('default-scheduler')).toBe(
      'default-scheduler: preempting to accommodate a higher priority pod',
    );
    expect(preemptedEventMessage('u-1', 'node-1')).toBe('Preempted by pod u-1 on node node-1');
    expect([calculateNumCandidates(5), calculateNumCandidates(500), calculateNumCandidates(5000)]).toEqual([
      5, 100, 500,
    ]);
  });
  it('takes the earliest start among the highest-priority victims', () => {
    const v = {
      pods: [victim('a', 'n', mid, small, 5), victim('b', 'n', mid, small, 3), victim('c', 'n', low, small, 1)],
      numPDBViolations: 0,
    };
    expect(earliestPodStartTime(v, 0)).toBe(3000);
  });
});

describe('preemption properties', () => {
  it('a chosen node fits the pod once its victims (all of lower priority) are gone', () => {
    fc.assert(
      fc.property(
        arbCluster,
        arbPod,
        fc.array(fc.constantFrom(0, 100, 2000), { minLength: 18, maxLength: 18 }),
        fc.integer({ min: 0, max: 1000 }),
        (cluster, incoming, prios, seed) => {
          // Give the running pods priorities around the incoming pod's 1000.
          let k = 0;
          const withPrio = cluster.map((c) => ({
            node: c.node,
            pods: c.pods.map((p) => ({ ...p, spec: { ...p.spec!, priority: prios[k++ % prios.length] } })),
          }));
          const pod = { ...incoming, spec: { ...incoming.spec!, priority: 1000 } };
          const r = schedulePod(pod, build(withPrio), seededRng(seed), { preemptionEvaluator: PREEMPTION_EVALUATOR });
          if (!('fitError' in r.result) || !r.result.fitError.preemption) return;
          const { node, victims } = r.result.fitError.preemption;
          expect(r.result.fitError.nominatedNodeName).toBe(node);
          expect(r.result.fitError.postFilterMsg).toBe(
            `preemption: found a potential placement for pod on node ${node}, preempting ${victims.length} victims`,
          );
          expect(victims.length).toBeGreaterThan(0);
          for (const v of victims) expect(v.spec?.priority ?? 0).toBeLessThan(1000);
          const gone = new Set(victims.map((v) => v.metadata?.name));
          const after = build(
            withPrio.map((c) => ({ node: c.node, pods: c.pods.filter((p) => !gone.has(p.metadata?.name)) })),
          );
          const ctx: CycleContext = { allNodes: after, state: {}, listers: {} };
          for (const pl of DEFAULT_FILTER_PLUGINS) pl.preFilter?.(pod, ctx);
          expect(
            failedRecord(
              runFilterPlugins(
                pod,
                after.find((n) => n.name === node)!,
                ctx,
                DEFAULT_FILTER_PLUGINS,
              ),
            ),
          ).toBeUndefined();
        },
      ),
      { numRuns: runs(0.3) },
    );
  });
});
