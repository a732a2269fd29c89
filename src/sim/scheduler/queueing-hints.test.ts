import { describe, expect, it } from 'vitest';
import type { Node, Pod, Taint, TopologySpreadConstraint } from './k8s-types.ts';
import {
  ActionType,
  matchClusterEvents,
  nodeAffinityAfterNodeChange,
  nodePortsAfterAssignedPodDeleted,
  nodeResourcesFitAfterAssignedPodDelete,
  nodeResourcesFitAfterAssignedPodScaleDown,
  nodeResourcesFitAfterNodeChange,
  nodeSchedulingPropertiesChange,
  nodeUnschedulableAfterNodeChange,
  nodeUnschedulableAfterTargetPodTolerationChange,
  podSchedulingPropertiesChange,
  podTopologySpreadAfterAssignedPodChange,
  podTopologySpreadAfterNodeChange,
  podTopologySpreadAfterTargetPodChange,
  taintTolerationAfterNodeChange,
  type QueueingHint,
} from './queueing-hints.ts';
import { makeNode, makePod, tol } from '../testing/scheduler.ts';

// Table cases of the upstream Test_isSchedulableAfter* tests (v1.37.2), without those for objects
// of the wrong type, extended resources, DRA and deferred resizes, which the simulation lacks.

type Case = [
  name: string,
  pod: Pod,
  oldObj: Node | Pod | undefined,
  newObj: Node | Pod | undefined,
  want: QueueingHint,
];
function table(fn: (pod: Pod, o: unknown, n: unknown) => QueueingHint, cases: Case[]): void {
  for (const [name, pod, o, n, want] of cases) it(name, () => expect(fn(pod, o, n)).toBe(want));
}

const node = (name: string, opts: Parameters<typeof makeNode>[2] = {}, allocatable?: Record<string, string>) =>
  makeNode(name, allocatable, opts);
const cpuPod = (name: string, cpu: string, extra: Parameters<typeof makePod>[2] = {}) =>
  makePod(name, [{ cpu }], extra);
const memNode = (memory: string) => makeNode('n', { memory, pods: '32' });

describe('NodeUnschedulable (TestIsSchedulableAfterNodeChange, TestIsSchedulableAfterPodTolerationChange)', () => {
  const p = makePod('p');
  table(nodeUnschedulableAfterNodeChange, [
    ['node was added', p, undefined, node('n'), 'Queue'],
    [
      'node was added but it turned out to be unschedulable',
      p,
      undefined,
      node('n', { unschedulable: true }),
      'QueueSkip',
    ],
    ['node was updated to become schedulable', p, node('n', { unschedulable: true }), node('n'), 'Queue'],
    [
      'node was updated but it is still unschedulable',
      p,
      node('n', { unschedulable: true }),
      node('n', { unschedulable: true }),
      'QueueSkip',
    ],
    [
      'node was updated from schedulable to unschedulable',
      p,
      node('n'),
      node('n', { unschedulable: true }),
      'QueueSkip',
    ],
  ]);
  table(nodeUnschedulableAfterTargetPodTolerationChange, [
    [
      'pod got the toleration for the unschedulable taint',
      p,
      p,
      makePod('p', [], { tolerations: [tol('node.kubernetes.io/unschedulable', 'Exists', undefined, 'NoSchedule')] }),
      'Queue',
    ],
    [
      'pod got an unrelated toleration',
      p,
      p,
      makePod('p', [], { tolerations: [tol('foo', 'Exists', undefined, 'NoSchedule')] }),
      'QueueSkip',
    ],
  ]);
});

describe('TaintToleration (TestIsSchedulableAfterNodeChange)', () => {
  const taint = { key: 'foo', value: 'bar', effect: 'NoSchedule' as const };
  const p = makePod('p');
  const tolerating = makePod('p', [], { tolerations: [tol('foo', 'Equal', 'bar', 'NoSchedule')] });
  table(taintTolerationAfterNodeChange, [
    ['node is added with untolerated taint', p, undefined, node('n', { taints: [taint] }), 'QueueSkip'],
    ['node is added with tolerated taint', tolerating, undefined, node('n', { taints: [taint] }), 'Queue'],
    ['node is changed and the untolerated taint is removed', p, node('n', { taints: [taint] }), node('n'), 'Queue'],
    [
      'node is changed but the taint is still untolerated',
      p,
      node('n', { taints: [taint] }),
      node('n', { taints: [{ ...taint, value: 'baz' }] }),
      'QueueSkip',
    ],
    ['node was already schedulable for the pod', p, node('n'), node('n', { labels: { a: 'b' } }), 'QueueSkip'],
  ]);
});

describe('NodeAffinity (Test_isSchedulableAfterNodeChange)', () => {
  const p = makePod('p', [], { nodeSelector: { foo: 'bar' } });
  table(nodeAffinityAfterNodeChange, [
    [
      'add a new node with matched pod affinity topologyKey',
      p,
      undefined,
      node('n', { labels: { foo: 'bar' } }),
      'Queue',
    ],
    ['add a new node without matched topologyKey', p, undefined, node('n', { labels: { foo: 'baz' } }), 'QueueSkip'],
    ['update node label but not matched', p, node('n'), node('n', { labels: { foo: 'baz' } }), 'QueueSkip'],
    ['update node label with matched', p, node('n'), node('n', { labels: { foo: 'bar' } }), 'Queue'],
    [
      'update node label that was already matched',
      p,
      node('n', { labels: { foo: 'bar' } }),
      node('n', { labels: { foo: 'bar', x: 'y' } }),
      'QueueSkip',
    ],
    [
      'pod without affinity and an updated node',
      makePod('p'),
      node('n'),
      node('n', { labels: { x: 'y' } }),
      'QueueSkip',
    ],
  ]);
});

describe('NodePorts (Test_isSchedulableAfterAssignedPodDeleted)', () => {
  const withPort = (name: string, port: number, nodeName?: string) =>
    ({
      ...makePod(name, [], { nodeName }),
      spec: {
        nodeName,
        containers: [{ name: 'c', ports: [{ containerPort: port, hostPort: port, protocol: 'TCP' }] }],
      },
    }) as Pod;
  table(nodePortsAfterAssignedPodDeleted, [
    ['queue-on-pod-deleted-with-same-port', withPort('p', 8080), withPort('q', 8080, 'n'), undefined, 'Queue'],
    ['skip-queue-on-unscheduled', withPort('p', 8080), withPort('q', 8080), undefined, 'QueueSkip'],
    [
      'skip-queue-on-pod-without-ports',
      withPort('p', 8080),
      makePod('q', [], { nodeName: 'n' }),
      undefined,
      'QueueSkip',
    ],
    ['skip-queue-on-different-port', withPort('p', 8080), withPort('q', 9090, 'n'), undefined, 'QueueSkip'],
  ]);
});

describe('NodeResourcesFit', () => {
  describe('Test_isSchedulableAfterAssignedPodDelete', () => {
    table(nodeResourcesFitAfterAssignedPodDelete, [
      [
        'queue-on-other-pod-deleted',
        cpuPod('pod1', '1'),
        cpuPod('pod2', '1', { nodeName: 'fake' }),
        undefined,
        'Queue',
      ],
      ['skip-queue-on-unscheduled-pod-deleted', makePod('pod1'), makePod('pod2'), undefined, 'QueueSkip'],
      [
        'queue-on-nominated-pod-deleted',
        cpuPod('pod1', '1'),
        { ...cpuPod('pod2', '2'), status: { nominatedNodeName: 'fake' } },
        undefined,
        'Queue',
      ],
    ]);
  });
  describe('Test_isSchedulableAfterAssignedPodScaleDown', () => {
    table(nodeResourcesFitAfterAssignedPodScaleDown, [
      [
        'skip-queue-on-other-unscheduled-pod',
        cpuPod('pod1', '1'),
        cpuPod('pod2', '2'),
        cpuPod('pod2', '1'),
        'QueueSkip',
      ],
      [
        'skip-queue-on-other-pod-unrelated-resource-scaled-down',
        cpuPod('pod1', '1'),
        makePod('pod2', [{ memory: '2' }], { nodeName: 'fake' }),
        makePod('pod2', [{ memory: '1' }], { nodeName: 'fake' }),
        'QueueSkip',
      ],
      [
        'queue-on-other-pod-some-resource-scale-down',
        cpuPod('pod1', '1'),
        cpuPod('pod2', '2', { nodeName: 'fake' }),
        cpuPod('pod2', '1', { nodeName: 'fake' }),
        'Queue',
      ],
    ]);
  });
  describe('Test_isSchedulableAfterNodeChange', () => {
    const mem2 = makePod('p', [{ memory: '2' }]);
    table(nodeResourcesFitAfterNodeChange, [
      ['skip-queue-on-node-add-without-sufficient-resources', mem2, undefined, memNode('1'), 'QueueSkip'],
      ['queue-on-node-add-with-sufficient-resources', mem2, undefined, memNode('4'), 'Queue'],
      [
        'skip-queue-on-node-unrelated-changes',
        mem2,
        memNode('2'),
        makeNode('n', { memory: '2', pods: '32', cpu: '4' }),
        'QueueSkip',
      ],
      ['queue-on-pod-requested-resources-increase', mem2, memNode('2'), memNode('3'), 'Queue'],
      ['skip-queue-on-node-changes-from-suitable-to-unsuitable', mem2, memNode('4'), memNode('1'), 'QueueSkip'],
      ['queue-on-node-changes-from-unsuitable-to-suitable', mem2, memNode('1'), memNode('4'), 'Queue'],
      ['queue-on-allowed-pod-number-increase', mem2, memNode('2'), makeNode('n', { memory: '2', pods: '64' }), 'Queue'],
    ]);
  });
});

describe('PodTopologySpread', () => {
  const spread = (...keys: string[]): TopologySpreadConstraint[] =>
    keys.map((topologyKey) => ({
      maxSkew: 1,
      topologyKey,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] },
    }));
  const p = makePod('p', [], { topologySpreadConstraints: spread('zone') });
  const p2 = makePod('p', [], { topologySpreadConstraints: spread('zone', 'node') });
  const n = (labels: Record<string, string>, taints?: Taint[]) => node('node-a', { labels, taints });
  const t = (key: string) => [{ key, value: 'bbb', effect: 'NoSchedule' as const }];
  describe('Test_isSchedulableAfterNodeChange', () => {
    table(podTopologySpreadAfterNodeChange, [
      ['node updates label which matches topologyKey', p, n({ zone: 'zone1' }), n({ zone: 'zone2' }), 'Queue'],
      [
        "node that doesn't match topologySpreadConstraints updates non-related label",
        p,
        n({ foo: 'bar1' }),
        n({ foo: 'bar2' }),
        'QueueSkip',
      ],
      [
        'node that match topologySpreadConstraints adds non-related label',
        p2,
        n({ zone: 'zone1', node: 'node1', foo: 'bar' }),
        n({ zone: 'zone1', node: 'node1' }),
        'QueueSkip',
      ],
      ['create node with non-related labels', p, undefined, n({ foo: 'bar' }), 'QueueSkip'],
      ['create node with related labels', p, undefined, n({ zone: 'zone1' }), 'Queue'],
      ['delete node with non-related labels', p, n({ foo: 'bar' }), undefined, 'QueueSkip'],
      ['delete node with related labels', p, n({ zone: 'zone1' }), undefined, 'Queue'],
      [
        'add node with related labels that only match one of topologySpreadConstraints',
        p2,
        undefined,
        n({ zone: 'zone1' }),
        'QueueSkip',
      ],
      [
        'add node with related labels that match all topologySpreadConstraints',
        p2,
        undefined,
        n({ zone: 'zone1', node: 'node1' }),
        'Queue',
      ],
      [
        'update node with related labels that only match one of topologySpreadConstraints',
        p2,
        n({ zone: 'zone1' }),
        n({ zone: 'zone1' }),
        'QueueSkip',
      ],
      [
        'update node with related labels that match all topologySpreadConstraints',
        p2,
        n({ zone: 'zone1', node: 'node1' }),
        n({ zone: 'zone1', node: 'node2' }),
        'Queue',
      ],
      [
        'update node with different taints that match all topologySpreadConstraints',
        p2,
        n({ zone: 'zone1', node: 'node1' }, t('aaa')),
        n({ zone: 'zone1', node: 'node1' }, t('ccc')),
        'Queue',
      ],
      [
        'update node with different taints that only match one of topologySpreadConstraints',
        p2,
        n({ node: 'node1' }, t('aaa')),
        n({ node: 'node1' }, t('ccc')),
        'QueueSkip',
      ],
    ]);
  });
  describe('Test_isSchedulableAfterAssignedPodChange', () => {
    const bound = (labels: Record<string, string> | undefined, namespace?: string) =>
      makePod('q', [], { nodeName: 'fake', labels, namespace });
    table(podTopologySpreadAfterAssignedPodChange, [
      ['add pod with labels match topologySpreadConstraints selector', p, undefined, bound({ foo: '' }), 'Queue'],
      ['add un-scheduled pod', p, undefined, makePod('q', [], { labels: { foo: '' } }), 'QueueSkip'],
      [
        'update un-scheduled pod',
        p,
        makePod('q', [], { labels: { foo: '' } }),
        makePod('q', [], { labels: { bar: '' } }),
        'QueueSkip',
      ],
      ['delete un-scheduled pod', p, makePod('q', [], { labels: { foo: '' } }), undefined, 'QueueSkip'],
      ['add pod with different namespace', p, undefined, bound({ foo: '' }, 'ns1'), 'QueueSkip'],
      [
        'add pod with labels not match topologySpreadConstraints selector',
        p,
        undefined,
        bound({ bar: '' }),
        'QueueSkip',
      ],
      ['update pod with labels match topologySpreadConstraints selector', p, bound({}), bound({ foo: '' }), 'Queue'],
      [
        'update pod with labels not match topologySpreadConstraints selector',
        p,
        bound({}),
        bound({ bar: '' }),
        'QueueSkip',
      ],
      [
        'update pod with labels that is unrelated to the selector',
        p,
        bound({ foo: '' }),
        bound({ foo: '', bar: '' }),
        'QueueSkip',
      ],
      [
        'delete pod with labels that match topologySpreadConstraints selector',
        p,
        bound({ foo: '' }),
        undefined,
        'Queue',
      ],
      [
        'delete pod with labels that not match topologySpreadConstraints selector',
        p,
        bound({ bar: '' }),
        undefined,
        'QueueSkip',
      ],
      [
        'pod without constraints of its own (the system defaults are soft)',
        makePod('p'),
        undefined,
        bound({ foo: '' }),
        'QueueSkip',
      ],
    ]);
  });
  describe('Test_isSchedulableAfterTargetPodChange', () => {
    const honor = makePod('p', [], {
      topologySpreadConstraints: spread('zone').map((c) => ({ ...c, nodeTaintsPolicy: 'Honor' as const })),
    });
    const tolerating = (x: Pod) => ({ ...x, spec: { ...x.spec!, tolerations: [tol('foo', 'Exists')] } });
    table(podTopologySpreadAfterTargetPodChange, [
      [
        'the unschedulable pod has got a new toleration with NodeTaintsPolicy: Honor',
        honor,
        honor,
        tolerating(honor),
        'Queue',
      ],
      [
        'the unschedulable pod has got a new toleration without NodeTaintsPolicy: Honor',
        p,
        p,
        tolerating(p),
        'QueueSkip',
      ],
      [
        'the unschedulable pod has got a label that matches the selector',
        p,
        p,
        { ...p, metadata: { ...p.metadata, labels: { foo: '' } } },
        'Queue',
      ],
      [
        'the unschedulable pod has got an unrelated label',
        p,
        p,
        { ...p, metadata: { ...p.metadata, labels: { bar: '' } } },
        'QueueSkip',
      ],
    ]);
  });
});

describe('events (framework/events.go, types.go)', () => {
  it('MatchClusterEvents: an incoming event matches a registration as or less specific than itself', () => {
    const reg = { resource: 'Node' as const, actionType: ActionType.Add | ActionType.UpdateNodeLabel };
    expect(matchClusterEvents(reg, { resource: 'Node', actionType: ActionType.UpdateNodeLabel })).toBe(true);
    expect(matchClusterEvents(reg, { resource: 'Node', actionType: ActionType.UpdateNodeTaint })).toBe(false);
    // The general Update is not any of the specific ones.
    expect(matchClusterEvents(reg, { resource: 'Node', actionType: ActionType.Update })).toBe(false);
    expect(
      matchClusterEvents(
        { resource: 'Pod', actionType: ActionType.All },
        { resource: 'AssignedPod', actionType: ActionType.Delete },
      ),
    ).toBe(true);
    expect(matchClusterEvents(reg, { resource: '*', actionType: ActionType.All })).toBe(false);
  });

  it('NodeSchedulingPropertiesChange: one event per kind of change; cordoning is none', () => {
    const base = makeNode('n');
    const kinds = (n: Node) => nodeSchedulingPropertiesChange(n, base).map((e) => e.actionType);
    expect(kinds({ ...base, metadata: { ...base.metadata, labels: { ...base.metadata!.labels, a: 'b' } } })).toEqual([
      ActionType.UpdateNodeLabel,
    ]);
    expect(kinds(makeNode('n', { cpu: '8', memory: '8Gi', pods: '110' }))).toEqual([ActionType.UpdateNodeAllocatable]);
    expect(kinds(makeNode('n', { cpu: '4000m', memory: '8Gi', pods: '110' }))).toEqual([]);
    expect(kinds(makeNode('n', undefined, { unschedulable: true }))).toEqual([]);
    expect(
      nodeSchedulingPropertiesChange(base, makeNode('n', undefined, { unschedulable: true })).map((e) => e.actionType),
    ).toEqual([ActionType.UpdateNodeTaint]);
    expect(kinds({ ...base, status: { ...base.status, conditions: [{ type: 'Ready', status: 'True' }] } })).toEqual([
      ActionType.UpdateNodeCondition,
    ]);
  });

  it('PodSchedulingPropertiesChange: labels, scale down/up, tolerations; general Update otherwise', () => {
    const a = cpuPod('p', '2', { nodeName: 'n' });
    expect(podSchedulingPropertiesChange(cpuPod('p', '1', { nodeName: 'n' }), a, false)).toEqual([
      { resource: 'AssignedPod', actionType: ActionType.UpdatePodScaleDown },
    ]);
    expect(podSchedulingPropertiesChange({ ...a, status: { phase: 'Running' } }, a, false)).toEqual([
      { resource: 'AssignedPod', actionType: ActionType.Update },
    ]);
    const u = makePod('p');
    expect(
      podSchedulingPropertiesChange({ ...u, spec: { ...u.spec!, tolerations: [tol('x', 'Exists')] } }, u, true),
    ).toEqual([{ resource: 'TargetPod', actionType: ActionType.UpdatePodToleration }]);
    expect(podSchedulingPropertiesChange({ ...u, metadata: { ...u.metadata, labels: { a: 'b' } } }, u, false)).toEqual([
      { resource: 'UnscheduledPod', actionType: ActionType.UpdatePodLabel },
    ]);
  });
});
