import type { CountedChange, NodeInfo } from './node-info.ts';
import { nodeInfoJournal } from './node-info.ts';
import { slotsByList } from './node-slots-cache.ts';

// Caches over one NodeInfo list, indexed by a node's position in it (its slot). A cycle over a
// thousand nodes that read each NodeInfo (and its node, metadata and labels) spent most of its time
// waiting for memory; reading a few contiguous typed arrays instead is many times faster. Which
// slots changed is learnt from nodeInfoJournal (every AddPod, RemovePod and SetNode), so nothing
// has to look at an unchanged node. Not state: a WeakMap keyed by the list, rebuilt for a new list.

/** Slot bookkeeping for one list. */
export interface NodeSlots {
  list: NodeInfo[];
  /** The list's contents when the slots were built (a list changed in place is rebuilt). */
  objs: NodeInfo[];
  index: Map<NodeInfo, number>;
  /** Journal position (base + offset) already applied. */
  cursor: number;
  /** Bumped whenever the slot's NodeInfo changes; a per-slot cache is valid while it holds the same value. */
  ver: Float64Array;
  /** Slots changed, in order: changed[q] is change number changedBase + q. */
  changed: number[];
  /** changedCounts[q]: which match counts moved in change q (see CountedChange). */
  changedCounts: CountedChange[];
  changedBase: number;
  /** Bumped when the journal could not be followed: every slot changed, and `changed` starts over. */
  epoch: number;
  /** Per-use caches hung on the slots (by name), dropped with them. */
  extra: Map<string, unknown>;
  /** The list was frozen when the slots were built, so it cannot have changed since. */
  frozen: boolean;
}

function build(list: NodeInfo[]): NodeSlots {
  const j = nodeInfoJournal;
  return {
    list,
    objs: list.slice(),
    index: new Map(list.map((ni, i) => [ni, i])),
    cursor: j.base + j.log.length,
    ver: new Float64Array(list.length),
    changed: [],
    changedCounts: [],
    changedBase: 0,
    epoch: 0,
    extra: new Map(),
    frozen: Object.isFrozen(list),
  };
}

/** The slots of `list`, brought up to date with every NodeInfo change since the last call. */
export function nodeSlots(list: NodeInfo[]): NodeSlots {
  let s = slotsByList.get(list);
  if (!s || s.objs.length !== list.length) {
    s = build(list);
    slotsByList.set(list, s);
    return s;
  }
  const j = nodeInfoJournal;
  const end = j.base + j.log.length;
  if (s.cursor === end) return s;
  if (s.cursor < j.base) {
    // The journal was trimmed past us: call every slot changed.
    for (let i = 0; i < s.ver.length; i++) s.ver[i]++;
    s.changedBase += s.changed.length;
    s.changed = [];
    s.changedCounts = [];
    s.epoch++;
  } else {
    for (let q = s.cursor - j.base; q < j.log.length; q++) {
      const i = s.index.get(j.log[q]);
      if (i === undefined) continue;
      s.ver[i]++;
      s.changed.push(i);
      s.changedCounts.push(j.counted[q]);
    }
    if (s.changed.length > 65_536) {
      s.changedBase += s.changed.length;
      s.changed = [];
      s.changedCounts = [];
      s.epoch++;
    }
  }
  s.cursor = end;
  return s;
}

/** Whether the list still holds, at every slot, the NodeInfo it held when its slots were built. */
export function slotsMatch(s: NodeSlots, list: NodeInfo[]): boolean {
  // A frozen list (the scheduler's) needs no look at a thousand slots every cycle.
  if (s.frozen && s.list === list) return true;
  if (s.objs.length !== list.length) return false;
  for (let i = 0; i < list.length; i++) if (s.objs[i] !== list[i]) return false;
  return true;
}

/** Drop the slots of a list that was changed in place, so the next nodeSlots call rebuilds them. */
export function forgetSlots(list: NodeInfo[]): void {
  slotsByList.delete(list);
}

/** A per-slot cache's bookkeeping: the slot version each entry was taken at, and how far it has caught up. */
export interface SlotView {
  at: Float64Array;
  epoch: number;
  pos: number;
}

/** A view with no entry taken yet. */
export function newSlotView(n: number): SlotView {
  return { at: new Float64Array(n).fill(-1), epoch: -1, pos: 0 };
}

/** Calls refresh(k) for every slot whose version moved since the view last caught up (then marks it current). */
export function catchUp(s: NodeSlots, view: SlotView, refresh: (k: number) => void): void {
  const at = view.at;
  const ver = s.ver;
  if (view.epoch === s.epoch) {
    for (let q = view.pos - s.changedBase; q < s.changed.length; q++) {
      const k = s.changed[q];
      if (at[k] !== ver[k]) {
        refresh(k);
        at[k] = ver[k];
      }
    }
  } else {
    for (let k = 0; k < ver.length; k++) {
      if (at[k] !== ver[k]) {
        refresh(k);
        at[k] = ver[k];
      }
    }
    view.epoch = s.epoch;
  }
  view.pos = s.changedBase + s.changed.length;
}

/**
 * catchUp for a cache of one match-count key (by id; −1 for none): only changes that may have moved
 * that count (see CountedChange), and node changes when `nodeChanges`, call refresh(k), once per
 * slot, after the walk. A full rescan (epoch change) refreshes every slot.
 */
export function catchUpCounts(
  s: NodeSlots,
  view: SlotView,
  keyId: number,
  nodeChanges: boolean,
  refresh: (k: number) => void,
): void {
  if (view.epoch === s.epoch) {
    const at = view.at;
    const start = view.pos - s.changedBase;
    // Mark first, refresh after: a slot's count is read as it is now, once.
    for (let q = start; q < s.changed.length; q++) {
      const c = s.changedCounts[q];
      if (
        c === false ? !nodeChanges : c !== null && (typeof c === 'number' ? c !== keyId || c < 0 : !c.includes(keyId))
      )
        continue;
      at[s.changed[q]] = -1;
    }
    for (let q = start; q < s.changed.length; q++) {
      const k = s.changed[q];
      if (at[k] === -1) {
        refresh(k);
        at[k] = 0;
      }
    }
  } else {
    for (let k = 0; k < s.ver.length; k++) refresh(k);
    view.at.fill(0);
    view.epoch = s.epoch;
  }
  view.pos = s.changedBase + s.changed.length;
}
