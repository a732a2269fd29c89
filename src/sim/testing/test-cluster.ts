// A SimCluster test double: a World with objects preloaded through the API; advance/settle
// delegate to the World; fault methods record their calls (the API-server faults also apply).
import type { Node, Taint } from 'kubernetes-types/core/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import type { ApiRequest, ApiResult } from '../api/request.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { ControlPlaneComponent, NodeAction, SimCluster } from '../cluster-types.ts';
import type { ContainerHealth } from '../kubelet/kubelet-state.ts';
import type { RequestLog } from '../request-log.ts';
import { testWorld } from './world.ts';
import type { World } from '../world.ts';

/** An object as the API server returns it: any kind, its metadata set. */
type StoredObject = Unstructured & { metadata: ObjectMeta };

/** One recorded fault call. */
interface FaultCall {
  method: string;
  args: unknown[];
}

/** The double: every SimCluster method, plus `calls` and helpers to preload objects. */
export class TestCluster implements SimCluster {
  readonly world: World;
  readonly calls: FaultCall[] = [];
  constructor(world: World = testWorld()) {
    this.world = world;
  }
  get now(): number {
    return this.world.now;
  }
  get log(): RequestLog {
    return this.world.state.log;
  }
  request(req: ApiRequest): ApiResult<unknown> {
    return this.world.kubectl(req);
  }
  advance(ms: number): void {
    this.world.advance(ms);
  }
  settle(maxMs?: number): boolean {
    return this.world.settle(maxMs);
  }
  node(name: string, action: NodeAction): void {
    this.calls.push({ method: 'node', args: [name, action] });
  }
  controlPlane(action: 'stop' | 'start', component?: ControlPlaneComponent): void {
    this.calls.push({ method: 'controlPlane', args: component ? [action, component] : [action] });
    if (!component || component === 'apiserver')
      this.world.fault({ type: action === 'stop' ? 'apiserver-down' : 'apiserver-up' });
    if (component === 'etcd') this.world.fault({ type: action === 'stop' ? 'etcd-down' : 'etcd-up' });
  }
  apiserverLatency(ms: number): void {
    this.calls.push({ method: 'apiserverLatency', args: [ms] });
    this.world.fault({ type: 'api-latency', ms });
  }
  etcd(state: 'full' | 'ok'): void {
    this.calls.push({ method: 'etcd', args: [state] });
    this.world.fault({ type: state === 'full' ? 'etcd-full' : 'etcd-space-freed' });
  }
  crash(namespace: string, pod: string, opts?: { oom?: boolean }): boolean {
    this.calls.push({ method: 'crash', args: opts ? [namespace, pod, opts] : [namespace, pod] });
    return pod !== 'missing';
  }
  image(image: string, state: 'missing' | 'available'): void {
    this.calls.push({ method: 'image', args: [image, state] });
  }
  app(namespace: string, pod: string, health: ContainerHealth): boolean {
    this.calls.push({ method: 'app', args: [namespace, pod, health] });
    return pod !== 'missing';
  }

  /** Create an object (throws on refusal: fixtures must be valid). */
  create(resource: string, body: object, namespace?: string): StoredObject {
    const r = this.world.kubectl({
      verb: 'create',
      resource,
      namespace:
        namespace ??
        (body as { metadata?: ObjectMeta }).metadata?.namespace ??
        (resource === 'nodes' || resource === 'namespaces' ? undefined : 'default'),
      body,
    });
    if (!r.ok) throw new Error(`fixture ${resource}: ${r.status.message}`);
    return r.object as StoredObject;
  }
  /** Write an object's status (as its controller or kubelet would). */
  status(resource: string, namespace: string | undefined, name: string, status: object): StoredObject {
    const cur = this.world.kubectl({ verb: 'get', resource, namespace, name });
    if (!cur.ok) throw new Error(`fixture status ${name}: ${cur.status.message}`);
    const r = this.world.kubectl({
      verb: 'update',
      resource,
      namespace,
      name,
      subresource: 'status',
      body: { ...(cur.object as StoredObject), status },
    });
    if (!r.ok) throw new Error(`fixture status ${name}: ${r.status.message}`);
    return r.object as StoredObject;
  }
}

/** A ready worker node as the kubelet registers it. */
export function readyNode(
  name: string,
  ip: string,
  now: string,
  extra: {
    labels?: Record<string, string>;
    unschedulable?: boolean;
    taints?: Taint[];
    ready?: 'True' | 'False' | 'Unknown';
  } = {},
): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        ...extra.labels,
      },
    },
    spec: {
      podCIDR: `10.244.${ip.split('.').pop()}.0/24`,
      ...(extra.unschedulable ? { unschedulable: true } : {}),
      ...(extra.taints ? { taints: extra.taints } : {}),
    },
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [
        {
          type: 'Ready',
          status: extra.ready ?? 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.37.2',
        containerRuntimeVersion: 'containerd://2.1.4',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        kernelVersion: '6.1.0-40-amd64',
        operatingSystem: 'linux',
        architecture: 'amd64',
        machineID: '',
        systemUUID: '',
        bootID: '',
        kubeProxyVersion: '',
      },
    },
  };
}
