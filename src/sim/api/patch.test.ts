import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergePatch, mergePatchIsNoop } from './patch.ts';
import type { ApiRequest, KObject } from './request.ts';
import { deepEqual } from '../util/names.ts';
import { deployment, pod, testWorld } from '../testing/world.ts';
import { runs } from '../../test/fc.ts';

describe('status patch shortcut', () => {
  // Stored objects, results and log compared with undefined-valued keys visible (JSON would hide them).
  const show = (v: unknown) => JSON.stringify(v, (_k, x) => (x === undefined ? '<undefined>' : x));
  const setup = () => {
    const w = testWorld();
    w.kubectl({
      verb: 'create',
      resource: 'nodes',
      body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { phase: 'Running' } },
    });
    for (const name of ['p0', 'p1', 'p2'])
      w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(name) });
    // NaN is unequal to itself for deepEqual: a copy of this metadata is a change, the object itself is not.
    w.kubectl({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: { ...pod('pn'), metadata: { name: 'pn', odd: NaN } },
    });
    w.kubectl({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      name: 'p1',
      subresource: 'binding',
      body: { target: { name: 'n1' } },
    });
    w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p1' }); // graceful: deletionTimestamp set
    return w;
  };
  const str = fc.oneof(fc.constantFrom('a', 'b', 'Running', 'Pending'), fc.constant(null));
  const status = fc.oneof(
    fc.constant(null),
    fc.record(
      {
        phase: str,
        podIP: str,
        conditions: fc.oneof(
          fc.constant(null),
          fc.array(
            fc.record({ type: fc.constantFrom('Ready', 'Initialized'), status: fc.constantFrom('True', 'False') }),
            { maxLength: 3 },
          ),
        ),
        nested: fc.oneof(
          fc.constant(null),
          fc.record({ x: str, y: fc.record({ z: str }, { requiredKeys: [] }) }, { requiredKeys: [] }),
        ),
      },
      { requiredKeys: [] },
    ),
  );
  const patch = fc.record({
    target: fc.constantFrom('p0', 'p1', 'p2', 'pn', 'missing', 'n1'),
    patchType: fc.constantFrom(undefined, 'merge' as const, 'strategic' as const),
    status,
    withStatus: fc.boolean(),
    rv: fc.constantFrom('none', 'current', 'stale'),
    spec: fc.boolean(),
  });
  it('serves every status patch exactly as the general update path does', () => {
    fc.assert(
      fc.property(fc.array(patch, { minLength: 1, maxLength: 12 }), (cmds) => {
        const a = setup();
        const b = setup();
        for (const c of cmds) {
          const resource = c.target === 'n1' ? 'nodes' : 'pods';
          const req = (w: ReturnType<typeof testWorld>): ApiRequest => {
            const cur =
              w.state.store.objects[resource]?.[
                resource === 'nodes' ? '/registry/minions/n1' : `/registry/pods/default/${c.target}`
              ];
            const body: Record<string, unknown> = {};
            if (c.rv !== 'none')
              body.metadata = { resourceVersion: c.rv === 'stale' ? '1' : cur?.metadata?.resourceVersion };
            if (c.spec) body.spec = { nodeName: 'elsewhere' };
            if (c.withStatus) body.status = c.status;
            return {
              verb: 'patch',
              resource,
              namespace: resource === 'pods' ? 'default' : undefined,
              name: c.target,
              subresource: 'status',
              body,
              options: c.patchType ? { patchType: c.patchType } : undefined,
            };
          };
          const ra = a.kubectl(req(a));
          b.apiConfig.statusPatchShortcut = false;
          let rb;
          try {
            rb = b.kubectl(req(b));
          } finally {
            b.apiConfig.statusPatchShortcut = true;
          }
          expect(show(ra)).toBe(show(rb));
        }
        expect(show(a.state.store)).toBe(show(b.state.store));
        expect(show(a.state.log)).toBe(show(b.state.log));
      }),
      { numRuns: runs(0.2) },
    );
  });
});

describe('mergePatchIsNoop', () => {
  it('is deepEqual(mergePatch(target, patch), target), for any JSON and for patches made from the target', () => {
    const check = (t: unknown, p: unknown) => {
      expect(mergePatchIsNoop(t, p)).toBe(deepEqual(mergePatch(t, p), t));
    };
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), check), { numRuns: runs(3) });
    fc.assert(fc.property(fc.anything(), fc.anything(), check), { numRuns: runs(3) });
    // Patches that mostly repeat the target (the no-op cases): keep, null out, drop or replace each key.
    const derived = (t: unknown, pick: number[]): unknown => {
      if (t === null || typeof t !== 'object' || Array.isArray(t)) return pick.length && pick[0] % 5 === 0 ? 'x' : t;
      const out: Record<string, unknown> = {};
      let i = 0;
      for (const [k, v] of Object.entries(t)) {
        const c = pick[i++ % Math.max(pick.length, 1)] ?? 0;
        if (c % 4 === 0) out[k] = derived(v, pick.slice(1));
        else if (c % 4 === 1) out[k] = null;
        else if (c % 4 === 2) out[k] = v;
      }
      if (pick.length && pick[0] % 7 === 0) out.added = pick[0] % 2 ? undefined : 'new';
      return out;
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(20), { maxLength: 6 }), (t, pick) => check(t, derived(t, pick))),
      { numRuns: runs(3) },
    );
    // Keys the target only inherits (Object.prototype's) are absent, as in the merged copy.
    check({ a: 1, toString: 2 }, { toString: null });
    check({ a: 1 }, { constructor: null });
    check({ a: 1 }, { toString: undefined, hasOwnProperty: undefined });
    check({ a: 1 }, { valueOf: 3 });
    check({ a: 1 }, JSON.parse('{"__proto__": {}}'));
    check({ a: undefined }, { a: null, b: undefined });
    check({ a: NaN }, {}); // deepEqual finds NaN unequal to itself
    check({ a: { b: NaN } }, { a: { c: 1 } });
    check({ a: { b: NaN } }, { c: 1 });
  });
});

describe('JSON patch (RFC 6902)', () => {
  const setup = () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    return w;
  };
  const jp = (w: ReturnType<typeof testWorld>, body: unknown, extra: Partial<ApiRequest> = {}) =>
    w.kubectl({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body,
      options: { patchType: 'json' },
      ...extra,
    }) as any;

  it('applies to the stored object, then takes the update path: generation bumped on a spec change, identity kept', () => {
    const w = setup();
    const r = jp(w, [
      { op: 'test', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/spec/replicas', value: 5 },
      { op: 'add', path: '/metadata/labels', value: { tier: 'front' } },
      // BeforeUpdate puts back a removed uid and creationTimestamp (a changed uid is refused: below).
      { op: 'remove', path: '/metadata/uid' },
      { op: 'remove', path: '/metadata/creationTimestamp' },
    ]);
    expect(r).toMatchObject({
      ok: true,
      code: 200,
      object: { spec: { replicas: 5 }, metadata: { generation: 2, labels: { tier: 'front' } } },
    });
    expect(r.object.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.object.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(w.state.log.at(-1)).toMatchObject({
      verb: 'PATCH',
      path: '/apis/apps/v1/namespaces/default/deployments/web',
      code: 200,
      revision: r.revision,
    });
    // A label change alone leaves the generation.
    expect(jp(w, [{ op: 'add', path: '/metadata/labels/x', value: 'y' }]).object.metadata.generation).toBe(2);
    // A Deployment's annotations bump it, added or removed (apps/deployment/strategy.go PrepareForUpdate).
    expect(
      jp(w, [{ op: 'add', path: '/metadata/annotations', value: { team: 'blue' } }]).object.metadata.generation,
    ).toBe(3);
    expect(jp(w, [{ op: 'remove', path: '/metadata/annotations/team' }]).object.metadata.generation).toBe(4);
  });

  it('a patch that changes nothing (or has no operations) writes nothing and bumps no revision', () => {
    const w = setup();
    const rev = w.state.store.revision;
    expect(
      jp(w, [
        { op: 'test', path: '/spec/replicas', value: 3 },
        { op: 'replace', path: '/spec/replicas', value: 3 },
      ]),
    ).toMatchObject({ ok: true, code: 200 });
    expect(jp(w, [])).toMatchObject({ ok: true, code: 200 });
    expect(jp(w, null)).toMatchObject({ ok: true, code: 200 });
    expect(w.state.store.revision).toBe(rev);
    expect(w.state.log.at(-1)).not.toHaveProperty('revision');
  });

  it('a resourceVersion left in the patched object is a precondition (409 when stale); a removed one is not', () => {
    const w = setup();
    const rv = (w.kubectl({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'web' }) as any).object
      .metadata.resourceVersion;
    expect(
      jp(w, [
        { op: 'replace', path: '/metadata/resourceVersion', value: rv },
        { op: 'replace', path: '/spec/replicas', value: 4 },
      ]),
    ).toMatchObject({ ok: true });
    expect(
      jp(w, [
        { op: 'replace', path: '/metadata/resourceVersion', value: rv },
        { op: 'replace', path: '/spec/replicas', value: 6 },
      ]),
    ).toMatchObject({
      code: 409,
      status: {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      },
    });
    expect(w.state.log.at(-1)).toMatchObject({ code: 409, stage: 'storage' });
    // The optimistic lock as a test: fails with 422 on a stale version, before any write.
    expect(
      jp(w, [
        { op: 'test', path: '/metadata/resourceVersion', value: rv },
        { op: 'replace', path: '/spec/replicas', value: 6 },
      ]),
    ).toMatchObject({ code: 422 });
    expect(
      jp(w, [
        { op: 'remove', path: '/metadata/resourceVersion' },
        { op: 'replace', path: '/spec/replicas', value: 6 },
      ]),
    ).toMatchObject({ ok: true, object: { spec: { replicas: 6 } } });
  });

  it('an operation that does not apply is a bare 422 Invalid (NewGenericServerResponse); a body that is no list a 400; past 10,000 operations a 413', () => {
    const w = setup();
    const rev = w.state.store.revision;
    const r = jp(w, [{ op: 'replace', path: '/spec/template/spec/containers/1/image', value: 'x' }]);
    expect(r).toEqual({
      ok: false,
      code: 422,
      status: {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        message: 'the server rejected our request due to an error in our request',
        reason: 'Invalid',
        code: 422,
        details: {},
      },
    });
    expect(w.state.log.at(-1)).toMatchObject({
      verb: 'PATCH',
      code: 422,
      stage: 'storage',
      message: 'the server rejected our request due to an error in our request',
    });
    expect(jp(w, { op: 'add', path: '/a', value: 1 })).toMatchObject({
      code: 400,
      status: {
        reason: 'BadRequest',
        message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
      },
    });
    const many = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'Deployment' }));
    expect(jp(w, many)).toMatchObject({
      code: 413,
      status: {
        reason: 'RequestEntityTooLarge',
        message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
      },
    });
    expect(jp(w, many.slice(0, 10_000))).toMatchObject({ ok: true, code: 200 });
    expect(w.state.store.revision).toBe(rev);
    // A missing object is a 404 before the patch is read.
    expect(jp(w, 'junk', { name: 'nope' })).toMatchObject({
      code: 404,
      status: { message: 'deployments.apps "nope" not found' },
    });
  });

  it('goes through admission and validation like any update', () => {
    const w = setup();
    expect(jp(w, [{ op: 'replace', path: '/spec/replicas', value: -1 }])).toMatchObject({
      code: 422,
      status: {
        message:
          'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      },
    });
    expect(w.state.log.at(-1)).toMatchObject({ stage: 'validation' });
    expect(jp(w, [{ op: 'replace', path: '/spec/selector/matchLabels/app', value: 'other' }])).toMatchObject({
      code: 422,
    });
  });

  it('status subresource: the patch sees the whole object but only the status is kept; the main resource keeps its status', () => {
    const w = setup();
    const st = jp(
      w,
      [
        { op: 'add', path: '/status/replicas', value: 2 },
        { op: 'replace', path: '/spec/replicas', value: 9 },
      ],
      { subresource: 'status' },
    );
    expect(st).toMatchObject({
      ok: true,
      object: { spec: { replicas: 3 }, status: { replicas: 2 }, metadata: { generation: 1 } },
    });
    expect(w.state.log.at(-1)).toMatchObject({
      path: '/apis/apps/v1/namespaces/default/deployments/web/status',
      code: 200,
    });
    const rev = w.state.store.revision;
    expect(jp(w, [{ op: 'replace', path: '/status/replicas', value: 0 }])).toMatchObject({
      ok: true,
      object: { status: { replicas: 2 } },
    });
    expect(w.state.store.revision).toBe(rev); // a main-resource patch of the status alone is a no-op
    // Through the status shortcut's resource (pods) too.
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    const p = w.kubectl({
      verb: 'patch',
      resource: 'pods',
      namespace: 'default',
      name: 'p',
      subresource: 'status',
      body: [{ op: 'replace', path: '/status/phase', value: 'Running' }],
      options: { patchType: 'json' },
    }) as any;
    expect(p).toMatchObject({ ok: true, object: { status: { phase: 'Running' } } });
    expect(
      w.kubectl({
        verb: 'patch',
        resource: 'pods',
        namespace: 'default',
        name: 'p',
        subresource: 'status',
        body: { status: { phase: 'Failed' } },
        options: { patchType: 'json' },
      }),
    ).toMatchObject({ code: 400 });
  });

  it('scale subresource: the patch applies to the Scale', () => {
    const w = setup();
    const s = jp(
      w,
      [
        { op: 'test', path: '/kind', value: 'Scale' },
        { op: 'replace', path: '/spec/replicas', value: 7 },
      ],
      { subresource: 'scale' },
    );
    expect(s).toMatchObject({ ok: true, object: { kind: 'Scale', spec: { replicas: 7 } } });
    expect(
      (w.kubectl({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'web' }) as any).object.spec
        .replicas,
    ).toBe(7);
    expect(
      jp(
        w,
        [
          { op: 'replace', path: '/metadata/resourceVersion', value: '1' },
          { op: 'replace', path: '/spec/replicas', value: 1 },
        ],
        { subresource: 'scale' },
      ),
    ).toMatchObject({ code: 409 });
  });

  it('any list of operations, on any subresource, ends in an answer the pipeline gives (never a throw), and a refusal writes nothing', () => {
    const path = fc.constantFrom(
      '',
      '/spec/replicas',
      '/spec/template/spec/containers/0/image',
      '/spec/template/spec/containers/-',
      '/metadata/labels/a~1b',
      '/metadata/resourceVersion',
      '/metadata/name',
      '/status/replicas',
      '/spec/selector/matchLabels/app',
      '/kind',
      '/metadata/uid',
      'x',
      '/nope/deeper',
      '/spec/template/spec/containers/9',
    );
    const op = fc.record(
      {
        op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
        path,
        from: path,
        value: fc.oneof(
          fc.constantFrom(0, 2, -1, 'nginx:1.28', 'web', null, { a: 'b' }, [1]),
          fc.jsonValue({ maxDepth: 2 }),
        ),
      },
      { requiredKeys: ['op'] },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 5 }), fc.constantFrom(undefined, 'status', 'scale'), (ops, subresource) => {
        const w = setup();
        const rev = w.state.store.revision;
        const r = jp(w, ops, { subresource });
        expect([200, 400, 409, 413, 422]).toContain(r.code);
        if (!r.ok) expect(w.state.store.revision).toBe(rev);
      }),
      { numRuns: runs(0.3) },
    );
  });

  it("the kind and apiVersion stay the stored object's", () => {
    const w = setup();
    const r = jp(w, [
      { op: 'remove', path: '/kind' },
      { op: 'replace', path: '/apiVersion', value: 'v9' },
      { op: 'replace', path: '/spec/replicas', value: 1 },
    ]);
    expect(r).toMatchObject({ ok: true, object: { kind: 'Deployment', apiVersion: 'apps/v1', spec: { replicas: 1 } } });
  });

  it('a patched document that is no object is a 422 naming the field "patch"', () => {
    const w = setup();
    const r = jp(w, [{ op: 'replace', path: '', value: [] }]);
    expect(r).toMatchObject({
      code: 422,
      status: { reason: 'Invalid', details: { kind: '', name: '', causes: [{ field: 'patch' }] } },
    });
  });
});

describe('a write that changes the uid', () => {
  const setup = () => {
    const w = testWorld();
    const made = w.kubectl({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web') });
    return { w, uid: (made as { object: { metadata: { uid: string } } }).object.metadata.uid };
  };
  it('a patch (merge, strategic or JSON) is Invalid: the uid is immutable; the same uid is no change', () => {
    const { w, uid } = setup();
    for (const [patchType, body] of [
      ['merge', { metadata: { uid: 'other' } }],
      ['strategic', { metadata: { uid: 'other' } }],
      ['json', [{ op: 'replace', path: '/metadata/uid', value: 'other' }]],
    ] as const) {
      const r = w.kubectl({
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        body,
        options: { patchType },
      });
      expect(r.ok ? undefined : [r.code, r.status.message]).toEqual([
        422,
        'Deployment.apps "web" is invalid: metadata.uid: Invalid value: "other": field is immutable',
      ]);
    }
    const same = w.kubectl({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { metadata: { uid } },
      options: { patchType: 'merge' },
    });
    expect(same.ok && same.code).toBe(200);
  });
  it('a PUT carries its uid as a precondition: 409 Conflict', () => {
    const { w, uid } = setup();
    const cur = (
      w.kubectl({ verb: 'get', resource: 'deployments', namespace: 'default', name: 'web' }) as {
        object: KObject;
      }
    ).object;
    const r = w.kubectl({
      verb: 'update',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { ...cur, metadata: { ...cur.metadata, uid: 'other' } },
    });
    expect(r.ok ? undefined : [r.code, r.status.reason, r.status.message]).toEqual([
      409,
      'Conflict',
      `Operation cannot be fulfilled on deployments.apps "web": Precondition failed: UID in precondition: other, UID in object meta: ${uid}`,
    ]);
  });
});
