// The upstream proxier tests' builders (makeTestService, makeTestEndpointSlice), for the
// kube-proxy tests. Imported by tests only.
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { ProxierConfig } from '../kube-proxy/iptables-rules.ts';

/** NewFakeProxier's settings: node "test-node" at 192.168.0.2, pods in 10.0.0.0/8, nfacct counters present. */
export const FAKE_PROXIER: ProxierConfig = {
  nodeName: 'test-node',
  nodeIP: '192.168.0.2',
  clusterCIDR: '10.0.0.0/8',
  localhostNodePorts: true,
  nfacct: true,
  randomFully: false,
};

/** A Service under construction: its spec and status written field by field, as the Go tests do. */
type TestService = Service & {
  spec: NonNullable<Service['spec']>;
  status: { loadBalancer?: NonNullable<Service['status']>['loadBalancer'] };
};

/** makeTestService: a Service with only its name, then changed by `f`. */
export function makeTestService(namespace: string, name: string, f: (svc: TestService) => void): Service {
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec: {}, status: {} } as TestService;
  f(svc);
  return svc;
}

/** makeTestEndpointSlice: slice `<svc>-<n>` labelled with its Service, then changed by `f`. */
export function makeTestEndpointSlice(
  namespace: string,
  name: string,
  n: number,
  f: (eps: EndpointSlice) => void,
): EndpointSlice {
  const eps: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { namespace, name: `${name}-${n}`, labels: { 'kubernetes.io/service-name': name } },
    addressType: 'IPv4',
    endpoints: [],
  };
  f(eps);
  return eps;
}

/** dedent.Dedent of an expected dump written indented in a template literal. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  return lines
    .map((l) => l.slice(indent))
    .join('\n')
    .replace(/[ \t]+$/, '');
}

const p80 = [{ name: 'p80', port: 80, protocol: 'TCP' }];
const slice80 = (ns: string, name: string, endpoints: EndpointSlice['endpoints']) =>
  makeTestEndpointSlice(ns, name, 1, (eps) => {
    eps.endpoints = endpoints;
    eps.ports = p80;
  });

/**
 * The cluster both upstream "overall" tests build (TestOverallIPTablesRules in
 * pkg/proxy/iptables/proxier_test.go, TestOverallNFTablesRules in pkg/proxy/nftables/proxier_test.go):
 * six Services of every type and the EndpointSlices of five.
 */
export function overallTestCluster(): { services: Service[]; slices: EndpointSlice[] } {
  return {
    services: [
      makeTestService('ns1', 'svc1', (svc) => {
        svc.spec.clusterIP = '172.30.0.41';
        svc.spec.ports = [{ name: 'p80', port: 80, protocol: 'TCP' }];
      }),
      makeTestService('ns2', 'svc2', (svc) => {
        svc.spec.type = 'LoadBalancer';
        svc.spec.externalTrafficPolicy = 'Local';
        svc.spec.clusterIP = '172.30.0.42';
        svc.spec.ports = [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3001 }];
        svc.status.loadBalancer = { ingress: [{ ip: '1.2.3.4' }] };
        svc.spec.externalIPs = ['192.168.99.22'];
        svc.spec.healthCheckNodePort = 30000;
      }),
      makeTestService('ns3', 'svc3', (svc) => {
        svc.spec.type = 'NodePort';
        svc.spec.clusterIP = '172.30.0.43';
        svc.spec.ports = [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3003 }];
      }),
      makeTestService('ns4', 'svc4', (svc) => {
        svc.spec.type = 'NodePort';
        svc.spec.clusterIP = '172.30.0.44';
        svc.spec.externalIPs = ['192.168.99.33'];
        svc.spec.ports = [{ name: 'p80', port: 80, protocol: 'TCP', targetPort: 80 }];
      }),
      makeTestService('ns5', 'svc5', (svc) => {
        svc.spec.type = 'LoadBalancer';
        svc.spec.externalTrafficPolicy = 'Cluster';
        svc.spec.clusterIP = '172.30.0.45';
        svc.spec.ports = [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3002 }];
        svc.status.loadBalancer = { ingress: [{ ip: '5.6.7.8' }] };
        svc.spec.healthCheckNodePort = 30000;
        svc.spec.loadBalancerSourceRanges = [' 203.0.113.0/25'];
        svc.spec.sessionAffinity = 'ClientIP';
        svc.spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
      }),
      makeTestService('ns6', 'svc6', (svc) => {
        svc.spec.type = 'ClusterIP';
        svc.spec.clusterIP = '172.30.0.46';
        svc.spec.ports = [{ name: 'p80', port: 80, protocol: 'TCP', targetPort: 80 }];
      }),
    ],
    slices: [
      slice80('ns1', 'svc1', [{ addresses: ['10.180.0.1'] }]),
      slice80('ns2', 'svc2', [{ addresses: ['10.180.0.2'] }]),
      slice80('ns3', 'svc3', [{ addresses: ['10.180.0.3'] }]),
      slice80('ns4', 'svc4', [{ addresses: ['10.180.0.4'] }, { addresses: ['10.180.0.5'], nodeName: 'test-node' }]),
      slice80('ns5', 'svc5', [{ addresses: ['10.180.0.3'] }]),
    ],
  };
}

/** The data-path walks' Service: a ClusterIP `ip` serving port 80 (named http) on the pods' 8080. */
export const walkService = (name: string, ip: string, extra: Partial<Service['spec']> = {}): Service => ({
  metadata: { name, namespace: 'default' },
  spec: {
    clusterIP: ip,
    type: 'ClusterIP',
    ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }],
    ...extra,
  },
});

/** The data-path walks' EndpointSlice for `name`: one endpoint per address, on node-1, node-2, … in order. */
export const walkSlice = (name: string, ips: string[], ready = true): EndpointSlice => ({
  addressType: 'IPv4',
  metadata: { name: `${name}-abc`, namespace: 'default', labels: { 'kubernetes.io/service-name': name } },
  ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  endpoints: ips.map((ip, i) => ({ addresses: [ip], conditions: { ready }, nodeName: `node-${i + 1}` })),
});
