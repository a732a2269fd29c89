// The core's schedulePod (schedulePodFast): the same verdicts, scores, picks and records as the
// reference path (schedule-one.ts, which the tests hold it to and the core does not load), from
// caches of node-local verdicts (per node, or in flat arrays per node slot), filter lists with the
// PreFilter-skipped plugins left out, and score sums without per-node records. A node with other
// pods of equal or higher priority nominated to it (only preemption makes them) is filtered with
// those pods added, for this pod alone, and so without the caches.
// schedule-fast.test.ts pins every result to the reference path's.
import type { CycleContext, FilterPlugin, Rng, ScorePlugin } from './framework.ts';
import type { Pod, Toleration } from './k8s-types.ts';
import { nodeAffinityFilter } from './node-affinity.ts';
import {
  type HostPort,
  LOCAL_CACHE,
  type LocalCache,
  type NodeInfo,
  computePodResource,
  podHostPorts,
} from './node-info.ts';
import { nodeName } from './node-name.ts';
import { nodePorts } from './node-ports.ts';
import {
  type NodeSlots,
  type SlotView,
  catchUp,
  forgetSlots,
  newSlotView,
  nodeSlots,
  slotsMatch,
} from './node-slots.ts';
import { podTopologySpreadFilter, podTopologySpreadScore } from './pod-topology-spread.ts';
import { runFilterPluginsWithNominatedPods } from './preemption.ts';
import {
  type FilterRecord,
  type NodeRecord,
  type ScheduleOptions,
  type ScheduleResult,
  DEFAULT_FILTER_PLUGINS,
  DEFAULT_SCORE_PLUGINS,
  allSuccessRecords,
  failedRecord,
  failedRecords,
  fitErrorMessage,
  narrowNodes,
  newCycleContext,
  newFitError,
  noNodesResult,
  nominatedFor,
  numFeasibleNodesToFind,
  preFilterFitError,
  runFilterPlugins,
  runPostFilterPlugins,
  runPreFilterPlugins,
} from './profile.ts';
import { filterSetsMemo, lastPass, signatureIdOf } from './schedule-fast-cache.ts';
import { mapOf, setOf } from '../util/table.ts';

// The filters whose PreFilter returns Skip in Kubernetes when the pod asks for nothing they check
// (or whose Filter cannot fail for such a pod): the framework then never calls their Filter.
const SKIPPABLE = mapOf<FilterPlugin, (pod: Pod, ctx: CycleContext) => boolean>([
  [nodeName, (pod) => !pod.spec?.nodeName],
  [nodePorts, (pod) => podHostPorts(pod).length === 0],
  [
    nodeAffinityFilter,
    (pod) =>
      !pod.spec?.nodeSelector && !pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
  ],
  [podTopologySpreadFilter, (_pod, ctx) => ctx.state['PodTopologySpread'] === undefined],
]);

// Plugins whose verdict depends on more than the pod and the one node (they read cluster-wide counts).
const NON_LOCAL = setOf<FilterPlugin | ScorePlugin>([podTopologySpreadFilter, podTopologySpreadScore]);

export interface FilterSets {
  active: FilterPlugin[];
  local: FilterPlugin[];
  global: FilterPlugin[];
}

/** The filters that run (all with records; else those not skipped), split into node-local and cluster-wide. */
function filterSets(plugins: FilterPlugin[], full: boolean, pod: Pod, ctx: CycleContext): FilterSets {
  let mask = 0;
  if (!full)
    for (let i = 0; i < plugins.length && i < 30; i++) if (SKIPPABLE.get(plugins[i])?.(pod, ctx)) mask |= 1 << i;
  let byMask = filterSetsMemo.get(plugins);
  if (!byMask) filterSetsMemo.set(plugins, (byMask = new Map()));
  let sets = byMask.get(mask);
  if (!sets) {
    // Beyond 30 plugins the mask cannot tell them apart: filter afresh (never memoised).
    const active = full ? plugins : plugins.filter((pl) => !SKIPPABLE.get(pl)?.(pod, ctx));
    sets = {
      active,
      local: active.filter((pl) => !NON_LOCAL.has(pl)),
      global: active.filter((pl) => NON_LOCAL.has(pl)),
    };
    if (plugins.length <= 30) byMask.set(mask, sets);
  }
  return sets;
}

/** filterSets for the default profile without records, for a pod of signature `sig`. */
function filterSetsForSignature(sig: number, pod: Pod, ctx: CycleContext): FilterSets {
  // The last signature's sets are kept: what decides the skips (nodeName, host ports, node selector
  // and affinity) is part of the signature, and PodTopologySpread's by its PreFilter state.
  const pts = ctx.state['PodTopologySpread'] !== undefined;
  const last = lastPass;
  if (last.sets === undefined || last.sig !== sig || last.pts !== pts) {
    last.sets = filterSets(DEFAULT_FILTER_PLUGINS, false, pod, ctx);
    last.sig = sig;
    last.pts = pts;
  }
  return last.sets;
}

// The previous pod's signature parts: the pods of a burst mostly share them (one template), so
// comparing field by field against the last pod spares building and hashing the long key.
export interface SignatureParts {
  cpu: number;
  mem: number;
  nzCPU: number;
  nzMem: number;
  nodeName: string;
  taintReasonWithKey: boolean;
  priority: number;
  tolerations: Toleration[] | undefined;
  nodeSelector: unknown;
  nodeAffinity: unknown;
  hostPorts: readonly HostPort[];
  id: number;
}

function sameTolerations(a: Toleration[] | undefined, b: Toleration[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    // JSON.stringify's view of a toleration: these five fields (undefined ones left out).
    if (
      x.key !== y.key ||
      x.operator !== y.operator ||
      x.value !== y.value ||
      x.effect !== y.effect ||
      x.tolerationSeconds !== y.tolerationSeconds
    )
      return false;
    for (const k in x)
      if (k !== 'key' && k !== 'operator' && k !== 'value' && k !== 'effect' && k !== 'tolerationSeconds') return false;
    for (const k in y)
      if (k !== 'key' && k !== 'operator' && k !== 'value' && k !== 'effect' && k !== 'tolerationSeconds') return false;
  }
  return true;
}

/**
 * An id for what the node-local plugins read from a pod (requests, tolerations, node affinity and
 * selector, host ports, nodeName): equal ids give equal verdicts on an unchanged node.
 */
export function localSignatureId(pod: Pod, taintReasonWithKey: boolean): number {
  const r = computePodResource(pod);
  const sp = pod.spec;
  const hostPorts = podHostPorts(pod);
  const nodeSelector = sp?.nodeSelector;
  const nodeAffinity = sp?.affinity?.nodeAffinity;
  const l = lastPass.signature;
  if (
    l &&
    l.cpu === r.requests.milliCPU &&
    l.mem === r.requests.memory &&
    l.nzCPU === r.nonZero.milliCPU &&
    l.nzMem === r.nonZero.memory &&
    l.nodeName === (sp?.nodeName ?? '') &&
    l.taintReasonWithKey === taintReasonWithKey &&
    l.priority === (sp?.priority ?? 0) &&
    nodeSelector === undefined &&
    l.nodeSelector === undefined &&
    nodeAffinity === undefined &&
    l.nodeAffinity === undefined &&
    hostPorts.length === 0 &&
    l.hostPorts.length === 0 &&
    sameTolerations(l.tolerations, sp?.tolerations)
  ) {
    return l.id;
  }
  const key =
    `${r.requests.milliCPU}/${r.requests.memory}/${r.nonZero.milliCPU}/${r.nonZero.memory}|${sp?.nodeName ?? ''}|${taintReasonWithKey}|${sp?.priority ?? 0}|` +
    `${JSON.stringify(sp?.tolerations ?? null)}|${JSON.stringify(nodeSelector ?? null)}|${JSON.stringify(nodeAffinity ?? null)}|${JSON.stringify(hostPorts)}`;
  const id = signatureIdOf(key);
  lastPass.signature = {
    cpu: r.requests.milliCPU,
    mem: r.requests.memory,
    nzCPU: r.nonZero.milliCPU,
    nzMem: r.nonZero.memory,
    nodeName: sp?.nodeName ?? '',
    taintReasonWithKey,
    priority: sp?.priority ?? 0,
    tolerations: sp?.tolerations,
    nodeSelector,
    nodeAffinity,
    hostPorts,
    id,
  };
  return id;
}

function localEntry(ni: NodeInfo, sig: number, nScore: number): LocalCache {
  let c = ni[LOCAL_CACHE];
  if (!c || c.gen !== ni.generation || c.sig !== sig) {
    c = ni[LOCAL_CACHE] = { gen: ni.generation, sig, fail: undefined, raw: new Array(nScore).fill(-1), fixed: -1 };
  }
  return c;
}

/**
 * The same node-local verdicts as LOCAL_CACHE, but in flat arrays indexed by the node's slot in one
 * NodeInfo list (see node-slots.ts; the scheduler hands the same array to every cycle while the
 * node set is unchanged): a cycle over hundreds of nodes reads a few contiguous arrays instead of
 * one cache object per node. An entry holds while its slot's version and the pod signature do.
 */
interface FlatCache {
  slots: NodeSlots;
  /** The slot version each entry was computed at (−1 = never). */
  at: Float64Array;
  sig: Float64Array;
  /** undefined = not computed, null = passed, else the first failing record. */
  fail: (FilterRecord | null | undefined)[];
  fixed: Float64Array;
  /** raw[p * slots + i] (one plugin's scores contiguous, as a cycle reads them); −1 = not computed. */
  raw: Float64Array;
  nScore: number;
  /**
   * For signature `goodSig`: good[k] = 1 when slot k's entry is current and passed; `bad` counts
   * the other slots. With bad = 0 the filter pass needs to look at no node (see findFeasibleFlat).
   */
  goodSig: number;
  good: Uint8Array;
  bad: number;
  /** How far `good` has caught up with changed slots. */
  goodView: SlotView;
}

function flatCacheFor(slots: NodeSlots, nScore: number): FlatCache {
  let fc = slots.extra.get('schedule-one/flat') as FlatCache | undefined;
  if (!fc || fc.nScore !== nScore) {
    const n = slots.objs.length;
    fc = {
      slots,
      at: new Float64Array(n).fill(-1),
      sig: new Float64Array(n),
      fail: new Array(n).fill(undefined),
      fixed: new Float64Array(n).fill(-1),
      raw: new Float64Array(n * nScore).fill(-1),
      nScore,
      goodSig: 0,
      good: new Uint8Array(n),
      bad: n,
      goodView: newSlotView(n),
    };
    slots.extra.set('schedule-one/flat', fc);
  }
  return fc;
}

/** Clear slot i's entry for signature `sig` at the slot's current version. */
function resetFlatEntry(fc: FlatCache, i: number, sig: number): void {
  fc.at[i] = fc.slots.ver[i];
  fc.sig[i] = sig;
  fc.fail[i] = undefined;
  fc.fixed[i] = -1;
  const stride = fc.at.length;
  for (let p = 0; p < fc.nScore; p++) fc.raw[p * stride + i] = -1;
}

const flatFeasible: NodeInfo[] = [];
const flatFeasibleIdx: number[] = [];

/** The first failing node-local filter's record on `ni`, or null when all pass. */
function localVerdict(pod: Pod, ni: NodeInfo, ctx: CycleContext, localFilters: FilterPlugin[]): FilterRecord | null {
  for (let p = 0; p < localFilters.length; p++) {
    const st = localFilters[p].filter(pod, ni, ctx);
    if (st.code !== 'Success') return { plugin: localFilters[p].name, code: st.code, reasons: st.reasons };
  }
  return null;
}

/**
 * The filter pass of schedulePod over the flat cache: the same walk from `start`, stopping at
 * numNodesToFind feasible nodes, with the same first failures (local filters come before
 * PodTopologySpread in the profile). Returns the number of nodes processed.
 */
function findFeasibleFlat(
  pod: Pod,
  nodes: NodeInfo[],
  ctx: CycleContext,
  fc: FlatCache,
  sig: number,
  start: number,
  numNodesToFind: number,
  localFilters: FilterPlugin[],
  globalFilters: FilterPlugin[],
  feasible: NodeInfo[],
  feasibleIdx: number[],
  nodeToStatus: Record<string, FilterRecord>,
  unschedulable: Set<string>,
): number {
  const m = nodes.length;
  const at = fc.at;
  const sigs = fc.sig;
  const fails = fc.fail;
  const ver = fc.slots.ver;
  const ng = globalFilters.length;
  const good = fc.good;
  if (fc.goodSig !== sig) {
    fc.goodSig = sig;
    good.fill(0);
    fc.bad = m;
    fc.goodView = newSlotView(m);
    fc.goodView.epoch = fc.slots.epoch;
    fc.goodView.pos = fc.slots.changedBase + fc.slots.changed.length;
  } else {
    // A changed node is looked at again right away (its verdict is a pure function of pod and node).
    catchUp(fc.slots, fc.goodView, (k) => {
      if (good[k]) {
        good[k] = 0;
        fc.bad++;
      }
      if (at[k] !== ver[k] || sigs[k] !== sig) resetFlatEntry(fc, k, sig);
      if (fails[k] === undefined) fails[k] = localVerdict(pod, nodes[k], ctx, localFilters);
      if (fails[k] === null) {
        good[k] = 1;
        fc.bad--;
      }
    });
  }
  if (fc.bad === 0 && ng === 0) {
    // Every node passes: the walk takes the next numNodesToFind nodes from start, all feasible.
    const take = Math.min(m, numNodesToFind);
    for (let j = 0, k = start; j < take; j++) {
      feasible[j] = nodes[k];
      feasibleIdx[j] = k;
      if (++k === m) k = 0;
    }
    feasible.length = take;
    feasibleIdx.length = take;
    return take;
  }
  let processed = 0;
  let found = 0;
  let k = start;
  while (processed < m && found < numNodesToFind) {
    if (at[k] !== ver[k] || sigs[k] !== sig) resetFlatEntry(fc, k, sig);
    let fail = fails[k];
    if (fail === undefined) fail = fails[k] = localVerdict(pod, nodes[k], ctx, localFilters);
    if (fail === null && !good[k]) {
      good[k] = 1;
      fc.bad--;
    }
    let failedRec = fail ?? undefined;
    for (let p = 0; !failedRec && p < ng; p++) {
      const st = globalFilters[p].filter(pod, nodes[k], ctx);
      if (st.code !== 'Success') failedRec = { plugin: globalFilters[p].name, code: st.code, reasons: st.reasons };
    }
    processed++;
    if (failedRec) {
      nodeToStatus[nodes[k].name] = failedRec;
      unschedulable.add(failedRec.plugin);
    } else {
      feasible[found] = nodes[k];
      feasibleIdx[found] = k;
      found++;
    }
    if (++k === m) k = 0;
  }
  feasible.length = found;
  feasibleIdx.length = found;
  return processed;
}
const scratchPool: Float64Array[] = [];
// The last view handed out per slot: a burst asks for the same length cycle after cycle.
const scratchViews: Float64Array[] = [];
function scratchArray(slot: number, n: number): Float64Array {
  const v = scratchViews[slot];
  if (v !== undefined && v.length === n) return v;
  let a = scratchPool[slot];
  if (!a || a.length < n) a = scratchPool[slot] = new Float64Array(Math.max(n, 1024));
  return (scratchViews[slot] = a.subarray(0, n));
}

/**
 * prioritizeNodes without the per-node records: the same sums in the same order, so the same totals.
 * The result is a scratch array, valid until the next call.
 */
function prioritizeTotals(
  pod: Pod,
  feasible: NodeInfo[],
  ctx: CycleContext,
  plugins: ScorePlugin[],
  sig = 0,
  flat?: { fc: FlatCache; idx: number[] },
  capture?: ScoreCapture,
  pick?: HostPick,
): ArrayLike<number> {
  const n = feasible.length;
  const np = plugins.length;
  const totals = scratchArray(0, n);
  totals.fill(0);
  const active: boolean[] = new Array(np);
  for (let p = 0; p < np; p++) active[p] = plugins[p].preScore ? plugins[p].preScore!(pod, feasible, ctx) : true;
  if (capture) capture.active = active;
  // Raw scores per plugin; with a signature, node-local ones are gathered in one pass over the nodes.
  const raw: (Float64Array | undefined)[] = new Array(np).fill(undefined);
  if (sig !== 0) {
    // Node-local plugins without NormalizeScore add raw × weight: cache that sum per node. Every
    // term is an integer, so summing in another order gives exactly the same totals.
    const fixed = plugins.filter((pl, p) => active[p] && !pl.normalize && !NON_LOCAL.has(pl));
    const gathered: number[] = [];
    for (let p = 0; p < np; p++) {
      if (active[p] && plugins[p].normalize && !NON_LOCAL.has(plugins[p])) {
        gathered.push(p);
        raw[p] = scratchArray(1 + p, n);
      }
    }
    const ng = gathered.length;
    if (flat) {
      // The same values from the flat cache (the filter pass made every feasible slot's entry current).
      const { fc, idx } = flat;
      const stride = fc.at.length;
      const fixedAt = fc.fixed;
      const rawAt = fc.raw;
      for (let i = 0; i < n; i++) {
        const k = idx[i];
        let f = fixedAt[k];
        if (f < 0) {
          f = 0;
          for (const pl of fixed) f += pl.score(pod, feasible[i], ctx) * pl.weight;
          fixedAt[k] = f;
        }
        totals[i] = f;
      }
      for (let g = 0; g < ng; g++) {
        const p = gathered[g];
        const out = raw[p]!;
        const pl = plugins[p];
        for (let i = 0; i < n; i++) {
          const at = p * stride + idx[i];
          let v = rawAt[at];
          if (v < 0) v = rawAt[at] = pl.score(pod, feasible[i], ctx);
          out[i] = v;
        }
      }
    }
    for (let i = 0; !flat && i < n; i++) {
      const ni = feasible[i];
      const c = localEntry(ni, sig, np);
      if (c.fixed < 0) {
        let sum = 0;
        for (const pl of fixed) sum += pl.score(pod, ni, ctx) * pl.weight;
        c.fixed = sum;
      }
      totals[i] = c.fixed;
      for (let g = 0; g < ng; g++) {
        const p = gathered[g];
        let v = c.raw[p];
        if (v < 0) v = c.raw[p] = plugins[p].score(pod, ni, ctx);
        raw[p]![i] = v;
      }
    }
  }
  // The last plugin summed below: its pass also makes selectHost's, when asked to pick.
  let last = -1;
  for (let p = np - 1; pick && p >= 0 && last < 0; p--)
    if (active[p] && !(sig !== 0 && !plugins[p].normalize && !NON_LOCAL.has(plugins[p]))) last = p;
  for (let p = 0; p < np; p++) {
    const pl = plugins[p];
    if (!active[p]) continue; // every node scores 0: the totals don't move
    if (sig !== 0 && !pl.normalize && !NON_LOCAL.has(pl)) continue; // in the cached sum
    let scores = raw[p];
    if (!scores) {
      scores = scratchArray(1 + p, n);
      if (pl.scoreAll) {
        ctx.feasibleIdx = flat?.idx;
        pl.scoreAll(pod, feasible, ctx, scores as unknown as number[]);
        ctx.feasibleIdx = undefined;
      } else for (let i = 0; i < n; i++) scores[i] = pl.score(pod, feasible[i], ctx);
    }
    if (capture) capture.raw[p] = Float64Array.from(scores);
    // The normalizers read and write by index and length only, so a typed array serves.
    if (pl.normalize) pl.normalize(scores as unknown as number[], feasible, ctx);
    if (capture) capture.normalized[p] = pl.normalize ? Float64Array.from(scores) : capture.raw[p];
    const w = pl.weight;
    if (p === last) pick!.index = addAndSelectHost(totals, scores, w, pick!.rng);
    else for (let i = 0; i < n; i++) totals[i] += scores[i] * w;
  }
  if (pick && last < 0) pick.index = selectHostIndex(totals, pick.rng);
  return totals;
}

/** The raw and normalized scores prioritizeTotals saw for each plugin it summed (not the cached fixed sum). */
interface ScoreCapture {
  /** Each plugin's PreScore verdict. */
  active: boolean[];
  raw: (Float64Array | undefined)[];
  normalized: (Float64Array | undefined)[];
}

function newScoreCapture(np: number): ScoreCapture {
  return { active: [], raw: new Array(np).fill(undefined), normalized: new Array(np).fill(undefined) };
}

/**
 * prioritizeNodes' records from what prioritizeTotals captured: plugins it did not sum one by one
 * are either inactive (every node 0) or node-local without NormalizeScore (raw = normalized),
 * scored here again. The totals are prioritizeTotals' (the same integers, so the same sums).
 */
function fillScoreRecords(
  pod: Pod,
  feasible: NodeInfo[],
  ctx: CycleContext,
  plugins: ScorePlugin[],
  capture: ScoreCapture,
  totals: ArrayLike<number>,
  records: NodeRecord[],
): void {
  const n = feasible.length;
  const np = plugins.length;
  for (let i = 0; i < n; i++) records[i].scores = new Array(np);
  for (let p = 0; p < np; p++) {
    const pl = plugins[p];
    const raw = capture.raw[p];
    const normalized = capture.normalized[p];
    const active = capture.active[p];
    for (let i = 0; i < n; i++) {
      let r = 0;
      let v = 0;
      if (raw !== undefined) {
        r = raw[i];
        v = normalized![i];
      } else if (active) v = r = pl.score(pod, feasible[i], ctx);
      records[i].scores[p] = { plugin: pl.name, raw: r, normalized: v, weighted: v * pl.weight };
    }
  }
  for (let i = 0; i < n; i++) records[i].total = totals[i];
}

/** Where prioritizeTotals puts selectHostIndex's answer when asked to pick with `rng`. */
interface HostPick {
  rng: Rng;
  index: number;
}

// The last sum and selectHostIndex in one pass: totals[i] += scores[i] × w, then the same
// reservoir sampling over the finished totals, in the same order (the same rng draws).
function addAndSelectHost(totals: Float64Array, scores: Float64Array, w: number, rng: Rng): number {
  const n = totals.length;
  if (n === 0) throw new Error('empty priorityList');
  let maxScore = totals[0] + scores[0] * w;
  totals[0] = maxScore;
  let selected = 0;
  let cntOfMaxScore = 1;
  for (let i = 1; i < n; i++) {
    const t = totals[i] + scores[i] * w;
    totals[i] = t;
    if (t > maxScore) {
      maxScore = t;
      selected = i;
      cntOfMaxScore = 1;
    } else if (t === maxScore) {
      cntOfMaxScore++;
      if (rng.int(cntOfMaxScore) === 0) selected = i;
    }
  }
  return selected;
}

/** selectHost over parallel totals: the same reservoir sampling (same rng draws), returning the index. */
function selectHostIndex(totals: ArrayLike<number>, rng: Rng): number {
  if (totals.length === 0) throw new Error('empty priorityList');
  let maxScore = totals[0];
  let selected = 0;
  let cntOfMaxScore = 1;
  for (let i = 1; i < totals.length; i++) {
    const t = totals[i];
    if (t > maxScore) {
      maxScore = t;
      selected = i;
      cntOfMaxScore = 1;
    } else if (t === maxScore) {
      cntOfMaxScore++;
      if (rng.int(cntOfMaxScore) === 0) selected = i;
    }
  }
  return selected;
}

/**
 * RunFilterPluginsWithNominatedPods over the default filters: `nominated` (pods of equal or higher
 * priority nominated to `ni`) added to a copy of the node first. The first failure, or undefined.
 */
function filterWithNominated(
  pod: Pod,
  ni: NodeInfo,
  ctx: CycleContext,
  nominated: Pod[] | undefined,
): FilterRecord | undefined {
  const runFilters = (p: Pod, n: NodeInfo, c: CycleContext) =>
    failedRecord(runFilterPlugins(p, n, c, DEFAULT_FILTER_PLUGINS));
  return runFilterPluginsWithNominatedPods(pod, ni, ctx, DEFAULT_FILTER_PLUGINS, nominated, runFilters);
}

/**
 * The filter pass over the per-node cache (LOCAL_CACHE), for a cycle the flat cache does not cover
 * (nodes narrowed by a PreFilterResult, or other pods nominated): the same walk and first failures
 * as findFeasibleFlat; a node with pods nominated to it is filtered with them, uncached.
 * Returns the number of nodes processed.
 */
function findFeasibleLocal(
  pod: Pod,
  nodes: NodeInfo[],
  ctx: CycleContext,
  sig: number,
  start: number,
  numNodesToFind: number,
  localFilters: FilterPlugin[],
  globalFilters: FilterPlugin[],
  nominated: Record<string, Pod[]> | undefined,
  feasible: NodeInfo[],
  nodeToStatus: Record<string, FilterRecord>,
  unschedulable: Set<string>,
): number {
  const m = nodes.length;
  let processed = 0;
  for (let i = 0; i < m && feasible.length < numNodesToFind; i++) {
    const ni = nodes[(start + i) % m];
    const nom = nominated?.[ni.name];
    let failedRec: FilterRecord | undefined;
    if (nom) failedRec = filterWithNominated(pod, ni, ctx, nom);
    else {
      const c = localEntry(ni, sig, DEFAULT_SCORE_PLUGINS.length);
      if (c.fail === undefined) c.fail = localVerdict(pod, ni, ctx, localFilters);
      failedRec = (c.fail ?? undefined) as FilterRecord | undefined;
    }
    for (let p = 0; !nom && !failedRec && p < globalFilters.length; p++) {
      const st = globalFilters[p].filter(pod, ni, ctx);
      if (st.code !== 'Success') failedRec = { plugin: globalFilters[p].name, code: st.code, reasons: st.reasons };
    }
    processed++;
    if (failedRec) {
      nodeToStatus[ni.name] = failedRec;
      unschedulable.add(failedRec.plugin);
    } else feasible.push(ni);
  }
  return processed;
}

/**
 * RunFilterPlugins' records for the nodes the walk reached, in its order, rebuilt from the verdicts:
 * every filter's Success, or the successes before the first failure and the failure itself.
 */
function walkRecords(
  nodes: NodeInfo[],
  start: number,
  processed: number,
  nodeToStatus: Record<string, FilterRecord>,
  perNode: NodeRecord[],
  feasibleRecords: NodeRecord[],
): void {
  const m = nodes.length;
  const succ = allSuccessRecords(DEFAULT_FILTER_PLUGINS);
  for (let j = 0, k = start % m; j < processed; j++) {
    const failed = nodeToStatus[nodes[k].name];
    const rec: NodeRecord = {
      node: nodes[k].name,
      filter: failed ? failedRecords(DEFAULT_FILTER_PLUGINS, failed) : succ,
      scores: [],
      total: 0,
    };
    perNode.push(rec);
    if (!failed) feasibleRecords.push(rec);
    if (++k === m) k = 0;
  }
}

/**
 * schedulePod (schedule-one.ts) for the default profile, from the caches: the same result, records,
 * counts and rng draws.
 */
export function schedulePodFast(
  pod: Pod,
  nodeInfos: NodeInfo[],
  rng: Rng,
  opts: Omit<ScheduleOptions, 'filterPlugins' | 'scorePlugins'> = {},
): ScheduleResult {
  const filterPlugins = DEFAULT_FILTER_PLUGINS;
  const scorePlugins = DEFAULT_SCORE_PLUGINS;
  const n = nodeInfos.length;
  if (n === 0) return noNodesResult();
  const full = (opts.record ?? 'full') === 'full';
  const start = (opts.nextStartNodeIndex ?? 0) % n;
  const ctx = newCycleContext(nodeInfos, opts);
  const nodeToStatus: Record<string, FilterRecord> = {};
  const unschedulable = new Set<string>();
  const postFilter = () =>
    (opts.preemption ?? true)
      ? runPostFilterPlugins(
          pod,
          nodeInfos,
          nodeToStatus,
          ctx,
          filterPlugins,
          rng,
          opts.now ?? 0,
          opts.nominatedPods,
          opts.preemptionEvaluator,
        )
      : undefined;

  const pre = runPreFilterPlugins(pod, ctx, filterPlugins);
  if (pre.rejected) {
    for (const ni of nodeInfos) nodeToStatus[ni.name] = pre.rejected;
    const fitError = preFilterFitError(n, pre.rejected, nodeToStatus, postFilter());
    return { result: { fitError }, perNode: [], nextStartNodeIndex: start, evaluatedNodes: 0, feasibleNodes: 0 };
  }
  // Other pods of equal or higher priority nominated to a node: the filters count them there.
  const nominated = nominatedFor(pod, opts.nominatedPods);
  // evaluateNominatedNode: a pod nominated by an earlier preemption tries that node first, alone.
  const nnn = pod.status?.nominatedNodeName;
  const nominatedNode = nnn ? nodeInfos.find((ni) => ni.name === nnn) : undefined;
  if (nominatedNode) {
    const failed = filterWithNominated(pod, nominatedNode, ctx, nominated?.[nominatedNode.name]);
    if (!failed) {
      const perNode = full
        ? [{ node: nominatedNode.name, filter: allSuccessRecords(filterPlugins), scores: [], total: 0 }]
        : [];
      return {
        result: { node: nominatedNode.name },
        perNode,
        nextStartNodeIndex: start,
        evaluatedNodes: 1,
        feasibleNodes: 1,
      };
    }
    nodeToStatus[nominatedNode.name] = failed;
    unschedulable.add(failed.plugin);
  }
  const nodes = narrowNodes(nodeInfos, pre, nodeToStatus, unschedulable);

  const numNodesToFind = numFeasibleNodesToFind(opts.percentageOfNodesToScore ?? 0, nodes.length);
  const sig = localSignatureId(pod, !!opts.taintReasonWithKey);
  // PreFilter-skipped plugins are left out of the walk (their Filter would say Success).
  const { local: localFilters, global: globalFilters } = filterSetsForSignature(sig, pod, ctx);
  let fc: FlatCache | undefined;
  let feasible: NodeInfo[] = [];
  let processed: number;
  if (nodes === nodeInfos && !nominated) {
    let slots = nodeSlots(nodes);
    if (!slotsMatch(slots, nodes)) {
      forgetSlots(nodes);
      slots = nodeSlots(nodes);
    }
    fc = flatCacheFor(slots, scorePlugins.length);
    // Arrays kept from cycle to cycle (nothing holds on to them after a cycle).
    feasible = flatFeasible;
    processed = findFeasibleFlat(
      pod,
      nodes,
      ctx,
      fc,
      sig,
      start,
      numNodesToFind,
      localFilters,
      globalFilters,
      feasible,
      flatFeasibleIdx,
      nodeToStatus,
      unschedulable,
    );
  } else
    processed = findFeasibleLocal(
      pod,
      nodes,
      ctx,
      sig,
      start,
      numNodesToFind,
      localFilters,
      globalFilters,
      nominated,
      feasible,
      nodeToStatus,
      unschedulable,
    );
  const nextStartNodeIndex = (start + processed) % n;
  const perNode: NodeRecord[] = [];
  const feasibleRecords: NodeRecord[] = [];
  if (full) walkRecords(nodes, start, processed, nodeToStatus, perNode, feasibleRecords);
  const counts = { nextStartNodeIndex, evaluatedNodes: processed, feasibleNodes: feasible.length };

  if (feasible.length === 0) {
    const pf = postFilter();
    const fitError = newFitError(pf, {
      numAllNodes: n,
      nodeToStatus,
      unschedulablePlugins: [...unschedulable].sort(),
      message: fitErrorMessage(n, nodeToStatus, pf?.message ?? ''),
    });
    return { result: { fitError }, perNode, ...counts };
  }
  // "When only one node after predicate, just use it": no scoring at all.
  if (feasible.length === 1) return { result: { node: feasible[0].name }, perNode, ...counts };
  const capture = full ? newScoreCapture(scorePlugins.length) : undefined;
  const pick: HostPick = { rng, index: -1 };
  const totals = prioritizeTotals(
    pod,
    feasible,
    ctx,
    scorePlugins,
    sig,
    fc ? { fc, idx: flatFeasibleIdx } : undefined,
    capture,
    pick,
  );
  if (capture) fillScoreRecords(pod, feasible, ctx, scorePlugins, capture, totals, feasibleRecords);
  return { result: { node: feasible[pick.index].name }, perNode, ...counts };
}
