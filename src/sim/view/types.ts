// The view boundary: what anything outside the core sees of a cluster at one moment. Plain,
// JSON-safe data (it crosses the worker boundary with postMessage and is rendered on the server),
// built only by frame.ts and records.ts from a world; nobody rebuilds it from world.state.

/** The control plane at one moment: which parts run, and the faults a reader has set. */
export interface ControlPlaneView {
  apiserver: boolean;
  etcd: boolean;
  scheduler: boolean;
  /** Every controller of kube-controller-manager runs. */
  controllerManager: boolean;
  /** Latency added to every API request (ms; 0 = none). */
  latencyMs: number;
  /** etcd refuses writes: "database space exceeded". */
  etcdFull: boolean;
}

/** A taint as the node carries it. */
export interface TaintView {
  key: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** One node: its machine (powered, cut off) and what the API server says of it. */
export interface NodeView {
  name: string;
  /** The machine is on (its kubelet and containerd run). */
  powered: boolean;
  /** Cut off from the control plane (its requests are refused). */
  partitioned: boolean;
  /** The Ready condition's status on the Node object ('Unknown' once the node-lifecycle controller gives up on it). */
  ready: 'True' | 'False' | 'Unknown';
  /** ms since the node's Lease was last renewed (its renewTime), or null before the first one. */
  leaseAgeMs: number | null;
  taints: TaintView[];
  /** spec.unschedulable (cordoned). */
  cordoned: boolean;
  /** Allocatable CPU (millicores) and memory (bytes). */
  cpuMilli: number;
  memoryBytes: number;
  /** The pod CIDR the node's pods take IPs from. */
  podCIDR: string | null;
}

/** One pod, as the API server stores it. */
export interface PodView {
  name: string;
  namespace: string;
  /** spec.nodeName, null while unbound. */
  node: string | null;
  phase: string;
  /** The Ready condition is True. */
  ready: boolean;
  ip: string | null;
  /** metadata.deletionTimestamp is set. */
  terminating: boolean;
  /** kubectl get pods' STATUS column (ContainerCreating, Running, Terminating, CrashLoopBackOff …). */
  status: string;
  /** kubectl's READY column ("1/1"). */
  readyText: string;
  restarts: number;
  /** The controller that owns it ("ReplicaSet/web-c68c68797"), or null. */
  owner: string | null;
  /** The first container's image. */
  image: string;
}

/** One Deployment with its ReplicaSets and the rollout state the controller reports. */
export interface DeploymentView {
  name: string;
  namespace: string;
  replicas: number;
  readyReplicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  image: string;
  /** The rollout statechart's state ("progressing", "complete" …) and the reason it gives. */
  rollout: { state: string; why: string } | null;
  replicaSets: { name: string; replicas: number; readyReplicas: number; image: string; revision: string }[];
}

/** A whole moment of the cluster: what a figure's canvas draws. */
export interface Frame {
  /** Simulated ms since the simulation's epoch. */
  t: number;
  /** The store's (etcd's) revision. */
  revision: number;
  controlPlane: ControlPlaneView;
  nodes: NodeView[];
  /** Bound pods, by node then name. */
  pods: PodView[];
  /** Pods no node has been chosen for yet, by name. */
  pending: PodView[];
  deployments: DeploymentView[];
}

/** The ends a record is drawn between on the canvas. */
export type Endpoint =
  | 'kubectl'
  | 'kube-apiserver'
  | 'etcd'
  | 'scheduler'
  | 'kube-controller-manager'
  | `kubelet/${string}`
  | `containerd/${string}`;

/** One request-log record of the current step, ready to draw and to read aloud. */
export interface StepRecord {
  /** Index in the whole log (stable across steps; a key for lists). */
  seq: number;
  t: number;
  /** write (a request that asks to change etcd: POST, PUT, PATCH, DELETE, allowed or not), read (GET and the like), watch (a notification), cri (kubelet ↔ containerd). */
  kind: 'write' | 'read' | 'watch' | 'cri';
  /** The component that wrote the record ("deployment-controller", "kubelet/node-2", "kubectl"). */
  component: string;
  from: Endpoint;
  to: Endpoint;
  /** Short label: "POST pods", "PATCH pods/status", "ADDED pods", "CreateContainer". */
  label: string;
  verb: string;
  path: string;
  object: string | null;
  revision: number | null;
  code: number;
  /** The record is a heartbeat (Lease renewals, node status reports and their notifications). */
  heartbeat: boolean;
  /** One plain sentence saying what happened (and, for a write with a cause, what woke its sender). */
  sentence: string;
  /**
   * The watch notification that woke the sync which sent this write or CRI call (WorldState.causes),
   * when one did and the log still has it; null for reads, notifications, and writes a timer, a
   * resync or a reader sent.
   */
  cause: StepCause | null;
}

/** A write's cause as the view shows it: the notification's position, label and object. */
export interface StepCause {
  /** Its position in the whole log (the `seq` of its own StepRecord). */
  seq: number;
  /** "MODIFIED replicasets". */
  label: string;
  /** `replicasets/default/web-7d9c…`, as StepRecord.object. */
  object: string | null;
}
