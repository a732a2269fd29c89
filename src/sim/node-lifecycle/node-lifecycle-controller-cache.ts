// The memos of node-lifecycle-controller.ts: behaviour-side caches that only make it faster. They are never
// simulation state (WorldState does not hold them, snapshot/restore need not see them), and an
// answer read through them is the one node-lifecycle-controller.ts computes without them.

import type { InformerState } from '../client-go/informer.ts';
import type { NodeLeaseLister } from './node-health.ts';
import type { PersistedNodeMachine, TimerEvent } from './node-lifecycle-controller.ts';
import type { Lease } from 'kubernetes-types/coordination/v1';

/**
 * The monitor timer's event, one per incarnation: the queue only hands it back to be read, and the
 * recurring timer has one in the queue at a time, so each pass need not make another.
 * (The memo behind node-lifecycle-controller.ts' monitorEvent.)
 */
export const monitorEvents = new Map<string, TimerEvent>();

/**
 * The machine is a pure function of (state, context, events), and every node steps through the same
 * few combinations each pass, so results are memoised (behaviour-side cache, never part of the state).
 * (The memo behind node-lifecycle-controller.ts' stepMachine.)
 */
export const stepMemo = new Map<string, PersistedNodeMachine>();

/**
 * A healthy node's machine object meets the same events, which leave it as it is, pass after pass:
 * kept per machine object (a restored state has new ones), so that pass needs no memo key at all.
 * (The memo behind node-lifecycle-controller.ts' stepMachine.)
 */
export const leftAsIs = new WeakMap<PersistedNodeMachine, number>();

/**
 * The lease informer's key of a node's Lease, one string per node rather than one per pass.
 * (The memo behind node-lifecycle-controller.ts' nodeLeaseKey.)
 */
export const leaseKeys = new Map<string, string>();

/**
 * leaseLister.Leases("kube-node-lease"): one lister per lease informer (a restored state has a new one).
 * (The memo behind node-lifecycle-controller.ts' nodeLeaseLister.)
 */
export const leaseListers = new WeakMap<InformerState<Lease>, NodeLeaseLister>();
