// The memos of dry-run.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one dry-run.ts computes without them.

import type { ApiHost } from './server.ts';

/** The scratch hosts dry-run requests are served on (a request there runs the pipeline as it is). */
export const scratchHosts = new WeakSet<ApiHost>();
