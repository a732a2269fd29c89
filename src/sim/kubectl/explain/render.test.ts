// The plaintext template's pieces over small documents: go-wordwrap's breaks, Go template truth in
// typeGuess, the field path through items, maps and allOf, cycles, --max-depth, and the errors.
import { describe, expect, test } from 'vitest';
import { indent, renderExplain, typeGuess, wrapString, type ExplainDocument } from './render.ts';

const DOC: ExplainDocument = {
  paths: {
    'api/v1': { widgets: { group: '', kind: 'Widget', version: 'v1', schema: 'x.Widget' } },
    'apis/toys.example/v1': {},
  },
  schemas: {
    'x.Widget': {
      description: 'A widget.',
      required: ['spec'],
      properties: {
        spec: { description: 'The spec.', allOf: [{ $ref: 'x.Spec' }] },
        labels: { description: 'Labels.', type: 'object', additionalProperties: { type: 'string' } },
        parts: { type: 'array', items: { allOf: [{ $ref: 'x.Spec' }] } },
        size: { allOf: [{ $ref: 'x.Quantity' }] },
        mode: { type: 'string', enum: ['', 'A', 'B', 'C', 'D'] },
      },
    },
    'x.Spec': {
      description: 'Spec is a spec.',
      type: 'object',
      properties: { next: { allOf: [{ $ref: 'x.Spec' }] }, n: { type: 'integer' } },
    },
    'x.Quantity': { description: 'A quantity.' },
  },
};

const q = (fieldPath: string[], recursive = false, maxDepth = 0) => ({
  group: '',
  version: 'v1',
  resource: 'widgets',
  fieldPath,
  recursive,
  maxDepth,
});

describe('wrapString (go-wordwrap)', () => {
  test('breaks at spaces before the limit, keeps a word longer than it whole, keeps newlines', () => {
    expect(wrapString('aaa bbb ccc', 7)).toBe('aaa bbb\nccc');
    expect(wrapString('a https://example.com/a/very/long/url b', 10)).toBe('a\nhttps://example.com/a/very/long/url\nb');
    expect(wrapString('one\n\ntwo  three', 8)).toBe('one\n\ntwo\nthree');
    expect(indent(4, 'a\nb\n')).toBe('    a\n    b\n    ');
  });
});

describe('the plaintext template', () => {
  const c = { doc: DOC, recursive: false, maxDepth: 0 };
  test('typeGuess: arrays, maps, a single allOf, a ref with no type by its last name segment', () => {
    expect(typeGuess(DOC.schemas['x.Widget'].properties!.parts, c)).toBe('[]Spec');
    expect(typeGuess(DOC.schemas['x.Widget'].properties!.labels, c)).toBe('map[string]string');
    expect(typeGuess(DOC.schemas['x.Widget'].properties!.size, c)).toBe('Quantity');
    expect(typeGuess({ type: 'object' }, c)).toBe('Object');
    expect(() => typeGuess({}, c)).toThrow("expected schema argument to subtemplate 'typeguess'");
  });
  test('a resource: header, description with its blank indented line, fields sorted, required and enums cut at four', () => {
    expect(renderExplain(DOC, q([])).out).toBe(
      [
        'KIND:       Widget',
        'VERSION:    v1',
        '',
        'DESCRIPTION:',
        '    A widget.',
        '    ',
        'FIELDS:',
        '  labels\t<map[string]string>',
        '    Labels.',
        '',
        '  mode\t<string>',
        '  enum: "", A, B, C, ....',
        '    <no description>',
        '',
        '  parts\t<[]Spec>',
        '    <no description>',
        '',
        '  size\t<Quantity>',
        '    <no description>',
        '',
        '  spec\t<Spec> -required-',
        '    The spec.',
        '',
        '',
        '',
      ].join('\n'),
    );
  });
  test('a field through an array and allOf: FIELD, its enum in full, both descriptions', () => {
    expect(renderExplain(DOC, q(['parts', 'n'])).out).toBe(
      'KIND:       Widget\nVERSION:    v1\n\nFIELD: n <integer>\n\n\nDESCRIPTION:\n    <empty>\n\n',
    );
    expect(renderExplain(DOC, q(['mode'])).out).toContain(
      'FIELD: mode <string>\nENUM:\n    ""\n    A\n    B\n    C\n    D\n\nDESCRIPTION:\n',
    );
    expect(renderExplain(DOC, q(['spec'])).out).toContain(
      'DESCRIPTION:\n    The spec.\n    Spec is a spec.\n    \nFIELDS:\n',
    );
  });
  test('--recursive stops at a cycle and at --max-depth', () => {
    // next is a Spec again: a ref already on the way, so its fields are left out.
    expect(renderExplain(DOC, q(['spec'], true)).out).toMatch(/FIELDS:\n {2}n\t<integer>\n {2}next\t<Spec>\n\n$/);
    expect(renderExplain(DOC, q([], true, 1)).out).toContain('  spec\t<Spec> -required-\n\n');
  });
  test('errors: the last field named when the path leads nowhere (after the header), unknown documents and resources', () => {
    expect(renderExplain(DOC, q(['bogus', 'spec']))).toEqual({
      out: 'KIND:       Widget\nVERSION:    v1\n\n',
      error: 'error: field "spec" does not exist',
    });
    expect(renderExplain(DOC, { ...q([]), group: 'toys.example' })).toEqual({
      out: '',
      error: 'error: GVR (toys.example/v1, Resource=widgets) not found in OpenAPI schema',
    });
    expect(renderExplain(DOC, { ...q([]), version: 'v9' })).toEqual({
      out: '',
      error: 'error: couldn\'t find resource for "/v9, Resource=widgets"',
    });
  });
});
