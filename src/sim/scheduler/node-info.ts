import type { Container, Node, Pod } from 'kubernetes-types/core/v1';
import { quantityMilliValue, quantityValue } from '../api/quantity.ts';
import { adjustMatchCounts } from './match-counts.ts';
import { byContainers, hostPortCache, hostPortsByContainers, podResourceCache } from './node-info-cache.ts';
import { lastCall } from '../util/memo.ts';

// framework.NodeInfo reduced to what the default plugins read. It is plain data (arrays and
// records) so it can live in the world state; add/remove update the totals incrementally, so
// scheduling never rescans every pod in the cluster.

/** Default CPU request (millicores) the scheduler assumes for a container without one (pkg/scheduler/util DefaultMilliCPURequest). */
const DEFAULT_MILLI_CPU_REQUEST = 100;
/** Default memory request (bytes) assumed for a container without one: 200 MiB (DefaultMemoryRequest). */
const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;
/** Kubelet's default maxPods, used when a Node has no `allocatable.pods`. */
const DEFAULT_MAX_PODS = 110;

/** framework.Resource for the resources the simulation models. */
export interface Resource {
  milliCPU: number;
  memory: number;
  allowedPodNumber: number;
}

/** The requests of one pod, as NodeInfo.update and NodeResourcesFit see them. */
export interface PodResource {
  /** resourcehelper.PodRequests: what the pod asked for. */
  requests: { milliCPU: number; memory: number };
  /** The same with 100m / 200Mi for containers that set no request (used for spreading scores). */
  nonZero: { milliCPU: number; memory: number };
}

/**
 * Verdicts of the node-local plugins for one pod shape (signature id), valid for `gen`: the pods of
 * one ReplicaSet share them, so a burst re-runs the plugins only on nodes that changed. Kept under a
 * symbol key, which structuredClone and JSON skip: snapshots never carry it, and a signature id
 * (meaningful only in this process) can never meet a cache from another run.
 */
export interface LocalCache {
  gen: number;
  sig: number;
  fail: { plugin: string; code: string; reasons: string[] } | null | undefined;
  raw: number[];
  fixed: number;
}

/** The symbol the local cache hangs on. */
export const LOCAL_CACHE: unique symbol = Symbol('localCache');

/** One NodeInfo: the node, the pods on it and running totals. */
export interface NodeInfo {
  node: Node;
  name: string;
  pods: Pod[];
  requested: Resource;
  nonZeroRequested: Resource;
  allocatable: Resource;
  /** HostPortInfo flattened to "ip/protocol/port" → number of pods holding it. */
  usedPorts: Record<string, number>;
  /** Bumped on every change, like NodeInfo.Generation; caches key on it. */
  generation: number;
  /**
   * Matching-pod counts per selector key (PodTopologySpread, see match-counts.ts), valid while
   * `matchCountsGeneration` equals `generation`; AddPod/RemovePod keep them up to date.
   */
  matchCounts?: Record<string, number>;
  /** The keys of matchCounts in the order they were added (walked on every AddPod/RemovePod). */
  matchCountKeys?: string[];
  matchCountsGeneration?: number;
  /** Node-local plugin verdicts (see LOCAL_CACHE): a symbol key, so never part of the state. */
  [LOCAL_CACHE]?: LocalCache;
}

/** One host port a container asks for. */
export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

function containerRequests(c: Container, nonZero: boolean): { milliCPU: number; memory: number } {
  const req = c.resources?.requests ?? {};
  // Only a *missing* request gets the default (applyNonMissing); an explicit "0" stays 0.
  const hasCPU = req.cpu !== undefined;
  const hasMem = req.memory !== undefined;
  return {
    milliCPU: hasCPU ? quantityMilliValue(req.cpu) : nonZero ? DEFAULT_MILLI_CPU_REQUEST : 0,
    memory: hasMem ? quantityValue(req.memory) : nonZero ? DEFAULT_MEMORY_REQUEST : 0,
  };
}

// resourcehelper.PodRequests: sum of app containers and sidecars, at least the largest init
// container (plus the sidecars started before it), plus pod overhead.
function podRequests(pod: Pod, nonZero: boolean): { milliCPU: number; memory: number } {
  let cpu = 0;
  let mem = 0;
  for (const c of pod.spec?.containers ?? []) {
    const r = containerRequests(c, nonZero);
    cpu += r.milliCPU;
    mem += r.memory;
  }
  let sidecarCPU = 0;
  let sidecarMem = 0;
  let initCPU = 0;
  let initMem = 0;
  for (const ic of pod.spec?.initContainers ?? []) {
    const r = containerRequests(ic, nonZero);
    let useCPU: number;
    let useMem: number;
    if (ic.restartPolicy === 'Always') {
      cpu += r.milliCPU;
      mem += r.memory;
      sidecarCPU += r.milliCPU;
      sidecarMem += r.memory;
      useCPU = sidecarCPU;
      useMem = sidecarMem;
    } else {
      useCPU = r.milliCPU + sidecarCPU;
      useMem = r.memory + sidecarMem;
    }
    initCPU = Math.max(initCPU, useCPU);
    initMem = Math.max(initMem, useMem);
  }
  cpu = Math.max(cpu, initCPU);
  mem = Math.max(mem, initMem);
  const overhead = pod.spec?.overhead;
  if (overhead) {
    cpu += quantityMilliValue(overhead.cpu);
    mem += quantityValue(overhead.memory);
  }
  return { milliCPU: cpu, memory: mem };
}

/** The pod's requests and non-zero requests (cached per pod object: stored objects are immutable). */
export const computePodResource = lastCall((pod: Pod): PodResource => {
  // The score plugins ask for the same pod once per node per plugin: lastCall skips the WeakMap for a repeat.
  const sp = pod.spec;
  const onlyContainers = sp?.containers && !sp.initContainers && !sp.overhead ? sp.containers : undefined;
  const cache = onlyContainers ? byContainers : podResourceCache;
  const key = onlyContainers ?? pod;
  let r = (cache as WeakMap<object, PodResource>).get(key);
  if (!r) {
    r = { requests: podRequests(pod, false), nonZero: podRequests(pod, true) };
    (cache as WeakMap<object, PodResource>).set(key, r);
  }
  return r;
});

/** Node.status.allocatable as a Resource (pods default to 110). */
export function allocatableOf(node: Node): Resource {
  const a = node.status?.allocatable ?? {};
  return {
    milliCPU: quantityMilliValue(a.cpu),
    memory: quantityValue(a.memory),
    allowedPodNumber: a.pods !== undefined ? quantityValue(a.pods) : DEFAULT_MAX_PODS,
  };
}

/** The host ports a pod asks for, as "ip/protocol/port" keys (defaults 0.0.0.0 and TCP). */
export function podHostPorts(pod: Pod): readonly HostPort[] {
  const sp = pod.spec;
  const onlyContainers = sp?.containers && !sp.initContainers ? sp.containers : undefined;
  let r = onlyContainers ? hostPortsByContainers.get(onlyContainers) : hostPortCache.get(pod);
  if (!r) {
    const out: HostPort[] = [];
    const collect = (c: Container) => {
      for (const p of c.ports ?? []) {
        if (!p.hostPort || p.hostPort <= 0) continue;
        out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
      }
    };
    // Sidecars (restartable init containers) keep their ports for the pod's lifetime.
    for (const c of pod.spec?.initContainers ?? []) if (c.restartPolicy === 'Always') collect(c);
    for (const c of pod.spec?.containers ?? []) collect(c);
    r = out;
    if (onlyContainers) hostPortsByContainers.set(onlyContainers, r);
    else hostPortCache.set(pod, r);
  }
  return r;
}

function portKey(ip: string, protocol: string, port: number): string {
  return `${ip}/${protocol}/${port}`;
}

/** NewNodeInfo + SetNode + AddPod for each pod. */
export function newNodeInfo(node: Node, pods: Pod[] = []): NodeInfo {
  const ni: NodeInfo = {
    node,
    name: node.metadata?.name ?? '',
    pods: [],
    requested: { milliCPU: 0, memory: 0, allowedPodNumber: 0 },
    nonZeroRequested: { milliCPU: 0, memory: 0, allowedPodNumber: 0 },
    allocatable: allocatableOf(node),
    usedPorts: {},
    generation: 0,
  };
  for (const p of pods) addPod(ni, p);
  return ni;
}

/**
 * Every NodeInfo change in order (a module-level journal, not state): caches over all nodes, such as
 * PodTopologySpread's per-domain counts, catch up on the few nodes that changed instead of rescanning
 * a thousand. A cache whose cursor fell out of the kept window simply rescans.
 */
export const nodeInfoJournal: { base: number; log: NodeInfo[]; counted: CountedChange[] } = {
  base: 0,
  log: [],
  counted: [],
};

/**
 * Which matchCounts moved in a journal entry, by key id (matchCountKeyId): −1 none, an id that one,
 * several ids, null "any" (the counts were dropped or not kept), or false: none, but the node
 * itself changed (SetNode). Lets per-selector caches skip other selectors' changes.
 */
export type CountedChange = number | number[] | null | false;

function journal(ni: NodeInfo, counted: CountedChange): void {
  const j = nodeInfoJournal;
  j.log.push(ni);
  j.counted.push(counted);
  if (j.log.length > 65_536) {
    j.log = j.log.slice(32_768);
    j.counted = j.counted.slice(32_768);
    j.base += 32_768;
  }
}

/** NodeInfo.SetNode: a node update (labels, taints, allocatable) keeps the pods. */
export function setNode(ni: NodeInfo, node: Node): void {
  ni.node = node;
  ni.name = node.metadata?.name ?? '';
  ni.allocatable = allocatableOf(node);
  // The counts are over the pods, which a node update leaves alone.
  const keep = ni.matchCounts !== undefined && ni.matchCountsGeneration === ni.generation;
  ni.generation++;
  if (keep) ni.matchCountsGeneration = ni.generation;
  // The counts stand, but the node's labels (its domains) may not.
  journal(ni, false);
}

const movedKeys: number[] = [];

function update(ni: NodeInfo, pod: Pod, sign: 1 | -1): void {
  const r = computePodResource(pod);
  ni.requested.milliCPU += sign * r.requests.milliCPU;
  ni.requested.memory += sign * r.requests.memory;
  ni.nonZeroRequested.milliCPU += sign * r.nonZero.milliCPU;
  ni.nonZeroRequested.memory += sign * r.nonZero.memory;
  for (const hp of podHostPorts(pod)) {
    const k = portKey(hp.ip, hp.protocol, hp.port);
    const n = (ni.usedPorts[k] ?? 0) + sign;
    if (n > 0) ni.usedPorts[k] = n;
    else delete ni.usedPorts[k];
  }
  movedKeys.length = 0;
  const keep =
    ni.matchCounts !== undefined &&
    ni.matchCountsGeneration === ni.generation &&
    adjustMatchCounts(ni, ni.matchCounts, ni.matchCountKeys, pod, sign, movedKeys);
  ni.generation++;
  if (keep) ni.matchCountsGeneration = ni.generation;
  // Without kept counts, any count may read differently now (null); with them, exactly movedKeys moved.
  journal(ni, !keep ? null : movedKeys.length === 0 ? -1 : movedKeys.length === 1 ? movedKeys[0] : movedKeys.slice());
}

/** NodeInfo.AddPod: the pod now occupies the node (assumed or bound). */
export function addPod(ni: NodeInfo, pod: Pod): void {
  ni.pods.push(pod);
  update(ni, pod, 1);
}

function podKey(p: Pod): string {
  return p.metadata?.uid || `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;
}

/** NodeInfo.RemovePod (matched by uid, else namespace/name); returns false if the pod was not there. */
export function removePod(ni: NodeInfo, pod: Pod): boolean {
  const k = podKey(pod);
  const i = ni.pods.findIndex((p) => podKey(p) === k);
  if (i < 0) return false;
  const removed = ni.pods[i];
  // Same swap-with-last removal as removeFromSlice, so pod order matches Kubernetes'.
  ni.pods[i] = ni.pods[ni.pods.length - 1];
  ni.pods.pop();
  update(ni, removed, -1);
  return true;
}

/** HostPortInfo.CheckConflict: 0.0.0.0 conflicts with every IP for the same protocol/port. */
export function hostPortConflicts(ni: NodeInfo, ip: string, protocol: string, port: number): boolean {
  if (ip === '0.0.0.0') {
    const suffix = `/${protocol}/${port}`;
    for (const k of Object.keys(ni.usedPorts)) if (k.endsWith(suffix)) return true;
    return false;
  }
  return portKey(ip, protocol, port) in ni.usedPorts || portKey('0.0.0.0', protocol, port) in ni.usedPorts;
}

/** A deep-enough copy for what-if evaluation (preemption dry runs). */
export function cloneNodeInfo(ni: NodeInfo): NodeInfo {
  return {
    ...ni,
    pods: [...ni.pods],
    requested: { ...ni.requested },
    nonZeroRequested: { ...ni.nonZeroRequested },
    allocatable: { ...ni.allocatable },
    usedPorts: { ...ni.usedPorts },
    // Its own counts: RemovePod on the copy must not move the original's.
    matchCounts: ni.matchCounts && { ...ni.matchCounts },
    matchCountKeys: ni.matchCountKeys && [...ni.matchCountKeys],
  };
}
