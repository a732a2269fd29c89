// The memos of replicaset-controller.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one replicaset-controller.ts computes without them.

import type { InformerState } from '../client-go/informer.ts';
import type { Tally } from './replicaset-controller.ts';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { OwnerReference } from 'kubernetes-types/meta/v1';

/**
 * The lister key a controllerRef names, kept per owner uid: every pod of an RS, in every version, names
 * it, so the key is built (and hashed as a property name) once per owner, not per notification.
 * Behaviour-side and bounded, never state.
 * (The memo behind replicaset-controller.ts' refKey.)
 */
export const refKeys = new Map<string, { ns: string | undefined; name: string; key: string }>();

/** The memo behind replicaset-controller.ts' relatedPodsOf (behaviour-side, never state). */
export const tallies = new WeakMap<InformerState<Pod>, Map<string, Tally>>();

/**
 * What every pod created from one RS version carries alike: generateName and the controller reference.
 * (The memo behind replicaset-controller.ts' podFromTemplate.)
 */
export const podParts = new WeakMap<ReplicaSet, { generateName: string; ownerReferences: OwnerReference[] }>();
