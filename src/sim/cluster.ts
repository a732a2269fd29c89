// Assembles a world: worker nodes with their kubelets, the scheduler and the controllers of the
// kube-controller-manager, and the faults a reader can cause. Every action is a recorded input, so
// replay(world.state.inputs) rebuilds the same cluster.
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServerConfig } from './apiserver/index.ts';
import type { ApiRequest, ApiResult } from './api/request.ts';
import type { ClusterAddon, ClusterOptions, ControlPlaneComponent, NodeAction, SimCluster } from './cluster-types.ts';
import { nodeLifecycleApiServer, registerIdentity, storeGet } from './apiserver/index.ts';
import { deploymentControllerDef } from './controllers/deployment-controller.ts';
import { endpointSliceControllerDef } from './controllers/endpointslice-controller.ts';
import { garbageCollectorDef } from './controllers/garbage-collector.ts';
import { podGCDef } from './controllers/pod-gc.ts';
import { replicaSetControllerDef } from './controllers/replicaset-controller.ts';
import { leaderElectorDef, type LeaderElectorParams } from './client-go/leader-election.ts';
import { kubeletDef } from './kubelet/kubelet.ts';
import type { ContainerHealth } from './kubelet/kubelet-state.ts';
import { kubectlDef } from './kubectl/watch-inbox.ts';
import type { KubeletParams } from './kubelet/node-status.ts';
import { nodeLifecycleControllerDef } from './node-lifecycle/node-lifecycle-controller.ts';
import { taintEvictionControllerDef } from './node-lifecycle/taint-eviction-controller.ts';
import type { RequestLog } from './request-log.ts';
import { schedulerDef } from './scheduler/scheduler.ts';
import { DEFAULT_LOG_LIMIT, World, replay, type AnyComponentDef, type Input, type WorldState } from './world.ts';

/** Every component type a cluster runs, by type name. */
export const componentDefs: AnyComponentDef[] = [
  kubeletDef,
  schedulerDef,
  deploymentControllerDef,
  replicaSetControllerDef,
  endpointSliceControllerDef,
  nodeLifecycleControllerDef,
  taintEvictionControllerDef,
  garbageCollectorDef,
  podGCDef,
  leaderElectorDef,
  // kubectl's watch inbox, while a command watches (added and removed as recorded inputs).
  kubectlDef,
];

/** The controllers kube-controller-manager runs here, instance name = type name. */
export const CONTROLLER_MANAGER = [
  'deployment-controller',
  'replicaset-controller',
  'endpointslice-controller',
  'node-lifecycle-controller',
  'taint-eviction-controller',
  'garbage-collector',
  'pod-garbage-collector',
] as const;

/** The process the controllers run in: they share its watches, as in client-go's shared informers. */
export const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';

/** The kubeadm control-plane node's name. */
export const CONTROL_PLANE_NODE = 'control-plane';

/**
 * kube-scheduler and kube-controller-manager as processes: each a leader-election candidate for its
 * kube-system Lease that starts its loops once it leads ([instance, type, options] for addComponent).
 */
export const PROCESSES: Record<
  'scheduler' | 'controller-manager',
  [string, string, { identity: string; ownRng: true; params: LeaderElectorParams }]
> = {
  scheduler: [
    'kube-scheduler',
    'leader-elector',
    {
      identity: 'scheduler',
      ownRng: true,
      params: {
        lease: 'kube-scheduler',
        hostname: CONTROL_PLANE_NODE,
        run: [['scheduler', 'scheduler', {}]],
        releaseOnCancel: true,
        eventSource: 'default-scheduler',
      },
    },
  ],
  'controller-manager': [
    KUBE_CONTROLLER_MANAGER,
    'leader-elector',
    {
      identity: KUBE_CONTROLLER_MANAGER,
      ownRng: true,
      params: {
        lease: KUBE_CONTROLLER_MANAGER,
        hostname: CONTROL_PLANE_NODE,
        run: CONTROLLER_MANAGER.map((c) => [c, c, { process: KUBE_CONTROLLER_MANAGER }]),
        releaseOnCancel: false,
        eventSource: KUBE_CONTROLLER_MANAGER,
      },
    },
  ],
};

/** The Kubernetes version the model follows (kubectl version, node kubeletVersion). */
const KUBERNETES_VERSION = 'v1.37.2';
/** How long `cluster.settle()` runs at most when not told (simulated ms): the CLI's `sim settle` and the figures' terminal share it. */
export const SETTLE_MAX_MS = 120_000;

/** The kube-system static pods kubeadm writes to /etc/kubernetes/manifests. */
const STATIC_PODS: { component: string; image: string; cpu: string }[] = [
  { component: 'etcd', image: 'registry.k8s.io/etcd:3.7.0-0', cpu: '100m' },
  { component: 'kube-apiserver', image: `registry.k8s.io/kube-apiserver:${KUBERNETES_VERSION}`, cpu: '250m' },
  {
    component: 'kube-controller-manager',
    image: `registry.k8s.io/kube-controller-manager:${KUBERNETES_VERSION}`,
    cpu: '200m',
  },
  { component: 'kube-scheduler', image: `registry.k8s.io/kube-scheduler:${KUBERNETES_VERSION}`, cpu: '100m' },
];

/**
 * The API server a cluster runs: the default admission chain plus DefaultTolerationSeconds. Its
 * connection to the kubelets (for `kubectl logs`) comes with kubectl's part (src/sim/kubectl-extras.ts).
 */
export function clusterApiServer(): ApiServerConfig {
  return nodeLifecycleApiServer();
}

/** The component types a cluster with these add-ons runs (the default list itself when there are none). */
function clusterDefs(addons: readonly ClusterAddon[] = []): AnyComponentDef[] {
  return addons.length ? [...componentDefs, ...addons.flatMap((a) => a.defs)] : componentDefs;
}

/**
 * The API server of a cluster with these add-ons: their identities registered on it alone. The
 * add-ons' optional parts are registered on the world here too, the one step every cluster (created
 * or replayed) takes before its world boots.
 */
function clusterApiServerWith(addons: readonly ClusterAddon[] = []): (world: World) => ApiServerConfig {
  if (!addons.length) return clusterApiServer;
  return (world) => {
    for (const a of addons) Object.assign(world.parts, a.parts);
    const config = clusterApiServer();
    for (const a of addons)
      for (const [component, identity] of Object.entries(a.identities ?? {}))
        registerIdentity(config, component, identity);
    return config;
  };
}

/** The worker node names of a cluster of n nodes. */
function workerNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `node-${i + 1}`);
}

/** A running cluster: the world plus the operations readers, kubectl and the CLI use. */
export class Cluster implements SimCluster {
  world: World;
  readonly options: Required<ClusterOptions>;

  constructor(opts: ClusterOptions = {}, world?: World) {
    this.options = {
      seed: opts.seed ?? 1,
      nodes: opts.nodes ?? 3,
      kubeadm: opts.kubeadm ?? false,
      logLimit: opts.logLimit ?? DEFAULT_LOG_LIMIT,
      nodeCapacity: opts.nodeCapacity ?? [],
      clientLimits: opts.clientLimits ?? {},
      addons: opts.addons ?? [],
    };
    if (world) {
      this.world = world;
      return;
    }
    const serviceAccounts = this.options.addons.flatMap((a) => a.serviceAccounts ?? []);
    this.world = new World(
      {
        seed: this.options.seed,
        logLimit: this.options.logLimit,
        clientLimits: opts.clientLimits,
        ...(serviceAccounts.length && { serviceAccounts }),
      },
      clusterDefs(this.options.addons),
      clusterApiServerWith(this.options.addons),
    );
    if (this.options.kubeadm) {
      this.addKubelet(CONTROL_PLANE_NODE, 0, { controlPlane: true });
    }
    workerNames(this.options.nodes).forEach((name, i) => {
      const size = this.options.nodeCapacity[i];
      // Only a listed node carries a capacity param, so a default cluster records the same inputs as before.
      this.addKubelet(name, i + 1, size ? { capacity: { cpu: size.cpu, memory: size.memory } } : {});
    });
    for (const p of ['scheduler', 'controller-manager'] as const) this.world.addComponent(...PROCESSES[p]);
    if (this.options.kubeadm) this.createStaticPods();
    // The add-ons' instances, on the nodes there are now (a DaemonSet's pods, in effect).
    for (const addon of this.options.addons)
      for (const inst of addon.instances(this.world.state)) this.world.addComponent(...inst);
    // Their objects, created as kubeadm's addon phase creates them (with the admin's credentials).
    for (const addon of this.options.addons) for (const req of addon.objects?.() ?? []) this.world.kubectl(req);
  }

  private addKubelet(node: string, index: number, extra: KubeletParams): void {
    const params: KubeletParams = { node, index, ...extra };
    this.world.addComponent(`kubelet/${node}`, 'kubelet', { params });
  }

  /** kubeadm's control plane runs as static pods; their mirror pods appear in kube-system. */
  private createStaticPods(): void {
    for (const s of STATIC_PODS) {
      const name = `${s.component}-${CONTROL_PLANE_NODE}`;
      const pod: Pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: 'kube-system',
          labels: { component: s.component, tier: 'control-plane' },
          annotations: { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.mirror': name },
        },
        spec: {
          nodeName: CONTROL_PLANE_NODE,
          priorityClassName: 'system-node-critical',
          hostNetwork: true,
          containers: [{ name: s.component, image: s.image, resources: { requests: { cpu: s.cpu } } }],
        },
      };
      this.world.kubectl(
        { verb: 'create', resource: 'pods', namespace: 'kube-system', body: pod },
        `kubelet/${CONTROL_PLANE_NODE}`,
      );
    }
  }

  /** Simulated ms since the start. */
  get now(): number {
    return this.world.now;
  }

  /** The add-ons this cluster runs, with their behaviour. */
  get addons(): readonly ClusterAddon[] {
    return this.options.addons;
  }

  /** The request log. */
  get log(): RequestLog {
    return this.world.state.log;
  }

  /** One API request as kubectl. */
  request(req: ApiRequest): ApiResult<unknown> {
    return this.world.kubectl(req);
  }

  /** Run time forward. */
  advance(ms: number): void {
    this.world.advance(ms);
  }

  /** Run until quiet (only heartbeats left) or maxMs. */
  settle(maxMs = SETTLE_MAX_MS): boolean {
    return this.world.settle(maxMs);
  }

  /** Node faults: power off/on, partition from the control plane, heal. */
  node(name: string, action: NodeAction): void {
    const target = `kubelet/${name}`;
    if (!this.world.state.components[target]) throw new Error(`node "${name}" not found`);
    const type = { stop: 'power-off', start: 'power-on', partition: 'partition', heal: 'heal' }[action];
    if (action === 'partition' || action === 'heal') this.world.fault({ type, component: target } as never);
    this.world.inject(target, { type });
  }

  /** Stop or start the control plane or one of its components. */
  controlPlane(action: 'stop' | 'start', component?: ControlPlaneComponent): void {
    const parts: ControlPlaneComponent[] = component
      ? [component]
      : ['scheduler', 'controller-manager', 'apiserver', 'etcd'];
    const ordered = action === 'start' ? [...parts].reverse() : parts;
    for (const part of ordered) {
      switch (part) {
        case 'apiserver':
          this.world.fault({ type: action === 'stop' ? 'apiserver-down' : 'apiserver-up' });
          break;
        case 'etcd':
          this.world.fault({ type: action === 'stop' ? 'etcd-down' : 'etcd-up' });
          break;
        case 'scheduler':
        case 'controller-manager':
          this.process(part, action);
          break;
      }
    }
  }

  /** A control-plane process stops (its state is gone; its loops with it) or starts afresh, a new leader-election candidate. */
  private process(part: 'scheduler' | 'controller-manager', action: 'stop' | 'start'): void {
    const [name, type, opts] = PROCESSES[part];
    const running = !!this.world.state.components[name];
    if (action === 'stop' && running) this.world.removeComponent(name);
    if (action === 'start' && !running) this.world.addComponent(name, type, opts);
  }

  /** Whether a control-plane part is running. */
  running(component: ControlPlaneComponent): boolean {
    const f = this.world.state.apiServer.faults;
    switch (component) {
      case 'apiserver':
        return !f.apiServerDown;
      case 'etcd':
        return !f.etcdDown;
      case 'scheduler':
      case 'controller-manager':
        return !!this.world.state.components[PROCESSES[component][0]];
    }
  }

  /** Added latency on every request. */
  apiserverLatency(ms: number): void {
    this.world.fault({ type: 'api-latency', ms });
  }

  /** etcd out of space, or space freed. */
  etcd(state: 'full' | 'ok'): void {
    this.world.fault({ type: state === 'full' ? 'etcd-full' : 'etcd-space-freed' });
  }

  /** Crash a pod's first container on its node; false when that container is not running. */
  crash(namespace: string, pod: string, opts: { oom?: boolean; log?: string } = {}): boolean {
    const obj = this.podOnNode(namespace, pod);
    if (!obj) return false;
    const node = obj.spec!.nodeName!;
    const container = obj.spec?.containers?.[0]?.name;
    // Only a running container can crash; anything else would be a no-op reported as success.
    if (!obj.status?.containerStatuses?.find((c) => c.name === container)?.state?.running) return false;
    this.world.inject(`kubelet/${node}`, {
      type: 'crash',
      namespace,
      pod,
      container,
      oom: !!opts.oom,
      ...(opts.log === undefined ? {} : { log: opts.log }),
    });
    return true;
  }

  /** Make a pod's app behave so from now on (its kubelet's set-health: app-health.ts gives the health of each `sim app` behaviour). */
  app(namespace: string, pod: string, health: ContainerHealth): boolean {
    const obj = this.podOnNode(namespace, pod);
    if (obj) this.world.inject(`kubelet/${obj.spec!.nodeName}`, { type: 'set-health', namespace, pod, health });
    return !!obj;
  }

  /** The pod, when it is bound to a node that runs a kubelet. */
  private podOnNode(namespace: string, pod: string): Pod | undefined {
    const obj = storeGet(this.world.state.store, 'pods', `/registry/pods/${namespace}/${pod}`) as Pod | undefined;
    const node = obj?.spec?.nodeName;
    return node && this.world.state.components[`kubelet/${node}`] ? obj : undefined;
  }

  /** Make an image unpullable, or pullable again. */
  image(image: string, state: 'missing' | 'available'): void {
    this.world.fault({ type: state === 'missing' ? 'image-missing' : 'image-available', image } as never);
  }

  /** A plain-data copy of the whole cluster at this moment. */
  snapshot(): WorldState {
    return this.world.snapshot();
  }

  /** Go back to a snapshot. */
  restore(s: WorldState): void {
    this.world.restore(s);
  }
}

/** Assemble the default cluster (three workers, one zone), or as the options say. */
export function createCluster(opts: ClusterOptions = {}): Cluster {
  return new Cluster(opts);
}

/** Rebuild a cluster from recorded inputs up to simulated time untilT (same seed ⇒ same bytes). */
export function replayCluster(opts: ClusterOptions, inputs: readonly Input[], untilT: number): Cluster {
  const world = replay(
    inputs,
    { seed: opts.seed ?? 1, logLimit: opts.logLimit },
    clusterDefs(opts.addons),
    untilT,
    clusterApiServerWith(opts.addons),
  );
  return new Cluster(opts, world);
}
