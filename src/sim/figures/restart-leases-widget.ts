// The `restart-leases` widget (the control-plane outage chapter): what a control plane does when it
// comes back. web runs; the control plane stops for ten minutes; the reader starts it again. The
// scheduler handed its leader-election Lease back when it stopped, so its new process leads at once;
// the controller manager did not, so its new process waits until the old holder's Lease has gone
// 15 s without a renewal, then takes it over. Meanwhile the node-lifecycle controller starts each
// node's clock at its own start, the kubelets renew within seconds, and no node becomes Unknown.
// Every name, time and count the picture shows is read from the store.
import { storeList } from '../view/stored.ts';
import type { Cluster } from '../cluster.ts';
import type { Frame } from '../view/types.ts';
import type { DemoDef, DemoMemo, FigureDef } from './demo.ts';
import { figureActions } from './figure-actions.ts';
import { setupDemo, WEB, webOf } from './widget-web.ts';

/** How long the outage lasts before the widget opens. */
const OUTAGE_MS = 10 * 60_000;
/** The two leader-election Leases in kube-system, as the components name them. */
const LOCKS = ['kube-scheduler', 'kube-controller-manager'] as const;

/** One leader-election Lease as the store holds it. */
type LockRow = {
  name: string;
  holder: string;
  renewTime: string;
  transitions: number;
};
/** One node as the node-lifecycle controller has written it: its Ready status and its taints' keys. */
type NodeRow = {
  name: string;
  ready: string;
  taints: string[];
};
/** What the picture draws: whether the control plane runs, the two Leases, and the nodes. */
export type RestartDetail = {
  up: boolean;
  locks: LockRow[];
  nodes: NodeRow[];
};
/** The figure's detail (FigureDef.detail): RestartDetail under its key. */
type Detail = { restart: RestartDetail };

/** The Leases and nodes, read from the store (as it was when the control plane stopped, while it is down). */
function restartOf(cluster: Cluster, frame: Frame): RestartDetail {
  const store = cluster.world.state.store;
  const leases = storeList(store, 'leases', 'kube-system');
  const locks = LOCKS.map((name): LockRow => {
    const l = leases.find((x) => x.metadata?.name === name);
    return {
      name,
      holder: l?.spec?.holderIdentity ?? '',
      renewTime: l?.spec?.renewTime ?? '',
      transitions: l?.spec?.leaseTransitions ?? 0,
    };
  });
  const nodes = storeList(store, 'nodes')
    .filter((n) => !n.metadata?.name?.startsWith('control-plane'))
    .map((n): NodeRow => ({
      name: n.metadata?.name ?? '',
      ready: n.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'Unknown',
      taints: (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  return { up: frame.controlPlane.apiserver && frame.controlPlane.etcd, locks, nodes };
}

const detailOf = (d: Detail | null): RestartDetail | null => (d?.restart ? d.restart : null);
const lockOf = (d: RestartDetail | null, name: string): LockRow | undefined => d?.locks.find((l) => l.name === name);
const seconds = (f: Frame, m: DemoMemo): number => Math.round((f.t - Number(m.at)) / 1000);

/** The control plane stops, and stays down for ten minutes. */
const outage: DemoDef<Detail> = {
  id: 'outage',
  label: () => 'Stop the control plane',
  unavailable: (f) =>
    !webOf(f) ? `Create ${WEB} first.` : f.controlPlane.apiserver ? null : 'The control plane is stopped already.',
  start: (f) => ({
    actions: [{ type: 'control-plane', action: 'stop' }],
    memo: { at: f.t },
    intro:
      'The API server, etcd, the scheduler and the controller-manager stop; the scheduler hands its Lease back as it goes.',
    beats: [
      {
        when: (g, m) => g.t - Number(m.at) >= OUTAGE_MS,
        text: (g, m) =>
          `The control plane has been down for ${Math.round((g.t - Number(m.at)) / 60_000)} minutes. No node has renewed its Lease since; kube-controller-manager's Lease still names the process that stopped, and kube-scheduler's names nobody.`,
      },
    ],
  }),
};

/** Start the control plane: the widget's action. */
const restart: DemoDef<Detail> = {
  id: 'restart',
  label: () => 'Start the control plane',
  unavailable: (f) => (f.controlPlane.apiserver ? 'The control plane is running.' : null),
  start: (f) => ({
    actions: [{ type: 'control-plane', action: 'start' }],
    // The scheduler's holder when it stopped: it handed the Lease back, so a new holder is the new process.
    memo: { at: f.t, scheduler: '' },
    intro: 'etcd, the API server, the scheduler and the controller-manager start again, each a new process.',
    beats: [
      {
        when: (_g, m, detail) => {
          const d = detailOf(detail());
          const s = lockOf(d, 'kube-scheduler');
          // The controller manager's Lease as the restart found it: the next beat waits for another holder.
          if (m.kcmOld === undefined) m.kcmOld = lockOf(d, 'kube-controller-manager')?.holder ?? '';
          if (!d?.up || !s?.holder || s.holder === m.scheduler) return false;
          m.schedTransitions = s.transitions;
          return true;
        },
        text: (g, m) =>
          `${seconds(g, m) < 1 ? 'At once' : `${seconds(g, m)} s after the start`}, the new kube-scheduler holds its Lease (leaseTransitions ${m.schedTransitions}): the old one had handed it back, so there was nothing to wait for.`,
      },
      {
        when: (_g, m, detail) => {
          const d = detailOf(detail());
          const c = lockOf(d, 'kube-controller-manager');
          if (!c?.holder || c.holder === m.kcmOld) return false;
          m.transitions = c.transitions;
          return true;
        },
        text: (g, m) =>
          `${seconds(g, m)} s after the start the new kube-controller-manager takes its Lease over (leaseTransitions ${m.transitions}): the Lease still named the old process, so it waited until it had seen 15 s pass without a renewal.`,
      },
      {
        when: (g, m, detail) => {
          const d = detailOf(detail());
          return (
            g.t - Number(m.at) >= 60_000 && !!d && d.nodes.every((n) => n.ready === 'True' && n.taints.length === 0)
          );
        },
        text: (g, m) =>
          `${seconds(g, m)} s after the start every node is still Ready and untainted: the node-lifecycle controller started each node's clock when it started, and the kubelets renewed their Leases within seconds.`,
      },
    ],
  }),
};

/** The `restart-leases` widget: a control plane coming back after ten minutes, its leaders and its nodes. */
export const restartLeasesWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'restart-leases',
  title: 'A control plane comes back',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(3), outage, restart],
  story: ['setup', 'outage', 'restart'],
  opening: 3,
  leavesOut: [
    'The widget opens ten minutes into the outage, with web running on the three nodes.',
    'The control plane is one machine whose components stop and start together; each start is a new process with a new identity.',
    'While the API server is down the picture shows the store as it was when it stopped: nothing can change it.',
  ],
  detail: (cluster, frame) => ({ restart: restartOf(cluster, frame) }),
};
