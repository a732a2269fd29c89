// Scheme defaulting (SetDefaults_PodSpec …) and the allocators of ClusterIPs and NodePorts.
import { int } from '../rng.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { ApiHost } from './server.ts';

/** Kubernetes' imagePullPolicy default: Always for `:latest` or no tag, else IfNotPresent. */
function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const i = last.lastIndexOf(':');
  if (i < 0) return 'Always';
  return last.slice(i + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

/**
 * `obj` with each of `defaults` filled in where the field is absent or holds its Go zero value
 * (`''` or `0`): SetDefaults_* test `== ""` / `== 0` on value fields, so an explicit empty enum is
 * defaulted too. Pointer fields (replicas, terminationGracePeriodSeconds …) keep an explicit zero,
 * so they are not passed here but spread.
 */
export function defaultZero(obj: Unstructured | undefined, defaults: Unstructured): Unstructured {
  const out: Unstructured = { ...obj };
  for (const k of Object.keys(defaults))
    if (out[k] === undefined || out[k] === '' || out[k] === 0) out[k] = defaults[k];
  return out;
}

/** A container after defaultPodSpec: its resources always set (maps of quantities, unchecked yet). */
interface DefaultedContainer {
  resources: { limits?: Unstructured; requests?: Unstructured };
}

function defaultProbe(p: Unstructured | undefined): Unstructured | undefined {
  if (!p) return p;
  return defaultZero(p, { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
}

/** SetDefaults_PodSpec (the fields the simulator reads). */
export function defaultPodSpec(spec: Unstructured | undefined): Unstructured {
  const s: Unstructured = defaultZero(
    { terminationGracePeriodSeconds: 30, securityContext: {}, ...spec },
    { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' },
  );
  const c = (x: Unstructured): Unstructured => {
    const out: Unstructured = defaultZero(x, {
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
    // ResourceRequirements is a struct, not a pointer: the API always serialises it, empty or not.
    out.resources ??= {};
    if (!out.imagePullPolicy && typeof out.image === 'string') out.imagePullPolicy = defaultImagePullPolicy(out.image);
    for (const k of ['livenessProbe', 'readinessProbe', 'startupProbe'])
      if (out[k]) out[k] = defaultProbe(out[k] as Unstructured);
    if (Array.isArray(out.ports))
      out.ports = (out.ports as Unstructured[]).map((p) => defaultZero(p, { protocol: 'TCP' }));
    return out;
  };
  if (Array.isArray(s.containers)) s.containers = (s.containers as Unstructured[]).map(c);
  if (Array.isArray(s.initContainers)) s.initContainers = (s.initContainers as Unstructured[]).map(c);
  return s;
}

function defaultTemplate(t: Unstructured | undefined): Unstructured | undefined {
  return t ? { ...t, spec: defaultPodSpec(t.spec as Unstructured | undefined) } : t;
}

/** The scheme defaults of each resource (run before admission plugins, as decoding does). */
export function applyDefaults(resource: string, obj: Unstructured, h: ApiHost): Unstructured {
  // Not validated yet: each kind's spec is read as the map it arrived as.
  const objSpec = obj.spec as Unstructured | undefined;
  switch (resource) {
    case 'pods': {
      // SetDefaults_Pod (not PodSpec: templates keep it unset) turns service links on.
      const spec = defaultPodSpec(objSpec);
      spec.enableServiceLinks ??= true;
      // …and gives each container's missing requests its limits (kubectl set resources --limits alone).
      for (const c of (spec.containers ?? []) as DefaultedContainer[])
        if (c.resources.limits)
          c.resources = { ...c.resources, requests: { ...c.resources.limits, ...c.resources.requests } };
      return { ...obj, spec, status: obj.status ?? { phase: 'Pending', qosClass: getPodQOS(spec) } };
    }
    case 'deployments': {
      const spec: Unstructured = { replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, ...objSpec };
      const strategy = defaultZero(spec.strategy as Unstructured | undefined, { type: 'RollingUpdate' });
      if (strategy.type === 'RollingUpdate')
        strategy.rollingUpdate = {
          maxUnavailable: '25%',
          maxSurge: '25%',
          ...(strategy.rollingUpdate as Unstructured | undefined),
        };
      spec.strategy = strategy;
      spec.template = defaultTemplate(spec.template as Unstructured | undefined);
      return { ...obj, spec, status: obj.status ?? {} };
    }
    case 'replicasets':
      return {
        ...obj,
        spec: { replicas: 1, ...objSpec, template: defaultTemplate(objSpec?.template as Unstructured | undefined) },
        status: obj.status ?? { replicas: 0 },
      };
    case 'services': {
      // An ExternalName Service gets no address, no IP families and no internalTrafficPolicy (SetDefaults_Service, initIPFamilyFields).
      const external = objSpec?.type === 'ExternalName';
      const spec: Unstructured = defaultZero(
        external
          ? { ...objSpec }
          : { ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster', ...objSpec },
        { type: 'ClusterIP', sessionAffinity: 'None' },
      );
      // targetPort: 0 and "" both mean "the same as port" (SetDefaults_Service).
      if (Array.isArray(spec.ports))
        spec.ports = (spec.ports as Unstructured[]).map((p) => defaultZero(p, { protocol: 'TCP', targetPort: p.port }));
      if (!external && !spec.clusterIP && spec.clusterIP !== 'None') {
        spec.clusterIP = allocateClusterIP(h);
        spec.clusterIPs = [spec.clusterIP];
      } else if (!external) {
        if (spec.clusterIP !== 'None') h.apiServer.allocatedIPs[spec.clusterIP as string] = 'x'; // an address asked for is taken too
        // normalizeClusterIPs: clusterIPs follows a clusterIP given alone ("None" included).
        if (!Array.isArray(spec.clusterIPs) || !spec.clusterIPs.length) spec.clusterIPs = [spec.clusterIP];
      }
      if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && Array.isArray(spec.ports)) {
        const taken = (h.apiServer.allocatedNodePorts ??= {});
        spec.ports = (spec.ports as Unstructured[]).map((p) => {
          if (p.nodePort) {
            taken[p.nodePort as number] = 'x';
            return p;
          }
          return { ...p, nodePort: allocateNodePort(h) };
        });
      }
      return { ...obj, spec, status: obj.status ?? { loadBalancer: {} } };
    }
    case 'namespaces': {
      // The API server labels every namespace with its own name (kubernetes.io/metadata.name, 1.21+).
      const m = obj.metadata as Unstructured | undefined;
      const name = m?.name;
      const meta = name
        ? { ...m, labels: { ...(m.labels as Unstructured | undefined), 'kubernetes.io/metadata.name': name } }
        : obj.metadata;
      return { ...obj, metadata: meta, spec: { finalizers: ['kubernetes'], ...objSpec }, status: { phase: 'Active' } };
    }
    case 'priorityclasses':
      // SetDefaults_PriorityClass.
      return obj.preemptionPolicy ? obj : { ...obj, preemptionPolicy: 'PreemptLowerPriority' };
    default:
      return obj;
  }
}

/** qos.GetPodQOS: Guaranteed when every container's requests equal its cpu+memory limits, BestEffort with none, else Burstable. */
function getPodQOS(spec: Unstructured | undefined): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const cs = [
    ...((spec?.containers ?? []) as DefaultedContainer[]),
    ...((spec?.initContainers ?? []) as DefaultedContainer[]),
  ];
  let any = false;
  let guaranteed = cs.length > 0;
  for (const c of cs) {
    const req: Unstructured = { ...c.resources?.limits, ...c.resources?.requests }; // requests default to limits
    const lim: Unstructured = c.resources?.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory'])
      if (lim[r] === undefined || String(req[r]) !== String(lim[r])) guaranteed = false;
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/**
 * The Service allocators' transaction: a function that releases every ClusterIP and NodePort taken
 * since it was made. The real registry allocates before validation and reverts when the create
 * fails (the allocation `txn.Revert()`), so a refused Service holds no address.
 */
export function allocationTxn(h: ApiHost): () => void {
  const ips = new Set(Object.keys(h.apiServer.allocatedIPs));
  const ports = new Set(Object.keys(h.apiServer.allocatedNodePorts ?? {}));
  return () => {
    for (const ip of Object.keys(h.apiServer.allocatedIPs)) if (!ips.has(ip)) delete h.apiServer.allocatedIPs[ip];
    const taken = h.apiServer.allocatedNodePorts ?? {};
    for (const port of Object.keys(taken)) if (!ports.has(port)) delete taken[port as unknown as number];
  };
}

/** A free ClusterIP from 10.96.0.0/12, chosen by the rng as the allocator picks at random. */
function allocateClusterIP(h: ApiHost): string {
  for (;;) {
    const off = 1 + int(h.rng, (1 << 20) - 2);
    const ip = `${10}.${96 + (off >> 16)}.${(off >> 8) & 255}.${off & 255}`;
    if (!h.apiServer.allocatedIPs[ip]) {
      h.apiServer.allocatedIPs[ip] = 'x';
      return ip;
    }
  }
}

/** --service-node-port-range's default, 30000-32767. */
const NODE_PORT_RANGE = { base: 30000, size: 2768 };

/**
 * A free NodePort. The allocator keeps the low band for ports asked for by number
 * (ServiceNodePortStaticSubrange: offset min(max(16, size/32), 128) = 86) and picks the others at
 * random from above it, here with the rng (a collision draws again where Go scans on to the next free port).
 */
function allocateNodePort(h: ApiHost): number {
  const taken = (h.apiServer.allocatedNodePorts ??= {});
  const offset = Math.min(Math.max(16, Math.floor(NODE_PORT_RANGE.size / 32)), 128);
  for (;;) {
    const port = NODE_PORT_RANGE.base + offset + int(h.rng, NODE_PORT_RANGE.size - offset);
    if (!taken[port]) {
      taken[port] = 'x';
      return port;
    }
  }
}
