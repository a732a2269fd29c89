// What the rolling-update widgets read from the store: the Deployment web and the ReplicaSets it owns
// (by ownerReference uid, as the Deployment controller adopts them), with the revision annotation
// the controller writes on both.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import { storeList } from '../view/stored.ts';
import type { Cluster } from '../cluster.ts';
import { WEB } from './widget-web.ts';

/** The annotation the Deployment controller keeps a rollout's number in. */
const REVISION = 'deployment.kubernetes.io/revision';

/** An object's revision annotation as a number, or null without one. */
export function revisionOf(o: { metadata?: { annotations?: Record<string, string> } } | undefined): number | null {
  const r = o?.metadata?.annotations?.[REVISION];
  return r === undefined ? null : Number(r);
}

/** The stored Deployment web (if any) and the ReplicaSets it owns. */
export function webReplicaSets(cluster: Cluster): { deployment: Deployment | undefined; replicaSets: ReplicaSet[] } {
  const store = cluster.world.state.store;
  const deployment = storeList(store, 'deployments', 'default').find((x) => x.metadata?.name === WEB);
  const uid = deployment?.metadata?.uid;
  const replicaSets = storeList(store, 'replicasets', 'default').filter(
    (rs) => uid !== undefined && rs.metadata?.ownerReferences?.some((o) => o.uid === uid),
  );
  return { deployment, replicaSets };
}
