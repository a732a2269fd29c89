// events.k8s.io/v1 Events: one stored Event (core/v1 here, the internal type's JSON), two
// versions. The conversion is pkg/apis/events/v1/conversion.go's: regarding ↔ involvedObject,
// note ↔ message, reportingController ↔ reportingComponent, deprecatedSource ↔ source,
// deprecatedFirstTimestamp/LastTimestamp/Count ↔ firstTimestamp/lastTimestamp/count; the rest
// (eventTime, series, action, related, reportingInstance, reason, type) is the same field.
import { EVENTS_GROUP_VERSION } from '../api/resources.ts';
import type { Unstructured } from '../api/unstructured.ts';

/**
 * A core/v1 Event as events.k8s.io/v1 writes it: the fields in the Go struct's order, the empty
 * ones left out where its JSON tags say omitempty (a struct is never empty to encoding/json, and a
 * zero time is null).
 */
export function toEventsV1(e: Unstructured): Unstructured {
  const out: Unstructured = {
    apiVersion: EVENTS_GROUP_VERSION,
    kind: 'Event',
    metadata: e.metadata,
    eventTime: e.eventTime ?? null,
  };
  if (e.series) out.series = e.series;
  if (e.reportingComponent) out.reportingController = e.reportingComponent;
  if (e.reportingInstance) out.reportingInstance = e.reportingInstance;
  if (e.action) out.action = e.action;
  if (e.reason) out.reason = e.reason;
  out.regarding = e.involvedObject ?? {};
  if (e.related) out.related = e.related;
  if (e.message) out.note = e.message;
  if (e.type) out.type = e.type;
  out.deprecatedSource = e.source ?? {};
  out.deprecatedFirstTimestamp = e.firstTimestamp ?? null;
  out.deprecatedLastTimestamp = e.lastTimestamp ?? null;
  if (e.count) out.deprecatedCount = e.count;
  return out;
}

/** An events.k8s.io/v1 Event as the core/v1 Event it is stored as (core/v1's field order and omitempty). */
export function fromEventsV1(e: Unstructured): Unstructured {
  const out: Unstructured = { apiVersion: 'v1', kind: 'Event' };
  if (e.metadata !== undefined) out.metadata = e.metadata;
  out.involvedObject = e.regarding ?? {};
  if (e.reason) out.reason = e.reason;
  if (e.note) out.message = e.note;
  out.source = e.deprecatedSource ?? {};
  out.firstTimestamp = e.deprecatedFirstTimestamp ?? null;
  out.lastTimestamp = e.deprecatedLastTimestamp ?? null;
  if (e.deprecatedCount) out.count = e.deprecatedCount;
  if (e.type) out.type = e.type;
  out.eventTime = e.eventTime ?? null;
  if (e.series) out.series = e.series;
  if (e.action) out.action = e.action;
  if (e.related) out.related = e.related;
  out.reportingComponent = e.reportingController ?? '';
  out.reportingInstance = e.reportingInstance ?? '';
  return out;
}

/** A response in events.k8s.io/v1: an Event, or an EventList's items. */
export function responseInEventsV1(o: Unstructured): Unstructured {
  if (o.kind === 'EventList')
    return { ...o, apiVersion: EVENTS_GROUP_VERSION, items: (o.items as Unstructured[]).map(toEventsV1) };
  return o.kind === 'Event' ? toEventsV1(o) : o;
}

// AddFieldLabelConversionsForEvent: regarding.* is involvedObject.*, reportingController is
// reportingComponent; reason, type, metadata.namespace and metadata.name are themselves.
const REGARDING_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
const SAME_FIELDS = ['reason', 'type', 'metadata.namespace', 'metadata.name'];

/** An events.k8s.io field selector in the stored Event's field names; a label it does not map is returned as the error. */
export function fieldSelectorFromEventsV1(selector: string): { selector: string } | { unsupported: string } {
  const terms: string[] = [];
  for (const term of selector.split(',')) {
    if (!term) continue;
    const label = /^[^!=]*/.exec(term)![0];
    const f = label.slice(10);
    const mapped =
      label.startsWith('regarding.') && REGARDING_FIELDS.includes(f)
        ? 'involvedObject.' + f
        : label === 'reportingController'
          ? 'reportingComponent'
          : SAME_FIELDS.includes(label)
            ? label
            : undefined;
    if (mapped === undefined) return { unsupported: label };
    terms.push(mapped + term.slice(label.length));
  }
  return { selector: terms.join(',') };
}
