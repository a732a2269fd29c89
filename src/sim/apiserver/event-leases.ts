// The Event TTL at work: each Event write attaches its key to a lease (event-ttl.ts), and etcd's
// lessor deletes the keys of a lease that ran out, which watchers of Events see as DELETED.
import { push } from '../clock.ts';
import { attachKey, extendAll, newEventLeases, revokeExpired, revokeTime } from './event-ttl.ts';
import { API_SERVER, type ApiHost, type ApiServerTimer } from './server.ts';
import { storeDelete } from './store.ts';
import { notifyWatchers } from './watch.ts';

/**
 * An Event was written (created or updated): like the real registry, every write carries the
 * --event-ttl lease, so the Event goes an hour after its last write; a newly granted lease's
 * revocation is queued (as a recurring entry, so settle does not wait an hour for it).
 */
export function leaseEventKey(h: ApiHost, key: string): void {
  const l = (h.apiServer.eventLeases ??= newEventLeases());
  const granted = attachKey(l, key, h.now);
  if (granted !== undefined)
    push(
      h.queue,
      revokeTime(l.leases[granted].expiresAt),
      API_SERVER,
      { type: 'lease-revoke', id: granted } satisfies ApiServerTimer,
      true,
    );
}

/**
 * etcd's lessor revokes an expired lease: the Events still attached are deleted (one revision each
 * here; etcd deletes them in one transaction) and watchers of Events see them go. Not while etcd is
 * down: its return extends every lease (extendEventLeases).
 */
export function revokeEventLease(h: ApiHost, id: number): void {
  const l = h.apiServer.eventLeases;
  if (!l || h.apiServer.faults.etcdDown) return;
  const keys = revokeExpired(l, id, h.now);
  if (!keys) return;
  for (const key of keys) {
    const ev = storeDelete(h.store, 'events', key);
    if (ev) notifyWatchers(h, ev);
  }
}

/** etcd is back (a new leader's lessor.Promote): every Event lease runs its whole TTL again from now. */
export function extendEventLeases(h: ApiHost): void {
  const l = h.apiServer.eventLeases;
  if (!l) return;
  for (const { id, revokeAt } of extendAll(l, h.now))
    push(h.queue, revokeAt, API_SERVER, { type: 'lease-revoke', id } satisfies ApiServerTimer, true);
}
