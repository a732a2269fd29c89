import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyJSONPatch, atoi, decodeJSONPatch, decodePatchKey, type JsonPatchOperation } from './json-patch.ts';
import { runs } from '../../test/fc.ts';

const apply = (doc: unknown, ops: unknown[]) => applyJSONPatch(doc, ops as JsonPatchOperation[]);

describe('RFC 6902 appendix A', () => {
  // [section, document, patch, result (or the error json-patch gives)]
  const cases: [string, unknown, unknown[], { doc: unknown } | { error: string }][] = [
    [
      'A.1 add an object member',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux' }],
      { doc: { foo: 'bar', baz: 'qux' } },
    ],
    [
      'A.2 add an array element',
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { doc: { foo: ['bar', 'qux', 'baz'] } },
    ],
    [
      'A.3 remove an object member',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'remove', path: '/baz' }],
      { doc: { foo: 'bar' } },
    ],
    [
      'A.4 remove an array element',
      { foo: ['bar', 'qux', 'baz'] },
      [{ op: 'remove', path: '/foo/1' }],
      { doc: { foo: ['bar', 'baz'] } },
    ],
    [
      'A.5 replace a value',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { doc: { baz: 'boo', foo: 'bar' } },
    ],
    [
      'A.6 move a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { doc: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } } },
    ],
    [
      'A.7 move an array element',
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { doc: { foo: ['all', 'cows', 'eat', 'grass'] } },
    ],
    [
      'A.8 test a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { doc: { baz: 'qux', foo: ['a', 2, 'c'] } },
    ],
    [
      'A.9 test a value: error',
      { baz: 'qux' },
      [{ op: 'test', path: '/baz', value: 'bar' }],
      { error: 'testing value /baz failed: test failed' },
    ],
    [
      'A.10 add a nested member object',
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { doc: { foo: 'bar', child: { grandchild: {} } } },
    ],
    [
      'A.11 ignore unrecognized elements',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }],
      { doc: { foo: 'bar', baz: 'qux' } },
    ],
    [
      'A.12 add to a nonexistent target',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz/bat', value: 'qux' }],
      { error: 'add operation does not apply: doc is missing path: "/baz/bat": missing value' },
    ],
    [
      'A.14 ~ escape ordering',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: 10 }],
      { doc: { '/': 9, '~1': 10 } },
    ],
    [
      'A.15 comparing strings and numbers',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: '10' }],
      { error: 'testing value /~01 failed: test failed' },
    ],
    [
      'A.16 add an array value',
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { doc: { foo: ['bar', ['abc', 'def']] } },
    ],
  ];
  for (const [name, doc, ops, want] of cases) {
    it(name, () => {
      const r = apply(doc, ops);
      expect(r).toEqual('doc' in want ? { ok: true, doc: want.doc } : { ok: false, error: want.error });
    });
  }
});

describe('json-patch v4 as Kubernetes vendors it (quirks and error strings)', () => {
  const doc = () => ({
    metadata: { name: 'web', labels: { app: 'web', 'a/b': 'x', 'c~d': 'y', gone: null } },
    spec: { replicas: 2, list: ['a', 'b', 'c'], n: 5 },
  });
  const cases: [string, unknown[], unknown][] = [
    // ~1 and ~0 in paths
    [
      'a label with a slash',
      [{ op: 'replace', path: '/metadata/labels/a~1b', value: 'z' }],
      ['metadata.labels', { app: 'web', 'a/b': 'z', 'c~d': 'y', gone: null }],
    ],
    [
      'a label with a tilde',
      [{ op: 'remove', path: '/metadata/labels/c~0d' }],
      ['metadata.labels', { app: 'web', 'a/b': 'x', gone: null }],
    ],
    // replace of a missing object member adds it (partialDoc.get never fails)
    [
      'replace of a missing member adds it',
      [{ op: 'replace', path: '/metadata/labels/new', value: 'v' }],
      ['metadata.labels', { app: 'web', 'a/b': 'x', 'c~d': 'y', gone: null, new: 'v' }],
    ],
    // a null member is there to remove, and tests equal to null or to no value
    [
      'remove a null member',
      [
        { op: 'test', path: '/metadata/labels/gone', value: null },
        { op: 'test', path: '/metadata/labels/gone' },
        { op: 'remove', path: '/metadata/labels/gone' },
      ],
      ['metadata.labels', { app: 'web', 'a/b': 'x', 'c~d': 'y' }],
    ],
    [
      'test of a missing member against null passes',
      [{ op: 'test', path: '/metadata/labels/nothing', value: null }],
      ['metadata.labels', { app: 'web', 'a/b': 'x', 'c~d': 'y', gone: null }],
    ],
    // a path without its leading slash drops its first token
    ['a/b means /b', [{ op: 'add', path: 'ignored/extra', value: 1 }], ['extra', 1]],
    // negative indices count from the end
    [
      'negative index',
      [
        { op: 'replace', path: '/spec/list/-1', value: 'z' },
        { op: 'remove', path: '/spec/list/-3' },
      ],
      ['spec.list', ['b', 'z']],
    ],
    [
      'add at -1 appends (the new array is one longer)',
      [{ op: 'add', path: '/spec/list/-1', value: 'd' }],
      ['spec.list', ['a', 'b', 'c', 'd']],
    ],
    [
      'add at the length appends',
      [{ op: 'add', path: '/spec/list/3', value: 'd' }],
      ['spec.list', ['a', 'b', 'c', 'd']],
    ],
    [
      'a leading + or zeros is an index (strconv.Atoi)',
      [{ op: 'remove', path: '/spec/list/+01' }],
      ['spec.list', ['a', 'c']],
    ],
    [
      'copy deep-copies',
      [
        { op: 'copy', from: '/metadata/labels', path: '/spec/sel' },
        { op: 'add', path: '/spec/sel/app', value: 'x' },
        { op: 'test', path: '/metadata/labels/app', value: 'web' },
      ],
      ['spec.sel.app', 'x'],
    ],
    ['add without a value adds null', [{ op: 'add', path: '/spec/x' }], ['spec.x', null]],
    ['a null item is an operation of kind unknown', [null], 'Unexpected kind: unknown'],
    ['unknown op', [{ op: 'ADD', path: '/a', value: 1 }], 'Unexpected kind: ADD'],
    ['no op', [{ path: '/a' }], 'Unexpected kind: unknown'],
    ['add without a path', [{ op: 'add', value: 1 }], 'add operation failed to decode path: missing value'],
    ['remove without a path', [{ op: 'remove' }], 'remove operation failed to decode path: missing value'],
    [
      'replace without a path',
      [{ op: 'replace', value: 1 }],
      'replace operation failed to decode path: operation missing path field: missing value',
    ],
    [
      'test without a path',
      [{ op: 'test', value: 1 }],
      'test operation failed to decode path: operation missing path field: missing value',
    ],
    [
      'move without from',
      [{ op: 'move', path: '/a' }],
      'move operation failed to decode from: operation, missing from field: missing value',
    ],
    [
      'copy without from',
      [{ op: 'copy', path: '/a' }],
      'copy operation failed to decode from: operation, missing from field: missing value',
    ],
    [
      'move without a path',
      [{ op: 'move', from: '/spec/n' }],
      'move operation failed to decode path: operation missing path field: missing value',
    ],
    ['copy without a path', [{ op: 'copy', from: '/spec/n' }], 'copy operation failed to decode path: missing value'],
    [
      'add through a missing member',
      [{ op: 'add', path: '/spec/template/x', value: 1 }],
      'add operation does not apply: doc is missing path: "/spec/template/x": missing value',
    ],
    [
      'add at the root',
      [{ op: 'add', path: '', value: {} }],
      'add operation does not apply: doc is missing path: "": missing value',
    ],
    [
      'add through a number',
      [{ op: 'add', path: '/spec/n/x', value: 1 }],
      'add operation does not apply: doc is missing path: "/spec/n/x": missing value',
    ],
    [
      'add through a null',
      [{ op: 'add', path: '/metadata/labels/gone/x', value: 1 }],
      'add operation does not apply: doc is missing path: "/metadata/labels/gone/x": missing value',
    ],
    [
      'add past the end',
      [{ op: 'add', path: '/spec/list/5', value: 1 }],
      "error in add for path: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced",
    ],
    [
      'add before the start',
      [{ op: 'add', path: '/spec/list/-5', value: 1 }],
      "error in add for path: '/spec/list/-5': Unable to access invalid index: -5: invalid index referenced",
    ],
    [
      'add at a word in an array',
      [{ op: 'add', path: '/spec/list/x', value: 1 }],
      `error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    [
      'remove a missing member',
      [{ op: 'remove', path: '/metadata/labels/nope' }],
      "error in remove for path: '/metadata/labels/nope': Unable to remove nonexistent key: nope: missing value",
    ],
    [
      'remove - in an array',
      [{ op: 'remove', path: '/spec/list/-' }],
      `error in remove for path: '/spec/list/-': strconv.Atoi: parsing "-": invalid syntax`,
    ],
    [
      'remove past the end',
      [{ op: 'remove', path: '/spec/list/3' }],
      "error in remove for path: '/spec/list/3': Unable to access invalid index: 3: invalid index referenced",
    ],
    [
      'remove through a missing member',
      [{ op: 'remove', path: '/status/x' }],
      'remove operation does not apply: doc is missing path: "/status/x": missing value',
    ],
    [
      'replace a missing element',
      [{ op: 'replace', path: '/spec/list/3', value: 1 }],
      'replace operation does not apply: doc is missing key: /spec/list/3: missing value',
    ],
    [
      'replace through a missing member',
      [{ op: 'replace', path: '/status/x', value: 1 }],
      'replace operation does not apply: doc is missing path: /status/x: missing value',
    ],
    [
      'replace the root with a string',
      [{ op: 'replace', path: '', value: 's' }],
      'replace operation value must be object or array: %!w(<nil>)',
    ],
    [
      'move from a missing parent',
      [{ op: 'move', from: '/status/x', path: '/a' }],
      'move operation does not apply: doc is missing from path: /status/x: missing value',
    ],
    [
      'move a missing member (the key is named, not the path)',
      [{ op: 'move', from: '/spec/nope', path: '/a' }],
      "error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value",
    ],
    [
      'move a missing element',
      [{ op: 'move', from: '/spec/list/7', path: '/a' }],
      "error in move for path: '7': Unable to access invalid index: 7: invalid index referenced",
    ],
    [
      'move into its own child',
      [{ op: 'move', from: '/spec', path: '/spec/inner' }],
      'move operation does not apply: doc is missing destination path: /spec/inner: missing value',
    ],
    [
      'move to a bad index',
      [{ op: 'move', from: '/spec/n', path: '/spec/list/9' }],
      "error in move for path: '/spec/list/9': Unable to access invalid index: 9: invalid index referenced",
    ],
    [
      'copy from a missing parent',
      [{ op: 'copy', from: '/status/x', path: '/a' }],
      'copy operation does not apply: doc is missing from path: /status/x: missing value',
    ],
    [
      'copy from a bad index',
      [{ op: 'copy', from: '/spec/list/x', path: '/a' }],
      `error in copy for from: '/spec/list/x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    [
      'copy to a missing parent',
      [{ op: 'copy', from: '/spec/n', path: '/status/x' }],
      'copy operation does not apply: doc is missing destination path: /status/x: missing value',
    ],
    [
      'copy to a bad index',
      [{ op: 'copy', from: '/spec/n', path: '/spec/list/9' }],
      'error while adding value during copy: Unable to access invalid index: 9: invalid index referenced',
    ],
    [
      'test a missing parent',
      [{ op: 'test', path: '/status/x', value: 1 }],
      'test operation does not apply: is missing path: /status/x: missing value',
    ],
    [
      'test a bad index',
      [{ op: 'test', path: '/spec/list/9', value: 1 }],
      "error in test for path: '/spec/list/9': Unable to access invalid index: 9: invalid index referenced",
    ],
    ['test a value without a value', [{ op: 'test', path: '/spec/n' }], 'testing value /spec/n failed: test failed'],
    ['test the whole document', [{ op: 'test', path: '', value: { a: 1 } }], 'testing value  failed: test failed'],
    [
      'test an object: a null member is not a missing one',
      [{ op: 'test', path: '/metadata/labels', value: { app: 'web', 'a/b': 'x', 'c~d': 'y' } }],
      'testing value /metadata/labels failed: test failed',
    ],
    [
      'the first failure ends the patch',
      [
        { op: 'add', path: '/spec/x', value: 1 },
        { op: 'test', path: '/spec/x', value: 2 },
        { op: 'add', path: '/spec/y', value: 1 },
      ],
      'testing value /spec/x failed: test failed',
    ],
  ];
  for (const [name, ops, want] of cases) {
    it(name, () => {
      const before = JSON.stringify(doc());
      const d = doc();
      const r = apply(d, ops);
      expect(JSON.stringify(d)).toBe(before); // the input is never edited
      if (typeof want === 'string') expect(r).toEqual({ ok: false, error: want });
      else {
        const [where, v] = want as [string, unknown];
        expect(r.ok).toBe(true);
        expect(where.split('.').reduce((o: any, k) => o?.[k], (r as { doc: unknown }).doc)).toEqual(v);
        if (where === 'spec.sel.app') expect((r as { doc: any }).doc.metadata.labels.app).toBe('web');
      }
    });
  }

  it('replaces the whole document with an object or an array', () => {
    expect(apply({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }])).toEqual({ ok: true, doc: { b: 2 } });
    expect(
      apply({ a: 1 }, [
        { op: 'replace', path: '', value: [1] },
        { op: 'add', path: '/-', value: 2 },
      ]),
    ).toEqual({ ok: true, doc: [1, 2] });
    expect(apply({ a: 1 }, [{ op: 'test', path: '', value: { a: 1 } }])).toEqual({ ok: true, doc: { a: 1 } });
  });

  it('keeps a member named __proto__ as data', () => {
    const r = apply({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as {
      ok: true;
      doc: Record<string, unknown>;
    };
    expect(Object.getPrototypeOf(r.doc)).toBe(Object.prototype);
    expect(Object.keys(r.doc)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops copies past the accumulated copy size limit (3 MiB): the third 1 MiB string goes over', () => {
    const big = 'x'.repeat(1024 * 1024);
    const ops = [0, 1, 2, 3].map((i) => ({ op: 'copy', from: '/big', path: `/c${i}` }));
    expect(apply({ big }, ops)).toEqual({
      ok: false,
      error: `Unable to complete the copy, the accumulated size increase of copy is ${3 * (1024 * 1024 + 2)}, exceeding the limit ${3 * 1024 * 1024}`,
    });
  });
});

describe('decoding', () => {
  it('takes a list of operations, or null (no operations); refuses the rest as the strict decoder does', () => {
    expect(decodeJSONPatch(null)).toEqual({ ok: true, ops: [] });
    expect(decodeJSONPatch([])).toEqual({ ok: true, ops: [] });
    expect(decodeJSONPatch({ op: 'add' })).toEqual({
      ok: false,
      message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    });
    expect(decodeJSONPatch('x')).toEqual({
      ok: false,
      message: 'error decoding patch: json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp',
    });
    expect(decodeJSONPatch([1])).toEqual({
      ok: false,
      message: 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp',
    });
    expect(decodeJSONPatch([[]])).toEqual({
      ok: false,
      message: 'error decoding patch: json: cannot unmarshal array into Go value of type handlers.jsonPatchOp',
    });
    expect(decodeJSONPatch([{ op: 'add', path: 3 }])).toEqual({
      ok: false,
      message:
        'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string',
    });
    expect(decodeJSONPatch([{ op: true }])).toEqual({
      ok: false,
      message: 'error decoding patch: json: cannot unmarshal bool into Go struct field jsonPatchOp.op of type string',
    });
    expect(decodeJSONPatch([{ op: 'add', path: null, from: null, value: [1] }])).toMatchObject({ ok: true });
  });

  it('decodePatchKey unescapes ~1 before ~0', () => {
    expect(decodePatchKey('~01')).toBe('~1');
    expect(decodePatchKey('a~1b~0c')).toBe('a/b~c');
  });

  it('atoi is strconv.Atoi', () => {
    expect(atoi('12')).toEqual({ ok: true, n: 12n });
    expect(atoi('-0')).toEqual({ ok: true, n: 0n });
    expect(atoi('')).toEqual({ ok: false, error: 'strconv.Atoi: parsing "": invalid syntax' });
    expect(atoi(' 1')).toEqual({ ok: false, error: 'strconv.Atoi: parsing " 1": invalid syntax' });
    expect(atoi('1_0')).toEqual({ ok: false, error: 'strconv.Atoi: parsing "1_0": invalid syntax' });
    expect(atoi('9223372036854775807')).toEqual({ ok: true, n: 9223372036854775807n });
    expect(atoi('9223372036854775808')).toEqual({
      ok: false,
      error: 'strconv.Atoi: parsing "9223372036854775808": value out of range',
    });
  });
});

describe('properties', () => {
  const key = fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__');
  const doc = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }));
  // A JSON pointer token for a key (RFC 6901 escaping).
  const token = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

  it('a test of what was just added at a path passes', () => {
    fc.assert(
      fc.property(doc, key, fc.jsonValue({ maxDepth: 3 }), (d, k, v) => {
        const r = apply(d, [
          { op: 'add', path: `/${token(k)}`, value: v },
          { op: 'test', path: `/${token(k)}`, value: v },
        ]);
        expect(r.ok).toBe(true);
      }),
    );
  });

  it('add then remove at a new key gives the object back', () => {
    fc.assert(
      fc.property(doc, key, fc.jsonValue({ maxDepth: 3 }), (d, k, v) => {
        fc.pre(!Object.hasOwn(d, k));
        const r = apply(d, [
          { op: 'add', path: `/${token(k)}`, value: v },
          { op: 'remove', path: `/${token(k)}` },
        ]);
        expect(r.ok && JSON.stringify(r.doc)).toBe(JSON.stringify(d));
      }),
    );
  });

  it('never throws, and never edits its input, whatever the operations', () => {
    const path = fc.oneof(
      fc.constantFrom('', '/', '/a', '/a/0', '/a/-', '/a/-1', '/b/c', 'x', 'x/a', '/a/+1', '/~01'),
      fc.string({ maxLength: 8 }),
    );
    const op = fc.record(
      {
        op: fc.oneof(
          fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'),
          fc.string({ maxLength: 4 }),
          fc.constant(undefined),
        ),
        path: fc.oneof(path, fc.constant(undefined), fc.constant(null)),
        from: fc.oneof(path, fc.constant(undefined)),
        value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
      },
      { requiredKeys: [] },
    );
    const start = fc.record(
      { a: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }), b: fc.jsonValue({ maxDepth: 2 }) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(start, fc.array(op, { maxLength: 6 }), (d, ops) => {
        const before = JSON.stringify(d);
        const r = apply(d, ops);
        expect(typeof r.ok).toBe('boolean');
        expect(JSON.stringify(d)).toBe(before);
      }),
      { numRuns: runs(2) },
    );
  });
});
