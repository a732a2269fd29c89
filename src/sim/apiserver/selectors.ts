// Field selectors (fields.ParseSelector) as list and watch filter with them; label selectors are
// ../api/labels.ts, shared with the components and kubectl. What the API server refuses in a
// selector is selector-errors.ts, in kubectl's part of the API server (kubectl-extras.ts).
import type { KObject } from '../api/request.ts';

/** One parsed field requirement. */
export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
  path: string[];
}

/** Parse a field selector string (`spec.nodeName=node-2,status.phase!=Failed`). */
export function parseFieldSelector(s: string | undefined): FieldRequirement[] {
  if (!s) return [];
  return s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const m = /^([^!=]+)(==|=|!=)(.*)$/.exec(p);
      if (!m) throw new Error(`invalid field selector: ${p}`);
      const field = m[1].trim();
      return { field, op: m[2] === '!=' ? '!=' : '=', value: m[3].trim(), path: field.split('.') };
    });
}

/** Read a dotted field path (`spec.nodeName`); missing reads as "". */
function fieldValue(obj: KObject, path: string | readonly string[]): string {
  let cur: unknown = obj;
  for (const part of typeof path === 'string' ? path.split('.') : path) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === null ? '' : String(cur);
}

/** Whether an object satisfies every field requirement. */
export function matchesFields(reqs: readonly FieldRequirement[], obj: KObject): boolean {
  for (const r of reqs) {
    const v = fieldValue(obj, r.path);
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}
