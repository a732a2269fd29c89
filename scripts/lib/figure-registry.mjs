// The figure registry's page half (src/components/embeds.ts, FIGURE_ROWS) read by a small parse, for
// the scripts and the browser tests, which import nothing from src/ (check-deps, rules 4 and 10):
// the one list of figure ids, each with its kind, title, chapter and anchor. Prettier keeps the
// table's layout fixed (figure-registry.test.ts holds the parse to the table itself).
import { readFileSync } from 'node:fs';

const EMBEDS = new URL('../../src/components/embeds.ts', import.meta.url);

/** A string field of a row at the row's own indent (a nested object's fields are deeper). */
function field(row, name) {
  const m = new RegExp(`^ {4}${name}:\\s*(['"])((?:\\\\.|(?!\\1).)*)\\1,`, 'm').exec(row);
  if (!m) throw new Error(`embeds.ts: a row without ${name}`);
  return m[2].replace(/\\(.)/g, '$1');
}

/** Every figure's row, in the table's order, from the text of embeds.ts. */
export function parseFigureRows(text) {
  const start = text.indexOf('export const FIGURE_ROWS');
  const end = text.indexOf('\n};\n', start);
  if (start < 0 || end < 0) throw new Error('embeds.ts: no FIGURE_ROWS table');
  const table = text.slice(start, end);
  const keys = [...table.matchAll(/^ {2}('?)([a-z][a-z0-9-]*)\1: \{$/gm)];
  return keys.map((k, i) => {
    const row = table.slice(k.index, keys[i + 1]?.index ?? table.length);
    const kind = field(row, 'kind');
    if (kind !== 'figure' && kind !== 'widget') throw new Error(`embeds.ts: ${k[2]} has the kind ${kind}`);
    return { id: k[2], kind, title: field(row, 'title'), chapter: field(row, 'chapter'), anchor: field(row, 'anchor') };
  });
}

/** The registry's rows, read from src/components/embeds.ts. */
export function figureRows() {
  return parseFigureRows(readFileSync(EMBEDS, 'utf8'));
}
