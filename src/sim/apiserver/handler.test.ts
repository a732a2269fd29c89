import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerAdmissionPlugin } from './admission.ts';
import { resourcePath } from '../api/resources.ts';
import { kubectlErrorMessage, type Status } from '../api/status.ts';
import { registerValidator } from './validation.ts';
import { formatRecord } from '../view/format-record.ts';
import { deployment, notes, pod, recorder, testWorld } from '../testing/world.ts';

describe('paths', () => {
  it('builds REST paths per group', () => {
    expect(resourcePath('pods', 'default', 'p', 'binding')).toBe('/api/v1/namespaces/default/pods/p/binding');
    expect(resourcePath('nodes', undefined, 'node-1', 'status')).toBe('/api/v1/nodes/node-1/status');
    expect(resourcePath('leases', 'kube-node-lease', 'node-1')).toBe(
      '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1',
    );
    expect(resourcePath('deployments', 'default', 'web', 'status')).toBe(
      '/apis/apps/v1/namespaces/default/deployments/web/status',
    );
    expect(resourcePath('endpointslices', 'default')).toBe(
      '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices',
    );
  });
});

describe('storage', () => {
  it('create sets uid, creationTimestamp, generation, resourceVersion; AlreadyExists; NotFound', () => {
    const w = testWorld();
    w.advance(12_345);
    const r = w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    expect(r.ok).toBe(true);
    const d = (r as { object: any }).object;
    expect(d.metadata).toMatchObject({
      name: 'web',
      namespace: 'default',
      generation: 1,
      creationTimestamp: '2026-01-01T00:00:12Z',
      resourceVersion: String(w.state.store.revision),
    });
    expect(d.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    const again = w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    expect(again).toMatchObject({
      ok: false,
      code: 409,
      status: { reason: 'AlreadyExists', message: 'deployments.apps "web" already exists' },
    });
    const nf = w.kubectl({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'x' });
    expect(nf).toMatchObject({ code: 404, status: { message: 'deployments.apps "x" not found' } });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'storage', code: 404 });
  });
  it('409 Conflict on stale resourceVersion; generation bumps on spec change only', () => {
    const w = testWorld();
    const d = (
      w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') }) as any
    ).object;
    const u1 = w.kubectl({
      verb: 'update',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { ...d, spec: { ...d.spec, replicas: 5 } },
    }) as any;
    expect(u1.object.metadata.generation).toBe(2);
    const stale = w.kubectl({
      verb: 'update',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { ...d, spec: { ...d.spec, replicas: 6 } },
    });
    expect(stale).toMatchObject({
      code: 409,
      status: {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      },
    });
    const st = w.kubectl({
      verb: 'update',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      subresource: 'status',
      body: { ...u1.object, spec: { ...d.spec, replicas: 9 }, status: { replicas: 3 } },
    }) as any;
    expect(st.object.metadata.generation).toBe(2);
    expect(st.object.spec.replicas).toBe(5); // status subresource ignores spec
    expect(st.object.status.replicas).toBe(3);
    const main = w.kubectl({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { status: { replicas: 0 } },
    }) as any;
    expect(main.object.status.replicas).toBe(3); // main resource ignores status
  });
  it('scale subresource', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    const s = w.kubectl({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      subresource: 'scale',
      body: { spec: { replicas: 7 } },
    }) as any;
    expect(s.object).toMatchObject({ kind: 'Scale', spec: { replicas: 7 }, status: { selector: 'app=web' } });
    const d = w.kubectl({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'web' }) as any;
    expect(d.object.spec.replicas).toBe(7);
    expect(d.object.metadata.generation).toBe(2);
  });
  it('a create stores metadata in the order storePut stamps it (sent resourceVersion dropped, sent uid replaced in place)', () => {
    const w = testWorld();
    const ev = (metadata: object) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata,
      involvedObject: { kind: 'Pod', name: 'p' },
      reason: 'R',
      message: 'm',
      type: 'Normal',
    });
    const a = (
      w.kubectl({
        verb: 'create',
        resource: 'events',
        namespace: 'default',
        body: ev({ name: 'a', namespace: 'default' }),
      }) as any
    ).object;
    expect(Object.keys(a.metadata)).toEqual(['name', 'namespace', 'uid', 'creationTimestamp', 'resourceVersion']);
    expect(a.metadata.resourceVersion).toBe(String(w.state.store.revision));
    // ("0" is the one resourceVersion etcd3's Create lets through, and PrepareObjectForStorage clears it.)
    const b = (
      w.kubectl({
        verb: 'create',
        resource: 'events',
        body: ev({ resourceVersion: '0', uid: 'mine', name: 'b', labels: { x: 'y' } }),
      }) as any
    ).object;
    expect(Object.keys(b.metadata)).toEqual([
      'uid',
      'name',
      'labels',
      'namespace',
      'creationTimestamp',
      'resourceVersion',
    ]);
    expect(b.metadata.uid).not.toBe('mine');
    expect(b.metadata.resourceVersion).toBe(String(w.state.store.revision));
    expect(Object.keys(b)).toEqual(['apiVersion', 'kind', 'metadata', 'involvedObject', 'reason', 'message', 'type']);
    const dry = w.kubectl({
      verb: 'create',
      resource: 'events',
      namespace: 'default',
      body: ev({ name: 'c' }),
      options: { dryRun: true },
    }) as any;
    expect(Object.keys(dry.object.metadata)).toEqual(['name', 'namespace', 'uid', 'creationTimestamp']);
  });
  it('a create with a resourceVersion (a non-zero number) is refused by storage: 500, no Status reason; a dry run is not', () => {
    const w = testWorld();
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'a', resourceVersion: '3' },
      involvedObject: { kind: 'Pod', name: 'p' },
      reason: 'R',
      message: 'm',
      type: 'Normal',
    };
    const r = w.kubectl({ verb: 'create', resource: 'events', namespace: 'default', body });
    expect(r.ok ? undefined : r.status).toMatchObject({
      code: 500,
      reason: '',
      message: 'resourceVersion should not be set on objects to be created',
    });
    expect(w.kubectl({ verb: 'get', resource: 'events', namespace: 'default', name: 'a' }).code).toBe(404);
    expect(
      w.kubectl({ verb: 'create', resource: 'events', namespace: 'default', body, options: { dryRun: true } }).code,
    ).toBe(201);
    expect(
      w.kubectl({
        verb: 'create',
        resource: 'events',
        namespace: 'default',
        body: { ...body, metadata: { name: 'a', resourceVersion: 'x' } },
      }).code,
    ).toBe(201);
  });
  it("a create keeps the body's keys in order after apiVersion and kind, whatever order the body has them in", () => {
    const w = testWorld();
    let n = 0;
    const fields: Record<string, unknown> = {
      apiVersion: 'v1',
      kind: 'Event',
      reason: 'R',
      message: 'm',
      type: 'Normal',
      count: 1,
      status: { x: 1 },
    };
    fc.assert(
      fc.property(fc.shuffledSubarray(Object.keys(fields)), fc.nat(8), (keys, at) => {
        const body: Record<string, unknown> = {};
        keys.forEach((k, i) => {
          if (i === at) body.metadata = { name: `e${n++}` };
          body[k] = fields[k];
        });
        if (!body.metadata) body.metadata = { name: `e${n++}` };
        const r = w.kubectl({ verb: 'create', resource: 'events', namespace: 'default', body }) as any;
        expect(Object.keys(r.object)).toEqual(Object.keys({ apiVersion: 'v1', kind: 'Event', ...body }));
        expect([r.object.apiVersion, r.object.kind]).toEqual(['v1', 'Event']);
      }),
    );
  });
  it('generateName gives a 5-char suffix; seeds give different names', () => {
    const names = [1, 2].map((seed) => {
      const w = testWorld({ seed });
      return (
        w.kubectl({
          verb: 'create',
          resource: 'pods',
          namespace: 'default',
          body: {
            metadata: { generateName: 'web-7c5ddbdf54-' },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        }) as any
      ).object.metadata.name;
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
    expect(r).toMatchObject({
      code: 403,
      status: {
        reason: 'Forbidden',
        message:
          'deployments.apps "web" is forbidden: User "system:kube-scheduler" cannot delete resource "deployments" in API group "apps" in the namespace "default"',
      },
    });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'authorization' });
    const b = w.kubectl({ verb: 'list', resource: 'nodes' }, 'replicaset-controller');
    expect(b).toMatchObject({
      code: 403,
      status: {
        message:
          'nodes is forbidden: User "system:serviceaccount:kube-system:replicaset-controller" cannot list resource "nodes" in API group "" at the cluster scope',
      },
    });
  });
  it('NodeRestriction: a kubelet writes only its own node, lease and pods', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p1', {}, 'node-1') });
    expect(
      w.kubectl(
        {
          verb: 'patch',
          resource: 'pods',
          namespace: 'default',
          name: 'p1',
          subresource: 'status',
          body: { status: { phase: 'Running' } },
        },
        'kubelet/node-1',
      ),
    ).toMatchObject({ ok: true });
    expect(
      w.kubectl(
        {
          verb: 'patch',
          resource: 'pods',
          namespace: 'default',
          name: 'p1',
          subresource: 'status',
          body: { status: { phase: 'Failed' } },
        },
        'kubelet/node-2',
      ),
    ).toMatchObject({ code: 403 });
    expect(
      w.kubectl({ verb: 'create', resource: 'nodes', body: { metadata: { name: 'node-2' } } }, 'kubelet/node-2'),
    ).toMatchObject({ ok: true });
    expect(
      w.kubectl(
        { verb: 'patch', resource: 'nodes', name: 'node-2', subresource: 'status', body: { status: {} } },
        'kubelet/node-1',
      ),
    ).toMatchObject({ code: 403 });
    expect(
      w.kubectl(
        {
          verb: 'create',
          resource: 'leases',
          namespace: 'kube-node-lease',
          body: { metadata: { name: 'node-1' }, spec: {} },
        },
        'kubelet/node-1',
      ),
    ).toMatchObject({ ok: true });
    expect(
      w.kubectl(
        {
          verb: 'create',
          resource: 'leases',
          namespace: 'kube-node-lease',
          body: { metadata: { name: 'node-3' }, spec: {} },
        },
        'kubelet/node-1',
      ),
    ).toMatchObject({ code: 403 });
  });
  it('admission: NamespaceLifecycle and registered plugins', () => {
    const w = testWorld();
    const r = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'nope', body: pod('p') });
    expect(r).toMatchObject({ code: 404, status: { message: 'namespaces "nope" not found' } });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'admission' });
    registerAdmissionPlugin(w.apiConfig, {
      name: 'TestLabeler',
      admit: (a) =>
        a.resource === 'pods' && a.operation === 'CREATE'
          ? {
              ...a.object!,
              metadata: {
                ...a.object!.metadata,
                labels: { ...(a.object!.metadata!.labels as object), admitted: 'yes' },
              },
            }
          : undefined,
    });
    const p = w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') }) as any;
    expect(p.object.metadata.labels.admitted).toBe('yes');
    w.state.apiServer.disabledAdmission.push('TestLabeler');
  });
  it('validation: 422 with field paths', () => {
    const w = testWorld();
    expect(
      w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web', -1) }),
    ).toMatchObject({
      code: 422,
      status: {
        reason: 'Invalid',
        message:
          'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      },
    });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'validation', code: 422 });
    const zero = deployment('z', 1, {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
    });
    expect(w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: zero })).toMatchObject({
      status: {
        message:
          'Deployment.apps "z" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
      },
    });
    const bad = deployment('m');
    (bad.spec as any).template.metadata.labels = { app: 'other' };
    expect(w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: bad })).toMatchObject({
      status: {
        message:
          'Deployment.apps "m" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`',
      },
    });
    expect(
      (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('Bad_Name') }) as any).status
        .message,
    ).toMatch(/^Pod "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    registerValidator(w.apiConfig, 'services', (o) =>
      (o.metadata as any).labels?.forbidden ? [{ type: 'Forbidden', field: 'metadata.labels', detail: 'no' }] : [],
    );
    expect(
      (
        w.kubectl({
          verb: 'create',
          resource: 'services',
          namespace: 'default',
          body: { metadata: { name: 's', labels: { forbidden: 'x' } }, spec: { ports: [{ port: 80 }] } },
        }) as any
      ).status.message,
    ).toBe('Service "s" is invalid: metadata.labels: Forbidden: no');
  });
  it('defaulting', () => {
    const w = testWorld();
    const d = (
      w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') }) as any
    ).object;
    expect(d.spec).toMatchObject({
      replicas: 3,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    });
    expect(d.spec.template.spec).toMatchObject({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
    });
    const p = (
      w.kubectl({
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        body: {
          metadata: { name: 'p' },
          spec: {
            containers: [
              { name: 'a', image: 'nginx' },
              { name: 'b', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 } } },
              { name: 'c', image: 'reg:5000/x:latest' },
              { name: 'd', image: 'x@sha256:abc' },
            ],
          },
        },
      }) as any
    ).object;
    expect(p.spec.containers.map((c: any) => c.imagePullPolicy)).toEqual([
      'Always',
      'IfNotPresent',
      'Always',
      'IfNotPresent',
    ]);
    expect(p.spec.containers[1].readinessProbe).toMatchObject({
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    const s = (
      w.kubectl({
        verb: 'create',
        resource: 'services',
        namespace: 'default',
        body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
      }) as any
    ).object;
    expect(s.spec.type).toBe('ClusterIP');
    expect(s.spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    expect(s.spec.ports[0]).toEqual({ port: 80, protocol: 'TCP', targetPort: 80 });
    const rs = (
      w.kubectl({
        verb: 'create',
        resource: 'replicasets',
        namespace: 'default',
        body: {
          metadata: { name: 'r' },
          spec: {
            selector: { matchLabels: { a: 'b' } },
            template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
          },
        },
      }) as any
    ).object;
    expect(rs.spec.replicas).toBe(1);
  });
  it('a Service refused, already existing or only dry-run holds no ClusterIP or NodePort', () => {
    const w = testWorld();
    const held = () => [
      Object.keys(w.state.apiServer.allocatedIPs).length,
      Object.keys(w.state.apiServer.allocatedNodePorts ?? {}).length,
    ];
    const svc = (name: string, extra: Record<string, unknown> = {}) => ({
      metadata: { name },
      spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }], ...extra },
    });
    const before = held();
    expect(
      w.kubectl({
        verb: 'create',
        resource: 'services',
        namespace: 'default',
        body: svc('bad', { sessionAffinity: 'Sometimes' }),
      }),
    ).toMatchObject({ code: 422 });
    expect(
      w.kubectl({
        verb: 'create',
        resource: 'services',
        namespace: 'default',
        body: svc('dry'),
        options: { dryRun: true },
      }),
    ).toMatchObject({ code: 201 });
    expect(held()).toEqual(before);
    expect(w.kubectl({ verb: 'create', resource: 'services', namespace: 'default', body: svc('web') })).toMatchObject({
      code: 201,
    });
    const once = held();
    expect(once).toEqual([before[0] + 1, before[1] + 1]);
    expect(w.kubectl({ verb: 'create', resource: 'services', namespace: 'default', body: svc('web') })).toMatchObject({
      code: 409,
    });
    expect(held()).toEqual(once);
  });
});

describe('pods: binding and graceful deletion', () => {
  it('binding sets nodeName and PodScheduled; 409 when already bound', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    const b = w.kubectl(
      {
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        name: 'p',
        subresource: 'binding',
        body: { target: { kind: 'Node', name: 'node-2' } },
      },
      'scheduler',
    );
    expect(b).toMatchObject({ ok: true, code: 201 });
    expect(formatRecord(w.state.log.at(-1)!)).toBe(
      `0.000s  scheduler  POST /api/v1/namespaces/default/pods/p/binding  201  rv=${w.state.store.revision}`,
    );
    const p = (w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' }) as any).object;
    expect(p.spec.nodeName).toBe('node-2');
    expect(p.status.conditions).toContainEqual(expect.objectContaining({ type: 'PodScheduled', status: 'True' }));
    const again = w.kubectl(
      {
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        name: 'p',
        subresource: 'binding',
        body: { target: { kind: 'Node', name: 'node-1' } },
      },
      'scheduler',
    );
    expect(again).toMatchObject({
      code: 409,
      status: {
        message: 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-2"',
      },
    });
  });
  it('graceful deletion keeps the pod until a grace-0 delete', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p', {}, 'node-1') });
    w.advance(1000);
    const d = w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p' }) as any;
    expect(d.object.metadata).toMatchObject({
      deletionTimestamp: '2026-01-01T00:00:31Z',
      deletionGracePeriodSeconds: 30,
    });
    expect(w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' })).toMatchObject({ ok: true });
    const shorter = w.kubectl({
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      options: { gracePeriodSeconds: 5 },
    }) as any;
    expect(shorter.object.metadata.deletionGracePeriodSeconds).toBe(5);
    const fin = w.kubectl(
      {
        verb: 'delete',
        resource: 'pods',
        namespace: 'default',
        name: 'p',
        options: { gracePeriodSeconds: 0, preconditions: { uid: d.object.metadata.uid } },
      },
      'kubelet/node-1',
    );
    expect(fin).toMatchObject({ ok: true });
    expect(w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' })).toMatchObject({ code: 404 });
  });
  it('unscheduled pods and other kinds go at once; eviction marks DisruptionTarget', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p' });
    expect(w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' })).toMatchObject({ code: 404 });
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('q', {}, 'node-1') });
    const e = w.kubectl(
      { verb: 'create', resource: 'pods', namespace: 'default', name: 'q', subresource: 'eviction', body: {} },
      'node-lifecycle-controller',
    );
    expect(e).toMatchObject({ code: 403 }); // eviction is its own subresource permission
    const e2 = w.kubectl({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      name: 'q',
      subresource: 'eviction',
      body: {},
    }) as any;
    expect(e2.object.status.conditions).toContainEqual(expect.objectContaining({ type: 'DisruptionTarget' }));
    expect(e2.object.metadata.deletionTimestamp).toBeDefined();
  });
});

describe('faults', () => {
  it('API server down: kubectl message, components refused, watches broken', () => {
    const w = testWorld({}, [recorder]);
    w.addComponent('r', 'recorder');
    w.ctx('r').watch('pods', {});
    w.fault({ type: 'apiserver-down' });
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default' })).toMatchObject({
      code: 0,
      status: {
        message: 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?',
      },
    });
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
    expect(w.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: 'x' })).toMatchObject({
      code: 500,
      status: { message: 'etcdserver: request timed out' },
    });
    w.fault({ type: 'etcd-up' });
    w.fault({ type: 'etcd-full' });
    expect(w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('x') })).toMatchObject({
      code: 500,
      status: { message: 'etcdserver: mvcc: database space exceeded' },
    });
    expect(w.kubectl({ verb: 'list', resource: 'pods', namespace: 'default' })).toMatchObject({ ok: true });
  });
});

describe('more', () => {
  it('the API server bootstraps the system namespaces', () => {
    const w = testWorld();
    const r = w.kubectl({ verb: 'list', resource: 'namespaces' }) as any;
    expect(r.object.items.map((n: any) => n.metadata.name)).toEqual([
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ]);
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
    const r = w
      .ctx('r')
      .api.request({ verb: 'watch', resource: 'pods', namespace: 'default', options: { resourceVersion: '0' } });
    expect(r.ok).toBe(true);
    w.settle();
    expect(notes(w, 'r')).toEqual(['ADDED x']);
    expect(
      w.state.log.some(
        (l) => l.verb === 'WATCH' && l.path === '/api/v1/namespaces/default/pods?resourceVersion=0&watch=true',
      ),
    ).toBe(true);
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
    expect(
      w.kubectl(
        {
          verb: 'patch',
          resource: 'nodes',
          name: 'node-2',
          body: { metadata: { name: 'node-1', labels: { a: 'b' } } },
        },
        'kubelet/node-1',
      ),
    ).toMatchObject({ code: 403 });
    expect(
      (
        w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'x' }, 'kubelet/node-1') as {
          code: number;
        }
      ).code,
    ).toBe(404);
  });
  it('pod spec is immutable apart from images, activeDeadlineSeconds and added tolerations', () => {
    const w = testWorld();
    const p = (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') }) as any).object;
    expect(
      w.kubectl({
        verb: 'patch',
        resource: 'pods',
        namespace: 'default',
        name: 'p',
        body: { spec: { nodeName: 'node-1' } },
      }),
    ).toMatchObject({
      code: 422,
      status: {
        message: expect.stringMatching(
          /^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/,
        ),
      },
    });
    const img = w.kubectl({
      verb: 'update',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      body: {
        ...p,
        spec: {
          ...p.spec,
          containers: [{ ...p.spec.containers[0], image: 'nginx:2' }],
          tolerations: [{ key: 'k', operator: 'Exists' }],
        },
      },
    });
    expect(img).toMatchObject({ ok: true });
  });
  it('Deployment selector is immutable, printed like Go', () => {
    const w = testWorld();
    const d = (
      w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') }) as any
    ).object;
    const r = w.kubectl({
      verb: 'update',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: {
        ...d,
        spec: {
          ...d.spec,
          selector: { matchLabels: { app: 'web2' } },
          template: { ...d.spec.template, metadata: { labels: { app: 'web2' } } },
        },
      },
    });
    expect((r as any).status.message).toBe(
      'Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable',
    );
  });
  it("status on create is the server's; QoS class computed", () => {
    const w = testWorld();
    const d = (
      w.kubectl({
        verb: 'create',
        resource: 'deployments',
        namespace: 'default',
        body: { ...deployment('web'), status: { replicas: 99 } },
      }) as any
    ).object;
    expect(d.status).toEqual({});
    const g = (
      w.kubectl({
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        body: {
          metadata: { name: 'g' },
          spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1', memory: '1Gi' } } }] },
        },
      }) as any
    ).object;
    expect(g.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
    const b = (
      w.kubectl({
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        body: {
          metadata: { name: 'b' },
          spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '100m' } } }] },
        },
      }) as any
    ).object;
    expect(b.status.qosClass).toBe('Burstable');
  });
  it('PATCH is a strategic merge by default (conditions merge by type), RFC 7386 on request', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p', {}, 'node-1') });
    const c = (type: string, status: string) => ({ type, status });
    w.kubectl({
      verb: 'patch',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      subresource: 'status',
      body: { status: { conditions: [c('Ready', 'False'), c('Initialized', 'True')] } },
    });
    const r = w.kubectl({
      verb: 'patch',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      subresource: 'status',
      body: { status: { conditions: [c('Ready', 'True')] } },
    }) as any;
    expect(r.object.status.conditions).toEqual([c('Ready', 'True'), c('Initialized', 'True')]);
    const m = w.kubectl({
      verb: 'patch',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      subresource: 'status',
      body: { status: { conditions: [c('Ready', 'False')] } },
      options: { patchType: 'merge' },
    }) as any;
    expect(m.object.status.conditions).toEqual([c('Ready', 'False')]);
  });
  it('no-op writes do not bump the revision', () => {
    const w = testWorld();
    const d = (
      w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') }) as any
    ).object;
    const rev = w.state.store.revision;
    const r = w.kubectl({ verb: 'update', resource: 'deployments', namespace: 'default', name: 'web', body: d }) as any;
    expect(r.code).toBe(200);
    expect(w.state.store.revision).toBe(rev);
  });
});
