// What the DNS judge asks (scripts/oracle/record-dns.ts records the real CoreDNS's answers,
// src/sim/net/real-dns.test.ts compares the simulator's): the queries made from a cluster's
// Namespaces, Services, EndpointSlices and pods, and the stub resolver's search over the answers.
import type { Pod, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { CLUSTER_DOMAIN } from '../net/coredns.ts';
import { podResolvConf, searchCandidates, searchListOf } from '../net/dns.ts';

/** A name looked up through the search path of a pod in `namespace`, and the names its resolver asks. */
export interface DnsLookup {
  namespace: string;
  name: string;
  search: string[];
  candidates: string[];
}

/** What the queries are made from: the objects the CoreDNS plugin holds, and the pods to ask from. */
export interface DnsWorld {
  namespaces: string[];
  services: Service[];
  slices: EndpointSlice[];
  pods: Pod[];
}

const dashed = (ip: string): string => ip.replace(/\./g, '-');
const byName = <T extends { metadata?: { namespace?: string; name?: string } }>(a: T, b: T): number => {
  const ka = `${a.metadata?.namespace}/${a.metadata?.name}`;
  const kb = `${b.metadata?.namespace}/${b.metadata?.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/**
 * The fully qualified names to ask, each once: every Service, every endpoint name of every slice
 * (ready or not, by hostname or dashed address, also under a ClusterIP Service), a pod name per
 * namespace, each namespace and the zone's bare schema names, and names that are malformed or
 * absent; then every candidate of the lookups.
 */
export function dnsQueries(w: DnsWorld, lookups: DnsLookup[]): string[] {
  const z = CLUSTER_DOMAIN;
  const out: string[] = [];
  const add = (n: string) => {
    if (!out.includes(n)) out.push(n);
  };
  for (const s of [...w.services].sort(byName)) add(`${s.metadata!.name}.${s.metadata!.namespace}.svc.${z}`);
  for (const sl of [...w.slices].sort(byName)) {
    const svc = sl.metadata?.labels?.['kubernetes.io/service-name'];
    for (const ep of sl.endpoints ?? [])
      for (const ip of ep.addresses ?? [])
        add(`${ep.hostname ?? dashed(ip)}.${svc}.${sl.metadata!.namespace}.svc.${z}`);
  }
  const seenNs = new Set<string>();
  for (const p of [...w.pods].sort(byName)) {
    const ip = p.status?.podIP;
    if (!ip || seenNs.has(p.metadata!.namespace!)) continue;
    seenNs.add(p.metadata!.namespace!);
    add(`${dashed(ip)}.${p.metadata!.namespace}.pod.${z}`);
  }
  for (const ns of [...w.namespaces].sort()) {
    add(`${ns}.svc.${z}`);
    add(`${ns}.pod.${z}`);
  }
  for (const n of [
    `svc.${z}`,
    `pod.${z}`,
    z,
    `nothere.default.svc.${z}`,
    `kubernetes.nothere.svc.${z}`,
    `web.default.cluster.local.${z}`,
    `not-an-ip.default.pod.${z}`,
    `10-244-1-2.nothere.pod.${z}`,
    `a.b.c.kubernetes.default.svc.${z}`,
    `nothere.kubernetes.default.svc.${z}`,
    `kubernetes.default.nothere.${z}`,
    'example.com',
  ])
    add(n);
  for (const l of lookups) for (const c of l.candidates) add(c);
  return out;
}

/**
 * The lookups a pod makes: every Service by its short name, name.namespace and name.namespace.svc,
 * and names that resolve nowhere, from a pod of each namespace that has one (its search path).
 */
export function dnsLookups(w: DnsWorld): DnsLookup[] {
  const names: string[] = [];
  for (const s of [...w.services].sort(byName))
    names.push(
      s.metadata!.name!,
      `${s.metadata!.name}.${s.metadata!.namespace}`,
      `${s.metadata!.name}.${s.metadata!.namespace}.svc`,
    );
  names.push('nothere', 'default', 'kube-system', 'example.com', `kubernetes.default.svc.${CLUSTER_DOMAIN}.`);
  const out: DnsLookup[] = [];
  const from = new Set<string>();
  for (const p of [...w.pods].sort(byName)) {
    const ns = p.metadata!.namespace!;
    const conf = podResolvConf(p);
    if (ns === 'kube-system' || from.has(ns) || !conf) continue;
    from.add(ns);
    const search = searchListOf(conf);
    for (const name of [...new Set(names)])
      out.push({ namespace: ns, name, search, candidates: searchCandidates(name, search) });
  }
  return out;
}

/** One answer as the judge compares it: the rcode, the A records as a set (sorted), the CNAME target. */
export interface Answer {
  rcode: string;
  a: string[];
  cname?: string;
}

/**
 * glibc's res_search over the answers to its candidates: the first with records wins; a NODATA
 * answer (NOERROR, nothing) does not end the search, but is what it ends with when no name has
 * records; else NXDOMAIN.
 */
export function resSearch(candidates: string[], answerOf: (name: string) => Answer): Answer & { name: string } {
  let nodata: string | undefined;
  for (const c of candidates) {
    const a = answerOf(c);
    if (a.rcode === 'NOERROR' && (a.a.length || a.cname)) return { ...a, name: c };
    if (a.rcode === 'NOERROR' && nodata === undefined) nodata = c;
  }
  return nodata !== undefined
    ? { rcode: 'NOERROR', a: [], name: nodata }
    : { rcode: 'NXDOMAIN', a: [], name: candidates.at(-1)! };
}
