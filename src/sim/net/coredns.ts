// CoreDNS as kubeadm installs it (cmd/kubeadm/app/phases/addons/dns/manifests.go): the `coredns`
// Deployment and the `kube-dns` Service at 10.96.0.10 in kube-system, and the kubernetes plugin's
// informers on Services and EndpointSlices, which it answers from (plugin/kubernetes). A cluster runs
// it only when asked (`# addons: kube-proxy, coredns`), so clusters without it stay as they were.
import type { Namespace, Service } from 'kubernetes-types/core/v1';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { R, type Identity } from '../api/identity.ts';
import type { ApiRequest } from '../api/request.ts';
import {
  informerHandle,
  isInformerEvent,
  listAndWatch,
  newInformer,
  type EventHandlers,
  type InformerState,
} from '../client-go/informer.ts';
import type { ClusterAddon } from '../cluster-types.ts';
import type { ComponentDef } from '../world.ts';
import { PREEMPTION_EVALUATOR } from '../scheduler/preemption-evaluator.ts';

/** kubeadm's DNS Service IP: the tenth address of the default service CIDR 10.96.0.0/12. */
export const KUBE_DNS_IP = '10.96.0.10';
/** The cluster domain (--cluster-domain, kubeadm's networking.dnsDomain). */
export const CLUSTER_DOMAIN = 'cluster.local';
/** The image kubeadm deploys: cmd/kubeadm/app/constants.CoreDNSVersion at v1.37.2. */
const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.14.6';
/** The instance name of CoreDNS's kubernetes plugin (one cache shared by the Deployment's replicas, simplified). */
export const COREDNS = 'coredns';
/** The coredns ServiceAccount bound to system:coredns (list and watch Services, EndpointSlices and Namespaces; its pods rule is unused under `pods insecure`). */
const COREDNS_IDENTITY: Identity = {
  user: 'system:serviceaccount:kube-system:coredns',
  rules: [R(['list', 'watch'], ['services', 'endpointslices', 'namespaces'])],
};

/** The kube-dns Service, as manifests.go writes it (its resourceVersion "0" is kubeadm's update trick, left out). */
function kubeDnsService(): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kube-dns',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
      annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
    },
    spec: {
      clusterIP: KUBE_DNS_IP,
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
      selector: { 'k8s-app': 'kube-dns' },
    },
  };
}

/**
 * The coredns Deployment, as manifests.go writes it with kubeadm's two replicas. Left out, because
 * the simulated API has no such fields: the pod anti-affinity, the securityContext and the Corefile
 * ConfigMap volume.
 */
function corednsDeployment(): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'coredns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
    spec: {
      replicas: 2,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      selector: { matchLabels: { 'k8s-app': 'kube-dns' } },
      template: {
        metadata: { labels: { 'k8s-app': 'kube-dns' } },
        spec: {
          priorityClassName: 'system-cluster-critical',
          serviceAccountName: 'coredns',
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
          ],
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          containers: [
            {
              name: 'coredns',
              image: COREDNS_IMAGE,
              imagePullPolicy: 'IfNotPresent',
              resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
              args: ['-conf', '/etc/coredns/Corefile'],
              ports: [
                { containerPort: 53, name: 'dns', protocol: 'UDP' },
                { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
                { containerPort: 8080, name: 'liveness-probe', protocol: 'TCP' },
                { containerPort: 8181, name: 'readiness-probe', protocol: 'TCP' },
              ],
              livenessProbe: {
                httpGet: { path: '/health', port: 'liveness-probe', scheme: 'HTTP' },
                initialDelaySeconds: 60,
                timeoutSeconds: 5,
                successThreshold: 1,
                failureThreshold: 5,
              },
              readinessProbe: { httpGet: { path: '/ready', port: 'readiness-probe', scheme: 'HTTP' } },
            },
          ],
          dnsPolicy: 'Default',
        },
      },
    },
  };
}

/** The kubernetes plugin's caches (plain data): a name in a namespace not in `namespaces` is NXDOMAIN. */
export interface CorednsState {
  services: InformerState<Service>;
  slices: InformerState<EndpointSlice>;
  namespaces: InformerState<Namespace>;
}

const NO_HANDLERS: EventHandlers<never> = {};

/** CoreDNS's kubernetes plugin: informers on every Service, EndpointSlice and Namespace (controller.go); it answers from them (dns.ts). */
const corednsDef: ComponentDef<CorednsState> = {
  name: COREDNS,
  identity: () => COREDNS,
  init(ctx) {
    const s: CorednsState = {
      services: newInformer('services', 'services'),
      slices: newInformer('endpointslices', 'endpointslices'),
      namespaces: newInformer('namespaces', 'namespaces'),
    };
    ctx.state = s;
    listAndWatch(ctx, s.services, NO_HANDLERS);
    listAndWatch(ctx, s.slices, NO_HANDLERS);
    listAndWatch(ctx, s.namespaces, NO_HANDLERS);
    return s;
  },
  handle(event, ctx) {
    if (!isInformerEvent(event)) return;
    if (
      !informerHandle(ctx, ctx.state.services, event, NO_HANDLERS) &&
      !informerHandle(ctx, ctx.state.slices, event, NO_HANDLERS)
    )
      informerHandle(ctx, ctx.state.namespaces, event, NO_HANDLERS);
  },
};

/** The requests kubeadm's addon phase sends (as kubernetes-admin): the Deployment, then the Service. */
function corednsObjects(): ApiRequest[] {
  return [
    { verb: 'create', resource: 'deployments', namespace: 'kube-system', body: corednsDeployment() },
    { verb: 'create', resource: 'services', namespace: 'kube-system', body: kubeDnsService() },
  ];
}

/** CoreDNS as a cluster add-on: its objects, and the kubernetes plugin's cache as one instance. */
export function corednsAddon(): ClusterAddon {
  return {
    name: 'coredns',
    defs: [corednsDef],
    identities: { [COREDNS]: COREDNS_IDENTITY },
    instances: () => [[COREDNS, COREDNS, {}]],
    objects: corednsObjects,
    serviceAccounts: ['coredns'],
    // Its pods run at system-cluster-critical: one left unschedulable may preempt a workload's pod.
    parts: { preemption: PREEMPTION_EVALUATOR },
  };
}
