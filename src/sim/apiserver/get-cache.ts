// The memos of get.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one get.ts computes without them.

import type { ApiResult } from '../api/request.ts';
import type { StoreState } from './store.ts';

/**
 * client-go's shared informer factory lists each resource once for all the informers of a process:
 * a sibling's LIST of the same selectors at the same revision is that one list (no second request).
 * Behaviour-side and exact: with no write in between, a fresh list would be the same objects.
 * (The memo behind get.ts' doList.)
 */
export const processLists = new WeakMap<StoreState, Map<string, { revision: number; result: ApiResult<unknown> }>>();
