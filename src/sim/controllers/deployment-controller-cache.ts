// The memos of deployment-controller.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one deployment-controller.ts computes without them.

import type { RolloutContext } from './rollout-machine.ts';

/**
 * Behaviour-side caches (never state): the template hash per stored template object (stored objects
 * are immutable), and the rollout machine's steps, a pure function of (value, context, events).
 * (The memo behind deployment-controller.ts' templateHashOf.)
 */
export const templateHashes = new WeakMap<object, string>();

/** The memo behind deployment-controller.ts' advanceRollout (behaviour-side, never state). */
export const rolloutMemo = new Map<string, { value: unknown; context: RolloutContext }>();
