// What kube-proxy makes of Services and EndpointSlices before writing rules (pkg/proxy:
// serviceport.go, endpoint.go, endpointslicecache.go, topology.go), for the IPv4 family.
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';

/** proxy.BaseServicePortInfo, with the fields the proxiers read. */
export interface ServicePortInfo {
  /** ServicePortName.String(): "ns/name:port", or "ns/name" for an unnamed port. */
  name: string;
  namespace: string;
  service: string;
  port: string;
  clusterIP: string;
  portNumber: number;
  /** "TCP", "UDP" or "SCTP". */
  protocol: string;
  nodePort: number;
  externalIPs: string[];
  loadBalancerVIPs: string[];
  loadBalancerSourceRanges: string[];
  healthCheckNodePort: number;
  sessionAffinityClientIP: boolean;
  stickyMaxAgeSeconds: number;
  externalPolicyLocal: boolean;
  internalPolicyLocal: boolean;
}

/** proxy.BaseEndpointInfo: one address and port of one Service port. */
export interface EndpointInfo {
  ip: string;
  port: number;
  isLocal: boolean;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
}

/** Endpoint.String(): "ip:port". */
export function endpointString(ep: EndpointInfo): string {
  return `${ep.ip}:${ep.port}`;
}

/** ServicePortName.String(): the port name only when it has one. */
function servicePortNameString(namespace: string, name: string, port: string): string {
  return `${namespace}/${name}${port ? `:${port}` : ''}`;
}

/** The default ClientIP affinity timeout (v1.DefaultClientIPServiceAffinitySeconds). */
const DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS = 10800;

/**
 * newBaseServiceInfo for each port of a Service, as ServiceChangeTracker keeps them: none for a
 * headless or ExternalName Service (no cluster IP to proxy).
 */
export function servicePortsOf(svc: Service): ServicePortInfo[] {
  const spec = svc.spec ?? {};
  const clusterIP = spec.clusterIP ?? '';
  if (!clusterIP || clusterIP === 'None' || spec.type === 'ExternalName' || clusterIP.includes(':')) return [];
  const namespace = svc.metadata?.namespace ?? '';
  const service = svc.metadata?.name ?? '';
  const externallyAccessibleType = spec.type === 'NodePort' || spec.type === 'LoadBalancer';
  const lbVIPs =
    spec.type === 'LoadBalancer'
      ? (svc.status?.loadBalancer?.ingress ?? [])
          .filter((i) => i.ip && !i.ip.includes(':') && i.ipMode !== 'Proxy')
          .map((i) => i.ip!)
      : [];
  const externalIPs = (spec.externalIPs ?? []).filter((ip) => !ip.includes(':'));
  const affinity = spec.sessionAffinity === 'ClientIP';
  return (spec.ports ?? []).map((p) => {
    const port = p.name ?? '';
    const nodePort = externallyAccessibleType ? (p.nodePort ?? 0) : 0;
    const externallyAccessible = nodePort !== 0 || lbVIPs.length > 0 || externalIPs.length > 0;
    return {
      name: servicePortNameString(namespace, service, port),
      namespace,
      service,
      port,
      clusterIP,
      portNumber: p.port,
      protocol: p.protocol ?? 'TCP',
      nodePort,
      externalIPs,
      loadBalancerVIPs: lbVIPs,
      // The API tolerated whitespace here once; the proxier trims it (TestOverallIPTablesRules' " 203.0.113.0/25").
      loadBalancerSourceRanges: lbVIPs.length
        ? (spec.loadBalancerSourceRanges ?? []).map((r) => r.trim()).filter((r) => r && !r.includes(':'))
        : [],
      healthCheckNodePort:
        spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local' ? (spec.healthCheckNodePort ?? 0) : 0,
      sessionAffinityClientIP: affinity,
      stickyMaxAgeSeconds: affinity
        ? (spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS)
        : 0,
      externalPolicyLocal: externallyAccessible && spec.externalTrafficPolicy === 'Local',
      internalPolicyLocal: spec.internalTrafficPolicy === 'Local',
    };
  });
}

/** ServicePort.ExternallyAccessible: a NodePort, a load-balancer IP or an external IP. */
export function externallyAccessible(sp: ServicePortInfo): boolean {
  return sp.nodePort !== 0 || sp.loadBalancerVIPs.length > 0 || sp.externalIPs.length > 0;
}

/** ServicePort.UsesClusterEndpoints. */
export function usesClusterEndpoints(sp: ServicePortInfo): boolean {
  return !sp.internalPolicyLocal || (externallyAccessible(sp) && !sp.externalPolicyLocal);
}

/** ServicePort.UsesLocalEndpoints. */
export function usesLocalEndpoints(sp: ServicePortInfo): boolean {
  return sp.internalPolicyLocal || (externallyAccessible(sp) && sp.externalPolicyLocal);
}

/** The map key of a Service port's endpoints: "ns/name:port" plus its protocol. */
export function endpointsKey(namespace: string, service: string, port: string, protocol: string): string {
  return `${servicePortNameString(namespace, service, port)}/${protocol}`;
}

/**
 * EndpointSliceCache → EndpointsMap: each Service port's endpoints from every IPv4 slice of its
 * Service, deduplicated by "ip:port" and sorted by it (byEndpoint), as the proxier sees them.
 */
export function endpointsMapOf(slices: EndpointSlice[], nodeName: string): Map<string, EndpointInfo[]> {
  const sets = new Map<string, Map<string, EndpointInfo>>();
  const ordered = [...slices].sort((a, b) =>
    cmp(`${a.metadata?.namespace}/${a.metadata?.name}`, `${b.metadata?.namespace}/${b.metadata?.name}`),
  );
  for (const slice of ordered) {
    const service = slice.metadata?.labels?.['kubernetes.io/service-name'];
    if (!service || slice.addressType !== 'IPv4') continue;
    const namespace = slice.metadata?.namespace ?? '';
    for (const port of slice.ports ?? []) {
      if (port.name === undefined || port.port === undefined || port.protocol === undefined) continue;
      const key = endpointsKey(namespace, service, port.name, port.protocol);
      let set = sets.get(key);
      if (!set) sets.set(key, (set = new Map()));
      for (const ep of slice.endpoints ?? []) {
        if (!ep.addresses?.length) continue;
        const c = ep.conditions ?? {};
        const info: EndpointInfo = {
          ip: ep.addresses[0],
          port: port.port,
          isLocal: ep.nodeName !== undefined && ep.nodeName === nodeName,
          // Nil conditions are read as ready and serving, and not terminating.
          ready: c.ready ?? true,
          serving: c.serving ?? true,
          terminating: c.terminating ?? false,
        };
        // An address in two slices (a pod moving between them) counts once, its ready copy first.
        const key2 = endpointString(info);
        if (!set.has(key2) || info.ready) set.set(key2, info);
      }
    }
  }
  const out = new Map<string, EndpointInfo[]>();
  for (const [key, set] of sets)
    out.set(
      key,
      [...set.values()].sort((a, b) => cmp(endpointString(a), endpointString(b))),
    );
  return out;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What CategorizeEndpoints answers. */
interface CategorizedEndpoints {
  clusterEndpoints: EndpointInfo[];
  localEndpoints: EndpointInfo[];
  allReachableEndpoints: EndpointInfo[];
  hasAnyEndpoints: boolean;
}

/**
 * CategorizeEndpoints (pkg/proxy/topology.go): ready endpoints for Cluster policy (serving and
 * terminating ones when none is ready), this node's ready endpoints for Local policy (its serving
 * terminating ones when none is ready), and those of the two that this node can reach. Topology
 * hints are left out: the simulated cluster sets none.
 */
export function categorizeEndpoints(endpoints: EndpointInfo[], sp: ServicePortInfo): CategorizedEndpoints {
  let clusterEndpoints: EndpointInfo[] = [];
  let localEndpoints: EndpointInfo[] = [];
  let hasAnyEndpoints = false;
  if (usesClusterEndpoints(sp)) {
    clusterEndpoints = endpoints.filter((ep) => ep.ready);
    if (clusterEndpoints.length === 0) clusterEndpoints = endpoints.filter((ep) => ep.serving && ep.terminating);
    if (clusterEndpoints.length > 0) hasAnyEndpoints = true;
  }
  if (!usesLocalEndpoints(sp))
    return { clusterEndpoints, localEndpoints, allReachableEndpoints: clusterEndpoints, hasAnyEndpoints };
  let hasLocalReady = false;
  let hasLocalServingTerminating = false;
  for (const ep of endpoints) {
    if (ep.ready) {
      hasAnyEndpoints = true;
      if (ep.isLocal) hasLocalReady = true;
    } else if (ep.serving && ep.terminating) {
      hasAnyEndpoints = true;
      if (ep.isLocal) hasLocalServingTerminating = true;
    }
  }
  if (hasLocalReady) localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.ready);
  else if (hasLocalServingTerminating)
    localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.serving && ep.terminating);
  if (!usesClusterEndpoints(sp))
    return { clusterEndpoints, localEndpoints, allReachableEndpoints: localEndpoints, hasAnyEndpoints };
  if (localEndpoints.length === 0)
    return { clusterEndpoints, localEndpoints, allReachableEndpoints: clusterEndpoints, hasAnyEndpoints };
  // Upstream merges the two through a Go map (random order); sorted here, as byEndpoint sorts.
  const merged = new Map<string, EndpointInfo>();
  for (const ep of [...clusterEndpoints, ...localEndpoints]) merged.set(endpointString(ep), ep);
  const allReachableEndpoints = [...merged.values()].sort((a, b) => cmp(endpointString(a), endpointString(b)));
  return { clusterEndpoints, localEndpoints, allReachableEndpoints, hasAnyEndpoints };
}
