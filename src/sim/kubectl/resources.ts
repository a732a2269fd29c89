// kubectl's view of the served resources: names, short names, singular NAME prefixes.
import { OTHER_GROUP_VERSIONS, RESOURCES } from '../api/resources.ts';

/** What kubectl knows about one resource type. */
export interface KindInfo {
  resource: string;
  /** `deployment.apps`: the prefix of `-o name` and of multi-kind tables. */
  singular: string;
  namespaced: boolean;
}

/** The resource types kubectl serves here, with the other names it accepts for them. */
export const RESOURCE_ALIASES: Record<string, string[]> = {
  pods: ['pod', 'po'],
  deployments: ['deployment', 'deploy'],
  replicasets: ['replicaset', 'rs'],
  nodes: ['node', 'no'],
  events: ['event', 'ev'],
  leases: ['lease'],
  endpointslices: ['endpointslice'],
  services: ['service', 'svc'],
  namespaces: ['namespace', 'ns'],
  priorityclasses: ['priorityclass', 'pc'],
  poddisruptionbudgets: ['poddisruptionbudget', 'pdb'],
  serviceaccounts: ['serviceaccount', 'sa'],
  configmaps: ['configmap', 'cm'],
};

/** Resolve a type argument (`po`, `deployments.apps`, `Deployment`) to a resource, or undefined. */
export function resolveKind(arg: string): KindInfo | undefined {
  const a = arg.toLowerCase();
  for (const [resource, aliases] of Object.entries(RESOURCE_ALIASES)) {
    const info = RESOURCES[resource];
    const group = info.group;
    const names = [resource, ...aliases];
    const ok =
      names.includes(a) || (group && names.some((n) => `${n}.${group}` === a)) || info.kind.toLowerCase() === a;
    if (ok) return kindInfo(resource);
  }
  return undefined;
}

/** The KindInfo of a served resource name. */
export function kindInfo(resource: string): KindInfo {
  const info = RESOURCES[resource];
  const base = info.kind.toLowerCase();
  return { resource, singular: info.group ? `${base}.${info.group}` : base, namespaced: info.namespaced };
}

/** The resource name for a manifest's kind (`Deployment` → deployments). */
export function resourceForKind(kind: string): string | undefined {
  return Object.keys(RESOURCES).find((r) => RESOURCES[r].kind === kind);
}

/** The short names kubectl lists for a resource (the aliases that are not its singular). */
export function shortNames(resource: string): string[] {
  const singular = RESOURCES[resource]?.kind.toLowerCase();
  return (RESOURCE_ALIASES[resource] ?? []).filter((a) => a !== singular);
}

/**
 * The lower-priority resource a short name typed as-is could also mean, which restmapper's
 * shortcutExpander warns of: `ev` is the short name of events and of events.events.k8s.io.
 */
export function ambiguousShortcut(arg: string): string | undefined {
  for (const [resource, others] of Object.entries(OTHER_GROUP_VERSIONS))
    if (shortNames(resource).includes(arg)) return `${resource}.${others[0].group}`;
  return undefined;
}
