// client-go's EventRecorder in miniature: core/v1 Events through the API, with the correlator's
// aggregation (a repeated event bumps `count` instead of creating a new object).
import type { Event as CoreEvent, ObjectReference } from 'kubernetes-types/core/v1';
import { eventName, rfc3339 } from './names.ts';
import type { Ctx } from './world.ts';

/** What the recorder remembers (plain data, kept in the component's state). */
export interface EventRecorderState {
  /** aggregation key → { name, namespace, count }. */
  seen: Record<string, { name: string; namespace: string; count: number }>;
  /** Nanosecond tie-breaker so two events in the same ms get different names. */
  seq: number;
}

/** A new recorder state. */
export function newEventRecorder(): EventRecorderState {
  return { seen: {}, seq: 0 };
}

/** The object an event is about. */
export interface InvolvedObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
}

/**
 * Record an event (`Normal`/`Warning`, reason, message) about `obj`, as component `ctx.name` on `host`;
 * `reportingComponent` overrides the source when it differs from the instance name (the scheduler
 * instance `scheduler` reports as `default-scheduler`, its profile name).
 */
export function recordEvent(ctx: Ctx<unknown>, rec: EventRecorderState, obj: InvolvedObject, type: 'Normal' | 'Warning', reason: string, message: string, host?: string, reportingComponent?: string): void {
  const ns = obj.metadata?.namespace ?? 'default';
  const ref: ObjectReference = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata?.name, namespace: obj.metadata?.namespace, uid: obj.metadata?.uid, resourceVersion: obj.metadata?.resourceVersion };
  const component = reportingComponent ?? ctx.name.split('/')[0];
  const key = [ref.kind, ns, ref.name, ref.uid, type, reason, message, component].join('\u0000');
  const now = rfc3339(ctx.now);
  const prev = rec.seen[key];
  if (prev) {
    const r = ctx.api.patch('events', prev.namespace, prev.name, { count: prev.count + 1, lastTimestamp: now });
    if (r.ok) { prev.count++; return; }
    delete rec.seen[key];
  }
  const name = eventName(ref.name ?? 'unknown', ctx.now, rec.seq++);
  const ev: CoreEvent = {
    apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: ns }, involvedObject: ref, reason, message, type,
    source: host ? { component, host } : { component }, firstTimestamp: now, lastTimestamp: now, count: 1,
    reportingComponent: component, reportingInstance: host ?? '',
  };
  const r = ctx.api.create('events', ev, ns);
  if (r.ok) rec.seen[key] = { name, namespace: ns, count: 1 };
}
