// A hand-written moment for the kit's tests and previews: three nodes (node-3 gone quiet: Unknown,
// tainted, lease 48 s old), three running pods, one pending, and a step's records between them.
import type { Frame, PodView, StepRecord } from '../../sim/view/types.ts';

const pod = (name: string, node: string | null, over: Partial<PodView> = {}): PodView => ({
  name,
  namespace: 'default',
  node,
  phase: 'Running',
  ready: true,
  ip: null,
  terminating: false,
  status: 'Running',
  readyText: '1/1',
  restarts: 0,
  owner: 'ReplicaSet/web-c68c68797',
  image: 'nginx:1.27',
  ...over,
});

/** A frame of a three-node cluster whose node-3 stopped reporting. */
export const FRAME: Frame = {
  t: 72_400,
  revision: 48,
  controlPlane: { apiserver: true, etcd: true, scheduler: true, controllerManager: true, latencyMs: 0, etcdFull: false },
  nodes: [
    { name: 'node-1', powered: true, partitioned: false, ready: 'True', leaseAgeMs: 3_200, taints: [], cordoned: false, cpuMilli: 2000, memoryBytes: 4 * 2 ** 30, podCIDR: '10.244.1.0/24' },
    { name: 'node-2', powered: true, partitioned: false, ready: 'True', leaseAgeMs: 7_900, taints: [], cordoned: true, cpuMilli: 2000, memoryBytes: 4 * 2 ** 30, podCIDR: '10.244.2.0/24' },
    {
      name: 'node-3', powered: false, partitioned: false, ready: 'Unknown', leaseAgeMs: 48_000, cordoned: false, cpuMilli: 2000, memoryBytes: 4 * 2 ** 30, podCIDR: '10.244.3.0/24',
      taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
    },
  ],
  pods: [
    pod('web-c68c68797-4mxbq', 'node-1', { ip: '10.244.1.7' }),
    pod('web-c68c68797-x2k9p', 'node-2', { ip: '10.244.2.4' }),
    pod('web-c68c68797-q8z7d', 'node-3', { ip: '10.244.3.2', ready: false, readyText: '0/1' }),
  ],
  pending: [pod('web-c68c68797-7rnvw', null, { phase: 'Pending', ready: false, status: 'Pending', readyText: '0/1' })],
  deployments: [],
};

const rec = (seq: number, over: Partial<StepRecord> & Pick<StepRecord, 'kind' | 'from' | 'to' | 'label'>): StepRecord => ({
  seq,
  t: 72_000 + seq,
  component: over.from,
  verb: 'GET',
  path: '/api/v1/pods',
  object: null,
  revision: null,
  code: 200,
  heartbeat: false,
  sentence: `record ${seq}`,
  cause: null,
  ...over,
});

/** One step's records: the scheduler binds the pending pod; the API server tells node-2's kubelet, which starts it. */
export const RECORDS: StepRecord[] = [
  rec(101, { kind: 'write', component: 'scheduler', from: 'scheduler', to: 'kube-apiserver', label: 'POST pods/binding', verb: 'POST', path: '/api/v1/namespaces/default/pods/web-c68c68797-7rnvw/binding', object: 'pods/default/web-c68c68797-7rnvw', revision: 49, code: 201, sentence: 'The scheduler binds web-c68c68797-7rnvw to node-2.' }),
  rec(102, { kind: 'write', component: 'kube-apiserver', from: 'kube-apiserver', to: 'etcd', label: 'PUT pods/web-c68c68797-7rnvw', verb: 'PUT', revision: 49, code: 200 }),
  rec(103, { kind: 'watch', component: 'kubelet/node-2', from: 'kube-apiserver', to: 'kubelet/node-2', label: 'MODIFIED pods/web-c68c68797-7rnvw', verb: 'WATCH', revision: 49 }),
  rec(104, { kind: 'watch', component: 'kube-controller-manager', from: 'kube-apiserver', to: 'kube-controller-manager', label: 'MODIFIED pods/web-c68c68797-7rnvw', verb: 'WATCH', revision: 49 }),
  // The kubelet's sandbox, woken by the notification two records before.
  rec(105, { kind: 'cri', component: 'containerd/node-2', from: 'kubelet/node-2', to: 'containerd/node-2', label: 'RunPodSandbox', verb: 'RunPodSandbox', code: 0, cause: { seq: 103, label: 'MODIFIED pods', object: 'pods/default/web-c68c68797-7rnvw' } }),
  rec(106, { kind: 'read', component: 'kubectl', from: 'kubectl', to: 'kube-apiserver', label: 'GET pods', code: 200 }),
  rec(107, { kind: 'write', component: 'kubelet/node-1', from: 'kubelet/node-1', to: 'kube-apiserver', label: 'PUT leases/node-1', verb: 'PUT', revision: 50, heartbeat: true }),
  rec(108, { kind: 'write', component: 'kubectl', from: 'kubectl', to: 'kube-apiserver', label: 'DELETE pods/web-x', verb: 'DELETE', code: 503 }),
];
