// The one label-selector implementation: k8s.io/apimachinery/pkg/labels (Parse, Requirement,
// Selector.Matches, SelectorFromSet) and metav1.LabelSelectorAsSelector / its String(). The API
// server's list and watch filters and its validation, the controllers, the scheduler and kubectl
// all match through it. Labels are a Go map[string]string: a key is there only as an own property.
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { requirementsOf } from './labels-cache.ts';

/** One parsed label requirement (labels.Requirement; `!` is DoesNotExist). */
export interface LabelRequirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!';
  values: string[];
}

/** A LabelSelector's shape as the API objects carry it. */
export type LabelSelectorLike = Pick<LabelSelector, 'matchLabels'> & {
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
};

/** Parse a label selector string (`app=web,tier in (a,b),!canary`). */
export function parseLabelSelector(s: string | undefined): LabelRequirement[] {
  if (!s) return [];
  return splitRequirements(s).map((p): LabelRequirement => {
    let m = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(p);
    if (m) return { key: m[1], op: m[2] as 'in' | 'notin', values: m[3].split(',').map((x) => x.trim()) };
    m = /^([^!=\s]+)\s*(==|=|!=)\s*(.*)$/.exec(p);
    if (m) return { key: m[1], op: m[2] === '!=' ? 'notin' : 'in', values: [m[3].trim()] };
    if (p.startsWith('!')) return { key: p.slice(1).trim(), op: '!', values: [] };
    return { key: p, op: 'exists', values: [] };
  });
}

/** A selector string's requirements, trimmed, split at the commas outside `in (…)`'s parentheses. */
export function splitRequirements(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Selector.Matches: whether labels satisfy every requirement. */
export function matchesLabels(reqs: readonly LabelRequirement[], labels: Record<string, string> | undefined): boolean {
  for (let i = 0; i < reqs.length; i++) {
    const r = reqs[i];
    const v = labels !== undefined && Object.hasOwn(labels, r.key) ? labels[r.key] : undefined;
    switch (r.op) {
      case 'in':
        if (v === undefined || !r.values.includes(v)) return false;
        break;
      case 'notin':
        if (v !== undefined && r.values.includes(v)) return false;
        break;
      case 'exists':
        if (v === undefined) return false;
        break;
      case '!':
        if (v !== undefined) return false;
        break;
    }
  }
  return true;
}

// An operator LabelSelectorAsSelector does not know makes the selector invalid: it selects nothing.
const NOTHING: LabelRequirement = { key: '', op: 'in', values: [] };

/**
 * metav1.LabelSelectorAsSelector: matchLabels and matchExpressions as requirements, ANDed (an empty
 * selector has none and matches everything). Memoised per selector object: stored objects never change.
 */
export function labelSelectorRequirements(sel: LabelSelectorLike): LabelRequirement[] {
  let reqs = requirementsOf.get(sel);
  if (reqs) return reqs;
  reqs = [];
  const ml = sel.matchLabels;
  if (ml) for (const k of Object.keys(ml).sort()) reqs.push({ key: k, op: 'in', values: [ml[k]] });
  for (const e of sel.matchExpressions ?? []) {
    const op =
      e.operator === 'In'
        ? 'in'
        : e.operator === 'NotIn'
          ? 'notin'
          : e.operator === 'Exists'
            ? 'exists'
            : e.operator === 'DoesNotExist'
              ? '!'
              : undefined;
    reqs.push(
      op ? { key: e.key, op, values: op === 'in' || op === 'notin' ? [...(e.values ?? [])].sort() : [] } : NOTHING,
    );
  }
  requirementsOf.set(sel, reqs);
  return reqs;
}

/** Whether a LabelSelector matches the labels (an undefined selector matches nothing; callers decide which they have). */
export function labelSelectorMatches(
  selector: LabelSelectorLike | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  return selector !== undefined && matchesLabels(labelSelectorRequirements(selector), labels);
}

/** labels.SelectorFromSet(set).Matches(labels): every key of the plain map with its value (a Service's selector). */
export function matchesSet(set: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  for (const k in set) if (labels === undefined || !Object.hasOwn(labels, k) || labels[k] !== set[k]) return false;
  return true;
}

/** metav1.LabelSelectorAsSelector rendered as a string (matchLabels + matchExpressions). */
export function labelSelectorAsString(sel: LabelSelectorLike | undefined): string {
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

/** A stable string for a selector, used as a cache key. */
export function selectorKey(selector: LabelSelector): string {
  const ml = Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const me = (selector.matchExpressions ?? []).map((r) => [r.key, r.operator, [...(r.values ?? [])].sort()]);
  return JSON.stringify([ml, me]);
}
