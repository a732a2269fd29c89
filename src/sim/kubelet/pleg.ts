// The PLEG (pkg/kubelet/pleg/generic.go): each relist compares the runtime's containers with the
// cache of what it saw last time and reports the pods whose containers changed state.
import type { ContainerRecord } from './container-runtime.ts';
import { mapChangeLog, mapVersion } from './container-runtime.ts';
import { mapToken, sameMap, type KubeletState, type MapToken } from './kubelet-state.ts';
import { plegClean, plegSeen } from './pleg-cache.ts';

/** The key of the pod worker that owns a sandbox, if any. */
function podOfSandbox(st: KubeletState, sandboxId: string): string | undefined {
  // The sandbox names its pod, and sandbox ids are unique: try that worker before scanning them all.
  const sb = st.runtime.sandboxes[sandboxId];
  const w = sb && st.workers[`${sb.namespace}/${sb.podName}`];
  if (w && w.sandboxId === sandboxId) return w.key;
  for (const k in st.workers) if (st.workers[k].sandboxId === sandboxId) return st.workers[k].key;
  return undefined;
}

/**
 * The ids a relist has to look at. When the runtime's map is the object the last relist saw, only the
 * entries set in place since then can differ from the cache (any other change copies the map, and
 * whoever edits the cache outside a relist drops its plegSeen token), so those are enough; otherwise
 * all of them.
 */
function candidates(
  containers: Record<string, ContainerRecord>,
  seen: MapToken | undefined,
  full: boolean,
): Iterable<string> {
  if (full || !seen || seen.map !== containers) return Object.keys(containers);
  return mapChangeLog(containers).slice(seen.version);
}

/**
 * One relist: record in the cache every container whose state changed since the last relist (created
 * ones are not reported until they run) and forget the ones gone. Returns the keys of the pods to sync,
 * sorted. `full` compares every container (what the incremental relist must agree with).
 */
export function relist(st: KubeletState, full = false): string[] {
  const containers = st.runtime.containers;
  const seen = plegSeen.get(st.plegCache);
  if (!full && sameMap(seen, containers)) return []; // nothing changed since the last relist
  const incremental = !full && seen !== undefined && seen.map === containers;
  const dirty = new Set<string>();
  for (const id of candidates(containers, seen, full)) {
    const c = containers[id];
    if (c.state === 'CONTAINER_CREATED') continue;
    const old = st.plegCache[c.id];
    if (old && old.state === c.state) continue;
    st.plegCache[c.id] = c;
    const key = podOfSandbox(st, c.sandboxId);
    if (key) dirty.add(key);
  }
  // In-place updates never remove a container, so only a new map can leave cache entries behind.
  if (!incremental) for (const id in st.plegCache) if (!containers[id]) delete st.plegCache[id];
  plegSeen.set(st.plegCache, mapToken(containers));
  return [...dirty].sort();
}

/** Whether the next relist would report a container change (the same test as relist). */
export function relistPending(st: KubeletState, full = false): boolean {
  const containers = st.runtime.containers;
  const seen = plegSeen.get(st.plegCache);
  if (!full) {
    // sameMap against either token, with the map's version looked up once (this runs after every event).
    const version = mapVersion(containers);
    if (seen !== undefined && seen.map === containers && seen.version === version) return false;
    const clean = plegClean.get(st.plegCache);
    if (clean !== undefined && clean.map === containers && clean.version === version) return false;
  }
  for (const id of candidates(containers, seen, full)) {
    const c = containers[id];
    if (c.state === 'CONTAINER_CREATED') continue;
    const old = st.plegCache[c.id];
    if (!old || old.state !== c.state) return true;
  }
  if (!full) plegClean.set(st.plegCache, mapToken(containers));
  return false;
}
