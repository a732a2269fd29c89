import { describe, expect, it } from 'vitest';
import {
  COMBINED_PREFIX,
  EVENT_AGGREGATE_INTERVAL_MS,
  EVENT_CACHE_ENTRIES,
  EVENT_SPAM_BURST,
  newEventRecorder,
  recordEvent,
  recordEventOnce,
  type InvolvedObject,
} from './record.ts';
import { storeList } from '../apiserver/store.ts';
import { pod, testWorld } from '../testing/world.ts';

describe('event recorder', () => {
  it('creates an Event and aggregates repeats into count', () => {
    const w = testWorld();
    const p = (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('web-1') }) as any).object;
    const ctx = w.ctx('scheduler');
    const rec = newEventRecorder();
    recordEvent(ctx, rec, p, 'Warning', 'FailedScheduling', '0/3 nodes are available: 3 Insufficient cpu.');
    w.advance(1500);
    recordEvent(ctx, rec, p, 'Warning', 'FailedScheduling', '0/3 nodes are available: 3 Insufficient cpu.');
    const evs = storeList(w.state.store, 'events', 'default');
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({
      reason: 'FailedScheduling',
      type: 'Warning',
      count: 2,
      involvedObject: { kind: 'Pod', name: 'web-1' },
      source: { component: 'scheduler' },
      lastTimestamp: '2026-01-01T00:00:01Z',
    });
    expect(evs[0].metadata.name).toMatch(/^web-1\.[0-9a-f]+$/);
    expect(w.state.log.filter((r) => r.path.includes('/events')).map((r) => r.verb)).toEqual(['POST', 'PATCH']);
  });

  it('recordEventOnce sends what a fresh recorder sends, and advances only the sequence', () => {
    const worlds = [testWorld(), testWorld()];
    const seqs = [{ seq: 7 }, { seq: 7 }];
    const cases: [string, 'Normal' | 'Warning', string, string, string | undefined, string | undefined][] = [
      ['a', 'Normal', 'Scheduled', 'Successfully assigned default/a to node-1', undefined, 'default-scheduler'],
      ['a', 'Normal', 'Scheduled', 'Successfully assigned default/a to node-1', undefined, 'default-scheduler'],
      ['b', 'Warning', 'Failed', 'x', 'node-2', undefined],
      ['missing', 'Normal', 'Pulled', 'y', 'node-1', undefined],
    ];
    worlds.forEach((w, i) => {
      const p = {
        a: (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('a') }) as any).object,
        b: (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'kube-system', body: pod('b') }) as any).object,
        missing: { kind: 'Pod', metadata: {} },
      } as Record<string, InvolvedObject>;
      for (const [obj, type, reason, message, host, source] of cases) {
        w.advance(0.25);
        if (i === 0) recordEventOnce(w.ctx('scheduler'), seqs[0], p[obj], type, reason, message, host, source);
        else {
          const once = { seen: {}, seq: seqs[1].seq };
          recordEvent(w.ctx('scheduler'), once, p[obj], type, reason, message, host, source);
          seqs[1].seq = once.seq;
        }
      }
    });
    expect(JSON.stringify(worlds[0].state.store)).toBe(JSON.stringify(worlds[1].state.store));
    expect(JSON.stringify(worlds[0].state.log)).toBe(JSON.stringify(worlds[1].state.log));
    expect(seqs[0]).toEqual({ seq: 11 });
    expect(seqs[1]).toEqual({ seq: 11 });
  });

  it('aggregates exactly the repeats of the joined correlation key, in the list, the older record shape and after a restore', () => {
    // The index (uid → message → entries) must find what client-go's joined key finds, and nothing else.
    const w = testWorld();
    const mk = (name: string) =>
      (w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(name) }) as any).object;
    const a = mk('a'),
      b = mk('b');
    const ctx = w.ctx('kubelet/node-1');
    const legacy = {
      seen: { x: { name: 'x', namespace: 'default', count: 1 } } as Record<
        string,
        { name: string; namespace: string; count: number }
      >,
      seq: 0,
    };
    const calls: [any, 'Normal' | 'Warning', string, string, string?][] = [
      [a, 'Normal', 'Pulled', 'same'],
      [a, 'Normal', 'Pulled', 'same'],
      [b, 'Normal', 'Pulled', 'same'],
      [a, 'Warning', 'Pulled', 'same'],
      [a, 'Normal', 'Created', 'same'],
      [a, 'Normal', 'Pulled', 'other'],
      [a, 'Normal', 'Pulled', 'same', 'node-2'],
      [{ ...a, kind: 'Other' }, 'Normal', 'Pulled', 'same'],
      [b, 'Normal', 'Pulled', 'same'],
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
      return events()
        .slice(before)
        .map((r) => r.verb);
    };
    const list = run(newEventRecorder());
    // host is not part of the key; everything else is.
    expect(list).toEqual(['POST', 'PATCH', 'POST', 'POST', 'POST', 'POST', 'PATCH', 'POST', 'PATCH']);
    expect(run(newEventRecorder(), 4)).toEqual(list);
    expect(run(legacy)).toEqual(list);
    expect(Object.keys(legacy.seen)).toHaveLength(7);
    // Many events about one object: past 16 entries the index splits them by message. (Each has its
    // own reason, so none is aggregated, and 24 requests stay within the spam filter's burst of 25.)
    const many = newEventRecorder();
    const verbsOf = (ids: number[]) => {
      const before = events().length;
      for (const i of ids) recordEvent(ctx, many, a, 'Normal', `Reason${i}`, `Created pod: p-${i}`);
      return events()
        .slice(before)
        .map((r) => r.verb);
    };
    w.advance(1000);
    const first = Array.from({ length: 18 }, (_, i) => i);
    expect(verbsOf(first)).toEqual(first.map(() => 'POST'));
    expect(verbsOf([3, 17, 18])).toEqual(['PATCH', 'PATCH', 'POST']);
    many.seen = structuredClone(many.seen);
    expect(verbsOf([0, 18, 19])).toEqual(['PATCH', 'PATCH', 'POST']);
    const empty = { seen: {}, seq: 0 };
    recordEvent(ctx, empty, a, 'Normal', 'Pulled', 'fresh');
    expect(Array.isArray(empty.seen)).toBe(true);
  });

  it("remembers the 4,096 most recently used events (client-go's LRU): an older repeat is a new Event, a recent one a count", () => {
    const w = testWorld();
    const ctx = w.ctx('scheduler');
    const rec = newEventRecorder();
    // One object per event, so neither the aggregator nor the spam filter (both per object) steps in.
    const say = (i: number) =>
      recordEvent(
        ctx,
        rec,
        { kind: 'Pod', apiVersion: 'v1', metadata: { name: `p-${i}`, namespace: 'default', uid: `uid-${i}` } },
        'Normal',
        'Noted',
        `message ${i}`,
      );
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

  it('aggregates the tenth similar event within 10 minutes into one "(combined from similar events)" Event (client-go\'s EventAggregator)', () => {
    const w = testWorld();
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-abc', namespace: 'default', uid: 'rs-uid' },
    };
    const ctx = w.ctx('replicaset-controller');
    const rec = newEventRecorder();
    const log = () => w.state.log.filter((r) => r.path.includes('/events')).map((r) => r.verb);
    for (let i = 0; i < 12; i++) recordEvent(ctx, rec, rs, 'Normal', 'SuccessfulCreate', `Created pod: web-abc-${i}`);
    // 9 Events of their own, then the aggregate: created by the 10th, patched (count, message) after.
    expect(log()).toEqual([...Array(10).fill('POST'), 'PATCH', 'PATCH']);
    const evs = storeList(w.state.store, 'events', 'default');
    expect(evs).toHaveLength(10);
    const combined = evs.find((e) => e.message?.startsWith(COMBINED_PREFIX))!;
    expect(combined).toMatchObject({
      reason: 'SuccessfulCreate',
      count: 3,
      message: `${COMBINED_PREFIX}Created pod: web-abc-11`,
    });
    // Ten minutes later the similar events start over as Events of their own.
    w.advance(EVENT_AGGREGATE_INTERVAL_MS + 1000);
    recordEvent(ctx, rec, rs, 'Normal', 'SuccessfulCreate', 'Created pod: web-abc-99');
    expect(storeList(w.state.store, 'events', 'default').some((e) => e.message === 'Created pod: web-abc-99')).toBe(
      true,
    );
  });

  it('lets a source send 25 events about one object, then one per 5 minutes; a filtered repeat still counts (spam filter)', () => {
    const w = testWorld();
    const p = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', uid: 'pod-uid' } };
    const ctx = w.ctx('kubelet/node-1');
    const rec = newEventRecorder();
    const requests = () => w.state.log.filter((r) => r.path.includes('/events')).length;
    const backOff = () =>
      recordEvent(
        ctx,
        rec,
        p,
        'Warning',
        'BackOff',
        'Back-off restarting failed container app in pod web-1_default(pod-uid)',
        'node-1',
      );
    for (let i = 0; i < 30; i++) backOff();
    expect(requests()).toBe(EVENT_SPAM_BURST); // 1 POST and 24 PATCHes; the last 5 are dropped
    const event = () => storeList(w.state.store, 'events', 'default')[0];
    expect(event().count).toBe(25);
    w.advance(300_000); // one token back
    backOff();
    expect(requests()).toBe(EVENT_SPAM_BURST + 1);
    expect(event().count).toBe(31); // the five dropped repeats were counted all the same
    backOff();
    expect(requests()).toBe(EVENT_SPAM_BURST + 1);
  });
});
