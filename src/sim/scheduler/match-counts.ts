import type { LabelSelector, Pod } from './k8s-types.ts';
import { labelSelectorMatches } from '../api/labels.ts';
import { knownKeys, matchMemo, selectors } from './match-counts-cache.ts';

// NodeInfo.matchCounts holds, per (namespace, selector) key, how many of the node's pods
// countPodsMatchSelector would count. Recounting a node's pods after every change, for every
// selector in use, dominated big bursts (30 selectors × 30 pods each time a pod lands); instead
// AddPod/RemovePod adjust each count by the one pod that came or went. The keys are plain strings
// (the counts are plain data in the state); which selector a key means is looked up here, and a key
// this process has not seen (a restored snapshot) just drops the counts, so they are recounted.

/** What a matchCounts key stands for. */
interface MatchSelector {
  namespace: string;
  selector: LabelSelector;
}

export interface Registered extends MatchSelector {
  key: string;
  empty: boolean;
  id: number;
  /** Set when the selector is one "key In (value)" requirement (what a ReplicaSet's matchLabels becomes). */
  onlyKey?: string;
  onlyValue?: string;
  /**
   * Set when every requirement is a matchLabels pair or a one-value "In" (a Deployment's
   * ReplicaSet: app and pod-template-hash): the selector matches exactly when labels[keys[i]] ===
   * values[i] for every i.
   */
  keys?: string[];
  values?: string[];
}

function register(ns: string, selector: LabelSelector, key: string): Registered {
  const r: Registered = { namespace: ns, selector, key, empty: isEmptySelector(selector), id: selectors.size };
  const me = selector.matchExpressions ?? [];
  let ml = 0;
  for (const _ in selector.matchLabels ?? {}) ml++;
  if (ml === 0 && me.length === 1 && me[0].operator === 'In' && me[0].values?.length === 1) {
    r.onlyKey = me[0].key;
    r.onlyValue = me[0].values[0];
  }
  if (!r.empty && me.every((e) => e.operator === 'In' && e.values?.length === 1)) {
    const keys: string[] = [];
    const values: string[] = [];
    const pairs = selector.matchLabels ?? {};
    for (const k in pairs) {
      keys.push(k);
      values.push(pairs[k]);
    }
    for (const e of me) {
      keys.push(e.key);
      values.push(e.values![0]);
    }
    r.keys = keys;
    r.values = values;
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

/**
 * countPodsMatchSelector for the key's selector when it is made of label equalities (matchLabels
 * and one-value "In" requirements, as a ReplicaSet's under default spreading): label reads per pod
 * instead of the general matcher. undefined for other selectors.
 */
export function countSingleValueIn(key: string, pods: readonly Pod[]): number | undefined {
  const s = selectors.get(key);
  if (s === undefined || s.keys === undefined) return undefined;
  const ns = s.namespace;
  const keys = s.keys;
  const values = s.values!;
  const nk = keys.length;
  let count = 0;
  for (let i = 0; i < pods.length; i++) {
    const m = pods[i].metadata;
    // As podCountsFor: terminating and other namespaces' pods never count; labels[k] === v for a
    // string v is "has k with value v" (inherited properties are never strings).
    if (m === undefined || m.deletionTimestamp || (m.namespace ?? '') !== ns) continue;
    const l = m.labels;
    if (l === undefined) continue;
    let j = 0;
    while (j < nk && l[keys[j]] === values[j]) j++;
    if (j === nk) count++;
  }
  return count;
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

function matchingSelectors(ns: string, labels: Record<string, string> | undefined): Registered[] {
  const k = ns + '\u0000' + (labels ? JSON.stringify(labels) : '');
  let e = matchMemo.get(k);
  if (!e || e.size !== selectors.size) {
    const matched: Registered[] = [];
    for (const s of selectors.values()) {
      if (s.empty || s.namespace !== ns) continue;
      // labels[k] === v for a string v is "has k with value v": inherited properties are never strings.
      if (
        s.onlyKey !== undefined
          ? labels !== undefined && labels[s.onlyKey] === s.onlyValue
          : labelSelectorMatches(s.selector, labels)
      )
        matched.push(s);
    }
    if (matchMemo.size >= 4096) matchMemo.clear();
    matchMemo.set(k, (e = { size: selectors.size, matched }));
  }
  return e.matched;
}

/** Note that `owner`'s counts were made here (every key through matchCountKey). */
export function trustMatchCounts(owner: object): void {
  knownKeys.add(owner);
}

/**
 * Move the counts in `counts` (owned by `owner`, a NodeInfo) by `sign` for `pod`, which joined or
 * left the node: each registered selector the pod matches moves its count, if the node keeps one.
 * `keys` lists the keys of `counts` (NodeInfo.matchCountKeys; Object.keys without it). The ids of
 * the moved keys are added to `moved`. Returns false when a key is unknown here, in which case the
 * caller drops the counts.
 */
export function adjustMatchCounts(
  owner: object,
  counts: Record<string, number>,
  keys: string[] | undefined,
  pod: Pod,
  sign: 1 | -1,
  moved?: number[],
): boolean {
  if (!knownKeys.has(owner)) {
    const list = keys ?? Object.keys(counts);
    for (let i = 0; i < list.length; i++) if (!selectors.has(list[i])) return false;
    knownKeys.add(owner);
  }
  const m = pod.metadata;
  // Terminating pods are counted by no selector.
  if (m?.deletionTimestamp) return true;
  const matched = matchingSelectors(m?.namespace ?? '', m?.labels);
  for (let i = 0; i < matched.length; i++) {
    const s = matched[i];
    if (counts[s.key] === undefined) continue;
    counts[s.key] += sign;
    moved?.push(s.id);
  }
  return true;
}
