// fast-check arbitraries of small clusters and incoming pods for the scheduler's property tests
// (schedule-one.test.ts, schedule-fast.test.ts); not exported from the core.
import fc from 'fast-check';
import type { Node, Pod, Taint } from '../scheduler/k8s-types.ts';
import { newNodeInfo, type NodeInfo } from '../scheduler/node-info.ts';
import { makeNode, makePod, tol } from './scheduler.ts';

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
      pods: fc.array(fc.record({ cpu: fc.constantFrom('100m', '300m', '1'), port: fc.constantFrom(0, 80) }), {
        maxLength: 3,
      }),
    })
    .map((r) => ({
      node: makeNode(
        `node-${i}`,
        { cpu: r.cpu, memory: r.mem, pods: String(r.maxPods) },
        {
          taints: r.taints,
          labels: { 'topology.kubernetes.io/zone': r.zone, disk: r.disk },
          unschedulable: r.unschedulable,
        },
      ),
      pods: r.pods.map((p, j) => {
        const pod = makePod(`e-${i}-${j}`, [{ cpu: p.cpu }], { labels: { app: 'web' } });
        if (p.port) pod.spec!.containers[0].ports = [{ containerPort: 80, hostPort: p.port }];
        return pod;
      }),
    }));

export const arbCluster = fc
  .integer({ min: 1, max: 6 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbNode(i))));

export const arbPod = fc
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
        ? [
            {
              maxSkew: 1,
              topologyKey: 'topology.kubernetes.io/zone',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'web' } },
            },
          ]
        : undefined,
    });
    if (r.port) pod.spec!.containers[0].ports = [{ containerPort: 80, hostPort: r.port }];
    return pod;
  });

export function build(cluster: { node: Node; pods: Pod[] }[]): NodeInfo[] {
  return cluster.map((c) => newNodeInfo(c.node, c.pods));
}
