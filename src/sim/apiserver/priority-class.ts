// scheduling.k8s.io/v1 PriorityClass: the two system classes the API server bootstraps
// (pkg/apis/scheduling/v1/helpers.go, the "scheduling/bootstrap-system-priority-classes" post-start
// hook), the registry's refusal to delete them, and the Priority admission plugin's half for
// PriorityClasses (one globalDefault) and the default class pods get (plugin/pkg/admission/priority).
import type { AdmissionAttributes } from './config.ts';
import type { Unstructured } from '../api/unstructured.ts';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import type { ApiHost } from './server.ts';
import { type Status, statusError } from '../api/status.ts';
import { storeList } from './store.ts';

/** The PriorityClasses every API server bootstraps (scheduling.SystemPriorityClasses), by value. */
export const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

/** The system classes as the post-start hook creates them, in its order. */
export const SYSTEM_PRIORITY_CLASS_OBJECTS: readonly Unstructured[] = [
  {
    name: 'system-node-critical',
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
].map(({ name, description }) => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value: SYSTEM_PRIORITY_CLASSES[name],
  description,
}));

/** The registry's Delete refusal for a system class (priorityclass/storage), or undefined. */
export function systemPriorityClassDeleteError(name: string) {
  if (SYSTEM_PRIORITY_CLASSES[name] === undefined) return undefined;
  return statusError(
    403,
    'Forbidden',
    `priorityclasses.scheduling.k8s.io "${name}" is forbidden: this is a system priority class and cannot be deleted`,
    { name, group: 'scheduling.k8s.io', kind: 'priorityclasses' },
  );
}

/** A stored PriorityClass (its value is required: validation and the bootstrap set it). */
type StoredPriorityClass = Partial<PriorityClass>;

/** getDefaultPriorityClass: among globalDefault classes, the lowest value. */
export function getDefaultPriorityClass(h: ApiHost): StoredPriorityClass | undefined {
  let dpc: StoredPriorityClass | undefined;
  for (const pc of storeList(h.store, 'priorityclasses') as StoredPriorityClass[]) {
    if (pc.globalDefault && (!dpc || dpc.value! > pc.value!)) dpc = pc;
  }
  return dpc;
}

/** The stored PriorityClass of that name. */
export function getPriorityClass(h: ApiHost, name: string): StoredPriorityClass | undefined {
  return (storeList(h.store, 'priorityclasses') as StoredPriorityClass[]).find((pc) => pc.metadata?.name === name);
}

/**
 * Priority's Validate for PriorityClasses: a second globalDefault class is refused (an update may keep
 * the flag on the class that has it).
 */
export function validatePriorityClassAdmission(a: AdmissionAttributes, h: ApiHost): Status | undefined {
  if (a.resource !== 'priorityclasses' || a.subresource) return undefined;
  if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return undefined;
  const pc = a.object as StoredPriorityClass | undefined;
  if (!pc?.globalDefault) return undefined;
  const dpc = getDefaultPriorityClass(h);
  if (dpc && (a.operation === 'CREATE' || dpc.metadata?.name !== pc.metadata?.name)) {
    return statusError(
      403,
      'Forbidden',
      `priorityclasses.scheduling.k8s.io "${a.name ?? pc.metadata?.name ?? ''}" is forbidden: PriorityClass ${dpc.metadata?.name} is already marked as default. Only one default can exist`,
      { name: a.name ?? pc.metadata?.name, group: 'scheduling.k8s.io', kind: 'priorityclasses' },
    );
  }
  return undefined;
}
