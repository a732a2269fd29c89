import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDNS1123Subdomain, kubectlErrorMessage, mergePatch, mergePatchIsNoop, registerAdmissionPlugin, registerValidator, resourcePath, setStatusPatchShortcut, type ApiRequest, type Status, type WatchNotification } from './api-server.ts';
import { deepEqual } from './names.ts';
import { formatRecord } from './request-log.ts';
import { deployment, pod, testWorld } from './test-helpers.ts';
import type { ComponentDef } from './world.ts';
import { runs } from '../test/fc.ts';

/** A component that just records what it receives. */
const recorder: ComponentDef<{ events: unknown[] }> = {
  name: 'recorder',
  identity: () => 'kubectl',
  init: () => ({ events: [] }),
  handle(ev, ctx) { ctx.state.events.push(ev); },
};

const notes = (w: ReturnType<typeof testWorld>, name: string) =>
  (w.state.components[name].state as { events: WatchNotification[] }).events
    .filter((e) => e.type === 'watch').map((e) => `${e.eventType} ${e.object.metadata!.name}`);

describe('paths', () => {
  it('builds REST paths per group', () => {
    expect(resourcePath('pods', 'default', 'p', 'binding')).toBe('/api/v1/namespaces/default/pods/p/binding');
    expect(resourcePath('nodes', undefined, 'node-1', 'status')).toBe('/api/v1/nodes/node-1/status');
    expect(resourcePath('leases', 'kube-node-lease', 'node-1')).toBe('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1');
    expect(resourcePath('deployments', 'default', 'web', 'status')).toBe('/apis/apps/v1/namespaces/default/deployments/web/status');
    expect(resourcePath('endpointslices', 'default')).toBe('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices');
  });
});

describe('storage', () => {
  it('create sets uid, creationTimestamp, generation, resourceVersion; AlreadyExists; NotFound', () => {
    const w = testWorld();
    w.advance(12_345);
    const r = w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    expect(r.ok).toBe(true);
    const d = (r as { object: any }).object;
    expect(d.metadata).toMatchObject({ name: 'web', namespace: 'default', generation: 1, creationTimestamp: '2026-01-01T00:00:12Z', resourceVersion: String(w.state.store.revision) });
    expect(d.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    const again = w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    expect(again).toMatchObject({ ok: false, code: 409, status: { reason: 'AlreadyExists', message: 'deployments.apps "web" already exists' } });
    const nf = w.kubectl({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'x' });
    expect(nf).toMatchObject({ code: 404, status: { message: 'deployments.apps "x" not found' } });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'storage', code: 404 });
  });
  it('409 Conflict on stale resourceVersion; generation bumps on spec change only', () => {
    const w = testWorld();
    const d = (w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') }) as any).object;
    const u1 = w.kubectl({ verb: 'update', resource: 'deployments', namespace: 'default', name: 'web', body: { ...d, spec: { ...d.spec, replicas: 5 } } }) as any;
    expect(u1.object.metadata.generation).toBe(2);
    const stale = w.kubectl({ verb: 'update', resource: 'deployments', namespace: 'default', name: 'web', body: { ...d, spec: { ...d.spec, replicas: 6 } } });
    expect(stale).toMatchObject({ code: 409, status: { reason: 'Conflict', message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again' } });
    const st = w.kubectl({ verb: 'update', resource: 'deployments', namespace: 'default', name: 'web', subresource: 'status', body: { ...u1.object, spec: { ...d.spec, replicas: 9 }, status: { replicas: 3 } } }) as any;
    expect(st.object.metadata.generation).toBe(2);
    expect(st.object.spec.replicas).toBe(5); // status subresource ignores spec
    expect(st.object.status.replicas).toBe(3);
    const main = w.kubectl({ verb: 'patch', resource: 'deployments', namespace: 'default', name: 'web', body: { status: { replicas: 0 } } }) as any;
    expect(main.object.status.replicas).toBe(3); // main resource ignores status
  });
  it('scale subresource', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    const s = w.kubectl({ verb: 'patch', resource: 'deployments', namespace: 'default', name: 'web', subresource: 'scale', body: { spec: { replicas: 7 } } }) as any;
    expect(s.object).toMatchObject({ kind: 'Scale', spec: { replicas: 7 }, status: { selector: 'app=web' } });
    const d = w.kubectl({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'web' }) as any;
    expect(d.object.spec.replicas).toBe(7);
    expect(d.object.metadata.generation).toBe(2);
  });
  it('a create stores metadata in the order storePut stamps it (sent resourceVersion dropped, sent uid replaced in place)', () => {
    const w = testWorld();
    const ev = (metadata: object) => ({ apiVersion: 'v1', kind: 'Event', metadata, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'R', message: 'm', type: 'Normal' });
    const a = (w.kubectl({ verb: 'create', resource: 'events', namespace: 'default', body: ev({ name: 'a', namespace: 'default' }) }) as any).object;
    expect(Object.keys(a.metadata)).toEqual(['name', 'namespace', 'uid', 'creationTimestamp', 'resourceVersion']);
    expect(a.metadata.resourceVersion).toBe(String(w.state.store.revision));
    const b = (w.kubectl({ verb: 'create', resource: 'events', body: ev({ resourceVersion: '3', uid: 'mine', name: 'b', labels: { x: 'y' } }) }) as any).object;
    expect(Object.keys(b.metadata)).toEqual(['uid', 'name', 'labels', 'namespace', 'creationTimestamp', 'resourceVersion']);
    expect(b.metadata.uid).not.toBe('mine');
    expect(b.metadata.resourceVersion).toBe(String(w.state.store.revision));
    expect(Object.keys(b)).toEqual(['apiVersion', 'kind', 'metadata', 'involvedObject', 'reason', 'message', 'type']);
    const dry = w.kubectl({ verb: 'create', resource: 'events', namespace: 'default', body: ev({ name: 'c' }), options: { dryRun: true } }) as any;
    expect(Object.keys(dry.object.metadata)).toEqual(['name', 'namespace', 'uid', 'creationTimestamp']);
  });
  it('a create keeps the body\'s keys in order after apiVersion and kind, whatever order the body has them in', () => {
    const w = testWorld();
    let n = 0;
    const fields: Record<string, unknown> = { apiVersion: 'v1', kind: 'Event', reason: 'R', message: 'm', type: 'Normal', count: 1, status: { x: 1 } };
    fc.assert(fc.property(fc.shuffledSubarray(Object.keys(fields)), fc.nat(8), (keys, at) => {
      const body: Record<string, unknown> = {};
      keys.forEach((k, i) => { if (i === at) body.metadata = { name: `e${n++}` }; body[k] = fields[k]; });
      if (!body.metadata) body.metadata = { name: `e${n++}` };
      const r = w.kubectl({ verb: 'create', resource: 'events', namespace: 'default', body }) as any;
      expect(Object.keys(r.object)).toEqual(Object.keys({ apiVersion: 'v1', kind: 'Event', ...body }));
      expect([r.object.apiVersion, r.object.kind]).toEqual(['v1', 'Event']);
    }));
  });
  it('generateName gives a 5-char suffix; seeds give different names', () => {
    const names = [1, 2].map((seed) => {
      const w = testWorld({ seed });
      return (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { generateName: 'web-7c5ddbdf54-' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } }) as any).object.metadata.name;
    });
    expect(names[0]).toMatch(/^web-7c5ddbdf54-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(names[0]).not.toBe(names[1]);
  });
});

describe('pipeline stages', () => {
  it('401 for an unknown identity', () => {
    const w = testWorld();
    const r = w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default' }, 'mallory');
    expect(r).toMatchObject({ code: 401 });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'authentication', code: 401 });
  });
  it('403 with the RBAC message', () => {
    const w = testWorld();
    const r = w.kubectl({ verb: 'delete', resource: 'deployments', namespace: 'default', name: 'web' }, 'scheduler');
    expect(r).toMatchObject({ code: 403, status: { reason: 'Forbidden', message: 'deployments.apps "web" is forbidden: User "system:kube-scheduler" cannot delete resource "deployments" in API group "apps" in the namespace "default"' } });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'authorization' });
    const b = w.kubectl({ verb: 'list', resource: 'nodes' }, 'replicaset-controller');
    expect(b).toMatchObject({ code: 403, status: { message: 'nodes is forbidden: User "system:serviceaccount:kube-system:replicaset-controller" cannot list resource "nodes" in API group "" at the cluster scope' } });
  });
  it('NodeRestriction: a kubelet writes only its own node, lease and pods', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p1', {}, 'node-1') });
    expect(w.kubectl({ verb: 'patch', resource: 'pods', namespace: 'default', name: 'p1', subresource: 'status', body: { status: { phase: 'Running' } } }, 'kubelet/node-1')).toMatchObject({ ok: true });
    expect(w.kubectl({ verb: 'patch', resource: 'pods', namespace: 'default', name: 'p1', subresource: 'status', body: { status: { phase: 'Failed' } } }, 'kubelet/node-2')).toMatchObject({ code: 403 });
    expect(w.kubectl({ verb: 'create', resource: 'nodes', body: { metadata: { name: 'node-2' } } }, 'kubelet/node-2')).toMatchObject({ ok: true });
    expect(w.kubectl({ verb: 'patch', resource: 'nodes', name: 'node-2', subresource: 'status', body: { status: {} } }, 'kubelet/node-1')).toMatchObject({ code: 403 });
    expect(w.kubectl({ verb: 'create', resource: 'leases', namespace: 'kube-node-lease', body: { metadata: { name: 'node-1' }, spec: {} } }, 'kubelet/node-1')).toMatchObject({ ok: true });
    expect(w.kubectl({ verb: 'create', resource: 'leases', namespace: 'kube-node-lease', body: { metadata: { name: 'node-3' }, spec: {} } }, 'kubelet/node-1')).toMatchObject({ code: 403 });
  });
  it('admission: NamespaceLifecycle and registered plugins', () => {
    const w = testWorld();
    const r = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'nope', body: pod('p') });
    expect(r).toMatchObject({ code: 404, status: { message: 'namespaces "nope" not found' } });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'admission' });
    registerAdmissionPlugin({
      name: 'TestLabeler',
      admit: (a) => (a.resource === 'pods' && a.operation === 'CREATE' ? { ...a.object!, metadata: { ...a.object!.metadata, labels: { ...(a.object!.metadata!.labels as object), admitted: 'yes' } } } : undefined),
    });
    const p = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') }) as any;
    expect(p.object.metadata.labels.admitted).toBe('yes');
    w.state.apiServer.disabledAdmission.push('TestLabeler');
  });
  it('validation: 422 with field paths', () => {
    const w = testWorld();
    expect(w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web', -1) })).toMatchObject({
      code: 422, status: { reason: 'Invalid', message: 'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0' },
    });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'validation', code: 422 });
    const zero = deployment('z', 1, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } });
    expect(w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: zero })).toMatchObject({
      status: { message: 'Deployment.apps "z" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0' },
    });
    const bad = deployment('m');
    (bad.spec as any).template.metadata.labels = { app: 'other' };
    expect(w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: bad })).toMatchObject({
      status: { message: 'Deployment.apps "m" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`' },
    });
    expect((w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('Bad_Name') }) as any).status.message).toMatch(/^Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    registerValidator('services', (o) => ((o.metadata as any).labels?.forbidden ? [{ type: 'Forbidden', field: 'metadata.labels', detail: 'no' }] : []));
    expect((w.kubectl({ verb: 'create', resource: 'services', namespace: 'default', body: { metadata: { name: 's', labels: { forbidden: 'x' } }, spec: { ports: [{ port: 80 }] } } }) as any).status.message)
      .toBe('Service "s" is invalid: metadata.labels: Forbidden: no');
  });
  it('defaulting', () => {
    const w = testWorld();
    const d = (w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') }) as any).object;
    expect(d.spec).toMatchObject({ replicas: 3, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } });
    expect(d.spec.template.spec).toMatchObject({ restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' });
    const p = (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { name: 'p' }, spec: { containers: [
      { name: 'a', image: 'nginx' }, { name: 'b', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 } } }, { name: 'c', image: 'reg:5000/x:latest' }, { name: 'd', image: 'x@sha256:abc' }] } } }) as any).object;
    expect(p.spec.containers.map((c: any) => c.imagePullPolicy)).toEqual(['Always', 'IfNotPresent', 'Always', 'IfNotPresent']);
    expect(p.spec.containers[1].readinessProbe).toMatchObject({ timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    const s = (w.kubectl({ verb: 'create', resource: 'services', namespace: 'default', body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } } }) as any).object;
    expect(s.spec.type).toBe('ClusterIP');
    expect(s.spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    expect(s.spec.ports[0]).toEqual({ port: 80, protocol: 'TCP', targetPort: 80 });
    const rs = (w.kubectl({ verb: 'create', resource: 'replicasets', namespace: 'default', body: { metadata: { name: 'r' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } }) as any).object;
    expect(rs.spec.replicas).toBe(1);
  });
});

describe('pods: binding and graceful deletion', () => {
  it('binding sets nodeName and PodScheduled; 409 when already bound', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    const b = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', name: 'p', subresource: 'binding', body: { target: { kind: 'Node', name: 'node-2' } } }, 'scheduler');
    expect(b).toMatchObject({ ok: true, code: 201 });
    expect(formatRecord(w.state.log.at(-1)!)).toBe(`0.000s  scheduler  POST /api/v1/namespaces/default/pods/p/binding  201  rv=${w.state.store.revision}`);
    const p = (w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' }) as any).object;
    expect(p.spec.nodeName).toBe('node-2');
    expect(p.status.conditions).toContainEqual(expect.objectContaining({ type: 'PodScheduled', status: 'True' }));
    const again = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', name: 'p', subresource: 'binding', body: { target: { kind: 'Node', name: 'node-1' } } }, 'scheduler');
    expect(again).toMatchObject({ code: 409, status: { message: 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-2"' } });
  });
  it('graceful deletion keeps the pod until a grace-0 delete', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p', {}, 'node-1') });
    w.advance(1000);
    const d = w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p' }) as any;
    expect(d.object.metadata).toMatchObject({ deletionTimestamp: '2026-01-01T00:00:31Z', deletionGracePeriodSeconds: 30 });
    expect(w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' })).toMatchObject({ ok: true });
    const shorter = w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p', options: { gracePeriodSeconds: 5 } }) as any;
    expect(shorter.object.metadata.deletionGracePeriodSeconds).toBe(5);
    const fin = w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p', options: { gracePeriodSeconds: 0, preconditions: { uid: d.object.metadata.uid } } }, 'kubelet/node-1');
    expect(fin).toMatchObject({ ok: true });
    expect(w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' })).toMatchObject({ code: 404 });
  });
  it('unscheduled pods and other kinds go at once; eviction marks DisruptionTarget', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p' });
    expect(w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' })).toMatchObject({ code: 404 });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('q', {}, 'node-1') });
    const e = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', name: 'q', subresource: 'eviction', body: {} }, 'taint-eviction-controller');
    expect(e).toMatchObject({ code: 403 }); // eviction is its own subresource permission
    const e2 = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', name: 'q', subresource: 'eviction', body: {} }) as any;
    expect(e2.object.status.conditions).toContainEqual(expect.objectContaining({ type: 'DisruptionTarget' }));
    expect(e2.object.metadata.deletionTimestamp).toBeDefined();
  });
});

describe('watches', () => {
  it('resume from any revision delivers every later event in order; 410 after compaction', () => {
    const w = testWorld({}, [recorder]);
    w.addComponent('r', 'recorder');
    const start = w.state.store.revision;
    for (let i = 0; i < 5; i++) w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(`p${i}`) });
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p0' });
    const ctx = w.ctx('r');
    const res = ctx.watch('pods', { resourceVersion: String(start + 2) });
    expect(res.ok).toBe(true);
    w.settle();
    expect(notes(w, 'r')).toEqual(['ADDED p2', 'ADDED p3', 'ADDED p4', 'DELETED p0']);
    w.advance(5 * 60_000); // first tick records the candidate
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('late') });
    w.advance(5 * 60_000); // second tick compacts to the first tick's revision
    const gone = ctx.watch('pods', { resourceVersion: String(start) });
    expect(gone).toMatchObject({ code: 410, status: { reason: 'Expired', message: `too old resource version: ${start} (${start + 6})` } });
  });
  it('selector watches notify only matching watchers; moving out of a selector gives DELETED', () => {
    const w = testWorld({}, [recorder]);
    for (const n of ['a', 'b', 'c']) w.addComponent(n, 'recorder');
    w.ctx('a').watch('pods', { fieldSelector: 'spec.nodeName=node-1', resourceVersion: '1' });
    w.ctx('b').watch('pods', { labelSelector: 'app=web', resourceVersion: '1' });
    w.ctx('c').watch('pods', { fieldSelector: 'spec.nodeName=', resourceVersion: '1' });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x', { app: 'web' }) });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('y', { app: 'db' }) });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', name: 'x', subresource: 'binding', body: { target: { name: 'node-1' } } });
    w.kubectl({ verb: 'patch', resource: 'pods', namespace: 'default', name: 'x', body: { metadata: { labels: { app: 'old' } } } });
    w.settle();
    expect(notes(w, 'a')).toEqual(['ADDED x', 'MODIFIED x']);
    expect(notes(w, 'b')).toEqual(['ADDED x', 'MODIFIED x', 'DELETED x']);
    expect(notes(w, 'c')).toEqual(['ADDED x', 'ADDED y', 'DELETED x']);
    expect(w.state.log.filter((r) => r.kind === 'watch' && r.component === 'b').map((r) => r.event)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
  });
  it('index: a pod on node-7 never touches node-1..6 watchers', () => {
    const w = testWorld({}, [recorder]);
    for (let i = 1; i <= 7; i++) { w.addComponent(`k${i}`, 'recorder'); w.ctx(`k${i}`).watch('pods', { fieldSelector: `spec.nodeName=node-${i}`, resourceVersion: '1' }); }
    expect(Object.keys(w.state.apiServer.watchIndex.pods).sort()).toEqual(['node-1', 'node-2', 'node-3', 'node-4', 'node-5', 'node-6', 'node-7']);
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x', {}, 'node-7') });
    w.settle();
    expect(notes(w, 'k7')).toEqual(['ADDED x']);
    expect(notes(w, 'k1')).toEqual([]);
  });
  it('delivery comes after API latency plus reaction time, in order per watcher', () => {
    const w = testWorld({ apiLatencyMs: 5 }, [recorder]);
    w.addComponent('r', 'recorder', { reactionMs: [10, 20] });
    w.ctx('r').watch('pods', { resourceVersion: String(w.state.store.revision) });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x') });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('y') });
    w.settle();
    const ts = w.state.log.filter((r) => r.kind === 'watch').map((r) => r.t);
    expect(ts[0]).toBeGreaterThanOrEqual(15);
    expect(ts[0]).toBeLessThanOrEqual(25);
    expect(ts[1]).toBeGreaterThanOrEqual(ts[0]);
  });
  it('watch without rv sends synthetic ADDED for current state', () => {
    const w = testWorld({}, [recorder]);
    w.addComponent('r', 'recorder');
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x') });
    w.ctx('r').watch('pods', {});
    w.settle();
    expect(notes(w, 'r')).toEqual(['ADDED x']);
  });
});

describe('faults', () => {
  it('API server down: kubectl message, components refused, watches broken', () => {
    const w = testWorld({}, [recorder]);
    w.addComponent('r', 'recorder');
    w.ctx('r').watch('pods', {});
    w.fault({ type: 'apiserver-down' });
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default' })).toMatchObject({ code: 0, status: { message: 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?' } });
    expect((w.ctx('r').api.list('pods', 'default') as any).status.message).toMatch(/connect: connection refused$/);
    w.settle();
    expect((w.state.components.r.state as any).events.some((e: any) => e.type === 'watch-closed')).toBe(true);
    expect(Object.keys(w.state.apiServer.watchers)).toEqual([]);
    w.fault({ type: 'apiserver-up' });
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default' })).toMatchObject({ ok: true });
  });
  it('etcd down fails requests; etcd full refuses writes but not reads', () => {
    const w = testWorld();
    w.fault({ type: 'etcd-down' });
    expect(w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'x' })).toMatchObject({ code: 500, status: { message: 'etcdserver: request timed out' } });
    w.fault({ type: 'etcd-up' });
    w.fault({ type: 'etcd-full' });
    expect(w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x') })).toMatchObject({ code: 500, status: { message: 'etcdserver: mvcc: database space exceeded' } });
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default' })).toMatchObject({ ok: true });
  });
});

describe('more', () => {
  it('the API server bootstraps the system namespaces', () => {
    const w = testWorld();
    const r = w.kubectl({ verb: 'list', resource: 'namespaces' }) as any;
    expect(r.object.items.map((n: any) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(r.object.items[0].status.phase).toBe('Active');
    expect(r.object.metadata.resourceVersion).toBe(String(w.state.store.revision));
  });
  it('kubectl renders errors like kubectl', () => {
    const w = testWorld();
    const r = w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'nope' }) as { status: Status };
    expect(kubectlErrorMessage(r.status)).toBe('Error from server (NotFound): pods "nope" not found');
  });
  it('watch is also a verb of handleRequest; rv "0" means start from now with current state', () => {
    const w = testWorld({}, [recorder]);
    w.addComponent('r', 'recorder');
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x') });
    w.advance(11 * 60_000); // compacted past everything
    const r = w.ctx('r').api.request({ verb: 'watch', resource: 'pods', namespace: 'default', options: { resourceVersion: '0' } });
    expect(r.ok).toBe(true);
    w.settle();
    expect(notes(w, 'r')).toEqual(['ADDED x']);
    expect(w.state.log.some((l) => l.verb === 'WATCH' && l.path === '/api/v1/namespaces/default/pods?resourceVersion=0&watch=true')).toBe(true);
  });
  it('compaction keeps at least the last 5 minutes of history', () => {
    const w = testWorld();
    const revAt: { t: number; rv: number }[] = [];
    for (let i = 0; i < 40; i++) {
      w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(`p${i}`) });
      revAt.push({ t: w.now, rv: w.state.store.revision });
      w.advance(37_000);
    }
    for (const { t, rv } of revAt) {
      const r = w.ctx('kubectl').watch('pods', { resourceVersion: String(rv) });
      if (w.now - t <= 5 * 60_000) expect(r.ok).toBe(true);
    }
    expect(w.state.store.compactedRevision).toBeGreaterThan(0);
  });
  it('a kubelet cannot write another node by naming itself in the body', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'nodes', body: { metadata: { name: 'node-2' } } });
    expect(w.kubectl({ verb: 'patch', resource: 'nodes', name: 'node-2', body: { metadata: { name: 'node-1', labels: { a: 'b' } } } }, 'kubelet/node-1')).toMatchObject({ code: 403 });
    expect((w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'x' }, 'kubelet/node-1') as { code: number }).code).toBe(404);
  });
  it('pod spec is immutable apart from images, activeDeadlineSeconds and added tolerations', () => {
    const w = testWorld();
    const p = (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') }) as any).object;
    expect(w.kubectl({ verb: 'patch', resource: 'pods', namespace: 'default', name: 'p', body: { spec: { nodeName: 'node-1' } } })).toMatchObject({
      code: 422, status: { message: expect.stringMatching(/^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/) },
    });
    const img = w.kubectl({ verb: 'update', resource: 'pods', namespace: 'default', name: 'p', body: { ...p, spec: { ...p.spec, containers: [{ ...p.spec.containers[0], image: 'nginx:2' }], tolerations: [{ key: 'k', operator: 'Exists' }] } } });
    expect(img).toMatchObject({ ok: true });
  });
  it('Deployment selector is immutable, printed like Go', () => {
    const w = testWorld();
    const d = (w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') }) as any).object;
    const r = w.kubectl({ verb: 'update', resource: 'deployments', namespace: 'default', name: 'web', body: { ...d, spec: { ...d.spec, selector: { matchLabels: { app: 'web2' } }, template: { ...d.spec.template, metadata: { labels: { app: 'web2' } } } } } });
    expect((r as any).status.message).toBe('Deployment.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable');
  });
  it('status on create is the server\'s; QoS class computed', () => {
    const w = testWorld();
    const d = (w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: { ...deployment('web'), status: { replicas: 99 } } }) as any).object;
    expect(d.status).toEqual({});
    const g = (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { name: 'g' }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1', memory: '1Gi' } } }] } } }) as any).object;
    expect(g.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
    const b = (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '100m' } } }] } } }) as any).object;
    expect(b.status.qosClass).toBe('Burstable');
  });
  it('PATCH is a strategic merge by default (conditions merge by type), RFC 7386 on request', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p', {}, 'node-1') });
    const c = (type: string, status: string) => ({ type, status });
    w.kubectl({ verb: 'patch', resource: 'pods', namespace: 'default', name: 'p', subresource: 'status', body: { status: { conditions: [c('Ready', 'False'), c('Initialized', 'True')] } } });
    const r = w.kubectl({ verb: 'patch', resource: 'pods', namespace: 'default', name: 'p', subresource: 'status', body: { status: { conditions: [c('Ready', 'True')] } } }) as any;
    expect(r.object.status.conditions).toEqual([c('Ready', 'True'), c('Initialized', 'True')]);
    const m = w.kubectl({ verb: 'patch', resource: 'pods', namespace: 'default', name: 'p', subresource: 'status', body: { status: { conditions: [c('Ready', 'False')] } }, options: { patchType: 'merge' } }) as any;
    expect(m.object.status.conditions).toEqual([c('Ready', 'False')]);
  });
  it('no-op writes do not bump the revision', () => {
    const w = testWorld();
    const d = (w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') }) as any).object;
    const rev = w.state.store.revision;
    const r = w.kubectl({ verb: 'update', resource: 'deployments', namespace: 'default', name: 'web', body: d }) as any;
    expect(r.code).toBe(200);
    expect(w.state.store.revision).toBe(rev);
  });
});

describe('status patch shortcut', () => {
  // Stored objects, results and log compared with undefined-valued keys visible (JSON would hide them).
  const show = (v: unknown) => JSON.stringify(v, (_k, x) => (x === undefined ? '<undefined>' : x));
  const setup = () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'nodes', body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { phase: 'Running' } } });
    for (const name of ['p0', 'p1', 'p2']) w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(name) });
    // NaN is unequal to itself for deepEqual: a copy of this metadata is a change, the object itself is not.
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: { ...pod('pn'), metadata: { name: 'pn', odd: NaN } } });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', name: 'p1', subresource: 'binding', body: { target: { name: 'n1' } } });
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p1' }); // graceful: deletionTimestamp set
    return w;
  };
  const str = fc.oneof(fc.constantFrom('a', 'b', 'Running', 'Pending'), fc.constant(null));
  const status = fc.oneof(
    fc.constant(null),
    fc.record({
      phase: str, podIP: str,
      conditions: fc.oneof(fc.constant(null), fc.array(fc.record({ type: fc.constantFrom('Ready', 'Initialized'), status: fc.constantFrom('True', 'False') }), { maxLength: 3 })),
      nested: fc.oneof(fc.constant(null), fc.record({ x: str, y: fc.record({ z: str }, { requiredKeys: [] }) }, { requiredKeys: [] })),
    }, { requiredKeys: [] }),
  );
  const patch = fc.record({
    target: fc.constantFrom('p0', 'p1', 'p2', 'pn', 'missing', 'n1'),
    patchType: fc.constantFrom(undefined, 'merge' as const, 'strategic' as const),
    status,
    withStatus: fc.boolean(),
    rv: fc.constantFrom('none', 'current', 'stale'),
    spec: fc.boolean(),
  });
  it('serves every status patch exactly as the general update path does', () => {
    fc.assert(fc.property(fc.array(patch, { minLength: 1, maxLength: 12 }), (cmds) => {
      const a = setup();
      const b = setup();
      for (const c of cmds) {
        const resource = c.target === 'n1' ? 'nodes' : 'pods';
        const req = (w: ReturnType<typeof testWorld>): ApiRequest => {
          const cur = w.state.store.objects[resource]?.[resource === 'nodes' ? '/registry/minions/n1' : `/registry/pods/default/${c.target}`];
          const body: Record<string, unknown> = {};
          if (c.rv !== 'none') body.metadata = { resourceVersion: c.rv === 'stale' ? '1' : cur?.metadata?.resourceVersion };
          if (c.spec) body.spec = { nodeName: 'elsewhere' };
          if (c.withStatus) body.status = c.status;
          return { verb: 'patch', resource, namespace: resource === 'pods' ? 'default' : undefined, name: c.target, subresource: 'status', body, options: c.patchType ? { patchType: c.patchType } : undefined };
        };
        const ra = a.kubectl(req(a));
        setStatusPatchShortcut(false);
        let rb;
        try { rb = b.kubectl(req(b)); } finally { setStatusPatchShortcut(true); }
        expect(show(ra)).toBe(show(rb));
      }
      expect(show(a.state.store)).toBe(show(b.state.store));
      expect(show(a.state.log)).toBe(show(b.state.log));
    }), { numRuns: runs(0.2) });
  });
});

describe('names', () => {
  it('isDNS1123Subdomain accepts exactly what the regular expression accepts', () => {
    const re = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
    for (const s of ['', 'a', 'a-', '-a', 'a.b', 'a..b', '.a', 'a.', 'a-.b', 'a.-b', 'a--b', 'web-1.18b2c', 'Web', 'a_b', '0', '0.0', 'a-b.c-d']) {
      expect(isDNS1123Subdomain(s)).toBe(re.test(s));
    }
    fc.assert(fc.property(fc.stringMatching(/^[a-z0-9.\-A_]{0,12}$/), (s) => { expect(isDNS1123Subdomain(s)).toBe(re.test(s)); }), { numRuns: runs(20) });
    fc.assert(fc.property(fc.string(), (s) => { expect(isDNS1123Subdomain(s)).toBe(re.test(s)); }));
  });
});

describe('mergePatchIsNoop', () => {
  it('is deepEqual(mergePatch(target, patch), target), for any JSON and for patches made from the target', () => {
    const check = (t: unknown, p: unknown) => { expect(mergePatchIsNoop(t, p)).toBe(deepEqual(mergePatch(t, p), t)); };
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), check), { numRuns: runs(3) });
    fc.assert(fc.property(fc.anything(), fc.anything(), check), { numRuns: runs(3) });
    // Patches that mostly repeat the target (the no-op cases): keep, null out, drop or replace each key.
    const derived = (t: unknown, pick: number[]): unknown => {
      if (t === null || typeof t !== 'object' || Array.isArray(t)) return pick.length && pick[0] % 5 === 0 ? 'x' : t;
      const out: Record<string, unknown> = {};
      let i = 0;
      for (const [k, v] of Object.entries(t)) {
        const c = pick[i++ % Math.max(pick.length, 1)] ?? 0;
        if (c % 4 === 0) out[k] = derived(v, pick.slice(1));
        else if (c % 4 === 1) out[k] = null;
        else if (c % 4 === 2) out[k] = v;
      }
      if (pick.length && pick[0] % 7 === 0) out.added = pick[0] % 2 ? undefined : 'new';
      return out;
    };
    fc.assert(fc.property(fc.jsonValue(), fc.array(fc.nat(20), { maxLength: 6 }), (t, pick) => check(t, derived(t, pick))), { numRuns: runs(3) });
    // Keys the target only inherits (Object.prototype's) are absent, as in the merged copy.
    check({ a: 1, toString: 2 }, { toString: null });
    check({ a: 1 }, { constructor: null });
    check({ a: 1 }, { toString: undefined, hasOwnProperty: undefined });
    check({ a: 1 }, { valueOf: 3 });
    check({ a: 1 }, JSON.parse('{"__proto__": {}}'));
    check({ a: undefined }, { a: null, b: undefined });
    check({ a: NaN }, {}); // deepEqual finds NaN unequal to itself
    check({ a: { b: NaN } }, { a: { c: 1 } });
    check({ a: { b: NaN } }, { c: 1 });
  });
});

describe('JSON patch (RFC 6902)', () => {
  const setup = () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    return w;
  };
  const jp = (w: ReturnType<typeof testWorld>, body: unknown, extra: Partial<ApiRequest> = {}) =>
    w.kubectl({ verb: 'patch', resource: 'deployments', namespace: 'default', name: 'web', body, options: { patchType: 'json' }, ...extra }) as any;

  it('applies to the stored object, then takes the update path: generation bumped on a spec change, identity kept', () => {
    const w = setup();
    const r = jp(w, [
      { op: 'test', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/spec/replicas', value: 5 },
      { op: 'add', path: '/metadata/labels', value: { tier: 'front' } },
      { op: 'replace', path: '/metadata/uid', value: 'mine' },
      { op: 'remove', path: '/metadata/creationTimestamp' },
    ]);
    expect(r).toMatchObject({ ok: true, code: 200, object: { spec: { replicas: 5 }, metadata: { generation: 2, labels: { tier: 'front' } } } });
    expect(r.object.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.object.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(w.state.log.at(-1)).toMatchObject({ verb: 'PATCH', path: '/apis/apps/v1/namespaces/default/deployments/web', code: 200, revision: r.revision });
    // A label change alone leaves the generation.
    expect(jp(w, [{ op: 'add', path: '/metadata/labels/x', value: 'y' }]).object.metadata.generation).toBe(2);
  });

  it('a patch that changes nothing (or has no operations) writes nothing and bumps no revision', () => {
    const w = setup();
    const rev = w.state.store.revision;
    expect(jp(w, [{ op: 'test', path: '/spec/replicas', value: 3 }, { op: 'replace', path: '/spec/replicas', value: 3 }])).toMatchObject({ ok: true, code: 200 });
    expect(jp(w, [])).toMatchObject({ ok: true, code: 200 });
    expect(jp(w, null)).toMatchObject({ ok: true, code: 200 });
    expect(w.state.store.revision).toBe(rev);
    expect(w.state.log.at(-1)).not.toHaveProperty('revision');
  });

  it('a resourceVersion left in the patched object is a precondition (409 when stale); a removed one is not', () => {
    const w = setup();
    const rv = (w.kubectl({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'web' }) as any).object.metadata.resourceVersion;
    expect(jp(w, [{ op: 'replace', path: '/metadata/resourceVersion', value: rv }, { op: 'replace', path: '/spec/replicas', value: 4 }])).toMatchObject({ ok: true });
    expect(jp(w, [{ op: 'replace', path: '/metadata/resourceVersion', value: rv }, { op: 'replace', path: '/spec/replicas', value: 6 }])).toMatchObject({
      code: 409, status: { reason: 'Conflict', message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again' },
    });
    expect(w.state.log.at(-1)).toMatchObject({ code: 409, stage: 'storage' });
    // The optimistic lock as a test: fails with 422 on a stale version, before any write.
    expect(jp(w, [{ op: 'test', path: '/metadata/resourceVersion', value: rv }, { op: 'replace', path: '/spec/replicas', value: 6 }])).toMatchObject({ code: 422 });
    expect(jp(w, [{ op: 'remove', path: '/metadata/resourceVersion' }, { op: 'replace', path: '/spec/replicas', value: 6 }])).toMatchObject({ ok: true, object: { spec: { replicas: 6 } } });
  });

  it('an operation that does not apply is a bare 422 Invalid (NewGenericServerResponse); a body that is no list a 400; past 10,000 operations a 413', () => {
    const w = setup();
    const rev = w.state.store.revision;
    const r = jp(w, [{ op: 'replace', path: '/spec/template/spec/containers/1/image', value: 'x' }]);
    expect(r).toEqual({ ok: false, code: 422, status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', code: 422, details: {} } });
    expect(w.state.log.at(-1)).toMatchObject({ verb: 'PATCH', code: 422, stage: 'storage', message: 'the server rejected our request due to an error in our request' });
    expect(jp(w, { op: 'add', path: '/a', value: 1 })).toMatchObject({ code: 400, status: { reason: 'BadRequest', message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp' } });
    const many = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'Deployment' }));
    expect(jp(w, many)).toMatchObject({ code: 413, status: { reason: 'RequestEntityTooLarge', message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001' } });
    expect(jp(w, many.slice(0, 10_000))).toMatchObject({ ok: true, code: 200 });
    expect(w.state.store.revision).toBe(rev);
    // A missing object is a 404 before the patch is read.
    expect(jp(w, 'junk', { name: 'nope' })).toMatchObject({ code: 404, status: { message: 'deployments.apps "nope" not found' } });
  });

  it('goes through admission and validation like any update', () => {
    const w = setup();
    expect(jp(w, [{ op: 'replace', path: '/spec/replicas', value: -1 }])).toMatchObject({ code: 422, status: { message: 'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0' } });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'validation' });
    expect(jp(w, [{ op: 'replace', path: '/spec/selector/matchLabels/app', value: 'other' }])).toMatchObject({ code: 422 });
  });

  it('status subresource: the patch sees the whole object but only the status is kept; the main resource keeps its status', () => {
    const w = setup();
    const st = jp(w, [{ op: 'add', path: '/status/replicas', value: 2 }, { op: 'replace', path: '/spec/replicas', value: 9 }], { subresource: 'status' });
    expect(st).toMatchObject({ ok: true, object: { spec: { replicas: 3 }, status: { replicas: 2 }, metadata: { generation: 1 } } });
    expect(w.state.log.at(-1)).toMatchObject({ path: '/apis/apps/v1/namespaces/default/deployments/web/status', code: 200 });
    const rev = w.state.store.revision;
    expect(jp(w, [{ op: 'replace', path: '/status/replicas', value: 0 }])).toMatchObject({ ok: true, object: { status: { replicas: 2 } } });
    expect(w.state.store.revision).toBe(rev); // a main-resource patch of the status alone is a no-op
    // Through the status shortcut's resource (pods) too.
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    const p = w.kubectl({ verb: 'patch', resource: 'pods', namespace: 'default', name: 'p', subresource: 'status', body: [{ op: 'replace', path: '/status/phase', value: 'Running' }], options: { patchType: 'json' } }) as any;
    expect(p).toMatchObject({ ok: true, object: { status: { phase: 'Running' } } });
    expect(w.kubectl({ verb: 'patch', resource: 'pods', namespace: 'default', name: 'p', subresource: 'status', body: { status: { phase: 'Failed' } }, options: { patchType: 'json' } })).toMatchObject({ code: 400 });
  });

  it('scale subresource: the patch applies to the Scale', () => {
    const w = setup();
    const s = jp(w, [{ op: 'test', path: '/kind', value: 'Scale' }, { op: 'replace', path: '/spec/replicas', value: 7 }], { subresource: 'scale' });
    expect(s).toMatchObject({ ok: true, object: { kind: 'Scale', spec: { replicas: 7 } } });
    expect((w.kubectl({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'web' }) as any).object.spec.replicas).toBe(7);
    expect(jp(w, [{ op: 'replace', path: '/metadata/resourceVersion', value: '1' }, { op: 'replace', path: '/spec/replicas', value: 1 }], { subresource: 'scale' })).toMatchObject({ code: 409 });
  });

  it('any list of operations, on any subresource, ends in an answer the pipeline gives (never a throw), and a refusal writes nothing', () => {
    const path = fc.constantFrom('', '/spec/replicas', '/spec/template/spec/containers/0/image', '/spec/template/spec/containers/-', '/metadata/labels/a~1b',
      '/metadata/resourceVersion', '/metadata/name', '/status/replicas', '/spec/selector/matchLabels/app', '/kind', '/metadata/uid', 'x', '/nope/deeper', '/spec/template/spec/containers/9');
    const op = fc.record({
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
      path, from: path,
      value: fc.oneof(fc.constantFrom(0, 2, -1, 'nginx:1.28', 'web', null, { a: 'b' }, [1]), fc.jsonValue({ maxDepth: 2 })),
    }, { requiredKeys: ['op'] });
    fc.assert(fc.property(fc.array(op, { maxLength: 5 }), fc.constantFrom(undefined, 'status', 'scale'), (ops, subresource) => {
      const w = setup();
      const rev = w.state.store.revision;
      const r = jp(w, ops, { subresource });
      expect([200, 400, 409, 413, 422]).toContain(r.code);
      if (!r.ok) expect(w.state.store.revision).toBe(rev);
    }), { numRuns: runs(0.3) });
  });

  it('the kind and apiVersion stay the stored object\'s', () => {
    const w = setup();
    const r = jp(w, [{ op: 'remove', path: '/kind' }, { op: 'replace', path: '/apiVersion', value: 'v9' }, { op: 'replace', path: '/spec/replicas', value: 1 }]);
    expect(r).toMatchObject({ ok: true, object: { kind: 'Deployment', apiVersion: 'apps/v1', spec: { replicas: 1 } } });
  });

  it('a patched document that is no object is a 422 naming the field "patch"', () => {
    const w = setup();
    const r = jp(w, [{ op: 'replace', path: '', value: [] }]);
    expect(r).toMatchObject({ code: 422, status: { reason: 'Invalid', details: { kind: '', name: '', causes: [{ field: 'patch' }] } } });
  });
});

describe('impersonation and SelfSubjectAccessReviews', () => {
  it('a caller without impersonate on users is refused; an allowed one acts as the user', () => {
    const w = testWorld();
    const as = { impersonate: { user: 'jane' } };
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default', options: as }, 'scheduler')).toMatchObject({
      code: 403, status: { reason: 'Forbidden', message: 'users "jane" is forbidden: User "system:kube-scheduler" cannot impersonate resource "users" in API group "" at the cluster scope' },
    });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'authorization', code: 403 });
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default', options: as })).toMatchObject({ code: 403, status: { message: 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"' } });
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default', options: { impersonate: { user: 'jane', groups: ['system:masters'] } } })).toMatchObject({ ok: true });
  });

  it('a review answers from the RBAC tables, creates nothing and bumps no revision', () => {
    const w = testWorld();
    const rev = w.state.store.revision;
    const review = (spec: unknown, component = 'kubectl') => w.kubectl({ verb: 'create', resource: 'selfsubjectaccessreviews', body: { spec } }, component) as any;
    expect(review({ resourceAttributes: { verb: 'create', resource: 'pods', subresource: 'binding', namespace: 'default' } }, 'scheduler').object.status).toEqual({ allowed: true });
    expect(review({ resourceAttributes: { verb: 'delete', resource: 'nodes' } }, 'scheduler').object.status).toEqual({ allowed: false });
    expect(review({ resourceAttributes: { verb: '*', resource: '*' } }).object.status).toEqual({ allowed: true });
    expect(review({ nonResourceAttributes: { verb: 'get', path: '/metrics' } }, 'scheduler').object.status).toEqual({ allowed: false });
    expect(review({ nonResourceAttributes: { verb: 'get', path: '/version' } }, 'scheduler').object.status).toEqual({ allowed: true });
    expect(w.state.store.revision).toBe(rev);
    expect(w.kubectl({ verb: 'get', resource: 'selfsubjectaccessreviews', name: 'x' })).toMatchObject({ code: 405 });
  });
});
