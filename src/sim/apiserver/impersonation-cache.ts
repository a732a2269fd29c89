// The memos of impersonation.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one impersonation.ts computes without them.

import type { Identity } from '../api/identity.ts';

/**
 * Per identity table (one per API server), since a user's bound roles come from it.
 * (The memo behind impersonation.ts' impersonatedIdentity.)
 */
export const impersonatedIdentities = new WeakMap<Readonly<Record<string, Identity>>, Map<string, Identity>>();
