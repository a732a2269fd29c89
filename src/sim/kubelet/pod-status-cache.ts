// The memos of pod-status.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one pod-status.ts computes without them.

import type { ResourceList } from './pod-status.ts';
import type { Container, ResourceRequirements, VolumeMount, VolumeMountStatus } from 'kubernetes-types/core/v1';

/**
 * One status list per spec list (the spec's mounts never change): statuses built again for every
 * generation would be new arrays each time.
 * (The memo behind pod-status.ts' volumeMountStatuses.)
 */
export const mountStatuses = new WeakMap<VolumeMount[], VolumeMountStatus[]>();

/** The memo behind pod-status.ts' podLevelResources (behaviour-side, never state). */
export const podResources = new WeakMap<object, { allocated?: ResourceList; resources: ResourceRequirements }>();

/** container name → the ContainersNotReady message when it alone is unready (one string per name; behaviour-side). */
export const unreadyMessages = new Map<string, string>();

/** containers → QOS class (a pod's spec does not change under the kubelet; behaviour-side). */
export const qosOf = new WeakMap<Container[], 'Guaranteed' | 'Burstable' | 'BestEffort'>();
