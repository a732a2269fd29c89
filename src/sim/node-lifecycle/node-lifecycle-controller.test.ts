import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { transition } from 'xstate';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import { SYNCED_POLL_PERIOD_MS } from '../client-go/informer.ts';
import { closeWatch } from '../apiserver/watch.ts';
import { storeGet, storeList } from '../apiserver/store.ts';
import { storeKey } from '../api/resources.ts';
import { testWorld, pod } from '../testing/world.ts';
import type { ComponentDef, World } from '../world.ts';
import { rfc3339, rfc3339Micro, parseTime } from '../util/time.ts';
import {
  initialMachine,
  nodeLifecycleControllerDef,
  stepMachine,
  unpackMachineEvents,
  type NodeLifecycleControllerState,
} from './node-lifecycle-controller.ts';
import { nodeHealthOf } from './node-health-view.ts';
import { nodeMachine } from './node-machine.ts';
import { taintEvictionControllerDef } from './taint-eviction-controller.ts';
import { nodeLifecycleApiServer } from '../apiserver/node-admission.ts';
import { runs } from '../../test/fc.ts';

// ---------------------------------------------------------------- fixtures

/** A tiny kubelet: renews its Lease every 10 s and, when the API shows its node not Ready, posts Ready=True. */
interface FakeKubeletState {
  node: string;
  running: boolean;
}
const fakeKubeletDef: ComponentDef<FakeKubeletState> = {
  name: 'fake-kubelet',
  init(ctx) {
    ctx.schedule(10_000, { type: 'tick' }, { recurring: true });
    return { node: ctx.name.split('/')[1], running: true };
  },
  handle(event, ctx) {
    const ev = event as { type: string };
    const s = ctx.state;
    if (ev.type === 'stop') {
      s.running = false;
      return;
    }
    if (ev.type === 'start') {
      s.running = true;
      renew();
      return;
    }
    if (ev.type === 'tick') {
      ctx.schedule(10_000, { type: 'tick' }, { recurring: true });
      if (s.running) renew();
    }
    function renew() {
      const l = ctx.api.get('leases', 'kube-node-lease', s.node);
      if (l.ok) ctx.api.update('leases', { ...l.object, spec: { ...l.object.spec, renewTime: rfc3339Micro(ctx.now) } });
      const n = ctx.api.get('nodes', undefined, s.node);
      const ready = n.ok ? n.object.status?.conditions?.find((c) => c.type === 'Ready') : undefined;
      if (n.ok && ready?.status !== 'True') {
        const t = rfc3339(ctx.now);
        ctx.api.patch(
          'nodes',
          undefined,
          s.node,
          {
            status: {
              conditions: [
                {
                  type: 'Ready',
                  status: 'True',
                  reason: 'KubeletReady',
                  message: 'kubelet is posting ready status',
                  lastHeartbeatTime: t,
                  lastTransitionTime: t,
                },
                ...['MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
                  type,
                  status: 'False',
                  lastHeartbeatTime: t,
                  lastTransitionTime: t,
                })),
              ],
            },
          },
          'status',
        );
      }
    }
  },
};

function nodeBody(name: string): Node {
  const t = rfc3339(0);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: {
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'False',
          reason: 'KubeletHasSufficientMemory',
          lastHeartbeatTime: t,
          lastTransitionTime: t,
        },
        {
          type: 'DiskPressure',
          status: 'False',
          reason: 'KubeletHasNoDiskPressure',
          lastHeartbeatTime: t,
          lastTransitionTime: t,
        },
        {
          type: 'PIDPressure',
          status: 'False',
          reason: 'KubeletHasSufficientPID',
          lastHeartbeatTime: t,
          lastTransitionTime: t,
        },
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: t,
          lastTransitionTime: t,
        },
      ],
    },
  };
}

function leaseBody(name: string): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-node-lease' },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: rfc3339Micro(0) },
  };
}

/** Three Ready nodes with leases and kubelets, pods a,b on node-2 and c on node-1, both controllers. */
function cluster(opts: { seed?: number; pods?: [string, string][]; nodes?: number } = {}): World {
  const w = testWorld(
    { seed: opts.seed ?? 1 },
    [nodeLifecycleControllerDef, taintEvictionControllerDef, fakeKubeletDef],
    nodeLifecycleApiServer,
  );
  const n = opts.nodes ?? 3;
  for (let i = 1; i <= n; i++) {
    w.kubectl({ verb: 'create', resource: 'nodes', body: nodeBody(`node-${i}`) });
    w.kubectl({ verb: 'create', resource: 'leases', namespace: 'kube-node-lease', body: leaseBody(`node-${i}`) });
  }
  for (const [name, node] of opts.pods ?? [
    ['a', 'node-2'],
    ['b', 'node-2'],
    ['c', 'node-1'],
  ]) {
    const r = w.kubectl({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: pod(name, { app: 'web' }, node),
    });
    const p = (r as { object: Pod }).object;
    const t = rfc3339(0);
    w.kubectl({
      verb: 'update',
      resource: 'pods',
      namespace: 'default',
      name,
      subresource: 'status',
      body: {
        ...p,
        status: {
          ...p.status,
          phase: 'Running',
          conditions: [
            { type: 'Ready', status: 'True', lastTransitionTime: t },
            { type: 'ContainersReady', status: 'True', lastTransitionTime: t },
          ],
        },
      },
    });
  }
  for (let i = 1; i <= n; i++) w.addComponent(`kubelet/node-${i}`, 'fake-kubelet');
  w.addComponent('node-lifecycle-controller', 'node-lifecycle-controller');
  w.addComponent('taint-eviction-controller', 'taint-eviction-controller');
  return w;
}

const getNode = (w: World, name: string) =>
  storeGet(w.state.store, 'nodes', storeKey('nodes', undefined, name)) as Node;
const getPod = (w: World, name: string) =>
  storeGet(w.state.store, 'pods', storeKey('pods', 'default', name)) as Pod | undefined;
const ready = (n: Node | Pod) => n.status?.conditions?.find((c) => c.type === 'Ready');
const taintKeys = (w: World, name: string) =>
  (getNode(w, name).spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();
const events = (w: World) => storeList(w.state.store, 'events');
const nlcState = (w: World) => w.state.components['node-lifecycle-controller'].state as NodeLifecycleControllerState;

/** Run in small steps until pred holds; returns the time it first held (or undefined). */
function runUntilTrue(w: World, pred: () => boolean, untilT: number, stepMs = 10): number | undefined {
  while (w.now < untilT) {
    w.advance(stepMs);
    if (pred()) return w.now;
  }
  return undefined;
}

/** Time of the first request record matching. */
function firstReq(w: World, pred: (r: World['state']['log'][number]) => boolean) {
  return w.state.log.find((r) => r.kind === 'request' && pred(r));
}

/** A controller restart: its watches closed, its state gone; timers left behind are ignored by generation. */
function removeComponent(w: World, name: string): void {
  for (const [id, x] of Object.entries(w.state.apiServer.watchers)) if (x.component === name) closeWatch(w.state, id);
  delete w.state.components[name];
}

// ---------------------------------------------------------------- tests

describe('node-lifecycle-controller', () => {
  it('starts with informers and registers every node', () => {
    const w = cluster();
    w.advance(1000);
    const reqs = w.state.log.filter((r) => r.component === 'node-lifecycle-controller' && r.kind === 'request');
    const stream = 'allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true';
    expect(reqs.slice(0, 3).map((r) => `${r.verb} ${r.path}`)).toEqual([
      `WATCH /api/v1/nodes?${stream}`,
      `WATCH /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases?${stream}`,
      `WATCH /api/v1/pods?${stream}`,
    ]);
    const reg = events(w)
      .filter((e) => e.reason === 'RegisteredNode')
      .map((e) => e.message);
    expect(reg).toEqual([
      'Node node-1 event: Registered Node node-1 in Controller',
      'Node node-2 event: Registered Node node-2 in Controller',
      'Node node-3 event: Registered Node node-3 in Controller',
    ]);
    // kube-controller-manager's recorder for this controller: EventSource{Component: "node-controller"}.
    expect(
      events(w)
        .filter((e) => e.reason === 'RegisteredNode')
        .map((e) => [e.source, e.reportingComponent, e.involvedObject.kind]),
    ).toEqual([1, 2, 3].map(() => [{ component: 'node-controller' }, 'node-controller', 'Node']));
    expect(nodeHealthOf(nlcState(w), 'node-2')).toMatchObject({
      machine: 'healthy',
      ready: 'True',
      gracePeriodMs: 50_000,
    });
    // Healthy nodes: no writes to nodes or pods.
    w.advance(120_000);
    expect(
      w.state.log.filter(
        (r) => r.component === 'node-lifecycle-controller' && r.kind === 'request' && ['PUT', 'PATCH'].includes(r.verb),
      ),
    ).toEqual([]);
    expect(nodeHealthOf(w.state, 'node-2')?.machine).toBe('healthy');
  });

  it('a node whose lease stops: Unknown after 50–55 s, pods NotReady, NoSchedule then NoExecute, eviction 300 s later', () => {
    const w = cluster();
    w.advance(20_000); // kubelet/node-2 renewed at 10 s and 20 s
    w.inject('kubelet/node-2', { type: 'stop' });
    const lastRenew = 20_000;
    const unknownAt = runUntilTrue(w, () => ready(getNode(w, 'node-2'))?.status === 'Unknown', 100_000)!;
    expect(unknownAt - lastRenew).toBeGreaterThanOrEqual(50_000);
    expect(unknownAt - lastRenew).toBeLessThanOrEqual(55_500);
    const cond = ready(getNode(w, 'node-2'))!;
    expect(cond).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    });
    expect(getNode(w, 'node-2').status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual([
      'MemoryPressure=Unknown',
      'DiskPressure=Unknown',
      'PIDPressure=Unknown',
      'Ready=Unknown',
    ]);
    const put = firstReq(
      w,
      (r) => r.component === 'node-lifecycle-controller' && r.path === '/api/v1/nodes/node-2/status',
    )!;
    expect([put.verb, put.code]).toEqual(['PUT', 200]);
    // 1.37: the Lease the cache shows expired is read live just before the write.
    const live = firstReq(
      w,
      (r) =>
        r.component === 'node-lifecycle-controller' &&
        r.path === '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-2',
    )!;
    expect([live.verb, live.code, live.t]).toEqual(['GET', 200, put.t]);
    expect(w.state.log.indexOf(live)).toBeLessThan(w.state.log.indexOf(put));
    // Other nodes untouched.
    expect(ready(getNode(w, 'node-1'))?.status).toBe('True');

    w.advance(50);
    // MarkPodsNotReady: Ready=False through UpdateStatus for both pods on node-2, none on node-1.
    expect(ready(getPod(w, 'a')!)?.status).toBe('False');
    expect(ready(getPod(w, 'b')!)?.status).toBe('False');
    expect(ready(getPod(w, 'c')!)?.status).toBe('True');
    const podPut = firstReq(
      w,
      (r) => r.component === 'node-lifecycle-controller' && r.path === '/api/v1/namespaces/default/pods/a/status',
    )!;
    expect([podPut.verb, podPut.code]).toEqual(['PUT', 200]);
    const ev = events(w);
    expect(ev.find((e) => e.reason === 'NodeNotReady' && e.involvedObject?.kind === 'Node')).toMatchObject({
      type: 'Normal',
      message: 'Node node-2 status is now: NodeNotReady',
    });
    expect(
      ev
        .filter((e) => e.reason === 'NodeNotReady' && e.involvedObject?.kind === 'Pod')
        .map((e) => [e.involvedObject?.name, e.type, e.message]),
    ).toEqual([
      ['a', 'Warning', 'Node is not ready'],
      ['b', 'Warning', 'Node is not ready'],
    ]);
    // The NoSchedule taint follows the status write (node update → doNoScheduleTaintingPass).
    expect(taintKeys(w, 'node-2')).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    const nsPatch = firstReq(
      w,
      (r) => r.component === 'node-lifecycle-controller' && r.verb === 'PATCH' && r.path === '/api/v1/nodes/node-2',
    )!;
    expect(nsPatch.code).toBe(200);
    expect(nsPatch.t - unknownAt).toBeLessThan(20);
    expect(nodeHealthOf(w.state, 'node-2')).toMatchObject({
      machine: 'unknown',
      ready: 'Unknown',
      noScheduleTaint: 'node.kubernetes.io/unreachable:NoSchedule',
    });

    // NoExecute: queued by the pass that wrote Unknown (1.37), tainted at the next 100 ms tick.
    const noExecAt = runUntilTrue(
      w,
      () => taintKeys(w, 'node-2').includes('node.kubernetes.io/unreachable:NoExecute'),
      unknownAt + 20_000,
    )!;
    expect(noExecAt - unknownAt).toBeGreaterThanOrEqual(50);
    expect(noExecAt - unknownAt).toBeLessThanOrEqual(200);
    const ne = (getNode(w, 'node-2').spec?.taints ?? []).find((t) => t.effect === 'NoExecute')!;
    expect(parseTime(ne.timeAdded)! / 1000).toBe(Math.floor((noExecAt - 10) / 1000)); // timeAdded stamped when written
    // GET (from the cache) then PATCH, as AddOrUpdateTaintOnNode does.
    const tail = w.state.log.filter(
      (r) => r.component === 'node-lifecycle-controller' && r.kind === 'request' && r.t > unknownAt && r.t <= noExecAt,
    );
    expect(tail.map((r) => `${r.verb} ${r.path} ${r.code}`)).toEqual([
      'GET /api/v1/nodes/node-2?resourceVersion=0 200',
      'PATCH /api/v1/nodes/node-2 200',
    ]);

    // 300 s later (DefaultTolerationSeconds) the pods are marked and deleted gracefully.
    w.advance(299_000);
    expect(getPod(w, 'a')!.metadata?.deletionTimestamp).toBeUndefined();
    w.advance(1_500);
    const a = getPod(w, 'a')!;
    expect(a.metadata?.deletionTimestamp).toBeDefined();
    expect(a.metadata?.deletionGracePeriodSeconds).toBe(30);
    expect(a.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    });
    expect(getPod(w, 'c')!.metadata?.deletionTimestamp).toBeUndefined();
    const del = firstReq(
      w,
      (r) =>
        r.component === 'taint-eviction-controller' &&
        r.verb === 'DELETE' &&
        r.path === '/api/v1/namespaces/default/pods/a',
    )!;
    expect(del.code).toBe(200);
    expect(del.t - noExecAt).toBeGreaterThanOrEqual(300_000);
    expect(del.t - noExecAt).toBeLessThan(300_020);
    expect(
      events(w)
        .filter((e) => e.reason === 'TaintManagerEviction')
        .map((e) => e.message),
    ).toEqual(['Marking for deletion Pod default/a', 'Marking for deletion Pod default/b']);
    // Nobody confirms the deletion: the pods stay Terminating.
    w.advance(600_000);
    expect(getPod(w, 'a')?.metadata?.deletionTimestamp).toBeDefined();
    expect(getPod(w, 'b')?.metadata?.deletionTimestamp).toBeDefined();
    expect(nodeHealthOf(w.state, 'node-2')).toMatchObject({ machine: 'evicting', evictedPods: 2 });
  });

  it('a node back before 300 s: taints removed, evictions cancelled', () => {
    const w = cluster();
    w.advance(20_000);
    w.inject('kubelet/node-2', { type: 'stop' });
    const noExecAt = runUntilTrue(
      w,
      () => taintKeys(w, 'node-2').includes('node.kubernetes.io/unreachable:NoExecute'),
      120_000,
    )!;
    expect(noExecAt).toBeDefined();
    w.advance(100_000);
    w.inject('kubelet/node-2', { type: 'start' });
    const clearAt = runUntilTrue(w, () => taintKeys(w, 'node-2').length === 0, w.now + 20_000)!;
    expect(clearAt).toBeDefined();
    expect(ready(getNode(w, 'node-2'))?.status).toBe('True');
    expect(
      events(w)
        .filter((e) => e.reason === 'TaintManagerEviction')
        .map((e) => e.message),
    ).toEqual(['Cancelling deletion of Pod default/a', 'Cancelling deletion of Pod default/b']);
    w.advance(400_000);
    expect(getPod(w, 'a')?.metadata?.deletionTimestamp).toBeUndefined();
    expect(w.state.log.some((r) => r.component === 'taint-eviction-controller' && r.verb === 'DELETE')).toBe(false);
    expect(nodeHealthOf(w.state, 'node-2')?.machine).toBe('healthy');
    expect(nlcState(w).logs.some((l) => l.msg === 'Node node-2 is healthy again, removing all taints')).toBe(true);
  });

  it('two of three nodes down: zone stays Normal, NoExecute taints one per 10 s', () => {
    const w = cluster();
    w.advance(20_000);
    w.inject('kubelet/node-2', { type: 'stop' });
    w.inject('kubelet/node-3', { type: 'stop' });
    const t2 = runUntilTrue(
      w,
      () =>
        taintKeys(w, 'node-2').includes('node.kubernetes.io/unreachable:NoExecute') ||
        taintKeys(w, 'node-3').includes('node.kubernetes.io/unreachable:NoExecute'),
      150_000,
    )!;
    const t3 = runUntilTrue(
      w,
      () =>
        taintKeys(w, 'node-2').includes('node.kubernetes.io/unreachable:NoExecute') &&
        taintKeys(w, 'node-3').includes('node.kubernetes.io/unreachable:NoExecute'),
      150_000,
    )!;
    expect(t3 - t2).toBeGreaterThanOrEqual(9_900);
    expect(t3 - t2).toBeLessThanOrEqual(10_100);
    expect(nlcState(w).health.zones.zoneStates['']).toBe('Normal');
    expect(nlcState(w).disruptionMode).toBe(false);
    expect(taintKeys(w, 'node-1')).toEqual([]);
  });

  it('all three nodes down: master disruption mode, no NoExecute taints, no evictions; fresh grace on exit', () => {
    const w = cluster();
    w.advance(20_000);
    for (const n of ['node-1', 'node-2', 'node-3']) w.inject(`kubelet/${n}`, { type: 'stop' });
    w.advance(100_000);
    for (const n of ['node-1', 'node-2', 'node-3']) expect(ready(getNode(w, n))?.status).toBe('Unknown');
    const s = nlcState(w);
    expect(s.disruptionMode).toBe(true);
    expect(s.health.zones.zoneStates['']).toBe('FullDisruption');
    expect(
      s.logs.some(
        (l) => l.msg === 'Controller detected that all Nodes are not-Ready. Entering master disruption mode.',
      ),
    ).toBe(true);
    expect(nodeHealthOf(w.state, 'node-2')?.machine).toBe('disrupted');
    w.advance(400_000);
    for (const n of ['node-1', 'node-2', 'node-3'])
      expect(taintKeys(w, n)).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    expect(
      w.state.log.some(
        (r) =>
          r.component === 'taint-eviction-controller' && r.kind === 'request' && r.verb !== 'GET' && r.verb !== 'WATCH',
      ),
    ).toBe(false);
    // No idle taint-pass timers while the limiters are stopped.
    expect(w.state.queue.heap.filter((e) => (e.event as { type?: string }).type === 'taint-pass')).toEqual([]);
    // node-1 comes back: exit; the still-silent nodes get a fresh grace period from now.
    w.inject('kubelet/node-1', { type: 'start' });
    const exitAt = runUntilTrue(w, () => !nlcState(w).disruptionMode, w.now + 20_000)!;
    expect(
      nlcState(w).logs.some(
        (l) => l.msg === 'Controller detected that some Nodes are Ready. Exiting master disruption mode.',
      ),
    ).toBe(true);
    const h = nodeHealthOf(w.state, 'node-2')!;
    expect(h.probeTimestamp).toBeGreaterThan(exitAt - 5_100);
    expect(h.graceEndsAt).toBe(h.probeTimestamp + 50_000);
    // Then the zone is Normal with 2 of 3 down: NoExecute taints return, 10 s apart.
    w.advance(30_000);
    const ne = ['node-2', 'node-3'].map((n) =>
      (getNode(w, n).spec?.taints ?? []).find((t) => t.effect === 'NoExecute'),
    );
    expect(ne.every(Boolean)).toBe(true);
  });

  it('the last node going down enters disruption mode: NoExecute taints removed, pending evictions cancelled', () => {
    const w = cluster();
    w.advance(20_000);
    w.inject('kubelet/node-2', { type: 'stop' });
    w.inject('kubelet/node-3', { type: 'stop' });
    runUntilTrue(
      w,
      () => ['node-2', 'node-3'].every((n) => taintKeys(w, n).includes('node.kubernetes.io/unreachable:NoExecute')),
      150_000,
    );
    const tainted = w.now;
    w.inject('kubelet/node-1', { type: 'stop' });
    const enterAt = runUntilTrue(w, () => nlcState(w).disruptionMode, tainted + 80_000)!;
    expect(enterAt - tainted).toBeGreaterThan(40_000);
    w.advance(1_000);
    for (const n of ['node-1', 'node-2', 'node-3'])
      expect(taintKeys(w, n)).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    expect(
      events(w)
        .filter((e) => e.reason === 'TaintManagerEviction')
        .map((e) => e.message),
    ).toEqual(['Cancelling deletion of Pod default/a', 'Cancelling deletion of Pod default/b']);
    w.advance(600_000);
    expect(getPod(w, 'a')?.metadata?.deletionTimestamp).toBeUndefined();
    expect(['node-1', 'node-2', 'node-3'].map((n) => nodeHealthOf(w.state, n)?.machine)).toEqual([
      'disrupted',
      'disrupted',
      'disrupted',
    ]);
  });

  it('a restarted controller has no saved health: every node gets a fresh grace period', () => {
    const w = cluster();
    w.advance(20_000);
    w.inject('kubelet/node-2', { type: 'stop' });
    w.advance(30_000); // node-2 silent for 30 s; its grace would end at ~75 s
    const before = nodeHealthOf(w.state, 'node-2')!;
    expect(before.machine).toBe('graceRunning');
    expect(before.graceEndsAt).toBeLessThan(76_000);
    removeComponent(w, 'node-lifecycle-controller');
    w.advance(10_000);
    const restartAt = w.now; // 60 s
    w.addComponent('node-lifecycle-controller', 'node-lifecycle-controller');
    w.advance(200);
    const s = nlcState(w);
    expect(s.logs.map((l) => l.msg)).toContain('Missing timestamp for Node node-2. Assuming now as a timestamp.');
    const after = nodeHealthOf(w.state, 'node-2')!;
    // WaitForNamedCacheSync found the streamed caches synced at its second look, 100 ms in.
    const firstPass = restartAt + SYNCED_POLL_PERIOD_MS;
    expect(after.probeTimestamp).toBe(firstPass);
    expect(after.graceEndsAt).toBe(firstPass + 50_000);
    const unknownAt = runUntilTrue(w, () => ready(getNode(w, 'node-2'))?.status === 'Unknown', 200_000)!;
    expect(unknownAt - firstPass).toBeGreaterThanOrEqual(50_000);
    expect(unknownAt - firstPass).toBeLessThanOrEqual(55_500);
    // Only one controller incarnation writes: one status PUT for node-2.
    expect(
      w.state.log.filter(
        (r) => r.path === '/api/v1/nodes/node-2/status' && r.component === 'node-lifecycle-controller',
      ),
    ).toHaveLength(1);
  });

  it('is deterministic and survives snapshot/restore', () => {
    const run = (cut?: number) => {
      const w = cluster({ seed: 7 });
      w.advance(20_000);
      w.inject('kubelet/node-2', { type: 'stop' });
      if (cut) {
        w.advance(cut);
        const snap = w.snapshot();
        w.advance(1_000);
        w.restore(snap);
        w.advance(400_000 - cut);
      } else w.advance(400_000);
      return w;
    };
    const a = run();
    const b = run();
    const c = run(61_234);
    expect(a.hash()).toBe(b.hash());
    expect(c.hash()).toBe(a.hash());
    expect(JSON.parse(JSON.stringify(a.state.components['node-lifecycle-controller'].state))).toEqual(
      a.state.components['node-lifecycle-controller'].state,
    );
  });
});

describe('stepMachine (packed events, memoised)', () => {
  it('unpacks events in the order the controller sends them, with the pods of TOLERATION_EXPIRED', () => {
    expect(unpackMachineEvents(1 | 4 | 8)).toEqual([
      { type: 'SOME_NODES_READY' },
      { type: 'HEARTBEAT' },
      { type: 'TAINTS_REMOVED' },
    ]);
    expect(unpackMachineEvents((2 | 16 | 64 | 128 | 256 | 512) + 3 * 1024)).toEqual([
      { type: 'HEARTBEAT_MISSED' },
      { type: 'GRACE_EXCEEDED' },
      { type: 'ALL_ZONES_DOWN' },
      { type: 'NOSCHEDULE_TAINTED' },
      { type: 'NOEXECUTE_TAINTED' },
      { type: 'TOLERATION_EXPIRED', pods: 3 },
    ]);
  });

  it('agrees with xstate step by step, and keeps the object when nothing changes', () => {
    // Few distinct event sets, so that walks repeat them and hit both memos.
    const packed = fc.oneof(
      fc.constantFrom(4 | 8, 2, 4, 2 | 16, 16, 32, 32 | 128, 16 | 128 | 256, 64, 1 | 4, 1 | 2 | 16),
      fc
        .integer({ min: 1, max: 1023 })
        .chain((bits) => fc.integer({ min: 1, max: 3 }).map((pods) => (bits & 512 ? bits + pods * 1024 : bits))),
    );
    fc.assert(
      fc.property(fc.array(packed, { minLength: 1, maxLength: 30 }), (walk) => {
        let m = initialMachine();
        let ref = nodeMachine.resolveState({ value: m.value, context: m.context });
        for (const events of walk) {
          for (const e of unpackMachineEvents(events)) [ref] = transition(nodeMachine, ref, e);
          const next = stepMachine(m, events);
          expect({ value: next.value, context: next.context }).toEqual({ value: ref.value, context: ref.context });
          const same = next.value === m.value && JSON.stringify(next.context) === JSON.stringify(m.context);
          expect(next === m).toBe(same);
          m = next;
        }
      }),
      { numRuns: runs(0.3) },
    );
  });
});

describe('a Node no kubelet ever posts for (applied by hand: no Lease, no conditions)', () => {
  it('after the startup grace period (1 min): conditions Unknown "NodeStatusNeverUpdated" and both unreachable taints', async () => {
    const { createCluster } = await import('../cluster.ts');
    const { runKubectl } = await import('../kubectl/kubectl.ts');
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'apply -f -', 'apiVersion: v1\nkind: Node\nmetadata:\n  name: ghost\n');
    const get = () => JSON.parse(runKubectl(c, 'get node ghost -o json').stdout) as Node;
    c.advance(59_000);
    expect(get().spec?.taints).toBeUndefined();
    c.advance(2_000);
    const n = get();
    expect(n.status?.conditions?.map((x) => [x.type, x.status, x.reason])).toEqual(
      ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((t) => [t, 'Unknown', 'NodeStatusNeverUpdated']),
    );
    expect(n.spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/unreachable:NoSchedule',
      'node.kubernetes.io/unreachable:NoExecute',
    ]);
  });
});
