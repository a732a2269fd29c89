// The `service-address` widget (the networking chapter): a Service is an address that outlives its
// pods. The chapter's example runs (web's three pods with port 80, `kubectl expose`, the pod client):
// the API server stores the Service with a ClusterIP from the Service range, the EndpointSlice
// controller lists the pods' IPs, and a connection from client to the ClusterIP is rewritten by its
// node's rules to one of them. The reader deletes the pod that answered: the ReplicaSet controller
// makes a new pod with a new IP, the EndpointSlice follows, and the ClusterIP stays what it was.
// Every address the picture shows is read from the store; each connection is the one client would
// make at that moment, run on a copy of the pod network's tables so that looking changes nothing.
import type { Pod, Service } from 'kubernetes-types/core/v1';
import { storeGet, type Stored } from '../view/stored.ts';
import { storeKey } from '../api/resources.ts';
import type { Cluster } from '../cluster.ts';
import { connect } from '../net/data-path.ts';
import { podNetworkStateOf } from '../net/pod-network.ts';
import type { DemoDef, FigureDef } from './demo.ts';
import { figureActions } from './figure-actions.ts';
import { kubeProxyRulesOf } from '../kube-proxy/reader.ts';
import { CLIENT, CLIENT_IMAGE, picksOf, serviceDnsAddons } from './service-web.ts';
import { serviceRuleLines } from './traffic-figure.ts';
import { livePodsOf, readyPodsOf, WEB, WEB_IMAGE, webOf } from './widget-web.ts';

/** web's replicas and port, as the chapter's `kubectl create deployment web … --replicas=3 --port=80` gives them. */
const REPLICAS = 3;
const PORT = 80;

/** One endpoint of web's EndpointSlices: the pod it stands for, its address, node and ready condition. */
type AddressEndpoint = {
  pod: string;
  ip: string;
  node: string;
  ready: boolean;
};

/** What the picture draws: the Service web's ClusterIP and selector, its endpoints, and the connection client would make now. */
export type AddressDetail = {
  clusterIP: string | null;
  selector: string | null;
  endpoints: AddressEndpoint[];
  /** client → ClusterIP:80 now: the pod that answered and the address the rules sent it to, or how it failed. */
  connect: {
    ok: boolean;
    pod: string | null;
    endpoint: string | null;
    node: string | null;
    error: string | null;
  } | null;
  /** The client's node, whose rules the connection walks. */
  node: string | null;
  /** The addresses that node's KUBE-SVC chain for web sends new connections to, each with its share. */
  shares: { ip: string; share: number }[];
};
/** The figure's detail (FigureDef.detail): AddressDetail under its key. */
type Detail = { address: AddressDetail };

type Store = Cluster['world']['state']['store'];
const get = <T>(store: Store, resource: string, name: string): T | undefined =>
  storeGet(store, resource, storeKey(resource, 'default', name)) as T | undefined;

/** web's endpoints, from its EndpointSlices in the store, in address order of the slices. */
function endpointsOf(store: Store): AddressEndpoint[] {
  const out: AddressEndpoint[] = [];
  for (const s of Object.values(store.objects.endpointslices ?? {}) as Stored<'endpointslices'>[]) {
    if (s.metadata?.namespace !== 'default' || s.metadata?.labels?.['kubernetes.io/service-name'] !== WEB) continue;
    for (const e of s.endpoints ?? [])
      out.push({
        pod: e.targetRef?.name ?? '',
        ip: e.addresses[0] ?? '',
        node: e.nodeName ?? '',
        ready: e.conditions?.ready !== false,
      });
  }
  return out;
}

/** The Service web as the store holds it, its endpoints, and client's connection to its ClusterIP (on a copy of the network's state). */
function addressOf(cluster: Cluster): AddressDetail {
  const w = cluster.world.state;
  const svc = get<Service>(w.store, 'services', WEB);
  const sel = svc?.spec?.selector;
  const d: AddressDetail = {
    clusterIP: svc?.spec?.clusterIP ?? null,
    selector: sel
      ? Object.entries(sel)
          .map(([k, v]) => `${k}=${v}`)
          .join(',')
      : null,
    endpoints: endpointsOf(w.store),
    connect: null,
    node: null,
    shares: [],
  };
  const client = get<Pod>(w.store, 'pods', CLIENT);
  const net = podNetworkStateOf(w);
  d.node = client?.spec?.nodeName ?? null;
  const rules = d.node ? kubeProxyRulesOf(w, d.node, 'iptables-save') : undefined;
  d.shares = rules
    ? picksOf(serviceRuleLines(rules, 'default', WEB)).map((p) => ({
        ip: p.endpoint.slice(0, p.endpoint.lastIndexOf(':')),
        share: p.share,
      }))
    : [];
  if (!d.clusterIP || !net || client?.status?.phase !== 'Running') return d;
  const c = connect(w, structuredClone(net), {
    from: { pod: { namespace: 'default', name: CLIENT } },
    dstIP: d.clusterIP,
    dstPort: PORT,
  });
  d.connect = {
    ok: c.ok,
    pod: c.served?.pod ?? null,
    endpoint: c.endpoint ?? null,
    node: c.served?.node ?? null,
    error: c.ok ? null : (c.error ?? null),
  };
  return d;
}

const detailOf = (d: Detail | null): AddressDetail | null => (d?.address ? d.address : null);

/** The chapter's example: web with port 80, its Service and client; the story pauses once client reaches a pod through the ClusterIP. */
const setup: DemoDef<Detail> = {
  id: 'setup',
  label: () => `Create ${WEB}, its Service and ${CLIENT}`,
  unavailable: (f) => (webOf(f) ? `The Deployment ${WEB} exists already.` : null),
  start: () => ({
    actions: [
      {
        type: 'create-deployment',
        name: WEB,
        image: WEB_IMAGE,
        replicas: REPLICAS,
        file: { container: { ports: [{ containerPort: PORT }] }, note: `--port=${PORT}` },
      },
      { type: 'expose', name: WEB, port: PORT },
      { type: 'run-pod', pod: { name: CLIENT, image: CLIENT_IMAGE, cpu: '100m', memory: '64Mi' } },
    ],
    memo: {},
    intro: `kubectl creates the Deployment ${WEB} (${REPLICAS} pods listening on port ${PORT}), exposes it as the Service ${WEB}, and runs the pod ${CLIENT}.`,
    beats: [
      {
        when: (f, m, detail) => {
          const d = detailOf(detail());
          if (
            readyPodsOf(f).length !== REPLICAS ||
            !f.pods.some((p) => p.name === CLIENT && p.ready) ||
            !d?.connect?.ok ||
            d.endpoints.filter((e) => e.ready).length !== REPLICAS
          )
            return false;
          m.ip = d.clusterIP ?? '';
          m.pod = d.connect.pod ?? '';
          m.to = d.connect.endpoint ?? '';
          return true;
        },
        text: (_f, m) =>
          `The Service ${WEB} has the ClusterIP ${m.ip}, and its EndpointSlice lists the three pods' IPs. A connection from ${CLIENT} to ${m.ip}:${PORT} is rewritten by its node's rules to ${m.to}, ${m.pod}.`,
      },
    ],
  }),
};

/** kubectl delete pod: web's pod on node-1 goes, and a new one takes its place with a new IP. */
const replace: DemoDef<Detail> = {
  id: 'replace',
  label: () => `Delete ${WEB}'s pod on node-1`,
  unavailable: (f) =>
    !readyPodsOf(f).some((p) => p.node === 'node-1') || livePodsOf(f).length !== REPLICAS
      ? `Wait until ${WEB}'s ${REPLICAS} pods run.`
      : f.controlPlane.apiserver
        ? null
        : 'The API server is stopped.',
  start: (f) => {
    const pod = readyPodsOf(f).find((p) => p.node === 'node-1')!;
    return {
      actions: [{ type: 'delete-pod', pod: pod.name }],
      memo: {
        pod: pod.name,
        old: pod.ip ?? '',
        ips: readyPodsOf(f)
          .map((p) => p.ip)
          .join(','),
      },
      intro: `kubectl delete pod ${pod.name}: the pod at ${pod.ip} goes away, and the ReplicaSet controller replaces it.`,
      beats: [
        {
          when: (g, m, detail) => {
            const x = detailOf(detail());
            const fresh = x?.endpoints.find((e) => e.ready && !String(m.ips).split(',').includes(e.ip));
            if (
              !x?.connect?.ok ||
              !fresh ||
              readyPodsOf(g).length !== REPLICAS ||
              x.endpoints.some((e) => e.pod === m.pod) ||
              !x.shares.some((r) => r.ip === fresh.ip)
            )
              return false;
            m.newPod = fresh.pod;
            m.newIP = fresh.ip;
            m.now = x.clusterIP ?? '';
            return true;
          },
          text: (_g, m) =>
            `${m.newPod} replaces ${m.pod} with a new IP, ${m.newIP} (was ${m.old}); the EndpointSlice lists it and kube-proxy has rewritten the rules. The ClusterIP is still ${m.now}: ${CLIENT} never had to know.`,
        },
      ],
    };
  },
};

/** The `service-address` widget: a ClusterIP in front of pods that come and go. */
export const serviceAddressWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'service-address',
  title: 'A Service is an address',
  options: { seed: 1, nodes: 3 },
  // kube-proxy (the pod network with it) and CoreDNS, as the traffic figure runs them, without its client.
  addons: serviceDnsAddons,
  demos: [setup, replace],
  story: ['setup', 'replace'],
  opening: 1,
  leavesOut: [
    `The widget opens with the chapter's example running: ${WEB}'s three pods, the Service ${WEB} and the pod ${CLIENT}.`,
    `Each step shows the connection ${CLIENT} would open at that moment; the rules' random draw picks the pod, and the last column is the share of new connections each pod gets from ${CLIENT}'s node.`,
    "Pod IPs come from each node's podCIDR (10.244.N.0/24) in order, as a simple CNI plugin hands them out; real plugins choose differently.",
  ],
  detail: (cluster) => ({ address: addressOf(cluster) }),
};
