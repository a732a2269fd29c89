import type { LabelSelector, LabelSelectorRequirement } from 'kubernetes-types/meta/v1';

// metav1.LabelSelectorAsSelector semantics: matchLabels and matchExpressions are ANDed; an empty
// selector matches everything, a nil selector matches nothing (callers decide which they have).

/** Whether one matchExpressions requirement holds for the labels. */
export function matchesRequirement(req: LabelSelectorRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return has && values.includes(labels[req.key]);
    case 'NotIn':
      return !has || !values.includes(labels[req.key]);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
  }
}

/** Whether a LabelSelector matches the labels (undefined selector matches nothing). */
export function labelSelectorMatches(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (l[k] !== v) return false;
  }
  for (const req of selector.matchExpressions ?? []) {
    if (!matchesRequirement(req, l)) return false;
  }
  return true;
}

/** A stable string for a selector, used as a cache key. */
export function selectorKey(selector: LabelSelector): string {
  const ml = Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const me = (selector.matchExpressions ?? []).map((r) => [r.key, r.operator, [...(r.values ?? [])].sort()]);
  return JSON.stringify([ml, me]);
}
