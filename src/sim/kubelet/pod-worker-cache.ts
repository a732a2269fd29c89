// The memos of pod-worker.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one pod-worker.ts computes without them.

import type { PodWork } from './kubelet-state.ts';
import type { Machine, StatusInputs } from './pod-worker.ts';

/** The memo behind pod-worker.ts' canonical (behaviour-side, never state). */
export const canonicalByJSON = new Map<string, Machine>();

/** The memo behind pod-worker.ts' canonical (behaviour-side, never state). */
export const transitionsOf = new WeakMap<object, Map<string, Machine>>();

/** restartPolicy → initial machines by (hasReadinessProbe ? 2 : 0) + (imagePresent ? 1 : 0). */
export const initialMemo = new Map<string, Machine[]>();

/**
 * Pod worker → the inputs of its last status generation that produced exactly its base: one that
 * found nothing to write, or one just written (the server then holds it, and generating again from
 * what was generated gives the same: conditions keep their statuses and so their transition times,
 * startTime and the IPs are carried over). With the same inputs again (the clock only stamps what
 * changed, and then the status would differ), the generation and comparison can be skipped; so too
 * when only the pod object is new (the echo of the write, another writer's change) if its spec is
 * the same object and its status deepEquals the base (its foreign conditions are then the base's).
 * Behaviour-side: a restored state has new workers and misses.
 */
export const unchangedStatus = new WeakMap<PodWork, StatusInputs>();
