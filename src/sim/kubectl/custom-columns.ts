// kubectl get -o custom-columns=HEADER:PATH,… (cli-runtime printers/customcolumn.go): one column per
// header and relaxed JSONPath, each cell every value the path finds, printed with Go's fmt.Sprint and
// joined by commas, `<none>` when it finds nothing; headers as written, columns as `get` aligns them.
import { jsonPathResults, parseJsonPath } from './jsonpath.ts';
import { relaxedJSONPathExpression, SortByError } from './sort-by.ts';
import { GET_TABS, tabwrite } from './tabwriter.ts';

/** One user column: its header and its field, already in `{.a.b}` form. */
export interface CustomColumn {
  header: string;
  field: string;
}

/** A spec kubectl refuses, with its message (without the `error: ` prefix). */
export class CustomColumnsError extends Error {}

/** NewCustomColumnsPrinterFromSpec: split `H1:path1,H2:path2` into columns, or refuse as kubectl does. */
export function parseCustomColumns(spec: string): CustomColumn[] {
  if (spec === '') throw new CustomColumnsError('custom-columns format specified but no custom columns given');
  return spec.split(',').map((part) => {
    const colon = part.indexOf(':');
    if (colon === -1)
      throw new CustomColumnsError(`unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`);
    let field: string;
    try {
      field = relaxedJSONPathExpression(part.slice(colon + 1));
    } catch (e) {
      if (e instanceof SortByError) throw new CustomColumnsError(e.message);
      throw e;
    }
    try {
      parseJsonPath(field);
    } catch (e) {
      throw new CustomColumnsError((e as Error).message);
    }
    return { header: part.slice(0, colon), field };
  });
}

/** Go's %v of a float64 ('g', shortest): an exponent below 1e-4 and from 1e21, with at least two digits. */
function goFloat(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e21)) {
    const [m, e] = v.toExponential().split('e');
    const n = Number(e);
    return `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  return String(v);
}

/** fmt.Sprint of a value of an unstructured object (maps print with their keys sorted, as Go does). */
export function goSprint(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (Array.isArray(v)) return `[${v.map(goSprint).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${Object.keys(o)
    .sort()
    .map((k) => `${k}:${goSprint(o[k])}`)
    .join(' ')}]`;
}

/** printers.EscapeTerminal: an escape character or carriage return in a value cannot drive the terminal. */
function escapeTerminal(s: string): string {
  return s.replaceAll('\x1b', '^[').replace(/\r/g, '\\r');
}

/** The printed table: the header line (unless `noHeaders`), then one line per object. */
export function printCustomColumns(columns: CustomColumn[], objs: readonly unknown[], noHeaders: boolean): string {
  let t = noHeaders ? '' : `${columns.map((c) => c.header).join('\t')}\n`;
  for (const o of objs) {
    t += `${columns
      .map((c) => {
        const values = jsonPathResults(c.field, o);
        if (values.length === 0 || values[0].length === 0) return '<none>';
        return values
          .flat()
          .map((x) => escapeTerminal(goSprint(x)))
          .join(',');
      })
      .join('\t')}\n`;
  }
  return tabwrite(t, GET_TABS);
}
