// Each cluster's API server is its own: what one registers (admission plugins, validators,
// identities) and the kubelets it reaches are never another's, even on the same page.
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster.ts';
import { admissionPluginNames, registerAdmissionPlugin } from './admission.ts';
import { registerIdentity } from './authn.ts';
import { R } from '../api/identity.ts';
import { newApiServerConfig } from './options.ts';
import { installKubectlExtras } from '../kubectl-extras.ts';
import { registerValidator } from './validation.ts';

const pod = (name: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
});

function runningPod(c: Cluster): string {
  expect(
    c.request({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
          },
        },
      },
    }).ok,
  ).toBe(true);
  c.settle();
  return Object.keys(c.world.state.store.objects.pods ?? {})
    .map((k) => k.split('/').pop()!)
    .find((n) => n.startsWith('web-'))!;
}

describe('one API server per cluster', () => {
  it('a fresh configuration has only the built-in plugins, and each is a new one', () => {
    const a = newApiServerConfig();
    const b = newApiServerConfig();
    expect(admissionPluginNames(a)).toEqual(['NamespaceLifecycle', 'ServiceAccount', 'Priority']);
    registerAdmissionPlugin(a, { name: 'Extra', admit: () => undefined });
    expect(admissionPluginNames(b)).toEqual(['NamespaceLifecycle', 'ServiceAccount', 'Priority']);
    expect(a.identities).not.toBe(b.identities);
  });

  it('two clusters with different registrations do not see each other’s', () => {
    const a = createCluster({ seed: 1 });
    const b = createCluster({ seed: 1 });
    registerAdmissionPlugin(a.world.apiConfig, {
      name: 'Labeler',
      admit: (x) =>
        x.resource === 'pods' && x.operation === 'CREATE'
          ? { ...x.object!, metadata: { ...x.object!.metadata, labels: { admitted: 'yes' } } }
          : undefined,
    });
    registerValidator(a.world.apiConfig, 'services', (o) =>
      (o.metadata?.labels as Record<string, string> | undefined)?.forbidden
        ? [{ type: 'Forbidden', field: 'metadata.labels', detail: 'no' }]
        : [],
    );
    registerIdentity(a.world.apiConfig, 'robot', { user: 'robot', rules: [R(['get', 'list'], ['pods'])] });

    expect(admissionPluginNames(a.world.apiConfig)).toEqual([
      'NamespaceLifecycle',
      'ServiceAccount',
      'Priority',
      'DefaultTolerationSeconds',
      'Labeler',
    ]);
    expect(admissionPluginNames(b.world.apiConfig)).toEqual([
      'NamespaceLifecycle',
      'ServiceAccount',
      'Priority',
      'DefaultTolerationSeconds',
    ]);

    const pa = a.request({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    const pb = b.request({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    expect(pa.ok && (pa.object as Pod).metadata?.labels).toEqual({ admitted: 'yes' });
    expect(pb.ok && (pb.object as Pod).metadata?.labels).toBeUndefined();

    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', labels: { forbidden: 'x' } },
      spec: { ports: [{ port: 80 }] },
    };
    expect(a.request({ verb: 'create', resource: 'services', namespace: 'default', body: svc })).toMatchObject({
      code: 422,
    });
    expect(b.request({ verb: 'create', resource: 'services', namespace: 'default', body: svc })).toMatchObject({
      code: 201,
    });

    const asRobot = { verb: 'list', resource: 'pods', namespace: 'default' } as const;
    expect(a.world.kubectl(asRobot, 'robot')).toMatchObject({ code: 200 });
    expect(b.world.kubectl(asRobot, 'robot')).toMatchObject({ code: 401 });
    // Impersonating the user finds its bound rules in that cluster's table only.
    const impersonated = { ...asRobot, options: { impersonate: { user: 'robot' } } };
    expect(a.request(impersonated)).toMatchObject({ code: 200 });
    expect(b.request(impersonated)).toMatchObject({ code: 403 });
  });

  it('each API server reaches its own cluster’s kubelets', () => {
    const a = createCluster({ seed: 4 });
    const b = createCluster({ seed: 4 });
    // pods/log is kubectl's request, served by its part of the API server.
    installKubectlExtras(a);
    installKubectlExtras(b);
    const name = runningPod(a);
    expect(runningPod(b)).toBe(name);
    expect(a.crash('default', name, { log: 'from a' })).toBe(true);
    expect(b.crash('default', name, { log: 'from b' })).toBe(true);
    a.advance(3_000);
    b.advance(3_000);
    const logs = {
      verb: 'get',
      resource: 'pods',
      namespace: 'default',
      name,
      subresource: 'log',
      options: { previous: true },
    } as const;
    expect(a.request(logs)).toMatchObject({ code: 200, object: 'from a\n' });
    expect(b.request(logs)).toMatchObject({ code: 200, object: 'from b\n' });
    // A bare configuration reaches no kubelet at all.
    expect(newApiServerConfig().kubelets).toBeUndefined();
  });
});

describe("kubectl's part of the API server (a lazy chunk's)", () => {
  const review = {
    verb: 'create',
    resource: 'selfsubjectaccessreviews',
    body: { spec: { resourceAttributes: { verb: 'list', resource: 'pods' } } },
  } as const;
  const jsonPatch = {
    verb: 'patch',
    resource: 'namespaces',
    name: 'default',
    body: [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }],
    options: { patchType: 'json' },
  } as const;
  const dryRun = {
    verb: 'create',
    resource: 'pods',
    namespace: 'default',
    body: pod('p'),
    options: { dryRun: true },
  } as const;
  const log = { verb: 'get', resource: 'pods', namespace: 'default', name: 'p', subresource: 'log' } as const;

  it('a cluster kubectl has not reached refuses kubectl-only requests loudly, and serves everything else', () => {
    const c = createCluster({ seed: 1, nodes: 1 });
    for (const req of [review, jsonPatch, dryRun, log])
      expect(() => c.request(req)).toThrow(/kubectl's part of the API server/);
    // A dry-run read is a read: it needs nothing of kubectl's.
    expect(c.request({ verb: 'get', resource: 'namespaces', name: 'default', options: { dryRun: true } }).ok).toBe(
      true,
    );
  });

  it('once installed (kubectl does it before its first request) on one cluster, that cluster serves them and another does not', () => {
    const a = createCluster({ seed: 1, nodes: 1 });
    const b = createCluster({ seed: 1, nodes: 1 });
    installKubectlExtras(a);
    expect(a.request(review)).toMatchObject({ ok: true, code: 201 });
    expect(a.request(jsonPatch)).toMatchObject({ ok: true, code: 200 });
    expect(a.request(dryRun)).toMatchObject({ ok: true, code: 201 });
    expect(a.request(log)).toMatchObject({ ok: false, code: 404 });
    expect(() => b.request(review)).toThrow(/kubectl's part/);
  });
});
