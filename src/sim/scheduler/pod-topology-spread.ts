import type { LabelSelector, Node, Pod, TopologySpreadConstraint } from './k8s-types.ts';
import type { CycleContext, FilterPlugin, Listers, ScorePlugin } from './framework.ts';
import { MAX_NODE_SCORE, SUCCESS, newStatus } from './framework.ts';
import type { NodeInfo } from './node-info.ts';
import { catchUp, catchUpCounts, newSlotView, nodeSlots, type NodeSlots, type SlotView } from './node-slots.ts';
import { labelSelectorMatches, selectorKey } from '../api/labels.ts';
import { countSingleValueIn, matchCountKey, matchCountKeyId, podCountsFor, trustMatchCounts } from './match-counts.ts';
import { requiredNodeAffinityMatches } from './node-affinity.ts';
import { doNotScheduleTaintsFilter, findMatchingUntoleratedTaint } from './taint-toleration.ts';
import {
  countersOf,
  defaultConstraintsMemo,
  domainTerms,
  ptsViews,
  scratch,
  scratchTable,
  serviceNamespaces,
} from './pod-topology-spread-cache.ts';

// podtopologyspread: filtering.go (DoNotSchedule), scoring.go (ScheduleAnyway and the system
// defaults), common.go (constraints, node inclusion policies), plugin.go (systemDefaultConstraints).

/** ErrReasonConstraintsNotMatch. */
const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
/** ErrReasonNodeLabelNotMatch. */
const ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + ' (missing required label)';

/** LabelHostname. */
const LABEL_HOSTNAME = 'kubernetes.io/hostname';
/** LabelTopologyZone. */
const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';

/** systemDefaultConstraints (plugin.go): soft spreading by host (maxSkew 3) and zone (maxSkew 5). */
const SYSTEM_DEFAULT_CONSTRAINTS: TopologySpreadConstraint[] = [
  { topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LABEL_TOPOLOGY_ZONE, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

/** topologySpreadConstraint: the API constraint with its selector resolved. */
export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  selector: LabelSelector;
  selectorKey: string;
  minDomains: number;
  nodeAffinityPolicy: 'Honor' | 'Ignore';
  nodeTaintsPolicy: 'Honor' | 'Ignore';
}

/** filterTopologySpreadConstraints: the pod's constraints for one action, matchLabelKeys merged into the selector. */
export function filterTopologySpreadConstraints(
  constraints: TopologySpreadConstraint[] | undefined,
  podLabels: Record<string, string> | undefined,
  action: 'DoNotSchedule' | 'ScheduleAnyway',
): SpreadConstraint[] {
  const out: SpreadConstraint[] = [];
  for (const c of constraints ?? []) {
    if (c.whenUnsatisfiable !== action) continue;
    const selector: LabelSelector = {
      matchLabels: { ...(c.labelSelector?.matchLabels ?? {}) },
      matchExpressions: [...(c.labelSelector?.matchExpressions ?? [])],
    };
    for (const key of c.matchLabelKeys ?? []) {
      const v = podLabels?.[key];
      if (v !== undefined) selector.matchExpressions!.push({ key, operator: 'In', values: [v] });
    }
    out.push(toConstraint(c, selector));
  }
  return out;
}

function toConstraint(
  c: TopologySpreadConstraint,
  selector: LabelSelector,
  key = selectorKey(selector),
): SpreadConstraint {
  return {
    maxSkew: c.maxSkew,
    topologyKey: c.topologyKey,
    selector,
    selectorKey: key,
    minDomains: c.minDomains ?? 1,
    nodeAffinityPolicy: c.nodeAffinityPolicy === 'Ignore' ? 'Ignore' : 'Honor',
    nodeTaintsPolicy: c.nodeTaintsPolicy === 'Honor' ? 'Honor' : 'Ignore',
  };
}

function isEmptySelector(s: LabelSelector): boolean {
  return Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;
}

/** helper.DefaultSelector: the selectors of the Services selecting the pod, plus its controlling ReplicaSet/StatefulSet's. */
function defaultSelector(pod: Pod, listers: Listers): LabelSelector {
  const ns = pod.metadata?.namespace ?? '';
  const labels = pod.metadata?.labels ?? {};
  const matchLabels: Record<string, string> = {};
  for (const svc of listers.services ?? []) {
    const sel = svc.spec?.selector;
    if ((svc.metadata?.namespace ?? '') !== ns || sel === undefined) continue;
    if (Object.entries(sel).every(([k, v]) => labels[k] === v)) Object.assign(matchLabels, sel);
  }
  const matchExpressions: NonNullable<LabelSelector['matchExpressions']> = [];
  const owner = (pod.metadata?.ownerReferences ?? []).find((o) => o.controller);
  if (owner && owner.apiVersion === 'apps/v1' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const list = owner.kind === 'ReplicaSet' ? listers.replicaSets : listers.statefulSets;
    const ctrl = (list ?? []).find((o) => o.metadata?.name === owner.name && (o.metadata?.namespace ?? '') === ns);
    const sel = ctrl?.spec?.selector;
    if (sel) {
      // LabelSelectorAsSelector turns matchLabels into "key In (value)" requirements.
      for (const [key, v] of Object.entries(sel.matchLabels ?? {}))
        matchExpressions.push({ key, operator: 'In', values: [v] });
      matchExpressions.push(...(sel.matchExpressions ?? []));
    }
  }
  return { matchLabels, matchExpressions };
}

// The namespaces holding a Service with a selector (the only ones where the pod's labels count).
function namespacesWithServices(listers: Listers): Set<string> {
  let set = serviceNamespaces.get(listers);
  if (!set) {
    set = new Set();
    for (const svc of listers.services ?? [])
      if (svc.spec?.selector !== undefined) set.add(svc.metadata?.namespace ?? '');
    serviceNamespaces.set(listers, set);
  }
  return set;
}

/** buildDefaultConstraints: system defaults with the default selector, none if that selector is empty. */
export function buildDefaultConstraints(pod: Pod, listers: Listers): SpreadConstraint[] {
  const ns = pod.metadata?.namespace ?? '';
  const owner = (pod.metadata?.ownerReferences ?? []).find((o) => o.controller);
  let memo = defaultConstraintsMemo.get(listers);
  if (!memo) defaultConstraintsMemo.set(listers, (memo = new Map()));
  // The labels matter only where a Service could select the pod.
  const labelsMatter = namespacesWithServices(listers).has(ns);
  const memoKey = `${ns}\u0000${owner ? `${owner.apiVersion}/${owner.kind}/${owner.name}` : ''}${labelsMatter ? '\u0000' + JSON.stringify(pod.metadata?.labels ?? {}) : ''}`;
  let out = memo.get(memoKey);
  if (!out) {
    const sel = defaultSelector(pod, listers);
    const key = selectorKey(sel);
    out = isEmptySelector(sel) ? [] : SYSTEM_DEFAULT_CONSTRAINTS.map((c) => toConstraint(c, sel, key));
    if (memo.size >= 1024) memo.clear();
    memo.set(memoKey, out);
  }
  return out;
}

// Per-node match counts live in NodeInfo.matchCounts (plain data, kept up to date by AddPod and
// RemovePod), so a cycle over a thousand nodes costs one property lookup per node.

/** A per-cycle counter for one (namespace, selector): countPodsMatchSelector with memoisation. */
export interface MatchCounter {
  (ni: NodeInfo): number;
  /** Namespace + selector: what the counts depend on. */
  key: string;
}

/** countPodsMatchSelector over a node's pods: non-terminating, same namespace, matching (empty selector counts 0). */
export function countPodsMatchSelector(pods: readonly Pod[], selector: LabelSelector, ns: string): number {
  if (isEmptySelector(selector)) return 0;
  let count = 0;
  for (const p of pods) if (podCountsFor(p, selector, ns)) count++;
  return count;
}

/** A memoised countPodsMatchSelector for one constraint's selector in the pod's namespace. */
export function matchCounter(c: SpreadConstraint, ns: string): MatchCounter {
  let byNs = countersOf.get(c);
  if (!byNs) countersOf.set(c, (byNs = new Map()));
  let mc = byNs.get(ns);
  if (!mc) byNs.set(ns, (mc = newMatchCounter(c, ns)));
  return mc;
}

function newMatchCounter(c: SpreadConstraint, ns: string): MatchCounter {
  const key = matchCountKey(ns, c.selectorKey, c.selector);
  if (isEmptySelector(c.selector)) return Object.assign(() => 0, { key });
  const counter = (ni: NodeInfo): number => {
    let m = ni.matchCounts;
    if (m === undefined || ni.matchCountsGeneration !== ni.generation) {
      m = ni.matchCounts = {};
      ni.matchCountKeys = [];
      ni.matchCountsGeneration = ni.generation;
      trustMatchCounts(ni);
    }
    const v = m[key];
    if (v !== undefined) return v;
    (ni.matchCountKeys ??= []).push(key);
    return (m[key] = countSingleValueIn(key, ni.pods) ?? countPodsMatchSelector(ni.pods, c.selector, ns));
  };
  return Object.assign(counter, { key });
}

// Domain totals over all nodes, kept per node list (node-slots.ts) and per (selector, namespace,
// topology key, required keys), and updated only for the nodes whose count or labels moved since
// the last call. PreScore and PreFilter walk every node for every pod; with 1,000 nodes that walk
// dominated the cycle. The cache is used only when a node's eligibility does not depend on the
// incoming pod (no node affinity to honour, taints ignored).
interface DomainCache extends SlotView {
  values: (string | undefined)[];
  counts: number[];
  members: Record<string, number>;
  totals: Record<string, number>;
}

function podIndependentInclusion(c: SpreadConstraint, pod: Pod): boolean {
  if (c.nodeTaintsPolicy === 'Honor') return false;
  if (c.nodeAffinityPolicy === 'Ignore') return true;
  return !pod.spec?.nodeSelector && !pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
}

/**
 * Matching pods per topology value of `c` over the eligible nodes. A node is eligible when it has
 * every key in `requiredKeys` and passes the inclusion policies; with `missingAsEmpty` a node
 * without `c.topologyKey` counts towards the "" domain (Go reads a missing label as "").
 */
export function domainCounts(
  allNodes: NodeInfo[],
  c: SpreadConstraint,
  counter: MatchCounter,
  pod: Pod,
  requiredKeys: string[],
  missingAsEmpty: boolean,
): Record<string, number> {
  const valueOf = (ni: NodeInfo): string | undefined => {
    const labels = ni.node.metadata?.labels ?? {};
    for (const k of requiredKeys) if (!Object.prototype.hasOwnProperty.call(labels, k)) return undefined;
    const v = labels[c.topologyKey];
    return v === undefined ? (missingAsEmpty ? '' : undefined) : v;
  };
  if (!podIndependentInclusion(c, pod)) {
    const out: Record<string, number> = {};
    for (const ni of allNodes) {
      const v = valueOf(ni);
      if (v === undefined || !matchNodeInclusionPolicies(c, pod, ni.node)) continue;
      out[v] = (out[v] ?? 0) + counter(ni);
    }
    return out;
  }
  const slots = nodeSlots(allNodes);
  const views = viewsOf(slots);
  const id = matchCountKeyId(counter.key);
  const byKey = (views.domains[id] ??= new Map<string, DomainCache>());
  const key =
    requiredKeys.length === 0
      ? missingAsEmpty
        ? c.topologyKey
        : c.topologyKey + '\u0000false'
      : `${c.topologyKey}\u0000${missingAsEmpty}\u0000${requiredKeys.join('\u0000')}`;
  let dc = byKey.get(key);
  if (!dc) {
    const n = allNodes.length;
    dc = {
      ...newSlotView(n),
      values: new Array(n).fill(undefined),
      counts: new Array(n).fill(0),
      members: {},
      totals: {},
    };
    byKey.set(key, dc);
  }
  const d = dc;
  // Without required keys, a node's value and count come from the per-slot views (which scoring
  // reads too), so a changed node is looked at once, not once per cache.
  const fromSlots = requiredKeys.length === 0;
  const slotValues = fromSlots ? slotLabels(slots, allNodes, c.topologyKey).values : undefined;
  const slotCount = fromSlots ? slotCounts(slots, allNodes, counter) : undefined;
  // Only the slots whose value or count may have moved since the last call need a look.
  const refresh = (i: number) => {
    const old = d.values[i];
    if (old !== undefined) {
      d.totals[old] -= d.counts[i];
      if (--d.members[old] === 0) {
        delete d.members[old];
        delete d.totals[old];
      }
    }
    let v: string | undefined;
    let cnt = 0;
    if (slotValues) {
      v = slotValues[i];
      if (v === undefined && missingAsEmpty) v = '';
      if (v !== undefined) cnt = slotCount![i];
    } else {
      v = valueOf(allNodes[i]);
      if (v !== undefined) cnt = counter(allNodes[i]);
    }
    if (v !== undefined) {
      d.members[v] = (d.members[v] ?? 0) + 1;
      d.totals[v] = (d.totals[v] ?? 0) + cnt;
    }
    d.values[i] = v;
    d.counts[i] = cnt;
  };
  if (fromSlots) catchUpCounts(slots, d, id, true, refresh);
  else catchUp(slots, d, refresh);
  return d.totals;
}

/** nodeLabelsMatchSpreadConstraints: the node carries every constraint's topology key. */
export function nodeLabelsMatchSpreadConstraints(
  labels: Record<string, string> | undefined,
  constraints: SpreadConstraint[],
): boolean {
  const l = labels ?? {};
  return constraints.every((c) => Object.prototype.hasOwnProperty.call(l, c.topologyKey));
}

/** matchNodeInclusionPolicies: nodeAffinityPolicy Honor (default) and nodeTaintsPolicy Ignore (default). */
function matchNodeInclusionPolicies(c: SpreadConstraint, pod: Pod, node: Node): boolean {
  if (c.nodeAffinityPolicy === 'Honor' && !requiredNodeAffinityMatches(pod, node)) return false;
  if (
    c.nodeTaintsPolicy === 'Honor' &&
    findMatchingUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, doNotScheduleTaintsFilter)
  )
    return false;
  return true;
}

/** PreFilter state: per constraint, matching pods per topology value over eligible nodes. */
interface TopologySpreadPreFilterState {
  constraints: SpreadConstraint[];
  tpValueToMatchNum: Record<string, number>[];
}

/** calPreFilterState for the pod's DoNotSchedule constraints (undefined = plugin skipped). */
function calPreFilterState(pod: Pod, allNodes: NodeInfo[]): TopologySpreadPreFilterState | undefined {
  const constraints = filterTopologySpreadConstraints(
    pod.spec?.topologySpreadConstraints,
    pod.metadata?.labels,
    'DoNotSchedule',
  );
  if (constraints.length === 0) return undefined;
  const ns = pod.metadata?.namespace ?? '';
  const requiredKeys = constraints.map((c) => c.topologyKey);
  const tpValueToMatchNum = constraints.map((c) => ({
    ...domainCounts(allNodes, c, matchCounter(c, ns), pod, requiredKeys, false),
  }));
  return { constraints, tpValueToMatchNum };
}

/** minMatchNum: the global minimum, 0 while fewer domains exist than minDomains. */
function minMatchNum(counts: Record<string, number>, minDomains: number): number {
  const values = Object.values(counts);
  if (values.length < minDomains || values.length === 0) return 0;
  return Math.min(...values);
}

// Per-slot views for scoreAll (see node-slots.ts): a node's label value and its matching-pod count
// per selector, refreshed only for slots whose version moved.
const NO_LABELS: Record<string, string> = {};

interface SlotValues extends SlotView {
  values: (string | undefined)[];
  /** ids[k]: the index of values[k] in `names` (−1 when undefined), so a pass over the nodes can read a small table instead of a dictionary. */
  ids: Int32Array;
  names: string[];
  nameIds: Map<string, number>;
}
interface SlotCounts extends SlotView {
  counts: Float64Array;
}

// The views of one list, found without building a string per call: labels by topology key, counts
// and domain totals by the count key's id.
export interface PtsViews {
  labels: Map<string, SlotValues>;
  counts: (SlotCounts | undefined)[];
  domains: (Map<string, DomainCache> | undefined)[];
}
function viewsOf(slots: NodeSlots): PtsViews {
  let v = ptsViews.get(slots);
  if (!v) ptsViews.set(slots, (v = { labels: new Map(), counts: [], domains: [] }));
  return v;
}

function slotLabels(slots: NodeSlots, list: NodeInfo[], key: string): SlotValues {
  const views = viewsOf(slots);
  let e = views.labels.get(key);
  if (!e) {
    const n = list.length;
    views.labels.set(
      key,
      (e = {
        ...newSlotView(n),
        values: new Array(n).fill(undefined),
        ids: new Int32Array(n).fill(-1),
        names: [],
        nameIds: new Map(),
      }),
    );
  }
  const { values, ids, names, nameIds } = e;
  // Read as score() reads it: (labels ?? {})[key]. Only node updates change labels.
  catchUpCounts(slots, e, -1, true, (k) => {
    const v = (list[k].node.metadata?.labels ?? NO_LABELS)[key];
    values[k] = v;
    let id = -1;
    if (v !== undefined) {
      id = nameIds.get(v) ?? -1;
      if (id < 0) {
        id = names.length;
        names.push(v);
        nameIds.set(v, id);
      }
    }
    ids[k] = id;
  });
  return e;
}

function slotCounts(slots: NodeSlots, list: NodeInfo[], counter: MatchCounter): Float64Array {
  const views = viewsOf(slots);
  const id = matchCountKeyId(counter.key);
  let e = views.counts[id];
  if (!e) views.counts[id] = e = { ...newSlotView(list.length), counts: new Float64Array(list.length) };
  const counts = e.counts;
  catchUpCounts(slots, e, id, false, (k) => {
    counts[k] = counter(list[k]);
  });
  return counts;
}

const PTS = 'PodTopologySpread';
// A constant key: building it per call (PTS + '/score') made every Score a string flatten + lookup.
const PTS_SCORE_STATE = 'PodTopologySpread/score';

/** PodTopologySpread Filter: matching + self − global min must not exceed maxSkew for DoNotSchedule constraints. */
export const podTopologySpreadFilter: FilterPlugin = {
  name: PTS,
  preFilter(pod, ctx) {
    ctx.state[PTS] = calPreFilterState(pod, ctx.allNodes);
    return undefined;
  },
  filter(pod, nodeInfo, ctx) {
    const s = ctx.state[PTS] as TopologySpreadPreFilterState | undefined;
    if (!s) return SUCCESS;
    const labels = nodeInfo.node.metadata?.labels ?? {};
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i];
      if (!Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) {
        return newStatus('UnschedulableAndUnresolvable', ERR_REASON_NODE_LABEL_NOT_MATCH);
      }
      const selfMatchNum = labelSelectorMatches(c.selector, pod.metadata?.labels) ? 1 : 0;
      const matchNum = s.tpValueToMatchNum[i][labels[c.topologyKey]] ?? 0;
      const skew = matchNum + selfMatchNum - minMatchNum(s.tpValueToMatchNum[i], c.minDomains);
      if (skew > c.maxSkew) return newStatus('Unschedulable', ERR_REASON_CONSTRAINTS_NOT_MATCH);
    }
    return SUCCESS;
  },
  addPod: (pod, other, ni, ctx) => updateWithPod(ctx, other, pod, ni, 1),
  removePod: (pod, other, ni, ctx) => updateWithPod(ctx, other, pod, ni, -1),
};

/**
 * updateWithPod (the AddPod/RemovePod extensions): move the counts of the domains `updated` sits in.
 * Copy on write, so a preemption dry run's cloned cycle state leaves the original alone.
 */
function updateWithPod(ctx: CycleContext, updated: Pod, preemptor: Pod, ni: NodeInfo, delta: number): void {
  const s = ctx.state[PTS] as TopologySpreadPreFilterState | undefined;
  const node = ni.node;
  if (!s || (updated.metadata?.namespace ?? '') !== (preemptor.metadata?.namespace ?? '')) return;
  if (!nodeLabelsMatchSpreadConstraints(node.metadata?.labels, s.constraints)) return;
  let counts = s.tpValueToMatchNum;
  s.constraints.forEach((c, i) => {
    if (!labelSelectorMatches(c.selector, updated.metadata?.labels)) return;
    if (!matchNodeInclusionPolicies(c, preemptor, node)) return;
    const v = node.metadata!.labels![c.topologyKey];
    if (counts === s.tpValueToMatchNum) counts = [...counts];
    counts[i] = { ...counts[i], [v]: (counts[i][v] ?? 0) + delta };
  });
  if (counts !== s.tpValueToMatchNum) ctx.state[PTS] = { ...s, tpValueToMatchNum: counts };
}

/** PreScore state (scoring.go preScoreState). */
interface TopologySpreadPreScoreState {
  constraints: SpreadConstraint[];
  counters: MatchCounter[];
  ignoredNodes: Set<string>;
  topologyValueToPodCounts: Record<string, number>[];
  topologyNormalizingWeight: number[];
  /**
   * The array scoreAll last filled, with the least and greatest score in it (the greatest at least
   * 0, as NormalizeScore takes them): NormalizeScore on that same array, next, needs no pass of its own.
   */
  rangeOut?: ArrayLike<number>;
  rangeMin?: number;
  rangeMax?: number;
}

// The ignoredNodes of a PreScore that ignored none (shared, never added to: a set is made on the first).
// eslint-disable-next-line no-restricted-syntax -- a constant: compared by identity, never added to
const NO_IGNORED: Set<string> = new Set();

/** topologyNormalizingWeight: log(size + 2), so small topologies aren't drowned by big ones. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

/** scoreForCount: cnt × weight + (maxSkew − 1). */
export function scoreForCount(cnt: number, maxSkew: number, tpWeight: number): number {
  return cnt * tpWeight + (maxSkew - 1);
}

/** PreScore: soft constraints (or the system defaults) and the pod counts per topology value. */
function topologySpreadPreScore(
  pod: Pod,
  filteredNodes: NodeInfo[],
  ctx: CycleContext,
): TopologySpreadPreScoreState | undefined {
  const hasOwn = (pod.spec?.topologySpreadConstraints ?? []).length > 0;
  const constraints = hasOwn
    ? filterTopologySpreadConstraints(pod.spec?.topologySpreadConstraints, pod.metadata?.labels, 'ScheduleAnyway')
    : buildDefaultConstraints(pod, ctx.listers);
  if (constraints.length === 0) return undefined;
  // Only explicit constraints require every topology key; with the system defaults a node
  // without a zone label still gets hostname spreading.
  const requireAllTopologies = hasOwn;
  const ns = pod.metadata?.namespace ?? '';
  const s: TopologySpreadPreScoreState = {
    constraints,
    counters: constraints.map((c) => matchCounter(c, ns)),
    ignoredNodes: NO_IGNORED,
    topologyValueToPodCounts: constraints.map(() => ({})),
    topologyNormalizingWeight: [],
    rangeOut: undefined,
    rangeMin: 0,
    rangeMax: 0,
  };
  const topoSize = constraints.map(() => 0);
  const nc = constraints.length;
  // Only non-hostname constraints need the counts over every node (per-node counts come in Score).
  const requiredKeys = requireAllTopologies ? constraints.map((c) => c.topologyKey) : [];
  const domainTotals = (i: number) =>
    domainCounts(ctx.allNodes, constraints[i], s.counters[i], pod, requiredKeys, !requireAllTopologies);
  // With the system defaults and pod-independent inclusion every node has a value in the domain
  // totals, so once the feasible nodes have shown every one of them no later node adds a key:
  // stop walking (the same keys and sizes; a thousand nodes in three zones show them in a few).
  let early: (Record<string, number> | undefined)[] | undefined;
  let remaining = 0;
  if (
    !requireAllTopologies &&
    constraints.every((c) => c.topologyKey === LABEL_HOSTNAME || podIndependentInclusion(c, pod))
  ) {
    early = constraints.map((c, i) => (c.topologyKey === LABEL_HOSTNAME ? undefined : domainTotals(i)));
    for (const t of early) if (t) remaining += Object.keys(t).length;
  }
  for (let f = 0; f < filteredNodes.length; f++) {
    if (early && remaining === 0) break;
    const ni = filteredNodes[f];
    const labels = ni.node.metadata?.labels ?? {};
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, constraints)) {
      if (s.ignoredNodes === NO_IGNORED) s.ignoredNodes = new Set();
      s.ignoredNodes.add(ni.name);
      continue;
    }
    // Plain loops: this runs for every feasible node of every pod (hundreds × 30,000 in a burst).
    for (let i = 0; i < nc; i++) {
      const tk = constraints[i].topologyKey;
      if (tk === LABEL_HOSTNAME) continue; // per-node counts are taken in Score
      // Go indexes the map with "" for a missing label; keep that quirk.
      const key = labels[tk] ?? '';
      const counts = s.topologyValueToPodCounts[i];
      if (counts[key] === undefined) {
        counts[key] = 0;
        topoSize[i]++;
        if (early && early[i]![key] !== undefined) remaining--;
      }
    }
  }
  s.topologyNormalizingWeight = constraints.map((c, i) =>
    topologyNormalizingWeight(
      c.topologyKey === LABEL_HOSTNAME ? filteredNodes.length - s.ignoredNodes.size : topoSize[i],
    ),
  );
  constraints.forEach((c, i) => {
    if (c.topologyKey === LABEL_HOSTNAME) return;
    const totals = early ? early[i]! : domainTotals(i);
    const counts = s.topologyValueToPodCounts[i];
    for (const v of Object.keys(counts)) counts[v] = totals[v] ?? 0;
  });
  return s;
}

/** PodTopologySpread Score (weight 2): fewer matching pods in the node's domains is better. */
export const podTopologySpreadScore: ScorePlugin = {
  name: PTS,
  weight: 2,
  preScore(pod, feasible, ctx) {
    const s = topologySpreadPreScore(pod, feasible, ctx);
    ctx.state[PTS_SCORE_STATE] = s;
    return s !== undefined;
  },
  score(pod, ni, ctx) {
    const s = ctx.state[PTS_SCORE_STATE] as TopologySpreadPreScoreState;
    if (s.ignoredNodes.size > 0 && s.ignoredNodes.has(ni.name)) return 0;
    const labels = ni.node.metadata?.labels ?? {};
    let score = 0;
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i];
      const v = labels[c.topologyKey];
      if (v === undefined) continue;
      const cnt = c.topologyKey === LABEL_HOSTNAME ? s.counters[i](ni) : (s.topologyValueToPodCounts[i][v] ?? 0);
      score += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]);
    }
    // Go's math.Round rounds half away from zero; scores are non-negative so Math.round agrees.
    return Math.round(score);
  },
  scoreAll(_pod, feasible, ctx, out) {
    // score() for every node: the same terms, added in the same order (constraint by constraint,
    // so the same floating-point sums). With slots, the counts and labels come from per-slot arrays.
    const s = ctx.state[PTS_SCORE_STATE] as TopologySpreadPreScoreState;
    const n = feasible.length;
    const idx = ctx.feasibleIdx;
    s.rangeOut = undefined;
    if (s.ignoredNodes.size > 0 || !idx || idx.length !== n) {
      for (let f = 0; f < n; f++) out[f] = podTopologySpreadScore.score(_pod, feasible[f], ctx);
      return;
    }
    const slots = nodeSlots(ctx.allNodes);
    const acc = scratch(n);
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i];
      const tk = c.topologyKey;
      const labels = slotLabels(slots, ctx.allNodes, tk);
      const values = labels.values;
      const w = s.topologyNormalizingWeight[i];
      const offset = c.maxSkew - 1;
      if (tk === LABEL_HOSTNAME) {
        const counts = slotCounts(slots, ctx.allNodes, s.counters[i]);
        const ids = labels.ids; // −1 exactly where the value is undefined
        for (let f = 0; f < n; f++) {
          const k = idx[f];
          if (ids[k] >= 0) acc[f] += counts[k] * w + offset;
        }
      } else if (labels.names.length <= n) {
        // A domain's term once per domain (a few zones), then a table read per node.
        const byValue = s.topologyValueToPodCounts[i];
        const names = labels.names;
        const ids = labels.ids;
        const terms = domainTerms(names.length);
        for (let d = 0; d < names.length; d++) terms[d] = (byValue[names[d]] ?? 0) * w + offset;
        for (let f = 0; f < n; f++) {
          const d = ids[idx[f]];
          if (d >= 0) acc[f] += terms[d];
        }
      } else {
        const byValue = s.topologyValueToPodCounts[i];
        for (let f = 0; f < n; f++) {
          const v = values[idx[f]];
          if (v !== undefined) acc[f] += (byValue[v] ?? 0) * w + offset;
        }
      }
    }
    // Go's math.Round rounds half away from zero; scores are non-negative so Math.round agrees.
    let minScore = Number.MAX_SAFE_INTEGER;
    let maxScore = 0;
    for (let f = 0; f < n; f++) {
      const v = Math.round(acc[f]);
      out[f] = v;
      if (v < minScore) minScore = v;
      if (v > maxScore) maxScore = v;
    }
    s.rangeOut = out;
    s.rangeMin = minScore;
    s.rangeMax = maxScore;
  },
  normalize(scores, feasible, ctx) {
    const s = ctx.state[PTS_SCORE_STATE] as TopologySpreadPreScoreState;
    let minScore = Number.MAX_SAFE_INTEGER;
    let maxScore = 0;
    const anyIgnored = s.ignoredNodes.size > 0;
    if (s.rangeOut === scores && !anyIgnored) {
      // Straight from scoreAll (no ignored nodes there): its range is this pass's answer.
      minScore = s.rangeMin!;
      maxScore = s.rangeMax!;
    } else {
      for (let i = 0; i < scores.length; i++) {
        if (anyIgnored && s.ignoredNodes.has(feasible[i].name)) continue;
        if (scores[i] < minScore) minScore = scores[i];
        if (scores[i] > maxScore) maxScore = scores[i];
      }
    }
    s.rangeOut = undefined;
    // Raw scores are whole numbers in [min, max], usually a narrow range: divide once per value.
    const span = maxScore - minScore;
    const table =
      !anyIgnored && maxScore !== 0 && span < 1024 && scores.length > 32 ? scratchTable(span + 1) : undefined;
    if (table)
      for (let d = 0; d <= span; d++)
        table[d] = Math.trunc((MAX_NODE_SCORE * (maxScore + minScore - (minScore + d))) / maxScore);
    if (table) {
      // The loop below without the branches that cannot be taken here (no ignored node, max > 0).
      for (let i = 0; i < scores.length; i++) {
        const hit = table[scores[i] - minScore];
        scores[i] =
          hit !== undefined ? hit : Math.trunc((MAX_NODE_SCORE * (maxScore + minScore - scores[i])) / maxScore);
      }
      return;
    }
    for (let i = 0; i < scores.length; i++) {
      if (anyIgnored && s.ignoredNodes.has(feasible[i].name)) {
        scores[i] = 0;
        continue;
      }
      if (maxScore === 0) {
        scores[i] = MAX_NODE_SCORE;
        continue;
      }
      const hit = table !== undefined ? table[scores[i] - minScore] : undefined;
      scores[i] = hit !== undefined ? hit : Math.trunc((MAX_NODE_SCORE * (maxScore + minScore - scores[i])) / maxScore);
    }
  },
};
