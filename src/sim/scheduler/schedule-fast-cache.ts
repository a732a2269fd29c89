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

let lastSetsSig = 0;
let lastSetsPts = false;
let lastSets: FilterSets | undefined;

/** The default profile's filter sets last made for signature `sig` with (or without) a PodTopologySpread state, or undefined. */
export function lastFilterSets(sig: number, pts: boolean): FilterSets | undefined {
  return lastSets !== undefined && lastSetsSig === sig && lastSetsPts === pts ? lastSets : undefined;
}

/** Remember the default profile's filter sets for signature `sig` and `pts`. */
export function rememberFilterSets(sig: number, pts: boolean, sets: FilterSets): void {
  lastSets = sets;
  lastSetsSig = sig;
  lastSetsPts = pts;
}

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

// The previous pod's signature parts: the pods of a burst mostly share them (one template).
let previousSignature: SignatureParts | undefined;

/** The last signature localSignatureId made, or undefined. */
export function lastSignature(): SignatureParts | undefined {
  return previousSignature;
}

/** Remember the signature localSignatureId made last. */
export function rememberSignature(parts: SignatureParts): void {
  previousSignature = parts;
}
