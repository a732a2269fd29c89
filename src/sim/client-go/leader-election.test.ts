import type { Lease } from 'kubernetes-types/coordination/v1';
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster.ts';
import {
  LEASE_DURATION_MS,
  RENEW_DEADLINE_MS,
  RESTART_DELAY_MS,
  RETRY_PERIOD_MS,
  isLeaseValid,
  leaseSpecOf,
  newLeaderElector,
  recordOfLease,
} from './leader-election.ts';

const objectOf = (c: Cluster, req: Parameters<Cluster['request']>[0]): unknown => {
  const r = c.request(req);
  if (!r.ok) throw new Error(r.status.message);
  return r.object;
};
const lease = (c: Cluster, name: string) =>
  objectOf(c, { verb: 'get', resource: 'leases', namespace: 'kube-system', name }) as Lease;
/** The requests a process sent about its Lease since log position `from`: "t VERB code". */
const leaseRequests = (c: Cluster, component: string, from = 0) =>
  c.log
    .slice(from)
    .filter((r) => r.kind === 'request' && r.component === component && r.path.includes('/kube-system/leases'))
    .map((r) => `${r.t} ${r.verb} ${r.code}`);

describe('leader election (client-go tools/leaderelection)', () => {
  it("acquires at start: GET 404, POST, then renew's immediate PUT; renews every retryPeriod with a PUT alone", () => {
    const c = createCluster({ seed: 1, nodes: 1 });
    c.advance(6_500);
    expect(leaseRequests(c, 'kube-scheduler')).toEqual([
      '0 GET 404',
      '0 POST 201',
      '0 PUT 200',
      '2000 PUT 200',
      '4000 PUT 200',
      '6000 PUT 200',
    ]);
    // resourcelock.NewFromKubeconfig: the lock's client times out at renewDeadline / 2, sent as a query.
    expect(
      c.log
        .filter(
          (r) => r.kind === 'request' && r.component === 'kube-scheduler' && r.path.includes('/kube-system/leases'),
        )
        .every((r) => r.path.endsWith('?timeout=5s')),
    ).toBe(true);
    const l = lease(c, 'kube-scheduler');
    expect(l.spec).toMatchObject({
      leaseDurationSeconds: 15,
      leaseTransitions: 0,
      acquireTime: '2026-01-01T00:00:00.000000Z',
      renewTime: '2026-01-01T00:00:06.000000Z',
    });
    // `<hostname>_<uuid>`: the control-plane node's name and a v4 uuid.
    expect(l.spec!.holderIdentity).toMatch(
      /^control-plane_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(lease(c, 'kube-controller-manager').spec!.holderIdentity).not.toBe(l.spec!.holderIdentity);
    // LeaseLock.RecordEvent: "<identity> became leader", a core/v1 Event about the Lease.
    const events = (
      objectOf(c, { verb: 'list', resource: 'events', namespace: 'kube-system' }) as {
        items: {
          reason: string;
          message: string;
          involvedObject: { kind: string; name: string };
          source: { component: string };
        }[];
      }
    ).items;
    expect(
      events.map((e) => [
        e.reason,
        e.involvedObject.kind,
        e.involvedObject.name,
        e.source.component,
        e.message.endsWith(' became leader'),
      ]),
    ).toEqual([
      ['LeaderElection', 'Lease', 'kube-controller-manager', 'kube-controller-manager', true],
      ['LeaderElection', 'Lease', 'kube-scheduler', 'default-scheduler', true],
    ]);
  });

  it('an unreachable API server: PUT and GET refused every 2 s, leadership lost after renewDeadline, the process restarts and waits out the old Lease', () => {
    const c = createCluster({ seed: 1, nodes: 1 });
    c.advance(7_000);
    const before = lease(c, 'kube-controller-manager');
    const from = c.log.length;
    c.controlPlane('stop', 'apiserver');
    c.advance(RENEW_DEADLINE_MS + 2 * RETRY_PERIOD_MS);
    const tries = leaseRequests(c, 'kube-controller-manager', from);
    // The poll that began at 8 s: tries at 8, 10, 12, 14, 16 s (a PUT, then the slow path's GET), lost at 18 s.
    expect(tries.slice(0, 10)).toEqual([
      '8000 PUT 0',
      '8000 GET 0',
      '10000 PUT 0',
      '10000 GET 0',
      '12000 PUT 0',
      '12000 GET 0',
      '14000 PUT 0',
      '14000 GET 0',
      '16000 PUT 0',
      '16000 GET 0',
    ]);
    // The process exited with its controllers; the new one tries to acquire a second later.
    expect(c.world.state.components['deployment-controller']).toBeUndefined();
    expect(tries[10]).toBe(`${8000 + RENEW_DEADLINE_MS + RESTART_DELAY_MS} GET 0`);
    c.controlPlane('start', 'apiserver');
    const back = c.now;
    c.advance(LEASE_DURATION_MS + 10_000);
    const after = lease(c, 'kube-controller-manager');
    const took = Date.parse(after.spec!.acquireTime!) - Date.UTC(2026, 0, 1);
    // It first saw the old record after the restart, so it took the Lease a leaseDuration later (plus at most one jittered retry).
    expect(took - back).toBeGreaterThanOrEqual(LEASE_DURATION_MS);
    expect(took - back).toBeLessThan(LEASE_DURATION_MS + RETRY_PERIOD_MS * 2.2 + 4_400);
    expect(after.spec!.leaseTransitions).toBe(1);
    expect(after.spec!.holderIdentity).not.toBe(before.spec!.holderIdentity);
    expect(c.world.state.components['deployment-controller']).toBeDefined();
  });

  it('a stopped scheduler hands its Lease back (ReleaseOnCancel), so the next one leads at once; the controller manager does not', () => {
    const c = createCluster({ seed: 1, nodes: 1 });
    c.advance(3_000);
    c.controlPlane('stop', 'scheduler');
    c.controlPlane('stop', 'controller-manager');
    expect(lease(c, 'kube-scheduler').spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    expect(lease(c, 'kube-controller-manager').spec!.leaseDurationSeconds).toBe(15);
    c.advance(1_000);
    c.controlPlane('start', 'scheduler');
    c.controlPlane('start', 'controller-manager');
    expect(c.world.state.components.scheduler).toBeDefined();
    expect(lease(c, 'kube-scheduler').spec!.leaseTransitions).toBe(1);
    expect(c.world.state.components['replicaset-controller']).toBeUndefined();
    c.advance(LEASE_DURATION_MS + 4_400);
    expect(c.world.state.components['replicaset-controller']).toBeDefined();
  });

  it('the record round-trips through a Lease spec with MicroTime times', () => {
    const r = {
      holderIdentity: 'h_1',
      leaseDurationSeconds: 15,
      acquireTime: 1_234.5,
      renewTime: 9_000,
      leaderTransitions: 2,
    };
    const spec = leaseSpecOf(r);
    expect(spec.acquireTime).toBe('2026-01-01T00:00:01.234500Z');
    expect(recordOfLease({ spec })).toEqual(r);
  });

  it('a lease is valid for leaseDuration from when this candidate saw it, not from its renewTime', () => {
    const s = newLeaderElector('cp', 'kube-scheduler', 0, 0);
    s.observed = {
      holderIdentity: 'other',
      leaseDurationSeconds: 15,
      acquireTime: 0,
      renewTime: 0,
      leaderTransitions: 0,
    };
    s.observedAt = 100_000;
    expect(isLeaseValid(s, 114_999)).toBe(true);
    expect(isLeaseValid(s, 115_000)).toBe(false);
  });
});
