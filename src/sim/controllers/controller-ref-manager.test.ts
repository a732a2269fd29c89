import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { createCluster, type Cluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { claimObjects, type ClaimApi, type Controller, type Owned } from './controller-ref-manager.ts';

const rs: Controller = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web-1', namespace: 'default', uid: 'rs-uid' },
  spec: { selector: { matchLabels: { app: 'web' } } },
};
const ref = (uid: string) => [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid, controller: true }];
const pod = (
  name: string,
  labels: Record<string, string>,
  owner?: string,
  extra: Partial<NonNullable<Owned['metadata']>> = {},
): Owned => ({
  metadata: {
    name,
    namespace: 'default',
    uid: `${name}-uid`,
    labels,
    ...(owner ? { ownerReferences: ref(owner) } : {}),
    ...extra,
  },
});

function recorder(fresh: Controller | undefined = rs) {
  const calls: string[] = [];
  const api: ClaimApi<Owned> = {
    adopt: (o, patch) => {
      calls.push(`adopt ${o.metadata?.name} ${JSON.stringify(patch)}`);
      return { ...o, metadata: { ...o.metadata, ownerReferences: ref('rs-uid') } };
    },
    release: (o, patch) => {
      calls.push(`release ${o.metadata?.name} ${JSON.stringify(patch)}`);
      return true;
    },
    fresh: () => {
      calls.push('get');
      return fresh;
    },
  };
  return { api, calls };
}

describe('ControllerRefManager.ClaimObject', () => {
  it('keeps its own matching objects, releases its own that stopped matching, adopts matching orphans, ignores the rest', () => {
    const { api, calls } = recorder();
    const r = claimObjects(
      rs,
      [
        pod('mine', { app: 'web' }, 'rs-uid'),
        pod('relabelled', { app: 'debug' }, 'rs-uid'),
        pod('orphan', { app: 'web' }),
        pod('stranger', { app: 'web' }, 'other-uid'),
        pod('unrelated', { app: 'db' }),
        pod('going', { app: 'web' }, undefined, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      ],
      api,
    );
    expect(r.ok).toBe(true);
    expect(r.owned.map((o) => o.metadata?.name)).toEqual(['mine', 'orphan']);
    expect(calls).toEqual([
      'release relabelled {"metadata":{"ownerReferences":[{"$patch":"delete","uid":"rs-uid"}],"uid":"relabelled-uid"}}',
      'get', // RecheckDeletionTimestamp, once, before the first adoption
      'adopt orphan {"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","uid":"rs-uid","controller":true,"blockOwnerDeletion":true}],"uid":"orphan-uid"}}',
    ]);
  });

  it('adopts nothing for a controller that is gone or being deleted (the fresh read disagrees), and says the claim failed', () => {
    const { api, calls } = recorder({ ...rs, metadata: { ...rs.metadata, uid: 'new-uid' } });
    const r = claimObjects(rs, [pod('a', { app: 'web' }), pod('b', { app: 'web' })], api);
    expect(r).toMatchObject({ ok: false, adopted: [] });
    expect(calls).toEqual(['get']);
    const deleting = { ...rs, metadata: { ...rs.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    const second = recorder();
    expect(
      claimObjects(deleting, [pod('a', { app: 'web' }), pod('c', { app: 'x' }, 'rs-uid')], second.api),
    ).toMatchObject({ ok: true, owned: [] });
    expect(second.calls).toEqual([]); // a controller being deleted neither adopts nor releases
  });
});

function pods(c: Cluster): Pod[] {
  return Object.values(c.world.state.store.objects.pods ?? {}) as Pod[];
}

describe('adoption and release in the controllers', () => {
  it('a Deployment made again after an orphaning delete adopts its old ReplicaSet instead of making another', () => {
    const c = createCluster({ seed: 9 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
    c.settle();
    const [old] = Object.values(c.world.state.store.objects.replicasets ?? {}) as ReplicaSet[];
    runKubectl(c, 'delete deployment web --cascade=orphan');
    c.advance(5_000);
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    c.advance(30_000);
    const rss = Object.values(c.world.state.store.objects.replicasets ?? {}) as ReplicaSet[];
    expect(rss.map((r) => r.metadata?.name)).toEqual([old.metadata?.name]);
    const d = Object.values(c.world.state.store.objects.deployments ?? {})[0] as { metadata: { uid: string } };
    expect(rss[0].metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Deployment',
      name: 'web',
      uid: d.metadata.uid,
      controller: true,
    });
    expect(pods(c).filter((p) => p.status?.phase === 'Running')).toHaveLength(3);
  });

  it('a pod relabelled out of its ReplicaSet is released and replaced; relabelled back, it is adopted and one pod goes', () => {
    const c = createCluster({ seed: 9 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    c.settle();
    const name = pods(c)[0].metadata!.name!;
    runKubectl(c, `label pod ${name} app=debug --overwrite`);
    c.advance(15_000);
    const debug = pods(c).find((p) => p.metadata?.name === name)!;
    expect(debug.metadata?.ownerReferences ?? []).toEqual([]);
    expect(pods(c).filter((p) => p.metadata?.labels?.app === 'web' && p.status?.phase === 'Running')).toHaveLength(3);
    runKubectl(c, `label pod ${name} app=web --overwrite`);
    c.advance(40_000);
    const live = pods(c).filter((p) => !p.metadata?.deletionTimestamp);
    expect(live).toHaveLength(3);
    expect(live.find((p) => p.metadata?.name === name)?.metadata?.ownerReferences?.[0]?.kind).toBe('ReplicaSet');
  });
});
