// client-go's tools/events in miniature: the events.k8s.io/v1 recorder kube-scheduler uses (the
// other components keep tools/record, see record.ts). An event is POSTed; an isomorphic
// one (same type, action, reason, reporting controller and instance, regarding and related
// objects, whatever its note) turns the cached Event into a series: the first repeat PATCHes
// `series {count: 2, lastObservedTime}`, later ones only count in the cache, and the broadcaster's
// two loops write the count: finishSeries every 6 minutes (a series quiet for 6 minutes is written
// and forgotten, a single event older than 6 minutes forgotten) and refreshExistingEventSeries
// every 30 minutes (every series written again, which keeps its Event within the TTL).
import type { ObjectReference } from 'kubernetes-types/core/v1';
import { EVENTS_GROUP, EVENTS_GROUP_VERSION } from '../api/resources.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { InvolvedObject } from './record.ts';
import { eventName, microTime } from '../util/names.ts';
import type { ClientCtx } from '../world.ts';

/** event_broadcaster.go's finishTime: a series (or a single event) this quiet is done. */
const FINISH_TIME_MS = 6 * 60_000;
/** event_broadcaster.go's refreshTime: how often every series is written again. */
const REFRESH_TIME_MS = 30 * 60_000;

/** One cached Event (the eventCache's value) under its isomorphic key. */
interface CachedEvent {
  key: string;
  /** The events.k8s.io/v1 Event as first sent (series added as it repeats). */
  event: Unstructured;
  /** Its eventTime, or its series' lastObservedTime once it has one (simulated ms). */
  last: number;
}

/** The broadcaster's state (plain data): the eventCache in insertion order, and the name sequence. */
export interface EventBroadcasterState {
  /** NewRecorder's reportingController and reportingInstance (`<controller>-<hostname>`). */
  reportingController: string;
  reportingInstance: string;
  cache: CachedEvent[];
  /** Nanosecond tie-breaker so two events in the same ms get different names. */
  seq: number;
}

/** The broadcaster's timer events, for the owning component to schedule and hand back. */
export type EventBroadcasterTimer = { type: 'events-finish-series' } | { type: 'events-refresh-series' };

/** NewBroadcaster + NewRecorder(scheme, reportingController) on `hostname`. */
export function newEventBroadcaster(reportingController: string, hostname: string): EventBroadcasterState {
  return { reportingController, reportingInstance: `${reportingController}-${hostname}`, cache: [], seq: 0 };
}

/**
 * StartRecordingToSinkWithContext: the two loops (wait.UntilWithContext: the first run at once,
 * with nothing cached yet, then one each period).
 */
export function startRecordingToSink(ctx: ClientCtx): void {
  ctx.schedule(FINISH_TIME_MS, { type: 'events-finish-series' } satisfies EventBroadcasterTimer, { recurring: true });
  ctx.schedule(REFRESH_TIME_MS, { type: 'events-refresh-series' } satisfies EventBroadcasterTimer, { recurring: true });
}

/** Handle one of the broadcaster's timers (true when `event` was one), scheduling the next. */
export function handleBroadcasterTimer(ctx: ClientCtx, b: EventBroadcasterState, event: unknown): boolean {
  const t = (event as EventBroadcasterTimer | undefined)?.type;
  if (t === 'events-finish-series') {
    finishSeries(ctx, b);
    ctx.schedule(FINISH_TIME_MS, event, { recurring: true });
    return true;
  }
  if (t === 'events-refresh-series') {
    refreshExistingEventSeries(ctx, b);
    ctx.schedule(REFRESH_TIME_MS, event, { recurring: true });
    return true;
  }
  return false;
}

/** GetReference: the reference an event carries to an object. */
function referenceOf(obj: InvolvedObject): ObjectReference {
  const m = obj.metadata;
  const ref: ObjectReference = {
    kind: obj.kind,
    namespace: m?.namespace,
    name: m?.name,
    uid: m?.uid,
    apiVersion: obj.apiVersion,
    resourceVersion: m?.resourceVersion,
  };
  if (obj.fieldPath !== undefined) ref.fieldPath = obj.fieldPath;
  return ref;
}

/**
 * recorder.Eventf(regarding, related, type, reason, action, note) and the broadcaster's
 * recordToSink: a new Event is POSTed, the first repeat PATCHes its series, later repeats count.
 * `once`: an event that can never repeat (the scheduler's Scheduled: a pod is bound once) is sent
 * without the cache entry finishSeries would forget unused.
 */
export function eventf(
  ctx: ClientCtx,
  b: EventBroadcasterState,
  regarding: InvolvedObject,
  related: InvolvedObject | undefined,
  type: 'Normal' | 'Warning',
  reason: string,
  action: string,
  note: string,
  once = false,
): void {
  const reg = referenceOf(regarding);
  const rel = related && referenceOf(related);
  // getKey: type, action, reason, the references (one recorder: one controller and instance).
  const key = once ? '' : JSON.stringify([type, action, reason, reg, rel]);
  const cached = once ? undefined : b.cache.find((c) => c.key === key);
  if (cached) {
    const series = cached.event.series as { count: number } | undefined;
    cached.event.series = { count: series ? series.count + 1 : 2, lastObservedTime: microTime(ctx.now) };
    cached.last = ctx.now;
    if (!series) recordEvent(ctx, cached.event);
    return;
  }
  const event: Unstructured = {
    apiVersion: EVENTS_GROUP_VERSION,
    kind: 'Event',
    metadata: { name: eventName(reg.name ?? '', ctx.now, b.seq++), namespace: reg.namespace || 'default' },
    eventTime: microTime(ctx.now),
    reportingController: b.reportingController,
    reportingInstance: b.reportingInstance,
    action,
    reason,
    regarding: reg,
    related: rel,
    note,
    type,
    // Go's JSON writes the zero struct and times it has no value for.
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  };
  if (!once) b.cache.push({ key, event, last: ctx.now });
  recordEvent(ctx, event);
}

/**
 * recordEvent: a series is PATCHed (the two-way strategic merge patch from the Event without its
 * series: the series alone), and POSTed when the Event is gone; a single event is POSTed. True when
 * client-go would try again: the server was not reached, or a series' POST found the Event back.
 * (Those retries, 12 of them 10 s apart, are not made here: the event is dropped.)
 */
function recordEvent(ctx: ClientCtx, event: Unstructured): boolean {
  const md = event.metadata as { name: string; namespace: string };
  const series = event.series !== undefined;
  if (series) {
    const r = ctx.api.request({
      verb: 'patch',
      resource: 'events',
      group: EVENTS_GROUP,
      namespace: md.namespace,
      name: md.name,
      body: { series: event.series },
    });
    if (r.ok) return false;
    if (r.code !== 404) return r.code === 0;
  }
  const r = ctx.api.request({
    verb: 'create',
    resource: 'events',
    group: EVENTS_GROUP,
    namespace: md.namespace,
    body: event,
  });
  return !r.ok && (r.code === 0 || (series && r.code === 409));
}

/** finishSeries: a series quiet for finishTime is written a last time and forgotten; so is a single event that old. */
function finishSeries(ctx: ClientCtx, b: EventBroadcasterState): void {
  const before = ctx.now - FINISH_TIME_MS;
  b.cache = b.cache.filter((c) => !(c.last < before && !(c.event.series && recordEvent(ctx, c.event))));
}

/** refreshExistingEventSeries: every series written again (its Event's TTL starts over). */
function refreshExistingEventSeries(ctx: ClientCtx, b: EventBroadcasterState): void {
  for (const c of b.cache) if (c.event.series) recordEvent(ctx, c.event);
}
