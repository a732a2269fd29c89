// kubectl get --sort-by (k8s.io/kubectl/pkg/cmd/get/sorter.go): the field as a relaxed JSONPath, rows
// or objects ordered by the first value it finds in each, compared as kubectl compares the values
// of an unstructured object (numbers as numbers, two quantities as quantities, other strings byte by
// byte, since v1.31), with Go's own sort.Sort, so rows with equal keys end up where kubectl puts them.
import { parseQuantity, type Quantity } from '../api/quantity.ts';
import { cmpQuantity } from '../api/quantity-cmp.ts';
import { goSort, goStringLess } from './go-sort.ts';
import { JsonPathError, jsonPathResults } from './jsonpath.ts';

/** A --sort-by that cannot be used, with kubectl's message (without the `error: ` prefix). */
export class SortByError extends Error {}

const RELAXED = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/;

/** RelaxedJSONPathExpression: `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all mean `{.a.b}`. */
export function relaxedJSONPathExpression(path: string): string {
  if (path === '') return path;
  const m = RELAXED.exec(path);
  if (!m)
    throw new SortByError(
      "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  return `{.${m[1] || m[2]}}`;
}

/** The field kubectl sorts by: the relaxed form, or the flag as written when that fails (as get.go does). */
export function sortField(sortBy: string): string {
  let field: string;
  try {
    field = relaxedJSONPathExpression(sortBy);
  } catch {
    field = sortBy;
  }
  try {
    jsonPathResults(field, {});
  } catch (e) {
    if (e instanceof JsonPathError) throw new SortByError(`sorting error: ${e.message}`);
    throw e;
  }
  return field;
}

/** resource.ParseQuantity's verdict (it takes "m", "+" or "." as 0: kubectl/issues/1517); undefined when Go refuses the string. */
function isQuantity(s: string): Quantity | undefined {
  try {
    return parseQuantity(s);
  } catch {
    return undefined;
  }
}

function typeName(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/**
 * isLess for two values of an unstructured object (reflect.Interface): nil before anything, numbers
 * of one kind (int64 or float64) by value, strings as quantities when both parse, else as Go's `<`.
 */
export function isLess(i: unknown, j: unknown): boolean {
  if (i === null || i === undefined) return !(j === null || j === undefined);
  if (j === null || j === undefined) return false;
  if (typeof i === 'number') {
    if (typeof j === 'number' && Number.isInteger(i) === Number.isInteger(j)) return i < j;
    throw new SortByError('unsortable interface: interface');
  }
  if (typeof i === 'string') {
    if (typeof j !== 'string') throw new SortByError('unsortable interface: interface');
    const qi = isQuantity(i);
    const qj = qi && isQuantity(j);
    if (!qi || !qj) return goStringLess(i, j);
    return cmpQuantity(qi, qj) < 0;
  }
  throw new SortByError(`unsortable type: ${typeName(i)}`);
}

/** The first value the field finds in each object (undefined: none), as findJSONPathResults gives them. */
function firstValues(field: string, objs: readonly unknown[]): { found: boolean; values: (unknown[] | undefined)[] } {
  let found = false;
  const values = objs.map((o) => {
    const r = jsonPathResults(field, o);
    if (r.length > 0 && r[0].length > 0) {
      found = true;
      return r[0];
    }
    return undefined;
  });
  return { found, values };
}

/**
 * Sort `objs` in place by `field` (already relaxed) as the TableSorter sorts a table's rows (`passes`
 * times: get sorts each table, then its SortingPrinter sorts one with more than one row again) or as
 * SortObjects sorts a list (once). Throws SortByError when no object has the field.
 */
export function sortByField<T>(objs: T[], field: string, passes = 1): void {
  if (objs.length === 0) return;
  const { found, values } = firstValues(field, objs);
  if (!found) throw new SortByError(`couldn't find any field with path "${field}" in the list of objects`);
  const rows = objs.map((o, k) => ({ o, v: values[k] }));
  // Less: an object without the field sorts first, even against another without it (as in Go).
  const less = (a: { v?: unknown[] }, b: { v?: unknown[] }) => {
    if (!a.v) return true;
    if (!b.v) return false;
    try {
      return isLess(a.v[0], b.v[0]);
    } catch (e) {
      // kubectl prints this with klog.Exitf (a fatal log line with the time and its pid); the text is the same.
      if (e instanceof SortByError)
        throw new SortByError(
          `Field ${field} in ${passes > 1 ? '[][][]reflect.Value' : '*unstructured.Unstructured'} is an unsortable type: interface, err: ${e.message}`,
        );
      throw e;
    }
  };
  for (let p = 0; p < passes; p++) if (p === 0 || rows.length > 1) goSort(rows, less);
  for (let k = 0; k < rows.length; k++) objs[k] = rows[k].o;
}
