// frameOf on the assembled cluster: what a figure's canvas draws at each moment of the stories the
// chapters tell (a Deployment rolled out, a node powered off, the control plane stopped), and the
// guarantees the worker relies on (plain JSON, the same frame for the same seed).
import { describe, expect, test } from 'vitest';
import { createCluster, type Cluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { frameOf } from './frame.ts';
import type { Frame, NodeView } from './types.ts';

/** What `kubectl create deployment web --image=nginx:1.27 --replicas=N` sends (cmdCreateDeployment). */
function webDeployment(replicas: number, name = 'web') {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  };
}

/** A settled cluster running Deployment web with n Ready replicas. */
function withWeb(n = 3): Cluster {
  const c = createCluster({ seed: 1 });
  const r = c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(n) });
  expect(r.ok).toBe(true);
  c.settle();
  return c;
}

const nodeOf = (f: Frame, name: string): NodeView => f.nodes.find((n) => n.name === name)!;

/** Every value reachable from v, to prove no undefined hides in a frame. */
function hasUndefined(v: unknown): boolean {
  if (v === undefined) return true;
  if (v === null || typeof v !== 'object') return false;
  return Object.values(v).some(hasUndefined);
}

describe('frameOf', () => {
  test('a new cluster: three Ready, powered workers with their allocatable, pod CIDR and a fresh Lease', () => {
    const c = createCluster({ seed: 1 });
    c.settle();
    c.advance(3_000);
    const f = frameOf(c);
    expect(f.t).toBe(c.now);
    expect(f.revision).toBe(c.world.state.store.revision);
    expect(f.controlPlane).toEqual({
      apiserver: true,
      etcd: true,
      scheduler: true,
      controllerManager: true,
      latencyMs: 0,
      etcdFull: false,
    });
    expect(f.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2', 'node-3']);
    for (const [i, n] of f.nodes.entries()) {
      expect(n).toMatchObject({
        powered: true,
        partitioned: false,
        ready: 'True',
        taints: [],
        cordoned: false,
        podCIDR: `10.244.${i + 1}.0/24`,
      });
      // 4 CPU; 8 GiB less kubeadm's default reservations, as the node reports it (8092Mi).
      expect(n.cpuMilli).toBe(4000);
      expect(n.memoryBytes).toBe(8286208 * 1024);
      // Renewed every 10 s, the first at registration.
      expect(n.leaseAgeMs).toBeGreaterThanOrEqual(0);
      expect(n.leaseAgeMs).toBeLessThan(10_000);
    }
    expect(f.pods).toEqual([]);
    expect(f.pending).toEqual([]);
    expect(f.deployments).toEqual([]);
  });

  test('Deployment web of 3: three pods Running 1/1 with pod IPs, owned by its ReplicaSet, and the rollout complete', () => {
    const c = withWeb(3);
    const f = frameOf(c);
    expect(f.pods).toHaveLength(3);
    expect(f.pending).toEqual([]);
    const rs = f.deployments[0].replicaSets[0].name;
    expect(rs).toMatch(/^web-[a-z0-9]+$/);
    for (const p of f.pods) {
      expect(p).toMatchObject({
        namespace: 'default',
        phase: 'Running',
        ready: true,
        status: 'Running',
        readyText: '1/1',
        restarts: 0,
        terminating: false,
        owner: `ReplicaSet/${rs}`,
        image: 'nginx:1.27',
      });
      expect(p.name.startsWith(`${rs}-`)).toBe(true);
      expect(p.ip).toMatch(/^10\.244\.\d+\.\d+$/);
      // A pod's IP comes from its node's CIDR.
      expect(p.ip!.split('.').slice(0, 3).join('.') + '.0/24').toBe(nodeOf(f, p.node!).podCIDR);
    }
    // By node, then by name.
    const order = f.pods.map((p) => `${p.node} ${p.name}`);
    expect(order).toEqual([...order].sort());
    expect(f.deployments).toEqual([
      {
        name: 'web',
        namespace: 'default',
        replicas: 3,
        readyReplicas: 3,
        updatedReplicas: 3,
        availableReplicas: 3,
        image: 'nginx:1.27',
        rollout: { state: 'complete', why: expect.stringContaining('NewReplicaSetAvailable') },
        replicaSets: [{ name: rs, replicas: 3, readyReplicas: 3, image: 'nginx:1.27', revision: '1' }],
      },
    ]);
  });

  test('a rollout: both ReplicaSets, oldest revision first, and the statechart state while it runs', () => {
    const c = withWeb(3);
    expect(runKubectl(c, 'set image deployment/web nginx=nginx:1.28').exitCode).toBe(0);
    c.advance(50);
    const mid = frameOf(c).deployments[0];
    expect(mid.image).toBe('nginx:1.28');
    expect(mid.replicaSets.map((r) => [r.revision, r.image])).toEqual([
      ['1', 'nginx:1.27'],
      ['2', 'nginx:1.28'],
    ]);
    expect(mid.rollout?.state).toMatch(/^progressing\./);
    c.settle();
    const done = frameOf(c).deployments[0];
    expect(done.rollout?.state).toBe('complete');
    expect(done.replicaSets.map((r) => r.replicas)).toEqual([0, 3]);
    expect(frameOf(c).pods.every((p) => p.image === 'nginx:1.28' && p.status === 'Running')).toBe(true);
  });

  test('node-3 powered off: off at once, its Lease ages, and ~50 s later Ready Unknown with the unreachable taints', () => {
    const c = withWeb(3);
    c.node('node-3', 'stop');
    c.advance(1);
    let f = frameOf(c);
    expect(nodeOf(f, 'node-3')).toMatchObject({ powered: false, partitioned: false, ready: 'True', taints: [] });
    const stoppedAt = c.now;
    while (nodeOf(frameOf(c), 'node-3').ready === 'True' && c.now - stoppedAt < 120_000) c.advance(500);
    f = frameOf(c);
    const n3 = nodeOf(f, 'node-3');
    expect(n3.ready).toBe('Unknown');
    // node-monitor-grace-period is 50 s from the last renewal, seen at the next 5 s monitor pass.
    expect(c.now - stoppedAt).toBeGreaterThan(35_000);
    expect(c.now - stoppedAt).toBeLessThan(60_000);
    expect(n3.leaseAgeMs).toBeGreaterThanOrEqual(40_000);
    // The NoExecute taint follows at the controller's next taint pass.
    c.advance(10_000);
    expect(nodeOf(frameOf(c), 'node-3').taints).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
    ]);
    // The others carry on.
    expect(['node-1', 'node-2'].map((n) => nodeOf(frameOf(c), n).ready)).toEqual(['True', 'True']);
  });

  test('a partitioned node is powered but cut off; cordon shows as cordoned', () => {
    const c = withWeb(3);
    c.node('node-2', 'partition');
    runKubectl(c, 'cordon node-1');
    c.advance(100);
    const f = frameOf(c);
    expect(nodeOf(f, 'node-2')).toMatchObject({ powered: true, partitioned: true });
    expect(nodeOf(f, 'node-1')).toMatchObject({
      cordoned: true,
      taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
    });
  });

  test('no scheduler: new pods wait in pending, by name, unbound and 0/1', () => {
    const c = withWeb(3);
    c.controlPlane('stop', 'scheduler');
    expect(runKubectl(c, 'scale deployment web --replicas=5').exitCode).toBe(0);
    c.advance(5_000);
    const f = frameOf(c);
    expect(f.controlPlane.scheduler).toBe(false);
    expect(f.pods).toHaveLength(3);
    expect(f.pending).toHaveLength(2);
    expect(f.pending.map((p) => p.name)).toEqual(f.pending.map((p) => p.name).sort());
    for (const p of f.pending)
      expect(p).toMatchObject({
        node: null,
        phase: 'Pending',
        status: 'Pending',
        readyText: '0/1',
        ready: false,
        ip: null,
      });
  });

  test('a deleted pod is Terminating until its kubelet has stopped it', () => {
    const c = withWeb(3);
    const victim = frameOf(c).pods[0].name;
    expect(runKubectl(c, `delete pod ${victim} --wait=false`).exitCode).toBe(0);
    const p = frameOf(c).pods.find((x) => x.name === victim)!;
    expect(p).toMatchObject({ terminating: true, status: 'Terminating' });
    c.settle();
    const f = frameOf(c);
    expect(f.pods.find((x) => x.name === victim)).toBeUndefined();
    expect(f.pods).toHaveLength(3);
  });

  test('a crashed container counts a restart', () => {
    const c = withWeb(1);
    const name = frameOf(c).pods[0].name;
    expect(c.crash('default', name)).toBe(true);
    c.advance(15_000);
    expect(frameOf(c).pods[0]).toMatchObject({ name, restarts: 1 });
  });

  test('the control plane stopped, and the faults a reader can set', () => {
    const c = withWeb(1);
    c.controlPlane('stop');
    expect(frameOf(c).controlPlane).toEqual({
      apiserver: false,
      etcd: false,
      scheduler: false,
      controllerManager: false,
      latencyMs: 0,
      etcdFull: false,
    });
    // A stopped controller-manager has no rollout statechart to read.
    expect(frameOf(c).deployments[0].rollout).toBeNull();
    c.controlPlane('start');
    c.apiserverLatency(250);
    c.etcd('full');
    expect(frameOf(c).controlPlane).toEqual({
      apiserver: true,
      etcd: true,
      scheduler: true,
      controllerManager: true,
      latencyMs: 250,
      etcdFull: true,
    });
  });

  test('pods in the cluster’s own namespaces stay out; other namespaces are in', () => {
    const c = createCluster({ seed: 1, kubeadm: true });
    expect(runKubectl(c, 'create namespace team').exitCode).toBe(0);
    expect(runKubectl(c, 'create deployment api -n team --image=nginx:1.27').exitCode).toBe(0);
    c.settle();
    const f = frameOf(c);
    expect(f.nodes.map((n) => n.name)).toEqual(['control-plane', 'node-1', 'node-2', 'node-3']);
    expect(nodeOf(f, 'control-plane').taints).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
    ]);
    expect(f.pods.map((p) => p.namespace)).toEqual(['team']);
    expect(f.deployments.map((d) => `${d.namespace}/${d.name}`)).toEqual(['team/api']);
  });

  test('plain JSON: no undefined anywhere, and it round-trips', () => {
    const c = withWeb(3);
    c.controlPlane('stop', 'scheduler');
    runKubectl(c, 'scale deployment web --replicas=4');
    c.node('node-3', 'stop');
    c.advance(60_000);
    const f = frameOf(c);
    expect(f.pending.length).toBeGreaterThan(0);
    expect(hasUndefined(f)).toBe(false);
    expect(JSON.parse(JSON.stringify(f))).toEqual(f);
  });

  test('deterministic: the same seed and inputs give the same frame; a reader changing its frame changes nothing', () => {
    const run = () => {
      const c = withWeb(3);
      c.node('node-2', 'stop');
      c.advance(45_000);
      return c;
    };
    const a = run();
    const fa = frameOf(a);
    expect(frameOf(run())).toEqual(fa);
    fa.pods[0].status = 'changed';
    fa.pods.pop();
    expect(frameOf(a).pods[0].status).not.toBe('changed');
    expect(frameOf(a).pods).toHaveLength(3);
  });
});
