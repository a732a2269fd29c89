// How a reader moves through a figure: which records are a change a reader would care about (what
// "Next event that matters" stops at), what a jump passed over (said in the narration), and whether
// anything that matters lies ahead at all (the cluster at rest, where Play stops).
import { peek } from '../clock.ts';
import type { RequestRecord } from '../request-log.ts';
import { deepEqual } from '../util/names.ts';
import { historyAt, isHeartbeat } from '../view/records.ts';
import { count } from '../view/words.ts';
import { logCount, type World, type WorldState } from '../world.ts';
import { setOf } from '../util/table.ts';

/** What the narration says when the cluster is at rest. */
export const REST_SENTENCE = 'The cluster matches what you asked for; nothing happens until you change something.';

/** Events a look ahead may process before it gives up (and calls the cluster busy): a budget, never reached by a figure. */
const LOOKAHEAD_EVENTS = 200_000;

/** Resources whose writes are bookkeeping: Events, and Leases (kubelets' heartbeats, leader election). */
const QUIET_RESOURCES = setOf(['events', 'leases']);

/**
 * Whether a request-log record is a change a reader would care about: an object created or deleted
 * (Events and Leases aside), a pod bound or changing phase, readiness, conditions or containers, a
 * node's conditions, taints or cordon, an object's spec (its generation). Reads, watch notifications
 * (they echo a write), CRI calls, refused writes and status writes that change none of these do not.
 */
function recordMatters(state: WorldState, rec: RequestRecord): boolean {
  if (rec.kind !== 'request' || rec.revision === undefined || rec.code >= 300) return false;
  const e = historyAt(state.store.history, rec.revision);
  // Compacted away: only the verb is left to tell a creation or a deletion.
  if (!e)
    return (rec.verb === 'POST' || rec.verb === 'DELETE') && !QUIET_RESOURCES.has((rec.object ?? '').split('/')[0]);
  if (QUIET_RESOURCES.has(e.resource)) return false;
  if (e.type !== 'MODIFIED' || !e.prev) return true;
  const a = e.prev as Unstructured;
  const b = e.object as Unstructured;
  if (!a.metadata?.deletionTimestamp !== !b.metadata?.deletionTimestamp) return true;
  if (e.resource === 'pods') return podChanged(a, b);
  if (e.resource === 'nodes') return !deepEqual(a.spec, b.spec) || conditionsOf(a) !== conditionsOf(b);
  // An EndpointSlice follows its pods' readiness (its generation counts every write): derived, not news.
  if (e.resource === 'endpointslices') return false;
  if (a.metadata?.generation !== undefined || b.metadata?.generation !== undefined)
    return a.metadata?.generation !== b.metadata?.generation;
  return !rec.path.split('?')[0].endsWith('/status');
}

/** Whether any record in log positions [from, to) matters (positions as logCount counts them). */
export function mattersBetween(state: WorldState, from: number, to: number): boolean {
  const dropped = state.logDropped ?? 0;
  for (let seq = Math.max(from, dropped); seq < to && seq - dropped < state.log.length; seq++)
    if (recordMatters(state, state.log[seq - dropped])) return true;
  return false;
}

/** What a jump passed over: the informers' initial lists, heartbeats, and everything else. */
interface Skipped {
  /** Notifications of streaming initial lists: the ADDED events before a watch's BOOKMARK, and the BOOKMARK. */
  listing: number;
  heartbeats: number;
  other: number;
}

/** Counts the records in log positions [from, to) by what they were. */
export function skippedOf(state: WorldState, from: number, to: number): Skipped {
  const dropped = state.logDropped ?? 0;
  const recs = state.log.slice(Math.max(0, from - dropped), Math.max(0, to - dropped));
  // A watch's ADDED notifications before its BOOKMARK are its initial list (sendInitialEvents).
  const bookmarked = new Set<string>();
  const s: Skipped = { listing: 0, heartbeats: 0, other: 0 };
  for (let i = recs.length - 1; i >= 0; i--) {
    const r = recs[i];
    const listing =
      r.kind === 'watch' &&
      r.watcher !== undefined &&
      (r.event === 'BOOKMARK' || (r.event === 'ADDED' && bookmarked.has(r.watcher)));
    if (r.kind === 'watch' && r.event === 'BOOKMARK' && r.watcher !== undefined) bookmarked.add(r.watcher);
    if (listing) s.listing++;
    else if (isHeartbeat(state, r)) s.heartbeats++;
    else s.other++;
  }
  return s;
}

/** Every record in log positions [from, to) is a watch's ADDED or BOOKMARK notification (what an initial list is made of), and there is one at least. */
export function notificationsOnly(state: WorldState, from: number, to: number): boolean {
  const dropped = state.logDropped ?? 0;
  const recs = state.log.slice(Math.max(0, from - dropped), Math.max(0, to - dropped));
  return (
    recs.length > 0 &&
    recs.every((r) => r.kind === 'watch' && r.watcher !== undefined && (r.event === 'ADDED' || r.event === 'BOOKMARK'))
  );
}

/**
 * Where a run of informers' start-up lists can be said as one step: of the log positions `ends`
 * (ascending, each after `from`), the last at which every watch's ADDED notifications since `from`
 * have been closed by that watch's BOOKMARK, and how many notifications lie before it. One scan.
 */
export function lastWholeListEnd(
  state: WorldState,
  from: number,
  ends: readonly number[],
): { index: number; notifications: number } {
  const dropped = state.logDropped ?? 0;
  const open = new Set<string>();
  let found = { index: -1, notifications: 0 };
  let count = 0;
  let pos = from;
  for (let i = 0; i < ends.length; i++) {
    for (; pos < ends[i]; pos++) {
      const r = state.log[pos - dropped];
      if (!r) continue;
      count++;
      if (r.kind !== 'watch' || r.watcher === undefined) continue;
      if (r.event === 'ADDED') open.add(r.watcher);
      else if (r.event === 'BOOKMARK') open.delete(r.watcher);
    }
    if (open.size === 0) found = { index: i, notifications: count };
  }
  return found;
}

/** A span of simulated time as the narration says it: "300 ms", "12 s", "4 min 10 s", "2 h 5 min". */
export function spanText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  const m = Math.round(s / 60);
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`;
}

/** The narration's sentence for a jump of "Next event that matters": what it passed over and how long it waited. */
export function skippedSentence(s: Skipped, ms: number): string | null {
  const parts: string[] = [];
  if (s.listing) parts.push(`Every component lists what exists: ${count(s.listing, 'notification')}.`);
  const rest = [
    s.heartbeats ? count(s.heartbeats, 'heartbeat') : '',
    s.other ? count(s.other, s.listing || s.heartbeats ? 'other record' : 'record') : '',
  ]
    .filter(Boolean)
    .join(' and ');
  if (ms >= 1000) parts.push(rest ? `${spanText(ms)} later (skipped: ${rest}).` : `${spanText(ms)} later.`);
  else if (rest) parts.push(`Skipped: ${rest}.`);
  return parts.length ? parts.join(' ') : null;
}

/**
 * Runs the world ahead on a copy of its state for `ms` of simulated time (no input on the way) and
 * returns the world's event count at the first event whose records matter, or null when none does;
 * the world is left exactly as it was (its state a fresh copy of the one it had: read world.state again after).
 */
export function firstMatterAhead(world: World, ms: number): number | null {
  const until = world.state.now + ms;
  const saved = world.snapshot();
  try {
    for (let n = 0; n < LOOKAHEAD_EVENTS; n++) {
      const e = peek(world.state.queue);
      if (!e || e.at > until) return null;
      const from = logCount(world.state);
      world.next();
      if (mattersBetween(world.state, from, logCount(world.state))) return world.state.steps;
    }
    return world.state.steps;
  } finally {
    world.restore(saved);
  }
}

interface Unstructured {
  metadata?: { deletionTimestamp?: string; generation?: number };
  spec?: { nodeName?: string } & Record<string, unknown>;
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: {
      name: string;
      ready?: boolean;
      restartCount?: number;
      state?: Record<string, { reason?: string } | undefined>;
    }[];
  };
}

/** A pod's change a reader sees: bound, phase, conditions, its containers' state, readiness and restarts. */
function podChanged(a: Unstructured, b: Unstructured): boolean {
  if (a.spec?.nodeName !== b.spec?.nodeName || a.status?.phase !== b.status?.phase) return true;
  if (a.metadata?.generation !== b.metadata?.generation) return true;
  return conditionsOf(a, true) !== conditionsOf(b, true) || containersOf(a) !== containersOf(b);
}

/** The conditions' statuses (a pod's with their reasons and messages: why it cannot be scheduled is news). */
function conditionsOf(o: Unstructured, why = false): string {
  return (o.status?.conditions ?? [])
    .map((c) => `${c.type}=${c.status}${why ? `:${c.reason ?? ''}:${c.message ?? ''}` : ''}`)
    .sort()
    .join('\n');
}

function containersOf(o: Unstructured): string {
  return (o.status?.containerStatuses ?? [])
    .map((c) => {
      const state = Object.keys(c.state ?? {})[0] ?? '';
      return `${c.name}:${c.ready ? 1 : 0}:${c.restartCount ?? 0}:${state}:${c.state?.[state]?.reason ?? ''}`;
    })
    .join(',');
}
