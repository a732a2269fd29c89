// What the inline widgets' pictures read from a frame about the Deployment web: its newest
// ReplicaSet, spec.replicas, the active pods and every pod in name order.
import type { Frame, PodView } from '../../sim/view/types.ts';

/** web as a widget's picture shows it, or null before it exists. */
interface WebView {
  rs: string;
  replicas: number;
  active: number;
  pods: PodView[];
}

/** Reads web from the frame (the newest ReplicaSet by revision names the pods' owner). */
export function webView(f: Frame): WebView | null {
  const d = f.deployments.find((x) => x.name === 'web' && x.namespace === 'default');
  if (!d || !d.replicaSets.length) return null;
  const owners = new Set(d.replicaSets.map((rs) => `ReplicaSet/${rs.name}`));
  const pods = [...f.pending, ...f.pods]
    .filter((p) => p.owner !== null && owners.has(p.owner))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const newest = [...d.replicaSets].sort((a, b) => Number(b.revision) - Number(a.revision))[0];
  return { rs: newest.name, replicas: d.replicas, active: pods.filter((p) => !p.terminating).length, pods };
}
