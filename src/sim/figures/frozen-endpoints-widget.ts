// The `frozen-endpoints` widget (the control-plane-outage chapter): web's 3 pods behind the Service
// web, kube-proxy (iptables mode) on every node, and a client on node-1 that opens a connection to
// the Service's ClusterIP once a second, through node-1's rules. The reader stops the control plane:
// kube-proxy's watches break, but the rules it last synced stay in the kernel, and the client is
// answered throughout; the reader starts it again, and kube-proxy lists what it missed: nothing.
import type { Cluster } from '../cluster.ts';
import { kubeProxyAddon } from '../kube-proxy/kube-proxy.ts';
import { kubeProxyStateOf } from '../kube-proxy/reader.ts';
import type { Frame } from '../view/types.ts';
import { count, listOf } from '../view/words.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { sliceEndpointsOf } from './pod-trouble.ts';
import { trafficClientAddon, trafficClientStateOf } from './traffic-client.ts';
import { readyPodsOf, WEB, WEB_IMAGE, webOf, webSettled } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas (the chapter's example). */
const REPLICAS = 3;
/** The Service's port. */
const PORT = 80;
/** The node the client runs on, and whose kube-proxy rules it goes through. */
const CLIENT_NODE = 'node-1';
/** How long into the outage the widget pauses to count the client's answers. */
const OUTAGE_LOOK_MS = 20_000;

/** One endpoint of web as the picture lists it: in the EndpointSlice stored in etcd, and in node-1's rules. */
type FrozenEndpoint = {
  ip: string;
  pod: string;
  node: string;
  inSlice: boolean;
  inRules: boolean;
};

/** What the picture draws beside the frame. */
export type FrozenDetail = {
  /** The whole control plane runs (API server, etcd, scheduler, controller-manager). */
  controlPlane: boolean;
  /** When node-1's kube-proxy last synced its rules (simulated ms), or null before the first sync. */
  syncedAt: number | null;
  /** node-1's kube-proxy has its watches of Services and EndpointSlices open. */
  watching: boolean;
  endpoints: FrozenEndpoint[];
  /** The client's requests so far, answered and failed. */
  sent: number;
  ok: number;
  failed: number;
  /** Its latest requests, oldest first: the pod that answered, or null when it failed. */
  latest: { t: number; pod: string | null; ok: boolean }[];
};
/** The figure's detail (FigureDef.detail): FrozenDetail under its key. */
type Detail = { frozen: FrozenDetail };

const cpUp = (f: Frame): boolean =>
  f.controlPlane.apiserver && f.controlPlane.etcd && f.controlPlane.scheduler && f.controlPlane.controllerManager;
const detailOf = (d: Detail | null): FrozenDetail | null => (d?.frozen ? d.frozen : null);
const seconds = (f: Frame, m: DemoMemo): number => Math.round((f.t - Number(m.at)) / 1000);

/** web's endpoints in etcd and in node-1's rules, and the client's counts. */
function frozenDetailOf(cluster: Cluster, frame: Frame): FrozenDetail {
  const w = cluster.world.state;
  const proxy = kubeProxyStateOf(w, CLIENT_NODE);
  const rules = new Map<string, { pod: string; node: string }>();
  for (const s of proxy?.synced?.slices ?? []) {
    if (s.metadata?.namespace !== 'default' || s.metadata?.labels?.['kubernetes.io/service-name'] !== WEB) continue;
    // kube-proxy sends new connections only to ready endpoints (a terminating one only when none is ready).
    for (const e of s.endpoints ?? [])
      if (e.conditions?.ready !== false)
        rules.set(e.addresses[0] ?? '', { pod: e.targetRef?.name ?? '', node: e.nodeName ?? '' });
  }
  const slice = sliceEndpointsOf(cluster, WEB).filter((e) => e.ready);
  const ips = [...new Set([...slice.map((e) => e.ip), ...rules.keys()])].sort();
  const endpoints = ips.map((ip) => {
    const s = slice.find((e) => e.ip === ip);
    const r = rules.get(ip);
    return { ip, pod: s?.pod ?? r?.pod ?? '', node: s?.node ?? r?.node ?? '', inSlice: !!s, inRules: !!r };
  });
  const c = trafficClientStateOf(w);
  const counts = Object.values(c?.counts ?? {});
  const ok = counts.reduce((n, x) => n + x.ok, 0);
  return {
    controlPlane: cpUp(frame),
    syncedAt: proxy?.synced?.at ?? null,
    watching: !!proxy?.services.watchId && !!proxy?.slices.watchId,
    endpoints,
    sent: c?.sent ?? 0,
    ok,
    failed: (c?.sent ?? 0) - ok,
    latest: (c?.latest ?? []).map((h) => ({ t: h.t, pod: h.ok ? h.pod : null, ok: h.ok })),
  };
}

/** The client's counts into the memo on a beat's first look after the press (a demo's start sees only the frame). Returns false. */
function base(m: DemoMemo, d: FrozenDetail | null): false {
  if (m.ok === undefined && d) Object.assign(m, { ok: d.ok, failed: d.failed, synced: d.syncedAt ?? -1 });
  return false;
}

/** What the client saw since the memo was taken, kept in the memo for the beat's text (which sees the frame and memo only). Returns true. */
function hold(m: DemoMemo, d: FrozenDetail | null): true {
  const ok = (d?.ok ?? 0) - Number(m.ok ?? 0);
  const failed = (d?.failed ?? 0) - Number(m.failed ?? 0);
  const pods = [...new Set((d?.latest ?? []).filter((h) => h.ok && h.pod).map((h) => h.pod!))].sort();
  m.saw = `${count(ok, 'request')} answered and ${failed ? `${failed} failed` : 'none failed'}`;
  m.pods = listOf(pods);
  m.same = d && Number(m.synced) === d.syncedAt ? 1 : 0;
  return true;
}

/** kubectl creates web and its Service; the widget opens once the client has been answered. */
const setup: DemoDef<Detail> = {
  id: 'setup',
  label: () => `Create ${WEB} and its Service`,
  unavailable: (f) => (webOf(f) ? `The Deployment ${WEB} exists already.` : null),
  start: () => ({
    actions: [
      { type: 'apply', name: WEB, image: WEB_IMAGE, replicas: REPLICAS },
      { type: 'expose', name: WEB, port: PORT },
    ],
    memo: {},
    intro: `kubectl creates the Deployment ${WEB} (${count(REPLICAS, 'replica')} of ${WEB_IMAGE}) and the Service ${WEB} on port ${PORT}; a client on ${CLIENT_NODE} calls the Service once a second.`,
    beats: [
      {
        when: (f, _m, detail) => {
          const d = detailOf(detail());
          return (
            webSettled(f, REPLICAS) &&
            !!d &&
            d.endpoints.filter((e) => e.inRules).length === REPLICAS &&
            d.latest.length > 0 &&
            d.latest[d.latest.length - 1].ok
          );
        },
        text: (f) =>
          `${WEB} runs ${count(REPLICAS, 'pod')} of ReplicaSet ${webOf(f)!.replicaSets[0].name}: ${listOf(readyPodsOf(f).map((p) => `${p.name} on ${p.node}`))}. kube-proxy on ${CLIENT_NODE} has written their addresses into its rules, and the client is answered.`,
      },
    ],
  }),
};

/** Stop the control plane, or start it again: the widget's one action. */
const controlPlane: DemoDef<Detail> = {
  id: 'control-plane',
  label: (f) => (f.controlPlane.apiserver ? 'Stop the control plane' : 'Start the control plane'),
  unavailable: (f) => (webOf(f) ? null : `Create ${WEB} first.`),
  start: (f): DemoStart<Detail> => {
    if (f.controlPlane.apiserver) {
      return {
        actions: [{ type: 'control-plane', action: 'stop' }],
        memo: { at: f.t },
        intro:
          "The API server, etcd, the scheduler and the controller-manager stop. kube-proxy's watches break; the rules it last synced stay in every node's kernel.",
        beats: [
          {
            when: (g, m, detail) =>
              base(m, detailOf(detail())) || (g.t - Number(m.at) >= OUTAGE_LOOK_MS && hold(m, detailOf(detail()))),
            text: (g, m) =>
              `${seconds(g, m)} s into the outage the client has had ${m.saw}, from ${m.pods}, through ${CLIENT_NODE}'s rules as kube-proxy ${Number(m.same) ? `synced them ${Math.round((Number(m.at) - Number(m.synced)) / 1000)} s before the outage` : 'last synced them'}.`,
          },
        ],
      };
    }
    return {
      actions: [{ type: 'control-plane', action: 'start' }],
      memo: { at: f.t },
      intro:
        "etcd, the API server, the scheduler and the controller-manager start again; kube-proxy's watches reconnect and list what they missed.",
      beats: [
        {
          when: (g, m, detail) =>
            base(m, detailOf(detail())) || (cpUp(g) && !!detailOf(detail())?.watching && hold(m, detailOf(detail()))),
          text: (g, m) =>
            `${seconds(g, m)} s after the restart kube-proxy on ${CLIENT_NODE} watches again and lists the same ${count(readyPodsOf(g).length, 'endpoint')}: ${Number(m.same) ? 'nothing changed, so it has no rule to rewrite' : 'it rewrites its rules'}. The client had ${m.saw} meanwhile.`,
        },
      ],
    };
  },
};

/** The `frozen-endpoints` widget: a client served by frozen rules while the control plane is down. */
export const frozenEndpointsWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'frozen-endpoints',
  title: 'Answered while the control plane is down',
  options: { seed: 1, nodes: 3 },
  addons: () => [
    kubeProxyAddon({ mode: 'iptables' }),
    trafficClientAddon({ node: CLIENT_NODE, namespace: 'default', service: WEB }),
  ],
  demos: [setup, controlPlane],
  story: ['setup', 'control-plane', 'control-plane'],
  opening: 1,
  leavesOut: [
    `The widget opens with web and its Service running; the client is a process on ${CLIENT_NODE} that opens one connection a second to the Service's ClusterIP through ${CLIENT_NODE}'s rules.`,
    "kube-proxy runs in iptables mode; the rules themselves are printed by the networking chapter's figure and its terminal.",
    'The whole control plane stops at once; no pod changes during the outage, so the frozen rules are still right (the big figure below lets a node die meanwhile).',
  ],
  detail: (cluster, frame) => ({ frozen: frozenDetailOf(cluster, frame) }),
};
