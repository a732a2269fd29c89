import { describe, expect, it } from 'vitest';
import { objectOf, testWorld } from '../testing/world.ts';
import type { ComponentDef, World } from '../world.ts';
import {
  type EventBroadcasterState,
  eventf,
  handleBroadcasterTimer,
  newEventBroadcaster,
  startRecordingToSink,
} from './events.ts';

// A component that records what it is told to, with tools/events, as the scheduler does.
type Say = { type: 'say'; reason: string; note: string; rv?: string; related?: boolean };
const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '7' },
};
const speaker: ComponentDef<EventBroadcasterState> = {
  name: 'speaker',
  identity: () => 'scheduler',
  init(ctx) {
    startRecordingToSink(ctx);
    return newEventBroadcaster('default-scheduler', 'control-plane');
  },
  handle(ev, ctx) {
    if (handleBroadcasterTimer(ctx, ctx.state, ev)) return;
    const s = ev as Say;
    const regarding = { ...POD, metadata: { ...POD.metadata, resourceVersion: s.rv ?? '7' } };
    const related = s.related
      ? {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'hi', namespace: 'default', uid: 'u2', resourceVersion: '9' },
        }
      : undefined;
    eventf(ctx, ctx.state, regarding, related, 'Warning', s.reason, 'Scheduling', s.note);
  },
};

function world(): World {
  const w = testWorld({}, [speaker]);
  w.addComponent('speaker', 'speaker');
  return w;
}

const say = (w: World, reason: string, note: string, extra: Partial<Say> = {}) =>
  w.inject('speaker', { type: 'say', reason, note, ...extra });

function eventRequests(w: World): string[] {
  return w.state.log
    .filter((r) => r.component === 'speaker' && r.kind === 'request' && r.path.includes('events'))
    .map((r) => `${r.verb} ${r.path} ${r.code}`);
}

function coreEvents(w: World): Record<string, unknown>[] {
  const r = w.kubectl({ verb: 'list', resource: 'events', namespace: 'default' });
  return (objectOf(r) as { items: Record<string, unknown>[] }).items;
}

describe('tools/events recorder', () => {
  it('POSTs an events.k8s.io/v1 Event that reads back in core/v1 with empty deprecated fields', () => {
    const w = world();
    say(w, 'FailedScheduling', '0/3 nodes are available');
    w.advance(10);
    expect(eventRequests(w)).toEqual(['POST /apis/events.k8s.io/v1/namespaces/default/events 201']);
    const [e] = coreEvents(w);
    expect(e).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '7' },
      reason: 'FailedScheduling',
      message: '0/3 nodes are available',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: 'Warning',
      action: 'Scheduling',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-control-plane',
    });
    expect(e.eventTime).toMatch(/^2026-01-01T00:00:00\.\d{6}Z$/);
    expect('count' in e).toBe(false);
    const v1 = w.kubectl({
      verb: 'get',
      resource: 'events',
      group: 'events.k8s.io',
      namespace: 'default',
      name: (e.metadata as { name: string }).name,
    });
    expect(objectOf(v1)).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      regarding: { name: 'web' },
      note: '0/3 nodes are available',
      reportingController: 'default-scheduler',
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
    });
  });

  it('makes a repeat (any note) a series: one PATCH for count 2, the later counts written when the series finishes', () => {
    const w = world();
    say(w, 'FailedScheduling', 'first');
    w.advance(1000);
    say(w, 'FailedScheduling', 'second');
    w.advance(1000);
    say(w, 'FailedScheduling', 'third');
    w.advance(1000);
    expect(eventRequests(w)).toEqual([
      'POST /apis/events.k8s.io/v1/namespaces/default/events 201',
      expect.stringMatching(/^PATCH \/apis\/events.k8s.io\/v1\/namespaces\/default\/events\/web\.[0-9a-f]+ 200$/),
    ]);
    expect(coreEvents(w)).toMatchObject([{ message: 'first', series: { count: 2 } }]);
    // finishSeries runs every 6 minutes from the start: at 12 min the series is 6 min quiet.
    w.runUntil(6 * 60_000 + 10);
    expect(eventRequests(w)).toHaveLength(2);
    w.runUntil(12 * 60_000 + 10);
    expect(eventRequests(w)).toHaveLength(3);
    expect(coreEvents(w)).toMatchObject([{ series: { count: 3, lastObservedTime: '2026-01-01T00:00:02.000000Z' } }]);
    // Forgotten: the next one is a new Event.
    say(w, 'FailedScheduling', 'fourth');
    w.advance(10);
    expect(coreEvents(w)).toHaveLength(2);
  });

  it('keys by the regarding object as referenced (its resourceVersion) and by the related one', () => {
    const w = world();
    say(w, 'FailedScheduling', 'a');
    say(w, 'FailedScheduling', 'a', { rv: '8' });
    say(w, 'FailedScheduling', 'a', { related: true });
    w.advance(10);
    expect(eventRequests(w).every((r) => r.startsWith('POST'))).toBe(true);
    expect(coreEvents(w)).toHaveLength(3);
  });

  it('POSTs the series again when its Event is gone, and refreshes every series each 30 minutes', () => {
    const w = world();
    say(w, 'FailedScheduling', 'a');
    w.advance(10);
    const name = (coreEvents(w)[0].metadata as { name: string }).name;
    w.kubectl({ verb: 'delete', resource: 'events', namespace: 'default', name });
    say(w, 'FailedScheduling', 'a');
    w.advance(10);
    expect(eventRequests(w).slice(1)).toEqual([
      `PATCH /apis/events.k8s.io/v1/namespaces/default/events/${name} 404`,
      'POST /apis/events.k8s.io/v1/namespaces/default/events 201',
    ]);
    expect(coreEvents(w)).toMatchObject([{ metadata: { name }, series: { count: 2 } }]);
    // Kept going: a repeat every 5 minutes keeps the series open, and the 30-minute refresh writes
    // it (the count before that minute's repeat, which the timer comes first to).
    for (let t = 5; t <= 30; t += 5) {
      w.runUntil(t * 60_000);
      say(w, 'FailedScheduling', 'a');
    }
    w.runUntil(30 * 60_000 + 10);
    expect(eventRequests(w)).toHaveLength(4);
    expect(coreEvents(w)[0]).toMatchObject({ series: { count: 7, lastObservedTime: '2026-01-01T00:25:00.000000Z' } });
  });
});
