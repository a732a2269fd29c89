import type { Event as CoreEvent } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { newEventRecorder, recordEvent } from './event-recorder.ts';
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
});
