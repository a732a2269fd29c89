// The request log: one record per API request, watch notification and CRI call (append-only data).
import type { WatchEventType } from './api/watch.ts';
import { flatten } from './util/names.ts';
import { interned } from './request-log-cache.ts';

/** Pipeline stages, in order; a refused request names the stage that refused it. */
export type Stage = 'connection' | 'authentication' | 'authorization' | 'admission' | 'validation' | 'storage';

/** One log record (see NOTES.md, "The request log"). */
export interface RequestRecord {
  /** Simulated ms. */
  t: number;
  component: string;
  kind: 'request' | 'watch' | 'cri';
  /** HTTP method for requests (`GET`, `POST` …, `WATCH` for a watch start), the CRI call name for cri. */
  verb: string;
  path: string;
  /** `<resource>/<ns>/<name>` of the object concerned, when there is one. */
  object?: string;
  /** Store revision after a write, or the event's revision for a watch notification. */
  revision?: number;
  /** HTTP status (0 when the connection was refused). */
  code: number;
  stage?: Stage;
  /** Watch id that received a notification. */
  watcher?: string;
  event?: WatchEventType;
  /** Node a record concerns (binding target, kubelet/CRI node, pod's node). */
  node?: string;
  /** Short error message for refused requests. */
  message?: string;
}

/** The log as plain data. */
export type RequestLog = RequestRecord[];

/** Append a record, dropping undefined fields so the log stays compact and JSON-stable. */
export function appendRecord(log: RequestLog, rec: RequestRecord): RequestRecord {
  let clean = true;
  for (const k in rec)
    if ((rec as unknown as Record<string, unknown>)[k] === undefined) {
      clean = false;
      break;
    }
  if (!clean) {
    const r = {} as Record<string, unknown>;
    for (const [k, v] of Object.entries(rec)) if (v !== undefined) r[k] = v;
    rec = r as unknown as RequestRecord;
  }
  rec.path = flatten(intern(rec.path));
  if (rec.object !== undefined) flatten(rec.object);
  if (rec.message !== undefined) flatten(rec.message);
  log.push(rec);
  return rec;
}

/**
 * Append a record built by the core itself: no undefined fields, and its path and object name
 * already shared and flat (the names cache), so neither the clean-up copy nor interning is needed.
 */
export function appendBuiltRecord(log: RequestLog, rec: RequestRecord): void {
  if (rec.message !== undefined) flatten(rec.message);
  log.push(rec);
}

function intern(s: string): string {
  const hit = interned.get(s);
  if (hit !== undefined) return hit;
  if (interned.size >= 200_000) interned.clear();
  interned.set(s, s);
  return s;
}

/**
 * What woke the writes: pairs (a record's position in the whole log, the position of the watch
 * notification whose delivery started the sync that sent it), in position order. Kept beside the
 * log, not on its records, so the log (and world.hash(), which reads it) is what it was without them.
 */
export type CauseLog = number[];

/** Note that the records at positions [from, to) were caused by the notification at `cause`. */
export function noteCauses(causes: CauseLog, from: number, to: number, cause: number): void {
  for (let seq = from; seq < to; seq++) causes.push(seq, cause);
}

/** The position of the notification that caused the record at `seq`, if one did (binary search over the pairs). */
export function causeOf(causes: readonly number[] | undefined, seq: number): number | undefined {
  if (!causes) return undefined;
  let lo = 0;
  let hi = causes.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (causes[mid * 2] < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo * 2 < causes.length && causes[lo * 2] === seq ? causes[lo * 2 + 1] : undefined;
}

/** Drop the pairs of records before position `first` (the log was trimmed up to it). */
export function trimCauses(causes: CauseLog, first: number): void {
  let n = 0;
  while (n < causes.length && causes[n] < first) n += 2;
  if (n > 0) causes.splice(0, n);
}

/** Records written by one component. */
export function byComponent(log: readonly RequestRecord[], component: string): RequestRecord[] {
  return log.filter((r) => r.component === component);
}

/** Records whose revision is greater than `revision` (writes and notifications since then). */
export function sinceRevision(log: readonly RequestRecord[], revision: number): RequestRecord[] {
  return log.filter((r) => r.revision !== undefined && r.revision > revision);
}

/** Records concerning one node (its kubelet/runtime, or bound/notified about it). */
export function byNode(log: readonly RequestRecord[], node: string): RequestRecord[] {
  return log.filter((r) => r.node === node || r.component.endsWith('/' + node));
}

/** Records at or after simulated time `t` (binary search: the log is in time order). */
export function sinceTime(log: readonly RequestRecord[], t: number): RequestRecord[] {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (log[mid].t < t) lo = mid + 1;
    else hi = mid;
  }
  return log.slice(lo);
}
