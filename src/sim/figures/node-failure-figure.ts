// The `node-failure` figure: node-2 goes quiet, and the reader watches the node-lifecycle controller
// count: Lease renewals every 10 s, 50 s of grace, Ready=Unknown, the unreachable taints, each pod's
// 300 s toleration running out, the eviction, replacements on the healthy nodes, the evicted pods
// Terminating; then the node returning empty. Powering node-2 off and cutting it off the network
// look the same to the control plane, but on a cut-off node the containers keep running.
import type { Frame, NodeView, PodView } from '../view/types.ts';
import { nodeStatechartOf, type StatechartView } from '../view/statechart.ts';
import type { DemoBeat, DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { agree, count, listOf } from '../view/words.ts';
import { leaseClockOf, podCountdownsOf, type LeaseClock, type PodCountdown } from './node-detail.ts';
import type { FigureView } from './protocol.ts';
import { podsMarked } from './pods-marked.ts';
import { figureActions } from './figure-actions.ts';

const NAME = 'web';
const IMAGE = 'nginx:1.27';
const REPLICAS = 6;
/** The node that fails (the chapter's prose and its static diagram use node-2). */
export const FAILING = 'node-2';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

const web = (f: Frame) => f.deployments.find((d) => d.name === NAME && d.namespace === 'default');
const webPods = (f: Frame): PodView[] =>
  [...f.pending, ...f.pods].filter((p) => p.owner?.startsWith(`ReplicaSet/${NAME}-`));
const live = (f: Frame) => webPods(f).filter((p) => !p.terminating);
const ready = (f: Frame) => live(f).filter((p) => p.ready && p.phase === 'Running');
const nodeOf = (f: Frame): NodeView | undefined => f.nodes.find((n) => n.name === FAILING);
const names = (m: DemoMemo): string[] => (m.pods ? String(m.pods).split(',') : []);
const hasTaint = (n: NodeView | undefined, effect: string) =>
  !!n?.taints.some((t) => t.key === UNREACHABLE && t.effect === effect);
/** Whole seconds between two simulated times, as the narration says them. */
const since = (f: Frame, m: DemoMemo) => `${Math.round((f.t - Number(m.at)) / 1000)} s`;
/** How many pods on the failing node the node-lifecycle controller has marked not ready (their Ready condition False). */
const notReadyOn = (f: Frame) => f.pods.filter((p) => p.node === FAILING && !p.terminating && !p.ready).length;
/** "2 pods", "1 pod", "no pods": web's live pods on the failing node. */
const onFailing = (f: Frame) => count(live(f).filter((p) => p.node === FAILING).length, 'pod');

const apply: DemoDef<NodeFailureDetail> = {
  id: 'apply',
  label: () => 'Apply web (6 pods)',
  unavailable: (f) => (web(f) ? 'The Deployment web exists already.' : null),
  start: () => ({
    actions: [{ type: 'apply', name: NAME, image: IMAGE, replicas: REPLICAS }],
    memo: {},
    intro: `kubectl creates the Deployment ${NAME}: ${REPLICAS} replicas of ${IMAGE}, so that every node runs some of them.`,
    beats: [
      {
        when: (f) => ready(f).length >= REPLICAS,
        text: (f) =>
          `${count(ready(f).length, 'pod')} ${agree(ready(f).length, 'runs', 'run')}, ${
            listOf(
              ready(f)
                .filter((p) => p.node === FAILING)
                .map((p) => p.name),
            ) || 'none'
          } on ${FAILING}. Every kubelet renews its node's Lease in kube-node-lease every 10 s.`,
      },
    ],
  }),
};

const scale: DemoDef<NodeFailureDetail> = {
  id: 'scale',
  label: (f) => `Scale web to ${(web(f)?.replicas ?? REPLICAS) > REPLICAS ? REPLICAS : REPLICAS + 3}`,
  unavailable: (f) => (web(f) ? null : 'Apply the Deployment first.'),
  start: (f) => {
    const to = web(f)!.replicas > REPLICAS ? REPLICAS : REPLICAS + 3;
    return {
      actions: [{ type: 'scale', name: NAME, replicas: to }],
      memo: {
        to,
        before: webPods(f)
          .map((p) => p.name)
          .join(','),
      },
      intro: `kubectl scale sets web's replicas to ${to}.`,
      beats: [
        {
          when: (g, m) => ready(g).length >= Number(m.to) && live(g).length === Number(m.to),
          text: (g, m) => {
            const fresh = ready(g).filter((p) => !String(m.before).split(',').includes(p.name));
            const where = [...new Set(fresh.map((p) => p.node))]
              .map((n) => `${fresh.filter((p) => p.node === n).length} on ${n}`)
              .join(', ');
            return fresh.length
              ? `The new ${agree(fresh.length, 'pod is', 'pods are')} scheduled where there is most room: ${where}. ${onFailing(g)} of web now ${agree(live(g).filter((p) => p.node === FAILING).length, 'runs', 'run')} on ${FAILING}.`
              : `${count(live(g).length, 'pod')} of web ${agree(live(g).length, 'is', 'are')} left.`;
          },
        },
      ],
    };
  },
};

/** The beats while node-2 is away, the same for power-off and partition up to the eviction. */
function awayBeats(cut: boolean): DemoBeat<NodeFailureDetail>[] {
  return [
    {
      when: (f) => (nodeOf(f)?.leaseAgeMs ?? 0) > 10_000,
      text: (f) =>
        `The Lease of ${FAILING} was last renewed ${Math.floor((nodeOf(f)!.leaseAgeMs ?? 0) / 1000)} s ago: a renewal is missed. The node-lifecycle controller checks every 5 s and keeps waiting; its grace period is 50 s.`,
    },
    {
      when: (f) => nodeOf(f)?.ready === 'Unknown',
      text: (f, m) =>
        `${since(f, m)} after the last renewal the grace period is over: the controller sets Ready=Unknown ("Kubelet stopped posting node status."). ${podsMarked(f, FAILING)}${notReadyOn(f) ? ` Services stop sending ${agree(notReadyOn(f), 'it', 'them')} traffic.` : ''}`,
    },
    {
      when: (f) => hasTaint(nodeOf(f), 'NoExecute'),
      text: (f) =>
        `${FAILING} now carries ${nodeOf(f)!
          .taints.filter((t) => t.key === UNREACHABLE)
          .map((t) => `${t.key}:${t.effect}`)
          .join(
            ' and ',
          )}. No new pod is scheduled there, and each pod's toleration of the NoExecute taint (300 s, added by the DefaultTolerationSeconds admission plugin) starts to run out.`,
    },
    {
      when: (f, m) =>
        names(m).every((n) => {
          const p = webPods(f).find((x) => x.name === n);
          return !p || p.terminating;
        }),
      text: (f, m) =>
        names(m).length
          ? `The tolerations are used up: the taint-eviction controller deletes ${names(m).join(', ')}. ${agree(names(m).length, 'It shows', 'They show')} Terminating, because only their kubelet can confirm that the containers stopped${cut ? ', and that kubelet is cut off: on the machine the containers are still running' : ''}.`
          : `${FAILING} ran no pod of ${NAME}, so nothing is evicted.`,
    },
    {
      when: (f) => {
        const d = web(f);
        return !d || ready(f).filter((p) => p.node !== FAILING).length >= d.replicas;
      },
      text: (f) =>
        `The ReplicaSet controller, counting only pods that are not being deleted, has created replacements on the healthy nodes: ${ready(f).filter((p) => p.node !== FAILING).length} of ${web(f)?.replicas ?? 0} ready. The old pods stay Terminating while ${FAILING} is away.`,
    },
  ];
}

const powerOff: DemoDef<NodeFailureDetail> = {
  id: 'power',
  label: (f) => (nodeOf(f)?.powered === false ? `Power ${FAILING} on` : `Power ${FAILING} off`),
  unavailable: (f) => (nodeOf(f)?.partitioned ? `${FAILING} is cut off; reconnect it first.` : null),
  start: (f): DemoStart<NodeFailureDetail> => {
    if (nodeOf(f)?.powered === false) {
      return {
        actions: [{ type: 'node', node: FAILING, action: 'start' }],
        memo: {},
        intro: `${FAILING} boots. Its kubelet starts afresh, renews the Lease and posts the node's status.`,
        beats: returnBeats(false),
      };
    }
    const mine = live(f)
      .filter((p) => p.node === FAILING)
      .map((p) => p.name);
    return {
      actions: [{ type: 'node', node: FAILING, action: 'stop' }],
      memo: { pods: mine.join(','), at: f.t - (nodeOf(f)?.leaseAgeMs ?? 0) },
      intro: `${FAILING} loses power: its kubelet and containers stop at once. Nobody tells the API server; the Lease simply stops being renewed.`,
      beats: awayBeats(false),
    };
  },
};

const partition: DemoDef<NodeFailureDetail> = {
  id: 'partition',
  label: (f) => (nodeOf(f)?.partitioned ? `Reconnect ${FAILING}` : `Cut ${FAILING} off`),
  unavailable: (f) => (nodeOf(f)?.powered === false ? `${FAILING} is off; power it on first.` : null),
  start: (f): DemoStart<NodeFailureDetail> => {
    if (nodeOf(f)?.partitioned) {
      return {
        actions: [{ type: 'node', node: FAILING, action: 'heal' }],
        memo: {},
        intro: `The network to ${FAILING} is back. Its kubelet, running all along, reaches the API server again.`,
        beats: returnBeats(true),
      };
    }
    const mine = live(f)
      .filter((p) => p.node === FAILING)
      .map((p) => p.name);
    return {
      actions: [{ type: 'node', node: FAILING, action: 'partition' }],
      memo: { pods: mine.join(','), at: f.t - (nodeOf(f)?.leaseAgeMs ?? 0) },
      intro: `${FAILING} is cut off from the control plane. The machine runs on, and so do its containers, but its kubelet's requests no longer arrive: to the API server this looks exactly like a power failure.`,
      beats: awayBeats(true),
    };
  },
};

/** The beats after node-2 comes back (powered on, or reconnected). */
function returnBeats(cut: boolean): DemoBeat<NodeFailureDetail>[] {
  return [
    {
      when: (f) => nodeOf(f)?.ready === 'True',
      text: () =>
        `${FAILING} reports Ready=True again, and the controller removes its unreachable taints on its next pass.`,
    },
    {
      when: (f) => !webPods(f).some((p) => p.node === FAILING && p.terminating) && !hasTaint(nodeOf(f), 'NoExecute'),
      text: (f) => {
        const left = live(f).filter((p) => p.node === FAILING).length;
        const how = cut
          ? `The kubelet sees that its pods were deleted, stops their containers and confirms`
          : `The kubelet finds the evicted pods deleted and confirms`;
        return left
          ? `${how}. ${count(left, 'pod')} ${agree(left, 'runs', 'run')} on ${FAILING} now.`
          : `${how}: they are gone for good. ${FAILING} is back, and empty; Kubernetes does not move pods back to it.`;
      },
    },
  ];
}

/** The node-failure figure's own data: node-2's statechart, its Lease clock and its pods' toleration countdowns. */
export interface NodeFailureDetail {
  chart: StatechartView;
  clock: LeaseClock;
  pods: PodCountdown[];
}

/** What the node-failure figure's widget draws. */
export type NodeFailureView = FigureView<NodeFailureDetail>;

/** The `node-failure` figure (the node-failure chapter). */
export const nodeFailureFigure: FigureDef<NodeFailureDetail> = {
  actions: figureActions,
  id: 'node-failure',
  title: 'A node fails, live',
  options: { seed: 1, nodes: 3 },
  demos: [apply, powerOff, partition, scale],
  story: ['apply', 'power', 'power', 'scale', 'partition', 'partition'],
  leavesOut: [
    'The node-lifecycle controller and the taint-eviction controller run with their defaults (50 s grace, 5 s monitor period, 300 s tolerations); the flags that change them are not offered.',
    'A cut-off node is cut off from the control plane only; no traffic between pods or from clients is modelled, so the containers that keep running there serve nobody in this figure.',
    'One zone: the rate limits and the disruption mode for many failing nodes or zones are in the model but not shown here.',
    'The 5 minutes of waiting are real in the model; the compressed speed and "next event that matters" only skip the quiet time between.',
  ],
  detail: (cluster, frame) => ({
    chart: nodeStatechartOf(cluster.world.state, FAILING),
    clock: leaseClockOf(cluster, frame, FAILING),
    pods: podCountdownsOf(cluster, FAILING),
  }),
};
