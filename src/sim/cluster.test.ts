// The assembled cluster, end to end: the default and kubeadm worlds, the signature of every fault a
// reader can cause (what keeps working, what stops, what happens when it comes back), replacement
// pods, and the plain-data guarantees (snapshot/restore and replay give the same bytes).
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, test } from 'vitest';
import { appHealth } from './app-health.ts';
import { KUBECTL_CONNECTION_REFUSED } from './api/status.ts';
import { CONTROL_PLANE_NODE, createCluster, replayCluster, type Cluster } from './cluster.ts';
import { rolloutStateOf, type DeploymentControllerState } from './controllers/deployment-controller.ts';
import { kubeletStateOf, podLifecycleOf } from './kubelet/kubelet.ts';
import { runKubectl } from './kubectl/kubectl.ts';
import { nodeHealthOf } from './node-lifecycle/node-health-view.ts';
import { schedulingRecordOf, type SchedulerState } from './scheduler/scheduler.ts';
import { storeList } from './apiserver/store.ts';
import { frameOf } from './view/frame.ts';

const k = (c: Cluster, cmd: string) => runKubectl(c, cmd);
/** Run a kubectl line that must succeed; returns stdout. */
function ok(c: Cluster, cmd: string): string {
  const r = k(c, cmd);
  expect(r.stderr, cmd).toBe('');
  expect(r.exitCode, cmd).toBe(0);
  return r.stdout;
}

const allPods = (c: Cluster, ns = 'default') => storeList(c.world.state.store, 'pods', ns);
const nodes = (c: Cluster) => storeList(c.world.state.store, 'nodes');
const node = (c: Cluster, name: string) => nodes(c).find((n) => n.metadata?.name === name)!;
const deployment = (c: Cluster, name: string) =>
  storeList(c.world.state.store, 'deployments', 'default').find((d) => d.metadata?.name === name)!;
const live = (c: Cluster, ns = 'default') => allPods(c, ns).filter((p) => !p.metadata?.deletionTimestamp);
const isReady = (p: Pod) => !!p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True');
// What a figure reads of the cluster (the Frame): nodes' Ready status and taints, pods' readiness.
const nodeView = (c: Cluster, name: string) => frameOf(c).nodes.find((n) => n.name === name)!;
const nodeReady = (c: Cluster, name: string) => nodeView(c, name).ready;
const nodesReady = (c: Cluster) => frameOf(c).nodes.map((n) => n.ready);
const taints = (c: Cluster, name: string) => nodeView(c, name).taints.map((t) => `${t.key}:${t.effect}`);
/** The pods not being deleted, bound or not. */
const livePods = (c: Cluster) => {
  const f = frameOf(c);
  return [...f.pods, ...f.pending].filter((p) => !p.terminating);
};
const readyPods = (c: Cluster) => livePods(c).filter((p) => p.ready);
const podNames = (ps: { name: string }[]) => ps.map((p) => p.name).sort();
const names = (ps: Pod[]) => ps.map((p) => p.metadata!.name!).sort();
const phase = (c: Cluster, name: string) => allPods(c).find((p) => p.metadata?.name === name)?.status?.phase;
const waitingReason = (p: Pod | undefined) => p?.status?.containerStatuses?.[0]?.state?.waiting?.reason;

/** A cluster with deployment web (nginx:1.27) of n replicas, all Ready. */
function withWeb(n = 3, opts: Parameters<typeof createCluster>[0] = {}): Cluster {
  const c = createCluster(opts);
  ok(c, `kubectl create deployment web --image=nginx:1.27 --replicas=${n}`);
  c.advance(30_000);
  expect(readyPods(c)).toHaveLength(n);
  return c;
}

/** Run time in small steps until pred holds; returns the ms it took (or Infinity). */
function timeUntil(c: Cluster, pred: () => boolean, maxMs = 120_000, stepMs = 50): number {
  const t0 = c.now;
  while (!pred()) {
    if (c.now - t0 >= maxMs) return Infinity;
    c.advance(stepMs);
  }
  return c.now - t0;
}

describe('default world', () => {
  test('three Ready workers node-1…node-3, 4 CPU, 8 GiB, one zone, no control-plane node', () => {
    const c = createCluster();
    c.advance(1000);
    const ns = nodes(c);
    expect(ns.map((n) => n.metadata!.name).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const n of ns) {
      expect(n.status?.capacity?.cpu).toBe('4');
      expect(n.status?.capacity?.memory).toBe('8Gi');
      expect(n.metadata?.labels?.['node-role.kubernetes.io/control-plane']).toBeUndefined();
    }
    expect(frameOf(c).nodes.map((n) => [n.name, n.ready, n.taints])).toEqual(
      ['node-1', 'node-2', 'node-3'].map((n) => [n, 'True', []]),
    );
    expect(new Set(ns.map((n) => n.metadata?.labels?.['topology.kubernetes.io/zone'])).size).toBe(1);
    expect(allPods(c, 'kube-system')).toEqual([]);
    expect(ok(c, 'kubectl get nodes')).toBe(
      'NAME     STATUS   ROLES    AGE   VERSION\n' +
        'node-1   Ready    <none>   1s    v1.37.2\n' +
        'node-2   Ready    <none>   1s    v1.37.2\n' +
        'node-3   Ready    <none>   1s    v1.37.2\n',
    );
  });

  test("the node controller registers each node: RegisteredNode from node-controller, beside the kubelet's events", () => {
    const c = createCluster();
    c.advance(1000);
    const out = ok(c, 'kubectl get events --field-selector reason=RegisteredNode');
    expect(
      out
        .split('\n')
        .filter((l) => l.includes('RegisteredNode'))
        .map((l) => l.replace(/\s+/g, ' ').replace(/^\S+ /, '')),
    ).toEqual(
      [1, 2, 3].map(
        (i) => `Normal RegisteredNode node/node-${i} Node node-${i} event: Registered Node node-${i} in Controller`,
      ),
    );
    const failed = c.log.filter(
      (r) =>
        r.component === 'node-lifecycle-controller' &&
        r.kind === 'request' &&
        r.path.endsWith('/events') &&
        r.code !== 201,
    );
    expect(failed).toEqual([]);
    expect(ok(c, 'kubectl describe node node-1')).toMatch(
      /Normal\s+RegisteredNode\s+1s\s+node-controller\s+Node node-1 event: Registered Node node-1 in Controller/,
    );
  });

  test('a deployment spreads over the three workers and every pod gets its own IP', () => {
    const c = withWeb(3);
    const ps = live(c);
    expect(new Set(ps.map((p) => p.spec?.nodeName))).toEqual(new Set(['node-1', 'node-2', 'node-3']));
    expect(new Set(ps.map((p) => p.status?.podIP)).size).toBe(3);
    expect(ps.every((p) => p.status?.phase === 'Running')).toBe(true);
    // The readers see the same story the objects tell.
    const dc = c.world.state.components['deployment-controller'].state as DeploymentControllerState;
    expect(rolloutStateOf(dc, 'default/web')?.state).toBeDefined();
    const sc = c.world.state.components.scheduler.state as SchedulerState;
    for (const p of ps) {
      expect(schedulingRecordOf(sc, `default/${p.metadata!.name}`)).toBeDefined();
      const kl = kubeletStateOf(c.world, p.spec!.nodeName!)!;
      expect(podLifecycleOf(kl, `default/${p.metadata!.name}`)?.state).toMatch(/running/i);
    }
    expect(nodeHealthOf(c.world.state, 'node-1')).toBeDefined();
  });
});

describe('kubeadm world', () => {
  test('a tainted control-plane node with the role label and four static mirror pods Running on it', () => {
    const c = createCluster({ kubeadm: true });
    c.advance(30_000);
    const cp = node(c, CONTROL_PLANE_NODE);
    expect(cp.spec?.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    expect(cp.metadata?.labels?.['node-role.kubernetes.io/control-plane']).toBe('');
    expect(nodeReady(c, CONTROL_PLANE_NODE)).toBe('True');
    const sys = allPods(c, 'kube-system');
    expect(names(sys)).toEqual([
      'etcd-control-plane',
      'kube-apiserver-control-plane',
      'kube-controller-manager-control-plane',
      'kube-scheduler-control-plane',
    ]);
    for (const p of sys) {
      expect(p.spec?.nodeName).toBe(CONTROL_PLANE_NODE);
      expect(p.status?.phase).toBe('Running');
      expect(p.metadata?.annotations?.['kubernetes.io/config.mirror']).toBeDefined();
    }
    expect(ok(c, 'kubectl get nodes')).toMatch(/^control-plane\s+Ready\s+control-plane\s/m);
  });

  test('user pods are never scheduled on the control-plane node', () => {
    const c = createCluster({ kubeadm: true });
    ok(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=12');
    c.advance(40_000);
    const ps = live(c);
    expect(ps).toHaveLength(12);
    expect(ps.every((p) => p.spec?.nodeName && p.spec.nodeName !== CONTROL_PLANE_NODE)).toBe(true);
    // Even with every worker cordoned, a new pod waits rather than go to the control plane.
    for (const n of ['node-1', 'node-2', 'node-3']) ok(c, `kubectl cordon ${n}`);
    ok(c, 'kubectl scale deployment web --replicas=13');
    c.advance(20_000);
    const pending = live(c).filter((p) => !p.spec?.nodeName);
    expect(pending).toHaveLength(1);
    expect(pending[0].status?.conditions?.find((x) => x.type === 'PodScheduled')?.message).toBe(
      '0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 node(s) were unschedulable. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
    );
  });
});

describe('control plane stopped', () => {
  test('kubectl is refused, running pods keep running, nothing is rescheduled even when a node dies meanwhile', () => {
    const c = withWeb(3);
    const before = podNames(livePods(c));
    c.controlPlane('stop');
    expect(c.running('apiserver')).toBe(false);
    const r = k(c, 'kubectl get pods');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(KUBECTL_CONNECTION_REFUSED + '\n');
    c.node('node-1', 'stop');
    c.advance(10 * 60_000);
    // The store is frozen in time: same pods, all still recorded Running.
    expect(podNames(livePods(c))).toEqual(before);
    expect(allPods(c).every((p) => p.status?.phase === 'Running')).toBe(true);
    // The containers on the live nodes are still running in their runtimes.
    for (const n of ['node-2', 'node-3']) {
      const rt = kubeletStateOf(c.world, n)!;
      expect(
        podLifecycleOf(rt, `default/${live(c).find((p) => p.spec?.nodeName === n)!.metadata!.name}`)?.state,
      ).toMatch(/running/i);
    }
  });

  test('on start every node gets a fresh grace period: no mass eviction after a long outage', () => {
    const c = withWeb(3);
    const before = podNames(livePods(c));
    c.controlPlane('stop');
    c.advance(10 * 60_000); // every lease is long stale by now
    c.controlPlane('start');
    expect(c.running('apiserver') && c.running('scheduler') && c.running('controller-manager')).toBe(true);
    c.advance(45_000);
    expect(nodesReady(c)).toEqual(['True', 'True', 'True']);
    for (const n of frameOf(c).nodes)
      expect(n.taints.map((t) => t.key)).not.toContain('node.kubernetes.io/unreachable');
    c.advance(6 * 60_000);
    expect(podNames(livePods(c))).toEqual(before);
    expect(nodesReady(c)).toEqual(['True', 'True', 'True']);
  });

  test('a node that died during the outage gets its grace period only from the restart', () => {
    const c = withWeb(3);
    c.controlPlane('stop');
    c.node('node-1', 'stop');
    c.advance(3 * 60_000);
    c.controlPlane('start');
    c.advance(30_000);
    expect(nodeReady(c, 'node-1')).toBe('True'); // fresh 50 s grace from the restart
    c.advance(40_000);
    expect(nodeReady(c, 'node-1')).toBe('Unknown');
  });
});

describe('scheduler stopped', () => {
  test('new pods stay Pending, running ones are untouched; started again, they are scheduled', () => {
    const c = withWeb(2);
    const running = podNames(livePods(c));
    c.controlPlane('stop', 'scheduler');
    expect(c.running('scheduler')).toBe(false);
    ok(c, 'kubectl scale deployment web --replicas=4');
    c.advance(60_000);
    const ps = livePods(c);
    expect(ps).toHaveLength(4);
    expect(ps.filter((p) => !p.node)).toHaveLength(2);
    expect(ps.filter((p) => !p.node).every((p) => p.phase === 'Pending')).toBe(true);
    expect(ps.filter((p) => running.includes(p.name)).every((p) => p.ready)).toBe(true);
    c.controlPlane('start', 'scheduler');
    c.advance(30_000);
    expect(livePods(c).every((p) => p.node && p.ready)).toBe(true);
  });
});

describe('controller-manager stopped', () => {
  test('a deleted pod is not replaced and scale does nothing; started again, it converges', () => {
    const c = withWeb(3);
    c.controlPlane('stop', 'controller-manager');
    expect(c.running('controller-manager')).toBe(false);
    const victim = live(c)[0].metadata!.name!;
    ok(c, `kubectl delete pod ${victim} --wait=false`);
    ok(c, 'kubectl scale deployment web --replicas=5');
    c.advance(60_000);
    expect(livePods(c)).toHaveLength(2);
    expect(allPods(c).find((p) => p.metadata?.name === victim)).toBeUndefined(); // the kubelet finished the deletion
    c.controlPlane('start', 'controller-manager');
    c.advance(40_000);
    const ps = livePods(c);
    expect(ps).toHaveLength(5);
    expect(ps.every((p) => p.ready)).toBe(true);
    expect(podNames(ps)).not.toContain(victim);
    expect(deployment(c, 'web').status?.readyReplicas).toBe(5);
  });
});

describe('apiserver latency', () => {
  test('everything lags: time to Ready grows with 500 ms on every watch delivery', () => {
    const measure = (latency: number) => {
      const c = createCluster();
      c.advance(1000);
      if (latency) c.apiserverLatency(latency);
      ok(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=1');
      return timeUntil(c, () => readyPods(c).length > 0);
    };
    const fast = measure(0);
    const slow = measure(500);
    expect(fast).toBeLessThan(Infinity);
    // Deployment → RS → pod → scheduler → kubelet → status: at least four hops of 500 ms each.
    expect(slow - fast).toBeGreaterThanOrEqual(2000);
  });
});

describe('etcd full', () => {
  test('writes are refused with "database space exceeded", reads work; freed, writes work again', () => {
    const c = withWeb(2);
    c.etcd('full');
    const w = k(c, 'kubectl scale deployment web --replicas=4');
    expect(w.exitCode).toBe(1);
    // The apiserver passes etcd's error through as a Status without a reason (StatusReasonUnknown),
    // so kubectl prints no "(Reason)".
    expect(w.stderr).toBe('Error from server: etcdserver: mvcc: database space exceeded\n');
    expect(ok(c, 'kubectl get deploy web')).toMatch(/^web\s+2\/2\s/m);
    c.etcd('ok');
    expect(ok(c, 'kubectl scale deployment web --replicas=4')).toBe('deployment.apps/web scaled\n');
    c.advance(30_000);
    expect(readyPods(c)).toHaveLength(4);
  });
});

describe('node partition', () => {
  /** web ×3, node-2 cut off for 130 s (NotReady, tainted, but inside the 300 s toleration), then healed. */
  function partitioned() {
    const c = withWeb(3);
    const before = podNames(livePods(c));
    const onNode = livePods(c).find((p) => p.node === 'node-2')!.name;
    c.node('node-2', 'partition');
    c.advance(40_000);
    expect(nodeReady(c, 'node-2')).toBe('True'); // still within the 50 s grace
    c.advance(30_000);
    expect(nodeReady(c, 'node-2')).toBe('Unknown');
    expect(ok(c, 'kubectl get nodes')).toMatch(/^node-2\s+NotReady\s/m);
    expect(taints(c, 'node-2')).toContain('node.kubernetes.io/unreachable:NoExecute');
    // The kubelet cannot reach the API server, but its containers run on.
    expect(podLifecycleOf(kubeletStateOf(c.world, 'node-2')!, `default/${onNode}`)?.state).toMatch(/running/i);
    c.advance(60_000);
    c.node('node-2', 'heal');
    return { c, before };
  }

  test('containers keep running, node NotReady after the grace; healed before 300 s, Ready again and nothing evicted', () => {
    const { c, before } = partitioned();
    c.advance(3 * 60_000);
    expect(nodeReady(c, 'node-2')).toBe('True');
    expect(taints(c, 'node-2')).toEqual([]);
    c.advance(5 * 60_000);
    expect(podNames(livePods(c))).toEqual(before);
    expect(livePods(c).every((p) => p.ready)).toBe(true);
  });

  // tryUpdateNodeStatus compares with the server's copy, so the Ready=Unknown the node lifecycle
  // controller wrote is corrected at the next 10 s node-status tick.
  test('healed, the node is Ready again within one node-status tick', () => {
    const { c } = partitioned();
    c.advance(20_000);
    expect(nodeReady(c, 'node-2')).toBe('True');
  });
});

describe('node stop/start', () => {
  test('after eviction the node comes back without the evicted pods, and replacements run elsewhere', () => {
    const c = withWeb(3);
    const evicted = livePods(c)
      .filter((p) => p.node === 'node-1')
      .map((p) => p.name);
    expect(evicted.length).toBeGreaterThan(0);
    c.node('node-1', 'stop');
    c.advance(7 * 60_000);
    expect(nodeReady(c, 'node-1')).toBe('Unknown');
    // Evicted pods are Terminating (nobody confirms), replacements Ready on the other nodes.
    for (const n of evicted)
      expect(allPods(c).find((p) => p.metadata?.name === n)?.metadata?.deletionTimestamp).toBeDefined();
    expect(readyPods(c)).toHaveLength(3);
    expect(livePods(c).every((p) => p.node !== 'node-1')).toBe(true);
    c.node('node-1', 'start');
    c.advance(60_000);
    expect(nodeReady(c, 'node-1')).toBe('True');
    // The returning kubelet confirms the deletions: the old pods are gone.
    for (const n of evicted) expect(allPods(c).find((p) => p.metadata?.name === n)).toBeUndefined();
    expect(livePods(c)).toHaveLength(3);
    expect(livePods(c).every((p) => p.ready)).toBe(true);
  });
});

describe('container faults', () => {
  test('a crash restarts the container; repeated crashes give CrashLoopBackOff', () => {
    const c = withWeb(1);
    const name = live(c)[0].metadata!.name!;
    expect(c.crash('default', name)).toBe(true);
    c.advance(5_000);
    let p = live(c)[0];
    expect(p.status?.containerStatuses?.[0]?.restartCount).toBe(1);
    expect(p.status?.containerStatuses?.[0]?.lastState?.terminated?.reason).toBe('Error');
    let sawLoop = false;
    for (let i = 0; i < 4; i++) {
      c.crash('default', name);
      c.advance(2_000);
      if (waitingReason(live(c)[0]) === 'CrashLoopBackOff') sawLoop = true;
    }
    expect(sawLoop).toBe(true);
    expect(ok(c, `kubectl get pod ${name}`)).toMatch(/CrashLoopBackOff/);
    c.advance(5 * 60_000);
    p = live(c)[0];
    expect(p.metadata?.name).toBe(name); // restarted in place, not replaced
    expect(p.status?.phase).toBe('Running');
  });

  test('sim app: an app that crashes after each start loops on its own, and runs on once healthy; a pod on no node is refused', () => {
    const c = withWeb(1);
    const name = live(c)[0].metadata!.name!;
    expect(c.app('default', name, appHealth('crashes', 'bad config'))).toBe(true);
    expect(c.app('default', 'nobody', appHealth('crashes'))).toBe(false);
    c.advance(60_000);
    const p = live(c)[0];
    expect(p.status?.containerStatuses?.[0]?.restartCount).toBeGreaterThanOrEqual(3);
    expect(ok(c, `kubectl logs ${name} --previous`)).toBe('bad config\n');
    expect(c.app('default', name, appHealth('healthy'))).toBe(true);
    c.advance(6 * 60_000);
    expect(live(c)[0].status?.containerStatuses?.[0]?.state?.running).toBeDefined();
  });

  test('sim app leaks: OOMKilled, exit 137, after each start', () => {
    const c = withWeb(1);
    const name = live(c)[0].metadata!.name!;
    c.app('default', name, appHealth('leaks'));
    // Killed at 5 s, restarted at once, killed again 5 s later, restarted after the 10 s back-off.
    c.advance(25_000);
    const cs = live(c)[0].status?.containerStatuses?.[0];
    expect(cs?.lastState?.terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    expect(cs?.restartCount).toBeGreaterThanOrEqual(2);
  });

  test('--oom: the last state says OOMKilled', () => {
    const c = withWeb(1);
    const name = live(c)[0].metadata!.name!;
    c.crash('default', name, { oom: true });
    c.advance(5_000);
    expect(live(c)[0].status?.containerStatuses?.[0]?.lastState?.terminated?.reason).toBe('OOMKilled');
    expect(live(c)[0].status?.containerStatuses?.[0]?.restartCount).toBe(1);
  });

  test('a missing image gives ImagePullBackOff; available again, the pod runs', () => {
    const c = createCluster();
    c.image('nginx:9.99', 'missing');
    ok(c, 'kubectl create deployment web --image=nginx:9.99 --replicas=1');
    c.advance(60_000);
    const p = live(c)[0];
    expect(['ImagePullBackOff', 'ErrImagePull']).toContain(waitingReason(p));
    c.advance(30_000);
    expect(ok(c, 'kubectl get pods')).toMatch(/ImagePullBackOff|ErrImagePull/);
    c.image('nginx:9.99', 'available');
    c.advance(6 * 60_000); // the back-off caps at 300 s
    expect(phase(c, p.metadata!.name!)).toBe('Running');
    expect(isReady(live(c)[0])).toBe(true);
  });
});

describe('replacement pods', () => {
  test('a replacement gets a new name and a new IP', () => {
    const c = withWeb(3);
    const old = live(c)[0];
    ok(c, `kubectl delete pod ${old.metadata!.name} --wait=false`);
    c.advance(30_000);
    const ps = live(c);
    expect(ps).toHaveLength(3);
    const fresh = ps.filter((p) => p.metadata!.creationTimestamp! > old.metadata!.creationTimestamp!);
    expect(fresh).toHaveLength(1);
    expect(fresh[0].metadata!.name).not.toBe(old.metadata!.name);
    expect(fresh[0].metadata!.uid).not.toBe(old.metadata!.uid);
    expect(fresh[0].status?.podIP).toBeDefined();
    expect(fresh[0].status?.podIP).not.toBe(old.status?.podIP);
  });
});

describe('plain data', () => {
  /** A run with a bit of everything, in phases so a snapshot can be taken between them. */
  const phases: ((c: Cluster) => void)[] = [
    (c) => {
      k(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=3');
      c.advance(20_000);
    },
    (c) => {
      k(c, 'kubectl set image deployment/web nginx=nginx:1.28');
      c.advance(7_500);
    },
    (c) => {
      c.node('node-2', 'stop');
      c.advance(90_000);
    },
    (c) => {
      c.controlPlane('stop', 'scheduler');
      k(c, 'kubectl scale deployment web --replicas=5');
      c.advance(12_345);
    },
    (c) => {
      c.controlPlane('start', 'scheduler');
      c.node('node-2', 'start');
      c.advance(40_000);
    },
  ];

  test('snapshot → restore → continue equals running straight through', () => {
    const straight = createCluster({ seed: 7 });
    for (const p of phases) p(straight);
    for (let cut = 1; cut < phases.length; cut++) {
      const c = createCluster({ seed: 7 });
      phases.slice(0, cut).forEach((p) => p(c));
      const snap = c.snapshot();
      phases[cut](c); // wander off, then come back
      c.advance(3_000);
      c.restore(snap);
      phases.slice(cut).forEach((p) => p(c));
      expect(c.world.hash(), `cut after phase ${cut}`).toBe(straight.world.hash());
    }
  });

  test('a snapshot is plain JSON: written out as text, read back into another cluster, it runs on the same', () => {
    const straight = createCluster({ seed: 7 });
    for (const p of phases) p(straight);
    const c = createCluster({ seed: 7 });
    phases.slice(0, 3).forEach((p) => p(c));
    const text = JSON.stringify(c.snapshot());
    const other = createCluster({ seed: 99 });
    other.restore(JSON.parse(text));
    phases.slice(3).forEach((p) => p(other));
    expect(other.world.hash()).toBe(straight.world.hash());
  });

  test('replayCluster(inputs) at several cut times equals the original at those times', () => {
    const c = createCluster({ seed: 3 });
    // At each cut: the time, the inputs recorded so far (an input at exactly the cut time that came
    // after the hash belongs to the future, so the cut takes the inputs by count), and the hash.
    const cuts: [number, number, string][] = [];
    const cut = () => cuts.push([c.now, c.world.state.inputs.length, c.world.hash()]);
    for (const p of phases) {
      p(c);
      cut();
      c.advance(777);
      cut();
    }
    const inputs = c.world.state.inputs;
    for (const [t, n, h] of cuts) {
      const r = replayCluster({ seed: 3 }, inputs.slice(0, n), t);
      expect(r.now).toBe(t);
      expect(r.world.hash(), `replay until ${t}`).toBe(h);
    }
    // A replayed cluster answers kubectl like the original.
    expect(ok(replayCluster({ seed: 3 }, inputs, c.now), 'kubectl get pods -o wide')).toBe(
      ok(c, 'kubectl get pods -o wide'),
    );
  });
});
