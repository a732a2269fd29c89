import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { createCluster, type Cluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { setVerifyUnchangedStatus } from '../kubelet/pod-worker.ts';

setVerifyUnchangedStatus(true);

function objects<T>(c: Cluster, resource: string): T[] {
  return Object.values(c.world.state.store.objects[resource] ?? {}) as T[];
}

function webCluster(replicas = 2): Cluster {
  const c = createCluster({ seed: 3 });
  runKubectl(c, `create deployment web --image=nginx:1.27 --replicas=${replicas}`);
  c.settle();
  expect(objects<Pod>(c, 'pods')).toHaveLength(replicas);
  return c;
}

/** The collector's requests after log index `from`, as `VERB path code`. */
function gcRequests(c: Cluster, from: number): string[] {
  return c.log
    .slice(from)
    .filter((r) => r.kind === 'request' && r.component === 'garbage-collector')
    .map((r) => `${r.verb} ${r.path} ${r.code}`);
}

describe('the garbage collector', () => {
  it('background (kubectl’s default): the ReplicaSet goes, then its pods, each owner known absent from its deletion (no live GET of it)', () => {
    const c = webCluster(2);
    const rs = objects<ReplicaSet>(c, 'replicasets')[0].metadata!.name!;
    const from = c.log.length;
    const out = runKubectl(c, 'delete deployment web');
    expect(out.stdout).toBe('deployment.apps "web" deleted from default namespace\n');
    c.advance(40_000);
    expect(objects(c, 'deployments')).toEqual([]);
    expect(objects(c, 'replicasets')).toEqual([]);
    expect(objects(c, 'pods')).toEqual([]);
    const reqs = gcRequests(c, from);
    // processGraphChanges saw the Deployment deleted with a dependent: it is in the absent-owner
    // cache, so the ReplicaSet's check GETs only the ReplicaSet itself.
    expect(reqs.slice(0, 2)).toEqual([
      `GET /apis/apps/v1/namespaces/default/replicasets/${rs} 200`,
      `DELETE /apis/apps/v1/namespaces/default/replicasets/${rs} 200`,
    ]);
    // Each pod: a GET of it and a DELETE; the ReplicaSet, deleted with dependents, is known absent.
    expect(reqs.filter((r) => r.startsWith('DELETE /api/v1/namespaces/default/pods/'))).toHaveLength(2);
    expect(reqs.filter((r) => r.includes(' 404'))).toEqual([]);
    // The pods were deleted gracefully and the kubelets confirmed it.
    expect(
      c.log.some(
        (r) =>
          r.kind === 'request' &&
          r.verb === 'DELETE' &&
          r.component.startsWith('kubelet/') &&
          r.path.includes('/pods/'),
      ),
    ).toBe(true);
  });

  it('orphan: the ReplicaSet and pods stay, without the owner reference; the Deployment goes once the finalizer is removed', () => {
    const c = webCluster(2);
    const from = c.log.length;
    runKubectl(c, 'delete deployment web --cascade=orphan');
    c.advance(20_000);
    expect(objects(c, 'deployments')).toEqual([]);
    const [rs] = objects<ReplicaSet>(c, 'replicasets');
    // The patch leaves the list empty, and ObjectMeta's omitempty drops it: no `ownerReferences: []`.
    expect(rs.metadata).not.toHaveProperty('ownerReferences');
    expect(objects<Pod>(c, 'pods').filter((p) => !p.metadata?.deletionTimestamp)).toHaveLength(2);
    const reqs = gcRequests(c, from);
    expect(reqs[0]).toBe(`PATCH /apis/apps/v1/namespaces/default/replicasets/${rs.metadata!.name} 200`);
    expect(reqs[1]).toBe('PATCH /apis/apps/v1/namespaces/default/deployments/web 200');
    // While it waited, the Deployment carried deletionTimestamp and the orphan finalizer.
    const marked = c.world.state.store.history.find(
      (e) => e.resource === 'deployments' && e.type === 'MODIFIED' && e.object.metadata?.deletionTimestamp,
    );
    expect(marked?.object.metadata?.finalizers).toEqual(['orphan']);
  });

  it('foreground: the Deployment waits, marked, until its ReplicaSet is gone, which waits for its pods', () => {
    const c = webCluster(2);
    runKubectl(c, 'delete deployment web --cascade=foreground --wait=false');
    c.advance(5);
    const d = objects<{ metadata: { finalizers?: string[]; deletionTimestamp?: string } }>(c, 'deployments')[0];
    expect(d.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(d.metadata.deletionTimestamp).toBeDefined();
    c.advance(40_000);
    expect(objects(c, 'deployments')).toEqual([]);
    expect(objects(c, 'replicasets')).toEqual([]);
    expect(objects(c, 'pods')).toEqual([]);
    // Order of disappearance: pods, then the ReplicaSet, then the Deployment.
    const gone = c.world.state.store.history.filter((e) => e.type === 'DELETED').map((e) => e.resource);
    expect(gone.lastIndexOf('pods')).toBeLessThan(gone.indexOf('replicasets'));
    expect(gone.indexOf('replicasets')).toBeLessThan(gone.indexOf('deployments'));
  });

  it('deleting a ReplicaSet the Deployment still owns: the pods go, and the Deployment makes a new ReplicaSet', () => {
    const c = webCluster(2);
    const old = objects<ReplicaSet>(c, 'replicasets')[0];
    runKubectl(c, `delete rs ${old.metadata!.name}`);
    c.advance(40_000);
    const pods = objects<Pod>(c, 'pods');
    expect(pods).toHaveLength(2);
    expect(pods.every((p) => p.metadata?.ownerReferences?.[0]?.uid !== old.metadata?.uid)).toBe(true);
    expect(runKubectl(c, 'get deploy web').stdout).toMatch(/web\s+2\/2/);
  });

  it("a deleted Service takes its EndpointSlices with it; the API server's own slice for default/kubernetes stays", () => {
    const c = webCluster(2);
    runKubectl(c, 'expose deployment web --port=80');
    c.advance(5_000);
    const names = () =>
      Object.values(c.world.state.store.objects.endpointslices ?? {})
        .map((x) => (x as { metadata: { name: string } }).metadata.name)
        .sort();
    expect(names()).toEqual(['kubernetes', expect.stringMatching(/^web-[a-z0-9]{5}$/)]);
    const from = c.log.length;
    runKubectl(c, 'delete service web');
    c.advance(5_000);
    expect(names()).toEqual(['kubernetes']);
    expect(gcRequests(c, from).filter((r) => r.startsWith('DELETE'))).toEqual([
      expect.stringMatching(
        /^DELETE \/apis\/discovery\.k8s\.io\/v1\/namespaces\/default\/endpointslices\/web-[a-z0-9]{5} 200$/,
      ),
    ]);
  });

  it('kubectl --cascade: the old boolean values still work with kubectl’s warning; anything else is refused', () => {
    const c = webCluster(1);
    const r = runKubectl(c, 'delete deployment web --cascade=false');
    expect(r.stderr).toBe(
      'warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\n',
    );
    const bad = runKubectl(c, 'delete rs --all --cascade=sideways');
    expect(bad.stderr).toBe(
      'error: invalid cascade value (sideways). Must be "background", "foreground", or "orphan"\n',
    );
    expect(bad.exitCode).not.toBe(0);
  });

  it('a finalizer nobody removes keeps an object, marked, until an update removes it', () => {
    const c = webCluster(1);
    runKubectl(c, 'create deployment keep --image=nginx:1.27 --replicas=0');
    c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'keep',
      body: { metadata: { finalizers: ['example.com/hold'] } },
    });
    c.request({ verb: 'delete', resource: 'deployments', namespace: 'default', name: 'keep' });
    c.advance(10_000);
    const kept = objects<{ metadata: { name: string; deletionTimestamp?: string } }>(c, 'deployments').find(
      (d) => d.metadata.name === 'keep',
    );
    expect(kept?.metadata.deletionTimestamp).toBeDefined();
    const r = c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'keep',
      body: { metadata: { finalizers: null } },
      options: { patchType: 'merge' },
    });
    expect(r.ok).toBe(true);
    expect(objects<{ metadata: { name: string } }>(c, 'deployments').some((d) => d.metadata.name === 'keep')).toBe(
      false,
    );
    expect(c.world.state.store.history.at(-1)).toMatchObject({ type: 'DELETED', resource: 'deployments' });
  });

  it('an object with two owners: when one goes, its reference is patched away and the object stays; when the other goes, the object goes', () => {
    const c = createCluster({ seed: 3 });
    const svc = (name: string) => {
      const r = c.request({
        verb: 'create',
        resource: 'services',
        namespace: 'default',
        body: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name, namespace: 'default' },
          spec: { selector: { app: name }, ports: [{ port: 80 }] },
        },
      });
      expect(r.ok).toBe(true);
      return objects<{ metadata: { name: string; uid: string } }>(c, 'services').find((x) => x.metadata.name === name)!
        .metadata.uid;
    };
    const a = svc('a');
    const b = svc('b');
    const ref = (name: string, uid: string) => ({ apiVersion: 'v1', kind: 'Service', name, uid });
    const made = c.request({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'shared', namespace: 'default', ownerReferences: [ref('a', a), ref('b', b)] },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    });
    expect(made.ok).toBe(true);
    c.settle();
    const podUID = objects<Pod>(c, 'pods').find((p) => p.metadata?.name === 'shared')!.metadata!.uid;
    let from = c.log.length;
    runKubectl(c, 'delete service a');
    c.advance(5_000);
    // classifyReferences: a is in the absent-owner cache (seen deleted with a dependent), b is GET
    // live and solid, so only the reference goes.
    expect(gcRequests(c, from).filter((r) => !r.includes('endpointslices'))).toEqual([
      'GET /api/v1/namespaces/default/pods/shared 200',
      'GET /api/v1/namespaces/default/services/b 200',
      'PATCH /api/v1/namespaces/default/pods/shared 200',
    ]);
    const shared = objects<Pod>(c, 'pods').find((p) => p.metadata?.name === 'shared');
    expect(shared?.metadata?.uid).toBe(podUID);
    expect(shared?.metadata?.deletionTimestamp).toBeUndefined();
    expect(shared?.metadata?.ownerReferences).toEqual([ref('b', b)]);
    from = c.log.length;
    runKubectl(c, 'delete service b');
    c.advance(40_000);
    // b was seen deleted with dependents (its EndpointSlice, the pod): absent from the start, never GET.
    expect(gcRequests(c, from).filter((r) => !r.includes('endpointslices'))).toEqual([
      'GET /api/v1/namespaces/default/pods/shared 200',
      'DELETE /api/v1/namespaces/default/pods/shared 200',
    ]);
    expect(objects<Pod>(c, 'pods').some((p) => p.metadata?.name === 'shared')).toBe(false);
  });
});
