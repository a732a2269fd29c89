// The `kubelet-alone` widget (the control-plane-outage chapter): web runs 3 pods; the reader stops the
// control plane, then crashes the nginx container of web's pod on node-1. node-1's kubelet restarts it
// on its own, at once and then after a 10 s back-off, counting the restarts itself; each status sync it
// tries (a GET of the pod, then a PATCH of its status) is refused, so the API server keeps the old
// restartCount. The reader starts the control plane again, and the kubelet's status update lands.
// The picture reads the kubelet's own state and request log beside the stored pod.
import type { ContainerStatus } from 'kubernetes-types/core/v1';
import type { Cluster } from '../cluster.ts';
import type { Stored } from '../view/stored.ts';
import { appHealth } from '../app-health.ts';
import type { KubeletState } from '../kubelet/kubelet-state.ts';
import type { Frame, PodView } from '../view/types.ts';
import { count } from '../view/words.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { backoffOf } from './pod-trouble.ts';
import { setupDemo, WEB, webOf, webPodsOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas, as the other widgets have them. */
const REPLICAS = 3;
/** The node whose kubelet the widget follows. */
const NODE = 'node-1';
/** What nginx prints when its configuration has a mistyped directive, and exits 1 (as the crash-loop widget's). */
const CRASH_LOG = 'nginx: [emerg] unknown directive "sever" in /etc/nginx/conf.d/default.conf:2';

/** The pod on node-1 as its kubelet knows it, as the API server stores it, and the kubelet's status writes. */
export type KubeletAloneDetail = {
  controlPlane: boolean;
  pod: string | null;
  /** The kubelet's own count: its container attempts on containerd, less the first. */
  kubeletRestarts: number;
  /** The current attempt as containerd has it. */
  container: 'running' | 'created' | 'exited' | 'none';
  /** Seconds left of the kubelet's restart back-off while the container waits in it, else null. */
  backoffLeftS: number | null;
  /** restartCount and the container's state in the stored pod (what kubectl would print). */
  apiRestarts: number;
  apiState: string;
  /** The kubelet's status syncs for this pod refused (connection refused, no API server). */
  refused: number;
  /** Its last status write that landed: when, and at which store revision. */
  landed: { t: number; revision: number } | null;
};
/** The figure's detail (FigureDef.detail): KubeletAloneDetail under its key. */
type Detail = { alone: KubeletAloneDetail };

const detailOf = (d: Detail | null): KubeletAloneDetail | null => (d?.alone ? d.alone : null);
/** web's pod on node-1 (the one the widget crashes), not being deleted. */
const podOn = (f: Frame): PodView | undefined => webPodsOf(f).find((p) => p.node === NODE && !p.terminating);
const cpUp = (f: Frame): boolean => f.controlPlane.apiserver && f.controlPlane.etcd;
const seconds = (f: Frame, m: DemoMemo): number => Math.round((f.t - Number(m.at)) / 1000);

/** The pod on node-1, its kubelet's own restart count and back-off, the stored status, and the status writes. */
function kubeletAloneDetailOf(cluster: Cluster, frame: Frame): KubeletAloneDetail {
  const w = cluster.world.state;
  const view = podOn(frame);
  const k = w.components[`kubelet/${NODE}`]?.state as KubeletState | undefined;
  const work = view ? k?.workers[`default/${view.name}`] : undefined;
  const c = work?.containers[0];
  const last = c?.attempts[c.attempts.length - 1];
  const running = last ? k?.runtime.containers[last]?.state : undefined;
  const pod = view
    ? (w.store.objects.pods?.[`/registry/pods/default/${view.name}`] as Stored<'pods'> | undefined)
    : undefined;
  const cs = pod?.status?.containerStatuses?.[0];
  // The back-off as the kubelet holds it, asked with the kubelet's own waiting reason: the stored one is stale while the API server is down.
  const local = { ...cs, state: c?.waiting ? { waiting: { reason: c.waiting.reason } } : cs?.state } as ContainerStatus;
  const b = pod ? backoffOf(k, pod, local, w.now) : null;
  const object = view ? `pods/default/${view.name}` : null;
  let refused = 0;
  let landed: KubeletAloneDetail['landed'] = null;
  if (object) {
    for (const r of w.log) {
      if (r.kind !== 'request' || r.component !== `kubelet/${NODE}` || r.object !== object) continue;
      // A status sync begins with a GET of the pod; refused, it goes no further.
      if (r.verb === 'GET' && r.code === 0) refused++;
      if (r.verb === 'PATCH' && r.path.endsWith('/status') && r.code === 200 && r.revision !== undefined)
        landed = { t: r.t, revision: r.revision };
    }
  }
  return {
    controlPlane: cpUp(frame),
    pod: view?.name ?? null,
    kubeletRestarts: c ? Math.max(0, c.attempts.length - 1) : 0,
    container:
      running === 'CONTAINER_RUNNING'
        ? 'running'
        : running === 'CONTAINER_EXITED'
          ? 'exited'
          : running
            ? 'created'
            : 'none',
    backoffLeftS: c?.waiting?.reason === 'CrashLoopBackOff' ? (b?.leftS ?? null) : null,
    apiRestarts: cs?.restartCount ?? 0,
    apiState: view?.status ?? 'none',
    refused,
    landed,
  };
}

/** Keeps what the detail says in the memo for the beat's text (which sees the frame and memo only). Returns true. */
function hold(m: DemoMemo, d: KubeletAloneDetail): true {
  Object.assign(m, {
    kubelet: d.kubeletRestarts,
    api: d.apiRestarts,
    refused: d.refused,
    revision: d.landed?.revision ?? 0,
    wait: d.backoffLeftS ?? 0,
  });
  return true;
}

/** Stop the control plane, or start it again: the widget's action. */
const controlPlane: DemoDef<Detail> = {
  id: 'control-plane',
  label: (f) => (f.controlPlane.apiserver ? 'Stop the control plane' : 'Start the control plane'),
  unavailable: (f) => (webOf(f) ? null : `Create ${WEB} first.`),
  start: (f): DemoStart<Detail> => {
    if (f.controlPlane.apiserver) {
      return {
        actions: [{ type: 'control-plane', action: 'stop' }],
        memo: { at: f.t },
        intro: `The API server, etcd, the scheduler and the controller-manager stop. ${NODE}'s kubelet keeps its pods in memory and its containers running.`,
        beats: [],
      };
    }
    return {
      actions: [{ type: 'control-plane', action: 'start' }],
      memo: { at: f.t },
      intro: `etcd, the API server, the scheduler and the controller-manager start again; ${NODE}'s kubelet, retrying all along, gets through.`,
      beats: [
        {
          when: (_g, _m, detail) => {
            const d = detailOf(detail());
            return !!d && d.controlPlane && d.apiRestarts === d.kubeletRestarts && d.landed !== null;
          },
          text: (g, m) =>
            `${seconds(g, m)} s after the restart the kubelet's status update lands: the API server now has restartCount ${podOn(g)?.restarts ?? 0} for ${podOn(g)?.name}, the count the kubelet kept alone.`,
        },
      ],
    };
  },
};

/** Crash the container of web's pod on node-1 (twice: one restart at once, one after the back-off), then let it run. */
const crash: DemoDef<Detail> = {
  id: 'crash',
  label: () => `Crash ${NODE}'s nginx`,
  unavailable: (f) => (!podOn(f) ? `No pod of ${WEB} runs on ${NODE}.` : null),
  start: (f): DemoStart<Detail> => {
    const p = podOn(f)!;
    return {
      actions: [{ type: 'app', pod: p.name, behaviour: 'crashes', health: appHealth('crashes', CRASH_LOG) }],
      memo: { pod: p.name, at: f.t },
      intro: `${p.name}'s nginx now finds a typo in its configuration and exits with code 1 a second after it starts (sim app).`,
      beats: [
        {
          when: (_g, m, detail) => {
            const d = detailOf(detail());
            return !!d && d.kubeletRestarts >= 1 && hold(m, d);
          },
          text: (g, m) =>
            `nginx exited, and the kubelet started it again at once, without asking anyone: restartCount ${m.kubelet} in the kubelet, ${m.api} in the API server${cpUp(g) ? '' : `. Its status writes are refused (${count(Number(m.refused), 'attempt')} so far)`}.`,
        },
        {
          when: (_g, m, detail) => {
            const d = detailOf(detail());
            return !!d && d.kubeletRestarts >= 1 && d.backoffLeftS !== null && hold(m, d);
          },
          text: (g, m) =>
            `It exited again: the kubelet waits ${m.wait} s before the next start (CrashLoopBackOff), a back-off it keeps itself. The API server still says restartCount ${m.api}${cpUp(g) ? '' : ' and Running'}.`,
          // The typo is fixed meanwhile, so the next start stays up.
          then: (_g, m) => [{ type: 'app', pod: String(m.pod), behaviour: 'healthy', health: appHealth('healthy') }],
        },
        {
          when: (_g, m, detail) => {
            const d = detailOf(detail());
            return !!d && d.kubeletRestarts >= 2 && d.container === 'running' && hold(m, d);
          },
          text: (g, m) =>
            `After the back-off the kubelet starts nginx a third time, and it stays up: restartCount ${m.kubelet} in the kubelet, ${m.api} in the API server${cpUp(g) ? '' : `, ${count(Number(m.refused), 'status sync')} refused`}.`,
        },
      ],
    };
  },
};

/** The `kubelet-alone` widget: a container restarted by its kubelet while nobody can hear about it. */
export const kubeletAloneWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'kubelet-alone',
  title: 'The kubelet works alone',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), controlPlane, crash],
  story: ['setup', 'control-plane', 'crash', 'control-plane'],
  opening: 1,
  leavesOut: [
    `The widget opens with web running one pod on each node; it follows the one on ${NODE} and its kubelet.`,
    "The crash is made by `sim app`, which makes the pod's simulated nginx exit a second after each start; the typo is fixed once the kubelet has restarted it twice, so its third start stays up.",
    'The whole control plane stops at once; the kubelet keeps retrying its status syncs, its Lease and its node status, and none of them lands until the API server is back.',
  ],
  detail: (cluster, frame) => ({ alone: kubeletAloneDetailOf(cluster, frame) }),
};
