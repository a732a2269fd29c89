import type { Event as CoreEvent } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { EVENT_CACHE_ENTRIES, newEventRecorder, recordEvent } from './event-recorder.ts';
import { storeList } from './store.ts';
import { pod, testWorld } from './test-helpers.ts';

describe('event recorder', () => {
  it('creates an Event and aggregates repeats into count', () => {
    const w = testWorld();
    const p = (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web-1') }) as any).object;
    const ctx = w.ctx('scheduler');
    const rec = newEventRecorder();
    recordEvent(ctx, rec, p, 'Warning', 'FailedScheduling', '0/3 nodes are available: 3 Insufficient cpu.');
    w.advance(1500);
    recordEvent(ctx, rec, p, 'Warning', 'FailedScheduling', '0/3 nodes are available: 3 Insufficient cpu.');
    const evs = storeList(w.state.store, 'events', 'default') as unknown as CoreEvent[];
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({ reason: 'FailedScheduling', type: 'Warning', count: 2, involvedObject: { kind: 'Pod', name: 'web-1' }, source: { component: 'scheduler' }, lastTimestamp: '2026-01-01T00:00:01Z' });
    expect(evs[0].metadata!.name).toMatch(/^web-1\.[0-9a-f]+$/);
    expect(w.state.log.filter((r) => r.path.includes('/events')).map((r) => r.verb)).toEqual(['POST', 'PATCH']);
  });

  it('aggregates exactly the repeats of the joined correlation key, in the list, the older record shape and after a restore', () => {
    // The index (uid → message → entries) must find what client-go's joined key finds, and nothing else.
    const w = testWorld();
    const mk = (name: string) => (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(name) }) as any).object;
    const a = mk('a'), b = mk('b');
    const ctx = w.ctx('kubelet/node-1');
    const legacy = { seen: { x: { name: 'x', namespace: 'default', count: 1 } } as Record<string, { name: string; namespace: string; count: number }>, seq: 0 };
    const calls: [any, 'Normal' | 'Warning', string, string, string?][] = [
      [a, 'Normal', 'Pulled', 'same'], [a, 'Normal', 'Pulled', 'same'], [b, 'Normal', 'Pulled', 'same'],
      [a, 'Warning', 'Pulled', 'same'], [a, 'Normal', 'Created', 'same'], [a, 'Normal', 'Pulled', 'other'],
      [a, 'Normal', 'Pulled', 'same', 'node-2'], [{ ...a, kind: 'Other' }, 'Normal', 'Pulled', 'same'], [b, 'Normal', 'Pulled', 'same'],
    ];
    const events = () => w.state.log.filter((r) => r.path.includes('/events'));
    // The verbs of the requests one pass of the calls makes (every call makes exactly one).
    const run = (rec: any, restoreAt?: number) => {
      w.advance(1000); // new Event names
      const before = events().length;
      calls.forEach(([obj, type, reason, message, host], i) => {
        if (i === restoreAt) rec.seen = structuredClone(rec.seen);
        recordEvent(ctx, rec, obj, type, reason, message, host);
      });
      return events().slice(before).map((r) => r.verb);
    };
    const list = run(newEventRecorder());
    // host is not part of the key; everything else is.
    expect(list).toEqual(['POST', 'PATCH', 'POST', 'POST', 'POST', 'POST', 'PATCH', 'POST', 'PATCH']);
    expect(run(newEventRecorder(), 4)).toEqual(list);
    expect(run(legacy)).toEqual(list);
    expect(Object.keys(legacy.seen)).toHaveLength(7);
    // Many events about one object (a controller's own): the entries are split by message.
    const many = newEventRecorder();
    const verbsOf = (msgs: string[]) => { const before = events().length; for (const m of msgs) recordEvent(ctx, many, a, 'Normal', 'SuccessfulCreate', m); return events().slice(before).map((r) => r.verb); };
    w.advance(1000);
    const first = Array.from({ length: 40 }, (_, i) => `Created pod: p-${i}`);
    expect(verbsOf(first)).toEqual(first.map(() => 'POST'));
    expect(verbsOf(['Created pod: p-3', 'Created pod: p-39', 'Created pod: p-40'])).toEqual(['PATCH', 'PATCH', 'POST']);
    many.seen = structuredClone(many.seen);
    expect(verbsOf(['Created pod: p-0', 'Created pod: p-40', 'Created pod: p-41'])).toEqual(['PATCH', 'PATCH', 'POST']);
    const empty = { seen: {}, seq: 0 };
    recordEvent(ctx, empty, a, 'Normal', 'Pulled', 'fresh');
    expect(Array.isArray(empty.seen)).toBe(true);
  });

  it('remembers the 4,096 most recently used events (client-go\'s LRU): an older repeat is a new Event, a recent one a count', () => {
    const w = testWorld();
    const p = (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web-1') }) as any).object;
    const ctx = w.ctx('scheduler');
    const rec = newEventRecorder();
    const say = (i: number) => recordEvent(ctx, rec, p, 'Normal', 'Noted', `message ${i}`);
    say(0);
    say(1);
    for (let i = 2; i <= EVENT_CACHE_ENTRIES; i++) say(i); // 4,097 distinct: message 0 is the least recently used
    say(1); // a hit: message 1 becomes the most recent, so it is not the next to go
    say(EVENT_CACHE_ENTRIES + 1); // evicts message 2 (0 went with the 4,097th)
    const verbs = () => w.state.log.filter((r) => r.path.includes('/events')).map((r) => r.verb);
    const n = verbs().length;
    say(1);
    say(0);
    say(2);
    expect(verbs().slice(n)).toEqual(['PATCH', 'POST', 'POST']);
    expect((rec.seen as unknown[]).length).toBe(EVENT_CACHE_ENTRIES);
  });
});
