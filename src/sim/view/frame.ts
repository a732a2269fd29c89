// frameOf: one moment of a cluster as the plain Frame of types.ts. It reads the world's state in
// place (never a copy: it runs after every step in the worker) and writes null, never undefined, so
// the frame survives JSON and postMessage unchanged.
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { Cluster } from '../cluster.ts';
import { rolloutStateOf, type DeploymentControllerState } from '../controllers/deployment-controller.ts';
import { kubeletStateOf } from '../kubelet/kubelet.ts';
import { printPod } from '../kubectl/print-pod.ts';
import { parseTime } from '../util/time.ts';
import { quantityMilliValue, quantityValue } from '../api/quantity.ts';
import type { KObject } from '../api/request.ts';
import { SYSTEM_NAMESPACES, type WorldState } from '../world.ts';
import type { ControlPlaneView, DeploymentView, Frame, NodeView, PodView, TaintView } from './types.ts';

// The namespaces whose pods and Deployments a frame leaves out: the cluster's own, not the reader's
// (default is a system namespace too, but it is where the reader's objects go).
const HIDDEN_NAMESPACES = SYSTEM_NAMESPACES.filter((ns) => ns !== 'default');

/** The Frame of a cluster at this moment (deterministic: equal worlds give deep-equal frames). */
export function frameOf(cluster: Cluster): Frame {
  const state = cluster.world.state;
  const controlPlane: ControlPlaneView = {
    apiserver: cluster.running('apiserver'),
    etcd: cluster.running('etcd'),
    scheduler: cluster.running('scheduler'),
    controllerManager: cluster.running('controller-manager'),
    latencyMs: state.apiServer.faults.addedLatencyMs,
    etcdFull: state.apiServer.faults.etcdFull,
  };
  const { pods, pending } = podsOf(state);
  return {
    t: state.now,
    revision: state.store.revision,
    controlPlane,
    nodes: nodesOf(state),
    pods,
    pending,
    deployments: deploymentsOf(state),
  };
}

/** A resource's stored objects in etcd key order (the store's buckets are dictionaries: sort the keys). */
function stored<T>(state: WorldState, resource: string): T[] {
  const bucket = state.store.objects[resource];
  if (!bucket) return [];
  const keys = Object.keys(bucket).sort();
  const out: T[] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) out[i] = bucket[keys[i]] as T;
  return out;
}

function nodesOf(state: WorldState): NodeView[] {
  const leases = state.store.objects.leases;
  const partitioned = state.apiServer.faults.partitioned ?? [];
  return stored<Node>(state, 'nodes').map((n): NodeView => {
    const name = n.metadata?.name ?? '';
    const ready = n.status?.conditions?.find((c) => c.type === 'Ready')?.status;
    const lease = leases?.[`/registry/leases/kube-node-lease/${name}`] as Lease | undefined;
    const renewTime = lease?.spec?.renewTime;
    const taints: TaintView[] = (n.spec?.taints ?? []).map((t) => ({
      key: t.key,
      effect: t.effect as TaintView['effect'],
    }));
    const allocatable = n.status?.allocatable ?? {};
    return {
      name,
      // A machine without a kubelet in the world (a Node made by hand) is not running anything.
      powered: kubeletStateOf(state, name)?.up ?? false,
      partitioned: partitioned.includes(`kubelet/${name}`),
      // No Ready condition yet is what kubectl shows as Unknown too.
      ready: ready === 'True' || ready === 'False' ? ready : 'Unknown',
      leaseAgeMs: renewTime ? state.now - parseTime(renewTime, true)! : null,
      taints,
      cordoned: !!n.spec?.unschedulable,
      cpuMilli: quantityMilliValue(allocatable.cpu),
      memoryBytes: quantityValue(allocatable.memory),
      podCIDR: n.spec?.podCIDR ?? null,
    };
  });
}

function podView(p: Pod): PodView {
  // kubectl's STATUS and READY cells, and its RESTARTS count, none of which read the clock.
  const row = printPod(p, 0);
  const owner = p.metadata?.ownerReferences?.find((r) => r.controller);
  return {
    name: p.metadata?.name ?? '',
    namespace: p.metadata?.namespace ?? '',
    node: p.spec?.nodeName || null,
    phase: p.status?.phase ?? 'Pending',
    ready: p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
    ip: p.status?.podIP || null,
    terminating: !!p.metadata?.deletionTimestamp,
    status: row.status,
    readyText: row.ready,
    // The RESTARTS cell is "3" or "3 (12s ago)": the count is kubectl's own sum.
    restarts: parseInt(row.restarts, 10) || 0,
    owner: owner ? `${owner.kind}/${owner.name}` : null,
    image: p.spec?.containers?.[0]?.image ?? '',
  };
}

function visible(o: KObject): boolean {
  return !HIDDEN_NAMESPACES.includes(o.metadata?.namespace ?? '');
}

function podsOf(state: WorldState): { pods: PodView[]; pending: PodView[] } {
  const pods: PodView[] = [];
  const pending: PodView[] = [];
  // Key order is namespace then name; both lists are sorted again below by what a figure groups on.
  for (const p of stored<Pod>(state, 'pods')) {
    if (!visible(p as KObject)) continue;
    const v = podView(p);
    (v.node === null ? pending : pods).push(v);
  }
  const byName = (a: PodView, b: PodView) => cmp(a.name, b.name) || cmp(a.namespace, b.namespace);
  pods.sort((a, b) => cmp(a.node!, b.node!) || byName(a, b));
  pending.sort(byName);
  return { pods, pending };
}

/** Code-unit order (never localeCompare: the frame must not depend on the machine's locale). */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function deploymentsOf(state: WorldState): DeploymentView[] {
  const dc = state.components['deployment-controller']?.state as DeploymentControllerState | undefined;
  const byOwner = new Map<string, ReplicaSet[]>();
  for (const rs of stored<ReplicaSet>(state, 'replicasets')) {
    const uid = rs.metadata?.ownerReferences?.find((r) => r.controller && r.kind === 'Deployment')?.uid;
    if (!uid) continue;
    const list = byOwner.get(uid);
    if (list) list.push(rs);
    else byOwner.set(uid, [rs]);
  }
  const out: DeploymentView[] = [];
  for (const d of stored<Deployment>(state, 'deployments')) {
    if (!visible(d as KObject)) continue;
    const name = d.metadata?.name ?? '';
    const namespace = d.metadata?.namespace ?? '';
    const r = dc ? rolloutStateOf(dc, `${namespace}/${name}`) : undefined;
    const replicaSets = (byOwner.get(d.metadata?.uid ?? '') ?? []).map((rs) => ({
      name: rs.metadata?.name ?? '',
      replicas: rs.status?.replicas ?? 0,
      readyReplicas: rs.status?.readyReplicas ?? 0,
      image: rs.spec?.template?.spec?.containers?.[0]?.image ?? '',
      revision: rs.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? '',
    }));
    // Oldest revision first, as kubectl rollout history lists them.
    replicaSets.sort((a, b) => (Number(a.revision) || 0) - (Number(b.revision) || 0) || cmp(a.name, b.name));
    out.push({
      name,
      namespace,
      replicas: d.spec?.replicas ?? 1,
      readyReplicas: d.status?.readyReplicas ?? 0,
      updatedReplicas: d.status?.updatedReplicas ?? 0,
      availableReplicas: d.status?.availableReplicas ?? 0,
      image: d.spec?.template?.spec?.containers?.[0]?.image ?? '',
      // The controller's statechart lives in its process: a stopped controller-manager reports nothing.
      rollout: r ? { state: r.state, why: r.why } : null,
      replicaSets,
    });
  }
  return out;
}
