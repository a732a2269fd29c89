// The serviceaccount controller and the root-CA publisher (kubectl's chunk): started by a namespace's
// create, they give it its `default` ServiceAccount and kube-root-ca.crt, and put back what is deleted
// or changed; a terminating namespace gets nothing (its create is refused and not retried).
import type { ConfigMap } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { installKubectlExtras } from '../kubectl-extras.ts';
import { createCluster } from '../cluster.ts';
import { ROOT_CA_CONFIG_MAP } from '../world.ts';
import { ROOT_CA_CERT_PUBLISHER, SERVICE_ACCOUNT_CONTROLLER } from './names.ts';
import { settled } from './serviceaccounts-controller.ts';

function cluster() {
  const c = createCluster({ seed: 1 });
  installKubectlExtras(c);
  return c;
}
const get = (c: ReturnType<typeof cluster>, resource: string, name: string, namespace = 'team-a') =>
  c.request({ verb: 'get', resource, namespace, name });
const writes = (c: ReturnType<typeof cluster>, component: string) =>
  c.log.filter((r) => r.kind === 'request' && r.component === component).map((r) => `${r.verb} ${r.path} ${r.code}`);

describe('the serviceaccount controller and the root-CA publisher', () => {
  it("start at a namespace's create and give it its default ServiceAccount and kube-root-ca.crt", () => {
    const c = cluster();
    expect(c.world.state.components[SERVICE_ACCOUNT_CONTROLLER]).toBeUndefined();
    c.request({
      verb: 'create',
      resource: 'namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
    });
    c.settle();
    expect(get(c, 'serviceaccounts', 'default').ok).toBe(true);
    const cm = get(c, 'configmaps', 'kube-root-ca.crt');
    expect(cm.ok && (cm.object as ConfigMap).data).toEqual(ROOT_CA_CONFIG_MAP.data);
    expect(cm.ok && (cm.object as ConfigMap).metadata?.annotations).toEqual(ROOT_CA_CONFIG_MAP.metadata.annotations);
    // Only the new namespace needed anything: the bootstrap made the system namespaces' own.
    expect(writes(c, SERVICE_ACCOUNT_CONTROLLER)).toEqual(['POST /api/v1/namespaces/team-a/serviceaccounts 201']);
    expect(writes(c, ROOT_CA_CERT_PUBLISHER)).toEqual(['POST /api/v1/namespaces/team-a/configmaps 201']);
  });

  it('make again what is deleted, and put back a changed kube-root-ca.crt', () => {
    const c = cluster();
    c.request({ verb: 'delete', resource: 'configmaps', namespace: 'kube-public', name: 'kube-root-ca.crt' });
    c.request({ verb: 'delete', resource: 'serviceaccounts', namespace: 'default', name: 'default' });
    c.settle();
    expect(get(c, 'configmaps', 'kube-root-ca.crt', 'kube-public').ok).toBe(true);
    expect(get(c, 'serviceaccounts', 'default', 'default').ok).toBe(true);
    const cm = (get(c, 'configmaps', 'kube-root-ca.crt', 'default') as { object: ConfigMap }).object;
    c.request({
      verb: 'update',
      resource: 'configmaps',
      namespace: 'default',
      name: 'kube-root-ca.crt',
      body: { ...cm, data: { 'ca.crt': 'mine' }, metadata: { ...cm.metadata, annotations: {} } },
    });
    c.settle();
    const back = (get(c, 'configmaps', 'kube-root-ca.crt', 'default') as { object: ConfigMap }).object;
    expect(back.data).toEqual(ROOT_CA_CONFIG_MAP.data);
    expect(back.metadata?.annotations).toEqual(ROOT_CA_CONFIG_MAP.metadata.annotations);
    expect(writes(c, ROOT_CA_CERT_PUBLISHER)).toEqual([
      'POST /api/v1/namespaces/kube-public/configmaps 201',
      'PUT /api/v1/namespaces/default/configmaps/kube-root-ca.crt 200',
    ]);
  });

  it('leave a terminating namespace alone: a refused create is not retried', () => {
    const c = cluster();
    c.request({
      verb: 'create',
      resource: 'namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
    });
    c.settle();
    c.request({ verb: 'delete', resource: 'namespaces', name: 'team-a' });
    c.settle();
    expect(get(c, 'namespaces', 'team-a', undefined).code).toBe(404);
    // The namespace controller deleted both; the publisher's one create after that was refused (403, NamespaceTerminating) or found the namespace gone.
    const after = writes(c, ROOT_CA_CERT_PUBLISHER).slice(1);
    expect(after.length).toBeLessThanOrEqual(1);
    expect(after.every((w) => / (403|404)$/.test(w))).toBe(true);
    expect(
      settled({
        ok: false,
        code: 403,
        status: {
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: '',
          reason: 'Forbidden',
          code: 403,
          details: { causes: [{ reason: 'NamespaceTerminating', message: '', field: '' }] },
        },
      }),
    ).toBe(true);
    expect(
      settled({
        ok: false,
        code: 500,
        status: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: '', reason: '', code: 500 },
      }),
    ).toBe(false);
  });

  it('are not run by a cluster kubectl has not touched', () => {
    const c = createCluster({ seed: 1 });
    c.request({
      verb: 'create',
      resource: 'namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
    });
    c.settle();
    expect(get(c, 'serviceaccounts', 'default').code).toBe(404);
  });
});
