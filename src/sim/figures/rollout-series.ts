// The rollout figure's chart data: the Deployment's pods and ready pods against its two bounds over
// the last minutes, read back from etcd's history (every write since the last compaction, each with
// the object before it) and the request log's times. It is a function of the world at the cursor
// alone, so after any seek, step back or fork the chart is exactly that moment's past, with nothing
// kept between views.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { StoreEvent } from '../apiserver/store.ts';
import type { KObject } from '../api/request.ts';
import type { RequestRecord } from '../request-log.ts';
import { COMPACTION_INTERVAL_MS } from '../view/stored.ts';
import { maxSurge, maxUnavailable, specReplicas } from '../controllers/deployment-util.ts';
import type { WorldState } from '../world.ts';

/** How far back the chart reaches: the API server compacts etcd to a revision one interval old, so at least this much history is always there. */
export const SERIES_WINDOW_MS = COMPACTION_INTERVAL_MS;
/** The most points a series carries (a huge Deployment's churn is cut from the front). */
export const SERIES_MAX_POINTS = 400;

/** The Deployment's pods from `t` on (until the next point): live pods, ready ones, and the two bounds then. */
export interface RolloutPoint {
  t: number;
  total: number;
  ready: number;
  /** replicas + maxSurge. */
  atMost: number;
  /** replicas − maxUnavailable. */
  atLeast: number;
}

/** A stretch of time during which the Deployment existed: its points as a step function, ending at `until`. */
interface RolloutSegment {
  points: RolloutPoint[];
  until: number;
}

/** The chart's data: the time span it covers and the stretches with a Deployment in it. */
export interface RolloutSeries {
  from: number;
  to: number;
  segments: RolloutSegment[];
}

type Counts = { total: number; ready: number };
type Value = Omit<RolloutPoint, 't'>;

/** The Deployment `namespace/name`'s pods and bounds over the last SERIES_WINDOW_MS before the world's present. */
export function rolloutSeries(
  w: Pick<WorldState, 'store' | 'log' | 'now'>,
  namespace: string,
  name: string,
): RolloutSeries {
  const depKey = `/registry/deployments/${namespace}/${name}`;
  const rsPrefix = `/registry/replicasets/${namespace}/`;
  const podPrefix = `/registry/pods/${namespace}/`;
  const to = w.now;
  const from = Math.max(0, to - SERIES_WINDOW_MS);

  // The objects as they are now; walking the history backwards undoes one write at a time.
  let dep = w.store.objects.deployments?.[depKey] as Deployment | undefined;
  const rss = new Map<string, ReplicaSet>();
  for (const [k, o] of Object.entries(w.store.objects.replicasets ?? {}))
    if (k.startsWith(rsPrefix)) rss.set(k, o as ReplicaSet);
  const counts = new Map<string, Counts>();
  const count = (o: KObject | undefined, sign: 1 | -1): void => {
    const p = o as Pod | undefined;
    if (!p || p.metadata?.deletionTimestamp) return;
    const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? 1 : 0;
    for (const ref of p.metadata?.ownerReferences ?? []) {
      const c = counts.get(ref.uid) ?? { total: 0, ready: 0 };
      c.total += sign;
      c.ready += sign * ready;
      counts.set(ref.uid, c);
    }
  };
  for (const [k, o] of Object.entries(w.store.objects.pods ?? {})) if (k.startsWith(podPrefix)) count(o, 1);

  const valueNow = (): Value | null => {
    if (!dep) return null;
    const uid = dep.metadata?.uid;
    let total = 0;
    let ready = 0;
    for (const rs of rss.values()) {
      if (!rs.metadata?.ownerReferences?.some((o) => o.kind === 'Deployment' && o.name === name && o.uid === uid))
        continue;
      const c = counts.get(rs.metadata.uid ?? '');
      if (c) {
        total += c.total;
        ready += c.ready;
      }
    }
    const replicas = specReplicas(dep);
    return { total, ready, atMost: replicas + maxSurge(dep), atLeast: replicas - maxUnavailable(dep) };
  };

  const timeOf = writeTimes(w.log, from);
  // Changes newest first: the value from time t on (null: no Deployment then).
  const changes: { t: number; v: Value | null }[] = [];
  let later = to;
  let reached = false;
  const h = w.store.history;
  for (let i = h.length - 1; i >= 0; i--) {
    const ev = h[i];
    if (
      !(ev.resource === 'deployments'
        ? ev.key === depKey
        : ev.resource === 'replicasets'
          ? ev.key.startsWith(rsPrefix)
          : ev.resource === 'pods' && ev.key.startsWith(podPrefix))
    )
      continue;
    // Older than every write the log shows from before the window: before the window too.
    if (timeOf.before !== null && ev.revision < timeOf.before) {
      reached = true;
      break;
    }
    // A write with no request record (none is expected) is dated by the next one after it.
    const t = Math.min(timeOf.times.get(ev.revision) ?? later, later);
    later = t;
    if (t <= from) {
      reached = true;
      break;
    }
    changes.push({ t, v: valueNow() });
    undo(ev);
  }
  // The value before the oldest change walked holds from the window's start when the history holds
  // every write since then (it starts at the empty store, or at or before the last write before the
  // window), else only from the compaction it starts after.
  const whole =
    w.store.compactedRevision === 0 || (timeOf.before !== null && w.store.compactedRevision <= timeOf.before);
  const start = reached || whole ? from : Math.max(from, timeOf.times.get(w.store.compactedRevision) ?? later);
  changes.push({ t: start, v: valueNow() });
  return { from: start, to, segments: segmentsOf(changes.reverse(), to) };

  function undo(ev: StoreEvent): void {
    const before = ev.type === 'ADDED' ? undefined : ev.prev;
    const after = ev.type === 'DELETED' ? undefined : ev.object;
    if (ev.resource === 'pods') {
      count(after, -1);
      count(before, 1);
    } else if (ev.resource === 'replicasets') {
      if (before) rss.set(ev.key, before as ReplicaSet);
      else rss.delete(ev.key);
    } else dep = before as Deployment | undefined;
  }
}

/**
 * Simulated time of each write's revision (the first request record carrying it), back to the
 * first write before `from`, whose revision is `before` (null when the log does not reach back so far).
 */
function writeTimes(
  log: readonly RequestRecord[],
  from: number,
): { times: Map<number, number>; before: number | null } {
  const times = new Map<number, number>();
  for (let i = log.length - 1; i >= 0; i--) {
    const r = log[i];
    if (r.kind !== 'request' || r.revision === undefined || r.verb === 'GET' || r.verb === 'WATCH') continue;
    times.set(r.revision, r.t);
    if (r.t < from) return { times, before: r.revision };
  }
  return { times, before: null };
}

/** Oldest-first changes into stretches with a Deployment: equal neighbours merged, a later change at the same ms wins, the newest points kept. */
export function segmentsOf(changes: readonly { t: number; v: Value | null }[], to: number): RolloutSegment[] {
  const segments: RolloutSegment[] = [];
  let open: RolloutSegment | null = null;
  for (const { t, v } of changes) {
    if (!v) {
      if (open) {
        open.until = t;
        segments.push(open);
        open = null;
      }
      continue;
    }
    open ??= { points: [], until: to };
    const pts: RolloutPoint[] = open.points;
    const last = pts[pts.length - 1];
    if (last && last.t === t) pts.pop();
    const prev = pts[pts.length - 1];
    if (
      prev &&
      prev.total === v.total &&
      prev.ready === v.ready &&
      prev.atMost === v.atMost &&
      prev.atLeast === v.atLeast
    )
      continue;
    pts.push({ t, ...v });
  }
  if (open) segments.push(open);
  // Bounded: drop the oldest points (and stretches) beyond the limit.
  let n = 0;
  for (let i = segments.length - 1; i >= 0; i--) {
    n += segments[i].points.length;
    if (n > SERIES_MAX_POINTS) {
      const keep = segments[i].points.length - (n - SERIES_MAX_POINTS);
      segments[i].points = segments[i].points.slice(segments[i].points.length - keep);
      return segments.slice(i).filter((s) => s.points.length > 0);
    }
  }
  return segments.filter((s) => s.points.length > 0);
}
