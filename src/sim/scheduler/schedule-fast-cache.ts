// The memos of schedule-fast.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one schedule-fast.ts computes without them.

import type { FilterPlugin } from './framework.ts';
import type { FilterSets, SignatureParts } from './schedule-fast.ts';

/**
 * The filter lists for each set of PreFilter-skipped plugins (by bit mask), made once per profile.
 * (The memo behind schedule-fast.ts' filterSets.)
 */
export const filterSetsMemo = new WeakMap<FilterPlugin[], Map<number, FilterSets>>();

/**
 * The last pass's default filter sets (for signature `sig`, with or without a PodTopologySpread
 * state: what decides the skips) and the previous pod's signature parts: the pods of a burst
 * mostly share them (one template).
 */
export const lastPass: {
  sets: FilterSets | undefined;
  sig: number;
  pts: boolean;
  signature: SignatureParts | undefined;
} = { sets: undefined, sig: 0, pts: false, signature: undefined };

// Signature key → id. Ids only grow, so clearing the table never makes an old cache entry match a new pod.
const signatureIds = new Map<string, number>();
let nextSignatureId = 1;

/** The id of signature `key`: the same id for the same key (until the bounded table is cleared), a new one for a new key. */
export function signatureIdOf(key: string): number {
  let id = signatureIds.get(key);
  if (id === undefined) {
    if (signatureIds.size > 10_000) signatureIds.clear();
    id = nextSignatureId++;
    signatureIds.set(key, id);
  }
  return id;
}
