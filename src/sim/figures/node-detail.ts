// What the node-failure and outage figures show beside the Frame, read from the core's own state:
// the node statechart as the node-lifecycle controller holds it, the Lease clock, each pod's
// toleration countdown as the taint-eviction controller scheduled it, and whether the pod's
// container still runs on its machine (which the API server cannot know while a node is cut off).
import type { Cluster } from '../cluster.ts';
import type { KubeletState } from '../kubelet/kubelet-state.ts';
import { nodeHealthOf } from '../node-lifecycle/node-health-view.ts';
import {
  TAINT_EVICTION_CONTROLLER,
  type TaintEvictionControllerState,
} from '../node-lifecycle/taint-eviction-controller.ts';
import { storeList } from '../view/stored.ts';
import type { Frame } from '../view/types.ts';

/** The kubelet renews its node's Lease this often (kubelet's nodeLeaseDurationSeconds 40 × 0.25). */
const LEASE_RENEW_MS = 10_000;

/** One pod on the watched node, with its eviction countdown and its container as the machine runs it. */
export interface PodCountdown {
  name: string;
  terminating: boolean;
  /** tolerationSeconds of the pod's toleration for the node's NoExecute taint (null: tolerates it for ever, or no such toleration). */
  tolerationSeconds: number | null;
  /** When the taint-eviction controller will delete the pod (simulated ms), or null when nothing is scheduled. */
  evictAt: number | null;
  /** Seconds until then, whole, never negative (null when nothing is scheduled). */
  remainingS: number | null;
  /** The pod's container as its node's containerd has it: running, stopped, or none (never started there, or the machine is off). */
  container: 'running' | 'stopped' | 'none';
}

/** The node's Lease clock and grace period as the figure's clock panel draws it. */
export interface LeaseClock {
  node: string;
  powered: boolean;
  partitioned: boolean;
  ready: string;
  /** Seconds since the Lease was last renewed (its renewTime), or null before the first renewal. */
  leaseAgeS: number | null;
  renewEveryS: number;
  /** The controller's grace period (50 s by default), or null while the controller is not running. */
  graceS: number | null;
  /** Seconds since the controller last saw the node alive (its probe timestamp), or null. */
  quietS: number | null;
}

function kubeletOf(cluster: Cluster, node: string): KubeletState | undefined {
  return cluster.world.state.components[`kubelet/${node}`]?.state as KubeletState | undefined;
}

function taintEvictionOf(cluster: Cluster): TaintEvictionControllerState | undefined {
  const c = cluster.world.state.components[TAINT_EVICTION_CONTROLLER];
  return c?.state as TaintEvictionControllerState | undefined;
}

/** The container of pod `ns/name` as containerd on `node` has it now. */
function containerOn(k: KubeletState | undefined, ns: string, name: string): PodCountdown['container'] {
  if (!k || !k.up) return 'none';
  const sandboxes = new Set(
    Object.values(k.runtime.sandboxes)
      .filter((s) => s.podName === name && s.namespace === ns)
      .map((s) => s.id),
  );
  if (!sandboxes.size) return 'none';
  return Object.values(k.runtime.containers).some((c) => sandboxes.has(c.sandboxId) && c.state === 'CONTAINER_RUNNING')
    ? 'running'
    : 'stopped';
}

/** Each pod the API server has on `node`, with its toleration countdown and its container. */
export function podCountdownsOf(cluster: Cluster, node: string): PodCountdown[] {
  const w = cluster.world.state;
  const te = taintEvictionOf(cluster);
  const k = kubeletOf(cluster, node);
  const pods = storeList(w.store, 'pods', 'default').filter((p) => p.spec?.nodeName === node);
  return pods
    .map((p) => {
      const name = p.metadata?.name ?? '';
      const work = te?.eviction.workers[`default/${name}`];
      const evictAt = work && !work.fired ? work.fireAt : null;
      const tol = p.spec?.tolerations?.find(
        (t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute',
      );
      return {
        name,
        terminating: !!p.metadata?.deletionTimestamp,
        tolerationSeconds: tol?.tolerationSeconds ?? null,
        evictAt,
        remainingS: evictAt === null ? null : Math.max(0, Math.ceil((evictAt - w.now) / 1000)),
        container: containerOn(k, 'default', name),
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The Lease clock of `node` at this moment. */
export function leaseClockOf(cluster: Cluster, frame: Frame, node: string): LeaseClock {
  const n = frame.nodes.find((x) => x.name === node);
  const h = nodeHealthOf(cluster.world.state, node);
  return {
    node,
    powered: n?.powered ?? false,
    partitioned: n?.partitioned ?? false,
    ready: n?.ready ?? 'Unknown',
    leaseAgeS: n?.leaseAgeMs == null ? null : Math.floor(n.leaseAgeMs / 1000),
    renewEveryS: LEASE_RENEW_MS / 1000,
    graceS: h ? h.gracePeriodMs / 1000 : null,
    quietS: h ? Math.max(0, Math.floor((cluster.now - h.probeTimestamp) / 1000)) : null,
  };
}

/** One endpoint of a Service as the nodes' rules hold it, and whether anything answers at its address now. */
export interface ServiceEndpoint {
  ip: string;
  pod: string;
  node: string;
  /** The EndpointSlice lists it as ready. */
  listedReady: boolean;
  /** A running container of that pod answers (its machine is on and containerd runs it). */
  answers: boolean;
}

/**
 * A Service's endpoints as the nodes last learnt them. The core has no kube-proxy or packets: while
 * the API server is down nothing can change the EndpointSlices, so the slices in etcd are exactly
 * what every node's rules were programmed from; success is whether the chosen address answers.
 */
export function serviceEndpointsOf(
  cluster: Cluster,
  service: string,
): { clusterIP: string | null; endpoints: ServiceEndpoint[] } {
  const w = cluster.world.state;
  const svc = storeList(w.store, 'services', 'default').find((s) => s.metadata?.name === service);
  const slices = storeList(w.store, 'endpointslices', 'default').filter(
    (s) => s.metadata?.labels?.['kubernetes.io/service-name'] === service,
  );
  const endpoints: ServiceEndpoint[] = [];
  for (const s of slices) {
    for (const e of s.endpoints ?? []) {
      const pod = e.targetRef?.name ?? '';
      const node = e.nodeName ?? '';
      // kube-proxy sends traffic only to ready endpoints (terminating ones only when none is ready; not modelled).
      endpoints.push({
        ip: e.addresses[0] ?? '',
        pod,
        node,
        listedReady: e.conditions?.ready !== false,
        answers: containerOn(kubeletOf(cluster, node), 'default', pod) === 'running',
      });
    }
  }
  endpoints.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
  return { clusterIP: svc?.spec?.clusterIP ?? null, endpoints };
}
