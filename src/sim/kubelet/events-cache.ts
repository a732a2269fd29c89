// The memos of events.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one events.ts computes without them.

import type { KubeletEvent } from './backoff.ts';

/**
 * Events that depend only on a container name or an image are made once per (kind, value) and
 * shared, frozen: every pod of a Deployment gets the same few, so their messages are one string each.
 * (The memo behind events.ts' pullingImageEvent.)
 */
export const pulling = new Map<string, KubeletEvent>();

/** The memo behind events.ts' imageAlreadyPresentEvent (behaviour-side, never state). */
export const alreadyPresent = new Map<string, KubeletEvent>();
