import { describe, it, expect } from 'vitest';
import type { Event as CoreEvent, Node, Pod } from 'kubernetes-types/core/v1';
import type { Lease as CoordLease } from 'kubernetes-types/coordination/v1';
import { testWorld } from '../testing/world.ts';
import { replay, type World } from '../world.ts';
import type { RequestRecord } from '../request-log.ts';
import { storeGet } from '../apiserver/store.ts';
import { storeKey } from '../api/resources.ts';
import { rfc3339 } from '../util/time.ts';
import {
  crashContainer,
  healNode,
  imageAvailable,
  imageMissing,
  kubeletDef,
  kubeletStateOf,
  partitionNode,
  podLifecycleOf,
  powerOff,
  powerOn,
  setContainerHealth,
} from './kubelet.ts';

const K = 'kubelet/node-1';
const CONTAINERD = 'containerd/node-1';

function world(seed = 1): World {
  const w = testWorld({ seed }, [kubeletDef]);
  w.addComponent(K, 'kubelet');
  return w;
}

function podBody(
  name: string,
  container: Record<string, unknown> = {},
  spec: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'web' } },
    spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx:1.27', ...container }], ...spec },
  };
}

function createPod(
  w: World,
  name: string,
  container: Record<string, unknown> = {},
  spec: Record<string, unknown> = {},
): Pod {
  const r = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: podBody(name, container, spec) });
  expect(r.ok).toBe(true);
  return (r as { object: Pod }).object;
}

function getPod(w: World, name: string): Pod | undefined {
  return storeGet(w.state.store, 'pods', storeKey('pods', 'default', name)) as Pod | undefined;
}

function getNode(w: World, name = 'node-1'): Node {
  return storeGet(w.state.store, 'nodes', storeKey('nodes', undefined, name)) as Node;
}

function getLease(w: World): CoordLease {
  return storeGet(w.state.store, 'leases', storeKey('leases', 'kube-node-lease', 'node-1')) as CoordLease;
}

function cri(w: World, from = 0): RequestRecord[] {
  return w.state.log.filter((r) => r.kind === 'cri' && r.t >= from);
}

function events(w: World, pod: string): CoreEvent[] {
  const evs = Object.values(w.state.store.objects.events ?? {}) as unknown as CoreEvent[];
  return evs
    .filter((e) => e.involvedObject.name === pod)
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
}

function status(w: World, name: string) {
  const p = getPod(w, name)!;
  const cs = p.status?.containerStatuses?.[0];
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  return {
    phase: p.status?.phase,
    ready,
    waiting: cs?.state?.waiting?.reason,
    running: !!cs?.state?.running,
    restartCount: cs?.restartCount,
    cs,
    pod: p,
  };
}

describe('kubelet: registration, lease, node status', () => {
  it('registers the Node with capacity, conditions, addresses, nodeInfo and podCIDR, then creates its Lease', () => {
    const w = world();
    const reqs = w.state.log.filter((r) => r.component === K && r.kind === 'request' && !r.path.includes('/events'));
    expect(reqs.map((r) => `${r.verb} ${r.path} ${r.code}`)).toEqual([
      'POST /api/v1/nodes 201',
      'GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1?timeout=10s 404',
      // SetNodeOwnerFunc: the lease is created owned by the Node as the API has it
      'GET /api/v1/nodes/node-1?timeout=10s 200',
      'POST /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases?timeout=10s 201',
      // streaming lists (WatchListClient), as the traces show the real kubelet opening them
      'WATCH /api/v1/pods?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dnode-1&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true 200',
      // its own Node, for tryUpdateNodeStatus's first try
      'WATCH /api/v1/nodes?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dnode-1&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true 200',
    ]);
    const node = getNode(w);
    expect(node.spec).toEqual({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] });
    expect(node.metadata!.labels).toMatchObject({
      'kubernetes.io/hostname': 'node-1',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
    });
    expect(node.status!.capacity).toMatchObject({ cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' });
    expect(node.status!.allocatable).toMatchObject({ cpu: '4', memory: '8092Mi', pods: '110' });
    expect(node.status!.conditions!.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
      ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
    ]);
    expect(node.status!.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.11' },
      { type: 'Hostname', address: 'node-1' },
    ]);
    expect(node.status!.nodeInfo).toMatchObject({
      kubeletVersion: 'v1.37.2',
      containerRuntimeVersion: 'containerd://2.1.4',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      operatingSystem: 'linux',
      architecture: 'amd64',
    });
    const lease = getLease(w);
    expect(lease.spec).toEqual({
      holderIdentity: 'node-1',
      leaseDurationSeconds: 40,
      renewTime: '2026-01-01T00:00:00.000000Z',
    });
    expect(lease.metadata!.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: node.metadata!.uid },
    ]);
  });

  it('a control-plane node registers with its taint, and node-2 gets its own CIDR and IP', () => {
    const w = testWorld({}, [kubeletDef]);
    w.addComponent('kubelet/node-2', 'kubelet', { params: { controlPlane: true, zone: 'zone-a' } });
    const node = getNode(w, 'node-2');
    expect(node.spec!.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    expect(node.spec!.podCIDR).toBe('10.244.2.0/24');
    expect(node.status!.addresses![0].address).toBe('10.0.0.12');
    expect(node.metadata!.labels!['topology.kubernetes.io/zone']).toBe('zone-a');
  });

  it('renews the Lease every 10 s (+ up to 4 % jitter, sliding) with a PUT from the Lease it last wrote, each a new revision', () => {
    const w = world();
    w.advance(32_000);
    const puts = w.state.log.filter((r) => r.component === K && r.verb === 'PUT');
    expect(puts.map((r) => [r.path, r.code])).toEqual(
      Array(3).fill(['/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1?timeout=10s', 200]),
    );
    // wait.JitterUntil(sync, 10 s, 0.04, sliding): each gap is 10 s to 10.4 s
    const gaps = puts.map((r, i) => r.t - (i ? puts[i - 1].t : 0));
    expect(gaps.every((g) => g >= 10_000 && g <= 10_400)).toBe(true);
    expect(new Set(gaps).size).toBeGreaterThan(1);
    // no GET: renewals start from the last written Lease
    expect(
      w.state.log.filter((r) => r.component === K && r.verb === 'GET' && r.path.includes('/leases/') && r.t > 0),
    ).toEqual([]);
    const revs = puts.map((r) => r.revision!);
    expect(revs[0]).toBeLessThan(revs[1]);
    expect(revs[1]).toBeLessThan(revs[2]);
    expect(getLease(w).metadata!.resourceVersion).toBe(String(revs[2]));
  });

  it('reports node status only when it changed or after 5 minutes', () => {
    const w = world();
    w.advance(299_000);
    const patches = () =>
      w.state.log.filter(
        (r) => r.component === K && r.verb === 'PATCH' && r.path === '/api/v1/nodes/node-1/status?timeout=10s',
      );
    expect(patches()).toHaveLength(0);
    // the first 10 s tick (jittered by up to 4 %) at or after 300 s
    w.advance(12_000);
    expect(patches()).toHaveLength(1);
    const at = patches()[0].t;
    expect(at).toBeGreaterThanOrEqual(300_000);
    expect(at).toBeLessThan(311_000);
    expect(getNode(w).status!.conditions!.find((c) => c.type === 'Ready')!.lastHeartbeatTime).toBe(rfc3339(at));
    expect(getNode(w).status!.conditions!.find((c) => c.type === 'Ready')!.lastTransitionTime).toBe(
      '2026-01-01T00:00:00Z',
    );
    // A pulled image changes status.images: reported at the next 10 s tick.
    createPod(w, 'web-1');
    w.advance(22_000);
    expect(patches()).toHaveLength(2);
    expect(getNode(w).status!.images!.map((i) => i.names![1])).toContain('docker.io/library/nginx:1.27');
  });
});

describe('kubelet: node status against the server copy (tryUpdateNodeStatus)', () => {
  const readyOf = (w: World) => getNode(w).status!.conditions!.find((c) => c.type === 'Ready')!;

  it('each tick reads the Node from the node informer (no GET); a Ready=Unknown written by someone else is corrected at the next tick', () => {
    const w = world();
    w.advance(25_000);
    const nodeReqs = (from: number) =>
      w.state.log.filter(
        (r) => r.component === K && r.kind === 'request' && r.t >= from && r.path.startsWith('/api/v1/nodes/node-1'),
      );
    // Unchanged: nothing sent at the 10 s ticks (the GET at 0 is the lease controller's, for the owner).
    expect(nodeReqs(0).map((r) => `${r.t} ${r.verb} ${r.path} ${r.code}`)).toEqual([
      '0 GET /api/v1/nodes/node-1?timeout=10s 200',
    ]);
    // What the node lifecycle controller writes when the lease goes stale.
    const n = getNode(w);
    const conditions = n.status!.conditions!.map((c) =>
      c.type === 'Ready'
        ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }
        : c,
    );
    expect(
      w.kubectl({
        verb: 'update',
        resource: 'nodes',
        name: 'node-1',
        subresource: 'status',
        body: { ...n, status: { ...n.status, conditions } },
      }).ok,
    ).toBe(true);
    expect(readyOf(w).status).toBe('Unknown');
    w.advance(11_000);
    expect(nodeReqs(25_000).map((r) => `${r.verb} ${r.path} ${r.code}`)).toEqual([
      'PATCH /api/v1/nodes/node-1/status?timeout=10s 200',
    ]);
    expect(readyOf(w)).toMatchObject({ status: 'True', reason: 'KubeletReady' });
  });

  it('an unreachable API server: nothing sent while nothing changed; a due report fails and the nodeStatusUpdateRetry (5) tries after the first GET', () => {
    const w = world();
    w.advance(5_000);
    partitionNode(w, 'node-1');
    w.advance(280_000);
    expect(w.state.log.filter((r) => r.component === K && r.t > 5_000 && r.path.startsWith('/api/v1/nodes/'))).toEqual(
      [],
    );
    w.advance(30_000); // nodeStatusReportFrequency: the first tick after 300 s must report
    const reqs = w.state.log.filter((r) => r.component === K && r.t > 5_000 && r.path.startsWith('/api/v1/nodes/'));
    expect(new Set(reqs.map((r) => r.t)).size).toBe(1);
    expect(reqs.map((r) => `${r.verb} ${r.path}`)).toEqual([
      'PATCH /api/v1/nodes/node-1/status?timeout=10s',
      ...Array(4).fill('GET /api/v1/nodes/node-1?timeout=10s'),
    ]);
    expect(reqs.every((r) => r.code !== 200)).toBe(true);
  });
});

describe('kubelet: serialized image pulls (serializeImagePulls, the default)', () => {
  it('pulls one image at a time; the one that waited says so in its Pulled event', () => {
    const w = world();
    w.advance(1_000);
    createPod(w, 'web', { image: 'nginx:1.27' });
    createPod(w, 'cache', { image: 'redis:7.4' });
    w.advance(30_000);
    const pulls = cri(w).filter((r) => r.verb === 'PullImage');
    expect(pulls).toHaveLength(2);
    // nginx 72.4 MB and redis 45.6 MB at 12.5 MB/s, each after a 600 ms registry round trip
    const took: Record<string, number> = { web: 6392, cache: 4248 };
    const pulled = ['web', 'cache'].map((p) => ({
      pod: p,
      msg: events(w, p).find((e) => e.reason === 'Pulled')!.message!,
    }));
    const first = pulled.find((p) =>
      p.msg.includes(`in ${took[p.pod] / 1000}s (${took[p.pod] / 1000}s including waiting)`),
    )!;
    expect(first).toBeDefined();
    const second = pulled.find((p) => p !== first)!;
    // the second pull starts when the first ends: its wait is the first one's pull
    expect(pulls[1].t - pulls[0].t).toBe(took[second.pod]);
    // asked for a little after the first (its sandbox came later), it waited most of the first pull
    const m = /in ([\d.]+)s \(([\d.]+)s including waiting\)/.exec(second.msg)!;
    expect(Number(m[1]) * 1000).toBe(took[second.pod]);
    expect(Number(m[2]) * 1000).toBeGreaterThan(took[second.pod] + took[first.pod] - 1000);
    expect(Number(m[2]) * 1000).toBeLessThanOrEqual(took[second.pod] + took[first.pod]);
  });

  it('a pull queued behind one of the same image takes only the registry round trip', () => {
    const w = world();
    w.advance(1_000);
    createPod(w, 'a', { image: 'nginx:1.27' });
    createPod(w, 'b', { image: 'nginx:1.27' });
    w.advance(30_000);
    const msgs = ['a', 'b'].map((p) => events(w, p).find((e) => e.reason === 'Pulled')!.message!).sort();
    expect(msgs[1]).toMatch(
      /^Successfully pulled image "nginx:1\.27" in 600ms \(6\.\d+s including waiting\)\. Image size: 72400000 bytes\.$/,
    );
    expect(msgs[0]).toBe(
      'Successfully pulled image "nginx:1.27" in 6.392s (6.392s including waiting). Image size: 72400000 bytes.',
    );
  });
});

describe('kubelet: settle and the PLEG', () => {
  it('settle waits for the relist that reports a started container, on the same 1 s tick', () => {
    const w = world();
    w.advance(500);
    createPod(w, 'web-1');
    expect(w.settle()).toBe(true);
    expect(status(w, 'web-1')).toMatchObject({ phase: 'Running', running: true });
    const started = cri(w).find((r) => r.verb === 'StartContainer')!.t;
    // The relist stays on its 1 s grid (boot at 0): Running is PATCHed at the first tick after the start.
    const patches = w.state.log.filter(
      (r) => r.component === K && r.verb === 'PATCH' && r.path === '/api/v1/namespaces/default/pods/web-1/status',
    );
    const relistAt = Math.floor(started / 1000) * 1000 + 1000;
    expect(patches[patches.length - 1].t).toBe(relistAt);
    expect(w.state.now - relistAt).toBeLessThan(100); // then only the watch deliveries of that PATCH
  });

  it('a quiet node settles at once (no marker without an unreported change)', () => {
    const w = world();
    w.advance(3_000);
    const steps = w.state.steps;
    expect(w.settle()).toBe(true);
    expect(w.state.steps).toBe(steps);
  });
});

describe('kubelet: pods', () => {
  it('runs a pod: Pending/ContainerCreating → Running → Ready, sandbox first, then the pull', () => {
    const w = world();
    w.advance(1000);
    const p = createPod(w, 'web-1', { readinessProbe: { httpGet: { path: '/', port: 80 } } });
    w.advance(10);
    expect(status(w, 'web-1')).toMatchObject({ phase: 'Pending', ready: 'False', waiting: 'ContainerCreating' });
    expect(podLifecycleOf(kubeletStateOf(w, 'node-1')!, 'default/web-1')!.state).toBe('pending');
    w.advance(1000);
    expect(podLifecycleOf(kubeletStateOf(w, 'node-1')!, 'default/web-1')!.state).toBe('pulling');
    w.advance(10_000);
    const s = status(w, 'web-1');
    expect(s).toMatchObject({ phase: 'Running', ready: 'True', running: true, restartCount: 0 });
    expect(podLifecycleOf(kubeletStateOf(w, 'node-1')!, 'default/web-1')!.state).toBe('running.ready');
    expect(s.pod.status).toMatchObject({
      podIP: '10.244.1.2',
      podIPs: [{ ip: '10.244.1.2' }],
      hostIP: '10.0.0.11',
      startTime: '2026-01-01T00:00:01Z',
    });
    expect(s.cs!.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(s.cs!.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:/);
    expect(s.pod.status!.conditions!.map((c) => `${c.type}=${c.status}`)).toEqual([
      'PodReadyToStartContainers=True',
      'Initialized=True',
      'Ready=True',
      'ContainersReady=True',
      'PodScheduled=True',
    ]);
    const calls = cri(w);
    expect(calls.map((r) => r.verb)).toEqual([
      'RunPodSandbox',
      'ImageStatus',
      'PullImage',
      'CreateContainer',
      'StartContainer',
    ]);
    expect(calls.every((r) => r.component === CONTAINERD && r.node === 'node-1' && r.code === 0)).toBe(true);
    expect(calls[0].path).toBe('/runtime.v1.RuntimeService/RunPodSandbox');
    expect(calls[2].path).toBe('/runtime.v1.ImageService/PullImage');
    // the pull takes registry latency + 72.4 MB at 12.5 MB/s
    expect(calls[2].t - calls[1].t).toBe(600 + 5792);
    const evs = events(w, 'web-1');
    expect(evs.map((e) => e.reason)).toEqual(['Pulling', 'Pulled', 'Created', 'Started']);
    expect(evs.map((e) => e.message)).toEqual([
      'Pulling image "nginx:1.27"',
      'Successfully pulled image "nginx:1.27" in 6.392s (6.392s including waiting). Image size: 72400000 bytes.',
      'Container created',
      'Container started',
    ]);
    expect(evs[0].source).toEqual({ component: 'kubelet', host: 'node-1' });
    expect(evs.map((e) => e.involvedObject.fieldPath)).toEqual(Array(4).fill('spec.containers{web}'));
    // status PATCHes only on change: no repeats once running
    const patches = w.state.log.filter(
      (r) => r.component === K && r.path === `/api/v1/namespaces/default/pods/web-1/status`,
    );
    expect(patches.every((r) => r.verb === 'PATCH' && r.code === 200 && r.revision !== undefined)).toBe(true);
    const n = patches.length;
    w.advance(60_000);
    expect(
      w.state.log.filter((r) => r.component === K && r.path === `/api/v1/namespaces/default/pods/web-1/status`),
    ).toHaveLength(n);
    expect(p.metadata!.uid).toBe(s.pod.metadata!.uid);
  });

  it('a second pod with the image already present skips the pull (Pulled "already present")', () => {
    const w = world();
    createPod(w, 'web-1');
    w.advance(15_000);
    const t = w.now;
    createPod(w, 'web-2');
    w.advance(3000);
    expect(cri(w, t).map((r) => r.verb)).toEqual(['RunPodSandbox', 'ImageStatus', 'CreateContainer', 'StartContainer']);
    expect(events(w, 'web-2')[0].message).toBe(
      'Container image "nginx:1.27" already present on machine and can be accessed by the pod',
    );
    expect(status(w, 'web-2')).toMatchObject({ phase: 'Running', ready: 'True' });
    expect(getPod(w, 'web-2')!.status!.podIP).toBe('10.244.1.3');
  });

  it('an unpullable image: ErrImagePull, then ImagePullBackOff with growing back-off, then recovers', () => {
    const w = world();
    imageMissing(w, 'nginx:9.99');
    createPod(w, 'web-1', { image: 'nginx:9.99' });
    w.advance(2000);
    expect(status(w, 'web-1')).toMatchObject({ phase: 'Pending', waiting: 'ErrImagePull' });
    expect(status(w, 'web-1').cs!.state!.waiting!.message).toBe(
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:9.99": failed to resolve reference "docker.io/library/nginx:9.99": docker.io/library/nginx:9.99: not found',
    );
    const seen = new Set<string>();
    for (let i = 0; i < 120; i++) {
      w.advance(1000);
      seen.add(status(w, 'web-1').waiting!);
    }
    expect(seen).toEqual(new Set(['ErrImagePull', 'ImagePullBackOff']));
    const pulls = cri(w).filter((r) => r.verb === 'PullImage');
    expect(pulls.every((r) => r.code === 5)).toBe(true);
    const gaps = pulls.slice(1).map((r, i) => r.t - pulls[i].t);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThanOrEqual(gaps[i - 1] - 1);
    expect(gaps[gaps.length - 1]).toBeGreaterThan(gaps[0]);
    const bo = Object.values(kubeletStateOf(w, 'node-1')!.imageBackoff.perItemBackoff)[0].backoffMs;
    expect(bo).toBeGreaterThanOrEqual(40_000);
    const reasons = events(w, 'web-1').map((e) => `${e.type} ${e.reason}: ${e.message}`);
    expect(reasons).toContain(
      `Warning Failed: Failed to pull image "nginx:9.99": ${status(w, 'web-1').cs!.state!.waiting!.message!.replace(/^.*ErrImagePull: /, '')}`,
    );
    expect(reasons).toContain('Warning Failed: Error: ErrImagePull');
    expect(reasons).toContain('Normal BackOff: Back-off pulling image "nginx:9.99"');
    expect(reasons).toContain('Warning Failed: Error: ImagePullBackOff');
    imageAvailable(w, 'nginx:9.99');
    w.advance(400_000);
    expect(status(w, 'web-1')).toMatchObject({ phase: 'Running', ready: 'True', restartCount: 0 });
  });

  it('an image reference that does not parse: InvalidImageName, InspectFailed, no runtime call; retried at the worker back-off', () => {
    const w = world();
    createPod(w, 'web-1', { image: 'nginx:<b>' });
    w.advance(2000);
    const message =
      'Failed to apply default image tag "nginx:<b>": couldn\'t parse image name "nginx:<b>": invalid reference format';
    expect(status(w, 'web-1')).toMatchObject({ phase: 'Pending', waiting: 'InvalidImageName' });
    expect(status(w, 'web-1').cs!.state!.waiting!.message).toBe(message);
    const reasons = events(w, 'web-1').map((e) => `${e.type} ${e.reason}: ${e.message} (${e.count})`);
    expect(reasons).toContain(`Warning InspectFailed: ${message} (1)`);
    expect(reasons).toContain('Warning Failed: Error: InvalidImageName (1)');
    // EnsureImageExists returns before ImageStatus: the runtime hears of the sandbox only.
    expect(cri(w).map((r) => r.verb)).toEqual(['RunPodSandbox']);
    w.advance(30_000);
    const count = events(w, 'web-1').find((e) => e.reason === 'InspectFailed')!.count!;
    expect(count).toBeGreaterThanOrEqual(2);
    expect(count).toBeLessThanOrEqual(4);
    expect(status(w, 'web-1').waiting).toBe('InvalidImageName');
  });

  it('a crash restarts at once, then CrashLoopBackOff 10 s, 20 s', () => {
    const w = world();
    createPod(w, 'web-1');
    w.advance(10_000);
    const uid = getPod(w, 'web-1')!.metadata!.uid;
    const starts = () =>
      cri(w)
        .filter((r) => r.verb === 'StartContainer')
        .map((r) => r.t);
    crashContainer(w, 'node-1', 'default/web-1');
    const crash1 = w.now;
    w.advance(2500);
    expect(starts()).toHaveLength(2);
    expect(starts()[1] - crash1).toBeLessThanOrEqual(1100); // seen by the next PLEG relist, restarted at once
    expect(status(w, 'web-1')).toMatchObject({ running: true, restartCount: 1 });
    expect(status(w, 'web-1').cs!.lastState!.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    crashContainer(w, 'node-1', 'default/web-1');
    const crash2 = w.now;
    w.advance(2000);
    expect(status(w, 'web-1')).toMatchObject({ waiting: 'CrashLoopBackOff', restartCount: 1 });
    expect(status(w, 'web-1').cs!.state!.waiting!.message).toBe(
      `back-off 10s restarting failed container=web pod=web-1_default(${uid})`,
    );
    expect(podLifecycleOf(kubeletStateOf(w, 'node-1')!, 'default/web-1')!.state).toBe('crashLoopBackOff');
    w.advance(10_000);
    expect(starts()).toHaveLength(3);
    expect(starts()[2] - crash2).toBeGreaterThanOrEqual(10_000);
    expect(starts()[2] - crash2).toBeLessThan(10_200);
    w.advance(1000);
    crashContainer(w, 'node-1', 'default/web-1');
    const crash3 = w.now;
    w.advance(3000);
    expect(status(w, 'web-1').cs!.state!.waiting!.message).toMatch(/^back-off 20s restarting failed container=web/);
    w.advance(20_000);
    expect(starts()).toHaveLength(4);
    expect(starts()[3] - crash3).toBeGreaterThanOrEqual(20_000);
    expect(status(w, 'web-1')).toMatchObject({ running: true, restartCount: 3 });
    expect(events(w, 'web-1').filter((e) => e.reason === 'BackOff')[0].message).toBe(
      `Back-off restarting failed container web in pod web-1_default(${uid})`,
    );
  });

  it('an OOM kill shows OOMKilled, exit 137', () => {
    const w = world();
    createPod(w, 'web-1');
    w.advance(10_000);
    crashContainer(w, 'node-1', 'default/web-1', { oom: true });
    w.advance(2500);
    expect(status(w, 'web-1').cs!.lastState!.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    expect(status(w, 'web-1').restartCount).toBe(1);
  });

  it('an app that exits 2 s after each start crash-loops: restarts at once, then back-off 10 s, 20 s, 40 s, its last words in the previous log', () => {
    const w = world();
    createPod(w, 'web-1');
    w.advance(10_000);
    const starts = () =>
      cri(w)
        .filter((r) => r.verb === 'StartContainer')
        .map((r) => r.t);
    setContainerHealth(w, 'node-1', 'default/web-1', { exits: { afterMs: 2000, exitCode: 1, log: 'config error' } });
    // The attempt running now ends 2 s after the app broke, like every later one after its start.
    w.advance(1900);
    expect(status(w, 'web-1')).toMatchObject({ running: true, restartCount: 0 });
    w.advance(120_000);
    const s = starts();
    // Exit (crash), immediate restart; each later attempt lives 2 s, then waits 10, 20, 40 s.
    const gaps = s.slice(2).map((t, i) => t - s[i + 1]);
    expect(gaps.map((g) => Math.round((g - 2000) / 1000))).toEqual([10, 20, 40].slice(0, gaps.length));
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    const st = status(w, 'web-1');
    expect(st.cs!.lastState!.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    const k = kubeletStateOf(w, 'node-1')!;
    const exited = Object.values(k.runtime.containers).filter((c) => c.state === 'CONTAINER_EXITED');
    expect(exited.at(-1)!.log).toBe('config error\n');
  });

  it('an app that leaks past its memory limit is OOMKilled (137) after each start, and an app made healthy runs on', () => {
    const w = world();
    createPod(w, 'web-1');
    w.advance(10_000);
    setContainerHealth(w, 'node-1', 'default/web-1', { exits: { afterMs: 5000, exitCode: 137, oom: true } });
    w.advance(8000);
    expect(status(w, 'web-1').cs!.lastState!.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    expect(status(w, 'web-1').restartCount).toBe(1);
    w.advance(5000);
    expect(status(w, 'web-1')).toMatchObject({ waiting: 'CrashLoopBackOff', restartCount: 1 });
    // Healthy again while in back-off: the next attempt starts after the back-off and stays up.
    setContainerHealth(w, 'node-1', 'default/web-1', { exits: null });
    w.advance(60_000);
    expect(status(w, 'web-1')).toMatchObject({ running: true, restartCount: 2 });
  });

  it('an app made healthy between its start and its due exit does not exit', () => {
    const w = world();
    createPod(w, 'web-1');
    w.advance(10_000);
    setContainerHealth(w, 'node-1', 'default/web-1', { exits: { afterMs: 5000, exitCode: 1 } });
    w.advance(2000);
    setContainerHealth(w, 'node-1', 'default/web-1', { exits: null });
    w.advance(30_000);
    expect(status(w, 'web-1')).toMatchObject({ running: true, restartCount: 0 });
  });

  it('restartPolicy Never: a crash leaves the pod Failed', () => {
    const w = world();
    createPod(w, 'job-1', {}, { restartPolicy: 'Never' });
    w.advance(10_000);
    crashContainer(w, 'node-1', 'default/job-1', { exitCode: 2 });
    w.advance(2000);
    expect(status(w, 'job-1')).toMatchObject({ phase: 'Failed', restartCount: 0 });
    expect(status(w, 'job-1').cs!.state!.terminated).toMatchObject({ exitCode: 2, reason: 'Error' });
  });

  it('a failing liveness probe restarts the container', () => {
    const w = world();
    createPod(w, 'web-1', { livenessProbe: { httpGet: { path: '/healthz', port: 80 } } });
    w.advance(10_000);
    setContainerHealth(w, 'node-1', 'default/web-1', { liveness: false });
    w.advance(35_000);
    const evs = events(w, 'web-1');
    expect(evs.find((e) => e.reason === 'Unhealthy')!.message).toBe(
      'Liveness probe failed: HTTP probe failed with statuscode: 500',
    );
    expect(evs.find((e) => e.reason === 'Unhealthy')!.count).toBeGreaterThanOrEqual(3);
    expect(evs.find((e) => e.reason === 'Killing')!.message).toBe(
      'Container web failed liveness probe, will be restarted',
    );
    const stop = cri(w).find((r) => r.verb === 'StopContainer')!;
    // three failures 10 s apart after the app turned unhealthy, then the kill
    expect(stop.t).toBeGreaterThan(10_000 + 20_000);
    expect(stop.t).toBeLessThanOrEqual(10_000 + 30_000);
    setContainerHealth(w, 'node-1', 'default/web-1', { liveness: true });
    w.advance(3000);
    expect(status(w, 'web-1')).toMatchObject({ running: true, restartCount: 1 });
  });

  it('a failing readiness probe makes the pod Ready=False while it keeps running', () => {
    const w = world();
    createPod(w, 'web-1', { readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 } });
    w.advance(10_000);
    expect(status(w, 'web-1')).toMatchObject({ ready: 'True' });
    setContainerHealth(w, 'node-1', 'default/web-1', { readiness: false });
    w.advance(20_000);
    const s = status(w, 'web-1');
    expect(s).toMatchObject({ phase: 'Running', ready: 'False', running: true, restartCount: 0 });
    expect(s.pod.status!.conditions!.find((c) => c.type === 'ContainersReady')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [web]',
    });
    expect(podLifecycleOf(kubeletStateOf(w, 'node-1')!, 'default/web-1')!.state).toBe('running.notReady');
    setContainerHealth(w, 'node-1', 'default/web-1', { readiness: true });
    w.advance(6000);
    expect(status(w, 'web-1').ready).toBe('True');
  });

  it('graceful deletion: SIGTERM, exit, sandbox stopped, final DELETE with grace 0 and the uid', () => {
    const w = world();
    createPod(w, 'web-1');
    w.advance(10_000);
    const uid = getPod(w, 'web-1')!.metadata!.uid;
    const t = w.now;
    const api = w.ctx(K).api;
    const deletes: unknown[][] = [];
    const orig = api.delete;
    api.delete = ((...a: Parameters<typeof orig>) => {
      deletes.push(a);
      return orig(...a);
    }) as typeof orig;
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'web-1' });
    w.advance(5000);
    expect(getPod(w, 'web-1')).toBeUndefined();
    expect(deletes).toEqual([['pods', 'default', 'web-1', { gracePeriodSeconds: 0, preconditions: { uid } }]]);
    expect(cri(w, t).map((r) => r.verb)).toEqual(['StopContainer', 'StopPodSandbox', 'RemovePodSandbox']);
    const del = w.state.log.filter((r) => r.component === K && r.verb === 'DELETE');
    expect(del).toHaveLength(1);
    expect(del[0].t - t).toBeLessThan(2000);
    expect(del[0].code).toBe(200);
    const killing = events(w, 'web-1').find((e) => e.reason === 'Killing')!;
    expect(killing.message).toBe('Stopping container web');
    expect(kubeletStateOf(w, 'node-1')!.workers['default/web-1']).toBeUndefined();
    expect(Object.keys(kubeletStateOf(w, 'node-1')!.runtime.ipam.allocated)).toEqual([]);
    expect(getPod(w, 'web-1')).toBeUndefined();
  });

  it('a container that ignores SIGTERM is killed at the end of the grace period', () => {
    const w = world();
    createPod(w, 'web-1', {}, { terminationGracePeriodSeconds: 5 });
    w.advance(10_000);
    setContainerHealth(w, 'node-1', 'default/web-1', { ignoresSigterm: true });
    const t = w.now;
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'web-1' });
    w.advance(4000);
    expect(getPod(w, 'web-1')).toBeDefined();
    w.advance(3000);
    expect(getPod(w, 'web-1')).toBeUndefined();
    const del = w.state.log.find((r) => r.component === K && r.verb === 'DELETE')!;
    expect(del.t - t).toBeGreaterThanOrEqual(5000);
    expect(del.t - t).toBeLessThanOrEqual(6100);
  });

  it('IPs come from the node CIDR; a replacement pod gets a new IP', () => {
    const w = world();
    createPod(w, 'web-1');
    createPod(w, 'web-2');
    w.advance(15_000);
    expect([getPod(w, 'web-1')!.status!.podIP, getPod(w, 'web-2')!.status!.podIP].sort()).toEqual([
      '10.244.1.2',
      '10.244.1.3',
    ]);
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'web-1' });
    w.advance(5000);
    createPod(w, 'web-3');
    w.advance(5000);
    expect(getPod(w, 'web-3')!.status!.podIP).toBe('10.244.1.4');
  });
});

describe('kubelet: more pod cases', () => {
  it('a hostNetwork pod gets the node IP and takes no address from the pod CIDR', () => {
    const w = world();
    createPod(w, 'etcd-node-1', {}, { hostNetwork: true });
    w.advance(10_000);
    expect(getPod(w, 'etcd-node-1')!.status!.podIP).toBe('10.0.0.11');
    expect(kubeletStateOf(w, 'node-1')!.runtime.ipam.allocated).toEqual({});
  });

  it('a crash can name the pod with a separate namespace (as cluster.ts sends it)', () => {
    const w = world();
    createPod(w, 'web-1');
    w.advance(10_000);
    w.inject(K, { type: 'crash', namespace: 'default', pod: 'web-1', oom: true });
    w.advance(3000);
    expect(status(w, 'web-1').cs!.lastState!.terminated!.reason).toBe('OOMKilled');
  });

  it('the lifecycle reader follows the statechart through termination', () => {
    const w = world();
    createPod(w, 'web-1', {}, { terminationGracePeriodSeconds: 3 });
    w.advance(10_000);
    setContainerHealth(w, 'node-1', 'default/web-1', { ignoresSigterm: true });
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'web-1' });
    w.advance(100);
    expect(podLifecycleOf(kubeletStateOf(w, 'node-1')!, 'default/web-1')!.state).toBe('terminating');
    w.advance(10_000);
    expect(podLifecycleOf(kubeletStateOf(w, 'node-1')!, 'default/web-1')).toBeUndefined();
    const stop = cri(w).find((r) => r.verb === 'StopContainer')!;
    const sandboxStop = cri(w).find((r) => r.verb === 'StopPodSandbox')!;
    expect(sandboxStop.t - stop.t).toBeGreaterThanOrEqual(3000);
  });
});

describe('kubelet: faults', () => {
  it('power-off stops everything; power-on re-registers and restarts the pods that still exist', () => {
    const w = world();
    createPod(w, 'web-1');
    createPod(w, 'web-2');
    w.advance(15_000);
    const ip1 = getPod(w, 'web-1')!.status!.podIP;
    powerOff(w, 'node-1');
    w.advance(1);
    const off = w.now;
    // the control plane evicts web-2 meanwhile (it stays Terminating: no kubelet to confirm)
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'web-2' });
    w.advance(120_000);
    expect(w.state.log.filter((r) => r.t > off && (r.component === K || r.component === CONTAINERD))).toEqual([]);
    expect(getPod(w, 'web-2')!.metadata!.deletionTimestamp).toBeDefined();
    const on = w.now;
    powerOn(w, 'node-1');
    w.advance(15_000);
    const reqs = w.state.log.filter(
      (r) => r.t >= on && r.component === K && r.kind === 'request' && !r.path.endsWith('/events'),
    );
    // The node watch at once (the informer starts with the process), the rest once the runtime is up (0.2 s).
    expect(reqs.slice(0, 5).map((r) => `${r.t - on} ${r.verb} ${r.path} ${r.code}`)).toEqual([
      '0 WATCH /api/v1/nodes?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dnode-1&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true 200',
      '200 POST /api/v1/nodes 409',
      '200 GET /api/v1/nodes/node-1 200',
      '200 PATCH /api/v1/nodes/node-1/status?timeout=10s 200',
      '200 GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1?timeout=10s 200',
    ]);
    expect(reqs[5].verb).toBe('PUT');
    expect(getPod(w, 'web-2')).toBeUndefined(); // the evicted pod is just gone
    const s = status(w, 'web-1');
    expect(s).toMatchObject({ phase: 'Running', ready: 'True', restartCount: 1 });
    expect(s.pod.status!.podIP).not.toBe(ip1);
    expect(s.pod.status!.podIP).toMatch(/^10\.244\.1\./);
    expect(cri(w, on).map((r) => r.verb)).toContain('RunPodSandbox');
    expect(cri(w, on).map((r) => r.verb)).not.toContain('PullImage'); // images survived on disk
    const reboot = (Object.values(w.state.store.objects.events ?? {}) as unknown as CoreEvent[]).find(
      (e) => e.reason === 'Rebooted',
    );
    expect(reboot!.message).toMatch(/^Node node-1 has been rebooted, boot id: /);
  });

  it("a partition refuses the kubelet's requests, containers keep running, status catches up on heal", () => {
    const w = world();
    createPod(w, 'web-1');
    w.advance(15_000);
    partitionNode(w, 'node-1');
    const t = w.now;
    crashContainer(w, 'node-1', 'default/web-1');
    w.advance(30_000);
    const reqs = w.state.log.filter((r) => r.t >= t && r.component === K && r.kind === 'request');
    expect(reqs.length).toBeGreaterThan(0);
    expect(reqs.every((r) => r.code === 0 && r.stage === 'connection')).toBe(true);
    // The lease controller: 5 PUTs back to back from the Lease it last wrote, then backoffEnsureLease
    // GETs every 200 ms, 400 ms … up to 7 s until it is answered.
    const leasePuts = reqs.filter((r) => r.verb === 'PUT');
    expect(leasePuts).toHaveLength(5);
    expect(new Set(leasePuts.map((r) => r.t)).size).toBe(1);
    const leaseGets = reqs.filter((r) => r.verb === 'GET' && r.path.includes('/leases/'));
    expect(leaseGets.map((r) => r.t - leasePuts[0].t)).toEqual(
      [0, 200, 600, 1400, 3000, 6200, 12_600, 19_600, 26_600].filter((d) => d <= w.now - leasePuts[0].t),
    );
    // the container was restarted locally, the API does not know yet
    expect(kubeletStateOf(w, 'node-1')!.runtime.containers).toBeDefined();
    expect(status(w, 'web-1').restartCount).toBe(0);
    const running = Object.values(kubeletStateOf(w, 'node-1')!.runtime.containers).filter(
      (c) => c.state === 'CONTAINER_RUNNING',
    );
    expect(running).toHaveLength(1);
    healNode(w, 'node-1');
    const h = w.now;
    w.advance(12_000);
    // the lease and the status get through at once; the pod watch comes back with the reflector's back-off
    expect(w.state.log.some((r) => r.t >= h && r.component === K && r.verb === 'PUT' && r.code === 200)).toBe(true);
    expect(status(w, 'web-1')).toMatchObject({ phase: 'Running', running: true, restartCount: 1 });
    w.advance(30_000);
    expect(w.state.log.some((r) => r.t >= h && r.component === K && r.verb === 'WATCH' && r.code === 200)).toBe(true);
    expect(w.state.log.some((r) => r.t >= h && r.component === K && r.verb === 'PUT' && r.code === 200)).toBe(true);
    expect(status(w, 'web-1')).toMatchObject({ phase: 'Running', running: true, restartCount: 1 });
  });

  it('is deterministic and replays', () => {
    const run = () => {
      const w = world(7);
      createPod(w, 'web-1', { livenessProbe: { tcpSocket: { port: 80 } } });
      imageMissing(w, 'redis:0.0');
      createPod(w, 'db-1', { image: 'redis:0.0' });
      w.advance(12_000);
      crashContainer(w, 'node-1', 'default/web-1');
      w.advance(30_000);
      powerOff(w, 'node-1');
      w.advance(5000);
      powerOn(w, 'node-1');
      w.advance(30_000);
      return w;
    };
    const a = run();
    const b = run();
    expect(a.hash()).toBe(b.hash());
    const r = replay(a.state.inputs, { seed: 7 }, [kubeletDef], a.now);
    expect(r.hash()).toBe(a.hash());
    expect(JSON.parse(JSON.stringify(a.state.components[K].state))).toEqual(a.state.components[K].state);
  });
});
