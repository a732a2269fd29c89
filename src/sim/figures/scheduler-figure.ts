// The `scheduler` figure: five workers of different sizes, one cordoned, one tainted, one full, and
// pods with requests. For each pod the figure shows the scheduler's own last attempt (every node's
// filter verdict, every score plugin's score and weight, the FailedScheduling message), read from
// the scheduler's state through schedulingRecordOf: nothing here recomputes what the scheduler did.
import { REQUEST_CHECKS } from '../apiserver/request-checks.ts';
import type { Cluster } from '../cluster.ts';
import { storeList } from '../view/stored.ts';
import { DEFAULT_SCORE_PLUGINS } from '../scheduler/profile.ts';
import { schedulingRecordOf, type SchedulerState } from '../scheduler/scheduler.ts';
import { podStatechartOf } from '../view/pod-statechart.ts';
import { podMachine } from '../kubelet/pod-machine.ts';
import { statechartOf, type Statechart } from '../view/statechart.ts';
import type { Frame, PodView } from '../view/types.ts';
import type { PodSpecOfFigure, TolerationSpec } from './actions.ts';
import type { DemoDef, FigureDef } from './demo.ts';
import type { FigureView } from './protocol.ts';
import { figureActions } from './figure-actions.ts';

/** The node the story cordons. */
const CORDONED = 'node-1';
/** The node the story taints, and its taint. */
const TAINTED = 'node-2';
/** The taint on node-2: only pods that tolerate it go there. */
const GPU_TAINT: TolerationSpec = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
/** The node the story fills. */
const FULL = 'node-3';
const IMAGE = 'nginx:1.27';

/** The pods of the story, by role. */
const BATCH: PodSpecOfFigure = { name: 'batch', image: 'busybox:1.37', cpu: '1800m', memory: '3Gi', onNode: FULL };
/** A pod that fits on two nodes, so the scores decide. */
const WEB: PodSpecOfFigure = { name: 'web', image: IMAGE, cpu: '500m', memory: '1Gi' };
/** A pod too big for every node it may use. */
const BIG: PodSpecOfFigure = { name: 'big', image: IMAGE, cpu: '6', memory: '4Gi' };

const all = (f: Frame): PodView[] => [...f.pending, ...f.pods];
const pod = (f: Frame, name: string): PodView | undefined =>
  all(f).find((p) => p.name === name && p.namespace === 'default' && !p.terminating);
const node = (f: Frame, name: string) => f.nodes.find((n) => n.name === name);
const hasTaint = (f: Frame): boolean =>
  !!node(f, TAINTED)?.taints.some((t) => t.key === GPU_TAINT.key && t.effect === GPU_TAINT.effect);

/** The scheduler's state (undefined while it is stopped). */
function schedulerOf(c: Cluster): SchedulerState | undefined {
  return c.world.state.components.scheduler?.state as SchedulerState | undefined;
}

const setup: DemoDef<SchedulerDetail> = {
  id: 'setup',
  label: () => 'Set the scene',
  unavailable: (f) =>
    pod(f, BATCH.name)
      ? 'The scene is set already.'
      : f.nodes.every((n) => n.ready === 'True')
        ? null
        : 'The nodes are still registering.',
  start: () => ({
    actions: [
      { type: 'cordon', node: CORDONED, on: true },
      { type: 'taint', node: TAINTED, taint: GPU_TAINT, on: true },
      { type: 'run-pod', pod: BATCH },
    ],
    memo: {},
    intro: `Three changes, each a request to the API server: ${CORDONED} is cordoned (spec.unschedulable), ${TAINTED} gets the taint ${GPU_TAINT.key}=${GPU_TAINT.value}:${GPU_TAINT.effect}, and a pod named ${BATCH.name} asks for ${BATCH.cpu} of CPU and ${BATCH.memory} of memory on ${FULL}.`,
    beats: [
      {
        when: (f) => pod(f, BATCH.name)?.node === FULL,
        text: (f) => {
          const n = node(f, FULL)!;
          return `The scheduler binds ${BATCH.name} to ${FULL}, whose allocatable is ${n.cpuMilli}m of CPU: ${FULL} now has little room left for anyone else.`;
        },
      },
      {
        when: (f) => !!pod(f, BATCH.name)?.ready,
        text: () =>
          `The kubelet on ${FULL} starts ${BATCH.name}. The scene: one node cordoned, one tainted, one full, two with room.`,
      },
    ],
  }),
};

/** A demo that creates one pod and says where the scheduler put it, or why it could not. */
function runDemo(spec: PodSpecOfFigure, id: string, label: string, intro: string): DemoDef<SchedulerDetail> {
  return {
    id,
    label: () => label,
    unavailable: (f) => (pod(f, spec.name) ? `A pod named ${spec.name} exists already.` : null),
    start: () => ({
      actions: [{ type: 'run-pod', pod: spec }],
      memo: {},
      intro,
      beats: [
        {
          when: (f) => !!pod(f, spec.name)?.node,
          text: (f) => {
            const p = pod(f, spec.name)!;
            const left = f.nodes
              .filter((n) => !n.cordoned && !n.taints.some((t) => t.effect === 'NoSchedule'))
              .map((n) => n.name);
            return `Filter, then score: of ${left.join(', ')} (the nodes neither cordoned nor tainted), those with room for ${spec.name} are scored by each plugin, and ${p.node} has the highest weighted total. The scheduler binds ${spec.name} to it.`;
          },
        },
        {
          when: (f) => !!pod(f, spec.name)?.ready,
          text: (f) => `The kubelet on ${pod(f, spec.name)!.node} has started ${spec.name}: Running and Ready.`,
        },
      ],
    }),
  };
}

const web = runDemo(
  WEB,
  'web',
  'Create web',
  `A pod named ${WEB.name} asks for ${WEB.cpu} of CPU and ${WEB.memory} of memory. Requests are what the scheduler counts, not what the container will use.`,
);

const big: DemoDef<SchedulerDetail> = {
  id: 'big',
  label: () => 'Create big',
  unavailable: (f) => (pod(f, BIG.name) ? `A pod named ${BIG.name} exists already.` : null),
  start: () => ({
    actions: [{ type: 'run-pod', pod: BIG }],
    memo: {},
    intro: `A pod named ${BIG.name} asks for ${BIG.cpu} CPUs and ${BIG.memory} of memory.`,
    beats: [
      {
        // The frame shows no PodScheduled condition: the scheduler's own record of the attempt says it failed.
        when: (f, _m, detail) => pendingFor(f, BIG.name) && attemptFailed(detail(), BIG.name),
        text: (f) =>
          `No node passes every filter, so ${BIG.name} stays Pending and the scheduler records a FailedScheduling event. ${reasonsSaid(f)}`,
      },
    ],
  }),
};

/** True once the pod has had its PodScheduled=False condition written (the frame sees it as Pending, unbound). */
function pendingFor(f: Frame, name: string): boolean {
  return f.pending.some((p) => p.name === name);
}

/** The scheduler's last attempt for the pod failed (the figure's detail carries its record). */
function attemptFailed(d: SchedulerDetail | null, name: string): boolean {
  const p = d?.pods.find((x) => x.name === name);
  return !!p?.attempt?.message;
}

/** Says, from the frame, what keeps each node out (the table gives the scheduler's exact words). */
function reasonsSaid(f: Frame): string {
  const parts = f.nodes.map((n) => {
    if (n.cordoned) return `${n.name} is cordoned`;
    if (n.taints.some((t) => t.effect === 'NoSchedule')) return `${n.name} has a taint ${BIG.name} does not tolerate`;
    return `${n.name} has ${n.cpuMilli}m of CPU in all`;
  });
  return `${parts.join('; ')}.`;
}

const tolerate: DemoDef<SchedulerDetail> = {
  id: 'tolerate',
  label: () => `Let big tolerate ${GPU_TAINT.key}=${GPU_TAINT.value}`,
  unavailable: (f) => (pod(f, BIG.name)?.node === null ? null : `Only a Pending ${BIG.name} needs a toleration here.`),
  start: () => ({
    actions: [{ type: 'tolerate', pod: BIG.name, toleration: GPU_TAINT }],
    memo: {},
    intro: `kubectl patch adds a toleration for ${GPU_TAINT.key}=${GPU_TAINT.value}:${GPU_TAINT.effect} to ${BIG.name} (a pod's tolerations may grow, never shrink). TaintToleration, which rejected ${BIG.name} on ${TAINTED}, says a new toleration may help, so the update takes ${BIG.name} out of the unschedulable pods and back into the queue.`,
    beats: [
      {
        when: (f) => !!pod(f, BIG.name)?.node,
        text: (f) =>
          `This time ${TAINTED} passes TaintToleration, and with ${node(f, TAINTED)!.cpuMilli}m of CPU it passes NodeResourcesFit too: ${BIG.name} is bound to ${pod(f, BIG.name)!.node}.`,
      },
      {
        when: (f) => !!pod(f, BIG.name)?.ready,
        text: (f) =>
          `The kubelet on ${pod(f, BIG.name)!.node} pulls the image and starts the container: ${BIG.name} is Running.`,
      },
    ],
  }),
};

const cordon: DemoDef<SchedulerDetail> = {
  id: 'cordon',
  label: (f) => (node(f, CORDONED)?.cordoned ? `Uncordon ${CORDONED}` : `Cordon ${CORDONED}`),
  unavailable: () => null,
  start: (f) => {
    const on = !node(f, CORDONED)?.cordoned;
    return {
      actions: [{ type: 'cordon', node: CORDONED, on }],
      memo: {},
      intro: on
        ? `kubectl cordon sets spec.unschedulable on ${CORDONED}. Pods already there stay; new ones are kept away by NodeUnschedulable.`
        : `kubectl uncordon clears spec.unschedulable on ${CORDONED}. NodeUnschedulable's queueing hint sees a node turn schedulable, so the pods it had rejected leave the unschedulable pods and are tried again.`,
      beats: [],
    };
  },
};

const taint: DemoDef<SchedulerDetail> = {
  id: 'taint',
  label: (f) => (hasTaint(f) ? `Remove the taint on ${TAINTED}` : `Taint ${TAINTED}`),
  unavailable: () => null,
  start: (f) => {
    const on = !hasTaint(f);
    return {
      actions: [{ type: 'taint', node: TAINTED, taint: GPU_TAINT, on }],
      memo: {},
      intro: on
        ? `kubectl taint puts ${GPU_TAINT.key}=${GPU_TAINT.value}:${GPU_TAINT.effect} on ${TAINTED}: new pods that do not tolerate it are filtered out; running ones stay (NoSchedule evicts nothing).`
        : `The taint comes off ${TAINTED}; pending pods get another try.`,
      beats: [],
    };
  },
};

/** One node's verdict in a pod's last scheduling attempt: the first filter that failed, or its scores. */
export type NodeVerdict = {
  node: string;
  passed: boolean;
  /** The filter plugin that rejected the node (the framework stops at the first), or null. */
  plugin: string | null;
  reasons: string[];
  scores: { plugin: string; raw: number; normalized: number; weighted: number }[];
  total: number;
};

/** One pod of the figure: its requests and tolerations, and the scheduler's last attempt for it. */
export type PodScheduling = {
  name: string;
  node: string | null;
  cpu: string;
  memory: string;
  image: string;
  tolerations: string[];
  attempt: {
    t: number;
    node: string | null;
    message: string | null;
    numAllNodes: number;
    feasibleNodes: number;
    perNode: NodeVerdict[];
  } | null;
};

/** What the scheduler figure sends beside each frame. */
export type SchedulerDetail = {
  weights: { plugin: string; weight: number }[];
  pods: PodScheduling[];
  nodes: {
    name: string;
    cpuMilli: number;
    memoryBytes: number;
    requestedCpuMilli: number;
    requestedMemoryBytes: number;
  }[];
  /** The kubelet's pod statechart (once), and each bound pod's state in it with the reason. */
  statechart: PodCharts;
};

/** The pod-on-its-kubelet chart, and for each bound pod (by name) where its kubelet holds it and why. */
type PodCharts = {
  chart: Statechart;
  pods: Record<string, { current: string | null; reason: string; subject: string }>;
};

/** Every pod's scheduling as the scheduler recorded it, the nodes' room, and the plugins' weights. */
function schedulerDetail(c: Cluster, f: Frame): SchedulerDetail {
  const s = schedulerOf(c);
  const weights = DEFAULT_SCORE_PLUGINS.map((p) => ({ plugin: p.name, weight: p.weight }));
  // The pods as the API server stores them (read, not requested: a view must not add to the log).
  const podsIn = storeList(c.world.state.store, 'pods', 'default').filter((p) => !p.metadata?.deletionTimestamp);
  const pods: PodScheduling[] = podsIn.map((p) => {
    const name = p.metadata!.name!;
    const req = p.spec?.containers?.[0]?.resources?.requests ?? {};
    const rec = s ? schedulingRecordOf(s, `default/${name}`) : undefined;
    return {
      name,
      node: p.spec?.nodeName ?? null,
      cpu: String(req.cpu ?? '0'),
      memory: String(req.memory ?? '0'),
      image: p.spec?.containers?.[0]?.image ?? '',
      tolerations: (p.spec?.tolerations ?? []).map((t) => `${t.key}${t.value ? '=' + t.value : ''}:${t.effect ?? ''}`),
      attempt: rec
        ? {
            t: rec.t,
            node: rec.node ?? null,
            message: rec.message ?? null,
            numAllNodes: rec.numAllNodes,
            feasibleNodes: rec.feasibleNodes,
            perNode: rec.perNode.map((n) => {
              const failed = n.filter.find((x) => x.code !== 'Success');
              return {
                node: n.node,
                passed: !failed,
                plugin: failed?.plugin ?? null,
                reasons: failed?.reasons ?? [],
                scores: n.scores.map((x) => ({
                  plugin: x.plugin,
                  raw: x.raw,
                  normalized: x.normalized,
                  weighted: x.weighted,
                })),
                total: n.total,
              };
            }),
          }
        : null,
    };
  });
  const nodes = f.nodes.map((n) => {
    const ni = s?.nodeInfos[n.name];
    return {
      name: n.name,
      cpuMilli: n.cpuMilli,
      memoryBytes: n.memoryBytes,
      requestedCpuMilli: ni?.requested.milliCPU ?? 0,
      requestedMemoryBytes: ni?.requested.memory ?? 0,
    };
  });
  return { weights, pods, nodes, statechart: podStatechart(c, f) };
}

/** The kubelet's pod statechart, lit for each bound pod of the figure at its state there, with the reason (podStatechartOf). */
function podStatechart(c: Cluster, f: Frame): PodCharts {
  const pods: PodCharts['pods'] = {};
  for (const p of f.pods) {
    if (p.namespace !== 'default' || !p.node || p.terminating) continue;
    const v = podStatechartOf(c.world.state, p);
    pods[p.name] = { current: v.current, reason: v.reason, subject: v.subject };
  }
  return { chart: statechartOf(podMachine), pods };
}

/** What the scheduler figure's widget draws. */
export type SchedulerView = FigureView<SchedulerDetail>;

/** The `scheduler` figure (the scheduler chapter). */
export const schedulerFigure: FigureDef<SchedulerDetail> = {
  actions: figureActions,
  // The API server's request checks: its panel sends the reader's CPU and memory requests, which the typed decoding refuses when they are no quantity.
  checks: REQUEST_CHECKS,
  id: 'scheduler',
  title: 'The scheduler: filter, score, bind',
  options: {
    seed: 7,
    nodes: 5,
    nodeCapacity: [
      { cpu: '4', memory: '8Gi' },
      { cpu: '8', memory: '32Gi' },
      { cpu: '2', memory: '4Gi' },
      { cpu: '4', memory: '16Gi' },
      { cpu: '2', memory: '8Gi' },
    ],
  },
  demos: [setup, web, big, tolerate, cordon, taint],
  story: ['setup', 'web', 'big', 'tolerate'],
  leavesOut: [
    'The default profile without InterPodAffinity and ImageLocality scoring, and without volume, DRA or topology-spread constraints beyond the defaults; no preemption in the story, because every pod has the same priority (create a PriorityClass in the terminal and give a pod its name, and the scheduler preempts as Kubernetes does).',
    'Only CPU and memory requests are counted; limits, ephemeral storage and extended resources are not shown.',
    "Pods here are bare pods; changing a pod's requests replaces it (kubectl replace --force), because requests of a pending pod cannot be edited in place.",
    'On clusters of 100 nodes or more the scheduler stops filtering once it has found enough feasible nodes; with five nodes it checks them all.',
  ],
  detail: (c, f) => schedulerDetail(c, f),
};
