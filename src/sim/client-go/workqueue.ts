// client-go's workqueue (util/workqueue: the rate-limiting queue) and the controllers' worker loop,
// as plain data driven through ctx.
import type { ClientCtx } from '../world.ts';

/** workqueue.RateLimitingInterface as plain data. */
export interface WorkQueue {
  name: string;
  /** FIFO of keys waiting (from `head`). */
  queue: string[];
  head: number;
  dirty: Record<string, true>;
  processing: Record<string, true>;
  /** Per-key failure counts for the exponential rate limiter. */
  failures: Record<string, number>;
  /**
   * Not client-go's: for a waiting key, the log position of the watch notification whose handler
   * first added it since it was last taken (a later add is deduped, so it keeps the first); for a
   * key being processed, the one it was taken with. Keys added by a timer or a resync have none.
   */
  causes?: Record<string, number>;
  /** The causes of the keys being processed (see `causes`). */
  takenCauses?: Record<string, number>;
}

/** A new work queue. */
export function newWorkQueue(name: string): WorkQueue {
  return { name, queue: [], head: 0, dirty: {}, processing: {}, failures: {} };
}

/**
 * Add: a key already waiting is not added twice; a key being processed is re-queued on done.
 * `cause` is the watch notification whose handler adds it (ClientCtx.notification), kept for the first add.
 */
export function add(q: WorkQueue, key: string, cause?: number): void {
  if (q.dirty[key]) return;
  q.dirty[key] = true;
  if (cause !== undefined) (q.causes ??= {})[key] = cause;
  if (q.processing[key]) return;
  q.queue.push(key);
}

/** Number of keys waiting. */
export function len(q: WorkQueue): number {
  return q.queue.length - q.head;
}

/** Get the next key (marks it processing); undefined when empty. */
export function get(q: WorkQueue): string | undefined {
  if (q.head >= q.queue.length) return undefined;
  const key = q.queue[q.head++];
  if (q.head > 1024 && q.head * 2 > q.queue.length) {
    q.queue = q.queue.slice(q.head);
    q.head = 0;
  }
  q.processing[key] = true;
  delete q.dirty[key];
  takeCause(q, key);
  return key;
}

// The key is taken: its waiting cause becomes the cause of the sync (or none, when it had none).
function takeCause(q: WorkQueue, key: string): void {
  const cause = q.causes?.[key];
  if (cause !== undefined) {
    delete q.causes![key];
    (q.takenCauses ??= {})[key] = cause;
  } else if (q.takenCauses?.[key] !== undefined) delete q.takenCauses[key];
}

/** The notification that woke the sync of a key being processed (its log position), if one did. */
export function causeOfKey(q: WorkQueue, key: string): number | undefined {
  return q.takenCauses?.[key];
}

/** Done: the key is no longer processing; re-queued if it was added meanwhile. */
export function done(q: WorkQueue, key: string): void {
  delete q.processing[key];
  if (q.takenCauses?.[key] !== undefined) delete q.takenCauses[key];
  if (q.dirty[key]) q.queue.push(key);
}

/** The timer event behind addAfter. */
export interface WorkQueueAdd {
  type: 'workqueue-add';
  queue: string;
  key: string;
}

/** AddAfter: queue the key after `ms` of simulated time. */
export function addAfter(ctx: ClientCtx, q: WorkQueue, key: string, ms: number): void {
  if (ms <= 0) {
    add(q, key);
    return;
  }
  ctx.schedule(ms, { type: 'workqueue-add', queue: q.name, key } satisfies WorkQueueAdd);
}

/** ItemExponentialFailureRateLimiter: 5 ms × 2^failures, capped at 1000 s. */
export function rateLimiterWhen(q: WorkQueue, key: string, baseMs = 5, maxMs = 1_000_000): number {
  const n = q.failures[key] ?? 0;
  q.failures[key] = n + 1;
  return Math.min(baseMs * 2 ** n, maxMs);
}

/** AddRateLimited: requeue after the key's current backoff. */
export function addRateLimited(ctx: ClientCtx, q: WorkQueue, key: string): number {
  const d = rateLimiterWhen(q, key);
  addAfter(ctx, q, key, d);
  return d;
}

/** Forget: reset the key's failure count (after a successful sync). */
export function forget(q: WorkQueue, key: string): void {
  delete q.failures[key];
}

/** NumRequeues for a key. */
export function numRequeues(q: WorkQueue, key: string): number {
  return q.failures[key] ?? 0;
}

/** Handle a `workqueue-add` timer event for this queue; true if consumed. */
export function workQueueHandle(q: WorkQueue, event: unknown): boolean {
  const ev = event as WorkQueueAdd;
  if (ev?.type !== 'workqueue-add' || ev.queue !== q.name) return false;
  add(q, ev.key);
  return true;
}

/**
 * Outcome of a sync: true/undefined = done (forget the key), false = failed (requeue with backoff),
 * SYNC_WAITING = still running (its requests wait on the client's rate limiter): the key stays
 * processing until the sync calls finishSync.
 */
export type SyncResult = boolean | void | typeof SYNC_WAITING;

/** A sync that is blocked in its client's rate limiter (see SyncResult). */
export const SYNC_WAITING = 'waiting';

/** The end of processNextWorkItem for a key: forget it or requeue it rate-limited, then done. */
export function finishSync(ctx: ClientCtx, q: WorkQueue, key: string, ok: boolean | void): void {
  if (ok === false) addRateLimited(ctx, q, key);
  else forget(q, key);
  done(q, key);
}

/** processNextWorkItem: get one key, run the sync handler, forget or requeue rate-limited, done. */
function processNextWorkItem(ctx: ClientCtx, q: WorkQueue, syncHandler: (key: string) => SyncResult): boolean {
  const key = get(q);
  if (key === undefined) return false;
  const ok = syncWithCause(ctx, q, key, syncHandler);
  if (ok !== SYNC_WAITING) finishSync(ctx, q, key, ok);
  return true;
}

/**
 * Run `sync(key)` for a key being processed with ClientCtx.cause set to the notification that woke it
 * (none for a timer's or a resync's key), so its requests are noted as caused by it; a sync that
 * waited (SYNC_WAITING) resumes through here too.
 */
export function syncWithCause<R>(ctx: ClientCtx, q: WorkQueue, key: string, sync: (key: string) => R): R {
  const cause = q.takenCauses?.[key];
  if (cause === undefined) return sync(key);
  ctx.cause = cause;
  try {
    return sync(key);
  } finally {
    ctx.cause = undefined;
  }
}

/** Run the worker until the queue is empty (the model's workers are synchronous); returns syncs run. */
export function drainQueue(ctx: ClientCtx, q: WorkQueue, syncHandler: (key: string) => SyncResult): number {
  let n = 0;
  while (processNextWorkItem(ctx, q, syncHandler)) n++;
  return n;
}
