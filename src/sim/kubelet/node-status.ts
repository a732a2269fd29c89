// What the kubelet writes about its node: the Node it registers (pkg/kubelet/kubelet_node_status.go
// initialNode + the setters in pkg/kubelet/nodestatus/setters.go) and its Lease
// (k8s.io/component-helpers/apimachinery/lease). Pure builders; the kubelet component sends them.
import { nodeAddress } from '../util/node-address.ts';
import type { Node, NodeCondition, NodeStatus, Taint } from 'kubernetes-types/core/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { ImageRecord } from './container-runtime.ts';
import { podCIDRForNode } from './pod-ip.ts';
import { rfc3339, rfc3339Micro } from '../util/time.ts';
import { parseQuantity, quantityString, quantityValue } from '../api/quantity.ts';
import { machineIDCache } from './node-status-cache.ts';

/** Instance parameters of a kubelet (all optional: derived from the instance name `kubelet/node-N`). */
export interface KubeletParams {
  node?: string;
  /** N of node-N: picks the pod CIDR 10.244.N.0/24 and the internal IP 10.0.0.1N. */
  index?: number;
  capacity?: { cpu?: string; memory?: string; pods?: string; 'ephemeral-storage'?: string };
  /** Extra labels (merged over the kubelet's own well-known labels). */
  labels?: Record<string, string>;
  zone?: string;
  taints?: Taint[];
  /** A kubeadm control-plane node: role label and the NoSchedule taint. */
  controlPlane?: boolean;
  podCIDR?: string;
  internalIP?: string;
  kubeletVersion?: string;
  containerRuntimeVersion?: string;
  osImage?: string;
  kernelVersion?: string;
  /** Image download speed of this node, bytes per second. */
  bandwidthBytesPerSec?: number;
}

/** The parameters with every default filled in. */
export interface NodeConfig {
  node: string;
  index: number;
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
  labels: Record<string, string>;
  taints: Taint[];
  podCIDR: string;
  internalIP: string;
  kubeletVersion: string;
  containerRuntimeVersion: string;
  osImage: string;
  kernelVersion: string;
  bandwidthBytesPerSec: number;
}

/** nodeLeaseDurationSeconds default (kubelet config v1beta1). */
const NODE_LEASE_DURATION_SECONDS = 40;
/** Renew interval = 40 s × nodeLeaseRenewIntervalFraction 0.25. */
export const LEASE_RENEW_INTERVAL_MS = 10_000;
/** nodeStatusUpdateFrequency. */
export const NODE_STATUS_UPDATE_FREQUENCY_MS = 10_000;
/** nodeStatusReportFrequency: report even without a change this often. */
export const NODE_STATUS_REPORT_FREQUENCY_MS = 5 * 60_000;
/** The kubelet's default version in this model. */
const KUBELET_VERSION = 'v1.37.2';
/** status.declaredFeatures of a v1.37 kubelet with default gates (sorted, as the kubelet writes them). */
const DECLARED_FEATURES: readonly string[] = [
  'ExtendWebSocketsToKubelet',
  'InPlacePodLevelResourcesVerticalScaling',
  'InPlacePodVerticalScalingInitContainers',
  'RestartAllContainersOnContainerExits',
];
/** containerd's CRI version string. */
const CONTAINER_RUNTIME_VERSION = 'containerd://2.1.4';

/** A capacity quantity in KiB (its Value() over 1024). */
const kiOf = (q: string): number => quantityValue(q) / 1024;

/** A count of KiB as the kubelet's BinarySI quantity prints it. */
const kiString = (ki: number): string => quantityString(parseQuantity(`${ki}Ki`));

/** Resolve params for instance `kubelet/node-N`: node-N gets 10.244.N.0/24 and 10.0.0.1N. */
export function nodeConfig(instance: string, p: KubeletParams = {}): NodeConfig {
  const { node, index, internalIP } = nodeAddress(instance, p);
  const cap = { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi', ...p.capacity };
  const memKi = kiOf(cap.memory);
  const diskKi = kiOf(cap['ephemeral-storage']);
  // kubeadm leaves no system/kube reserved; the hard eviction thresholds come off allocatable
  // (memory.available<100Mi, nodefs.available<10%). Quantities as Go writes them (Quantity.String():
  // cAdvisor's bytes in BinarySI, so a node of exactly 8 GiB says 8Gi, not 8388608Ki).
  const capacity = {
    cpu: cap.cpu,
    'ephemeral-storage': kiString(diskKi),
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: kiString(memKi),
    pods: cap.pods,
  };
  const allocatable = {
    ...capacity,
    'ephemeral-storage': String(Math.floor(diskKi * 1024 * 0.9)),
    memory: kiString(memKi - 100 * 1024),
  };
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': node,
    'kubernetes.io/os': 'linux',
  };
  if (p.zone) labels['topology.kubernetes.io/zone'] = p.zone;
  if (p.controlPlane) {
    labels['node-role.kubernetes.io/control-plane'] = '';
    labels['node.kubernetes.io/exclude-from-external-load-balancers'] = '';
  }
  Object.assign(labels, p.labels);
  const taints =
    p.taints ?? (p.controlPlane ? [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] : []);
  return {
    node,
    index,
    capacity,
    allocatable,
    labels,
    taints,
    podCIDR: p.podCIDR ?? podCIDRForNode(index),
    internalIP,
    kubeletVersion: p.kubeletVersion ?? KUBELET_VERSION,
    containerRuntimeVersion: p.containerRuntimeVersion ?? CONTAINER_RUNTIME_VERSION,
    osImage: p.osImage ?? 'Debian GNU/Linux 12 (bookworm)',
    kernelVersion: p.kernelVersion ?? '6.1.0-40-amd64',
    bandwidthBytesPerSec: p.bandwidthBytesPerSec ?? 12_500_000,
  };
}

/** The four conditions the kubelet owns, healthy, with Kubernetes' reasons and messages. */
export function healthyConditions(): Pick<NodeCondition, 'type' | 'status' | 'reason' | 'message'>[] {
  return [
    {
      type: 'MemoryPressure',
      status: 'False',
      reason: 'KubeletHasSufficientMemory',
      message: 'kubelet has sufficient memory available',
    },
    {
      type: 'DiskPressure',
      status: 'False',
      reason: 'KubeletHasNoDiskPressure',
      message: 'kubelet has no disk pressure',
    },
    {
      type: 'PIDPressure',
      status: 'False',
      reason: 'KubeletHasSufficientPID',
      message: 'kubelet has sufficient PID available',
    },
    { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
  ];
}

/** Identity of the machine that stays the same across reboots (machine-id, SMBIOS UUID). */
function machineIDs(node: string): { machineID: string; systemUUID: string } {
  const hit = machineIDCache.get(node);
  if (hit) return { ...hit };
  const ids = computeMachineIDs(node);
  machineIDCache.set(node, ids);
  return { ...ids };
}

function computeMachineIDs(node: string): { machineID: string; systemUUID: string } {
  let h = 0x811c9dc5;
  let hex = '';
  for (let round = 0; hex.length < 32; round++) {
    for (const ch of `${round}:${node}`) {
      h ^= ch.charCodeAt(0);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    hex += h.toString(16).padStart(8, '0');
  }
  const u = hex.slice(0, 32);
  return {
    machineID: u,
    systemUUID: `${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 20)}-${u.slice(20, 32)}`,
  };
}

/** status.images: what containerd holds, biggest first (the kubelet sorts by size). */
function nodeImages(images: Record<string, ImageRecord>): NonNullable<NodeStatus['images']> {
  return Object.values(images)
    .sort((a, b) => b.sizeBytes - a.sizeBytes || (a.ref < b.ref ? -1 : 1))
    .map((i) => ({ names: [`${i.ref.replace(/:[^:/]+$/, '')}@${i.id}`, i.ref], sizeBytes: i.sizeBytes }));
}

/**
 * The node status the setters compute now (not `ready`: before the runtime's first status check).
 * Transition times come from `prev` when a condition's status did not change; heartbeat times are `now`.
 */
export function computeNodeStatus(
  cfg: NodeConfig,
  bootID: string,
  images: Record<string, ImageRecord>,
  now: number,
  prev?: NodeStatus,
  ready = true,
): NodeStatus {
  const t = rfc3339(now);
  const conds = healthyConditions();
  // ReadyCondition before the first runtime status check (runtimeErrors): only its status is ever
  // read (fastStatusUpdateOnce gives up on it without a PATCH), so its reason and message are left out.
  if (!ready) conds[3] = { type: 'Ready', status: 'False' };
  const conditions: NodeCondition[] = conds.map((c) => {
    const old = prev?.conditions?.find((x) => x.type === c.type);
    const lastTransitionTime = old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : t;
    return { ...c, lastHeartbeatTime: t, lastTransitionTime };
  });
  return {
    capacity: { ...cfg.capacity },
    allocatable: { ...cfg.allocatable },
    conditions,
    addresses: [
      { type: 'InternalIP', address: cfg.internalIP },
      { type: 'Hostname', address: cfg.node },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      ...machineIDs(cfg.node),
      bootID,
      kernelVersion: cfg.kernelVersion,
      osImage: cfg.osImage,
      containerRuntimeVersion: cfg.containerRuntimeVersion,
      kubeletVersion: cfg.kubeletVersion,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    images: nodeImages(images),
    // NodeDeclaredFeatures (GA in 1.37): the features this kubelet's gates switch on that the
    // scheduler and admission may ask for; the list real v1.37.2 kubelets declare by default.
    declaredFeatures: [...DECLARED_FEATURES],
  } as NodeStatus;
}

// The event each pressure setter records when its condition moves to True or to False.
const PRESSURE_EVENTS: Record<string, { True: string; False: string }> = {
  MemoryPressure: { True: 'NodeHasInsufficientMemory', False: 'NodeHasSufficientMemory' },
  DiskPressure: { True: 'NodeHasDiskPressure', False: 'NodeHasNoDiskPressure' },
  PIDPressure: { True: 'NodeHasInsufficientPID', False: 'NodeHasSufficientPID' },
};

/**
 * The events the kubelet's condition setters record when they move the node's status from `prev` to
 * `next` (nodestatus MemoryPressureCondition, DiskPressureCondition, PIDPressureCondition, then
 * ReadyCondition). A missing pressure condition counts as Unknown, so a new node, or one the
 * node-lifecycle controller marked Unknown, gets all three; Ready records NodeReady or NodeNotReady
 * only when a Ready condition was there with another status.
 */
export function nodeConditionEvents(prev: NodeStatus | undefined, next: NodeStatus): string[] {
  const out: string[] = [];
  for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) {
    const now = next.conditions?.find((c) => c.type === type)?.status;
    const before = prev?.conditions?.find((c) => c.type === type)?.status ?? 'Unknown';
    if ((now === 'True' || now === 'False') && now !== before) out.push(PRESSURE_EVENTS[type][now]);
  }
  const ready = next.conditions?.find((c) => c.type === 'Ready')?.status;
  const before = prev?.conditions?.find((c) => c.type === 'Ready')?.status;
  if (ready !== undefined && before !== undefined && ready !== before)
    out.push(ready === 'True' ? 'NodeReady' : 'NodeNotReady');
  return out;
}

/** Node status without heartbeat times: what decides whether a PATCH is needed. */
export function statusForComparison(s: NodeStatus | undefined): unknown {
  if (!s) return undefined;
  return { ...s, conditions: s.conditions?.map(({ lastHeartbeatTime: _h, ...c }) => c) };
}

/** The Node the kubelet POSTs when it registers (initialNode). */
export function initialNode(cfg: NodeConfig, status: NodeStatus): Node {
  const spec: Node['spec'] = { podCIDR: cfg.podCIDR, podCIDRs: [cfg.podCIDR] };
  if (cfg.taints.length) spec.taints = cfg.taints.map((t) => ({ ...t }));
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: cfg.node,
      labels: { ...cfg.labels },
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec,
    status,
  };
}

/** The node's Lease in kube-node-lease, owned by the Node (so it goes when the Node goes). */
export function newLease(node: string, nodeUID: string | undefined, now: number): Lease {
  const lease: Lease = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: node, namespace: 'kube-node-lease' },
    spec: { holderIdentity: node, leaseDurationSeconds: NODE_LEASE_DURATION_SECONDS, renewTime: rfc3339Micro(now) },
  };
  if (nodeUID) lease.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: node, uid: nodeUID }];
  return lease;
}

/** The lease with renewTime moved to now (what each renewal PUTs). */
export function renewedLease(l: Lease, node: string, nodeUID: string | undefined, now: number): Lease {
  const next: Lease = {
    ...l,
    metadata: { ...l.metadata },
    spec: {
      ...l.spec,
      holderIdentity: node,
      leaseDurationSeconds: NODE_LEASE_DURATION_SECONDS,
      renewTime: rfc3339Micro(now),
    },
  };
  if (nodeUID && !next.metadata!.ownerReferences?.length)
    next.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: node, uid: nodeUID }];
  return next;
}
