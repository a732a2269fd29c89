// Label and field selectors (labels.Parse, fields.ParseSelector) as list and watch filter with them.
import type { KObject } from './store.ts';

/** One parsed label requirement. */
export interface LabelRequirement { key: string; op: 'in' | 'notin' | 'exists' | '!'; values: string[] }
/** One parsed field requirement. */
export interface FieldRequirement { field: string; op: '=' | '!='; value: string; path: string[] }

/** Parse a label selector string (`app=web,tier in (a,b),!canary`). */
export function parseLabelSelector(s: string | undefined): LabelRequirement[] {
  if (!s) return [];
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { parts.push(cur); cur = ''; } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter(Boolean).map((p): LabelRequirement => {
    let m = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(p);
    if (m) return { key: m[1], op: m[2] as 'in' | 'notin', values: m[3].split(',').map((x) => x.trim()) };
    m = /^([^!=\s]+)\s*(==|=|!=)\s*(.*)$/.exec(p);
    if (m) return { key: m[1], op: m[2] === '!=' ? 'notin' : 'in', values: [m[3].trim()] };
    if (p.startsWith('!')) return { key: p.slice(1).trim(), op: '!', values: [] };
    return { key: p, op: 'exists', values: [] };
  });
}

/** Whether labels satisfy every requirement. */
export function matchesLabels(reqs: readonly LabelRequirement[], labels: Record<string, string> | undefined): boolean {
  for (const r of reqs) {
    const v = labels?.[r.key];
    switch (r.op) {
      case 'in': if (v === undefined || !r.values.includes(v)) return false; break;
      case 'notin': if (v !== undefined && r.values.includes(v)) return false; break;
      case 'exists': if (v === undefined) return false; break;
      case '!': if (v !== undefined) return false; break;
    }
  }
  return true;
}

/** metav1.LabelSelectorAsSelector rendered as a string (matchLabels + matchExpressions). */
export function labelSelectorAsString(sel: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined): string {
  if (!sel) return '';
  const parts: string[] = [];
  for (const k of Object.keys(sel.matchLabels ?? {}).sort()) parts.push(`${k}=${sel.matchLabels![k]}`);
  for (const e of sel.matchExpressions ?? []) {
    if (e.operator === 'In') parts.push(`${e.key} in (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else parts.push(`!${e.key}`);
  }
  return parts.join(',');
}

/** Parse a field selector string (`spec.nodeName=node-2,status.phase!=Failed`). */
export function parseFieldSelector(s: string | undefined): FieldRequirement[] {
  if (!s) return [];
  return s.split(',').map((p) => p.trim()).filter(Boolean).map((p) => {
    const m = /^([^!=]+)(==|=|!=)(.*)$/.exec(p);
    if (!m) throw new Error(`invalid field selector: ${p}`);
    const field = m[1].trim();
    return { field, op: m[2] === '!=' ? '!=' : '=', value: m[3].trim(), path: field.split('.') };
  });
}

/** Read a dotted field path (`spec.nodeName`); missing reads as "". */
export function fieldValue(obj: KObject, path: string | readonly string[]): string {
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
