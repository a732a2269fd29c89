// The only public entry of the simulation core. Each block re-exports one module.

/** Discrete-event clock: a binary heap of plain-data entries ordered by (at, seq). */
export { createQueue, push, pop, peek, size, type EventQueue, type QueueEntry } from './clock.ts';

/** Seeded generator (sfc32) whose state is plain data in the world. */
export { createRng, bindRng, nextUint32, float, int, pick, jitter, chars, type Rng, type RngState } from './rng.ts';

/** Kubernetes-style names, pod-template-hash, uids, timestamps, stable hashing. */
export {
  ALPHANUMS, EPOCH_MS, generateName, safeEncodeString, computeHash, newUID, rfc3339, microTime, parseTime,
  stableStringify, fnv1a32, fnv1a32Chars, hashOf, hashJSON, deepEqual, eventName,
} from './names.ts';

/** The etcd-like store (only the API server writes it). */
export {
  createStore, storeKey, storeGet, storeList, storePut, storeDelete, storeCompact, storeHistorySince, deepFreeze, REGISTRY_PREFIX,
  type KObject, type StoreEvent, type StoreState, type HistoryRead,
} from './store.ts';

/** The request log: record types, filters, one-line rendering. */
export {
  appendRecord, byComponent, byNode, sinceRevision, sinceTime, formatRecord, formatSeconds,
  type RequestRecord, type RequestLog, type Stage, type WatchEventType,
} from './request-log.ts';

/** The API server: pipeline, REST paths, RBAC, admission/validation hooks, selectors, watches. */
export {
  RESOURCES, resourcePath, qualifiedResource, qualifiedKind, apiVersionOf, handleRequest, openWatch, closeWatch, breakAllWatches,
  registerAdmissionPlugin, admissionPluginNames, registerValidator, parseLabelSelector, parseFieldSelector, matchesLabels,
  matchesFields, fieldValue, labelSelectorAsString, mergePatch, strategicMergePatch, PATCH_MERGE_KEYS, statusError, notFound, alreadyExists, conflict, invalid, forbidden,
  formatFieldError, formatBadValue, defaultImagePullPolicy, defaultPodSpec, applyDefaults, authenticate, createApiServerState,
  kubectlErrorMessage, registerIdentity, goLabelSelector, GoValue, getPodQOS, podSpecUpdateAllowed, validateBuiltin, validateName, POD_UPDATE_FORBIDDEN,
  IDENTITIES, KUBECTL_CONNECTION_REFUSED, COMPACTION_INTERVAL_MS, API_SERVER,
  type ApiRequest, type ApiResult, type ApiHost, type ApiServerState, type Status, type FieldError, type AdmissionPlugin,
  type AdmissionAttributes, type Validator, type WatchNotification, type WatchClosed, type WatchOptions, type Watcher,
  type RequestOptions, type ObjectList, type Verb, type ApiFaults, type Identity, type PolicyRule, type ResourceInfo,
  type ResourceName, type ResourceTypes, type LabelRequirement, type FieldRequirement,
} from './api-server.ts';

/** client-go ideas as plain data: informers (list+watch+cache+handlers) and rate-limited work queues. */
export {
  newInformer, listAndWatch, informerHandle, memoHandlers, listerList, listerGet, listerByIndex, registerIndexer, INDEXERS, metaNamespaceKey, newWorkQueue, add, get, done, len,
  addAfter, addRateLimited, rateLimiterWhen, forget, numRequeues, workQueueHandle, processNextWorkItem, drainQueue, REFLECTOR_BACKOFF_INITIAL_MS, REFLECTOR_BACKOFF_MAX_MS,
  type InformerState, type EventHandlers, type IndexFunc, type MetaObject, type WorkQueue, type SyncResult, type WorkQueueAdd, type InformerRetry,
} from './informer.ts';

/** Events (core/v1) with the recorder's aggregation. */
export { newEventRecorder, recordEvent, type EventRecorderState, type InvolvedObject } from './event-recorder.ts';

/** The world: state, component registry, event loop, inputs, faults, snapshots, replay. */
export {
  World, createWorldState, applyFault, hashWorld, replay, logCount, trimLog, DEFAULT_LOG_LIMIT, SYSTEM_NAMESPACES, FREEZE_BY_DEFAULT,
  type WorldState, type Ctx, type ApiClient, type ComponentDef, type ComponentEntry, type AddComponentOptions, type Input,
  type FaultInput, type WorldOptions, type StepResult,
} from './world.ts';

/** An assembled cluster: kubelets, scheduler, controllers, faults; create, replay, snapshot. */
export { Cluster, createCluster, replayCluster, componentDefs, workerNames, CONTROLLER_MANAGER, KUBE_CONTROLLER_MANAGER, CONTROL_PLANE_NODE, KUBERNETES_VERSION } from './cluster.ts';
export type { SimCluster, ClusterOptions, ControlPlaneComponent, NodeAction } from './cluster-types.ts';

/** Readers that figures use to show "which state is this in, and why". */
export { rolloutStateOf, type RolloutView } from './controllers/deployment-controller.ts';
export { schedulingRecordOf } from './scheduler/scheduler.ts';
export { podLifecycleOf, kubeletStateOf } from './kubelet/kubelet.ts';
export { nodeHealthOf, type NodeHealthView } from './node-lifecycle/node-lifecycle-controller.ts';

/** kubectl over a cluster, and the script runner behind `npm run sim`. */
export { runKubectl } from './kubectl/kubectl.ts';
export { runScript, parseScript } from './kubectl/script.ts';
export { runSimCommand, formatSimTime } from './kubectl/sim-commands.ts';

/** Time travel (step, back, seek, fork over a recorded run) and permalinks to a moment of it. */
export { Timeline, type TimelineOptions, type TimelineData, type Position, type Bounds, type StepKind } from './time-travel.ts';
export {
  encodeMoment, decodeMoment, momentOf, permalinkOf, restoreMoment, PERMALINK_LIMITS, DRIFT_WARNING,
  type Moment, type DecodeResult, type EncodeResult, type RestoreResult,
} from './permalink.ts';
