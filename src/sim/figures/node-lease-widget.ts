// The `node-lease` widget (the node-failure chapter): node-2's kubelet renews its Lease in
// kube-node-lease every 10 s; the reader cuts the machine's power, and the Lease's renewTime ages.
// The node-lifecycle controller, checking every 5 s, lets the grace period (50 s) run out, then sets
// the Ready condition to Unknown and taints the node node.kubernetes.io/unreachable. Everything the
// picture and the captions say is read from the Lease, the Node and the controller's own state.
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Cluster } from '../cluster.ts';
import type { Frame, NodeView } from '../view/types.ts';
import { listOf } from '../view/words.ts';
import type { NodeLifecycleControllerState } from '../node-lifecycle/node-lifecycle-controller.ts';
import { storeGet } from '../view/stored.ts';
import type { DemoBeat, DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { setupDemo } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** The node whose Lease the widget follows (the chapter's node-2). */
const NODE = 'node-2';
/** The kubelet renews its Lease this often (nodeLeaseDurationSeconds 40 × 0.25). */
const LEASE_RENEW_MS = 10_000;
/** node-monitor-grace-period's default, for a node the controller has not yet given a grace period of its own. */
const DEFAULT_GRACE_MS = 50_000;
/** web's replicas: one pod a node, so node-2 runs one. */
const REPLICAS = 3;
/** The taint the controller adds to a node whose kubelet has gone quiet. */
const UNREACHABLE = 'node.kubernetes.io/unreachable';

/** The Lease and the controller's view of node-2, as the picture draws them. */
export type LeaseDetail = {
  node: string;
  powered: boolean;
  /** The Lease as stored: its holder, renewTime and duration (null before the kubelet creates it). */
  holderIdentity: string | null;
  renewTime: string | null;
  leaseDurationSeconds: number | null;
  /** Whole seconds since renewTime, or null before the first renewal. */
  ageS: number | null;
  renewEveryS: number;
  /** The node-lifecycle controller's grace period, and seconds since its probe timestamp (null while it is not running). */
  graceS: number | null;
  quietS: number | null;
  /** More than the grace period has passed since the probe timestamp (to the millisecond, as the controller compares). */
  expired: boolean;
  /** The Node's Ready condition and its unreachable taints' effects. */
  ready: string;
  taints: string[];
};
/** The figure's detail (FigureDef.detail): LeaseDetail under its key. */
type Detail = { lease: LeaseDetail };

const nodeOf = (f: Frame): NodeView | undefined => f.nodes.find((n) => n.name === NODE);
const ageOf = (f: Frame): number => Math.floor((nodeOf(f)?.leaseAgeMs ?? 0) / 1000);
const tainted = (f: Frame, effect: string): boolean =>
  !!nodeOf(f)?.taints.some((t) => t.key === UNREACHABLE && t.effect === effect);
/** Seconds, to a tenth, since the last renewal before the power went (the memo's `renewed`): the grace period is counted from it. */
const sinceRenewal = (f: Frame, m: DemoMemo): string => ((f.t - Number(m.renewed)) / 1000).toFixed(1);

/**
 * The node-lifecycle controller's clock for node-2: its probe timestamp (the last proof of life it
 * saw) and the grace period it gives the node. Read from its state here: importing its reader
 * (nodeHealthOf) into this chunk made the build split the worker's core chunk, 1.8 KB larger.
 */
function controllerClockOf(cluster: Cluster): { probeTimestamp: number; gracePeriodMs: number } | undefined {
  const entry = Object.values(cluster.world.state.components).find((c) => c.type === 'node-lifecycle-controller');
  const s = entry?.state as NodeLifecycleControllerState | undefined;
  const h = s?.health?.nodeHealthMap[NODE];
  return h ? { probeTimestamp: h.probeTimestamp, gracePeriodMs: s.graceMs[NODE] ?? DEFAULT_GRACE_MS } : undefined;
}

/** The Lease, the Node's condition and taints, and the controller's clock for node-2. */
function leaseDetailOf(cluster: Cluster, frame: Frame): LeaseDetail {
  const lease = storeGet(cluster.world.state.store, 'leases', `/registry/leases/kube-node-lease/${NODE}`) as
    Lease | undefined;
  const h = controllerClockOf(cluster);
  const n = nodeOf(frame);
  return {
    node: NODE,
    powered: n?.powered ?? false,
    holderIdentity: lease?.spec?.holderIdentity ?? null,
    renewTime: lease?.spec?.renewTime ?? null,
    leaseDurationSeconds: lease?.spec?.leaseDurationSeconds ?? null,
    ageS: n?.leaseAgeMs == null ? null : Math.floor(n.leaseAgeMs / 1000),
    renewEveryS: LEASE_RENEW_MS / 1000,
    graceS: h ? h.gracePeriodMs / 1000 : null,
    quietS: h ? Math.max(0, Math.floor((cluster.now - h.probeTimestamp) / 1000)) : null,
    expired: !!h && cluster.now > h.probeTimestamp + h.gracePeriodMs,
    ready: n?.ready ?? 'Unknown',
    taints: (n?.taints ?? []).filter((t) => t.key === UNREACHABLE).map((t) => t.effect),
  };
}

/** While node-2 is off: the missed renewal, the grace period running out, the taints. */
const awayBeats: DemoBeat<Detail>[] = [
  {
    when: (f) => ageOf(f) > 10,
    text: (f) =>
      `The Lease's renewTime is ${ageOf(f)} s old: the renewal due 10 s after the last one never came. The node-lifecycle controller checks every 5 s, sees the grace period still running, and waits.`,
  },
  {
    when: (f) => nodeOf(f)?.ready === 'Unknown',
    text: (f, m) => {
      const marked = f.pods.filter((p) => p.node === NODE && !p.terminating && !p.ready).map((p) => p.name);
      return `${sinceRenewal(f, m)} s after the last renewal the 50 s grace period is over: the controller sets ${NODE}'s Ready condition to Unknown${marked.length ? ` and marks ${listOf(marked)} not ready` : ''}.`;
    },
  },
  {
    when: (f) => tainted(f, 'NoSchedule') && tainted(f, 'NoExecute'),
    text: (f) =>
      `${NODE} now carries ${UNREACHABLE}:NoSchedule and ${UNREACHABLE}:NoExecute: the scheduler places nothing new there, and each pod's 300 s toleration of the NoExecute taint starts to run. The Lease is ${ageOf(f)} s old.`,
  },
];

/** Power node-2 off (or on again): the widget's one action. */
const power: DemoDef<Detail> = {
  id: 'power',
  label: (f) => (nodeOf(f)?.powered === false ? `Power ${NODE} on` : `Cut ${NODE}'s power`),
  unavailable: (f) => (nodeOf(f) ? null : `This cluster has no ${NODE}.`),
  start: (f): DemoStart<Detail> => {
    if (nodeOf(f)?.powered === false) {
      return {
        actions: [{ type: 'node', node: NODE, action: 'start' }],
        memo: {},
        intro: `${NODE} boots; its kubelet renews the Lease and posts the node's status again.`,
        beats: [
          {
            when: (g) => nodeOf(g)?.ready === 'True',
            text: (g) =>
              `The Lease is ${ageOf(g)} s old again and ${NODE} reports Ready=True; the controller lifts the unreachable taints on its next pass.`,
          },
          {
            when: (g) => nodeOf(g)?.ready === 'True' && !tainted(g, 'NoSchedule') && !tainted(g, 'NoExecute'),
            text: () =>
              `${NODE} is Ready and untainted: its Lease is renewed every 10 s, and the controller has nothing to count.`,
          },
        ],
      };
    }
    const age = nodeOf(f)?.leaseAgeMs ?? 0;
    return {
      actions: [{ type: 'node', node: NODE, action: 'stop' }],
      memo: { renewed: f.t - age },
      intro: `${NODE} loses power, ${Math.floor(age / 1000)} s after its kubelet last renewed the Lease. Nobody tells the API server: the renewals simply stop.`,
      beats: awayBeats,
    };
  },
};

/** The `node-lease` widget: a Lease ageing past the grace period. */
export const nodeLeaseWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'node-lease',
  title: 'A Lease ages past the grace period',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), power],
  story: ['setup', 'power'],
  opening: 1,
  leavesOut: [
    `The widget opens with web running one pod on each node; only ${NODE}'s Lease is drawn, though every kubelet renews its own.`,
    'The node-lifecycle controller runs with its defaults: a 5 s monitor period and a 50 s grace period (node-monitor-grace-period; 40 s before Kubernetes 1.32).',
    `Cutting the power stops the kubelet and its containers at once; a node cut off the network looks the same to the controller (the big figure below offers both).`,
  ],
  detail: (cluster, frame) => ({ lease: leaseDetailOf(cluster, frame) }),
};
