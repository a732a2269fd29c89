import type { LabelSelector, LabelSelectorRequirement } from 'kubernetes-types/meta/v1';

// metav1.LabelSelectorAsSelector semantics: matchLabels and matchExpressions are ANDed; an empty
// selector matches everything, a nil selector matches nothing (callers decide which they have).

const NO_LABELS: Record<string, string> = Object.freeze({}) as Record<string, string>;

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
  const l = labels ?? NO_LABELS;
  const ml = selector.matchLabels;
  // for…in rather than Object.entries: this runs for every pod of a node on every count.
  if (ml) for (const k in ml) if (l[k] !== ml[k]) return false;
  const me = selector.matchExpressions;
  if (me) for (let i = 0; i < me.length; i++) if (!matchesRequirement(me[i], l)) return false;
  return true;
}

/** A stable string for a selector, used as a cache key. */
export function selectorKey(selector: LabelSelector): string {
  const ml = Object.entries(selector.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const me = (selector.matchExpressions ?? []).map((r) => [r.key, r.operator, [...(r.values ?? [])].sort()]);
  return JSON.stringify([ml, me]);
}
