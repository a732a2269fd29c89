// The upstream proxier tests' builders (makeTestService, makeTestEndpointSlice), for the
// kube-proxy tests. Imported by tests only.
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { ProxierConfig } from '../kube-proxy/iptables-rules.ts';

/** NewFakeProxier's settings: node "test-node" at 192.168.0.2, pods in 10.0.0.0/8, nfacct counters present. */
export const FAKE_PROXIER: ProxierConfig = { nodeName: 'test-node', nodeIP: '192.168.0.2', clusterCIDR: '10.0.0.0/8', localhostNodePorts: true, nfacct: true, randomFully: false };

/** A Service under construction: its spec and status written field by field, as the Go tests do. */
export type TestService = Service & { spec: NonNullable<Service['spec']>; status: { loadBalancer?: NonNullable<Service['status']>['loadBalancer'] } };

/** makeTestService: a Service with only its name, then changed by `f`. */
export function makeTestService(namespace: string, name: string, f: (svc: TestService) => void): Service {
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec: {}, status: {} } as TestService;
  f(svc);
  return svc;
}

/** makeTestEndpointSlice: slice `<svc>-<n>` labelled with its Service, then changed by `f`. */
export function makeTestEndpointSlice(namespace: string, name: string, n: number, f: (eps: EndpointSlice) => void): EndpointSlice {
  const eps: EndpointSlice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { namespace, name: `${name}-${n}`, labels: { 'kubernetes.io/service-name': name } }, addressType: 'IPv4', endpoints: [] };
  f(eps);
  return eps;
}

/** dedent.Dedent of an expected dump written indented in a template literal. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n').replace(/[ \t]+$/, '');
}
