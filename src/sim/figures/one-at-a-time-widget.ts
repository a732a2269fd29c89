// The `one-at-a-time` widget (the scheduler chapter): web's pods, each requesting the chapter's 1000m
// of CPU and 1Gi, reach kube-scheduler's queue within milliseconds of each other, and the scheduler
// takes them one at a time: one scheduling cycle (filter, score) against its cache, the pod assumed
// on the winner in that cache, one Binding POST. The next pod's cycle already counts the last one on
// its node, so its scores there drop and the pods spread. The reader scales web up and watches the
// new pods placed the same way. Everything the picture shows is the scheduler's own state: its queue,
// its cache of nodes (assumed pods included) and its record of each pod's last cycle.
import { REQUEST_CHECKS } from '../apiserver/request-checks.ts';
import type { Cluster } from '../cluster.ts';
import type { SchedulerState } from '../scheduler/scheduler.ts';
import type { Frame } from '../view/types.ts';
import { listOf } from '../view/words.ts';
import type { DemoBeat, DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { figureActions } from './figure-actions.ts';
import { WEB, WEB_IMAGE, webOf } from './widget-web.ts';

/** web's replicas as the widget opens, and how many each press of the button adds. */
const REPLICAS = 3;
const STEP = 3;
/** The most replicas the button scales to: three pods of 1000m on each 4-CPU node. */
const MOST = 9;
/** Each pod's requests: the chapter's worked example (its `api` pod). */
const CPU = '1000m';
const MEMORY = '1Gi';

/** One node's score in a cycle: the total, and the two plugins whose part falls most as pods land. */
type NodeScore = {
  node: string;
  total: number;
  fit: number;
  spread: number;
};
/** One scheduling cycle of a pod of web: when, each node's score, and the node it won. */
type Cycle = {
  pod: string;
  t: number;
  node: string | null;
  scores: NodeScore[];
};
/** One node in the scheduler's cache: its pods (assumed ones included) and their CPU and memory requests. */
type CachedNode = {
  node: string;
  pods: number;
  cpu: number;
  memory: number;
};
/** What the picture draws: the queue (pods waiting, in pop order), web's cycles in order, and the cache. */
export type OneAtATimeDetail = {
  queue: string[];
  cycles: Cycle[];
  nodes: CachedNode[];
};
/** The figure's detail (FigureDef.detail): OneAtATimeDetail under its key. */
type Detail = { placing: OneAtATimeDetail };

const weighted = (s: { plugin: string; weighted: number }[], plugin: string): number =>
  s.find((x) => x.plugin === plugin)?.weighted ?? 0;
const nameOf = (key: string): string => key.slice(key.indexOf('/') + 1);
const isWeb = (key: string): boolean => key.startsWith(`default/${WEB}-`);

/**
 * The scheduler's queue, cycles and cache, read from its state (SchedulerState; what
 * schedulingRecordOf reads): importing that reader into this chunk would split the worker's core chunk.
 */
function oneAtATimeOf(cluster: Cluster): OneAtATimeDetail {
  const s = cluster.world.state.components.scheduler?.state as SchedulerState | undefined;
  if (!s) return { queue: [], cycles: [], nodes: [] };
  // PrioritySort: every pod has priority 0, so the queue pops in the order the pods entered it.
  const queue = [...s.queue.activeQ, ...s.queue.backoffQ]
    .filter((i) => isWeb(i.key))
    .sort((a, b) => a.timestamp - b.timestamp || (a.key < b.key ? -1 : 1))
    .map((i) => nameOf(i.key));
  const cycles = s.records.order.filter(isWeb).map((k): Cycle => {
    const r = s.records.byKey[k];
    const scores = r.perNode
      .map((n): NodeScore => ({
        node: n.node,
        total: n.total,
        fit: weighted(n.scores, 'NodeResourcesFit'),
        spread: weighted(n.scores, 'PodTopologySpread'),
      }))
      .sort((a, b) => (a.node < b.node ? -1 : 1));
    return { pod: nameOf(k), t: r.t, node: r.node ?? null, scores };
  });
  const nodes = s.nodeOrder
    .map((name): CachedNode => {
      const n = s.nodeInfos[name];
      return {
        node: name,
        pods: n?.pods.length ?? 0,
        cpu: n?.requested.milliCPU ?? 0,
        memory: n?.requested.memory ?? 0,
      };
    })
    .sort((a, b) => (a.node < b.node ? -1 : 1));
  return { queue, cycles, nodes };
}

const detailOf = (d: Detail | null): OneAtATimeDetail | null => (d?.placing ? d.placing : null);
/** web's pods the frame shows bound to a node. */
const boundOf = (f: Frame): number =>
  f.pods.filter((p) => p.owner?.startsWith(`ReplicaSet/${WEB}-`) && !p.terminating).length;

/** The nodes with the best score in a cycle. */
function winners(c: Cycle): string[] {
  const best = Math.max(...c.scores.map((x) => x.total));
  return c.scores.filter((x) => x.total === best).map((x) => x.node);
}

/** One cycle, said: what the cache counted, each node's score, the winner (and a tie, if it was one), and who waits. */
export function cycleSentence(c: Cycle, prev: Cycle | undefined, waiting: string[]): string {
  const counted = prev?.node ? `, from a cache that already counts ${prev.pod} on ${prev.node}` : '';
  const scores = c.scores.map((x) => `${x.node} ${x.total}`).join(', ');
  const won = winners(c);
  // selectHost: among the nodes with the top score, one is taken at random (reservoir sampling).
  const pick =
    won.length > 1
      ? `${won.length === c.scores.length ? 'All tie' : `${listOf(won)} tie`}; picked at random: ${c.node}.`
      : `${c.node} wins.`;
  const wait = waiting.length
    ? `${listOf(waiting)} ${waiting.length > 1 ? 'wait' : 'waits'} in the queue.`
    : 'The queue is empty.';
  return `${c.pod}'s cycle${counted}: ${scores}. ${pick} One Binding POST. ${wait}`;
}

/** The opening's sentence: web's pods in the order they were bound, and how the last node's score fell for the next. */
function orderSentence(cycles: Cycle[]): string {
  const parts = cycles.map((c, i) => {
    const prev = cycles[i - 1];
    const fell = prev?.node ? c.scores.find((x) => x.node === prev.node) : undefined;
    const why = i === 0 ? ` (all ${c.scores[0]?.total}, a tie)` : fell ? ` (${prev.node} down to ${fell.total})` : '';
    return `${c.pod} to ${c.node}${why}`;
  });
  return `The scheduler took web's ${cycles.length} pods one at a time, each cycle counting the pods before it: ${listOf(parts)}.`;
}

/** Keeps a sentence for a beat's text (a text sees the frame and the memo only). Returns true. */
function said(m: DemoMemo, text: string): true {
  m.said = text;
  return true;
}

/** kubectl creates web with the chapter's requests; the widget opens once its 3 pods are bound. */
const setup: DemoDef<Detail> = {
  id: 'setup',
  label: () => `Create ${WEB}`,
  unavailable: (f) => (webOf(f) ? `The Deployment ${WEB} exists already.` : null),
  start: () => ({
    actions: [
      {
        type: 'create-deployment',
        name: WEB,
        image: WEB_IMAGE,
        replicas: REPLICAS,
        file: {
          container: { resources: { requests: { cpu: CPU, memory: MEMORY } } },
          note: `requests cpu ${CPU}, memory ${MEMORY}`,
        },
      },
    ],
    memo: {},
    intro: `kubectl creates the Deployment ${WEB}: ${REPLICAS} replicas of ${WEB_IMAGE}, each pod requesting ${CPU} of CPU and ${MEMORY} of memory, on three empty nodes of 4 CPUs.`,
    beats: [
      {
        when: (f, m, detail) => {
          const d = detailOf(detail());
          return boundOf(f) === REPLICAS && d?.cycles.length === REPLICAS && said(m, orderSentence(d.cycles));
        },
        text: (_f, m) => String(m.said),
      },
    ],
  }),
};

/** The beat of the k-th new cycle since the press: said from the scheduler's record and queue at that moment. */
function cycleBeat(k: number): DemoBeat<Detail> {
  return {
    when: (_g, m, detail) => {
      const d = detailOf(detail());
      const i = Number(m.before) + k - 1;
      return (
        !!d &&
        d.cycles.length > i &&
        !!d.cycles[i].node &&
        said(m, cycleSentence(d.cycles[i], d.cycles[i - 1], d.queue))
      );
    },
    text: (_g, m) => String(m.said),
  };
}

/** kubectl scale web up by 3: three new pods reach the queue, and the scheduler places them one at a time again. */
const scaleUp: DemoDef<Detail> = {
  id: 'scale',
  label: (f) => `Scale ${WEB} to ${Math.min((webOf(f)?.replicas ?? REPLICAS) + STEP, MOST)}`,
  unavailable: (f) => {
    const d = webOf(f);
    if (!d) return `Create ${WEB} first.`;
    if (d.replicas >= MOST) return `${WEB} has ${MOST} replicas, three on each node; Reset returns to ${REPLICAS}.`;
    return f.controlPlane.apiserver ? null : 'The API server is stopped.';
  },
  start: (f): DemoStart<Detail> => {
    const from = webOf(f)!.replicas;
    const to = Math.min(from + STEP, MOST);
    return {
      actions: [{ type: 'scale', name: WEB, replicas: to }],
      memo: { before: boundOf(f), said: '' },
      intro: `kubectl scale deployment ${WEB} --replicas=${to}: the ReplicaSet controller creates ${to - from} pods, and each one's arrival puts it in the scheduler's queue.`,
      beats: Array.from({ length: to - from }, (_, i) => cycleBeat(i + 1)),
    };
  },
};

/** The `one-at-a-time` widget: the scheduler's queue, one cycle and one Binding per pod, and the cache each cycle reads. */
export const oneAtATimeWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'one-at-a-time',
  title: 'One pod at a time',
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
  demos: [setup, scaleUp],
  story: ['setup', 'scale'],
  opening: 1,
  leavesOut: [
    `The widget opens with ${WEB}'s first ${REPLICAS} pods placed; its story scales ${WEB} to ${REPLICAS + STEP}.`,
    "A scheduling cycle takes 1 ms of simulated time here, and each Binding is sent as soon as its cycle ends: the client's 50 requests a second never run out with so few pods.",
    'The score is the sum over all score plugins: NodeResourcesFit and PodTopologySpread fall on a node as pods land there, NodeResourcesBalancedAllocation moves by a point, and the others score every node alike.',
  ],
  detail: (cluster) => ({ placing: oneAtATimeOf(cluster) }),
};
