// The control surface of an assembled cluster (cluster.ts): what kubectl, the headless CLI and the
// figures drive. Kept as an interface so the kubectl front can be written and tested against it.
import type { ApiRequest, ApiResult } from './api/request.ts';
import type { RateLimit } from './client-go/flowcontrol.ts';
import type { RequestLog } from './request-log.ts';
import type { Identity } from './api/identity.ts';
import type { AddComponentOptions, AnyComponentDef, World, WorldParts, WorldState } from './world.ts';
import type { ContainerHealth } from './kubelet/kubelet-state.ts';

/** The control-plane parts that can be stopped on their own. */
export type ControlPlaneComponent = 'apiserver' | 'etcd' | 'scheduler' | 'controller-manager';

/** What can happen to a node. */
export type NodeAction = 'stop' | 'start' | 'partition' | 'heal';

/**
 * How a pod's simulated app behaves from now on (`sim app`): it crashes a second after each start,
 * leaks memory past its limit and is OOM-killed 5 s after each start, fails its readiness probe, or
 * is healthy.
 */
export type AppBehaviour = 'crashes' | 'leaks' | 'unready' | 'healthy';

/** Options for assembling a world. */
export interface ClusterOptions {
  /** Seed of the generator (names, tie-breaks, jitter). Default 1. */
  seed?: number;
  /** Worker nodes node-1…node-N (4 CPU, 8 GiB each, one zone). Default 3. */
  nodes?: number;
  /** Adds a tainted control-plane node with static pods in kube-system, as kubeadm does. */
  kubeadm?: boolean;
  /** Request-log records kept, oldest dropped first (default 200,000; 0 keeps every record). */
  logLimit?: number;
  /**
   * The capacity of each worker, node-1 first (a node not listed keeps 4 CPU, 8 GiB): the machines
   * a figure about scheduling needs to differ. Default none, so every node is the same size.
   */
  nodeCapacity?: NodeCapacity[];
  /**
   * Client QPS and burst by component type (`replicaset-controller`, `scheduler`, `kubelet`) in place
   * of their real defaults, as a scale test's --kube-api-qps/--kube-api-burst do. Default none.
   */
  clientLimits?: Record<string, RateLimit>;
  /**
   * Components beyond the default cluster's, each given with its behaviour so that a cluster without
   * them never loads their code (kube-proxy: `kubeProxyAddon()` from kube-proxy/kube-proxy.ts).
   * Default none. They start after the nodes and the control plane, in the order given.
   */
  addons?: ClusterAddon[];
}

/** A component set a cluster can run on request, with the behaviour it needs (see ClusterOptions.addons). */
export interface ClusterAddon {
  /** What a script header or a figure calls it (`kube-proxy`). */
  name: string;
  /** Its component types, registered on this cluster's world only. */
  defs: AnyComponentDef[];
  /** Its identities on this cluster's API server (component identity → user and RBAC rules). */
  identities?: Record<string, Identity>;
  /** Its instances once the nodes exist (read from the world: its kubelets), as [name, type, options] for World.addComponent. */
  instances(w: WorldState): [string, string, AddComponentOptions][];
  /**
   * A node's packet-filtering rules as the add-on last wrote them (kube-proxy's, for `sim rules`), in
   * its own mode or the one asked: `error` for a node that does not exist, undefined when it does not
   * run on that node, no text before its first write.
   */
  rules?(world: World, node: string, mode?: 'iptables' | 'nftables'): { text?: string; error?: string } | undefined;
  /**
   * The kube-system ServiceAccounts its pods run as (ServiceAccount admission refuses a pod whose
   * account does not exist): made with the bootstrap's objects, as kubeadm's addon phase made them before t=0.
   */
  serviceAccounts?: string[];
  /** API requests the cluster sends for it once its instances exist, as kubeadm's addon phase does (CoreDNS's Deployment and Service). */
  objects?(): ApiRequest[];
  /** The commands the pod network it brings answers (kube-proxy's add-on brings net/). */
  net?: NetCommands;
  /** Optional parts of the core its components can need (WorldParts), registered on the world before it starts. */
  parts?: WorldParts;
}

/** A command's text answer, as a terminal shows it. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** What the pod network answers: a program run in a pod (`kubectl exec … -- curl …`) and `sim traffic`. */
export interface NetCommands {
  /** Run argv (curl, wget, nslookup, cat /etc/resolv.conf) in a running pod's network namespace. */
  exec(
    cluster: SimCluster,
    target: { namespace: string; pod: string; container: string; node: string; argv: string[] },
  ): CommandOutput;
  /** `sim traffic <service> <n> [--from <node>] [-n <namespace>]`: n requests, counted per endpoint. */
  traffic(cluster: SimCluster, argv: string[]): CommandOutput;
}

/** A worker machine's size, as Kubernetes quantities ("2", "500m"; "4Gi"). */
export interface NodeCapacity {
  cpu: string;
  memory: string;
}

/** An assembled, running cluster. Every method is an input recorded for replay. */
export interface SimCluster {
  readonly world: World;
  /** Simulated time in ms since the epoch of the simulation. */
  readonly now: number;
  /** The request log (API requests, watch notifications, CRI calls). */
  readonly log: RequestLog;
  /** Sends one API request as kubectl (identity kubernetes-admin), answered at once. */
  request(req: ApiRequest): ApiResult<unknown>;
  /** Runs simulated time forward by ms. */
  advance(ms: number): void;
  /** Runs until only recurring timers remain, or maxMs passes; true when it settled. */
  settle(maxMs?: number): boolean;
  /** Powers a node off/on, cuts it off from the control plane or heals the cut. */
  node(name: string, action: NodeAction): void;
  /** Stops or starts the whole control plane, or one component of it. */
  controlPlane(action: 'stop' | 'start', component?: ControlPlaneComponent): void;
  /** Adds latency to every API request (0 removes it). */
  apiserverLatency(ms: number): void;
  /** Fills etcd (writes refused: "database space exceeded") or frees it. */
  etcd(state: 'full' | 'ok'): void;
  /** Crashes the first container of a pod (as an OOM kill when oom is true). */
  crash(namespace: string, pod: string, opts?: { oom?: boolean; log?: string }): boolean;
  /** Makes an image unpullable, or pullable again. */
  image(image: string, state: 'missing' | 'available'): void;
  /** Makes a pod's app behave so from now on (appHealth of a `sim app` behaviour); false when the pod runs on no node. */
  app(namespace: string, pod: string, health: ContainerHealth): boolean;
  /** The add-ons it runs (ClusterOptions.addons), with their behaviour; none when absent. */
  readonly addons?: readonly ClusterAddon[];
}
