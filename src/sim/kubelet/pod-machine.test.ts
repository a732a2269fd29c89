import { describe, it, expect } from 'vitest';
import { initialTransition, transition } from 'xstate';
import { peek } from '../clock.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { storeList } from '../apiserver/store.ts';
import { statechartOf } from '../view/statechart.ts';
import { kubeletStateOf, podLifecycleOf, setContainerHealth } from './kubelet.ts';
import { podMachine, type PodMachineEvent } from './pod-machine.ts';

const NODES = ['node-1', 'node-2', 'node-3'];
const webPods = (c: Cluster) =>
  storeList(c.world.state.store, 'pods', 'default').filter((p) => p.metadata?.labels?.app === 'web');

/** Every (pod, machine state) the kubelets hold, after each event up to `ms` from now. */
function run(c: Cluster, ms: number, seen: Set<string>): void {
  const until = c.now + ms;
  for (let e = peek(c.world.state.queue); e && e.at <= until; e = peek(c.world.state.queue)) {
    c.world.next();
    for (const n of NODES) {
      const k = kubeletStateOf(c.world.state, n);
      for (const key in k?.workers ?? {}) seen.add(podLifecycleOf(k!, key)!.state);
    }
  }
  c.advance(until - c.now);
}

/**
 * Once things are quiet, what each kubelet's machine says of a pod is what the API server stores
 * for it: the reason kubectl's STATUS shows and the Ready condition.
 */
function expectAgreement(c: Cluster): void {
  for (const p of webPods(c)) {
    const k = p.spec?.nodeName ? kubeletStateOf(c.world.state, p.spec.nodeName) : undefined;
    const life = k && podLifecycleOf(k, `default/${p.metadata!.name}`);
    if (!life || p.metadata?.deletionTimestamp) continue;
    const cs = p.status?.containerStatuses?.[0];
    const where = `${p.metadata!.name} in ${life.state} at ${c.now} ms`;
    expect(life.context.ready, where).toBe(p.status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True');
    expect(life.context.reason, where).toBe(
      cs?.state?.waiting?.reason ?? (cs?.state?.running ? 'Running' : 'ContainerCreating'),
    );
    expect(life.context.restartCount, where).toBe(cs?.restartCount ?? 0);
  }
}

describe('pod machine, as the kubelets run it in a cluster', () => {
  it('takes pods through every state of the chart, each quiet state what the API server stores', () => {
    const seen = new Set<string>();
    const c = createCluster({ seed: 9, nodes: 3 });
    c.settle();
    const probe = { httpGet: { path: '/', port: 80 }, periodSeconds: 5 };
    c.request({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              containers: [
                {
                  name: 'web',
                  image: 'nginx:1.27',
                  readinessProbe: probe,
                  livenessProbe: { ...probe, failureThreshold: 2 },
                },
              ],
            },
          },
        },
      },
    });
    run(c, 60_000, seen);
    expectAgreement(c);
    const [a, b, d] = webPods(c).map((p) => ({ name: p.metadata!.name!, node: p.spec!.nodeName! }));
    // a's app stops answering its readiness probe, then its liveness probe: out of the Service,
    // then killed and restarted.
    const podA = () => webPods(c).find((p) => p.metadata?.name === a.name)!;
    setContainerHealth(c.world, a.node, `default/${a.name}`, { readiness: false });
    run(c, 30_000, seen);
    expectAgreement(c);
    expect(podA().status?.conditions?.find((x) => x.type === 'Ready')?.status).toBe('False');
    setContainerHealth(c.world, a.node, `default/${a.name}`, { liveness: false });
    run(c, 30_000, seen);
    setContainerHealth(c.world, a.node, `default/${a.name}`, { readiness: true, liveness: true });
    run(c, 60_000, seen);
    expectAgreement(c);
    expect(podA().status?.containerStatuses?.[0].restartCount).toBeGreaterThan(0);
    // b crashes twice: restarted at once, then held in back-off.
    c.crash('default', b.name);
    run(c, 5_000, seen);
    c.crash('default', b.name, { oom: true });
    run(c, 5_000, seen);
    expectAgreement(c);
    run(c, 60_000, seen);
    // A new image the registry does not have: the new pods cannot pull it.
    c.image('nginx:9.9', 'missing');
    c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      options: { patchType: 'strategic' },
      body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:9.9' }] } } } },
    });
    run(c, 60_000, seen);
    expectAgreement(c);
    c.image('nginx:9.9', 'available');
    run(c, 120_000, seen);
    expectAgreement(c);
    // d is deleted: terminating, then terminated.
    c.request({ verb: 'delete', resource: 'pods', namespace: 'default', name: d.name });
    run(c, 60_000, seen);
    const chart = statechartOf(podMachine)
      .states.filter((s) => s.type !== 'compound')
      .map((s) => s.id)
      .sort();
    expect([...seen].sort().join(' ')).toBe(chart.join(' '));
  });

  it('crash loop: first exit restarts at once, later ones back off', () => {
    let [s] = initialTransition(podMachine, { imagePresent: true });
    for (const e of [{ type: 'SANDBOX_READY' }, { type: 'STARTED' }, { type: 'EXITED', code: 1 }] as PodMachineEvent[])
      [s] = transition(podMachine, s, e);
    expect(s.value).toBe('creating');
    expect(s.context.restartCount).toBe(1);
    for (const e of [
      { type: 'STARTED' },
      { type: 'EXITED', code: 137, oom: true, inBackOff: true },
    ] as PodMachineEvent[])
      [s] = transition(podMachine, s, e);
    expect(s.value).toBe('crashLoopBackOff');
    expect(s.context).toMatchObject({
      reason: 'CrashLoopBackOff',
      lastExitCode: 137,
      lastReason: 'OOMKilled',
      restartCount: 1,
    });
    [s] = transition(podMachine, s, { type: 'BACKOFF_EXPIRED' });
    expect([s.value, s.context.restartCount]).toEqual(['creating', 2]);
  });

  it('image pull failure path and readiness', () => {
    let [s] = initialTransition(podMachine, { hasReadinessProbe: true });
    const seq: PodMachineEvent[] = [
      { type: 'SANDBOX_READY' },
      { type: 'PULL_FAILED' },
      { type: 'PULL_BACKOFF' },
      { type: 'BACKOFF_EXPIRED' },
      { type: 'IMAGE_PULLED' },
      { type: 'STARTED' },
    ];
    const seen: unknown[] = [];
    for (const e of seq) {
      [s] = transition(podMachine, s, e);
      seen.push(s.context.reason);
    }
    expect(seen).toEqual([
      'ContainerCreating',
      'ErrImagePull',
      'ImagePullBackOff',
      'ContainerCreating',
      'ContainerCreating',
      'Running',
    ]);
    expect([s.value, s.context.ready]).toEqual([{ running: 'notReady' }, false]);
    [s] = transition(podMachine, s, { type: 'PROBE_OK', probe: 'readiness' });
    expect(s.context.ready).toBe(true);
    [s] = transition(podMachine, s, { type: 'DELETE_REQUESTED' });
    [s] = transition(podMachine, s, { type: 'GRACE_EXPIRED' });
    expect([s.value, s.status, s.context.lastExitCode]).toEqual(['terminated', 'done', 137]);
  });
});
