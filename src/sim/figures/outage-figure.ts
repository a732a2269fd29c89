// The `outage` figure: the whole control plane stops. A client on node-1 keeps calling the Service
// through kube-proxy's rules (the networking chapter's data path) and keeps getting answers, because
// the rules kube-proxy last synced and the containers need no API server; kubectl is refused
// with its real message; a node dies in the outage and nothing notices or replaces it until the
// control plane returns, and then the restarted controller starts every node's grace period afresh.
import { KUBECTL_CONNECTION_REFUSED } from '../api/status.ts';
import { nodeStatechartOf, type StatechartView } from '../view/statechart.ts';
import type { Frame, NodeView, PodView } from '../view/types.ts';
import type { DemoBeat, DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { agree, count } from '../view/words.ts';
import { leaseClockOf, serviceEndpointsOf, type LeaseClock, type ServiceEndpoint } from './node-detail.ts';
import type { FigureView } from './protocol.ts';
import { figureActions } from './figure-actions.ts';
import { kubeProxyAddon } from '../kube-proxy/kube-proxy.ts';
import { trafficClientAddon, trafficClientStateOf, type ClientHit } from './traffic-client.ts';

const NAME = 'web';
const IMAGE = 'nginx:1.27';
const PORT = 80;
const REPLICAS = 3;
/** The node that dies during the outage. */
export const DYING = 'node-3';
/** The node the client runs on: its requests go through that node's kube-proxy rules. */
const CLIENT_NODE = 'node-1';
/** How many of the client's latest requests the panel lists. */
const CLIENT_SHOWN = 8;
/** Time given to the EndpointSlice controller after the pods are ready (it writes within milliseconds). */
const SLICE_SETTLE_MS = 1000;

const web = (f: Frame) => f.deployments.find((d) => d.name === NAME && d.namespace === 'default');
const webPods = (f: Frame): PodView[] =>
  [...f.pending, ...f.pods].filter((p) => p.owner?.startsWith(`ReplicaSet/${NAME}-`));
const live = (f: Frame) => webPods(f).filter((p) => !p.terminating);
const ready = (f: Frame) => live(f).filter((p) => p.ready && p.phase === 'Running');
const dying = (f: Frame): NodeView | undefined => f.nodes.find((n) => n.name === DYING);
const cpUp = (f: Frame) =>
  f.controlPlane.apiserver && f.controlPlane.etcd && f.controlPlane.controllerManager && f.controlPlane.scheduler;
const answered = (d: OutageDetail | null): boolean => !!d?.client[0]?.ok;
const secondsSince = (f: Frame, m: DemoMemo) => Math.round((f.t - Number(m.at)) / 1000);

const apply: DemoDef<OutageDetail> = {
  id: 'apply',
  label: () => 'Apply web and its Service',
  unavailable: (f) =>
    web(f) ? 'The Deployment web exists already.' : f.controlPlane.apiserver ? null : 'The API server is down.',
  start: () => ({
    actions: [
      { type: 'apply', name: NAME, image: IMAGE, replicas: REPLICAS },
      { type: 'expose', name: NAME, port: PORT },
    ],
    memo: {},
    intro: `kubectl creates the Deployment ${NAME} (${REPLICAS} replicas of ${IMAGE}) and the Service ${NAME} on port ${PORT}. A client starts calling the Service once a second.`,
    beats: [
      {
        when: (f) => ready(f).length >= REPLICAS,
        text: (f) =>
          `${count(ready(f).length, 'pod')} of ${NAME} ${agree(ready(f).length, 'is', 'are')} ready on ${[...new Set(ready(f).map((p) => p.node))].join(', ')}.`,
        // Remembered so the next beat can wait for the EndpointSlice controller, which writes just after.
        then: (f, m) => {
          m.readyAt = f.t;
          return [];
        },
      },
      {
        // Once kube-proxy has synced the slice into the rules and the client has had an answer through them.
        when: (f, m, detail) => f.t >= Number(m.readyAt) + SLICE_SETTLE_MS && answered(detail()),
        text: () =>
          `The EndpointSlice controller has listed their addresses for the Service ${NAME}, and every node's kube-proxy has written them into its rules: the client's requests now reach one of them.`,
      },
    ],
  }),
};

const controlPlane: DemoDef<OutageDetail> = {
  id: 'control-plane',
  label: (f) => (f.controlPlane.apiserver ? 'Stop the control plane' : 'Start the control plane'),
  unavailable: () => null,
  start: (f): DemoStart<OutageDetail> => {
    if (f.controlPlane.apiserver) {
      return {
        actions: [{ type: 'control-plane', action: 'stop' }],
        memo: { at: f.t },
        intro:
          'The scheduler, the controller-manager, the API server and etcd stop. Nothing on the nodes depends on them from one moment to the next: the kubelets keep their containers running, and the nodes keep the Service rules they were last given.',
        beats: [
          {
            when: (g, m) => g.t - Number(m.at) >= 30_000,
            text: (g, m) =>
              `${secondsSince(g, m)} s into the outage: ${
                ready(g).length
                  ? `${count(ready(g).length, 'pod')} of ${NAME} still ${agree(ready(g).length, 'runs and answers', 'run and answer')} the client.`
                  : `no pod of ${NAME} was ready, so the client gets no answer, outage or not.`
              } The kubelets' Lease renewals are refused, but nobody is left to count them as missed.`,
          },
        ],
      };
    }
    const dead = f.nodes.filter((n) => !n.powered).map((n) => n.name);
    return {
      actions: [{ type: 'control-plane', action: 'start' }],
      memo: {
        at: f.t,
        dead: dead.join(','),
        pods: live(f)
          .filter((p) => dead.includes(p.node ?? ''))
          .map((p) => p.name)
          .join(','),
      },
      intro:
        "etcd, the API server, the controller-manager and the scheduler start again. The scheduler takes back the Lease it handed in; the new controller-manager waits until the old one's Lease has gone 15 s unrenewed, then every controller lists what is in etcd before it acts; the node-lifecycle controller remembers nothing, so it gives every node a fresh grace period from now.",
      beats: restartBeats(dead.length > 0),
    };
  },
};

/** After the restart: with a node dead, its whole grace period, taint and toleration count from the restart. */
function restartBeats(someDead: boolean): DemoBeat<OutageDetail>[] {
  if (!someDead) {
    return [
      {
        when: (g) => g.nodes.every((n) => n.ready === 'True') && cpUp(g),
        text: (g) =>
          `The kubelets renew their Leases again: ${count(g.nodes.filter((n) => n.ready === 'True').length, 'node')} Ready, nothing to catch up on.`,
      },
    ];
  }
  const deadNode = (g: Frame, m: DemoMemo) => g.nodes.find((n) => n.name === String(m.dead).split(',')[0]);
  const gone = (g: Frame, m: DemoMemo) =>
    String(m.pods)
      .split(',')
      .filter(Boolean)
      .every((name) => {
        const p = webPods(g).find((x) => x.name === name);
        return !p || p.terminating;
      });
  return [
    {
      when: (g, m) => deadNode(g, m)?.ready === 'Unknown',
      text: (g, m) =>
        `${secondsSince(g, m)} s after the restart, not after ${deadNode(g, m)!.name} died, the controller sets its Ready condition to Unknown: the grace period started afresh when the controller did.`,
    },
    {
      when: (g, m) =>
        !!deadNode(g, m)?.taints.some((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute'),
      text: (g, m) =>
        `${deadNode(g, m)!.name} is tainted node.kubernetes.io/unreachable:NoExecute; its pods' 300 s tolerations start counting now.`,
    },
    {
      when: gone,
      text: (g, m) =>
        String(m.pods)
          ? `${secondsSince(g, m)} s after the restart the taint-eviction controller deletes ${String(m.pods).split(',').join(', ')}, ${String(m.pods).includes(',') ? 'which have' : 'which has'} served nobody since the node died.`
          : `${deadNode(g, m)!.name} ran no pod of ${NAME}; nothing is evicted.`,
    },
    {
      when: (g, m) =>
        gone(g, m) &&
        ready(g).filter(
          (p) =>
            !String(m.dead)
              .split(',')
              .includes(p.node ?? ''),
        ).length >= (web(g)?.replicas ?? 0),
      text: (g) =>
        `The ReplicaSet controller has replaced them: ${ready(g).length} of ${web(g)?.replicas ?? 0} pods ready on healthy nodes, and the EndpointSlice lists only those. Everything has caught up.`,
    },
  ];
}

const getPods: DemoDef<OutageDetail> = {
  id: 'get',
  label: () => 'kubectl get pods',
  unavailable: () => null,
  start: (f) => ({
    actions: [{ type: 'get', resource: 'pods' }],
    memo: {},
    intro: f.controlPlane.apiserver
      ? `kubectl lists the pods: ${count(webPods(f).length, 'pod')} of ${NAME}.`
      : `kubectl cannot reach the API server, and says so: "${KUBECTL_CONNECTION_REFUSED}" Reading fails as writing does; the cluster runs on, out of reach.`,
    beats: [],
  }),
};

const nodeDies: DemoDef<OutageDetail> = {
  id: 'node',
  label: (f) => (dying(f)?.powered === false ? `Power ${DYING} on` : `${DYING} dies`),
  unavailable: (f) => (dying(f) ? null : `This cluster has no ${DYING}.`),
  start: (f): DemoStart<OutageDetail> => {
    if (dying(f)?.powered === false) {
      return {
        actions: [{ type: 'node', node: DYING, action: 'start' }],
        memo: {},
        intro: `${DYING} boots and its kubelet renews the Lease again.`,
        beats: f.controlPlane.apiserver
          ? [
              {
                when: (g) => dying(g)?.ready === 'True',
                text: () => `${DYING} is Ready again, and empty: its pods were replaced elsewhere.`,
              },
            ]
          : [],
      };
    }
    const mine = live(f).filter((p) => p.node === DYING);
    const outage = !f.controlPlane.apiserver;
    return {
      actions: [{ type: 'node', node: DYING, action: 'stop' }],
      memo: { at: f.t },
      intro: outage
        ? `${DYING} loses power${mine.length ? `, and with it ${mine.map((p) => p.name).join(', ')}` : ''}. With the control plane down, nobody can notice.`
        : `${DYING} loses power; its Lease stops being renewed.`,
      beats: outage
        ? [
            {
              when: (g, m) => g.t - Number(m.at) >= 60_000 || g.controlPlane.apiserver,
              text: (g, m) => {
                if (g.controlPlane.apiserver)
                  return `${secondsSince(g, m)} s later the control plane is back; until now nothing could notice that ${DYING} died.`;
                const listed = ready(g).length;
                const onDead = ready(g).filter((p) => p.node === DYING).length;
                const state = `${secondsSince(g, m)} s later, etcd still says ${DYING} is Ready=${dying(g)!.ready} and ${count(listed, 'pod')} of ${NAME} ${agree(listed, 'is', 'are')} ready: nothing can write the change.`;
                // Only a dead node that held listed addresses loses the client requests; say nothing of a share of none.
                const lost = onDead
                  ? ` The nodes' rules still include the ${count(onDead, 'address')} on ${DYING}, so about ${onDead} in ${listed} of the client's requests now go nowhere.`
                  : listed
                    ? ` No ready pod of ${NAME} was on ${DYING}, so the client's requests still find an answer.`
                    : '';
                return `${state}${lost} No replacement is made.`;
              },
            },
          ]
        : [],
    };
  },
};

/** One request of the client: when, the endpoint node-1's rules picked (null when none matched), and whether it answered. */
export interface ClientRequest {
  t: number;
  to: string | null;
  ok: boolean;
}

/** The client's latest requests, newest first, as the data path ended them (traffic-client.ts). */
function clientRequestsOf(latest: readonly ClientHit[]): ClientRequest[] {
  return latest
    .slice(-CLIENT_SHOWN)
    .reverse()
    .map((h) => ({ t: h.t, to: h.endpoint, ok: h.ok }));
}

/** The outage figure's own data: node-3's statechart and Lease clock, the Service web's endpoints and the client's latest requests. */
export interface OutageDetail {
  chart: StatechartView;
  clock: LeaseClock;
  service: { name: string; port: number; clusterIP: string | null; endpoints: ServiceEndpoint[] };
  client: ClientRequest[];
}

/** What the outage figure's widget draws. */
export type OutageView = FigureView<OutageDetail>;

/** The `outage` figure (the control-plane-outage chapter). */
export const outageFigure: FigureDef<OutageDetail> = {
  actions: figureActions,
  id: 'outage',
  title: 'The control plane goes down, live',
  options: { seed: 1, nodes: 3 },
  addons: () => [
    kubeProxyAddon({ mode: 'iptables' }),
    trafficClientAddon({ node: CLIENT_NODE, namespace: 'default', service: NAME }),
  ],
  demos: [apply, controlPlane, getPods, nodeDies],
  story: ['apply', 'control-plane', 'get', 'node', 'control-plane'],
  leavesOut: [
    `The client is a process on ${CLIENT_NODE} that opens one connection a second to the Service's ClusterIP; ${CLIENT_NODE}'s kube-proxy (iptables mode) picks an endpoint at random from the seeded stream, and the pod network carries it as the networking chapter's figure does. Its table lists the EndpointSlice in etcd, which nothing can change during the outage.`,
    'The whole control plane stops at once and is a single instance: no second API server, no etcd quorum to lose.',
    "The scheduler and the controller-manager each hold a leader-election Lease with no standby to take it. One that cannot renew its Lease for 10 s exits; its static pod's kubelet starts it again a second later (no CrashLoopBackOff is counted), and the new process starts its informers only once it leads, not before.",
    'Only kubectl get pods is offered during the outage; every other kubectl command is refused the same way.',
  ],
  detail: (cluster, frame) => {
    const svc = serviceEndpointsOf(cluster, NAME);
    return {
      chart: nodeStatechartOf(cluster.world.state, DYING),
      clock: leaseClockOf(cluster, frame, DYING),
      service: { name: NAME, port: PORT, ...svc },
      client: clientRequestsOf(trafficClientStateOf(cluster.world.state)?.latest ?? []),
    };
  },
};
