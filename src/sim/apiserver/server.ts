// The API server's plain-data state, the slice of the world it touches, and its compaction tick.
import type { EventQueue } from '../clock.ts';
import { createRng, type RngState } from '../rng.ts';
import type { EventLeases } from './event-ttl.ts';
import type { RequestLog } from '../request-log.ts';
import { type StoreState, storeCompact } from './store.ts';
import type { LabelRequirement } from '../api/labels.ts';
import type { FieldRequirement } from './selectors.ts';

/** Faults in force at this level. */
export interface ApiFaults {
  apiServerDown: boolean;
  etcdDown: boolean;
  etcdFull: boolean;
  addedLatencyMs: number;
  /** Components cut off from the API server (network partition): their connections are refused. */
  partitioned?: string[];
}

/** The API server's own plain-data state. */
export interface ApiServerState {
  watchers: Record<string, Watcher>;
  /** resource → bucket → watcher ids (`*` = every object, else pods by spec.nodeName). */
  watchIndex: Record<string, Record<string, string[]>>;
  nextWatchId: number;
  /** Base latency of the API server (ms) before a watcher sees an event. */
  latencyMs: number;
  /** Revision seen at the previous compaction tick: what the next tick compacts to. */
  compactCandidate: number;
  allocatedIPs: Record<string, string>;
  /**
   * The generator of generated names (generateName suffixes, the token volume's name): a stream of
   * its own, so that, as in a real cluster, a pod's name depends on the names made before it and
   * not on when each client's watch happened to fire.
   */
  nameRng: RngState;
  /** The generator of the token volumes' names (kube-api-access-xxxxx): its own, so pod names do not move with it. */
  volumeNameRng: RngState;
  /** NodePorts handed out or asked for (absent until the first NodePort Service). */
  allocatedNodePorts?: Record<string, string>;
  faults: ApiFaults;
  /** Admission plugins switched off in this world. */
  disabledAdmission: string[];
  /** The etcd leases Events are written with (made at the first Event; see event-ttl.ts). */
  eventLeases?: EventLeases;
}

/** Everything the API server touches: a subset of the world state. */
export interface ApiHost {
  now: number;
  store: StoreState;
  apiServer: ApiServerState;
  rng: RngState;
  log: RequestLog;
  queue: EventQueue<unknown>;
  /** component name → reaction delay [min, max] ms, identity and process. */
  components: Record<string, { reactionMs?: [number, number]; identity?: string; process?: string }>;
}

/** Fresh API server state. */
export function createApiServerState(latencyMs = 1, seed = 1): ApiServerState {
  return {
    watchers: {},
    watchIndex: {},
    nextWatchId: 1,
    latencyMs,
    compactCandidate: 0,
    allocatedIPs: {},
    nameRng: createRng(seed ^ 0x6e616d65),
    volumeNameRng: createRng(seed ^ 0x766f6c75),
    faults: { apiServerDown: false, etcdDown: false, etcdFull: false, addedLatencyMs: 0 },
    disabledAdmission: [],
  };
}

/** Compaction interval (`--etcd-compaction-interval`, default 5 min). */
export const COMPACTION_INTERVAL_MS = 5 * 60 * 1000;
/** The API server's own component name in the queue. */
export const API_SERVER = 'kube-apiserver';

/**
 * What the API server's own queue entries carry: the compaction tick, etcd revoking an Event lease,
 * the kubernetes Service's reconcile, or the start of a controller of kubectl's chunk (the namespace
 * controller on a namespace's first DELETE, the disruption controller on the first PodDisruptionBudget:
 * the world starts its instance when kubectl's chunk has brought it and the controller manager runs).
 */
export type ApiServerTimer =
  | { type: 'compact' }
  | { type: 'lease-revoke'; id: number }
  | { type: 'kubernetes-service' }
  | { type: 'start'; name: string; ownRng?: true };

/** The bootstrap controller's loop (kubernetesservice.Controller, EndpointInterval: 10 s from the API server's start). */
export const KUBERNETES_SERVICE_INTERVAL_MS = 10_000;
/** A compaction tick: compact to the revision seen one interval ago (so ≥ 5 min of history stays). */
export function compactTick(h: ApiHost): void {
  if (h.apiServer.faults.apiServerDown) return; // the compactor runs inside the API server
  if (!h.apiServer.faults.etcdDown && h.apiServer.compactCandidate > 0)
    storeCompact(h.store, h.apiServer.compactCandidate);
  h.apiServer.compactCandidate = h.store.revision;
}

/** One open watch. */
export interface Watcher {
  id: string;
  /** The component that opened it (its reaction delay paces deliveries). */
  component: string;
  /**
   * The process whose components share this watch (client-go's shared informers: every controller
   * in kube-controller-manager reads one pods watch). Notifications go to the process, which hands
   * each to its subscribers in order.
   */
  process?: string;
  /** Components reading this watch, in the order they joined (just `component` when not shared); replaced on join/leave, never edited. */
  subscribers?: string[];
  /** The selectors as requested: a joining component must ask for exactly the same. */
  selector?: string;
  /** Notifications handed out so far (a component may join only before the first). */
  dispatched?: number;
  resource: string;
  namespace?: string;
  labels: LabelRequirement[];
  fields: FieldRequirement[];
  /** The index bucket it sits in: `*` or a pod's nodeName value. */
  bucket: string;
  /** Time of the last queued notification (deliveries to one watcher never reorder). */
  lastAt: number;
  /** Only events after this revision are sent (a watch from a future rv waits for it, as the watch cache does). */
  fromRevision: number;
}
