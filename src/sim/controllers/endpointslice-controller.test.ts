import { describe, expect, it } from 'vitest';
import type { Pod, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { testWorld } from '../testing/world.ts';
import type { World } from '../world.ts';
import { endpointSliceControllerDef, reconcileSlices, MAX_ENDPOINTS_PER_SLICE } from './endpointslice-controller.ts';

// sample-controller style: preload a Service and pods, start the controller, settle, read the
// requests it made and the slices that resulted.

function service(name = 'web', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }], ...extra },
  };
}

function createPod(w: World, name: string, labels: Record<string, string> = { app: 'web' }, node = 'node-1'): void {
  const r = w.kubectl({
    verb: 'create',
    resource: 'pods',
    namespace: 'default',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels },
      spec: {
        nodeName: node,
        containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }],
      },
    },
  });
  expect(r.ok).toBe(true);
}

function setStatus(w: World, name: string, ip: string | undefined, ready: boolean): void {
  const status: Record<string, unknown> = {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
  };
  if (ip) {
    status.podIP = ip;
    status.podIPs = [{ ip }];
  }
  const r = w.kubectl({
    verb: 'patch',
    resource: 'pods',
    namespace: 'default',
    name,
    subresource: 'status',
    body: { status },
  });
  expect(r.ok).toBe(true);
}

/** The slices this controller manages (not the API server's own slice for default/kubernetes). */
function slices(w: World): EndpointSlice[] {
  const r = w.kubectl({
    verb: 'list',
    resource: 'endpointslices',
    namespace: 'default',
    options: { labelSelector: 'endpointslice.kubernetes.io/managed-by=endpointslice-controller.k8s.io' },
  });
  if (!r.ok) throw new Error('list');
  return (r.object as { items: EndpointSlice[] }).items;
}

function writes(w: World): { verb: string; path: string; code: number }[] {
  return w.state.log
    .filter(
      (r) =>
        r.component === 'endpointslice-controller' && r.kind === 'request' && r.verb !== 'GET' && r.verb !== 'WATCH',
    )
    .map((r) => ({ verb: r.verb, path: r.path, code: r.code }));
}

function world(): World {
  const w = testWorld({ seed: 1 }, [endpointSliceControllerDef]);
  w.kubectl({ verb: 'create', resource: 'services', namespace: 'default', body: service() });
  return w;
}

function start(w: World): void {
  w.addComponent('endpointslice-controller', 'endpointslice-controller');
  w.settle(5_000);
}

describe('endpointslice-controller', () => {
  it('creates one slice with a ready endpoint per pod that has an IP', () => {
    const w = world();
    createPod(w, 'web-1');
    createPod(w, 'web-2', { app: 'web' }, 'node-2');
    createPod(w, 'web-3'); // no IP yet: skipped
    createPod(w, 'db-1', { app: 'db' });
    setStatus(w, 'web-1', '10.244.1.5', true);
    setStatus(w, 'web-2', '10.244.2.7', true);
    setStatus(w, 'db-1', '10.244.1.9', true);
    start(w);
    expect(writes(w)).toEqual([
      { verb: 'POST', path: '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', code: 201 },
    ]);
    const [sl] = slices(w);
    expect(sl.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(sl.metadata?.generateName).toBe('web-');
    expect(sl.metadata?.labels).toEqual({
      app: 'web',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(sl.metadata?.ownerReferences?.[0]).toMatchObject({
      apiVersion: 'v1',
      kind: 'Service',
      name: 'web',
      controller: true,
      blockOwnerDeletion: true,
    });
    expect(sl.addressType).toBe('IPv4');
    expect(sl.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
    expect(sl.endpoints.map((e) => e.addresses[0])).toEqual(['10.244.1.5', '10.244.2.7']);
    expect(sl.endpoints[0]).toMatchObject({
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: 'node-1',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'web-1' },
    });
    expect(sl.endpoints[0].targetRef?.uid).toBeTruthy();
  });

  it('follows a pod becoming Ready, not Ready, then terminating', () => {
    const w = world();
    createPod(w, 'web-1');
    setStatus(w, 'web-1', '10.244.1.5', false);
    start(w);
    const cond = () => slices(w)[0].endpoints[0].conditions;
    expect(cond()).toEqual({ ready: false, serving: false, terminating: false });
    setStatus(w, 'web-1', '10.244.1.5', true);
    w.settle(5_000);
    expect(cond()).toEqual({ ready: true, serving: true, terminating: false });
    setStatus(w, 'web-1', '10.244.1.5', false);
    w.settle(5_000);
    expect(cond()).toEqual({ ready: false, serving: false, terminating: false });
    setStatus(w, 'web-1', '10.244.1.5', true);
    w.settle(5_000);
    // Graceful deletion: still serving, no longer ready.
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'web-1' });
    w.settle(5_000);
    expect(cond()).toEqual({ ready: false, serving: true, terminating: true });
    w.kubectl({
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: 'web-1',
      options: { gracePeriodSeconds: 0 },
    });
    w.settle(5_000);
    expect(slices(w)).toHaveLength(1);
    expect(slices(w)[0].endpoints).toEqual([]);
    // One create, then an update per change; never a write without a change.
    const verbs = writes(w).map((r) => r.verb);
    expect(verbs[0]).toBe('POST');
    expect(verbs.slice(1).every((v) => v === 'PUT')).toBe(true);
    expect(verbs).toHaveLength(6);
  });

  it('keeps a placeholder slice with no endpoints for a Service without pods', () => {
    const w = world();
    start(w);
    const all = slices(w);
    expect(all).toHaveLength(1);
    expect(all[0].endpoints).toEqual([]);
    expect(all[0].ports).toEqual([]);
    w.advance(60_000);
    expect(writes(w)).toHaveLength(1);
  });

  it('turns the placeholder into the real slice when a pod appears', () => {
    const w = world();
    start(w);
    const name = slices(w)[0].metadata?.name;
    createPod(w, 'web-1');
    setStatus(w, 'web-1', '10.244.1.5', true);
    w.settle(5_000);
    expect(slices(w)).toHaveLength(1);
    expect(slices(w)[0].metadata?.name).toBe(name);
    expect(slices(w)[0].endpoints).toHaveLength(1);
    expect(writes(w).map((r) => r.verb)).toEqual(['POST', 'PUT']);
  });

  it('ignores a Service without a selector and writes nothing when nothing changed', () => {
    const w = world();
    w.kubectl({
      verb: 'create',
      resource: 'services',
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { ports: [{ port: 443 }] } },
    });
    createPod(w, 'web-1');
    setStatus(w, 'web-1', '10.244.1.5', true);
    start(w);
    expect(slices(w).map((s) => s.metadata?.labels?.['kubernetes.io/service-name'])).toEqual(['web']);
    const n = writes(w).length;
    // A status change that does not touch the endpoint (another condition).
    w.kubectl({
      verb: 'patch',
      resource: 'pods',
      namespace: 'default',
      name: 'web-1',
      subresource: 'status',
      body: { status: { conditions: [{ type: 'PodScheduled', status: 'True' }] } },
    });
    w.settle(5_000);
    expect(writes(w)).toHaveLength(n);
  });

  it("watches every slice, as kube-controller-manager's shared informer does, and leaves another manager's slice alone", () => {
    const w = world();
    createPod(w, 'web-1');
    setStatus(w, 'web-1', '10.244.1.5', true);
    start(w);
    const watch = w.state.log.find(
      (r) =>
        r.kind === 'request' && r.verb === 'WATCH' && r.path.startsWith('/apis/discovery.k8s.io/v1/endpointslices'),
    );
    expect(watch?.path).not.toContain('labelSelector');
    const n = writes(w).length;
    // A slice for the same Service that another manager (say, a mirroring controller) owns: not ours to reconcile.
    const foreign = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'web-other',
        namespace: 'default',
        labels: { 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'someone-else' },
      },
      addressType: 'IPv4',
      endpoints: [],
    };
    expect(w.kubectl({ verb: 'create', resource: 'endpointslices', namespace: 'default', body: foreign }).ok).toBe(
      true,
    );
    w.settle(5_000);
    expect(writes(w)).toHaveLength(n);
    expect(w.kubectl({ verb: 'get', resource: 'endpointslices', namespace: 'default', name: 'web-other' }).ok).toBe(
      true,
    );
    // Ours, taken over by another manager: the controller hears of it (ManagedByChanged) and makes its own again.
    const mine = slices(w)[0];
    expect(
      w.kubectl({
        verb: 'patch',
        resource: 'endpointslices',
        namespace: 'default',
        name: mine.metadata!.name!,
        body: { metadata: { labels: { 'endpointslice.kubernetes.io/managed-by': 'someone-else' } } },
      }).ok,
    ).toBe(true);
    w.settle(5_000);
    expect(writes(w).length).toBeGreaterThan(n);
    expect(slices(w)).toHaveLength(1);
  });

  it('splits more than 100 endpoints over several slices', () => {
    const w = world();
    for (let i = 0; i < 230; i++) {
      createPod(w, `web-${String(i).padStart(3, '0')}`);
      setStatus(w, `web-${String(i).padStart(3, '0')}`, `10.244.${Math.floor(i / 200)}.${(i % 200) + 2}`, true);
    }
    start(w);
    const sizes = slices(w)
      .map((s) => s.endpoints.length)
      .sort((a, b) => b - a);
    expect(sizes).toEqual([100, 100, 30]);
    expect(writes(w).filter((r) => r.verb === 'POST')).toHaveLength(3);
  });

  it('leaves the slices of a deleted Service to the garbage collector (they name the Service as owner)', () => {
    const w = world();
    start(w);
    const before = slices(w);
    expect(before[0].metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Service', name: 'web', controller: true, blockOwnerDeletion: true }),
    ]);
    w.kubectl({ verb: 'delete', resource: 'services', namespace: 'default', name: 'web' });
    w.settle(5_000);
    expect(slices(w).map((x) => x.metadata?.name)).toEqual(before.map((x) => x.metadata?.name));
    expect(writes(w).some((r) => r.verb === 'DELETE')).toBe(false);
  });
});

describe('reconcileSlices', () => {
  const svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default', uid: 'u1' },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] },
  } as Service;
  const pod = (name: string, ip: string, port = 8080): Pod => ({
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'web' } },
    spec: {
      nodeName: 'node-1',
      containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: port }] }],
    },
    status: { podIP: ip, conditions: [{ type: 'Ready', status: 'True' }] },
  });

  it('resolves named target ports per pod and groups pods by port set', () => {
    const plan = reconcileSlices(svc, [pod('a', '10.0.0.1'), pod('b', '10.0.0.2', 9090)], []);
    expect(plan.create.map((s) => [s.ports, s.endpoints.length])).toEqual([
      [[{ name: 'http', port: 8080, protocol: 'TCP' }], 1],
      [[{ name: 'http', port: 9090, protocol: 'TCP' }], 1],
    ]);
  });

  it('keeps the maximum per slice', () => {
    const pods = Array.from({ length: MAX_ENDPOINTS_PER_SLICE + 1 }, (_, i) => pod(`p${i}`, `10.0.1.${i}`));
    expect(reconcileSlices(svc, pods, []).create.map((s) => s.endpoints.length)).toEqual([100, 1]);
  });
});
