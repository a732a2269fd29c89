// The `pending-pod` widget (the scheduler chapter): a pod that fits nowhere. The worked example's
// nodes, each with its pod of the chapter's requests and api's pod on node-3, leave 1600m, 3200m and
// 1800m of CPU free; the Deployment report's pod requests 3400m, so every node fails NodeResourcesFit
// and the pod stays Pending with the scheduler's FailedScheduling message. The reader deletes load-2:
// the pod's deletion is a cluster event NodeResourcesFit's queueing hint answers, the scheduler tries
// the parked pod again, and node-2, now with 4000m free, takes it. Every number the picture shows is
// read from the store: each node's allocatable, the requests of the pods bound to it, the pod's
// PodScheduled condition.
import { REQUEST_CHECKS } from '../apiserver/request-checks.ts';
import { storeList } from '../view/stored.ts';
import type { Cluster } from '../cluster.ts';
import { quantityMilliValue } from '../api/quantity.ts';
import type { Frame, PodView } from '../view/types.ts';
import type { DemoDef, DemoMemo, FigureDef } from './demo.ts';
import { API, API_CPU, API_MEMORY, LOAD } from './filter-score-widget.ts';
import { figureActions } from './figure-actions.ts';

/** The Deployment whose pod fits nowhere (the chapter's `report`), and its requests. */
const REPORT = 'report';
const REPORT_CPU = '3400m';
const REPORT_MEMORY = '1Gi';
/** The pod the reader deletes to make room: node-2's, whose 800m leaves 3200m free, 200m short. */
const FREED = 'load-2';

/** One node as the picture shows it: CPU allocatable, requested by the pods bound to it, free. */
type NodeCpu = {
  node: string;
  allocatable: number;
  requested: number;
  free: number;
};

/** What the picture draws: report's pod, its node (null while Pending), its PodScheduled message, and each node's CPU. */
export type PendingDetail = {
  pod: string | null;
  node: string | null;
  cpu: number;
  message: string | null;
  nodes: NodeCpu[];
};
/** The figure's detail (FigureDef.detail): PendingDetail under its key. */
type Detail = { pending: PendingDetail };

// A stored pod and node as this figure reads them: the API server gives every stored object a name, and a pod its spec.
interface PodObj {
  metadata: { name: string; ownerReferences?: { name: string }[] };
  spec: { nodeName?: string; containers: { resources?: { requests?: { cpu?: string } } }[] };
  status?: { phase?: string; conditions?: { type: string; status: string; message?: string }[] };
}
interface NodeObj {
  metadata: { name: string };
  status?: { allocatable?: { cpu?: string } };
}

const isReport = (p: { owner: string | null }): boolean => !!p.owner?.startsWith(`ReplicaSet/${REPORT}-`);
const reportOf = (f: Frame): PodView | undefined =>
  [...f.pending, ...f.pods].find((p) => isReport(p) && !p.terminating);
const detailOf = (d: Detail | null): PendingDetail | null => (d?.pending ? d.pending : null);

/** report's pod and each node's CPU, read from the store as the scheduler's cache counts it (a pod counts until it is gone). */
function pendingOf(cluster: Cluster): PendingDetail {
  const store = cluster.world.state.store;
  const pods = storeList(store, 'pods', 'default') as PodObj[];
  const cpuOf = (p: PodObj): number =>
    p.spec.containers.reduce((s, c) => s + quantityMilliValue(c.resources?.requests?.cpu ?? '0'), 0);
  const nodes = (storeList(store, 'nodes') as NodeObj[])
    .map((n): NodeCpu => {
      const allocatable = quantityMilliValue(n.status?.allocatable?.cpu ?? '0');
      const requested = pods
        .filter(
          (p) => p.spec.nodeName === n.metadata.name && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
        )
        .reduce((s, p) => s + cpuOf(p), 0);
      return { node: n.metadata.name, allocatable, requested, free: allocatable - requested };
    })
    .sort((a, b) => (a.node < b.node ? -1 : 1));
  const pod = pods.find((p) => p.metadata.ownerReferences?.some((r) => r.name.startsWith(`${REPORT}-`)));
  const cond = pod?.status?.conditions?.find((c) => c.type === 'PodScheduled');
  return {
    pod: pod?.metadata.name ?? null,
    node: pod?.spec.nodeName ?? null,
    cpu: quantityMilliValue(REPORT_CPU),
    message: cond?.status === 'False' ? (cond.message ?? null) : null,
    nodes,
  };
}

/** Keeps what a beat's text quotes (a text sees the frame and the memo only). Returns true. */
function noted(m: DemoMemo, d: PendingDetail): true {
  m.pod = d.pod ?? '';
  m.free = d.nodes.map((n) => `${n.free}m`).join(', ');
  return true;
}

/** The worked example's scene, then report: its pod fits on no node and stays Pending. */
const setup: DemoDef<Detail> = {
  id: 'setup',
  label: () => `Create ${REPORT}`,
  unavailable: (f) =>
    f.deployments.some((d) => d.name === REPORT) ? `The Deployment ${REPORT} exists already.` : null,
  start: () => ({
    actions: [
      ...LOAD.map((pod) => ({ type: 'run-pod' as const, pod })),
      {
        type: 'create-deployment',
        name: API,
        image: 'nginx:1.27',
        replicas: 1,
        file: {
          container: { resources: { requests: { cpu: API_CPU, memory: API_MEMORY } } },
          note: `requests cpu ${API_CPU}, memory ${API_MEMORY}`,
        },
      },
      {
        type: 'create-deployment',
        name: REPORT,
        image: 'nginx:1.27',
        replicas: 1,
        file: {
          container: { resources: { requests: { cpu: REPORT_CPU, memory: REPORT_MEMORY } } },
          note: `requests cpu ${REPORT_CPU}, memory ${REPORT_MEMORY}`,
        },
      },
    ],
    memo: {},
    intro: `The worked example's pods and api, then the Deployment ${REPORT}, whose pod requests ${REPORT_CPU} of CPU and ${REPORT_MEMORY} of memory.`,
    beats: [
      {
        when: (f, m, detail) => {
          const d = detailOf(detail());
          return (
            [...f.pods].some((p) => p.owner?.startsWith(`ReplicaSet/${API}-`) && p.node) && !!d?.message && noted(m, d)
          );
        },
        text: (_f, m) =>
          `${m.pod} is Pending: it asks for ${REPORT_CPU} of CPU and no node has that much free (${m.free}), so NodeResourcesFit filters out all three. Preemption finds no pod of lower priority to evict.`,
      },
    ],
  }),
};

/** kubectl delete pod load-2: node-2's requests go, and the scheduler tries the parked pod again. */
const makeRoom: DemoDef<Detail> = {
  id: 'make-room',
  label: () => `Delete ${FREED}`,
  unavailable: (f) =>
    ![...f.pods, ...f.pending].some((p) => p.name === FREED && !p.terminating)
      ? `${FREED} is deleted; Reset brings it back.`
      : reportOf(f)
        ? null
        : `${REPORT} has no pod yet.`,
  start: (f) => ({
    actions: [{ type: 'delete-pod', pod: FREED }],
    memo: { pod: reportOf(f)!.name },
    intro: `kubectl delete pod ${FREED}: once it is gone, node-2's 800m of requests no longer count.`,
    beats: [
      {
        when: (g, m) => !!reportOf(g)?.node && reportOf(g)!.name === m.pod,
        text: (g, m) =>
          `${FREED} is gone, and a pod going away is an event NodeResourcesFit's queueing hint answers: the scheduler tries ${m.pod} again, and ${reportOf(g)!.node}, with 4000m free, takes it.`,
      },
      {
        when: (g, m) => !!reportOf(g)?.ready && reportOf(g)!.name === m.pod,
        text: (g, m) =>
          `${m.pod} runs on ${reportOf(g)!.node}: a Scheduled event follows its FailedScheduling one, and nobody asked the scheduler to retry.`,
      },
    ],
  }),
};

/** The `pending-pod` widget: a pod that fits nowhere, its FailedScheduling message, and the retry once room is made. */
export const pendingPodWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'pending-pod',
  title: 'A pod that fits nowhere',
  // The API server's request checks: its manifests' quantities (1000m, 2048Mi) are stored as the API
  // server writes them (1, 2Gi), and the pod-template hash is taken over what is stored.
  checks: REQUEST_CHECKS,
  options: {
    seed: 1,
    nodes: 3,
    nodeCapacity: [
      { cpu: '4', memory: '8Gi' },
      { cpu: '4', memory: '8Gi' },
      { cpu: '4', memory: '8Gi' },
    ],
  },
  demos: [setup, makeRoom],
  story: ['setup', 'make-room'],
  opening: 1,
  leavesOut: [
    "The widget opens with the worked example's scene in place and report's pod already refused.",
    'Every pod has the default priority 0, so preemption finds no victim; with a PriorityClass above the others the scheduler would evict a pod instead.',
    'The load pods are pinned to their nodes by a nodeSelector, as in the filter-score widget.',
  ],
  detail: (cluster) => ({ pending: pendingOf(cluster) }),
};
