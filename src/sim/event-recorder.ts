// client-go's EventRecorder in miniature: core/v1 Events through the API, with the correlator's
// aggregation (a repeated event bumps `count` instead of creating a new object).
import type { Event as CoreEvent, ObjectReference } from 'kubernetes-types/core/v1';
import { eventName, rfc3339 } from './names.ts';
import type { Ctx } from './world.ts';

/** One aggregated event: its correlation key and the Event object it was written as. */
export interface SeenEvent { key: string; name: string; namespace: string; count: number }

/** What the recorder remembers (plain data, kept in the component's state). */
export interface EventRecorderState {
  /**
   * aggregated events, oldest first (a list, not a record keyed by the long correlation key: see
   * seenIndex). A record key → entry (the older shape, or a throwaway `{}`) is still understood.
   */
  seen: SeenEvent[] | Record<string, { name: string; namespace: string; count: number }>;
  /** Nanosecond tie-breaker so two events in the same ms get different names. */
  seq: number;
}

/** A new recorder state. */
export function newEventRecorder(): EventRecorderState {
  return { seen: [], seq: 0 };
}

/**
 * seen list → key → entry. Behaviour-side (rebuilt from the list after a restore): nearly every key is
 * new, and a record keyed by it made V8 internalise each long key string on every lookup and store.
 */
const seenIndex = new WeakMap<SeenEvent[], Map<string, SeenEvent>>();

function indexOf(seen: SeenEvent[]): Map<string, SeenEvent> {
  let m = seenIndex.get(seen);
  if (!m) {
    m = new Map();
    for (const e of seen) m.set(e.key, e);
    seenIndex.set(seen, m);
  }
  return m;
}

const componentOfName = new Map<string, string>();

/** The source component of an instance name (`kubelet/node-1` → `kubelet`). */
function componentOf(instance: string): string {
  let c = componentOfName.get(instance);
  if (c === undefined) {
    c = instance.split('/')[0];
    if (componentOfName.size >= 65536) componentOfName.clear();
    componentOfName.set(instance, c);
  }
  return c;
}

// Events come in bursts at the same ms: remember the last timestamp string.
let lastMs = NaN;
let lastRfc = '';
function rfc3339At(ms: number): string {
  if (ms !== lastMs) { lastRfc = rfc3339(ms); lastMs = ms; }
  return lastRfc;
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
  const component = reportingComponent ?? componentOf(ctx.name);
  // The correlator's key, as join('\u0000') made it (undefined parts are empty).
  const key = `${ref.kind ?? ''}\u0000${ns}\u0000${ref.name ?? ''}\u0000${ref.uid ?? ''}\u0000${type}\u0000${reason}\u0000${message}\u0000${component}`;
  const now = rfc3339At(ctx.now);
  const seen = rec.seen;
  const list = Array.isArray(seen) ? seen : undefined;
  const index = list && indexOf(list);
  const prev = index ? index.get(key) : (seen as Record<string, SeenEvent>)[key];
  if (prev) {
    const r = ctx.api.patch('events', prev.namespace, prev.name, { count: prev.count + 1, lastTimestamp: now });
    if (r.ok) { prev.count++; return; }
    if (list) { index!.delete(key); list.splice(list.indexOf(prev), 1); } else delete (seen as Record<string, SeenEvent>)[key];
  }
  const name = eventName(ref.name ?? 'unknown', ctx.now, rec.seq++);
  const ev: CoreEvent = {
    apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: ns }, involvedObject: ref, reason, message, type,
    source: host ? { component, host } : { component }, firstTimestamp: now, lastTimestamp: now, count: 1,
    reportingComponent: component, reportingInstance: host ?? '',
  };
  const r = ctx.api.create('events', ev, ns);
  if (!r.ok) return;
  if (list) {
    const entry = { key, name, namespace: ns, count: 1 };
    list.push(entry);
    index!.set(key, entry);
  } else (seen as Record<string, unknown>)[key] = { name, namespace: ns, count: 1 };
}
