// The `heartbeats` widget (the node-failure chapter): each kubelet's two proofs of life, side by side
// on three nodes. Its Lease in kube-node-lease is renewed every 10 s; its node status is sent only on
// a change or every 5 minutes. The reader powers node-2 off: its renewals stop and its Lease ages
// while node-1 and node-3 keep renewing. The story stops well inside the 50 s grace period: what the
// node-lifecycle controller makes of the silence is the node-lease widget's, further down. Every
// number is read from the store (the Lease, the Node's Ready condition) and the request log (the
// kubelets' writes), never computed from the intervals.
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Node } from 'kubernetes-types/core/v1';
import type { Cluster } from '../cluster.ts';
import { storeGet } from '../view/stored.ts';
import type { KubeletState } from '../kubelet/kubelet-state.ts';
import { parseTime } from '../util/time.ts';
import type { Frame, NodeView } from '../view/types.ts';
import { agree, count, listOf } from '../view/words.ts';
import type { DemoBeat, DemoDef, DemoStart, FigureDef } from './demo.ts';
import { setupDemo } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** The node the reader stops (the chapter's node-2). */
const NODE = 'node-2';
/** The kubelet renews its Lease this often (nodeLeaseDurationSeconds 40 × 0.25). */
const RENEW_EVERY_S = 10;
/** nodeStatusReportFrequency: an unchanged status is still sent this often. */
const REPORT_EVERY_S = 300;
/** Renewals every node has made when the widget opens: a few, so the rhythm shows before the reader acts. */
const OPENING_RENEWALS = 3;
/** How old node-2's Lease gets before the story stops: well inside the controller's 50 s grace period. */
const STOP_AT_AGE_S = 35;
/** web's replicas: one pod a node (the pull of its image is a status change each node reports). */
const REPLICAS = 3;

/** One node's two proofs of life, as the store and the request log have them. */
export type NodeHeartbeats = {
  node: string;
  /** The machine is on (its kubelet runs). */
  powered: boolean;
  /** The Lease's spec.renewTime as stored, and its age in whole seconds (null before the Lease exists). */
  renewTime: string | null;
  leaseAgeS: number | null;
  /** Lease renewals (successful PUTs of kube-node-lease/<node> by its kubelet) since the cluster started. */
  renewals: number;
  /** Node status updates (successful PATCHes of nodes/<node>/status by its kubelet) since the cluster started. */
  statusUpdates: number;
  /** The Ready condition's lastHeartbeatTime as stored, and its age in whole seconds. */
  lastHeartbeatTime: string | null;
  heartbeatAgeS: number | null;
  /** Whole seconds until the kubelet sends its status even if nothing changed (null while it is down). */
  reportDueS: number | null;
};

/** What the picture draws: every worker's heartbeats, and the two intervals. */
export type HeartbeatsDetail = {
  t: number;
  renewEveryS: number;
  reportEveryS: number;
  nodes: NodeHeartbeats[];
};
/** The figure's detail (FigureDef.detail): HeartbeatsDetail under its key. */
type Detail = { heartbeats: HeartbeatsDetail };

/** Seconds between the store's RFC 3339 time and now, whole (null when absent). */
function ageOf(stamp: string | null | undefined, now: number): number | null {
  const at = parseTime(stamp);
  return at === undefined ? null : Math.floor((now - at) / 1000);
}

/** Successful Lease renewals and status updates each kubelet sent, counted in one pass over the request log. */
function writesByNode(cluster: Cluster): Map<string, { renewals: number; statusUpdates: number }> {
  const by = new Map<string, { renewals: number; statusUpdates: number }>();
  for (const r of cluster.world.state.log) {
    if (r.kind !== 'request' || r.code >= 300 || !r.component.startsWith('kubelet/')) continue;
    const node = r.component.slice('kubelet/'.length);
    const lease =
      r.verb === 'PUT' && r.path.startsWith(`/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${node}?`);
    const status = r.verb === 'PATCH' && r.path.startsWith(`/api/v1/nodes/${node}/status`);
    if (!lease && !status) continue;
    const c = by.get(node) ?? { renewals: 0, statusUpdates: 0 };
    if (lease) c.renewals++;
    else c.statusUpdates++;
    by.set(node, c);
  }
  return by;
}

/** Every worker's Lease, Ready heartbeat and write counts at this moment. */
function heartbeatsDetailOf(cluster: Cluster, frame: Frame): HeartbeatsDetail {
  const w = cluster.world.state;
  const writes = writesByNode(cluster);
  const nodes = frame.nodes
    .filter((n) => w.components[`kubelet/${n.name}`])
    .map((n): NodeHeartbeats => {
      const lease = storeGet(w.store, 'leases', `/registry/leases/kube-node-lease/${n.name}`) as Lease | undefined;
      const node = storeGet(w.store, 'nodes', `/registry/minions/${n.name}`) as Node | undefined;
      const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
      const k = w.components[`kubelet/${n.name}`].state as KubeletState;
      const c = writes.get(n.name) ?? { renewals: 0, statusUpdates: 0 };
      return {
        node: n.name,
        powered: n.powered,
        renewTime: lease?.spec?.renewTime ?? null,
        leaseAgeS: ageOf(lease?.spec?.renewTime, w.now),
        renewals: c.renewals,
        statusUpdates: c.statusUpdates,
        lastHeartbeatTime: ready?.lastHeartbeatTime ?? null,
        heartbeatAgeS: ageOf(ready?.lastHeartbeatTime, w.now),
        reportDueS:
          k.up && k.nodeReportedAt !== undefined
            ? Math.max(0, Math.ceil((k.nodeReportedAt + REPORT_EVERY_S * 1000 - w.now) / 1000))
            : null,
      };
    });
  return { t: w.now, renewEveryS: RENEW_EVERY_S, reportEveryS: REPORT_EVERY_S, nodes };
}

const nodeOf = (f: Frame): NodeView | undefined => f.nodes.find((n) => n.name === NODE);
const detailOf = (d: Detail | null): HeartbeatsDetail | null => (d?.heartbeats ? d.heartbeats : null);
const one = (d: HeartbeatsDetail, node: string): NodeHeartbeats | undefined => d.nodes.find((n) => n.node === node);
const seconds = (ms: number): number => Math.floor(ms / 1000);

/**
 * A beat whose sentence is made from the detail its `when` read at the same frame (a beat's text
 * sees only the frame): `holds` decides, `say` words it.
 */
function detailBeat(
  holds: (d: HeartbeatsDetail, f: Frame) => boolean,
  say: (d: HeartbeatsDetail, f: Frame) => string,
): DemoBeat<Detail> {
  let seen: HeartbeatsDetail | null = null;
  return {
    when: (f, _m, detail) => {
      seen = detailOf(detail());
      return !!seen && holds(seen, f);
    },
    text: (f) => say(seen!, f),
  };
}

/** "node-1 3, node-2 3 and node-3 3": one count per node. */
const perNode = (d: HeartbeatsDetail, of: (n: NodeHeartbeats) => number): string =>
  listOf(d.nodes.map((n) => `${n.node} ${of(n)}`));

/** The setup: web created and running, then the kubelets' rhythm until each has renewed its Lease a few times. */
const setup: DemoDef<Detail> = (() => {
  const base = setupDemo(REPLICAS);
  return {
    ...base,
    start: (f): DemoStart<Detail> => {
      const s = base.start(f);
      return {
        ...s,
        beats: [
          ...s.beats,
          detailBeat(
            (d) => d.nodes.every((n) => n.renewals >= OPENING_RENEWALS),
            (d) =>
              `${seconds(d.t)} s since the kubelets started: Lease renewals ${perNode(d, (n) => n.renewals)}; status updates ${perNode(d, (n) => n.statusUpdates)}. The Lease is renewed every ${RENEW_EVERY_S} s; the status is sent only when it changes, or after ${REPORT_EVERY_S / 60} minutes.`,
          ),
        ],
      };
    },
  };
})();

/** Each node's write counts when the demo was pressed (its beats' first check runs at the step of its action). */
type Counts = Record<string, { renewals: number; statusUpdates: number }>;

/** While node-2 is off: the others renew, node-2's Lease ages; the story stops before the grace period is up. */
function stoppedBeats(others: string[]): DemoBeat<Detail>[] {
  const before: Counts = {};
  /** Fills `before` on the first check, at the step of the action; true, so it can open a condition. */
  const capture = (d: HeartbeatsDetail): boolean => {
    for (const n of d.nodes) before[n.node] ??= { renewals: n.renewals, statusUpdates: n.statusUpdates };
    return true;
  };
  const since = (d: HeartbeatsDetail, n: string, k: 'renewals' | 'statusUpdates'): number =>
    (one(d, n)?.[k] ?? 0) - (before[n]?.[k] ?? 0);
  const othersSay = (d: HeartbeatsDetail): string =>
    listOf(
      others.map((n, i) =>
        i ? `${n} ${since(d, n, 'renewals')}` : `${n} has made ${count(since(d, n, 'renewals'), 'renewal')}`,
      ),
    );
  const statusSay = (d: HeartbeatsDetail): string => {
    const sent = d.nodes.filter((n) => since(d, n.node, 'statusUpdates') > 0).map((n) => n.node);
    return sent.length
      ? `${listOf(sent)} sent ${agree(sent.length, 'its', 'their')} status meanwhile`
      : `No node has sent its status meanwhile (status updates in all: ${perNode(d, (n) => n.statusUpdates)})`;
  };
  return [
    detailBeat(
      (d) =>
        capture(d) &&
        (one(d, NODE)?.leaseAgeS ?? 0) > RENEW_EVERY_S &&
        others.every((n) => since(d, n, 'renewals') >= 1),
      (d) =>
        `${NODE}'s renewal, due ${RENEW_EVERY_S} s after its last, never came: its renewTime is ${one(d, NODE)!.leaseAgeS} s old. Since the power went, ${othersSay(d)}.`,
    ),
    detailBeat(
      (d) => (one(d, NODE)?.leaseAgeS ?? 0) >= STOP_AT_AGE_S,
      (d) =>
        `${NODE}'s Lease is ${one(d, NODE)!.leaseAgeS} s old, still at ${count(one(d, NODE)!.renewals, 'renewal')}; ${othersSay(d)}. ${statusSay(d)}: the silence shows on the Lease. Whether ${NODE} is gone is the node-lifecycle controller's call, further down.`,
    ),
  ];
}

/** Power node-2 off, or on again: the widget's one action. */
const kubelet: DemoDef<Detail> = {
  id: 'kubelet',
  label: (f) => (nodeOf(f)?.powered === false ? `Power ${NODE} on` : `Power ${NODE} off`),
  unavailable: (f) => (nodeOf(f) ? null : `This cluster has no ${NODE}.`),
  start: (f): DemoStart<Detail> => {
    if (nodeOf(f)?.powered === false) {
      return {
        actions: [{ type: 'node', node: NODE, action: 'start' }],
        memo: {},
        intro: `${NODE} boots. Its kubelet's lease controller runs at once, without waiting ${RENEW_EVERY_S} s.`,
        beats: [
          detailBeat(
            (d) => {
              const n = one(d, NODE);
              return !!n && n.powered && n.leaseAgeS === 0 && n.heartbeatAgeS === 0;
            },
            (d) => {
              const n = one(d, NODE)!;
              return `${NODE}'s kubelet renewed its Lease as it booted (${count(n.renewals, 'renewal')} in all) and sent its status, changed by the reboot (${count(n.statusUpdates, 'status update')} in all). From now on, a renewal every ${RENEW_EVERY_S} s again.`;
            },
          ),
        ],
      };
    }
    const age = seconds(nodeOf(f)?.leaseAgeMs ?? 0);
    return {
      actions: [{ type: 'node', node: NODE, action: 'stop' }],
      memo: { at: f.t },
      intro: `${NODE} loses power, and its kubelet with it, ${age} s after its last renewal. Nobody tells the API server: the writes simply stop.`,
      beats: stoppedBeats(f.nodes.filter((n) => n.name !== NODE).map((n) => n.name)),
    };
  },
};

/** The `heartbeats` widget: many Lease renewals for each status update, and node-2's renewals stopping. */
export const heartbeatsWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'heartbeats',
  title: 'Two proofs of life',
  options: { seed: 1, nodes: 3 },
  demos: [setup, kubelet],
  story: ['setup', 'kubelet', 'kubelet'],
  opening: 2,
  leavesOut: [
    "The widget opens with web running one pod on each node; the counts start when the kubelets do, at the cluster's start.",
    `Powering ${NODE} off stops its kubelet (the simulation has no way to stop the kubelet alone); for the Lease and the status it is the same: the writes stop.`,
    "Only the successful writes are counted: the kubelet's reads (the Node, the Lease when it has none in memory) are left out.",
  ],
  detail: (cluster, frame) => ({ heartbeats: heartbeatsDetailOf(cluster, frame) }),
};
