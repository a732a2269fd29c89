// What the API server adds to every pod it stores: the ServiceAccount and Priority admission
// plugins, pod defaulting, and metadata.generation (PodObservedGenerationTracking), as a real
// 1.37 API server returns them (oracle/traces).
import { describe, expect, it } from 'vitest';
import { pod, testWorld } from '../testing/world.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';

/** A pod as the API server answers it, with the fields these tests read filled in. */
interface TestPod {
  metadata: ObjectMeta;
  spec: Required<Omit<PodSpec, 'containers'>> & { containers: Required<Container>[] };
}

const create = (w: ReturnType<typeof testWorld>, body: Record<string, unknown>) =>
  w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body });
const withSpec = (body: Record<string, unknown>, extra: Unstructured) => ({
  ...body,
  spec: { ...(body.spec as Unstructured), ...extra },
});

describe('what the API server adds to a pod', () => {
  it('serviceAccountName and serviceAccount default, priority 0, PreemptLowerPriority, enableServiceLinks, resources: {}, generation 1', () => {
    const w = testWorld();
    const r = create(w, pod('p'));
    expect(r.ok).toBe(true);
    const p = (r as { object: TestPod }).object;
    expect(p.metadata.generation).toBe(1);
    expect(p.spec).toMatchObject({
      serviceAccountName: 'default',
      serviceAccount: 'default',
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      enableServiceLinks: true,
    });
    expect(p.spec.containers[0].resources).toEqual({});
  });

  it('keeps what the client set: its own account, enableServiceLinks false, a system PriorityClass', () => {
    const w = testWorld();
    expect(
      w.kubectl({
        verb: 'create',
        resource: 'serviceaccounts',
        namespace: 'default',
        body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'default' } },
      }).ok,
    ).toBe(true);
    const p = (
      create(
        w,
        withSpec(pod('p'), {
          serviceAccountName: 'robot',
          enableServiceLinks: false,
          priorityClassName: 'system-node-critical',
        }),
      ) as { object: TestPod }
    ).object;
    expect(p.spec).toMatchObject({
      serviceAccountName: 'robot',
      serviceAccount: 'robot',
      enableServiceLinks: false,
      priority: 2000001000,
      preemptionPolicy: 'PreemptLowerPriority',
    });
    // The bootstrapped class was defaulted to PreemptLowerPriority: a pod may not say otherwise.
    const q = create(w, withSpec(pod('q'), { priorityClassName: 'system-node-critical', preemptionPolicy: 'Never' }));
    expect(!q.ok && q.status.message).toBe(
      'pods "q" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    );
  });

  it("refuses a pod whose account does not exist, lets a missing default through, and reads the account's automountServiceAccountToken", () => {
    const w = testWorld();
    const ghost = create(w, withSpec(pod('g'), { serviceAccountName: 'ghost' }));
    expect(!ghost.ok && ghost.code).toBe(403);
    expect(!ghost.ok && ghost.status.message).toBe(
      'pods "g" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found',
    );
    // No ServiceAccount objects in this world at all: `default` is let through and gets its token volume.
    const d = (create(w, pod('d')) as { object: TestPod }).object;
    expect(d.spec.volumes.map((v) => v.name)).toEqual([expect.stringMatching(/^kube-api-access-[a-z0-9]{5}$/)]);
    expect(
      w.kubectl({
        verb: 'create',
        resource: 'serviceaccounts',
        namespace: 'default',
        body: {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: 'quiet', namespace: 'default' },
          automountServiceAccountToken: false,
        },
      }).ok,
    ).toBe(true);
    const q = (create(w, withSpec(pod('q'), { serviceAccountName: 'quiet' })) as { object: TestPod }).object;
    expect(q.spec.volumes ?? []).toEqual([]);
    // The pod's own preference wins over its account's.
    const r = (
      create(w, withSpec(pod('r'), { serviceAccountName: 'quiet', automountServiceAccountToken: true })) as {
        object: TestPod;
      }
    ).object;
    expect(r.spec.volumes).toHaveLength(1);
  });

  it('resolves a stored PriorityClass, and the globalDefault one for a pod that names none', () => {
    const w = testWorld();
    const pc = (body: Unstructured) =>
      w.kubectl({
        verb: 'create',
        resource: 'priorityclasses',
        body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', ...body },
      });
    expect(pc({ metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'Never' }).ok).toBe(true);
    const a = (create(w, withSpec(pod('a'), { priorityClassName: 'high' })) as { object: TestPod }).object;
    expect(a.spec).toMatchObject({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
    expect(pc({ metadata: { name: 'low' }, value: 10, globalDefault: true }).ok).toBe(true);
    expect(pc({ metadata: { name: 'lower' }, value: 5, globalDefault: true })).toMatchObject({
      ok: false,
      code: 403,
      status: {
        message:
          'priorityclasses.scheduling.k8s.io "lower" is forbidden: PriorityClass low is already marked as default. Only one default can exist',
      },
    });
    const b = (create(w, pod('b')) as { object: TestPod }).object;
    expect(b.spec).toMatchObject({ priorityClassName: 'low', priority: 10, preemptionPolicy: 'PreemptLowerPriority' });
  });

  it('validates PriorityClasses as ValidatePriorityClass does, and keeps the system ones', () => {
    const w = testWorld();
    const pc = (body: Unstructured) =>
      w.kubectl({
        verb: 'create',
        resource: 'priorityclasses',
        body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', ...body },
      });
    expect(pc({ metadata: { name: 'huge' }, value: 1000000001 })).toMatchObject({
      ok: false,
      code: 422,
      status: {
        message:
          'PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
      },
    });
    expect(pc({ metadata: { name: 'system-mine' }, value: 1 })).toMatchObject({
      ok: false,
      status: {
        message:
          'PriorityClass.scheduling.k8s.io "system-mine" is invalid: metadata.name: Forbidden: priority class names with \'system-\' prefix are reserved for system use only. error: system-mine is not a known system priority class',
      },
    });
    const list = w.kubectl({ verb: 'list', resource: 'priorityclasses' });
    expect(
      list.ok &&
        (list.object as { items: PriorityClass[] }).items.map((i) => [i.metadata?.name, i.value, i.preemptionPolicy]),
    ).toEqual([
      ['system-cluster-critical', 2000000000, 'PreemptLowerPriority'],
      ['system-node-critical', 2000001000, 'PreemptLowerPriority'],
    ]);
    expect(w.kubectl({ verb: 'delete', resource: 'priorityclasses', name: 'system-node-critical' })).toMatchObject({
      ok: false,
      code: 403,
      status: {
        message:
          'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
      },
    });
    expect(pc({ metadata: { name: 'mid' }, value: 50 }).ok).toBe(true);
    const upd = w.kubectl({ verb: 'patch', resource: 'priorityclasses', name: 'mid', body: { value: 51 } });
    expect(!upd.ok && upd.status.message).toBe(
      'PriorityClass.scheduling.k8s.io "mid" is invalid: value: Forbidden: may not be changed in an update.',
    );
  });

  it('refuses an unknown PriorityClass and a priority that disagrees with the class (403)', () => {
    const w = testWorld();
    const a = create(w, withSpec(pod('a'), { priorityClassName: 'gold' }));
    expect(a.ok).toBe(false);
    expect(!a.ok && a.status.message).toBe('pods "a" is forbidden: no PriorityClass with name gold was found');
    const b = create(w, withSpec(pod('b'), { priority: 7 }));
    expect(!b.ok && b.code).toBe(403);
    expect(!b.ok && b.status.message).toBe(
      'pods "b" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
  });

  it('mounts the projected token volume kube-api-access-xxxxx in every container, read-only, as ServiceAccount admission does', () => {
    const w = testWorld();
    const body = withSpec(pod('p'), { initContainers: [{ name: 'init', image: 'busybox' }] });
    const p = (create(w, body) as { object: TestPod }).object;
    const [vol] = p.spec.volumes;
    expect(vol.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(vol.projected).toEqual({
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 420,
    });
    const mount = { name: vol.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    expect(p.spec.containers[0].volumeMounts).toEqual([mount]);
    expect(p.spec.initContainers[0].volumeMounts).toEqual([mount]);
  });

  it('no token volume with automountServiceAccountToken false, nor a mount where a container mounts the path itself', () => {
    const w = testWorld();
    const off = (create(w, withSpec(pod('off'), { automountServiceAccountToken: false })) as { object: TestPod })
      .object;
    expect(off.spec.volumes).toBeUndefined();
    const own = { name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    const body = withSpec(pod('own'), {
      containers: [{ name: 'app', image: 'nginx', volumeMounts: [own] }],
      volumes: [{ name: 'mine', emptyDir: {} }],
    });
    const p = (create(w, body) as { object: TestPod }).object;
    expect(p.spec.containers[0].volumeMounts).toEqual([own]);
    expect(p.spec.volumes).toEqual([{ name: 'mine', emptyDir: {} }]);
  });

  it('the volume names come from a stream of their own: generated pod names are the same with or without them', () => {
    const names = (automount: boolean) => {
      const w = testWorld();
      return [1, 2, 3].map(
        () =>
          (
            create(w, {
              ...withSpec(pod('x'), { automountServiceAccountToken: automount }),
              metadata: { generateName: 'web-' },
            }) as { object: TestPod }
          ).object.metadata.name,
      );
    };
    expect(names(true)).toEqual(names(false));
  });

  it('a mirror pod gets no service account', () => {
    const w = testWorld();
    const body = { ...pod('m'), metadata: { name: 'm', annotations: { 'kubernetes.io/config.mirror': 'm' } } };
    const p = (create(w, body) as { object: TestPod }).object;
    expect(p.spec.serviceAccountName).toBeUndefined();
    expect(p.spec.priority).toBe(0);
  });

  it('generation: +1 on a spec change, not on a status write; +1 when graceful deletion starts', () => {
    const w = testWorld();
    const p = (create(w, pod('p', { app: 'web' }, 'node-1')) as { object: TestPod }).object;
    const u = (
      w.kubectl({
        verb: 'update',
        resource: 'pods',
        namespace: 'default',
        name: 'p',
        body: { ...p, spec: { ...p.spec, activeDeadlineSeconds: 60 } },
      }) as { object: TestPod }
    ).object;
    expect(u.metadata.generation).toBe(2);
    const s = (
      w.kubectl({
        verb: 'patch',
        resource: 'pods',
        namespace: 'default',
        name: 'p',
        subresource: 'status',
        body: { status: { phase: 'Running' } },
      }) as { object: TestPod }
    ).object;
    expect(s.metadata.generation).toBe(2);
    const d = (w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p' }) as { object: TestPod })
      .object;
    expect(d.metadata.deletionTimestamp).toBeDefined();
    expect(d.metadata.generation).toBe(3);
  });

  it('an update that leaves priority out keeps the stored one', () => {
    const w = testWorld();
    const p = (create(w, pod('p')) as { object: TestPod }).object;
    const { priority: _p, preemptionPolicy: _pp, ...spec } = p.spec;
    const u = (
      w.kubectl({ verb: 'update', resource: 'pods', namespace: 'default', name: 'p', body: { ...p, spec } }) as {
        object: TestPod;
      }
    ).object;
    expect(u.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
  });
});

describe('EndpointSlice generation', () => {
  it('starts at 1 and rises with endpoints or labels, not with annotations', () => {
    const w = testWorld();
    const put = (body: { metadata: ObjectMeta; [k: string]: unknown }) =>
      (
        w.kubectl({
          verb: body.metadata.resourceVersion ? 'update' : 'create',
          resource: 'endpointslices',
          namespace: 'default',
          name: body.metadata.name,
          body,
        }) as { object: TestPod }
      ).object;
    const e1 = put({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 's', labels: { a: '1' } },
      addressType: 'IPv4',
      endpoints: [],
    });
    expect(e1.metadata.generation).toBe(1);
    const e2 = put({ ...e1, metadata: { ...e1.metadata, annotations: { x: 'y' } } });
    expect(e2.metadata.generation).toBe(1);
    const e3 = put({ ...e2, endpoints: [{ addresses: ['10.0.0.1'] }] });
    expect(e3.metadata.generation).toBe(2);
    const e4 = put({ ...e3, metadata: { ...e3.metadata, labels: { a: '2' } } });
    expect(e4.metadata.generation).toBe(3);
  });
});
