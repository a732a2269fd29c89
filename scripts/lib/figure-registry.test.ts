import { describe, expect, it } from 'vitest';
import { FIGURE_ROWS } from '../../src/components/embeds.ts';
import { figureRows, parseFigureRows } from './figure-registry.mjs';

describe('figureRows', () => {
  it('reads the registry table as the TypeScript module holds it', () => {
    const expected = Object.entries(FIGURE_ROWS).map(([id, r]) => ({
      id,
      kind: r.kind,
      title: r.title,
      chapter: r.chapter,
      anchor: r.anchor,
    }));
    expect(figureRows()).toEqual(expected);
    expect(expected.length).toBeGreaterThan(30);
  });

  it('unescapes quotes, reads either quote, and skips a nested row', () => {
    const text = [
      'export const FIGURE_ROWS: X = {',
      "  'a-b': {",
      "    kind: 'widget',",
      "    title: 'It\\'s one',",
      '    chapter: "c",',
      "    anchor: 'figure-c-a',",
      "    terminal: { title: 'no' },",
      '  },',
      '};',
      '',
    ].join('\n');
    expect(parseFigureRows(text)).toEqual([
      { id: 'a-b', kind: 'widget', title: "It's one", chapter: 'c', anchor: 'figure-c-a' },
    ]);
  });

  it('refuses a row without its kind', () => {
    expect(() => parseFigureRows("export const FIGURE_ROWS = {\n  a: {\n    title: 't',\n  },\n};\n")).toThrow(/kind/);
  });
});
