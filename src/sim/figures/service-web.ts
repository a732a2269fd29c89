// What the networking chapter's inline widgets share: the Deployment web with a readiness probe behind
// the Service web, on a cluster whose nodes run kube-proxy (iptables mode), and what they read of it:
// each endpoint of web's EndpointSlices with its three conditions, and node-1's nat rules for web
// with the probability each KUBE-SVC rule matches with, as kube-proxy wrote them.
import type { Cluster } from '../cluster.ts';
import type { Stored } from '../view/stored.ts';
import type { Frame } from '../view/types.ts';
import { count, listOf } from '../view/words.ts';
import type { DemoDef } from './demo.ts';
// The widgets reach the networking code only through the traffic figure's definition (its add-ons, its
// panel's reading of node-1's rules): the worker then keeps one networking chunk, the traffic figure's,
// which the widgets load too. Importing kube-proxy here would split that chunk into a shared one and a
// traffic-only one, about 0.6 KB gzip of glue more on the traffic figure (check-budget.mjs).
import { trafficFigure } from './traffic-figure.ts';
import { livePodsOf, readyPodsOf, WEB, WEB_IMAGE, webOf } from './widget-web.ts';

/** The port web's pods listen on and the Service forwards (its targetPort defaults to it). */
export const PORT = 80;
/** The node whose rules the widgets print: the traffic figure's client node, whose rules its panel reads. */
export const RULES_NODE = 'node-1';
/** The client pod, as the networking chapter names it, and its image. */
export const CLIENT = 'client';
export const CLIENT_IMAGE = 'curlimages/curl:8.11.0';
/** web's container as its manifest has it: the port, and a readiness probe the reader can make fail. */
const CONTAINER = { ports: [{ containerPort: PORT }], readinessProbe: { httpGet: { path: '/', port: PORT } } };

/** One endpoint of web's EndpointSlices, with the three conditions the controller derives from its pod. */
type EndpointRow = {
  ip: string;
  pod: string;
  node: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
};

/** One rule of web's KUBE-SVC chain on node-1: the endpoint it sends to, its KUBE-SEP chain, and its match. */
type PickRow = {
  endpoint: string;
  chain: string;
  /** The statistic match as printed (`0.3333333333`), or null on the last rule, which takes the rest. */
  probability: string | null;
  /** The share of all new connections it gets: its probability times what the rules before it left. */
  share: number;
};

/** What the networking widgets read beside the Frame (node-1's rules as the picks they make: the lines themselves stay in the worker). */
export type ServiceWebDetail = {
  endpoints: EndpointRow[];
  picks: PickRow[];
};

/** web's endpoints as its EndpointSlices (label kubernetes.io/service-name=web) list them, by address. */
export function endpointRowsOf(cluster: Cluster): EndpointRow[] {
  const bucket = cluster.world.state.store.objects.endpointslices ?? {};
  const rows: EndpointRow[] = [];
  for (const key of Object.keys(bucket).sort()) {
    const s = bucket[key] as Stored<'endpointslices'>;
    if (s.metadata?.namespace !== 'default' || s.metadata?.labels?.['kubernetes.io/service-name'] !== WEB) continue;
    for (const e of s.endpoints ?? []) {
      // The API's conditions are pointers: an unset one reads as its documented default (ready, serving: true when unset).
      rows.push({
        ip: e.addresses[0] ?? '',
        pod: e.targetRef?.name ?? '',
        node: e.nodeName ?? '',
        ready: e.conditions?.ready !== false,
        serving: e.conditions?.serving !== false,
        terminating: e.conditions?.terminating === true,
      });
    }
  }
  return rows.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
}

/** The KUBE-SVC chain's endpoint rules in order, each with its probability and the share of connections that gives it. */
export function picksOf(rules: string[]): PickRow[] {
  let left = 1;
  const out: PickRow[] = [];
  for (const l of rules) {
    if (!l.startsWith('-A KUBE-SVC-')) continue;
    const chain = / -j (KUBE-SEP-[A-Z0-9]+)$/.exec(l)?.[1];
    if (!chain) continue;
    const probability = / --probability (\S+)/.exec(l)?.[1] ?? null;
    const p = probability === null ? 1 : Number(probability);
    out.push({ endpoint: / -> (\S+?)"/.exec(l)?.[1] ?? '', chain, probability, share: left * p });
    left *= 1 - p;
  }
  return out;
}

/** The widgets' detail: web's endpoints with their conditions, and the picks node-1's rules for web make. */
export function serviceWebDetailOf(cluster: Cluster, frame: Frame): ServiceWebDetail {
  // The traffic figure's panel data: node-1's `iptables-save -t nat` lines for the Service web.
  const rules = trafficFigure.detail!(cluster, frame).rules;
  return { endpoints: endpointRowsOf(cluster), picks: picksOf(rules) };
}

/** A beat's `detail()` as the readers below take it (null until there is one). */
export const serviceWebOf = (d: ServiceWebDetail | null): ServiceWebDetail | null => (d ? d : null);

/** The addresses node-1's rules send new connections to. */
export const ruleTargetsOf = (d: ServiceWebDetail | null): string[] =>
  (d?.picks ?? []).map((p) => p.endpoint.slice(0, p.endpoint.lastIndexOf(':')));

/** web settled behind its Service: `replicas` pods Ready, and node-1's rules name exactly their addresses. */
export function serviceSettled(f: Frame, d: ServiceWebDetail | null, replicas: number): boolean {
  const w = webOf(f);
  if (!w || w.replicas !== replicas || readyPodsOf(f).length !== replicas || livePodsOf(f).length !== replicas)
    return false;
  const want = readyPodsOf(f)
    .map((p) => p.ip ?? '')
    .sort()
    .join(',');
  return ruleTargetsOf(d).sort().join(',') === want;
}

/**
 * The add-ons the widgets' clusters run: kube-proxy on every node, in its default iptables mode, as the
 * traffic figure makes it (without its CoreDNS and its client: no request is sent here).
 */
export const serviceWebAddons = () => trafficFigure.addons!().filter((a) => a.name === 'kube-proxy');

/** The same with CoreDNS, as the traffic figure runs it (its pods take node resources): for the widgets a client's name or Service lookup needs. */
export const serviceDnsAddons = () =>
  trafficFigure.addons!().filter((a) => a.name === 'kube-proxy' || a.name === 'coredns');

/** The setup each networking widget's story begins with: web and its Service, paused once node-1's rules list every pod. */
export function serviceSetupDemo(replicas: number): DemoDef<ServiceWebDetail> {
  return {
    id: 'setup',
    label: () => `Create ${WEB} and its Service`,
    unavailable: (f) => (webOf(f) ? `The Deployment ${WEB} exists already.` : null),
    start: () => ({
      actions: [
        {
          type: 'create-deployment',
          name: WEB,
          image: WEB_IMAGE,
          replicas,
          file: {
            container: CONTAINER,
            note: `${count(replicas, 'replica')} of ${WEB_IMAGE}; readiness probe GET / on port ${PORT}`,
          },
        },
        { type: 'expose', name: WEB, port: PORT },
      ],
      memo: {},
      intro: `kubectl creates the Deployment ${WEB} (${count(replicas, 'replica')} of ${WEB_IMAGE}, a readiness probe on port ${PORT}) and the Service ${WEB} in front of it.`,
      beats: [
        {
          when: (f, _m, detail) => serviceSettled(f, serviceWebOf(detail()), replicas),
          text: (f) =>
            `${WEB} runs ${count(replicas, 'pod')} behind the Service ${WEB}: ${listOf(readyPodsOf(f).map((p) => p.name))}, each a ready endpoint in ${RULES_NODE}'s rules.`,
        },
      ],
    }),
  };
}
