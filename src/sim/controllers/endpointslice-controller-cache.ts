// The memos of endpointslice-controller.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one endpointslice-controller.ts computes without them.

import type { Desired } from './endpointslice-controller.ts';
import type { Node, Pod, Service } from 'kubernetes-types/core/v1';
import type { Endpoint } from 'kubernetes-types/discovery/v1';

/**
 * A big Service is reconciled on every change of any of its pods: the endpoint of an unchanged pod
 * object (stored objects are immutable) and the JSON of a stored slice's endpoints are computed once.
 * (The memo behind endpointslice-controller.ts' desiredOf.)
 */
export const desiredCache = new WeakMap<Pod, { svc: Service; node: Node | undefined; d: Desired }>();

/** The memo behind endpointslice-controller.ts' jsonOf (behaviour-side, never state). */
export const endpointJSON = new WeakMap<Endpoint, string>();
