// The one read-only window views and figures have onto the API server's state: its stored objects
// (read, never written: a figure changes the cluster only through requests, as kubectl would) and
// the compaction interval a figure's history spans.
import type { KObject } from '../api/request.ts';
import type { ResourceName, ResourceTypes } from '../api/resources.ts';
export { COMPACTION_INTERVAL_MS, storeGet, storeList } from '../apiserver/index.ts';

/**
 * A stored object of resource R as its Kubernetes type: what a figure casts `store.objects[R]`'s values
 * to when it reads them in the store's own order (storeList sorts), with no code of its own.
 */
export type Stored<R extends ResourceName> = KObject & ResourceTypes[R];
