import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster.ts';
import { attachKey, extendAll, leaseReuseSeconds, newEventLeases, revokeExpired, revokeTime } from './event-ttl.ts';
import { openWatch } from './watch.ts';
import { runScript } from '../kubectl/script.ts';

const HOUR = 3_600_000;

function eventKeys(c: Cluster): string[] {
  return Object.keys(c.world.state.store.objects.events ?? {});
}

function deploy(c: Cluster, name: string): void {
  const r = c.request({
    verb: 'create',
    resource: 'deployments',
    namespace: 'default',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
      },
    },
  });
  expect(r.ok).toBe(true);
}

describe('the leaseManager and the lessor (pure)', () => {
  it('reuses a lease for 60 s after granting it, and grants it TTL + 60 s', () => {
    expect(leaseReuseSeconds(3600)).toBe(60);
    expect(leaseReuseSeconds(600)).toBe(30); // 5 % of a short TTL
    const l = newEventLeases();
    expect(attachKey(l, 'a', 0)).toBe(1);
    expect(l.leases[1].expiresAt).toBe(3_660_000);
    expect(attachKey(l, 'b', 59_999)).toBeUndefined(); // still valid for a whole TTL: reused
    expect(attachKey(l, 'c', 60_000)).toBe(2); // now + TTL is no longer before the old expiry
    expect(l.leases[1].keys).toEqual(['a', 'b']);
  });

  it('a key written again moves to the newer lease, so the old one no longer deletes it', () => {
    const l = newEventLeases();
    attachKey(l, 'a', 0);
    attachKey(l, 'b', 0);
    attachKey(l, 'a', 120_000);
    expect(revokeExpired(l, 1, 3_659_999)).toBeUndefined(); // not due yet
    expect(revokeExpired(l, 1, 3_660_000)).toEqual(['b']);
    expect(revokeExpired(l, 1, 3_700_000)).toBeUndefined(); // gone already
    expect(revokeExpired(l, 2, 120_000 + 3_660_000)).toEqual(['a']);
  });

  it('revokes at the lessor’s next 500 ms check, and a returning etcd gives every lease its TTL again', () => {
    expect(revokeTime(3_660_000)).toBe(3_660_000);
    expect(revokeTime(3_660_001)).toBe(3_660_500);
    const l = newEventLeases();
    attachKey(l, 'a', 1_000);
    expect(extendAll(l, 2 * HOUR)).toEqual([{ id: 1, revokeAt: 2 * HOUR + 3_660_000 }]);
    expect(revokeExpired(l, 1, 3_661_000)).toBeUndefined();
  });
});

describe('Events expire an hour after their last write', () => {
  it('deletes them through etcd (no request), and an Event watcher sees each go', () => {
    const c = createCluster({ seed: 1 });
    deploy(c, 'web');
    c.settle();
    const first = eventKeys(c);
    expect(first.length).toBeGreaterThan(5);
    const w = openWatch(c.world.state, c.world.apiConfig, 'kubectl', 'events', {});
    expect(w.ok).toBe(true);
    c.advance(HOUR - c.now + 1_000); // just past an hour: every lease still has its 60 s reuse margin
    expect(eventKeys(c)).toEqual(expect.arrayContaining(first));
    c.advance(70_000);
    expect(eventKeys(c).filter((k) => first.includes(k))).toEqual([]);
    const deleted = c.world.state.log.filter(
      (r) => r.kind === 'watch' && r.component === 'kubectl' && r.event === 'DELETED',
    );
    expect(deleted.length).toBe(first.length);
    // etcd's lessor did it: no API request deleted an Event
    expect(
      c.world.state.log.some((r) => r.kind === 'request' && r.verb === 'DELETE' && r.path.includes('/events/')),
    ).toBe(false);
  });

  it('keeps events written later, and kubectl get events shows only the last hour', () => {
    const c = createCluster({ seed: 1 });
    deploy(c, 'web');
    c.settle();
    c.advance(40 * 60_000);
    deploy(c, 'api');
    c.settle();
    const late = eventKeys(c).filter((k) => k.includes('/api-'));
    expect(late.length).toBeGreaterThan(0);
    c.advance(30 * 60_000); // 70 minutes in: web's events are gone, api's are 30 minutes old
    const keys = eventKeys(c);
    expect(keys.some((k) => k.includes('/web-'))).toBe(false);
    expect(late.every((k) => keys.includes(k))).toBe(true);
  });

  it('does not expire anything while etcd is down, and gives every Event a fresh hour when it returns', () => {
    const c = createCluster({ seed: 1 });
    deploy(c, 'web');
    c.settle();
    const n = eventKeys(c).length;
    c.advance(50 * 60_000);
    c.controlPlane('stop', 'etcd');
    c.advance(20 * 60_000); // past the TTL, with etcd down
    expect(eventKeys(c).length).toBe(n);
    c.controlPlane('start', 'etcd');
    c.advance(55 * 60_000);
    expect(eventKeys(c).length).toBeGreaterThanOrEqual(n);
    c.advance(10 * 60_000);
    const left = eventKeys(c).filter((k) => k.includes('/web-'));
    expect(left).toEqual([]);
  });

  it('replays to the same store (the leases are plain data in the world state)', () => {
    const c = createCluster({ seed: 1 });
    deploy(c, 'web');
    c.advance(2 * HOUR);
    const again = structuredClone(c.world.state.apiServer.eventLeases);
    expect(again).toEqual(c.world.state.apiServer.eventLeases);
    expect(Object.keys(again?.leases ?? {})).toEqual([]);
  });
});

describe("the scheduler's events.k8s.io Events under the TTL", () => {
  it('a single FailedScheduling expires an hour on; a series lives on, PATCHed again every 30 minutes', () => {
    const c = createCluster({ seed: 1 });
    runScript(
      c,
      [
        'kubectl cordon node-1',
        'kubectl cordon node-2',
        'kubectl cordon node-3',
        'kubectl create deployment big --image=nginx:1.27',
        'sim advance 2h',
      ].join('\n'),
    );
    const failed = Object.values(c.world.state.store.objects.events ?? {}).filter(
      (e) => e.reason === 'FailedScheduling',
    );
    // The first attempt's Event (regarding the pod before its PodScheduled=False patch) was never
    // repeated and is gone; the retries' series is the one left, its count written by the refreshes.
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ reportingComponent: 'default-scheduler', series: { count: expect.any(Number) } });
    const patches = c.world.state.log.filter(
      (r) =>
        r.kind === 'request' &&
        r.component === 'scheduler' &&
        r.verb === 'PATCH' &&
        r.path.startsWith('/apis/events.k8s.io/v1/'),
    );
    expect(patches.map((r) => r.t)).toEqual([660_000, 1_800_000, 3_600_000, 5_400_000, 7_200_000]);
  });
});
