// Names: CoreDNS's kubernetes plugin answering A queries from its caches (plugin/kubernetes:
// parse.go, kubernetes.go findServices), a pod's /etc/resolv.conf as the kubelet has it written
// (pkg/kubelet/network/dns/dns.go, containerd's format), and the stub resolver's search through it
// (glibc res_search with ndots).
import type { Pod, Service } from 'kubernetes-types/core/v1';
import { CLUSTER_DOMAIN, KUBE_DNS_IP, type CorednsState } from './coredns.ts';

/** What one A query got: NOERROR with its records (an ExternalName Service answers a CNAME), or NXDOMAIN. */
export interface DnsAnswer { rcode: 'NOERROR' | 'NXDOMAIN'; name: string; a: string[]; cname?: string }

/** The kubelet's defaults for dnsPolicy ClusterFirst (kubeadm's clusterDNS and clusterDomain; ndots from dns.go). */
export const NDOTS = 5;

/**
 * The pod's /etc/resolv.conf for dnsPolicy ClusterFirst (and ClusterFirstWithHostNet, or a
 * host-network pod's ClusterFirst, which falls back to the node's), as the kubelet hands it to the
 * runtime and containerd writes it: the pod's namespace first in the search path. The node's own
 * search domains would follow; the simulated nodes have none. Undefined for the policies that copy
 * the node's file (Default), which is not modelled.
 */
export function podResolvConf(pod: Pod): string | undefined {
  const policy = pod.spec?.dnsPolicy ?? 'ClusterFirst';
  const host = pod.spec?.hostNetwork === true;
  if (policy === 'Default' || (policy === 'ClusterFirst' && host) || policy === 'None') return undefined;
  const ns = pod.metadata?.namespace ?? 'default';
  return `search ${ns}.svc.${CLUSTER_DOMAIN} svc.${CLUSTER_DOMAIN} ${CLUSTER_DOMAIN}\nnameserver ${KUBE_DNS_IP}\noptions ndots:${NDOTS}\n`;
}

/** The search list of a resolv.conf text. */
export function searchListOf(resolvConf: string): string[] {
  const line = resolvConf.split('\n').find((l) => l.startsWith('search '));
  return line ? line.slice('search '.length).split(' ').filter(Boolean) : [];
}

/** The names the stub resolver asks, in order (res_search): the search list first below ndots dots, the name as given first at or above. */
export function searchCandidates(name: string, search: string[], ndots = NDOTS): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  const dots = name.split('.').length - 1;
  const withSearch = search.map((d) => `${name}.${d}`);
  return dots >= ndots ? [name, ...withSearch] : [...withSearch, name];
}

function serviceOf(s: CorednsState, ns: string, name: string): Service | undefined {
  return s.services.items[`${ns}/${name}`];
}

/** A headless Service's ready addresses, slice by slice (CoreDNS serves only ready endpoints), each once. */
function readyAddresses(s: CorednsState, ns: string, svc: string, hostname?: string): string[] {
  const out: string[] = [];
  const slices = Object.values(s.slices.items)
    .filter((x) => x.metadata?.namespace === ns && x.metadata?.labels?.['kubernetes.io/service-name'] === svc && x.addressType === 'IPv4')
    .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  for (const sl of slices) {
    for (const ep of sl.endpoints ?? []) {
      if (ep.conditions?.ready === false) continue;
      for (const ip of ep.addresses ?? []) {
        // An endpoint's own name: its hostname, else its address with dashes (endpointHostname).
        if (hostname !== undefined && hostname !== (ep.hostname ?? ip.replace(/\./g, '-'))) continue;
        if (!out.includes(ip)) out.push(ip);
      }
    }
  }
  return out;
}

const NX = (name: string): DnsAnswer => ({ rcode: 'NXDOMAIN', name, a: [] });

/**
 * The kubernetes plugin's answer to an A query: `svc.ns.svc.cluster.local` is the ClusterIP, or a
 * headless Service's ready endpoints (none: NXDOMAIN, as errNoItems is a name error), or an
 * ExternalName's CNAME; `host.svc.ns.svc.cluster.local` one endpoint of a headless Service;
 * `a-b-c-d.ns.pod.cluster.local` the address in the name (`pods insecure`). Names outside the
 * cluster domain would be forwarded upstream; the simulated cluster has no upstream, so NXDOMAIN.
 */
export function corednsAnswer(s: CorednsState, qname: string): DnsAnswer {
  const name = qname.toLowerCase().replace(/\.$/, '');
  const suffix = `.${CLUSTER_DOMAIN}`;
  if (!name.endsWith(suffix)) return NX(name);
  const labels = name.slice(0, -suffix.length).split('.');
  const kind = labels.at(-1);
  if (kind === 'pod' && labels.length === 3) {
    const ip = labels[0].replace(/-/g, '.');
    return /^\d{1,3}(\.\d{1,3}){3}$/.test(ip) ? { rcode: 'NOERROR', name, a: [ip] } : NX(name);
  }
  if (kind !== 'svc' || (labels.length !== 3 && labels.length !== 4)) return NX(name);
  const [ns, svcName] = [labels.at(-2)!, labels.at(-3)!];
  const svc = serviceOf(s, ns, svcName);
  if (!svc) return NX(name);
  if (labels.length === 4) {
    if (svc.spec?.clusterIP !== 'None') return NX(name);
    const a = readyAddresses(s, ns, svcName, labels[0]);
    return a.length ? { rcode: 'NOERROR', name, a } : NX(name);
  }
  if (svc.spec?.type === 'ExternalName') return { rcode: 'NOERROR', name, a: [], cname: svc.spec.externalName };
  if (svc.spec?.clusterIP === 'None') {
    const a = readyAddresses(s, ns, svcName);
    return a.length ? { rcode: 'NOERROR', name, a } : NX(name);
  }
  return svc.spec?.clusterIP ? { rcode: 'NOERROR', name, a: [svc.spec.clusterIP] } : NX(name);
}

/** A lookup through the search path: the first candidate with an answer, or the last NXDOMAIN (as the name was given). */
export function resolve(s: CorednsState, name: string, search: string[], ndots = NDOTS): DnsAnswer {
  for (const c of searchCandidates(name, search, ndots)) {
    const ans = corednsAnswer(s, c);
    if (ans.rcode === 'NOERROR') return ans;
  }
  return NX(name.replace(/\.$/, ''));
}
