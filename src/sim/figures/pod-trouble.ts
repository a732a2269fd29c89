// What the troubleshooting figure's panel shows for each pod of a Deployment: its first container as
// the API server has it (what `kubectl describe pod` prints: state, reason, ready, restarts, last
// state) and the back-off its node's kubelet holds for it (the wait it is in, or the one the next
// exit gets), read from the kubelet's own flowcontrol.Backoff entries, keyed as the kubelet keys them;
// and the Service's endpoints as its EndpointSlices list them.
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { Cluster } from '../cluster.ts';
import type { KubeletState } from '../kubelet/kubelet-state.ts';

/** The kubelet's back-off for one container: a crash-loop restart or an image pull. */
export type PodBackoff = {
  kind: 'restart' | 'pull';
  /** The wait in seconds (10, 20, 40 … 300). */
  waitS: number;
  /** Seconds left of it while the container waits (null while it runs: the wait applies to its next exit). */
  leftS: number | null;
};

/** One pod of the Deployment, as the panel shows it. */
export type PodTrouble = {
  name: string;
  node: string | null;
  /** The container's state, or none before its kubelet reported one. */
  state: 'Waiting' | 'Running' | 'Terminated' | 'none';
  /** The waiting or terminated reason (ErrImagePull, CrashLoopBackOff, OOMKilled …), or null while running. */
  reason: string | null;
  ready: boolean;
  restartCount: number;
  /** How the previous attempt ended (lastState.terminated), or null. */
  last: { reason: string; exitCode: number } | null;
  /** The back-off the kubelet holds for it, or null: nothing failed lately, the next exit restarts at once. */
  backoff: PodBackoff | null;
  terminating: boolean;
};

// The kubelet's back-off keys and expiry, as kubelet/backoff.ts has them (getStableKey with the spec
// hash '0' the core uses, imagePullBackOffKey, hasExpired). Written out here because this figure's
// chunk importing backoff.ts splits it off the core into a chunk of its own on the worker's start
// path (1.3 KB gzip); pod-trouble.test.ts checks that they agree with backoff.ts.
/** getStableKey(pod, container): the crash-loop back-off's key. */
export const crashKey = (name: string, namespace: string, uid: string, container: string): string =>
  `${name}_${namespace}_${uid}_${container}_0`;
/** imagePullBackOffKey(uid, image): the image-pull back-off's key. */
export const pullKey = (uid: string, image: string): string => `${uid}_${image}`;
/** hasExpired: an entry not bumped for 2 × the maximum is forgotten. */
export const expired = (now: number, lastUpdateMs: number, maxMs: number): boolean => now - lastUpdateMs > maxMs * 2;

/** The stored objects of a resource in a namespace, by key (what storeList gives, read without importing the store's module). */
function stored<T>(cluster: Cluster, resource: string, namespace: string): T[] {
  const bucket = cluster.world.state.store.objects[resource] ?? {};
  return Object.keys(bucket)
    .sort()
    .map((k) => bucket[k] as T & { metadata?: { namespace?: string } })
    .filter((o) => o.metadata?.namespace === namespace);
}

function kubeletOf(cluster: Cluster, node: string | undefined): KubeletState | undefined {
  if (!node) return undefined;
  return cluster.world.state.components[`kubelet/${node}`]?.state as KubeletState | undefined;
}

/** When the container's current attempt ended on its node (containerd's finishedAt), or null. */
function finishedAtOf(k: KubeletState, key: string, container: string): number | null {
  const c = k.workers[key]?.containers.find((x) => x.name === container);
  const id = c?.attempts[c.attempts.length - 1];
  const finished = id ? k.runtime.containers[id]?.finishedAt : undefined;
  return finished ?? null;
}

/** The kubelet's back-off for the pod's first container at `now`. */
export function backoffOf(
  k: KubeletState | undefined,
  pod: Pod,
  cs: ContainerStatus | undefined,
  now: number,
): PodBackoff | null {
  if (!k?.up) return null;
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? 'default';
  const uid = pod.metadata?.uid ?? '';
  const spec = pod.spec?.containers?.[0];
  if (!spec) return null;
  const waiting = cs?.state?.waiting?.reason;
  if (waiting === 'ErrImagePull' || waiting === 'ImagePullBackOff') {
    // image_manager.go: the next pull waits until the back-off counted from the last failed pull is over.
    const e = k.imageBackoff.perItemBackoff[pullKey(uid, spec.image ?? '')];
    if (!e || expired(now, e.lastUpdateMs, k.imageBackoff.maxDurationMs)) return null;
    return {
      kind: 'pull',
      waitS: e.backoffMs / 1000,
      leftS: Math.max(0, Math.ceil((e.lastUpdateMs + e.backoffMs - now) / 1000)),
    };
  }
  const e = k.crashBackoff.perItemBackoff[crashKey(name, namespace, uid, spec.name)];
  if (!e) return null;
  if (waiting === 'CrashLoopBackOff') {
    // doBackOff: the wait counts from the last exit.
    const finished = finishedAtOf(k, `${namespace}/${name}`, spec.name);
    return {
      kind: 'restart',
      waitS: e.backoffMs / 1000,
      leftS: finished === null ? null : Math.max(0, Math.ceil((finished + e.backoffMs - now) / 1000)),
    };
  }
  // Running (or just exited): its next exit waits the current delay, unless the entry has expired (10 min without a restart).
  if (expired(now, e.lastUpdateMs, k.crashBackoff.maxDurationMs)) return null;
  return { kind: 'restart', waitS: e.backoffMs / 1000, leftS: null };
}

/** Every pod of Deployment `name` (by its ReplicaSets' owner references' name prefix), by name. */
export function podTroublesOf(cluster: Cluster, name: string, namespace = 'default'): PodTrouble[] {
  const now = cluster.now;
  const pods = stored<Pod>(cluster, 'pods', namespace).filter((p) =>
    p.metadata?.ownerReferences?.some((o) => o.kind === 'ReplicaSet' && o.name.startsWith(`${name}-`)),
  );
  return pods
    .map((p): PodTrouble => {
      const cs = p.status?.containerStatuses?.[0];
      const st = cs?.state;
      const state: PodTrouble['state'] = st?.waiting
        ? 'Waiting'
        : st?.running
          ? 'Running'
          : st?.terminated
            ? 'Terminated'
            : 'none';
      const last = cs?.lastState?.terminated;
      return {
        name: p.metadata?.name ?? '',
        node: p.spec?.nodeName ?? null,
        state,
        reason: st?.waiting?.reason ?? st?.terminated?.reason ?? null,
        ready: cs?.ready === true,
        restartCount: cs?.restartCount ?? 0,
        last: last ? { reason: last.reason ?? '', exitCode: last.exitCode } : null,
        backoff: backoffOf(kubeletOf(cluster, p.spec?.nodeName), p, cs, now),
        terminating: !!p.metadata?.deletionTimestamp,
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** One endpoint of a Service's EndpointSlices: its address, its pod, and whether the slice marks it ready. */
export interface SliceEndpoint {
  ip: string;
  pod: string;
  node: string;
  /** conditions.ready is not false: kube-proxy sends it traffic. */
  ready: boolean;
}

/** The endpoints of Service `service`'s EndpointSlices (label kubernetes.io/service-name), by address. */
export function sliceEndpointsOf(cluster: Cluster, service: string, namespace = 'default'): SliceEndpoint[] {
  const slices = stored<EndpointSlice>(cluster, 'endpointslices', namespace).filter(
    (s) => s.metadata?.labels?.['kubernetes.io/service-name'] === service,
  );
  const out: SliceEndpoint[] = [];
  for (const s of slices) {
    for (const e of s.endpoints ?? [])
      out.push({
        ip: e.addresses[0] ?? '',
        pod: e.targetRef?.name ?? '',
        node: e.nodeName ?? '',
        ready: e.conditions?.ready !== false,
      });
  }
  return out.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
}
