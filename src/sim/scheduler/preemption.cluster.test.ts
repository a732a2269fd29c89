// Preemption end to end on the assembled cluster: a high-priority pod on a full cluster preempts a
// lower-priority pod through the API server (DisruptionTarget, graceful DELETE, Preempted), is
// nominated, binds once the victim is gone; the victim's ReplicaSet replaces it and the replacement
// stays Pending with DefaultPreemption's "no victims" text.
import { describe, expect, test } from 'vitest';
import { createCluster, type Cluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { storeList } from '../apiserver/store.ts';

function ok(c: Cluster, cmd: string): string {
  const r = runKubectl(c, cmd);
  expect(r.stderr, cmd).toBe('');
  expect(r.exitCode, cmd).toBe(0);
  return r.stdout;
}
const pods = (c: Cluster) => storeList(c.world.state.store, 'pods', 'default');
const pod = (c: Cluster, name: string) => pods(c).find((p) => p.metadata?.name === name);
const events = (c: Cluster, reason: string) =>
  storeList(c.world.state.store, 'events', 'default').filter((e) => e.reason === reason);

describe('DefaultPreemption on a full cluster', () => {
  test('the preemptor nominates, the victim goes, the replacement waits', () => {
    const c = createCluster();
    expect(ok(c, 'create priorityclass high --value=1000')).toBe('priorityclass.scheduling.k8s.io/high created\n');
    expect(ok(c, 'get priorityclasses'))
      .toBe(`NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY
high                      1000         false            0s    PreemptLowerPriority
system-cluster-critical   2000000000   false            0s    PreemptLowerPriority
system-node-critical      2000001000   false            0s    PreemptLowerPriority
`);
    // Each filler asks for 3 of a node's 4 CPUs: one per node, and no room for a 2-CPU pod anywhere.
    const template = {
      metadata: { labels: { app: 'filler' } },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '3' } } }] },
    };
    expect(
      c.world.kubectl({
        verb: 'create',
        resource: 'deployments',
        namespace: 'default',
        body: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'filler' },
          spec: { replicas: 3, selector: { matchLabels: { app: 'filler' } }, template },
        },
      }).ok,
    ).toBe(true);
    c.settle();
    const fillers = () => pods(c).filter((p) => p.metadata?.name?.startsWith('filler-'));
    expect(fillers().filter((p) => p.status?.phase === 'Running')).toHaveLength(3);

    c.world.kubectl({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'urgent' },
        spec: {
          priorityClassName: 'high',
          containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '2' } } }],
        },
      },
    });
    c.advance(200);
    const failed = events(c, 'FailedScheduling').find((e) => e.involvedObject?.name === 'urgent')!;
    const node = pod(c, 'urgent')!.status?.nominatedNodeName;
    expect(node).toMatch(/^node-\d$/);
    expect(failed.message).toBe(
      `0/3 nodes are available: 3 Insufficient cpu. preemption: found a potential placement for pod on node ${node}, preempting 1 victims`,
    );
    expect(pod(c, 'urgent')!.spec?.priority).toBe(1000);

    // The victim: the filler on that node, DisruptionTarget by the scheduler, graceful deletion.
    const victim = fillers().find((p) => p.spec?.nodeName === node)!;
    expect(victim.metadata?.deletionTimestamp).toBeDefined();
    expect(victim.status?.conditions?.find((x) => x.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
    });
    const preempted = events(c, 'Preempted');
    // An events.k8s.io Event read as core/v1: its reporter is reportingComponent (no source).
    expect(preempted.map((e) => [e.involvedObject?.name, e.message, e.reportingComponent])).toEqual([
      [
        victim.metadata?.name,
        `Preempted by pod ${pod(c, 'urgent')!.metadata?.uid} on node ${node}`,
        'default-scheduler',
      ],
    ]);
    // The scheduler's own requests, in order: its failure handling, then the preemption's calls.
    const path = (p: string) => `/api/v1/namespaces/default/pods/${p}`;
    const calls = c.world.state.log
      .filter(
        (r) =>
          r.component === 'scheduler' &&
          r.kind === 'request' &&
          r.verb !== 'GET' &&
          r.verb !== 'WATCH' &&
          !String(r.path).includes('/events'),
      )
      .map((r) => `${r.verb} ${r.path} ${r.code}`)
      .filter((l) => l.includes('/urgent') || l.includes(`/${victim.metadata!.name!}`));
    expect(calls.slice(-3)).toEqual([
      `PATCH ${path('urgent')}/status 200`,
      `PATCH ${path(victim.metadata!.name!)}/status 200`,
      `DELETE ${path(victim.metadata!.name!)} 200`,
    ]);

    // The victim's container stops, the kubelet deletes the pod; the preemptor waits out its backoff.
    c.advance(10_000);
    c.settle();
    // The preemptor took the freed node; the nomination went with the binding.
    expect(pod(c, 'urgent')!.spec?.nodeName).toBe(node);
    expect(pod(c, 'urgent')!.status?.nominatedNodeName).toBeUndefined();
    expect(pod(c, victim.metadata!.name!)).toBeUndefined();
    // The ReplicaSet replaced the victim; the replacement has nowhere to go and no one to preempt.
    const pending = fillers().filter((p) => !p.spec?.nodeName);
    expect(pending).toHaveLength(1);
    const last = events(c, 'FailedScheduling')
      .filter((e) => e.involvedObject?.name === pending[0].metadata?.name)
      .at(-1)!;
    expect(last.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
    expect(pending[0].status?.nominatedNodeName).toBeUndefined();
    expect(
      ok(c, 'get pods')
        .split('\n')
        .filter((l) => l.includes('Pending')),
    ).toHaveLength(1);
  });
});
