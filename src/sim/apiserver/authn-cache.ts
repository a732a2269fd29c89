// The memos of authn.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one authn.ts computes without them.

import type { Identity } from '../api/identity.ts';

/** The memo behind authn.ts' authenticate (behaviour-side, never state). */
export const nodeIdentities = new Map<string, Identity>();
