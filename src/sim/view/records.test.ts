// The request log as a figure shows it: each record's two ends, its label, whether it is a
// heartbeat, and its sentence, over every kind of traffic the chapters' stories make.
import { describe, expect, test } from 'vitest';
import { peek } from '../clock.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { runScript } from '../kubectl/script.ts';
import { logCount } from '../world.ts';
import { endpointOf, narrate, stepRecordsOf } from './records.ts';
import type { StepRecord } from './types.ts';
import controlPlane from '../../../examples/control-plane.sim?raw';
import reconcileLoop from '../../../examples/reconcile-loop.sim?raw';
import scheduler from '../../../examples/scheduler.sim?raw';
import rollingUpdates from '../../../examples/rolling-updates.sim?raw';
import nodeFailure from '../../../examples/node-failure.sim?raw';
import controlPlaneOutage from '../../../examples/control-plane-outage.sim?raw';
import troubleshooting from '../../../examples/troubleshooting.sim?raw';

/** The records an action adds to the log (kubectl lines are answered at once, outside any step). */
function during(c: Cluster, act: () => void): StepRecord[] {
  const from = logCount(c.world.state);
  act();
  return stepRecordsOf(c.world.state, from, logCount(c.world.state));
}

/** Run ms of simulated time one event at a time, as the worker does, collecting each step's records. */
function stepFor(c: Cluster, ms: number): StepRecord[] {
  const w = c.world;
  const until = w.now + ms;
  const out: StepRecord[] = [];
  for (let e = peek(w.state.queue); e && e.at <= until; e = peek(w.state.queue)) out.push(...during(c, () => w.step()));
  w.runUntil(until);
  return out;
}

function kubectl(c: Cluster, line: string): StepRecord[] {
  return during(c, () => runKubectl(c, line));
}

const ENDPOINT =
  /^(kubectl|kube-apiserver|etcd|scheduler|kube-controller-manager|kubelet\/[a-z0-9-]+|containerd\/[a-z0-9-]+)$/;

/** What must hold for every record, whatever it is: the ways `r` breaks it (none, for a good record). */
function problems(r: StepRecord): string[] {
  const out: string[] = [];
  const fail = (why: string) => out.push(`${why}: ${r.label} by ${r.component}: ${r.sentence}`);
  // One sentence: a capital (or a lower-case name such as kubectl) first, one full stop, at the end.
  if (!/^[A-Zk][^]*[^.]\.$/.test(r.sentence) || /\.\s+[A-Z]/.test(r.sentence)) fail('not one sentence');
  if (/undefined|null|NaN|\[object/.test(r.sentence)) fail('a hole in the sentence');
  if (r.sentence.trim() !== r.sentence || /\s\s/.test(r.sentence)) fail('stray spaces');
  if (!/^\S+( \S+)?$/.test(r.label)) fail('label');
  if (!ENDPOINT.test(r.from) || !ENDPOINT.test(r.to) || r.from === r.to) fail(`ends ${r.from} → ${r.to}`);
  if (r.kind === 'watch' && r.from !== 'kube-apiserver') fail('a notification not from the API server');
  if (r.kind === 'cri' && (r.from !== r.component.replace('containerd/', 'kubelet/') || r.to !== r.component))
    fail(`cri ends ${r.from} → ${r.to}`);
  // A write asks to change etcd (a mutating verb), whether or not it got a revision; a read never has one.
  if (
    (r.kind === 'write' || r.kind === 'read') &&
    ((r.kind === 'write') !== (r.revision !== null || ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.verb)) ||
      (r.kind === 'read' && r.revision !== null))
  )
    fail('write without a mutating verb, or read with a revision');
  return out;
}

function checkRecord(r: StepRecord): void {
  expect(problems(r)).toEqual([]);
}

/** A story touching every family of traffic the core makes, beyond the chapters' own scripts. */
const EVERYTHING = `
kubectl create deployment web --image=nginx:1.27 --replicas=3
sim settle
kubectl get pods -o wide
kubectl describe deployment web
kubectl scale deployment web --replicas=5
sim settle
kubectl set image deployment/web nginx=nginx:1.28
sim settle
kubectl rollout undo deployment/web
kubectl rollout restart deployment/web
sim settle
kubectl cordon node-1
kubectl uncordon node-1
kubectl taint nodes node-2 dedicated=x:NoSchedule
kubectl taint nodes node-2 dedicated-
kubectl label node node-3 disk=ssd
kubectl annotate deployment web note=hi
kubectl drain node-2 --ignore-daemonsets
sim settle
kubectl uncordon node-2
kubectl expose deployment web --port=80
kubectl auth can-i create pods
kubectl logs deploy/web
kubectl events
kubectl get pods -w --request-timeout=5s
sim crash web-not-there
sim node stop node-3
sim advance 60s
sim node start node-3
sim settle
sim node partition node-2
sim advance 60s
sim node heal node-2
sim settle
sim control-plane stop
kubectl get pods
sim advance 15s
sim control-plane start
sim settle
sim control-plane stop etcd
kubectl get pods
sim advance 5s
sim control-plane start etcd
sim etcd full
kubectl scale deployment web --replicas=3
sim advance 5s
sim etcd ok
sim apiserver latency 500ms
kubectl scale deployment web --replicas=4
sim settle
sim apiserver latency 0s
sim image nginx:9.9 missing
kubectl set image deployment/web nginx=nginx:9.9
kubectl create deployment broken --image=nginx:9.9
sim advance 30s
kubectl logs deploy/broken
kubectl rollout undo deployment/web
sim settle
kubectl get deployment nope
kubectl create deployment web --image=nginx:1.27
kubectl patch deployment web --type=merge -p '{"spec":{"replicas":-1}}'
kubectl create deployment intruder --image=nginx:1.27 --as system:kube-scheduler
kubectl delete deployment web --cascade=orphan
sim settle
kubectl delete rs --all
sim settle
kubectl create namespace team
kubectl create deployment api -n team --image=nginx:1.27
sim settle
kubectl delete namespace team
sim advance 70m
`;

describe('endpointOf', () => {
  test.each([
    ['kubectl', 'kubectl'],
    ['scheduler', 'scheduler'],
    ['kube-apiserver', 'kube-apiserver'],
    ['deployment-controller', 'kube-controller-manager'],
    ['pod-garbage-collector', 'kube-controller-manager'],
    ['node-lifecycle-controller', 'kube-controller-manager'],
    ['kube-controller-manager', 'kube-controller-manager'],
    ['kubelet/node-2', 'kubelet/node-2'],
    ['containerd/node-2', 'containerd/node-2'],
    ['some-script', 'kubectl'],
  ])('%s → %s', (component, endpoint) => {
    expect(endpointOf(component)).toBe(endpoint);
  });
});

describe('stepRecordsOf', () => {
  test('a Deployment created: who asks whom, and what each step says', () => {
    const c = createCluster({ seed: 1 });
    c.settle();
    const body = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
        },
      },
    };
    const [post] = during(c, () => c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body }));
    expect(post).toMatchObject({
      kind: 'write',
      component: 'kubectl',
      from: 'kubectl',
      to: 'kube-apiserver',
      label: 'POST deployments',
      verb: 'POST',
      path: '/apis/apps/v1/namespaces/default/deployments',
      object: 'deployments/default/web',
      revision: c.world.state.store.revision,
      code: 201,
      heartbeat: false,
      sentence: `kubectl asks the API server to create Deployment web; etcd stores it at revision ${c.world.state.store.revision}.`,
    });
    expect(post.seq).toBe(logCount(c.world.state) - 1);
    const recs = stepFor(c, 30_000);
    recs.forEach(checkRecord);
    // Positions run on without a gap.
    expect(recs.map((r) => r.seq)).toEqual(recs.map((_, i) => post.seq + 1 + i));
    const first = (label: string, component?: string) =>
      recs.find((r) => r.label === label && (!component || r.component === component))!;
    expect(first('ADDED deployments')).toMatchObject({
      kind: 'watch',
      component: 'kube-controller-manager',
      from: 'kube-apiserver',
      to: 'kube-controller-manager',
      heartbeat: false,
      sentence: "The API server tells kube-controller-manager's controllers that Deployment web was added.",
    });
    const rs = first('POST replicasets');
    expect(rs).toMatchObject({
      component: 'deployment-controller',
      from: 'kube-controller-manager',
      to: 'kube-apiserver',
    });
    const rsName = rs.object!.split('/')[2];
    // The write names what woke its sender: the Deployment's ADDED notification, whose row it links to.
    expect(rs.sentence).toBe(
      `The deployment-controller asks the API server to create ReplicaSet ${rsName}; etcd stores it at revision ${rs.revision}, because the watch told it that Deployment web was added.`,
    );
    expect(rs.cause).toEqual({
      seq: first('ADDED deployments').seq,
      label: 'ADDED deployments',
      object: 'deployments/default/web',
    });
    expect(first('ADDED deployments').cause).toBeNull();
    const podCreate = first('POST pods');
    expect(podCreate.cause).toMatchObject({ label: 'ADDED replicasets', object: `replicasets/default/${rsName}` });
    expect(podCreate.sentence).toMatch(
      new RegExp(`, because the watch told it that ReplicaSet ${rsName} was added\\.$`),
    );
    expect(recs.find((r) => r.seq === podCreate.cause!.seq)).toMatchObject({
      kind: 'watch',
      to: 'kube-controller-manager',
    });
    const bind = first('POST pods/binding');
    const pod = bind.object!.split('/')[2];
    const node = c.world.state.log[bind.seq - (c.world.state.logDropped ?? 0)].node!;
    expect(bind).toMatchObject({
      kind: 'write',
      component: 'scheduler',
      from: 'scheduler',
      to: 'kube-apiserver',
      sentence: `The scheduler binds pod ${pod} to ${node}, because the watch told it that pod ${pod} was added.`,
    });
    expect(bind.cause).toMatchObject({ seq: first('ADDED pods', 'scheduler').seq, label: 'ADDED pods' });
    expect(first('ADDED pods', `kubelet/${node}`)).toMatchObject({
      from: 'kube-apiserver',
      to: `kubelet/${node}`,
      sentence: `The API server tells the kubelet on ${node} that pod ${pod} was added.`,
    });
    expect(first('RunPodSandbox')).toMatchObject({
      kind: 'cri',
      component: `containerd/${node}`,
      from: `kubelet/${node}`,
      to: `containerd/${node}`,
      revision: null,
      sentence: `The kubelet on ${node} asks containerd to start a sandbox for pod ${pod}, because the watch told it that pod ${pod} was added.`,
    });
    expect(first('RunPodSandbox').cause!.seq).toBe(first('ADDED pods', `kubelet/${node}`).seq);
    expect(first('PullImage').sentence).toBe(
      `The kubelet on ${node} asks containerd to pull nginx:1.27; the image is now on the node.`,
    );
    expect(first('CreateContainer').sentence).toBe(
      `The kubelet on ${node} asks containerd to create container nginx of pod ${pod}.`,
    );
    expect(first('PATCH pods/status')).toMatchObject({ kind: 'write', from: `kubelet/${node}`, heartbeat: false });
    expect(first('PATCH pods/status').sentence).toMatch(
      new RegExp(
        `^The kubelet on ${node} reports the status of pod ${pod}; etcd stores it at revision \\d+, because the watch told it that pod ${pod} was added\\.$`,
      ),
    );
    const nodeLease = recs.find((r) => r.label === 'PUT leases' && r.component.startsWith('kubelet/'))!;
    // A renewal is a timer's: no cause.
    expect(nodeLease).toMatchObject({ kind: 'write', heartbeat: true, cause: null });
    // Nor does a read carry one, though the sync that sent it had one.
    expect(recs.filter((r) => r.kind === 'read' || r.kind === 'watch').every((r) => r.cause === null)).toBe(true);
    expect(nodeLease.sentence).toMatch(/^The kubelet on node-\d renews its Lease; etcd stores it at revision \d+\.$/);
    // The leader electors' renewals are heartbeats too.
    expect(first('PUT leases', 'kube-scheduler')).toMatchObject({
      kind: 'write',
      heartbeat: true,
      from: 'scheduler',
      to: 'kube-apiserver',
    });
    expect(first('PUT leases', 'kube-controller-manager').sentence).toMatch(
      /^kube-controller-manager renews its leader-election Lease \(or takes it over\); etcd stores it at revision \d+\.$/,
    );
    expect(first('MODIFIED leases')).toMatchObject({ heartbeat: true, to: 'kube-controller-manager' });
  });

  test('the query of a request, as client-go encodes it, is read back into the sentence', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27');
    c.settle();
    const list = kubectl(c, 'get pods -l app=web').find((r) => r.verb === 'GET')!;
    expect(list).toMatchObject({
      path: '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb&limit=500',
      sentence: 'kubectl asks the API server to list pods labelled app=web.',
    });
    const watch = kubectl(c, 'wait --for=condition=Available=False deploy/web --timeout=1s').find(
      (r) => r.verb === 'WATCH',
    )!;
    // The reflector's timeout is 5 to 10 minutes, picked per watch as client-go picks it.
    expect(watch.path).toMatch(
      /^\/apis\/apps\/v1\/namespaces\/default\/deployments\?allowWatchBookmarks=true&fieldSelector=metadata\.name%3Dweb&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=(3|4|5)\d\d&watch=true$/,
    );
    expect(watch.sentence).toBe(
      'kubectl opens a watch on Deployments with metadata.name=web, asking first for every one there is (a streaming list instead of a LIST).',
    );
    const dry = kubectl(c, 'scale deploy web --replicas=2 --dry-run=server').find((r) => r.verb === 'PATCH')!;
    expect(dry.path).toBe('/apis/apps/v1/namespaces/default/deployments/web/scale?dryRun=All');
    checkRecord(list);
    checkRecord(watch);
    checkRecord(dry);
  });
  test('an idle cluster is all heartbeats', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    c.settle();
    c.advance(60_000);
    const recs = stepFor(c, 60_000);
    expect(recs.length).toBeGreaterThan(30);
    expect(recs.filter((r) => !r.heartbeat).map((r) => r.sentence)).toEqual([]);
    // (the kubelets read their Node from their informer: no GET at the status ticks)
    expect(new Set(recs.map((r) => r.label))).toEqual(new Set(['PUT leases', 'MODIFIED leases']));
  });

  test('a node that goes Unknown and comes back: those status writes and their notifications are not heartbeats', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    c.settle();
    c.node('node-3', 'stop');
    const down = stepFor(c, 60_000);
    const unknown = down.find((r) => r.label === 'PUT nodes/status' && r.object === 'nodes/node-3')!;
    expect(unknown).toMatchObject({
      component: 'node-lifecycle-controller',
      heartbeat: false,
      sentence: `The node-lifecycle-controller asks the API server to update the status of node-3; etcd stores it at revision ${unknown.revision}.`,
    });
    const told = down.filter((r) => r.kind === 'watch' && r.revision === unknown.revision);
    expect(told.map((r) => r.to).sort()).toEqual(['kube-controller-manager', 'scheduler']);
    expect(told.every((r) => !r.heartbeat)).toBe(true);
    const taint = down.find((r) => r.label === 'PATCH nodes' && r.object === 'nodes/node-3')!;
    expect(taint.heartbeat).toBe(false);
    expect(down.filter((r) => r.kind === 'watch' && r.revision === taint.revision).every((r) => !r.heartbeat)).toBe(
      true,
    );
    c.node('node-3', 'start');
    const back = stepFor(c, 30_000);
    const patches = back.filter(
      (r) => r.label === 'PATCH nodes/status' && r.component === 'kubelet/node-3' && r.revision !== null,
    );
    // The first report after the boot makes the node Ready again; later ones are heartbeats.
    expect(patches[0].heartbeat).toBe(false);
    expect(
      back.filter((r) => r.kind === 'watch' && r.revision === patches[0].revision).every((r) => !r.heartbeat),
    ).toBe(true);
    expect(back.filter((r) => r.label === 'POST nodes')[0]).toMatchObject({
      heartbeat: false,
      code: 409,
      sentence:
        'The kubelet on node-3 asks the API server to register node-3, but it already exists (409 AlreadyExists).',
    });
  });

  test('refusals say why: the API server down, a node cut off, etcd full', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
    c.settle();
    c.etcd('full');
    expect(kubectl(c, 'scale deployment web --replicas=3').at(-1)).toMatchObject({
      kind: 'write',
      code: 500,
      sentence:
        'kubectl asks the API server to scale Deployment web, but etcd is out of space (500: database space exceeded).',
    });
    c.etcd('ok');
    c.node('node-2', 'partition');
    const cut = stepFor(c, 11_000).find(
      (r) => r.label === 'PUT leases' && r.component === 'kubelet/node-2' && r.code === 0,
    )!;
    expect(cut).toMatchObject({
      heartbeat: true,
      sentence:
        'The API server refuses the kubelet on node-2: connection refused (node-2 is cut off from the control plane).',
    });
    c.node('node-2', 'heal');
    c.controlPlane('stop');
    const [refused] = kubectl(c, 'get pods');
    expect(refused).toMatchObject({
      kind: 'read',
      code: 0,
      from: 'kubectl',
      to: 'kube-apiserver',
      label: 'GET pods',
      sentence: 'The API server refuses kubectl: connection refused (the API server is down).',
    });
    // Without the faults, the record alone cannot tell a down server from a cut-off node.
    expect(narrate(c.world.state.log.at(-1)!)).toBe(
      'The API server refuses kubectl: connection refused (the API server is down).',
    );
    const kubelet = stepFor(c, 11_000).find((r) => r.component === 'kubelet/node-1' && r.code === 0)!;
    expect(kubelet.sentence).toBe(
      'The API server refuses the kubelet on node-1: connection refused (the API server is down).',
    );
    expect(narrate(c.world.state.log.find((r) => r.component === 'kubelet/node-1' && r.code === 0)!)).toBe(
      'The API server refuses the kubelet on node-1: connection refused (the API server is down, or node-1 is cut off from it).',
    );
  });

  test('a trimmed log: positions count from the start of the whole log, dropped records are skipped', () => {
    const c = createCluster({ seed: 1, logLimit: 200 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    c.settle();
    c.advance(60_000);
    const s = c.world.state;
    const dropped = s.logDropped ?? 0;
    expect(dropped).toBeGreaterThan(0);
    const all = stepRecordsOf(s, 0, logCount(s));
    expect(all).toHaveLength(s.log.length);
    expect(all[0].seq).toBe(dropped);
    all.forEach((r, i) => expect([r.t, r.verb, r.component]).toEqual([s.log[i].t, s.log[i].verb, s.log[i].component]));
    expect(stepRecordsOf(s, logCount(s) - 3, logCount(s) + 10).map((r) => r.seq)).toEqual(
      [1, 2, 3].map((i) => logCount(s) - 4 + i),
    );
    expect(stepRecordsOf(s, 5, 5)).toEqual([]);
  });

  test('plain JSON, and the same for the same seed', () => {
    const run = () => {
      const c = createCluster({ seed: 3 });
      return during(c, () => {
        runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
        c.settle();
      });
    };
    const a = run();
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    expect(run()).toEqual(a);
  });
});

describe('narrate', () => {
  test.each([
    ['everything', EVERYTHING, true],
    ['control-plane', controlPlane, false],
    ['reconcile-loop', reconcileLoop, false],
    ['scheduler', scheduler, false],
    ['rolling-updates', rollingUpdates, false],
    ['node-failure', nodeFailure, false],
    ['control-plane-outage', controlPlaneOutage, false],
    ['troubleshooting', troubleshooting, false],
  ])('every record of the %s story reads as one sentence', (_name, script, kubeadm) => {
    const c = createCluster({ seed: 1, kubeadm });
    runScript(c, script);
    // From the very first record: the API server's own writes at start are in it too.
    const recs = stepRecordsOf(c.world.state, 0, logCount(c.world.state));
    expect(c.world.state.logDropped ?? 0).toBe(0);
    expect(recs.length).toBeGreaterThan(50);
    expect(recs.flatMap(problems)).toEqual([]);
    // The checks do catch a bad sentence.
    expect(problems({ ...recs[0], sentence: 'the API server stores undefined. Then' })).toHaveLength(2);
    if (_name === 'everything') {
      // Every kind of record the core makes turns up here.
      const families = new Set(recs.map((r) => r.label));
      for (const l of [
        'POST deployments',
        'PATCH deployments/scale',
        'PATCH deployments',
        'DELETE pods',
        'POST pods/binding',
        'POST pods/eviction',
        'PATCH nodes',
        'PUT nodes/status',
        'PATCH nodes/status',
        'PUT leases',
        'POST events',
        'PATCH events',
        'GET pods/log',
        'POST selfsubjectaccessreviews',
        'WATCH pods',
        'ADDED pods',
        'MODIFIED pods',
        'DELETED pods',
        'POST services',
        'DELETE namespaces',
        'RunPodSandbox',
        'ImageStatus',
        'PullImage',
        'CreateContainer',
        'StartContainer',
        'StopContainer',
        'StopPodSandbox',
        'RemovePodSandbox',
      ])
        expect(families, l).toContain(l);
      const codes = new Set(recs.map((r) => r.code));
      for (const code of [0, 200, 201, 400, 403, 404, 409, 422, 500]) expect(codes, String(code)).toContain(code);
      const says = (re: RegExp) =>
        expect(
          recs.some((r) => re.test(r.sentence)),
          String(re),
        ).toBe(true);
      says(/^kubectl asks the API server to evict pod web-[a-z0-9]+-[a-z0-9]{5}; etcd stores it at revision \d+\.$/);
      says(/^kubectl asks the API server to create a Deployment, but the API server forbids it \(403 Forbidden\)\.$/);
      says(/^kubectl asks the API server to change Deployment web, but the object is invalid: .+ \(422 Invalid\)\.$/);
      says(
        /^The kubelet on node-\d asks containerd to pull nginx:9\.9, which fails: the registry has no such image \(NotFound\)\.$/,
      );
      says(
        /^kubectl asks the API server to read the log of pod broken-\S+, but the API server answers that container "nginx" in pod "broken-\S+" is waiting to start: .+ \(400 Bad Request\)\.$/,
      );
      says(/^kubectl asks the API server to list pods, but etcd does not answer \(500: request timed out\)\.$/);
      says(/^The API server creates namespace kube-system; etcd stores it at revision \d+\.$/);
      says(
        /^The kubelet on control-plane asks containerd to start container etcd of pod etcd-control-plane in kube-system\.$/,
      );
      says(/^The API server tells kube-controller-manager's controllers that node-3 changed\.$/);
    }
  });
});
