// The `dns-lookup` widget (the networking chapter): the pod `client` looks up
// web.default.svc.cluster.local. Its resolv.conf (the kubelet's, for dnsPolicy ClusterFirst) names
// kube-dns's ClusterIP, 10.96.0.10; the query walks node's rules to a CoreDNS pod, and CoreDNS answers
// from the Services it watches: web's ClusterIP. The reader deletes the Service web and creates it
// again; CoreDNS answers NXDOMAIN, then the new Service's address, and connections to it work once
// kube-proxy has written its rules. Each frame's lookup is the one the client would make at that
// moment: the core's own stub resolver, data path and CoreDNS answer, run on a copy of the pod
// network's tables so that looking changes nothing.
import type { Pod, Service } from 'kubernetes-types/core/v1';
import { storeGet, type Stored } from '../view/stored.ts';
import { storeKey } from '../api/resources.ts';
import type { Cluster } from '../cluster.ts';
import { KUBE_DNS_IP } from '../net/coredns.ts';
import { connect } from '../net/data-path.ts';
import { podResolvConf } from '../net/dns.ts';
import { lookup } from '../net/exec.ts';
import { podNetworkStateOf } from '../net/pod-network.ts';
import type { Frame } from '../view/types.ts';
import type { DemoDef, FigureDef } from './demo.ts';
import { figureActions } from './figure-actions.ts';
import { readyPodsOf, WEB, WEB_IMAGE, webOf } from './widget-web.ts';

import { CLIENT, CLIENT_IMAGE, serviceDnsAddons } from './service-web.ts';

export { CLIENT };
/** The name the client looks up: the Service web's fully qualified name. */
export const QNAME = `${WEB}.default.svc.cluster.local`;
/** web's replicas and port. */
const REPLICAS = 2;
const PORT = 80;

/** One CoreDNS pod as kube-dns's EndpointSlice lists it. */
type DnsServer = {
  pod: string;
  ip: string;
  ready: boolean;
};

/** What the picture draws: the client's nameserver, kube-dns's endpoints, web's ClusterIP in the store, and the lookup and connection the client would make now. */
export type DnsDetail = {
  /** The client's node, or null before it runs. */
  node: string | null;
  /** The nameserver its resolv.conf names. */
  nameserver: string | null;
  servers: DnsServer[];
  /** The Service web's ClusterIP as the API server holds it (null: no such Service). */
  clusterIP: string | null;
  /** The lookup: NOERROR with the address, NXDOMAIN, or the query's failure (refused, timeout). */
  rcode: 'NOERROR' | 'NXDOMAIN' | 'refused' | 'timeout' | 'unreachable' | null;
  address: string | null;
  /** Which CoreDNS pod answered. */
  answeredBy: string | null;
  /** The connection to the answer's address, port 80: the web pod that answered, or how it failed. */
  connect: { ok: boolean; pod: string | null; error: string | null } | null;
};
/** The figure's detail (FigureDef.detail): DnsDetail under its key. */
type Detail = { dns: DnsDetail };

type Store = Cluster['world']['state']['store'];
const get = <T>(store: Store, resource: string, name: string): T | undefined =>
  storeGet(store, resource, storeKey(resource, 'default', name)) as T | undefined;

/** kube-dns's endpoints, from its EndpointSlices in the store. */
function serversOf(store: Store): DnsServer[] {
  const out: DnsServer[] = [];
  for (const s of Object.values(store.objects.endpointslices ?? {}) as Stored<'endpointslices'>[]) {
    if (s.metadata?.namespace !== 'kube-system' || s.metadata?.labels?.['kubernetes.io/service-name'] !== 'kube-dns')
      continue;
    for (const e of s.endpoints ?? [])
      out.push({ pod: e.targetRef?.name ?? '', ip: e.addresses[0] ?? '', ready: e.conditions?.ready !== false });
  }
  return out.sort((a, b) => (a.pod < b.pod ? -1 : 1));
}

/** The client's view of web now: its lookup through the data path and CoreDNS, then a connection to the answer (on a copy of the network's state). */
function dnsOf(cluster: Cluster): DnsDetail {
  const w = cluster.world.state;
  const store = w.store;
  const pod = get<Pod>(store, 'pods', CLIENT);
  const svc = get<Service>(store, 'services', WEB);
  const d: DnsDetail = {
    node: pod?.spec?.nodeName ?? null,
    nameserver: null,
    servers: serversOf(store),
    clusterIP: svc?.spec?.clusterIP ?? null,
    rcode: null,
    address: null,
    answeredBy: null,
    connect: null,
  };
  const conf = pod ? podResolvConf(pod) : undefined;
  d.nameserver = conf ? (/^nameserver (\S+)$/m.exec(conf)?.[1] ?? null) : null;
  const net = podNetworkStateOf(w);
  if (!conf || !net || pod?.status?.phase !== 'Running') return d;
  const copy = structuredClone(net);
  const from = { namespace: 'default', name: CLIENT };
  const r = lookup(w, copy, from, QNAME, conf);
  if (!r.answer) {
    d.rcode = r.error?.error ?? 'timeout';
    return d;
  }
  d.rcode = r.answer.rcode;
  d.address = r.answer.a[0] ?? null;
  // The query's own connection picked the CoreDNS pod; ask again for its name on a fresh copy (the same draw).
  const q = connect(w, structuredClone(net), { from: { pod: from }, dstIP: KUBE_DNS_IP, dstPort: 53, protocol: 'UDP' });
  d.answeredBy = q.served?.pod ?? null;
  if (d.address) {
    const c = connect(w, copy, { from: { pod: from }, dstIP: d.address, dstPort: PORT });
    d.connect = { ok: c.ok, pod: c.served?.pod ?? null, error: c.ok ? null : (c.error ?? null) };
  }
  return d;
}

const detailOf = (d: Detail | null): DnsDetail | null => (d?.dns ? d.dns : null);
/** The client runs and web's pods are Ready. */
const clientRuns = (f: Frame): boolean => f.pods.some((p) => p.name === CLIENT && p.ready);

/** web (2 replicas) and its Service, and the pod client: the story pauses once the client's lookup and connection work. */
const setup: DemoDef<Detail> = {
  id: 'setup',
  label: () => `Create ${WEB}, its Service and ${CLIENT}`,
  unavailable: (f) => (webOf(f) ? `The Deployment ${WEB} exists already.` : null),
  start: () => ({
    actions: [
      { type: 'apply', name: WEB, image: WEB_IMAGE, replicas: REPLICAS },
      { type: 'expose', name: WEB, port: PORT },
      { type: 'run-pod', pod: { name: CLIENT, image: CLIENT_IMAGE, cpu: '100m', memory: '64Mi' } },
    ],
    memo: {},
    intro: `kubectl creates the Deployment ${WEB}, the Service ${WEB} and the pod ${CLIENT}; CoreDNS runs as the DNS add-on, behind kube-dns at ${KUBE_DNS_IP}.`,
    beats: [
      {
        when: (f, m, detail) => {
          const d = detailOf(detail());
          if (
            !clientRuns(f) ||
            readyPodsOf(f).length !== REPLICAS ||
            !d?.servers.length ||
            d.servers.some((x) => !x.ready) ||
            !d.connect?.ok ||
            d.address !== d.clusterIP
          )
            return false;
          m.ip = d.address ?? '';
          m.pod = d.connect.pod ?? '';
          return true;
        },
        text: (_f, m) =>
          `${CLIENT}'s resolv.conf names ${KUBE_DNS_IP} (kube-dns); a CoreDNS pod answers ${QNAME} with ${m.ip}, web's ClusterIP, and a connection to it reaches ${m.pod}.`,
      },
    ],
  }),
};

/** kubectl delete service web, then kubectl expose again: the same name, a new ClusterIP. */
const recreate: DemoDef<Detail> = {
  id: 'recreate',
  label: () => `Recreate the Service ${WEB}`,
  unavailable: (f) =>
    !webOf(f) ? `Create ${WEB} first.` : f.controlPlane.apiserver ? null : 'The API server is stopped.',
  start: (f) => ({
    actions: [
      { type: 'delete-service', name: WEB },
      { type: 'expose', name: WEB, port: PORT },
    ],
    memo: { at: f.t },
    intro: `kubectl delete service ${WEB}, then kubectl expose deployment ${WEB} --port=${PORT}: the same name, and the API server allocates a ClusterIP at random.`,
    beats: [
      {
        when: (g, m, detail) => {
          const d = detailOf(detail());
          if (!m.old) m.old = String(d?.address ?? '');
          if (d?.rcode !== 'NOERROR' || !d.address || d.address === m.old) return false;
          m.ip = d.address;
          m.ms = g.t - Number(m.at);
          m.conn = d.connect?.ok
            ? `and a connection to it already works (${d.connect.pod})`
            : `but a connection to it ${d.connect?.error === 'timeout' ? 'is lost' : `fails (${d.connect?.error ?? 'no answer'})`}: kube-proxy on ${d.node} has no rule for it yet`;
          return true;
        },
        text: (_f, m) =>
          `${m.ms} ms after the delete, CoreDNS has seen the new Service: it answers ${m.ip} (was ${m.old}), ${m.conn}.`,
      },
      {
        when: (g, m, detail) => {
          const d = detailOf(detail());
          if (!d?.connect?.ok || d.address !== m.ip) return false;
          m.pod = d.connect.pod ?? '';
          m.s = ((g.t - Number(m.at)) / 1000).toFixed(1);
          return true;
        },
        text: (_f, m) =>
          `${m.s} s after the delete, kube-proxy has written the rules for ${m.ip}: the connection reaches ${m.pod}. A client that cached ${m.old} sends to an address no rule knows.`,
      },
    ],
  }),
};

/** The `dns-lookup` widget: a name through resolv.conf, kube-dns and CoreDNS to a ClusterIP, and what the client sees when the Service is made again. */
export const dnsLookupWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'dns-lookup',
  title: 'A name becomes a ClusterIP',
  options: { seed: 1, nodes: 3 },
  // kube-proxy (the pod network with it) and CoreDNS, as the traffic figure runs them, without its client.
  addons: serviceDnsAddons,
  demos: [setup, recreate],
  story: ['setup', 'recreate'],
  opening: 1,
  leavesOut: [
    `The widget opens with ${WEB} running behind its Service and ${CLIENT} running; CoreDNS runs as kubeadm installs it, two pods behind kube-dns.`,
    `Each step shows the lookup ${CLIENT} would make at that moment (one A query for the full name) and a connection to the answer; a real resolver would also ask for AAAA records.`,
    'CoreDNS answers from its own watch of Services; its cache plugin (30 s by default) is not modelled.',
  ],
  detail: (cluster) => ({ dns: dnsOf(cluster) }),
};
