import { describe, expect, it } from 'vitest';
import { objectOf, testWorld } from '../testing/world.ts';
import { fieldSelectorFromEventsV1, fromEventsV1, toEventsV1 } from './events-v1.ts';

const CORE = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.1', namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1' },
  reason: 'Pulled',
  message: 'pulled',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:00:05Z',
  count: 2,
  type: 'Normal',
  eventTime: null,
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
};

describe('events.k8s.io/v1 conversion', () => {
  it('maps a core/v1 Event to events.k8s.io/v1 and back (conversion.go)', () => {
    const v1 = toEventsV1(CORE);
    expect(v1).toEqual({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: CORE.metadata,
      eventTime: null,
      reportingController: 'kubelet',
      reportingInstance: 'node-1',
      reason: 'Pulled',
      regarding: CORE.involvedObject,
      note: 'pulled',
      type: 'Normal',
      deprecatedSource: CORE.source,
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:00:05Z',
      deprecatedCount: 2,
    });
    expect(fromEventsV1(v1)).toEqual(CORE);
  });

  it('maps the events.k8s.io field labels and refuses the others', () => {
    expect(fieldSelectorFromEventsV1('regarding.name=web,reportingController!=kubelet')).toEqual({
      selector: 'involvedObject.name=web,reportingComponent!=kubelet',
    });
    expect(fieldSelectorFromEventsV1('note=x')).toEqual({ unsupported: 'note' });
  });

  it('serves both versions over one storage: a core/v1 Event read, listed and patched as events.k8s.io/v1', () => {
    const w = testWorld();
    expect(w.kubectl({ verb: 'create', resource: 'events', namespace: 'default', body: CORE }).ok).toBe(true);
    const got = w.kubectl({
      verb: 'get',
      resource: 'events',
      group: 'events.k8s.io',
      namespace: 'default',
      name: 'web.1',
    });
    expect(objectOf(got)).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'pulled', regarding: { name: 'web' } });
    const list = w.kubectl({
      verb: 'list',
      resource: 'events',
      group: 'events.k8s.io',
      namespace: 'default',
      options: { fieldSelector: 'regarding.name=web' },
    });
    expect(objectOf(list)).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'EventList',
      items: [{ note: 'pulled' }],
    });
    // A patch in events.k8s.io's names lands on the stored Event's fields.
    const p = w.kubectl({
      verb: 'patch',
      resource: 'events',
      group: 'events.k8s.io',
      namespace: 'default',
      name: 'web.1',
      body: { note: 'again', deprecatedCount: 3 },
    });
    expect(objectOf(p)).toMatchObject({ note: 'again', deprecatedCount: 3 });
    expect(objectOf(w.kubectl({ verb: 'get', resource: 'events', namespace: 'default', name: 'web.1' }))).toMatchObject(
      { message: 'again', count: 3 },
    );
    expect(
      w.state.log.filter((r) => r.kind === 'request' && r.path.includes('/events')).map((r) => `${r.verb} ${r.path}`),
    ).toEqual([
      'POST /api/v1/namespaces/default/events',
      'GET /apis/events.k8s.io/v1/namespaces/default/events/web.1',
      'GET /apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name%3Dweb',
      'PATCH /apis/events.k8s.io/v1/namespaces/default/events/web.1',
      'GET /api/v1/namespaces/default/events/web.1',
    ]);
  });

  it('answers 404 for other resources in the group and 400 for a field label it does not map', () => {
    const w = testWorld();
    expect(w.kubectl({ verb: 'list', resource: 'pods', group: 'events.k8s.io', namespace: 'default' }).code).toBe(404);
    expect(
      w.kubectl({
        verb: 'list',
        resource: 'events',
        group: 'events.k8s.io',
        namespace: 'default',
        options: { fieldSelector: 'note=x' },
      }).code,
    ).toBe(400);
  });
});
