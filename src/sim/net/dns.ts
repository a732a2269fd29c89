// Names: CoreDNS's kubernetes plugin answering A queries from its caches (plugin/kubernetes:
// parse.go, kubernetes.go findServices and findPods; judged by real-dns.test.ts), a pod's /etc/resolv.conf as the kubelet has it written
// (pkg/kubelet/network/dns/dns.go, containerd's format), and the stub resolver's search through it
// (glibc res_search with ndots).
import type { Pod } from 'kubernetes-types/core/v1';
import { CLUSTER_DOMAIN, KUBE_DNS_IP, type CorednsState } from './coredns.ts';

/** What one A query got: NOERROR with its records (an ExternalName Service answers a CNAME; none: NODATA), or NXDOMAIN. */
export interface DnsAnswer {
  rcode: 'NOERROR' | 'NXDOMAIN';
  name: string;
  a: string[];
  cname?: string;
}

/** The kubelet's defaults for dnsPolicy ClusterFirst (kubeadm's clusterDNS and clusterDomain; ndots from dns.go). */
const NDOTS = 5;

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

/** plugin/kubernetes's match: names compare case-insensitively. */
const match = (a: string, b: string | undefined): boolean => a.toLowerCase() === (b ?? '').toLowerCase();

/** matchPortAndProtocol: a query's empty port or protocol matches any. */
function matchPortAndProtocol(
  aPort: string,
  bPort: string | undefined,
  aProto: string,
  bProto: string | undefined,
): boolean {
  return (aPort === '' || match(aPort, bPort)) && (aProto === '' || match(aProto, bProto));
}

/** endpointHostname: the endpoint's hostname, else its IPv4 address with dashes. */
function endpointHostname(hostname: string | undefined, ip: string): string {
  return hostname || ip.replace(/\./g, '-');
}

/** Go's net.ParseIP for the IPv4 form: four decimal parts of at most 255, no leading zero. */
const isIPv4 = (ip: string): boolean => {
  const parts = ip.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && String(+p) === p && +p < 256);
};

/** The parts of a name under the zone (parse.go parseRequest): `[_port._protocol.|endpoint.]service.namespace.svc|pod`. */
interface RecordRequest {
  podOrSvc: string;
  namespace: string;
  service: string;
  endpoint: string;
  port: string;
  protocol: string;
}

/** parseRequest; undefined for errInvalidRequest (too long, or neither svc nor pod). */
function parseRequest(base: string): RecordRequest | undefined {
  const r: RecordRequest = { podOrSvc: '', namespace: '', service: '', endpoint: '', port: '', protocol: '' };
  if (base === '' || base === 'svc' || base === 'pod') return r;
  const segs = base.split('.');
  r.podOrSvc = segs.pop()!;
  if (r.podOrSvc !== 'svc' && r.podOrSvc !== 'pod') return undefined;
  r.namespace = segs.pop() ?? '';
  r.service = segs.pop() ?? '';
  if (segs.length === 1) r.endpoint = segs[0];
  else if (segs.length === 2) [r.port, r.protocol] = segs.map((x) => x.replace(/^_/, ''));
  else if (segs.length > 2) return undefined;
  return r;
}

const NX = (name: string): DnsAnswer => ({ rcode: 'NXDOMAIN', name, a: [] });
const NODATA = (name: string): DnsAnswer => ({ rcode: 'NOERROR', name, a: [] });

/** findPods under `pods insecure`: the address written in the name, if it is one. */
function findPods(name: string, r: RecordRequest): DnsAnswer {
  if (r.service === '') return NODATA(name);
  const ip = r.service.replace(/-/g, '.');
  // A name with another count of dashes is read as IPv6 there: an AAAA record, so no A (not modelled: NXDOMAIN).
  return isIPv4(ip) && (r.service.match(/-/g) ?? []).length === 3 ? { rcode: 'NOERROR', name, a: [ip] } : NX(name);
}

/**
 * findServices, as an A query reads it: an ExternalName's CNAME; an endpoint name's, or a headless
 * Service's, ready endpoint addresses (every slice of the Service, each slice's address once per
 * matching port); else the ClusterIP when a port matches. errNoItems (NXDOMAIN) when nothing
 * matched at all.
 */
function findServices(s: CorednsState, name: string, r: RecordRequest): DnsAnswer {
  if (r.service === '') return NODATA(name);
  const a: string[] = [];
  let found = false;
  let cname: string | undefined;
  for (const svc of Object.values(s.services.items)) {
    if (!match(r.namespace, svc.metadata?.namespace) || !match(r.service, svc.metadata?.name)) continue;
    const spec = svc.spec ?? {};
    if (spec.type === 'ExternalName') {
      // No endpoint, port or protocol under an ExternalName; a target that is an IP is no CNAME and is dropped.
      if (r.endpoint || r.port || r.protocol || isIPv4(spec.externalName ?? '')) continue;
      cname = spec.externalName;
      found = true;
      continue;
    }
    const clusterIPs = spec.clusterIPs?.length ? spec.clusterIPs : [spec.clusterIP ?? ''];
    if (clusterIPs[0] === 'None' || r.endpoint) {
      for (const sl of Object.values(s.slices.items)) {
        if (
          sl.metadata?.namespace !== svc.metadata?.namespace ||
          sl.metadata?.labels?.['kubernetes.io/service-name'] !== svc.metadata?.name
        )
          continue;
        // A slice without ports gets one sentinel port (EndpointSliceToEndpoints), so its addresses still count.
        const ports = sl.ports?.length ? sl.ports : [{}];
        for (const ep of sl.endpoints ?? []) {
          if (ep.conditions?.ready === false) continue;
          for (const ip of ep.addresses ?? []) {
            if (r.endpoint && !match(r.endpoint, endpointHostname(ep.hostname, ip))) continue;
            for (const p of ports) {
              if (!matchPortAndProtocol(r.port, p.name ?? '', r.protocol, p.protocol ?? '')) continue;
              found = true;
              if (isIPv4(ip) && !a.includes(ip)) a.push(ip);
            }
          }
        }
      }
      continue;
    }
    // A Service without ports has one sentinel port (ToService), so its ClusterIP still answers.
    for (const p of spec.ports?.length ? spec.ports : [{ port: -1 }]) {
      if (!matchPortAndProtocol(r.port, p.name ?? '', r.protocol, p.protocol ?? '')) continue;
      found = true;
      for (const ip of clusterIPs) if (isIPv4(ip) && !a.includes(ip)) a.push(ip);
    }
  }
  if (!found) return NX(name);
  return cname !== undefined && a.length === 0 ? { rcode: 'NOERROR', name, a, cname } : { rcode: 'NOERROR', name, a };
}

/**
 * The kubernetes plugin's answer to an A query (handler.go ServeDNS, Records): under the zone, a
 * name must end in `svc` or `pod` and name an existing namespace (else NXDOMAIN); the zone, `svc`,
 * `pod` and a bare namespace have no records (NODATA: NOERROR, nothing); then findServices or
 * findPods. Names outside the cluster domain go on to `forward`; the simulated cluster has no
 * upstream, so NXDOMAIN.
 */
export function corednsAnswer(s: CorednsState, qname: string, depth = 0): DnsAnswer {
  const name = qname.toLowerCase().replace(/\.$/, '');
  if (!inZone(name)) return NX(name);
  const r = parseRequest(name.slice(0, -CLUSTER_DOMAIN.length).replace(/\.$/, ''));
  if (!r) return NX(name);
  if (r.podOrSvc === '') return NODATA(name);
  if (!Object.values(s.namespaces.items).some((n) => n.metadata?.name === r.namespace)) return NX(name);
  const ans = r.podOrSvc === 'pod' ? findPods(name, r) : findServices(s, name, r);
  if (!ans.cname || !inZone(ans.cname)) return ans;
  // A CNAME into the zone is followed there (plugin.A, at most 10 deep); kept only when its target has records.
  const target = depth < 10 ? corednsAnswer(s, ans.cname, depth + 1) : NX(ans.cname);
  return target.a.length ? { ...ans, a: target.a } : NODATA(name);
}

function inZone(name: string): boolean {
  return name === CLUSTER_DOMAIN || name.endsWith(`.${CLUSTER_DOMAIN}`);
}

/**
 * A lookup through the search path (res_search): the first candidate with records; a NODATA answer
 * does not stop the search but is what it ends with when no candidate has records (glibc's
 * got_nodata); else NXDOMAIN, under the name as given.
 */
export function resolve(s: CorednsState, name: string, search: string[], ndots = NDOTS): DnsAnswer {
  let nodata: DnsAnswer | undefined;
  for (const c of searchCandidates(name, search, ndots)) {
    const ans = corednsAnswer(s, c);
    if (ans.rcode === 'NOERROR' && (ans.a.length || ans.cname)) return ans;
    if (ans.rcode === 'NOERROR') nodata ??= ans;
  }
  return nodata ?? NX(name.replace(/\.$/, ''));
}
