// The memos of labels.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one labels.ts computes without them.

import type { LabelRequirement } from './labels.ts';

/** The memo behind labels.ts' labelSelectorRequirements (behaviour-side, never state). */
export const requirementsOf = new WeakMap<object, LabelRequirement[]>();
