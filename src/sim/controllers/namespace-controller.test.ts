// The namespace's lifecycle end to end: the registry's first DELETE marks it Terminating, admission
// refuses new content, the namespace controller empties it (its pods stop) and /finalize deletes it.
import { describe, expect, test } from 'vitest';
import type { Namespace, NamespaceCondition } from 'kubernetes-types/core/v1';
import { createCluster } from '../cluster.ts';
import { formatRecord } from '../view/format-record.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { NAMESPACE_DELETION_GRACE_PERIOD_MS, updateConditions } from './namespace-controller.ts';

function cluster() {
  const c = createCluster({ seed: 7 });
  runKubectl(c, 'create namespace shop');
  runKubectl(c, 'create deployment web -n shop --image=nginx:1.27 --replicas=2');
  runKubectl(c, 'run solo -n shop --image=nginx:1.27');
  c.settle();
  return c;
}

const ns = (c: ReturnType<typeof cluster>, name: string) =>
  (c.world.state.store.objects.namespaces as Record<string, Namespace>)[`/registry/namespaces/${name}`];

describe('namespace deletion', () => {
  test('the first DELETE marks the namespace Terminating; creating in it is Forbidden; the controller empties it, then /finalize deletes it', () => {
    const c = cluster();
    expect(runKubectl(c, 'get pods -n shop --no-headers').stdout.trim().split('\n')).toHaveLength(3);
    const from = c.world.state.log.length;
    expect(runKubectl(c, 'delete namespace shop --wait=false')).toEqual({
      stdout: 'namespace "shop" deleted\n',
      stderr: '',
      exitCode: 0,
    });
    expect(ns(c, 'shop').status?.phase).toBe('Terminating');
    expect(ns(c, 'shop').spec?.finalizers).toEqual(['kubernetes']);
    expect(runKubectl(c, 'get ns shop --no-headers').stdout).toMatch(/^shop\s+Terminating\s/);
    expect(runKubectl(c, 'run late -n shop --image=nginx:1.27').stderr).toBe(
      'Error from server (Forbidden): pods "late" is forbidden: unable to create new content in namespace shop because it is being terminated\n',
    );
    // A second DELETE changes nothing while the controller's finalizer is on.
    const rv = ns(c, 'shop').metadata?.resourceVersion;
    runKubectl(c, 'delete namespace shop --wait=false');
    expect(ns(c, 'shop').metadata?.resourceVersion).toBe(rv);
    // The controller waits out namespaceDeletionGracePeriod, deletes everything, and reports what remains.
    c.advance(NAMESPACE_DELETION_GRACE_PERIOD_MS + 500);
    const remaining = ns(c, 'shop').status?.conditions?.find((x) => x.type === 'NamespaceContentRemaining');
    expect(remaining).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: pods. has 3 resource instances',
    });
    expect(runKubectl(c, 'describe ns shop').stdout).toBe(`Name:         shop
Labels:       kubernetes.io/metadata.name=shop
Annotations:  <none>
Status:       Terminating
Conditions:
  Type                                         Status  LastTransitionTime               Reason               Message
  ----                                         ------  ------------------               ------               -------
  NamespaceDeletionDiscoveryFailure            False   Thu, 01 Jan 2026 00:00:12 +0000  ResourcesDiscovered  All resources successfully discovered
  NamespaceDeletionGroupVersionParsingFailure  False   Thu, 01 Jan 2026 00:00:12 +0000  ParsedGroupVersions  All legacy kube types successfully parsed
  NamespaceDeletionContentFailure              False   Thu, 01 Jan 2026 00:00:12 +0000  ContentDeleted       All content successfully deleted, may be waiting on finalization
  NamespaceContentRemaining                    True    Thu, 01 Jan 2026 00:00:12 +0000  SomeResourcesRemain  Some resources are remaining: pods. has 3 resource instances
  NamespaceFinalizersRemaining                 False   Thu, 01 Jan 2026 00:00:12 +0000  ContentRemoved       All content successfully removed

No resource quota.

No LimitRange resource.
`);
    c.advance(60_000);
    expect(ns(c, 'shop')).toBeUndefined();
    expect(runKubectl(c, 'get pods -n shop').stderr).toBe('No resources found in shop namespace.\n');
    expect(runKubectl(c, 'get deploy,rs -n shop').stderr).toBe('No resources found in shop namespace.\n');
    // Every container stopped on its node.
    const lines = c.world.state.log.slice(from).map(formatRecord);
    expect(lines.filter((l) => /cri StopContainer/.test(l))).toHaveLength(3);
    const nsc = lines.filter((l) => /namespace-controller/.test(l) && !/ watch /.test(l));
    expect(nsc.some((l) => /PUT \/api\/v1\/namespaces\/shop\/finalize\s+200/.test(l))).toBe(true);
    expect(nsc.some((l) => /DELETE \/api\/v1\/namespaces\/shop\/pods\/solo\s+200/.test(l))).toBe(true);
  });

  test('kubectl delete namespace waits until the namespace is gone', () => {
    const c = cluster();
    expect(runKubectl(c, 'delete namespace shop').stdout).toBe('namespace "shop" deleted\n');
    expect(ns(c, 'shop')).toBeUndefined();
    expect(runKubectl(c, 'get ns shop').stderr).toBe('Error from server (NotFound): namespaces "shop" not found\n');
  });

  test("an empty namespace goes at the controller's first pass", () => {
    const c = createCluster({ seed: 7 });
    runKubectl(c, 'create namespace empty');
    runKubectl(c, 'delete namespace empty --wait=false');
    c.advance(NAMESPACE_DELETION_GRACE_PERIOD_MS + 1000);
    expect(ns(c, 'empty')).toBeUndefined();
  });

  test('the controller stops with kube-controller-manager; a later DELETE of the namespace starts it again', () => {
    const c = cluster();
    runKubectl(c, 'delete namespace shop --wait=false');
    c.advance(1000);
    expect(c.world.state.components['namespace-controller']).toBeDefined();
    c.controlPlane('stop', 'controller-manager');
    c.advance(60_000);
    expect(c.world.state.components['namespace-controller']).toBeUndefined();
    expect(ns(c, 'shop').status?.phase).toBe('Terminating');
    c.controlPlane('start', 'controller-manager');
    c.advance(30_000);
    expect(ns(c, 'shop')).toBeDefined();
    runKubectl(c, 'delete namespace shop --wait=false');
    c.advance(60_000);
    expect(ns(c, 'shop')).toBeUndefined();
  });

  test('default, kube-system and kube-public stay', () => {
    const c = createCluster({ seed: 7 });
    for (const n of ['default', 'kube-system', 'kube-public']) {
      expect(runKubectl(c, `delete namespace ${n}`).stderr).toBe(
        `Error from server (Forbidden): namespaces "${n}" is forbidden: this namespace may not be deleted\n`,
      );
    }
  });

  test('updateConditions: ok variants added once; a transition moves lastTransitionTime, a new message alone does not', () => {
    const conds: NamespaceCondition[] = [];
    expect(updateConditions(conds, [], 't0')).toBe(true);
    expect(conds.map((x) => `${x.type}=${x.status}`)).toEqual([
      'NamespaceDeletionDiscoveryFailure=False',
      'NamespaceDeletionGroupVersionParsingFailure=False',
      'NamespaceDeletionContentFailure=False',
      'NamespaceContentRemaining=False',
      'NamespaceFinalizersRemaining=False',
    ]);
    expect(updateConditions(conds, [], 't1')).toBe(false);
    const some = (n: number): NamespaceCondition => ({
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: 'x',
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: pods. has ${n} resource instances`,
    });
    expect(updateConditions(conds, [some(2)], 't2')).toBe(true);
    expect(conds[3]).toMatchObject({ status: 'True', lastTransitionTime: 't2' });
    expect(updateConditions(conds, [some(1)], 't3')).toBe(true);
    expect(conds[3]).toMatchObject({
      lastTransitionTime: 't2',
      message: 'Some resources are remaining: pods. has 1 resource instances',
    });
  });
});
