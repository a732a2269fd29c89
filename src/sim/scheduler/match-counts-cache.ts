// The memos of match-counts.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one match-counts.ts computes without them.

import type { Registered } from './match-counts.ts';

/** The memo behind match-counts.ts' ? (behaviour-side, never state). */
export const selectors = new Map<string, Registered>();

/**
 * The registered selectors a pod's labels match, by namespace and label content: the pods of a
 * ReplicaSet share their labels, so a burst matches each label set against the selectors once,
 * not once per pod per selector. Recomputed when selectors were registered since.
 * (The memo behind match-counts.ts' matchingSelectors.)
 */
export const matchMemo = new Map<string, { size: number; matched: Registered[] }>();

/**
 * NodeInfos whose every match-count key is known here (counts made in this process, or checked once):
 * counts restored from elsewhere are checked before they are trusted.
 * (The memo behind match-counts.ts' trustMatchCounts.)
 */
export const knownKeys = new WeakSet<object>();
