import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerAdmissionPlugin } from '../apiserver/admission.ts';
import type { AdmissionPlugin } from '../apiserver/config.ts';
import { type ApiServerConfig } from '../apiserver/config.ts';
import { newApiServerConfig } from '../apiserver/options.ts';
import { statusError } from '../api/status.ts';
import { rfc3339 } from '../util/names.ts';
import type { RequestRecord } from '../request-log.ts';
import { storeList } from '../apiserver/store.ts';
import { testWorld } from '../testing/world.ts';
import type { World } from '../world.ts';
import {
  podTally,
  replicaSetControllerDef,
  sameTallyClass,
  satisfiedExpectations,
  syncReplicaSet,
  type ReplicaSetControllerState,
} from './replicaset-controller.ts';
import { getPodsToDelete, isPodActive } from './replicaset-util.ts';
import { runs } from '../../test/fc.ts';

// A namespace with a pod quota of 4, refused at admission like the ResourceQuota plugin does.
const testPodQuota: AdmissionPlugin = {
  name: 'TestPodQuota',
  admit(a, h) {
    if (a.operation !== 'CREATE' || a.resource !== 'pods' || a.namespace !== 'quota') return undefined;
    const used = storeList(h.store, 'pods', 'quota').length;
    if (used < 4) return undefined;
    return statusError(
      403,
      'Forbidden',
      `pods "${a.name}" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=${used}, limited: pods=4`,
    );
  },
};

/** The API server of these tests' worlds: the default one with the quota plugin. */
function quotaApiServer(): ApiServerConfig {
  const config = newApiServerConfig();
  registerAdmissionPlugin(config, testPodQuota);
  return config;
}

function rs(name: string, replicas: number, extra: Partial<ReplicaSet['spec']> = {}, ns = 'default'): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: ns },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      ...extra,
    },
  };
}

function world(...objs: { resource: string; body: unknown; namespace?: string }[]): World {
  const w = testWorld({}, [replicaSetControllerDef], quotaApiServer);
  for (const o of objs) {
    const r = w.kubectl({ verb: 'create', resource: o.resource, namespace: o.namespace ?? 'default', body: o.body });
    expect(r.ok).toBe(true);
  }
  return w;
}

const mine = (w: World) =>
  w.state.log.filter((r): r is RequestRecord => r.component === 'replicaset-controller' && r.kind === 'request');
const podsIn = (w: World, ns = 'default') => storeList(w.state.store, 'pods', ns);
const getRS = (w: World, name: string, ns = 'default') =>
  storeList(w.state.store, 'replicasets', ns).find((o) => o.metadata?.name === name)!;
const events = (w: World, ns = 'default') => storeList(w.state.store, 'events', ns);

function markReady(w: World, pod: Pod, node = 'node-1'): void {
  const ns = pod.metadata!.namespace!;
  const name = pod.metadata!.name!;
  if (!pod.spec?.nodeName)
    w.kubectl({
      verb: 'create',
      resource: 'pods',
      namespace: ns,
      name,
      subresource: 'binding',
      body: {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace: ns },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      },
    });
  const r = w.kubectl({
    verb: 'patch',
    resource: 'pods',
    namespace: ns,
    name,
    subresource: 'status',
    body: {
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(w.now) }] },
    },
  });
  expect(r.ok).toBe(true);
}

describe('replicaset controller: manageReplicas creates', () => {
  it('creates spec.replicas pods with generateName <rs>-, the template labels and a controller ownerReference, in one sync', () => {
    const w = world({ resource: 'replicasets', body: rs('web', 3) });
    w.addComponent('replicaset-controller', 'replicaset-controller');
    w.advance(5);
    const posts = mine(w).filter((r) => r.verb === 'POST' && r.path === '/api/v1/namespaces/default/pods');
    expect(posts.map((r) => r.code)).toEqual([201, 201, 201]);
    // One sync: all three at the same simulated ms (slow-start batches 1 then 2).
    expect(new Set(posts.map((r) => r.t)).size).toBe(1);
    const set = getRS(w, 'web');
    const pods = podsIn(w);
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata?.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(p.metadata?.labels).toEqual({ app: 'web' });
      expect(p.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid: set.metadata?.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    expect(
      events(w)
        .filter((e) => e.reason === 'SuccessfulCreate')
        .map((e) => e.message)
        .sort(),
    ).toEqual(pods.map((p) => `Created pod: ${p.metadata?.name}`).sort());
    w.advance(20);
    // readyReplicas and availableReplicas are 0, so omitted (omitempty); terminatingReplicas is a pointer, kept.
    expect(getRS(w, 'web').status).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 3,
      terminatingReplicas: 0,
      observedGeneration: 1,
    });
    expect(
      mine(w).some(
        (r) =>
          r.verb === 'PUT' && r.path === '/apis/apps/v1/namespaces/default/replicasets/web/status' && r.code === 200,
      ),
    ).toBe(true);
  });

  it('slow-start: batches of 1, 2, 4 and the first failing batch stops the rest (FailedCreate, ReplicaFailure)', () => {
    const w = world(
      { resource: 'namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quota' } } },
      { resource: 'replicasets', body: rs('web', 10, {}, 'quota'), namespace: 'quota' },
    );
    w.addComponent('replicaset-controller', 'replicaset-controller');
    w.advance(3);
    const posts = mine(w).filter((r) => r.verb === 'POST' && r.path === '/api/v1/namespaces/quota/pods');
    // 1 + 2 + 4 attempts: the fourth pod fits the quota, the other three of that batch are refused.
    expect(posts.map((r) => r.code)).toEqual([201, 201, 201, 201, 403, 403, 403]);
    expect(posts.filter((r) => r.code === 403).every((r) => r.stage === 'admission')).toBe(true);
    w.advance(10);
    const failed = events(w, 'quota').filter((e) => e.reason === 'FailedCreate');
    expect(failed[0].type).toBe('Warning');
    expect(failed[0].message).toMatch(/^Error creating: pods "web-.{5}" is forbidden: exceeded quota: compute/);
    const cond = getRS(w, 'web', 'quota').status?.conditions?.[0];
    expect(cond).toMatchObject({ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' });
    expect(cond?.message).toMatch(/exceeded quota/);
  });

  it('expectations: a second sync before the creations are observed creates nothing', () => {
    const w = world({ resource: 'replicasets', body: rs('web', 3) });
    w.addComponent('replicaset-controller', 'replicaset-controller');
    w.advance(3); // the streaming lists synced (at +2 ms), the worker ran: three creates, watch events still in flight
    const ctx = w.ctx<ReplicaSetControllerState>('replicaset-controller');
    expect(ctx.state.expectations['default/web']).toMatchObject({ add: 3 });
    expect(satisfiedExpectations(ctx.state, 'default/web', w.now)).toBe(false);
    const before = mine(w).filter((r) => r.verb === 'POST' && r.path.endsWith('/pods')).length;
    syncReplicaSet(ctx, 'default/web');
    expect(mine(w).filter((r) => r.verb === 'POST' && r.path.endsWith('/pods')).length).toBe(before);
    w.advance(20);
    expect(ctx.state.expectations['default/web'].add).toBe(0);
    expect(podsIn(w)).toHaveLength(3);
    // Expectations also expire after 5 minutes, so a lost event cannot wedge the RS.
    ctx.state.expectations['default/web'] = { add: 1, del: [], timestamp: w.now };
    expect(satisfiedExpectations(ctx.state, 'default/web', w.now + 5 * 60_000 + 1)).toBe(true);
  });
});

describe('replicaset controller: deletes', () => {
  it('scale-down deletes the pods getPodsToDelete ranks first (unassigned, then not ready), gracefully', () => {
    const w = world({ resource: 'replicasets', body: rs('web', 4) });
    w.addComponent('replicaset-controller', 'replicaset-controller');
    w.advance(20);
    const [a, b, c, d] = podsIn(w).sort((x, y) => x.metadata!.name!.localeCompare(y.metadata!.name!));
    markReady(w, a, 'node-1');
    markReady(w, b, 'node-2');
    // c: bound but not ready; d: not even scheduled.
    w.kubectl({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      name: c.metadata!.name,
      subresource: 'binding',
      body: {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: c.metadata!.name },
        target: { kind: 'Node', name: 'node-3' },
      },
    });
    w.advance(20);
    const expected = getPodsToDelete(podsIn(w), podsIn(w), 2, rfc3339(w.now))
      .map((p) => p.metadata!.name)
      .sort();
    expect(expected).toEqual([c.metadata!.name, d.metadata!.name].sort());
    w.kubectl({
      verb: 'patch',
      resource: 'replicasets',
      namespace: 'default',
      name: 'web',
      body: { spec: { replicas: 2 } },
    });
    w.advance(20);
    const dels = mine(w).filter((r) => r.verb === 'DELETE');
    expect(dels.map((r) => r.path).sort()).toEqual(expected.map((n) => `/api/v1/namespaces/default/pods/${n}`).sort());
    expect(dels.every((r) => r.code === 200)).toBe(true);
    // d was unscheduled, so it went at once; c is bound, so it is terminating (graceful delete).
    const left = podsIn(w);
    expect(left.map((p) => p.metadata!.name).sort()).toEqual([a, b, c].map((p) => p.metadata!.name).sort());
    expect(left.find((p) => p.metadata!.name === c.metadata!.name)!.metadata?.deletionTimestamp).toBeDefined();
    expect(getRS(w, 'web').status).toMatchObject({ replicas: 2, terminatingReplicas: 1, readyReplicas: 2 });
    expect(
      events(w)
        .filter((e) => e.reason === 'SuccessfulDelete')
        .map((e) => e.message)
        .sort(),
    ).toEqual(expected.map((n) => `Deleted pod: ${n}`).sort());
    // No further creates or deletes: the terminating pod does not count, and 2 active remain.
    const n = mine(w).filter((r) => r.verb === 'POST' && r.path.endsWith('/pods')).length;
    w.advance(1000);
    expect(mine(w).filter((r) => r.verb === 'POST' && r.path.endsWith('/pods')).length).toBe(n);
  });

  it('a pod deleted by hand is replaced at once, under a new name, while the old one terminates', () => {
    const w = world({ resource: 'replicasets', body: rs('web', 2) });
    w.addComponent('replicaset-controller', 'replicaset-controller');
    w.advance(20);
    const victim = podsIn(w)[0];
    markReady(w, victim);
    w.advance(10);
    const t0 = w.now;
    expect(w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: victim.metadata!.name }).ok).toBe(
      true,
    );
    w.advance(20);
    const pods = podsIn(w);
    expect(pods).toHaveLength(3); // two active + the terminating one
    const fresh = pods.filter((p) => isPodActive(p) && p.metadata!.name !== victim.metadata!.name);
    expect(fresh).toHaveLength(2);
    const create = mine(w).filter((r) => r.verb === 'POST' && r.path.endsWith('/pods') && r.t > t0);
    expect(create).toHaveLength(1);
    expect(create[0].t - t0).toBeLessThan(10);
    expect(create[0].object).not.toBe(`pods/default/${victim.metadata!.name}`);
  });
});

describe('replicaset controller: status', () => {
  it('availableReplicas waits minReadySeconds of readiness (requeued after it)', () => {
    const w = world({ resource: 'replicasets', body: rs('web', 1, { minReadySeconds: 5 }) });
    w.addComponent('replicaset-controller', 'replicaset-controller');
    w.advance(20);
    markReady(w, podsIn(w)[0]);
    w.advance(100);
    expect(getRS(w, 'web').status).toMatchObject({ readyReplicas: 1 });
    expect(getRS(w, 'web').status).not.toHaveProperty('availableReplicas');
    w.advance(4_000);
    expect(getRS(w, 'web').status?.availableReplicas).toBeUndefined();
    w.advance(3_000);
    expect(getRS(w, 'web').status).toMatchObject({ readyReplicas: 1, availableReplicas: 1 });
  });

  it('authenticates as its service account (RBAC from the IDENTITIES table)', () => {
    const w = world({ resource: 'replicasets', body: rs('web', 1) });
    w.addComponent('replicaset-controller', 'replicaset-controller');
    w.advance(20);
    expect(mine(w).every((r) => r.code !== 403)).toBe(true);
    expect(w.state.components['replicaset-controller'].identity).toBe(undefined); // instance name = identity key
    expect(JSON.parse(JSON.stringify(w.state.components['replicaset-controller'].state))).toEqual(
      w.state.components['replicaset-controller'].state,
    );
  });
});

describe('replicaset controller: pod tallies', () => {
  // The handlers skip a pod update that sameTallyClass files alike; it must never hide a change of
  // the pod's contribution to its owner's tally (the general path: −old, +cur).
  it('sameTallyClass implies the same contribution to the same owner (property)', () => {
    const owners = [
      [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: 'u-a', controller: true }],
      [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: 'u-b', controller: true }],
    ];
    const labelSets: Record<string, string>[] = [{ app: 'a' }, { app: 'a', tier: 'x' }, { app: 'b' }];
    const phases = [undefined, 'Pending', 'Running', 'Succeeded', 'Failed'] as const;
    const arb = fc.record({
      owner: fc.integer({ min: 0, max: 1 }),
      labels: fc.integer({ min: 0, max: 2 }),
      phase: fc.integer({ min: 0, max: 4 }),
      deleting: fc.boolean(),
      ready: fc.constantFrom('True', 'False', undefined),
      ns: fc.constantFrom('default', 'other'),
    });
    const podOf = (x: {
      owner: number;
      labels: number;
      phase: number;
      deleting: boolean;
      ready: string | undefined;
      ns: string;
    }): Pod => ({
      metadata: {
        name: 'p',
        namespace: x.ns,
        ownerReferences: owners[x.owner],
        labels: labelSets[x.labels],
        ...(x.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      },
      status: { phase: phases[x.phase], ...(x.ready ? { conditions: [{ type: 'Ready', status: x.ready }] } : {}) },
    });
    let alike = 0;
    // cur differs from old in a few fields only (a status write changes little), so both outcomes occur.
    const pair = arb.chain((a) =>
      fc
        .record({
          phase: fc.option(fc.integer({ min: 0, max: 4 })),
          ready: fc.option(fc.constantFrom('True', 'False', undefined)),
          deleting: fc.option(fc.boolean()),
          owner: fc.option(fc.integer({ min: 0, max: 1 })),
        })
        .map(
          (d) =>
            [
              a,
              {
                ...a,
                phase: d.phase ?? a.phase,
                ready: d.ready === null ? a.ready : d.ready,
                deleting: d.deleting ?? a.deleting,
                owner: d.owner ?? a.owner,
              },
            ] as const,
        ),
    );
    fc.assert(
      fc.property(pair, fc.integer({ min: 0, max: 2 }), ([a, b], l) => {
        const old = podOf(a);
        const cur = podOf(b);
        if (!sameTallyClass(old, cur)) return;
        alike++;
        expect(cur.metadata?.ownerReferences).toBe(old.metadata?.ownerReferences);
        expect(cur.metadata?.namespace).toBe(old.metadata?.namespace);
        const labels = Object.entries(labelSets[l]);
        expect(podTally(labels, cur)).toEqual(podTally(labels, old));
      }),
      { numRuns: runs(1) },
    );
    expect(alike).toBeGreaterThan(runs(1) / 20);
  });
});
