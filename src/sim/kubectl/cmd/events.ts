// kubectl events (pkg/cmd/events): a namespace's Events, oldest first.
import type { Event } from 'kubernetes-types/core/v1';
import { RESOURCES } from '../../api/resources.ts';
import { fromUnstructured } from '../../api/unstructured.ts';
import { parseTime } from '../../util/time.ts';
import { translateTimestampSince } from '../print-pod.ts';
import { goSort } from '../go-sort.ts';
import { coreEvent, toJSON, toYAML } from '../printers.ts';
import { kindInfo } from '../resources.ts';
import { GET_TABS, tabwrite } from '../tabwriter.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import { Fail, kindOrFail, type Run, listAt } from './util.ts';

/** eventTime() of kubectl events: when an Event was last seen (series, lastTimestamp, eventTime). */
function eventSortTime(e: Event): number {
  return parseTime(e.series ? e.series.lastObservedTime : e.lastTimestamp || e.eventTime) ?? -Infinity;
}

/** getInterval: LAST SEEN of one row ("5s", or "5s (x3 over 2m)" for a repeated Event). */
function eventInterval(e: Event, now: number): string {
  const first = translateTimestampSince(e.eventTime || e.firstTimestamp, now);
  if (e.series) return `${translateTimestampSince(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`;
  if ((e.count ?? 0) > 1) return `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`;
  return first;
}

/** kubectl events: the Events of a namespace (or all, or about one object), oldest first. */
export function cmdEvents(r: Run, argv: string[]): void {
  const p = parse(r, 'events', argv, {
    'all-namespaces': { kind: 'bool', short: 'A' },
    for: { kind: 'string' },
    types: { kind: 'string' },
    'no-headers': { kind: 'bool' },
    watch: { kind: 'bool', short: 'w' },
    output: { kind: 'string', short: 'o' },
    'chunk-size': { kind: 'string' },
  });
  const output = str(p, 'output') ?? '';
  if (output && output !== 'json' && output !== 'yaml') {
    throw new Fail(
      `error: unable to match a printer suitable for the output format "${output}", allowed formats are: json,yaml,name,go-template,go-template-file,template,templatefile,jsonpath,jsonpath-as-json,jsonpath-file`,
    );
  }
  const types = (str(p, 'types') ?? '').split(',').filter(Boolean);
  let fieldSelector: string | undefined;
  const forObject = str(p, 'for');
  if (forObject) {
    if (!forObject.includes('/')) throw new Fail('error: --for must be in resource/name form');
    const seg = forObject.split('/');
    if (seg.length !== 2) throw new Fail('error: arguments in resource/name form may not have more than one slash');
    const kind = kindOrFail(seg[0], r);
    fieldSelector = `involvedObject.kind=${RESOURCES[kind.resource].kind},involvedObject.name=${seg[1]}`;
  }
  if (types.some((t) => t.toLowerCase() !== 'normal' && t.toLowerCase() !== 'warning'))
    throw new Fail('error: valid --types are Normal or Warning');
  const all = bool(p, 'all-namespaces');
  const ns = nsOf(p);
  // One page of --chunk-size (500) Events: ListOptions{Limit: DefaultChunkSize, FieldSelector}.
  const items = listAt(r, kindInfo('events'), all ? undefined : ns, undefined, fieldSelector, 500)
    .items.map((e) => {
      // core/v1's shape of either Events API's object (what kubectl events reads).
      const core: unknown = coreEvent(fromUnstructured(e));
      return core as Event;
    })
    .filter((e) => !types.length || types.some((t) => t.toLowerCase() === String(e.type ?? '').toLowerCase()));
  if (!items.length) {
    r.warn(all ? 'No events found.\n' : `No events found in ${ns} namespace.\n`);
    return;
  }
  // SortableEvents with Go's sort.Sort (not stable: ties of more than 12 Events come out as Go orders them).
  goSort(items, (a, b) => eventSortTime(a) < eventSortTime(b));
  if (output) {
    const v = { apiVersion: 'v1', kind: 'EventList', items, metadata: { resourceVersion: '' } };
    r.print(output === 'json' ? toJSON(v) + '\n' : toYAML(v));
    return;
  }
  let text = bool(p, 'no-headers') ? '' : `${all ? 'NAMESPACE\t' : ''}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n`;
  for (const e of items) {
    const io = e.involvedObject ?? {};
    text += `${all ? `${e.metadata?.namespace ?? ''}\t` : ''}${eventInterval(e, r.now)}\t${e.type ?? ''}\t${e.reason ?? ''}\t${io.kind ?? ''}/${io.name ?? ''}\t${String(e.message ?? '').trim()}\n`;
  }
  r.print(tabwrite(text, GET_TABS));
}
