// The `filter-score` widget (the scheduler chapter): the chapter's worked example run by the real
// scheduler. Three nodes of 4 CPUs and 8 GiB, each already running one pod with the chapter's
// requests; the Deployment api's pod asks for 1000m CPU and 1Gi, and the scheduler filters and
// scores the three nodes. The reader cordons node-3 (or uncordons it) and deletes the pod: the
// ReplicaSet's replacement is scheduled again, and the verdicts and scores change. Every number
// the picture shows is the scheduler's own record of its last attempt for the pod.
import { REQUEST_CHECKS } from '../apiserver/request-checks.ts';
import type { Cluster } from '../cluster.ts';
import type { SchedulerState } from '../scheduler/scheduler.ts';
import type { Frame, PodView } from '../view/types.ts';
import { listOf } from '../view/words.ts';
import type { PodSpecOfFigure } from './actions.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { figureActions } from './figure-actions.ts';

/** The Deployment whose pod is scheduled (the chapter's `api`). */
export const API = 'api';
const API_IMAGE = 'nginx:1.27';
/** The pod's requests, as the chapter gives them. */
export const API_CPU = '1000m';
export const API_MEMORY = '1Gi';
/** The node the reader cordons: the one that wins the chapter's example. */
const CORDONED = 'node-3';
/** The pods already on the nodes, one each, with the chapter's requests (pinned by a nodeSelector). */
export const LOAD: PodSpecOfFigure[] = [
  { name: 'load-1', image: 'busybox:1.37', cpu: '2400m', memory: '2048Mi', onNode: 'node-1' },
  { name: 'load-2', image: 'busybox:1.37', cpu: '800m', memory: '5120Mi', onNode: 'node-2' },
  { name: 'load-3', image: 'busybox:1.37', cpu: '1200m', memory: '2048Mi', onNode: 'node-3' },
];
/** The taint that follows spec.unschedulable (TaintNodesByCondition). */
const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';
/** The score plugins the chapter's arithmetic is about; the others score every node alike here. */
const RESOURCE_PLUGINS = ['NodeResourcesFit', 'NodeResourcesBalancedAllocation'];

/** One node in the scheduler's last attempt for api's pod: its filter verdict, its scores, its total. */
type NodeArithmetic = {
  node: string;
  passed: boolean;
  /** The filter that rejected it, and why (null when it passed). */
  filter: string | null;
  reason: string | null;
  /** The two resource plugins' scores (0–100) and weights, and what the other plugins add together. */
  scores: { plugin: string; score: number; weight: number; weighted: number }[];
  others: number;
  total: number;
};

/** What the picture draws: api's pod, its requests, and the scheduler's last attempt for it. */
export type FilterScoreDetail = {
  pod: string | null;
  cpu: string;
  memory: string;
  /** The node it was bound to by that attempt, or null while none fits. */
  chosen: string | null;
  nodes: NodeArithmetic[];
};
/** The figure's detail (FigureDef.detail): FilterScoreDetail under its key. */
type Detail = { arithmetic: FilterScoreDetail };

const apiPodsOf = (f: Frame): PodView[] =>
  [...f.pending, ...f.pods].filter((p) => p.owner?.startsWith(`ReplicaSet/${API}-`) && !p.terminating);
const terminatingApi = (f: Frame): boolean =>
  f.pods.some((p) => p.owner?.startsWith(`ReplicaSet/${API}-`) && p.terminating);
const node3 = (f: Frame) => f.nodes.find((n) => n.name === CORDONED);
const detailOf = (d: Detail | null): FilterScoreDetail | null => (d?.arithmetic ? d.arithmetic : null);

/**
 * The scheduler's last attempt for api's live pod, as the picture shows it. Read from the
 * scheduler's records (SchedulerState.records, what schedulingRecordOf reads); importing that reader
 * into this chunk would make the build split the worker's core chunk, as for the node-lease widget.
 */
function filterScoreOf(cluster: Cluster, frame: Frame): FilterScoreDetail {
  const pod = apiPodsOf(frame)[0];
  const s = cluster.world.state.components.scheduler?.state as SchedulerState | undefined;
  const rec = pod && s ? s.records.byKey[`default/${pod.name}`] : undefined;
  const nodes = (rec?.perNode ?? [])
    .map((n): NodeArithmetic => {
      const failed = n.filter.find((x) => x.code !== 'Success');
      const scores = n.scores
        .filter((x) => RESOURCE_PLUGINS.includes(x.plugin))
        .map((x) => ({
          plugin: x.plugin,
          score: x.normalized,
          weight: x.normalized ? x.weighted / x.normalized : 1,
          weighted: x.weighted,
        }));
      const others = n.scores
        .filter((x) => !RESOURCE_PLUGINS.includes(x.plugin))
        .reduce((sum, x) => sum + x.weighted, 0);
      return {
        node: n.node,
        passed: !failed,
        filter: failed?.plugin ?? null,
        reason: failed?.reasons[0] ?? null,
        scores,
        others,
        total: n.total,
      };
    })
    .sort((a, b) => (a.node < b.node ? -1 : 1));
  return { pod: pod?.name ?? null, cpu: API_CPU, memory: API_MEMORY, chosen: rec?.node ?? null, nodes };
}

/** The sentence of an attempt: which nodes passed, each one's resource scores and total, and the winner. */
function attemptSentence(f: Frame, d: FilterScoreDetail | null): string {
  const pod = apiPodsOf(f)[0];
  if (!d || !pod?.node) return `${pod?.name ?? 'The pod'} waits for the scheduler.`;
  const out = d.nodes.filter((n) => !n.passed).map((n) => `${n.node} is filtered out by ${n.filter}`);
  const ranked = d.nodes
    .filter((n) => n.passed)
    .map(
      (n) =>
        `${n.node} ${n.scores.map((x) => x.weighted).join(' + ')} = ${n.scores.reduce((s, x) => s + x.weighted, 0)}`,
    );
  return `${pod.name} is bound to ${pod.node}. ${out.length ? `${listOf(out)}; ` : 'Every node passes the filters; '}LeastAllocated + BalancedAllocation give ${listOf(ranked)}, the other plugins scoring all alike.`;
}

/** Keeps the attempt's sentence in the memo for the beat's text (a text sees the frame and the memo only). Returns true. */
function said(m: DemoMemo, f: Frame, d: FilterScoreDetail | null): true {
  m.said = attemptSentence(f, d);
  return true;
}

/** The scene: the load pods, then api with one replica; the widget opens once api's pod is bound. */
const setup: DemoDef<Detail> = {
  id: 'setup',
  label: () => `Create ${API}`,
  unavailable: (f) => (apiPodsOf(f).length ? `The Deployment ${API} exists already.` : null),
  start: () => ({
    actions: [
      ...LOAD.map((pod) => ({ type: 'run-pod' as const, pod })),
      {
        type: 'create-deployment',
        name: API,
        image: API_IMAGE,
        replicas: 1,
        file: {
          container: { resources: { requests: { cpu: API_CPU, memory: API_MEMORY } } },
          note: `requests cpu ${API_CPU}, memory ${API_MEMORY}`,
        },
      },
    ],
    memo: {},
    intro: `Each node runs one pod with the chapter's requests; kubectl creates the Deployment ${API}, whose pod requests ${API_CPU} of CPU and ${API_MEMORY} of memory.`,
    beats: [
      {
        when: (f, m, detail) =>
          !!apiPodsOf(f)[0]?.node && (detailOf(detail())?.nodes.length ?? 0) > 0 && said(m, f, detailOf(detail())),
        text: (_f, m) => String(m.said),
      },
    ],
  }),
};

/** Cordon node-3 (or uncordon it) and delete api's pod: its replacement is scheduled under the new rules. */
const cordon: DemoDef<Detail> = {
  id: 'cordon',
  label: (f) => (node3(f)?.cordoned ? `Uncordon ${CORDONED}, reschedule` : `Cordon ${CORDONED}, reschedule`),
  unavailable: (f) => (apiPodsOf(f)[0]?.node ? null : `${API}'s pod is not bound yet.`),
  start: (f): DemoStart<Detail> => {
    const on = !node3(f)?.cordoned;
    const old = apiPodsOf(f)[0].name;
    return {
      actions: [{ type: 'cordon', node: CORDONED, on }],
      memo: { old },
      intro: `kubectl ${on ? 'cordon' : 'uncordon'} ${CORDONED} sets its spec.unschedulable to ${on}; the node-lifecycle controller ${on ? 'adds' : 'removes'} the matching node.kubernetes.io/unschedulable taint.`,
      beats: [
        {
          // Wait for the taint to follow spec.unschedulable, so the replacement meets one rule, not a mix,
          // and for an earlier pod of api to be gone: a Terminating pod's requests still count on its node.
          when: (g) =>
            !!node3(g) &&
            node3(g)!.cordoned === on &&
            node3(g)!.taints.some((t) => t.key === UNSCHEDULABLE_TAINT) === on &&
            !terminatingApi(g),
          text: () =>
            `kubectl delete pod ${old}: the ReplicaSet controller creates a replacement, and the scheduler places it with ${CORDONED} ${on ? 'unschedulable' : 'schedulable again'}.`,
          then: () => [{ type: 'delete-pod', pod: old }],
        },
        {
          when: (g, m, detail) => {
            const p = apiPodsOf(g)[0];
            const d = detailOf(detail());
            return !!p?.node && p.name !== m.old && d?.pod === p.name && d.nodes.length > 0 && said(m, g, d);
          },
          text: (_g, m) => String(m.said),
        },
      ],
    };
  },
};

/** The `filter-score` widget: one pod filtered and scored on three nodes, with the arithmetic. */
export const filterScoreWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'filter-score',
  title: 'One pod, filtered and scored',
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
  demos: [setup, cordon],
  story: ['setup', 'cordon', 'cordon'],
  opening: 1,
  leavesOut: [
    "The widget opens with the chapter's scene in place: one pod on each node with the chapter's requests (pinned there by a nodeSelector), and api's pod scheduled.",
    'The other score plugins (TaintToleration, NodeAffinity, PodTopologySpread) score every node alike here; the picture adds them up in one column. InterPodAffinity and ImageLocality are not in the model.',
    "A deleted pod's requests count on its node until it is gone, as in the scheduler's cache; so the widget deletes api's pod only once an earlier one has gone.",
  ],
  detail: (cluster, frame) => ({ arithmetic: filterScoreOf(cluster, frame) }),
};
