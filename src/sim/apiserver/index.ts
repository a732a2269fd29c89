// The API server as the world runs it: the one entry world.ts and cluster.ts (and view/stored.ts, the
// views' read-only window) import its values through (check-deps' hub rule). Clients never come here:
// what they share with the server (resources, requests, Status, patches, watch events) is in api/.
export { type ApiServerConfig } from './config.ts';
export { newApiServerConfig } from './options.ts';
export { registerIdentity } from './authn.ts';
export { extendEventLeases, revokeEventLease } from './event-leases.ts';
export { handleRequest } from './handler.ts';
export { nodeLifecycleApiServer } from './node-admission.ts';
export { SYSTEM_PRIORITY_CLASS_OBJECTS } from './priority-class.ts';
export {
  API_SERVER,
  COMPACTION_INTERVAL_MS,
  KUBERNETES_SERVICE_INTERVAL_MS,
  compactTick,
  createApiServerState,
  type ApiFaults,
  type ApiHost,
  type ApiServerState,
  type ApiServerTimer,
} from './server.ts';
export { createStore, storeGet, storeList, type StoreState } from './store.ts';
export { breakAllWatches, breakWatchesOf, leaveWatch, openWatch, watchSubscribers } from './watch.ts';
