import { describe, expect, it } from 'vitest';
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { newInformer } from '../client-go/informer.ts';
import type { CorednsState } from './coredns.ts';
import { corednsAnswer, podResolvConf, resolve, searchCandidates } from './dns.ts';

function state(
  services: Service[],
  slices: EndpointSlice[],
  namespaces = ['default', 'shop', 'kube-system'],
): CorednsState {
  const s: CorednsState = {
    services: newInformer('services', 'services'),
    slices: newInformer('endpointslices', 'endpointslices'),
    namespaces: newInformer('namespaces', 'namespaces'),
  };
  for (const n of namespaces) s.namespaces.items[n] = { metadata: { name: n } };
  for (const x of services) s.services.items[`${x.metadata!.namespace}/${x.metadata!.name}`] = x;
  for (const x of slices) s.slices.items[`${x.metadata!.namespace}/${x.metadata!.name}`] = x;
  return s;
}
const svc = (name: string, spec: Service['spec'], ns = 'default'): Service => ({
  metadata: { name, namespace: ns },
  spec,
});
const slice = (svcName: string, eps: { ip: string; ready?: boolean; hostname?: string }[]): EndpointSlice => ({
  addressType: 'IPv4',
  metadata: { name: `${svcName}-x1`, namespace: 'default', labels: { 'kubernetes.io/service-name': svcName } },
  endpoints: eps.map((e) => ({
    addresses: [e.ip],
    conditions: { ready: e.ready ?? true },
    ...(e.hostname ? { hostname: e.hostname } : {}),
  })),
});
const S = state(
  [
    svc('web', { clusterIP: '10.96.4.5', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }),
    svc('db', { clusterIP: 'None' }),
    svc('empty', { clusterIP: 'None' }),
    svc('ext', { type: 'ExternalName', externalName: 'example.com' }),
    svc('alias', { type: 'ExternalName', externalName: 'db.default.svc.cluster.local' }),
    svc('api', { clusterIP: '10.96.9.9' }, 'shop'),
  ],
  [
    slice('db', [{ ip: '10.244.1.4', hostname: 'db-0' }, { ip: '10.244.2.4', ready: false }, { ip: '10.244.3.4' }]),
    slice('empty', [{ ip: '10.244.1.9', ready: false }]),
    slice('web', [{ ip: '10.244.2.8' }]),
  ],
);
const SEARCH = ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'];

describe('podResolvConf', () => {
  it("writes the kubelet's ClusterFirst file, the pod's namespace first", () => {
    expect(podResolvConf({ metadata: { namespace: 'shop' }, spec: { containers: [] } })).toBe(
      'search shop.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n',
    );
  });
  it('has no cluster file for Default, or ClusterFirst on the host network', () => {
    expect(podResolvConf({ metadata: {}, spec: { containers: [], dnsPolicy: 'Default' } })).toBeUndefined();
    expect(podResolvConf({ metadata: {}, spec: { containers: [], hostNetwork: true } })).toBeUndefined();
    expect(
      podResolvConf({
        metadata: {},
        spec: { containers: [], hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' },
      }),
    ).toContain('nameserver 10.96.0.10');
  });
});

describe('searchCandidates (ndots:5)', () => {
  it('tries the search list first for a name with fewer than five dots', () => {
    expect(searchCandidates('web', SEARCH)).toEqual([
      'web.default.svc.cluster.local',
      'web.svc.cluster.local',
      'web.cluster.local',
      'web',
    ]);
  });
  it('asks a name with five dots as it is first, and a trailing dot only as it is', () => {
    expect(searchCandidates('a.b.c.d.e.f', SEARCH)[0]).toBe('a.b.c.d.e.f');
    expect(searchCandidates('web.default.svc.cluster.local.', SEARCH)).toEqual(['web.default.svc.cluster.local']);
  });
});

describe('corednsAnswer', () => {
  it('answers a Service name with its ClusterIP, in any namespace', () => {
    expect(corednsAnswer(S, 'web.default.svc.cluster.local')).toEqual({
      rcode: 'NOERROR',
      name: 'web.default.svc.cluster.local',
      a: ['10.96.4.5'],
    });
    expect(corednsAnswer(S, 'API.shop.svc.cluster.local.').a).toEqual(['10.96.9.9']);
  });
  it('answers a headless Service with its ready endpoints only, and NXDOMAIN when none is ready', () => {
    expect(corednsAnswer(S, 'db.default.svc.cluster.local').a).toEqual(['10.244.1.4', '10.244.3.4']);
    expect(corednsAnswer(S, 'empty.default.svc.cluster.local').rcode).toBe('NXDOMAIN');
  });
  it('answers one endpoint of a headless Service by its hostname or dashed address', () => {
    expect(corednsAnswer(S, 'db-0.db.default.svc.cluster.local').a).toEqual(['10.244.1.4']);
    expect(corednsAnswer(S, '10-244-3-4.db.default.svc.cluster.local').a).toEqual(['10.244.3.4']);
    expect(corednsAnswer(S, 'x.web.default.svc.cluster.local').rcode).toBe('NXDOMAIN');
  });
  it('answers an endpoint name under a ClusterIP Service too, and a port and protocol pair with the ClusterIP', () => {
    expect(corednsAnswer(S, '10-244-2-8.web.default.svc.cluster.local').a).toEqual(['10.244.2.8']);
    expect(corednsAnswer(S, '_http._tcp.web.default.svc.cluster.local').a).toEqual(['10.96.4.5']);
    expect(corednsAnswer(S, '_http._udp.web.default.svc.cluster.local').rcode).toBe('NXDOMAIN');
  });
  it('has no records (NODATA) for the zone, svc, pod and an existing namespace, and NXDOMAIN for a missing one', () => {
    for (const n of [
      'cluster.local',
      'svc.cluster.local',
      'pod.cluster.local',
      'default.svc.cluster.local',
      'shop.pod.cluster.local',
    ])
      expect(corednsAnswer(S, n)).toEqual({ rcode: 'NOERROR', name: n, a: [] });
    for (const n of [
      'nowhere.svc.cluster.local',
      'web.nowhere.svc.cluster.local',
      '10-244-1-7.nowhere.pod.cluster.local',
    ])
      expect(corednsAnswer(S, n).rcode).toBe('NXDOMAIN');
  });
  it('follows a CNAME into the cluster domain to its addresses', () => {
    expect(corednsAnswer(S, 'alias.default.svc.cluster.local')).toEqual({
      rcode: 'NOERROR',
      name: 'alias.default.svc.cluster.local',
      a: ['10.244.1.4', '10.244.3.4'],
      cname: 'db.default.svc.cluster.local',
    });
  });
  it('answers pods insecure, ExternalName with a CNAME, and NXDOMAIN for the rest', () => {
    expect(corednsAnswer(S, '10-244-1-7.default.pod.cluster.local').a).toEqual(['10.244.1.7']);
    expect(corednsAnswer(S, 'ext.default.svc.cluster.local')).toMatchObject({
      rcode: 'NOERROR',
      cname: 'example.com',
      a: [],
    });
    for (const n of [
      'nothere.default.svc.cluster.local',
      'web.other.svc.cluster.local',
      'example.com',
      '10-244-1-999.default.pod.cluster.local',
      'a.b.c.web.default.svc.cluster.local',
    ])
      expect(corednsAnswer(S, n).rcode).toBe('NXDOMAIN');
  });
});

describe('resolve', () => {
  it('finds a short name, a name.namespace, and gives NXDOMAIN under the name as typed', () => {
    expect(resolve(S, 'web', SEARCH).a).toEqual(['10.96.4.5']);
    expect(resolve(S, 'api.shop', SEARCH)).toMatchObject({ name: 'api.shop.svc.cluster.local', a: ['10.96.9.9'] });
    expect(resolve(S, 'api', SEARCH).rcode).toBe('NXDOMAIN');
    expect(resolve(S, 'nope', SEARCH)).toEqual({ rcode: 'NXDOMAIN', name: 'nope', a: [] });
  });
  it('goes on past a NODATA candidate, and ends with it when no candidate has records', () => {
    expect(resolve(S, 'shop', SEARCH)).toEqual({ rcode: 'NOERROR', name: 'shop.svc.cluster.local', a: [] });
  });
});
