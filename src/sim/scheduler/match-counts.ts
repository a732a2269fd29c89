import type { LabelSelector, Pod } from './k8s-types.ts';
import { labelSelectorMatches } from './label-selector.ts';

// NodeInfo.matchCounts holds, per (namespace, selector) key, how many of the node's pods
// countPodsMatchSelector would count. Recounting a node's pods after every change, for every
// selector in use, dominated big bursts (30 selectors × 30 pods each time a pod lands); instead
// AddPod/RemovePod adjust each count by the one pod that came or went. The keys are plain strings
// (the counts are plain data in the state); which selector a key means is looked up here, and a key
// this process has not seen (a restored snapshot) just drops the counts, so they are recounted.

/** What a matchCounts key stands for. */
export interface MatchSelector {
  namespace: string;
  selector: LabelSelector;
}

interface Registered extends MatchSelector {
  key: string;
  empty: boolean;
  id: number;
  /** Set when the selector is one "key In (value)" requirement (what a ReplicaSet's matchLabels becomes). */
  onlyKey?: string;
  onlyValue?: string;
}
const selectors = new Map<string, Registered>();

function register(ns: string, selector: LabelSelector, key: string): Registered {
  const r: Registered = { namespace: ns, selector, key, empty: isEmptySelector(selector), id: selectors.size };
  const me = selector.matchExpressions ?? [];
  let ml = 0;
  for (const _ in selector.matchLabels ?? {}) ml++;
  if (ml === 0 && me.length === 1 && me[0].operator === 'In' && me[0].values?.length === 1) {
    r.onlyKey = me[0].key;
    r.onlyValue = me[0].values[0];
  }
  selectors.set(key, r);
  return r;
}

/** The matchCounts key for pods of namespace `ns` matching the selector whose selectorKey is `selKey`. */
export function matchCountKey(ns: string, selKey: string, selector: LabelSelector): string {
  const key = ns + '\u0000' + selKey;
  const s = selectors.get(key);
  // Always the first string made for a key: one string object keeps property lookups on the fast path.
  if (s) return s.key;
  register(ns, selector, key);
  return key;
}

/** A small number for a key made by matchCountKey (the journal names moved counts by it); −1 if unknown. */
export function matchCountKeyId(key: string): number {
  return selectors.get(key)?.id ?? -1;
}

function isEmptySelector(s: LabelSelector): boolean {
  if (s.matchExpressions && s.matchExpressions.length > 0) return false;
  for (const _ in s.matchLabels ?? {}) return false;
  return true;
}

/** Whether countPodsMatchSelector counts `pod`: not terminating, same namespace, matched by a non-empty selector. */
export function podCountsFor(pod: Pod, selector: LabelSelector, ns: string): boolean {
  const m = pod.metadata;
  if (m?.deletionTimestamp || (m?.namespace ?? '') !== ns) return false;
  return !isEmptySelector(selector) && labelSelectorMatches(selector, m?.labels);
}

/**
 * Move every count in `counts` by `sign` for `pod` (it joined or left the node). `keys` lists the
 * keys of `counts` (NodeInfo.matchCountKeys: walking an array beats for…in over a dictionary);
 * without it, Object.keys. The ids of the keys whose count moved are added to `moved`. Returns false when a key is unknown here, in which case the caller drops the counts.
 */
export function adjustMatchCounts(counts: Record<string, number>, keys: string[] | undefined, pod: Pod, sign: 1 | -1, moved?: number[]): boolean {
  const list = keys ?? Object.keys(counts);
  const m = pod.metadata;
  if (m?.deletionTimestamp) {
    // Terminating pods are counted by no selector; the keys must still be known.
    for (let i = 0; i < list.length; i++) if (!selectors.has(list[i])) return false;
    return true;
  }
  const ns = m?.namespace ?? '';
  const labels = m?.labels;
  for (let i = 0; i < list.length; i++) {
    const key = list[i];
    const s = selectors.get(key);
    if (!s) return false;
    if (s.empty || s.namespace !== ns || counts[key] === undefined) continue;
    // labels[k] === v for a string v is "has k with value v": inherited properties are never strings.
    if (s.onlyKey !== undefined ? labels !== undefined && labels[s.onlyKey] === s.onlyValue : labelSelectorMatches(s.selector, labels)) {
      counts[key] += sign;
      moved?.push(s.id);
    }
  }
  return true;
}
