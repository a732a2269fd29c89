// The memos of node-info.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one node-info.ts computes without them.

import type { HostPort, PodResource } from './node-info.ts';
import type { Container, Pod } from 'kubernetes-types/core/v1';

/** The memo behind node-info.ts' computePodResource (behaviour-side, never state). */
export const podResourceCache = new WeakMap<Pod, PodResource>();

/** The memo behind node-info.ts' podHostPorts (behaviour-side, never state). */
export const hostPortCache = new WeakMap<Pod, HostPort[]>();

/**
 * The copies of one pod (the informer's, the scheduler's assumed one, each status update) share
 * their containers array, so a pod with nothing but containers is cached by that array: one entry
 * per pod instead of one per copy. Stored objects are immutable, so the arrays never change.
 * (The memo behind node-info.ts' computePodResource.)
 */
export const byContainers = new WeakMap<Container[], PodResource>();

/** The memo behind node-info.ts' podHostPorts (behaviour-side, never state). */
export const hostPortsByContainers = new WeakMap<Container[], HostPort[]>();
