// Events expire: the API server writes every Event to etcd with a lease of --event-ttl (1 h), and
// etcd deletes the keys of a lease when it runs out. Pure bookkeeping of the apiserver's
// leaseManager (storage/etcd3/lease_manager.go) and etcd's lessor, as plain data; event-leases.ts
// attaches keys on each write and deletes them when a lease is revoked.

/** kube-apiserver `--event-ttl` default: one hour. */
const EVENT_TTL_SECONDS = 3600;
/** leaseManager: a granted lease is reused for min(60 s, 5 % of the TTL), and granted that much longer. */
const LEASE_REUSE_DURATION_SECONDS = 60;
/** leaseManager's percentage bound on the reuse window (5 %). */
const LEASE_REUSE_DURATION_PERCENT = 0.05;
/** etcd's lessor looks for expired leases every 500 ms (lessor.runLoop). */
const LESSOR_CHECK_MS = 500;

/** One etcd lease: its TTL, when it runs out, and the keys written with it (in order). */
interface EtcdLease {
  ttlMs: number;
  expiresAt: number;
  /** Keys attached at some point; a key that was written again since belongs to its newer lease (see `keyLease`). */
  keys: string[];
}

/** The leases of Event keys (plain data, in the API server's state). */
export interface EventLeases {
  nextId: number;
  /** leaseManager's cached lease (prevLeaseID, prevLeaseExpirationTime). */
  prev?: { id: number; expiresAt: number };
  /** Live leases by id. */
  leases: Record<string, EtcdLease>;
  /** etcd key → the lease it was last written with. */
  keyLease: Record<string, number>;
}

/** No leases yet. */
export function newEventLeases(): EventLeases {
  return { nextId: 1, leases: {}, keyLease: {} };
}

/** The reuse window for a TTL: min(60 s, 5 % of it). */
export function leaseReuseSeconds(ttlSeconds: number): number {
  return Math.min(LEASE_REUSE_DURATION_SECONDS, Math.floor(LEASE_REUSE_DURATION_PERCENT * ttlSeconds));
}

/** When etcd revokes a lease that expires at `expiresAt`: the lessor's first check at or after it. */
export function revokeTime(expiresAt: number): number {
  return Math.ceil(expiresAt / LESSOR_CHECK_MS) * LESSOR_CHECK_MS;
}

/**
 * leaseManager.GetLease then the Put's attach: the key now belongs to the cached lease if it is still
 * reusable (valid for the whole TTL from now), else to a new lease granted TTL + reuse window.
 * Returns the new lease's id when one was granted (the caller schedules its revocation).
 */
export function attachKey(
  l: EventLeases,
  key: string,
  now: number,
  ttlSeconds = EVENT_TTL_SECONDS,
): number | undefined {
  const reuse = leaseReuseSeconds(ttlSeconds);
  const p = l.prev;
  let id: number;
  let granted: number | undefined;
  // Go's "sufficient" test is strict (After), but its clock never reads the same nanosecond twice;
  // this clock has whole milliseconds, and writes in the lease's own millisecond reuse it.
  if (
    p &&
    l.leases[p.id] &&
    now + ttlSeconds * 1000 < p.expiresAt &&
    now + (ttlSeconds + reuse) * 1000 >= p.expiresAt
  ) {
    id = p.id;
  } else {
    id = granted = l.nextId++;
    const ttlMs = (ttlSeconds + reuse) * 1000;
    l.leases[id] = { ttlMs, expiresAt: now + ttlMs, keys: [] };
    l.prev = { id, expiresAt: now + ttlMs };
  }
  if (l.keyLease[key] !== id) {
    l.keyLease[key] = id;
    l.leases[id].keys.push(key);
  }
  return granted;
}

/** A key deleted through the API: it no longer belongs to any lease. */
export function detachKey(l: EventLeases, key: string): void {
  delete l.keyLease[key];
}

/**
 * Revoke lease `id` if it has run out by `now`: it is gone, and the keys still attached to it are
 * returned (in the order they were attached) for the caller to delete. Undefined when the lease is
 * not due (it was extended since this check was scheduled) or already gone.
 */
export function revokeExpired(l: EventLeases, id: number, now: number): string[] | undefined {
  const lease = l.leases[id];
  if (!lease || lease.expiresAt > now) return undefined;
  delete l.leases[id];
  const keys: string[] = [];
  for (const k of lease.keys) {
    if (l.keyLease[k] === id) {
      delete l.keyLease[k];
      keys.push(k);
    }
  }
  return keys;
}

/**
 * etcd came back (a new leader's lessor.Promote): every lease runs for its whole TTL again from now,
 * so nothing expires the moment the store returns. Returns the ids and their new revocation times.
 */
export function extendAll(l: EventLeases, now: number): { id: number; revokeAt: number }[] {
  const out: { id: number; revokeAt: number }[] = [];
  for (const id of Object.keys(l.leases)) {
    const lease = l.leases[id];
    lease.expiresAt = now + lease.ttlMs;
    out.push({ id: Number(id), revokeAt: revokeTime(lease.expiresAt) });
  }
  return out;
}
