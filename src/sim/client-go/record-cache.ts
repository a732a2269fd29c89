// The memos of event-recorder.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one event-recorder.ts computes without them.

import type { SeenEvent, SeenIndex } from './record.ts';

/**
 * `Warning:reason` keys, made once per reason.
 * (The memo behind event-recorder.ts' similarKind.)
 */
export const warningKeys = new Map<string, string>();

/**
 * seen list → involved object uid → its entries. Behaviour-side (rebuilt from the list after a
 * restore). Nearly every event is new: one long joined key per event (as client-go builds it) cost a
 * fresh string to flatten and hash per lookup; the uid recurs, and a pod's few entries are told apart
 * by their reason before their message is looked at.
 */
export const seenIndex = new WeakMap<SeenEvent[], SeenIndex>();

/** The memo behind event-recorder.ts' componentOf (behaviour-side, never state). */
export const componentOfName = new Map<string, string>();
