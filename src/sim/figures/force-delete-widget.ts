// The `force-delete` widget (the node-failure chapter): node-2 is cut off the network, not powered
// off, so its kubelet and containerd go on running web's two pods there while the control plane,
// after the grace period and the 300 s tolerations, marks them for deletion and the ReplicaSet
// replaces them elsewhere. The widget opens there: two Terminating pods in the API server, their
// containers still running on node-2's machine. The reader force-deletes one (`kubectl delete pod
// … --grace-period=0 --force`): the object is gone from the API at once, without the kubelet,
// while node-2 still runs its container. Pressed again, node-2 reconnects, and its kubelet finds
// the pod gone and stops the container. Both sides are read from the world: the store for the API
// server's objects, node-2's containerd (the kubelet's runtime state) for what the machine runs.
import type { Cluster } from '../cluster.ts';
import { storeList } from '../view/stored.ts';
import type { KubeletState } from '../kubelet/kubelet-state.ts';
import type { Frame, NodeView } from '../view/types.ts';
import { agree, count, listOf } from '../view/words.ts';
import type { DemoBeat, DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { livePodsOf, readyPodsOf, setupDemo, WEB, webOf, webPodsOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** The node cut off the network (the chapter's node-2). */
const NODE = 'node-2';
/** web's replicas, as the chapter's failure has them: two a node. */
const REPLICAS = 6;

/** One pod on node-2 as the API server stores it. */
type ApiPod = {
  name: string;
  /** metadata.deletionTimestamp (null while it is not being deleted). */
  deletionTimestamp: string | null;
  /** kubectl's STATUS column: Terminating once it has a deletionTimestamp. */
  status: string;
  /** The reason of its DisruptionTarget condition (DeletionByTaintManager: the taint-eviction controller deleted it), or null. */
  disruption: string | null;
};

/** One container on node-2's machine, as its containerd has it, and whether the API server still has its pod. */
type MachineContainer = {
  pod: string;
  container: string;
  state: 'running' | 'exited' | 'created' | 'unknown';
  /** The pod object exists in the API server. */
  inApi: boolean;
};

/** What the picture draws: node-2's two sides, and web's pods elsewhere. */
export type ForceDeleteDetail = {
  node: string;
  partitioned: boolean;
  ready: string;
  /** The pods the API server has bound to node-2, in name order. */
  api: ApiPod[];
  /** web's containers on node-2's machine (its containerd), in pod name order; none while the machine is off. */
  machine: MachineContainer[];
  /** web's pods elsewhere, not being deleted: name and node. */
  running: { name: string; node: string }[];
};
/** The figure's detail (FigureDef.detail): ForceDeleteDetail under its key. */
type Detail = { force: ForceDeleteDetail };

const STATES: Record<string, MachineContainer['state']> = {
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
  CONTAINER_CREATED: 'created',
};

/** web's containers as node-2's containerd holds them (the kubelet's runtime state: the machine's, not the API server's). */
function machineOf(cluster: Cluster, inApi: Set<string>): MachineContainer[] {
  const k = cluster.world.state.components[`kubelet/${NODE}`]?.state as KubeletState | undefined;
  if (!k || !k.up) return [];
  const out: MachineContainer[] = [];
  for (const c of Object.values(k.runtime.containers)) {
    const s = k.runtime.sandboxes[c.sandboxId];
    if (!s || s.namespace !== 'default' || !s.podName.startsWith(`${WEB}-`)) continue;
    out.push({ pod: s.podName, container: c.name, state: STATES[c.state] ?? 'unknown', inApi: inApi.has(s.podName) });
  }
  return out.sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0));
}

/** node-2's pods in the API server and on its machine, and web's pods running elsewhere. */
function forceDeleteDetailOf(cluster: Cluster, frame: Frame): ForceDeleteDetail {
  const pods = storeList(cluster.world.state.store, 'pods', 'default').filter((p) => p.spec?.nodeName === NODE);
  const api = pods
    .map((p): ApiPod => {
      const name = p.metadata?.name ?? '';
      const disruption =
        p.status?.conditions?.find((c) => c.type === 'DisruptionTarget' && c.status === 'True')?.reason ?? null;
      return {
        name,
        deletionTimestamp: p.metadata?.deletionTimestamp ?? null,
        status: frame.pods.find((x) => x.name === name)?.status ?? '',
        disruption,
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const n = nodeOf(frame);
  return {
    node: NODE,
    partitioned: n?.partitioned ?? false,
    ready: n?.ready ?? 'Unknown',
    api,
    machine: machineOf(cluster, new Set(api.map((p) => p.name))),
    running: livePodsOf(frame)
      .filter((p) => p.node !== NODE && p.node !== null)
      .map((p) => ({ name: p.name, node: p.node! })),
  };
}

const nodeOf = (f: Frame): NodeView | undefined => f.nodes.find((n) => n.name === NODE);
const detailOf = (d: Detail | null): ForceDeleteDetail | null => (d?.force ? d.force : null);
/** web's pods on node-2 that the API server has marked for deletion, in name order. */
const terminatingThere = (f: Frame): string[] =>
  webPodsOf(f)
    .filter((p) => p.node === NODE && p.terminating)
    .map((p) => p.name);
const runningOn = (d: ForceDeleteDetail, pod: string): boolean =>
  d.machine.some((c) => c.pod === pod && c.state === 'running');
/** A memo's comma-separated names. */
const names = (v: string | number | undefined): string[] => (v ? String(v).split(',') : []);

/** Seconds since the memo's `at`, whole. */
const secondsSince = (f: Frame, m: DemoMemo): number => Math.round((f.t - Number(m.at)) / 1000);

/** Cut node-2 off the network and wait: the grace period, the taints, the 300 s tolerations, the deletions and the replacements. */
const cut: DemoDef<Detail> = {
  id: 'cut',
  label: () => `Cut ${NODE} off the network`,
  unavailable: (f) =>
    !webOf(f)
      ? `Create ${WEB} first.`
      : !nodeOf(f)
        ? `This cluster has no ${NODE}.`
        : nodeOf(f)!.partitioned
          ? `${NODE} is cut off already.`
          : null,
  start: (f): DemoStart<Detail> => {
    const mine = livePodsOf(f)
      .filter((p) => p.node === NODE)
      .map((p) => p.name);
    return {
      actions: [{ type: 'node', node: NODE, action: 'partition' }],
      memo: {
        pods: mine.join(','),
        before: livePodsOf(f)
          .map((p) => p.name)
          .join(','),
        at: f.t,
      },
      intro: `${NODE} is cut off the network with ${listOf(mine)} on it: its kubelet and containers go on running, but nothing it sends reaches the API server.`,
      beats: [
        {
          when: (g, m, detail) => {
            const d = detailOf(detail());
            const evicted = (p: string): boolean =>
              d?.api.find((x) => x.name === p)?.disruption === 'DeletionByTaintManager';
            return (
              !!d &&
              names(m.pods).every((p) => terminatingThere(g).includes(p) && evicted(p) && runningOn(d, p)) &&
              readyPodsOf(g).length === REPLICAS
            );
          },
          text: (g, m) => {
            const fresh = livePodsOf(g).filter((p) => !names(m.before).includes(p.name));
            return `${secondsSince(g, m)} s after the cut: ${listOf(terminatingThere(g))} ${agree(terminatingThere(g).length, 'is', 'are')} Terminating in the API server, deleted when their 300 s ran out; ${listOf(fresh.map((p) => p.name))} replace them, ${readyPodsOf(g).length} running. ${NODE}, cut off, still runs their ${count(names(m.pods).length, 'container')}.`;
          },
        },
      ],
    };
  },
};

/** After a reconnect: node-2's kubelet stops the force-deleted pod's container, then finishes and confirms the other deletion. */
function reconnectBeats(): DemoBeat<Detail>[] {
  // The containers node-2 runs for pods the API server no longer has, read at the step of the reconnect (its first check).
  let orphans: string[] | null = null;
  let others: string[] = [];
  return [
    {
      when: (g, _m, detail) => {
        const d = detailOf(detail());
        if (!d) return false;
        orphans ??= d.machine.filter((c) => !c.inApi && c.state === 'running').map((c) => c.pod);
        if (!others.length) others = d.api.map((p) => p.name);
        return !d.partitioned && orphans.every((p) => !runningOn(d, p));
      },
      text: (g, m) =>
        `${secondsSince(g, m)} s after the reconnect, ${NODE}'s kubelet has found ${listOf(orphans!)} gone from the API server and stopped ${orphans!.length === 1 ? 'its container' : 'their containers'}: ${orphans!.length === 1 ? 'it' : 'they'} ran on until now.`,
    },
    {
      when: (g, _m, detail) => {
        const d = detailOf(detail());
        return !!d && others.every((p) => !d.api.some((x) => x.name === p) && !d.machine.some((c) => c.pod === p));
      },
      text: (g, m) =>
        `It stopped ${listOf(others.map((p) => `${p}'s container`))} too and confirmed the deletion: ${others.length === 1 ? 'the object is' : 'the objects are'} gone, ${secondsSince(g, m)} s after the reconnect. ${NODE} runs no ${WEB} pod; ${count(readyPodsOf(g).length, 'pod')} run on ${listOf([...new Set(readyPodsOf(g).map((p) => p.node!))].sort())}.`,
    },
  ];
}

/** Force-delete node-2's first Terminating pod; once one is gone, reconnect node-2: the widget's one action. */
const force: DemoDef<Detail> = {
  id: 'force',
  label: (f) => {
    const t = terminatingThere(f);
    return t.length >= 2 ? 'Force-delete a pod' : `Reconnect ${NODE}`;
  },
  unavailable: (f) =>
    !nodeOf(f)?.partitioned
      ? `${NODE} is connected: its kubelet confirms its pods' deletions itself.`
      : terminatingThere(f).length === 0
        ? `No pod on ${NODE} is Terminating yet.`
        : null,
  start: (f): DemoStart<Detail> => {
    const t = terminatingThere(f);
    if (t.length >= 2) {
      const pod = t[0];
      return {
        actions: [{ type: 'delete-pod', pod, force: true }],
        memo: { pod },
        intro: `kubectl warns that it will not wait for confirmation, then asks the API server to delete ${pod} with gracePeriodSeconds 0.`,
        beats: [
          {
            when: (g, m, detail) => {
              const d = detailOf(detail());
              return !!d && !d.api.some((p) => p.name === m.pod) && runningOn(d, String(m.pod));
            },
            text: (g, m) =>
              `${m.pod} is gone from the API server at once, confirmed by no kubelet, while ${NODE}'s machine, still cut off, runs its container on. ${listOf(terminatingThere(g))} stays Terminating.`,
          },
        ],
      };
    }
    return {
      actions: [{ type: 'node', node: NODE, action: 'heal' }],
      memo: { at: f.t },
      intro: `${NODE} is back on the network; its kubelet's requests and watches reach the API server again.`,
      beats: reconnectBeats(),
    };
  },
};

/** The `force-delete` widget: a Terminating pod force-deleted while its node, cut off, still runs it. */
export const forceDeleteWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'force-delete',
  title: 'Deleted from the API, still running',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), cut, force],
  story: ['setup', 'cut', 'force', 'force'],
  opening: 3,
  leavesOut: [
    `The widget opens after ${NODE} has been cut off the network for about six minutes (simulated): past the 50 s grace period, the unreachable taints and the 300 s tolerations.`,
    `Only web's containers on ${NODE}'s machine are drawn; the simulated container runtime is containerd as the kubelet sees it through the CRI.`,
    'Nothing is attached to the pods: a real StatefulSet pod with a volume would also need the volume detached before its replacement could use it.',
  ],
  detail: (cluster, frame) => ({ force: forceDeleteDetailOf(cluster, frame) }),
};
