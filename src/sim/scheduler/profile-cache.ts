// The memos of profile.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one profile.ts computes without them.

import type { FilterPlugin } from './framework.ts';
import type { FilterRecord } from './profile.ts';

/** The memo behind profile.ts' successRecord (behaviour-side, never state). */
export const successRecords = new Map<string, FilterRecord>();

/** The memo behind profile.ts' allSuccessRecords (behaviour-side, never state). */
export const allSuccess = new WeakMap<FilterPlugin[], FilterRecord[]>();
