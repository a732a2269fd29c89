// The memos of kubelet.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one kubelet.ts computes without them.

import type { EventHandlers } from '../client-go/informer.ts';
import type { KubeletState, MapToken } from './kubelet-state.ts';
import type { Node, Pod } from 'kubernetes-types/core/v1';

/** ctx → its pod handlers (closures over ctx and its state: made once, not per event; behaviour-side). */
export const handlersCache = new WeakMap<object, { st: KubeletState; h: EventHandlers<Pod> }>();

/**
 * Per kubelet state (behaviour-side; a restored state starts without an entry): the inputs of the
 * last status computation that found nothing changed.
 * (The memo behind kubelet.ts' updateNodeStatus.)
 */
export const unchangedNodeStatus = new WeakMap<
  KubeletState,
  { prev: Node['status']; bootID: string; images: MapToken }
>();
