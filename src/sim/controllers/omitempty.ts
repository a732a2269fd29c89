// The controllers write Go structs: an int32 field tagged `json:",omitempty"` that holds 0 is not
// serialised, so the API (and everyone reading it) never sees it. These helpers shape the plain
// objects the simulator's controllers send the same way.

/** apps/v1 ReplicaSetStatus's omitempty counters (replicas itself is always written). */
export const REPLICASET_STATUS_OMITEMPTY = [
  'fullyLabeledReplicas',
  'readyReplicas',
  'availableReplicas',
  'observedGeneration',
] as const;
/** apps/v1 DeploymentStatus's omitempty counters. */
export const DEPLOYMENT_STATUS_OMITEMPTY = [
  'observedGeneration',
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
] as const;

/** `o` without the listed fields that are 0 (the same object when none is). */
export function omitZero<T extends object>(o: T, keys: readonly string[]): T {
  let out: T | undefined;
  for (const k of keys) {
    if ((o as Record<string, unknown>)[k] !== 0) continue;
    out ??= { ...o };
    delete (out as Record<string, unknown>)[k];
  }
  return out ?? o;
}
