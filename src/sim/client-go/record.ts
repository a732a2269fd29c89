// client-go's EventRecorder in miniature (tools/record): core/v1 Events through the API, with the
// correlator's aggregation (a repeated event bumps `count` instead of creating a new object). Every
// component records this way but the scheduler's framework, which has tools/events'
// events.k8s.io/v1 recorder (events.ts); its leader election still uses this one.
import type { Event as CoreEvent, ObjectReference } from 'kubernetes-types/core/v1';
import { newDict } from '../util/dict.ts';
import { eventName, flatten, rfc3339 } from '../util/names.ts';
import type { ClientCtx } from '../world.ts';
import { componentOfName, seenIndex, warningKeys } from './record-cache.ts';
import { lastCall } from '../util/memo.ts';

/**
 * One aggregated event: the correlator's key fields (undefined ones as '') and the Event object it
 * was written as.
 */
export interface SeenEvent {
  kind: string;
  namespace: string;
  object: string;
  uid: string;
  type: string;
  reason: string;
  message: string;
  component: string;
  /** the Event's name */
  name: string;
  count: number;
}

/** What the recorder remembers (plain data, kept in the component's state). */
export interface EventRecorderState {
  /**
   * aggregated events, least recently used first, at most EVENT_CACHE_ENTRIES (a list searched through seenIndex). A record joined key → entry
   * (the older shape) is still understood, and an empty one (a throwaway `{}`) becomes a list.
   */
  seen: SeenEvent[] | Record<string, { name: string; namespace: string; count: number }>;
  /** Nanosecond tie-breaker so two events in the same ms get different names. */
  seq: number;
  /** The correlator's aggregator and spam filter (absent until the first event; see correlate). */
  correlator?: CorrelatorState;
}

/**
 * client-go's EventAggregator and EventSourceObjectSpamFilter, as plain data: one entry per object
 * the recorder has spoken about (an LRU of 4,096, where client-go keeps one LRU per part).
 */
interface CorrelatorState {
  /** The object's uid (or its source and names when it has none) → what the correlator knows of it. */
  objects: Record<string, CorrelatedObject>;
  size: number;
  /** Use counter: an entry's `used` is the count at its last use, so the least recently used has the lowest. */
  uses: number;
}

/** The spam filter's token bucket for one object, and its similar-event records by type and reason. */
interface CorrelatedObject {
  used: number;
  tokens: number;
  /** When `tokens` was counted (simulated ms). */
  tokensAt: number;
  /** `reason` (Normal) or `Warning:reason` → the distinct messages (one, or a list) and when the last came. */
  similar: Record<string, { messages: string | string[]; last: number }>;
}

/** EventAggregator: this many distinct messages of one kind within the interval become one Event. */
const EVENT_AGGREGATE_MAX_EVENTS = 10;
/** EventAggregator: a similar event older than this starts a fresh record (10 minutes). */
export const EVENT_AGGREGATE_INTERVAL_MS = 600_000;
/** EventSourceObjectSpamFilter: events a source may send about one object at once. */
export const EVENT_SPAM_BURST = 25;
/** EventSourceObjectSpamFilter: the refill, one event per 5 minutes. */
const EVENT_SPAM_QPS = 1 / 300;
/** The message prefix of an aggregated Event (EventAggregatorByReasonMessageFunc). */
export const COMBINED_PREFIX = '(combined from similar events): ';
// The eventLogger keys an aggregate Event by its aggregate key, not its message: entries for it carry this.
const AGGREGATE_ENTRY = '\u0000aggregate';

function newCorrelator(): CorrelatorState {
  return { objects: newDict(), size: 0, uses: 0 };
}

/** The correlator's entry for an object, made (and the least recently used dropped past 4,096) as needed. */
function correlatedObject(c: CorrelatorState, key: string, now: number): CorrelatedObject {
  let o = c.objects[key];
  if (!o) {
    o = { used: 0, tokens: EVENT_SPAM_BURST, tokensAt: now, similar: {} };
    if (++c.size > EVENT_CACHE_ENTRIES) {
      // Rare (a recorder about more than 4,096 objects): one scan for the oldest use, instead of
      // moving every entry on every use.
      let oldest: string | undefined;
      let min = Infinity;
      for (const k in c.objects)
        if (c.objects[k].used < min) {
          min = c.objects[k].used;
          oldest = k;
        }
      delete c.objects[oldest!];
      c.size--;
    }
    c.objects[key] = o;
  }
  o.used = ++c.uses;
  return o;
}

/**
 * EventAggregate: record `message` among the object's similar events (same type and reason); true
 * when this event is to be aggregated (the tenth distinct message within 10 minutes of the last one).
 */
function aggregateSimilar(o: CorrelatedObject, kind: string, message: string, now: number): boolean {
  const r = o.similar[kind];
  if (!r) {
    o.similar[kind] = { messages: message, last: now };
    return false;
  }
  if (now - r.last > EVENT_AGGREGATE_INTERVAL_MS) r.messages = message;
  else if (typeof r.messages === 'string') {
    if (r.messages !== message) r.messages = [r.messages, message];
  } else if (!r.messages.includes(message)) r.messages.push(message);
  r.last = now;
  if (typeof r.messages === 'string' || r.messages.length < EVENT_AGGREGATE_MAX_EVENTS) return false;
  r.messages.shift(); // sets.String.PopAny: Go drops an arbitrary one; the oldest here
  return true;
}

/** EventSourceObjectSpamFilter.Filter: true when the source has no token left for this object. */
function spamFiltered(o: CorrelatedObject, now: number): boolean {
  o.tokens = Math.min(EVENT_SPAM_BURST, o.tokens + ((now - o.tokensAt) / 1000) * EVENT_SPAM_QPS);
  o.tokensAt = now;
  if (o.tokens < 1) return true;
  o.tokens -= 1;
  return false;
}

function similarKind(type: string, reason: string): string {
  if (type === 'Normal') return reason;
  let k = warningKeys.get(reason);
  if (k === undefined) {
    k = flatten(`${type}:${reason}`);
    warningKeys.set(reason, k);
  }
  return k;
}

/** client-go's maxLruCacheEntries: the events a recorder remembers for aggregation. */
export const EVENT_CACHE_ENTRIES = 4096;

/** A new recorder state. */
export function newEventRecorder(): EventRecorderState {
  return { seen: [], seq: 0 };
}

/** An object's entries: a short list, or by message once there are many (a controller's own events). */
type Bucket = SeenEvent[] | Map<string, SeenEvent[]>;
export type SeenIndex = Map<string, Bucket>;

/** Entries an object gets before they are split by message. */
const BUCKET_LIST_MAX = 16;

function indexAdd(index: SeenIndex, e: SeenEvent): void {
  const bucket = index.get(e.uid);
  if (!bucket) {
    index.set(e.uid, [e]);
    return;
  }
  if (Array.isArray(bucket)) {
    if (bucket.length < BUCKET_LIST_MAX) {
      bucket.push(e);
      return;
    }
    const byMessage = new Map<string, SeenEvent[]>();
    index.set(e.uid, byMessage);
    for (const x of bucket) addByMessage(byMessage, x);
    addByMessage(byMessage, e);
    return;
  }
  addByMessage(bucket, e);
}

function addByMessage(m: Map<string, SeenEvent[]>, e: SeenEvent): void {
  const list = m.get(e.message);
  if (list) list.push(e);
  else m.set(e.message, [e]);
}

function indexOf(seen: SeenEvent[]): SeenIndex {
  let m = seenIndex.get(seen);
  if (!m) {
    m = new Map();
    for (const e of seen) indexAdd(m, e);
    seenIndex.set(seen, m);
  }
  return m;
}

/** The entries that can match an event with this uid and message (a superset, in insertion order). */
function candidates(index: SeenIndex, uid: string, message: string): readonly SeenEvent[] | undefined {
  const bucket = index.get(uid);
  return bucket === undefined || Array.isArray(bucket) ? bucket : bucket.get(message);
}

function indexDelete(index: SeenIndex, e: SeenEvent): void {
  const list = candidates(index, e.uid, e.message) as SeenEvent[] | undefined;
  const i = list ? list.indexOf(e) : -1;
  if (i >= 0) list!.splice(i, 1);
}

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

// Events come in bursts within a second (RFC 3339 here has whole seconds): remember the last one.
const rfc3339OfSecond = lastCall((second: number): string => rfc3339(second * 1000));
function rfc3339At(ms: number): string {
  return rfc3339OfSecond(Math.floor(ms / 1000));
}

/** The object an event is about. */
export interface InvolvedObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
  /** The part of the object the event is about: the kubelet's container events say `spec.containers{web}`. */
  fieldPath?: string;
}

/**
 * Record an event (`Normal`/`Warning`, reason, message) about `obj`, as component `ctx.name` on `host`;
 * `reportingComponent` overrides the source when it differs from the instance name (the
 * kube-scheduler process's leader election reports as `default-scheduler`, its profile name).
 */
export function recordEvent(
  ctx: ClientCtx,
  rec: EventRecorderState,
  obj: InvolvedObject,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  host?: string,
  reportingComponent?: string,
): void {
  const ns = obj.metadata?.namespace ?? 'default';
  const ref: ObjectReference = {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata?.name,
    namespace: obj.metadata?.namespace,
    uid: obj.metadata?.uid,
    resourceVersion: obj.metadata?.resourceVersion,
  };
  if (obj.fieldPath !== undefined) ref.fieldPath = obj.fieldPath;
  const component = reportingComponent ?? componentOf(ctx.name);
  // The correlator's key: the parts client-go joins (undefined parts are empty).
  const kind = ref.kind ?? '';
  // client-go's eventLogger key has the fieldPath too: "Container created" for two containers of one
  // pod is two Events, not one counted twice.
  const object = obj.fieldPath === undefined ? (ref.name ?? '') : `${ref.name ?? ''}\u0000${obj.fieldPath}`;
  const uid = ref.uid ?? '';
  const now = rfc3339At(ctx.now);
  let seen = rec.seen;
  if (!Array.isArray(seen) && isEmpty(seen)) seen = rec.seen = [];
  // client-go's EventCorrelator, in its order: aggregate similar events, count repeats (eventLogger),
  // then the spam filter decides whether anything is sent at all.
  let eventMessage = message;
  let matchMessage = message;
  let correlated: CorrelatedObject | undefined;
  if (Array.isArray(seen)) {
    // client-go's keys join source and object (and type and reason). One recorder has one source, and
    // a uid names its object, so the uid (when there is one) stands for all of them.
    const key =
      uid || `${component}\u0000${host ?? ''}\u0000${kind}\u0000${ns}\u0000${object}\u0000${ref.apiVersion ?? ''}`;
    correlated = correlatedObject((rec.correlator ??= newCorrelator()), key, ctx.now);
    if (aggregateSimilar(correlated, similarKind(type, reason), message, ctx.now)) {
      eventMessage = COMBINED_PREFIX + message;
      matchMessage = AGGREGATE_ENTRY;
    }
  }
  let prev: SeenEvent | { name: string; namespace: string; count: number } | undefined;
  let index: SeenIndex | undefined;
  if (Array.isArray(seen)) {
    if (seen.length) {
      index = indexOf(seen);
      const list = candidates(index, uid, matchMessage);
      if (list) {
        for (const e of list) {
          if (
            e.reason === reason &&
            e.message === matchMessage &&
            e.type === type &&
            e.kind === kind &&
            e.namespace === ns &&
            e.object === object &&
            e.component === component
          ) {
            prev = e;
            break;
          }
        }
      }
    }
  } else prev = seen[joinedKey(kind, ns, object, uid, type, reason, message, component)];
  if (prev) {
    // The eventLogger counts the repeat before the spam filter looks (a filtered repeat still counts).
    const count = prev.count + 1;
    if (correlated && spamFiltered(correlated, ctx.now)) {
      prev.count = count;
      return;
    }
    const patch =
      matchMessage === AGGREGATE_ENTRY
        ? { count, lastTimestamp: now, message: eventMessage }
        : { count, lastTimestamp: now };
    const r = ctx.api.patch('events', prev.namespace, prev.name, patch);
    if (r.ok) {
      prev.count = count;
      // The eventLogger's LRU: a hit is now the most recently used entry.
      if (Array.isArray(seen) && seen[seen.length - 1] !== prev) {
        seen.splice(seen.indexOf(prev as SeenEvent), 1);
        seen.push(prev as SeenEvent);
      }
      return;
    }
    if (Array.isArray(seen)) {
      indexDelete(index!, prev as SeenEvent);
      seen.splice(seen.indexOf(prev as SeenEvent), 1);
    } else delete seen[joinedKey(kind, ns, object, uid, type, reason, message, component)];
  }
  if (correlated && spamFiltered(correlated, ctx.now)) return;
  const name = eventName(ref.name ?? 'unknown', ctx.now, rec.seq++);
  const r = ctx.api.create('events', newEvent(name, ns, ref, reason, eventMessage, type, component, host, now), ns);
  if (!r.ok) return;
  if (Array.isArray(seen)) {
    const entry: SeenEvent = {
      kind,
      namespace: ns,
      object,
      uid,
      type,
      reason,
      message: matchMessage,
      component,
      name,
      count: 1,
    };
    seen.push(entry);
    // An index that does not exist yet is built from the list at the next lookup.
    const built = seenIndex.get(seen);
    if (built) indexAdd(built, entry);
    // client-go's eventLogger keeps maxLruCacheEntries (4096): the least recently used goes, and a
    // repeat of it later is a new Event rather than a count.
    if (seen.length > EVENT_CACHE_ENTRIES) {
      const gone = seen.shift()!;
      if (built) indexDelete(built, gone);
    }
  } else seen[joinedKey(kind, ns, object, uid, type, reason, message, component)] = { name, namespace: ns, count: 1 };
}

/** The core/v1 Event the recorder creates (first and last seen now, count 1, eventTime null). */
function newEvent(
  name: string,
  ns: string,
  ref: ObjectReference,
  reason: string,
  message: string,
  type: string,
  component: string,
  host: string | undefined,
  now: string,
): CoreEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    involvedObject: ref,
    reason,
    message,
    type,
    source: host ? { component, host } : { component },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    // A core/v1 Event's eventTime is a MicroTime struct: the recorder leaves it zero, which JSON writes as null.
    eventTime: null as unknown as undefined,
    reportingComponent: component,
    reportingInstance: host ?? '',
  };
}

/**
 * Record an event that is neither correlated nor remembered: exactly what recordEvent sends through
 * a fresh recorder with `rec`'s name sequence (the first event of a recorder is never a repeat,
 * never aggregated and within the spam filter's burst), without building that recorder. For events
 * that never repeat, like leader election's; only `rec.seq` advances.
 */
export function recordEventOnce(
  ctx: ClientCtx,
  rec: { seq: number },
  obj: InvolvedObject,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  host?: string,
  reportingComponent?: string,
): void {
  const ns = obj.metadata?.namespace ?? 'default';
  const ref: ObjectReference = {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata?.name,
    namespace: obj.metadata?.namespace,
    uid: obj.metadata?.uid,
    resourceVersion: obj.metadata?.resourceVersion,
  };
  const component = reportingComponent ?? componentOf(ctx.name);
  const now = rfc3339At(ctx.now);
  const name = eventName(ref.name ?? 'unknown', ctx.now, rec.seq++);
  ctx.api.create('events', newEvent(name, ns, ref, reason, message, type, component, host, now), ns);
}

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/** The key of the older record shape: client-go's parts joined with NUL. */
function joinedKey(
  kind: string,
  ns: string,
  object: string,
  uid: string,
  type: string,
  reason: string,
  message: string,
  component: string,
): string {
  return `${kind}\u0000${ns}\u0000${object}\u0000${uid}\u0000${type}\u0000${reason}\u0000${message}\u0000${component}`;
}
