// kube-controller-manager's namespace controller (pkg/controller/namespace and its deletion
// package): a namespace marked for deletion is emptied, then its `kubernetes` finalizer is taken off
// through /finalize, and that write deletes it. It is in kubectl's lazy chunk, since only kubectl
// deletes a namespace: the API server's first DELETE of one starts this instance in the controller
// manager's process (World.startNamespaceController).
// Simplified: the real deleter sends one DELETE of each collection (deletecollection) per resource
// discovery lists; the simulator's API server has no deletecollection, so it takes the deleter's own
// fallback for a resource without it (deleteEachItem: a LIST, then a DELETE of each item).
import type { Namespace, NamespaceCondition } from 'kubernetes-types/core/v1';
import {
  type InformerEvent,
  type InformerState,
  informerHandle,
  isInformerEvent,
  listAndWatch,
  newInformer,
} from '../client-go/informer.ts';
import { RESOURCES } from '../api/resources.ts';
import type { MetaObject, ObjectList } from '../api/request.ts';
import { clonePlain } from '../clone.ts';
import { rfc3339 } from '../util/names.ts';
import { parseTime } from '../util/time.ts';
import type { ComponentDef, Ctx } from '../world.ts';
import { NAMESPACE_CONTROLLER } from './names.ts';

/** namespaceDeletionGracePeriod: a namespace event waits 5 s before it is processed (caches catch up). */
export const NAMESPACE_DELETION_GRACE_PERIOD_MS = 5_000;
/** finalizerEstimateSeconds: the wait assumed for items held by finalizers. */
const FINALIZER_ESTIMATE_SECONDS = 15;
/** v1.FinalizerKubernetes, the namespace controller's token in spec.finalizers. */
const FINALIZER_KUBERNETES = 'kubernetes';

/** The controller's state (plain data): its informer, the keys waiting in its queue and their failures. */
export interface NamespaceControllerState {
  namespaces: InformerState<Namespace>;
  /** The delaying queue: a namespace → when it is due (simulated ms). */
  due: Record<string, number>;
  /** The rate limiter's failures per namespace. */
  failures: Record<string, number>;
}

type Sync = { type: 'namespace-sync'; name: string };

/** The namespaced resources the API server serves, in its discovery order. */
const NAMESPACED = Object.keys(RESOURCES).filter((r) => RESOURCES[r].namespaced);

/** queue.AddAfter: a key already due sooner keeps its time. */
function addAfter(ctx: Ctx<NamespaceControllerState>, name: string, delayMs: number): void {
  const at = ctx.now + delayMs;
  const cur = ctx.state.due[name];
  if (cur !== undefined && cur <= at) return;
  ctx.state.due[name] = at;
  ctx.schedule(delayMs, { type: 'namespace-sync', name } satisfies Sync);
}

/** enqueueNamespace: only a namespace being deleted, after the grace period. */
function enqueueNamespace(ctx: Ctx<NamespaceControllerState>, ns: Namespace): void {
  if (ns.metadata?.deletionTimestamp) addAfter(ctx, ns.metadata.name ?? '', NAMESPACE_DELETION_GRACE_PERIOD_MS);
}

/** The five conditions the deleter keeps (conditionTypes), with their "ok" reason and message. */
const CONDITIONS: [string, string, string][] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  [
    'NamespaceDeletionContentFailure',
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentRemoved', 'All content successfully removed'],
];

/**
 * updateConditions: each condition type set to what this pass found (an error's or the ok variant);
 * returns whether any changed. LastTransitionTime moves only when the status does.
 */
export function updateConditions(conditions: NamespaceCondition[], found: NamespaceCondition[], now: string): boolean {
  let changed = false;
  for (const [type, reason, message] of CONDITIONS) {
    const next = found.find((c) => c.type === type) ?? {
      type,
      status: 'False',
      lastTransitionTime: now,
      reason,
      message,
    };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push(next);
      changed = true;
      continue;
    }
    if (old.status === next.status && old.message === next.message && old.reason === next.reason) continue;
    if (old.status !== next.status) old.lastTransitionTime = now;
    Object.assign(old, { status: next.status, reason: next.reason, message: next.message });
    changed = true;
  }
  return changed;
}

/** What deleteAllContentForGroupVersionResource reports for one resource. */
interface Remaining {
  estimate: number;
  count: number;
  finalizers: Record<string, number>;
  error?: string;
}

/** estimateGracefulTerminationForPods: the longest grace period of a pod not yet terminal, 0 once that long has passed since the namespace's deletion. */
function estimatePods(ctx: Ctx<NamespaceControllerState>, ns: string, deletedAt: number): number {
  const r = ctx.api.list('pods', ns);
  if (!r.ok) return 0;
  let estimate = 0;
  for (const p of r.object.items) {
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    estimate = Math.max(estimate, p.spec?.terminationGracePeriodSeconds ?? 0);
  }
  return ctx.now - deletedAt >= estimate * 1000 ? 0 : estimate;
}

/** deleteAllContentForGroupVersionResource with deleteEachItem: delete every item (propagation Background), then count what is left. */
function deleteResource(
  ctx: Ctx<NamespaceControllerState>,
  resource: string,
  ns: string,
  deletedAt: number,
): Remaining {
  const estimate = resource === 'pods' ? estimatePods(ctx, ns, deletedAt) : 0;
  const list = (): MetaObject[] | undefined => {
    const r = ctx.api.request({ verb: 'list', resource, namespace: ns });
    return r.ok ? (r.object as ObjectList<MetaObject>).items : undefined;
  };
  for (const item of list() ?? [])
    ctx.api.delete(resource as never, ns, item.metadata.name!, { propagationPolicy: 'Background' });
  const left = list() ?? [];
  const finalizers: Record<string, number> = {};
  for (const item of left) for (const f of item.metadata.finalizers ?? []) finalizers[f] = (finalizers[f] ?? 0) + 1;
  if (!left.length) return { estimate: 0, count: 0, finalizers };
  if (estimate) return { estimate, count: left.length, finalizers };
  if (Object.keys(finalizers).length) return { estimate: FINALIZER_ESTIMATE_SECONDS, count: left.length, finalizers };
  const gr = RESOURCES[resource];
  return {
    estimate,
    count: left.length,
    finalizers,
    error: `unexpected items still remain in namespace: ${ns} for gvr: ${gr.group}/${gr.version}, Resource=${resource}`,
  };
}

/** deleteAllContent: every namespaced resource emptied; the conditions written if they changed; the longest estimate, or the errors. */
function deleteAllContent(ctx: Ctx<NamespaceControllerState>, ns: Namespace): { estimate: number; errors: string[] } {
  const name = ns.metadata!.name!;
  const deletedAt = parseTime(ns.metadata!.deletionTimestamp)!;
  let estimate = 0;
  const errors: string[] = [];
  const remaining: string[] = [];
  const byFinalizer: Record<string, number> = {};
  for (const resource of NAMESPACED) {
    const r = deleteResource(ctx, resource, name, deletedAt);
    if (r.error) errors.push(r.error);
    estimate = Math.max(estimate, r.estimate);
    if (!r.count) continue;
    remaining.push(`${resource}.${RESOURCES[resource].group} has ${r.count} resource instances`);
    for (const [f, n] of Object.entries(r.finalizers)) byFinalizer[f] = (byFinalizer[f] ?? 0) + n;
  }
  const now = rfc3339(ctx.now);
  const found: NamespaceCondition[] = [];
  if (remaining.length)
    found.push({
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: now,
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${remaining.sort().join(', ')}`,
    });
  const fins = Object.entries(byFinalizer)
    .map(([f, n]) => `${f} in ${n} resource instances`)
    .sort();
  if (fins.length)
    found.push({
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      lastTransitionTime: now,
      reason: 'SomeFinalizerRemain',
      message: `Some finalizers are remaining: ${fins.join(', ')}`,
    });
  if (errors.length)
    found.push({
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      lastTransitionTime: now,
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${errors.length} remaining: ${[...errors].sort().join(', ')}`,
    });
  const conditions = clonePlain(ns.status?.conditions ?? []);
  if (updateConditions(conditions, found, now))
    ctx.api.update('namespaces', { ...ns, status: { ...ns.status, conditions } }, 'status');
  return { estimate, errors };
}

/** namespacedResourcesDeleter.Delete: 'done', the seconds some content still needs, or 'error'. */
function deleteNamespace(ctx: Ctx<NamespaceControllerState>, name: string): 'done' | 'error' | number {
  const g = ctx.api.get('namespaces', undefined, name);
  if (!g.ok) return g.code === 404 ? 'done' : 'error';
  const ns = g.object;
  // The registry's DELETE already set phase Terminating (updateNamespaceStatusFunc has nothing to write).
  if (!ns.metadata?.deletionTimestamp || !ns.spec?.finalizers?.length) return 'done';
  const { estimate, errors } = deleteAllContent(ctx, ns);
  if (errors.length) return 'error';
  if (estimate > 0) return estimate;
  // retryOnConflictError(finalizeNamespace): the status write above left `ns` stale, so the first
  // /finalize meets a 409; the latest namespace is read again and the write repeated.
  for (let latest = ns; ;) {
    const finalizers = [...new Set((latest.spec?.finalizers ?? []).filter((f) => f !== FINALIZER_KUBERNETES))].sort();
    const f = ctx.api.update('namespaces', { ...latest, spec: { ...latest.spec, finalizers } }, 'finalize');
    if (f.ok || f.code === 404) return 'done';
    if (f.code !== 409) return 'error';
    const again = ctx.api.get('namespaces', undefined, name);
    if (!again.ok || again.object.metadata?.uid !== ns.metadata.uid) return 'error';
    latest = again.object;
  }
}

/** nsControllerRateLimiter's exponential part: 5 ms doubled on each failure, at most 60 s (a retry at least every minute). */
function backoffMs(failures: number): number {
  return Math.min(5 * 2 ** (failures - 1), 60_000);
}

/** syncNamespaceFromKey and the worker's requeue rules. */
function sync(ctx: Ctx<NamespaceControllerState>, name: string): void {
  const s = ctx.state;
  if (s.due[name] !== ctx.now) return; // a later AddAfter superseded this timer
  delete s.due[name];
  const r = deleteNamespace(ctx, name);
  if (r === 'done') {
    delete s.failures[name];
    return;
  }
  if (r === 'error') {
    s.failures[name] = (s.failures[name] ?? 0) + 1;
    addAfter(ctx, name, backoffMs(s.failures[name]));
    return;
  }
  delete s.failures[name];
  // ResourcesRemainingError: wait half the estimate, plus a second.
  addAfter(ctx, name, (Math.floor(r / 2) + 1) * 1000);
}

/** The namespace controller as a component type (instance name = type name). */
export const namespaceControllerDef: ComponentDef<NamespaceControllerState, InformerEvent | Sync> = {
  name: NAMESPACE_CONTROLLER,
  init(ctx) {
    ctx.state = { namespaces: newInformer(NAMESPACE_CONTROLLER, 'namespaces'), due: {}, failures: {} };
    listAndWatch(ctx, ctx.state.namespaces);
    return ctx.state;
  },
  handle(event, ctx) {
    // Its process's loops have stopped (the controller manager lost its lease or was stopped): so does
    // it, before it acts. A later DELETE of a namespace starts it again.
    if (!ctx.components?.['garbage-collector']) {
      ctx.stop(ctx.name);
      return;
    }
    if (isInformerEvent(event)) {
      informerHandle(ctx, ctx.state.namespaces, event, {
        add: (ns) => enqueueNamespace(ctx, ns),
        update: (_, ns) => enqueueNamespace(ctx, ns),
      });
      return;
    }
    if (event.type === 'namespace-sync') sync(ctx, event.name);
  },
};
