// The `toleration-countdown` widget (the node-failure chapter): web runs 6 pods, two of them on node-2,
// each carrying the unreachable:NoExecute toleration with tolerationSeconds 300 that the
// DefaultTolerationSeconds admission plugin added. The reader cuts node-2's power; once the node is
// tainted, the taint-eviction controller schedules each pod's deletion 300 s out, deletes both when the
// time is up, and the ReplicaSet replaces them on node-1 and node-3. The countdowns are the
// controller's own scheduled work (its TimedWorkers), read from its state, never computed here.
import type { Cluster } from '../cluster.ts';
import { storeList } from '../view/stored.ts';
import type { TaintEvictionControllerState } from '../node-lifecycle/taint-eviction-controller.ts';
import type { Frame, NodeView } from '../view/types.ts';
import { agree, count, listOf } from '../view/words.ts';
import type { DemoBeat, DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { livePodsOf, readyPodsOf, setupDemo, WEB, webOf, webPodsOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** The node that fails (the chapter's node-2). */
const NODE = 'node-2';
/** web's replicas, as the chapter's failure has them: two a node. */
const REPLICAS = 6;
/** The taint whose toleration runs down. */
const UNREACHABLE = 'node.kubernetes.io/unreachable';

/** One pod on node-2: its toleration of the NoExecute taint and the deletion the controller has scheduled for it. */
type TolerationCountdown = {
  name: string;
  /** tolerationSeconds of its toleration for unreachable:NoExecute (null: none, or tolerated for ever). */
  tolerationSeconds: number | null;
  /** When the controller scheduled the deletion, and when it fires (simulated ms), or null while none is scheduled. */
  scheduledAt: number | null;
  evictAt: number | null;
  /** Whole seconds left, never negative (null while nothing is scheduled). */
  remainingS: number | null;
  /** The deletion has run: the pod has a deletionTimestamp. */
  terminating: boolean;
};

/** What the picture draws: node-2's state and each of its pods' countdown. */
export type CountdownDetail = {
  node: string;
  powered: boolean;
  ready: string;
  /** The effects of node-2's unreachable taints. */
  taints: string[];
  pods: TolerationCountdown[];
};
/** The figure's detail (FigureDef.detail): CountdownDetail under its key. */
type Detail = { countdown: CountdownDetail };

const nodeOf = (f: Frame): NodeView | undefined => f.nodes.find((n) => n.name === NODE);
const tainted = (f: Frame): boolean =>
  !!nodeOf(f)?.taints.some((t) => t.key === UNREACHABLE && t.effect === 'NoExecute');
const detailOf = (d: Detail | null): CountdownDetail | null => (d?.countdown ? d.countdown : null);
const names = (m: DemoMemo): string[] => (m.pods ? String(m.pods).split(',') : []);
const secondsSince = (f: Frame, m: DemoMemo): number => Math.round((f.t - Number(m.at)) / 1000);

/** The taint-eviction controller's state (its component, found by type: the figure chunk imports no reader of the core's). */
function taintEvictionOf(cluster: Cluster): TaintEvictionControllerState | undefined {
  const entry = Object.values(cluster.world.state.components).find((c) => c.type === 'taint-eviction-controller');
  return entry?.state as TaintEvictionControllerState | undefined;
}

/** node-2 and each pod the API server has on it, with the deletion the taint-eviction controller has scheduled. */
function countdownDetailOf(cluster: Cluster, frame: Frame): CountdownDetail {
  const w = cluster.world.state;
  const workers = taintEvictionOf(cluster)?.eviction.workers ?? {};
  const pods = storeList(w.store, 'pods', 'default').filter((p) => p.spec?.nodeName === NODE);
  const n = nodeOf(frame);
  return {
    node: NODE,
    powered: n?.powered ?? false,
    ready: n?.ready ?? 'Unknown',
    taints: (n?.taints ?? []).filter((t) => t.key === UNREACHABLE).map((t) => t.effect),
    pods: pods
      .map((p): TolerationCountdown => {
        const name = p.metadata?.name ?? '';
        const work = workers[`default/${name}`];
        const evictAt = work && !work.fired ? work.fireAt : null;
        const tol = p.spec?.tolerations?.find((t) => t.key === UNREACHABLE && t.effect === 'NoExecute');
        return {
          name,
          tolerationSeconds: tol?.tolerationSeconds ?? null,
          scheduledAt: work ? work.createdAt : null,
          evictAt,
          remainingS: evictAt === null ? null : Math.max(0, Math.ceil((evictAt - w.now) / 1000)),
          terminating: !!p.metadata?.deletionTimestamp,
        };
      })
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
  };
}

/** While node-2 is off: the taints, the quiet 300 s, the deletions, the replacements. */
const awayBeats: DemoBeat<Detail>[] = [
  {
    // The NoExecute taint is on and the controller has scheduled every pod's deletion.
    when: (f, m, detail) => {
      const d = detailOf(detail());
      return tainted(f) && !!d && names(m).every((n) => d.pods.some((p) => p.name === n && p.evictAt !== null));
    },
    text: (f, m) =>
      `${secondsSince(f, m)} s after the power went, ${NODE} is tainted ${UNREACHABLE}:NoExecute. ${agree(names(m).length, 'Its pod tolerates', 'Its pods tolerate')} that for 300 s (DefaultTolerationSeconds), so the taint-eviction controller schedules ${agree(names(m).length, 'its', 'their')} deletion 300 s from now, and waits.`,
  },
  {
    when: (f, m) =>
      names(m).every((n) => {
        const p = webPodsOf(f).find((x) => x.name === n);
        return !p || p.terminating;
      }),
    text: (f, m) =>
      `${secondsSince(f, m)} s after the power went the 300 s are up: the taint-eviction controller deletes ${listOf(names(m))}. ${agree(names(m).length, 'It stays', 'They stay')} Terminating: only ${NODE}'s kubelet could confirm that the containers stopped.`,
  },
  {
    when: (f) => {
      const d = webOf(f);
      return !!d && readyPodsOf(f).filter((p) => p.node !== NODE).length >= d.replicas;
    },
    text: (f, m) => {
      const fresh = livePodsOf(f).filter((p) => !String(m.before).split(',').includes(p.name));
      return `The ReplicaSet counts only pods that are not being deleted, so it made ${count(fresh.length, 'replacement')}: ${listOf(fresh.map((p) => `${p.name} on ${p.node}`))}. ${readyPodsOf(f).length} of ${REPLICAS} ready, ${secondsSince(f, m)} s after the power went.`;
    },
  },
];

/** Cut node-2's power (or power it on again): the widget's one action. */
const power: DemoDef<Detail> = {
  id: 'power',
  label: (f) => (nodeOf(f)?.powered === false ? `Power ${NODE} on` : `Cut ${NODE}'s power`),
  unavailable: (f) => (!webOf(f) ? `Create ${WEB} first.` : nodeOf(f) ? null : `This cluster has no ${NODE}.`),
  start: (f): DemoStart<Detail> => {
    if (nodeOf(f)?.powered === false) {
      return {
        actions: [{ type: 'node', node: NODE, action: 'start' }],
        memo: {},
        intro: `${NODE} boots; its kubelet renews the Lease and posts the node's status again.`,
        beats: [
          {
            when: (g) => nodeOf(g)?.ready === 'True' && !tainted(g),
            text: (g) =>
              `${NODE} is Ready and untainted again${webPodsOf(g).some((p) => p.node === NODE) ? '' : ', and empty: its kubelet found its pods deleted and confirmed it. Nothing moves pods back to it'}.`,
          },
        ],
      };
    }
    const mine = livePodsOf(f)
      .filter((p) => p.node === NODE)
      .map((p) => p.name);
    return {
      actions: [{ type: 'node', node: NODE, action: 'stop' }],
      memo: {
        pods: mine.join(','),
        at: f.t,
        before: livePodsOf(f)
          .map((p) => p.name)
          .join(','),
      },
      intro: `${NODE} loses power with ${listOf(mine)} on it. Its Lease goes unrenewed; about 50 s after the last renewal the node-lifecycle controller taints the node.`,
      beats: awayBeats,
    };
  },
};

/** The `toleration-countdown` widget: each pod's 300 s toleration running down, then the eviction. */
export const tolerationCountdownWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'toleration-countdown',
  title: 'Tolerated for 300 seconds',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), power],
  story: ['setup', 'power'],
  opening: 1,
  leavesOut: [
    `The widget opens with web running two pods on each node; only ${NODE}'s are drawn with their countdowns.`,
    'The taint-eviction controller and the node-lifecycle controller run with their defaults (300 s tolerations, a 50 s grace period); "Next event" jumps over the quiet wait in one press, the same seconds the cluster lives through.',
    'Power off stops the kubelet and its containers at once; the big figure below also cuts a node off the network.',
  ],
  detail: (cluster, frame) => ({ countdown: countdownDetailOf(cluster, frame) }),
};
