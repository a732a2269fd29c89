// kube-controller-manager's garbage collector (pkg/controller/garbagecollector) for the owner chains
// the simulated cluster forms: Deployment → ReplicaSet → Pod, Service → EndpointSlice, and Node → its Lease. Its GraphBuilder keeps, from the
// process's shared informers, which objects name which owner (by uid). When an owner goes, each
// dependent is checked against the API (attemptToDeleteItem: a live GET of the dependent, then of
// each owner it still names) and deleted in the background when none of its owners exists any more.
// An owner deleted with propagationPolicy=Orphan keeps the `orphan` finalizer until the collector has
// removed its ownerReference from every dependent (attemptToOrphan), then the finalizer goes and the
// API server deletes the owner; one deleted with Foreground keeps `foregroundDeletion` until the
// dependents that block it are gone (deleted in the foreground themselves when they have dependents).
import type { Node, Pod, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { OwnerReference } from 'kubernetes-types/meta/v1';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../api/meta.ts';
import { RESOURCES, informerKeyOf, resourceOfKind, type ResourceName } from '../api/resources.ts';
import {
  informerHandle,
  listAndWatch,
  memoHandlers,
  newInformer,
  type EventHandlers,
  type InformerState,
} from '../client-go/informer.ts';
import {
  add,
  addRateLimited,
  done,
  forget,
  get,
  newWorkQueue,
  syncWithCause,
  workQueueHandle,
  type WorkQueue,
} from '../client-go/workqueue.ts';
import { newDict } from '../util/dict.ts';
import type { ComponentDef, Ctx } from '../world.ts';

/** Component (and identity) name: system:serviceaccount:kube-system:generic-garbage-collector. */
const GARBAGE_COLLECTOR = 'garbage-collector';
/** The absentOwnerCache's size (an LRU of owner uids a live GET did not find). */
const ABSENT_OWNER_CACHE_SIZE = 500;

/** The resources the collector follows, in the order its informers start (owners before dependents). */
const MONITORED = ['nodes', 'leases', 'services', 'endpointslices', 'deployments', 'replicasets', 'pods'] as const;
type Monitored = (typeof MONITORED)[number];
type Owned = Deployment | ReplicaSet | Pod | Node | Lease | Service | EndpointSlice;

/** An object in the graph: `<resource>/<ns>/<name>` (a work-queue key). */
type ItemKey = string;

/** The collector's state (plain data). */
interface GarbageCollectorState {
  nodes: InformerState<Node>;
  /** The node leases (the watch kube-controller-manager already holds, in kube-node-lease). */
  leases: InformerState<Lease>;
  services: InformerState<Service>;
  /** Every EndpointSlice (the watch kube-controller-manager already holds, unfiltered). */
  endpointslices: InformerState<EndpointSlice>;
  deployments: InformerState<Deployment>;
  replicasets: InformerState<ReplicaSet>;
  pods: InformerState<Pod>;
  /** owner uid → the objects that name it in their ownerReferences (the uid graph's dependents), in the order seen. */
  dependents: Record<string, Record<ItemKey, true>>;
  /** absentOwnerCache: owner uids found missing, most recent last. */
  absentOwners: string[];
  /** attemptToDelete: dependents whose owners may be gone. */
  attemptToDelete: WorkQueue;
  /** attemptToOrphan: owners deleted with the orphan finalizer. */
  attemptToOrphan: WorkQueue;
}

function itemKey(resource: Monitored, o: Owned): ItemKey {
  return `${resource}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

function parseItem(k: ItemKey): { resource: Monitored; namespace: string; name: string } {
  const [resource, namespace, name] = k.split('/');
  return { resource: resource as Monitored, namespace, name };
}

function ownerRefs(o: Owned | undefined): OwnerReference[] {
  return o?.metadata?.ownerReferences ?? [];
}

/** Whether any informer holds an object with this uid (the graph has observed the owner). */
function observed(s: GarbageCollectorState, ref: OwnerReference, namespace: string): boolean {
  const resource = resourceOfKind(ref.kind) as Monitored | undefined;
  if (!resource || !(MONITORED as readonly string[]).includes(resource)) return true; // not followed here: left alone
  const o = s[resource].items[informerKeyOf(resource, ownerNamespace(resource, namespace), ref.name)] as
    Owned | undefined;
  return o?.metadata?.uid === ref.uid;
}

function link(s: GarbageCollectorState, key: ItemKey, refs: readonly OwnerReference[]): void {
  // A ReplicaSet has hundreds of pods: a dictionary per owner, not a list searched on every add.
  for (const r of refs) (s.dependents[r.uid] ??= newDict())[key] = true;
}

function unlink(s: GarbageCollectorState, key: ItemKey, refs: readonly OwnerReference[]): void {
  for (const r of refs) {
    const deps = s.dependents[r.uid];
    if (!deps) continue;
    delete deps[key];
    if (isEmpty(deps)) delete s.dependents[r.uid];
  }
}

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/** The dependents of an owner uid, in the order the graph saw them. */
function dependentsOf(s: GarbageCollectorState, uid: string): ItemKey[] {
  const deps = s.dependents[uid];
  return deps ? Object.keys(deps) : [];
}

/** processGraphChanges for one informer event. */
function graphChanged(
  s: GarbageCollectorState,
  resource: Monitored,
  old: Owned | undefined,
  cur: Owned | undefined,
  cause: number | undefined,
): void {
  const before = ownerRefs(old);
  const after = ownerRefs(cur);
  // Most updates are status writes: the same owners (the very array), not being deleted.
  if (old && cur && before === after && !cur.metadata?.deletionTimestamp) return;
  const key = itemKey(resource, (cur ?? old)!);
  if (before !== after) {
    unlink(s, key, before);
    link(s, key, after);
  }
  const ns = (cur ?? old)!.metadata?.namespace ?? '';
  if (!cur) {
    // The owner is gone: each of its dependents is checked. Seen deleted with dependents, it goes
    // into the absent-owner cache (processGraphChanges), so their checks need no live GET of it.
    const uid = old?.metadata?.uid ?? '';
    const deps = dependentsOf(s, uid);
    if (deps.length) rememberAbsent(s, uid);
    for (const d of deps) add(s.attemptToDelete, d, cause);
    delete s.dependents[uid];
    // A dependent is gone: an owner waiting for its dependents (foreground) looks again.
    for (const r of before) {
      const ownerKey = ownerItem(r, ns);
      if (ownerKey && deletingDependents(itemObject(s, ownerKey))) add(s.attemptToDelete, ownerKey, cause);
    }
    return;
  }
  if (deletingDependents(cur)) add(s.attemptToDelete, key, cause);
  // A dependent naming an owner the graph has not seen (created after the owner went): check it.
  if (!old && after.some((r) => !observed(s, r, ns))) add(s.attemptToDelete, key, cause);
  const fin = cur.metadata?.finalizers;
  if (cur.metadata?.deletionTimestamp && fin?.includes(FINALIZER_ORPHAN)) add(s.attemptToOrphan, key, cause);
}

/** An owner deleted in the foreground: it waits, with its finalizer, until its blocking dependents are gone. */
function deletingDependents(o: Owned | undefined): boolean {
  return !!o?.metadata?.deletionTimestamp && !!o.metadata.finalizers?.includes(FINALIZER_FOREGROUND);
}

function ownerItem(r: OwnerReference, namespace: string): ItemKey | undefined {
  const resource = resourceOfKind(r.kind);
  return resource && (MONITORED as readonly string[]).includes(resource)
    ? `${resource}/${ownerNamespace(resource, namespace)}/${r.name}`
    : undefined;
}

/** An owner lives in its dependent's namespace, or in none (a Node owning a Lease). */
function ownerNamespace(resource: string, dependentNamespace: string): string {
  return RESOURCES[resource]?.namespaced ? dependentNamespace : '';
}

/** The informer's copy of an item (undefined once it is gone). */
function itemObject(s: GarbageCollectorState, key: ItemKey): Owned | undefined {
  const { resource, namespace, name } = parseItem(key);
  return s[resource].items[informerKeyOf(resource, namespace, name)];
}

function handlers(ctx: Ctx<GarbageCollectorState>): Record<Monitored, EventHandlers<Owned>> {
  const s = ctx.state;
  const h = (resource: Monitored): EventHandlers<Owned> => ({
    add: (o) => graphChanged(s, resource, undefined, o, ctx.notification),
    update: (o, n) => graphChanged(s, resource, o, n, ctx.notification),
    delete: (o) => graphChanged(s, resource, o, undefined, ctx.notification),
  });
  return {
    nodes: h('nodes'),
    leases: h('leases'),
    services: h('services'),
    endpointslices: h('endpointslices'),
    deployments: h('deployments'),
    replicasets: h('replicasets'),
    pods: h('pods'),
  };
}

function rememberAbsent(s: GarbageCollectorState, uid: string): void {
  s.absentOwners = s.absentOwners.filter((u) => u !== uid);
  s.absentOwners.push(uid);
  if (s.absentOwners.length > ABSENT_OWNER_CACHE_SIZE) s.absentOwners.shift();
}

/**
 * attemptToDeleteItem: GET the dependent and classify each owner it names (classifyReferences, one
 * live GET per owner not in the absent cache): dangling (absent, or there under another uid), waiting
 * (being deleted in the foreground) or solid. With a solid owner left, the dangling and waiting
 * references are patched away and the object stays; with none, it is DELETEd (background, or
 * foreground when an owner waits and it has dependents of its own; preconditioned on its uid).
 * False asks for a rate-limited retry.
 */
function attemptToDeleteItem(ctx: Ctx<GarbageCollectorState>, key: ItemKey): boolean {
  const s = ctx.state;
  const { resource, namespace, name } = parseItem(key);
  const got = ctx.api.get(resource, namespace || undefined, name);
  if (!got.ok) return got.code === 404;
  const latest = got.object;
  if (deletingDependents(latest)) return processDeletingDependentsItem(ctx, key, latest);
  if (latest.metadata?.deletionTimestamp) return true; // already going
  const refs = ownerRefs(latest);
  if (refs.length === 0) return true; // orphaned meanwhile
  const solid: OwnerReference[] = [];
  const dangling: OwnerReference[] = [];
  const waiting: OwnerReference[] = [];
  for (const r of refs) {
    if (s.absentOwners.includes(r.uid)) {
      dangling.push(r);
      continue;
    }
    const ownerResource = resourceOfKind(r.kind);
    if (!ownerResource) return true; // an owner of a kind this collector does not know: leave it be
    const o = ctx.api.get(ownerResource as ResourceName, ownerNamespace(ownerResource, namespace) || undefined, r.name);
    if (o.ok && (o.object as Owned).metadata?.uid === r.uid) {
      // An owner deleted in the foreground waits for this one; any other is solid.
      (deletingDependents(o.object as Owned) ? waiting : solid).push(r);
      continue;
    }
    if (!o.ok && o.code !== 404) return false;
    rememberAbsent(s, r.uid);
    dangling.push(r);
  }
  if (solid.length > 0) {
    if (dangling.length === 0 && waiting.length === 0) return true;
    // The waiting references go too, or those owners would wait for this object for ever.
    const gone = [...dangling, ...waiting].map((r) => ({ $patch: 'delete', uid: r.uid }));
    const p = ctx.api.patch(resource, namespace || undefined, name, {
      metadata: { ownerReferences: gone, uid: latest.metadata?.uid },
    });
    return p.ok || p.code === 404;
  }
  // With dependents of its own, a dependent of a foreground deletion is deleted in the foreground too.
  const policy =
    waiting.length > 0 && dependentsOf(s, latest.metadata?.uid ?? '').length > 0 ? 'Foreground' : 'Background';
  const del = ctx.api.delete(resource, namespace || undefined, name, {
    preconditions: { uid: latest.metadata?.uid },
    propagationPolicy: policy,
  });
  return del.ok || del.code === 404 || del.code === 409;
}

/**
 * processDeletingDependentsItem: an owner deleted in the foreground loses its finalizer (and so goes)
 * once no dependent that blocks it (ownerReference with blockOwnerDeletion) exists; until then its
 * blocking dependents are deleted.
 */
function processDeletingDependentsItem(ctx: Ctx<GarbageCollectorState>, key: ItemKey, owner: Owned): boolean {
  const s = ctx.state;
  const uid = owner.metadata?.uid ?? '';
  const blocking = dependentsOf(s, uid).filter((d) =>
    ownerRefs(itemObject(s, d)).some((r) => r.uid === uid && r.blockOwnerDeletion),
  );
  if (blocking.length === 0) {
    const { resource, namespace, name } = parseItem(key);
    const left = (owner.metadata?.finalizers ?? []).filter((f) => f !== FINALIZER_FOREGROUND);
    const r = ctx.api.patch(
      resource,
      namespace || undefined,
      name,
      { metadata: { finalizers: left.length ? left : null, resourceVersion: owner.metadata?.resourceVersion } },
      undefined,
      { patchType: 'merge' },
    );
    return r.ok || r.code === 404;
  }
  for (const d of blocking) if (!itemObject(s, d)?.metadata?.deletionTimestamp) add(s.attemptToDelete, d);
  return true;
}

/**
 * attemptToOrphan: remove the owner's reference from each dependent (a strategic-merge patch that
 * deletes the entry by uid), then the `orphan` finalizer from the owner, which lets it go.
 */
function attemptToOrphanItem(ctx: Ctx<GarbageCollectorState>, key: ItemKey): boolean {
  const s = ctx.state;
  const { resource, namespace, name } = parseItem(key);
  const owner = s[resource].items[informerKeyOf(resource, namespace, name)] as Owned | undefined;
  const uid = owner?.metadata?.uid;
  if (!owner || !uid || !owner.metadata?.finalizers?.includes(FINALIZER_ORPHAN)) return true;
  for (const d of dependentsOf(s, uid)) {
    const dep = parseItem(d);
    const depObj = s[dep.resource].items[informerKeyOf(dep.resource, dep.namespace, dep.name)] as Owned | undefined;
    const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid }], uid: depObj?.metadata?.uid } };
    const r = ctx.api.patch(dep.resource, dep.namespace || undefined, dep.name, patch);
    if (!r.ok && r.code !== 404) return false;
  }
  const left = owner.metadata.finalizers.filter((f) => f !== FINALIZER_ORPHAN);
  const r = ctx.api.patch(
    resource,
    namespace || undefined,
    name,
    { metadata: { finalizers: left.length ? left : null, resourceVersion: owner.metadata.resourceVersion } },
    undefined,
    { patchType: 'merge' },
  );
  return r.ok || r.code === 404;
}

function drain(
  ctx: Ctx<GarbageCollectorState>,
  q: WorkQueue,
  sync: (ctx: Ctx<GarbageCollectorState>, key: ItemKey) => boolean,
): void {
  // The collector's workers (20 of each kind in kube-controller-manager) keep up: each key is synced now.
  for (let key = get(q); key !== undefined; key = get(q)) {
    if (syncWithCause(ctx, q, key, (k) => sync(ctx, k))) forget(q, key);
    else addRateLimited(ctx, q, key);
    done(q, key);
  }
}

/** The garbage collector, instance `garbage-collector` in kube-controller-manager. */
export const garbageCollectorDef: ComponentDef<GarbageCollectorState> = {
  name: GARBAGE_COLLECTOR,
  init(ctx) {
    const s: GarbageCollectorState = {
      nodes: newInformer('nodes', 'nodes'),
      leases: newInformer('leases', 'leases', { namespace: 'kube-node-lease' }),
      services: newInformer('services', 'services'),
      endpointslices: newInformer('endpointslices', 'endpointslices'),
      deployments: newInformer('deployments', 'deployments'),
      replicasets: newInformer('replicasets', 'replicasets'),
      pods: newInformer('pods', 'pods'),
      dependents: {},
      absentOwners: [],
      attemptToDelete: newWorkQueue('attemptToDelete'),
      attemptToOrphan: newWorkQueue('attemptToOrphan'),
    };
    ctx.state = s;
    const h = handlers(ctx);
    for (const r of MONITORED) listAndWatch(ctx, s[r] as InformerState, h[r] as EventHandlers);
    drain(ctx, s.attemptToOrphan, attemptToOrphanItem);
    drain(ctx, s.attemptToDelete, attemptToDeleteItem);
    return s;
  },
  handle(event, ctx) {
    const s = ctx.state;
    const h = memoHandlers(ctx, handlers);
    // Pods first: nearly every notification is about one.
    const mine =
      informerHandle(ctx, s.pods as InformerState, event, h.pods as EventHandlers) ||
      informerHandle(ctx, s.replicasets as InformerState, event, h.replicasets as EventHandlers) ||
      informerHandle(ctx, s.deployments as InformerState, event, h.deployments as EventHandlers) ||
      informerHandle(ctx, s.leases as InformerState, event, h.leases as EventHandlers) ||
      informerHandle(ctx, s.endpointslices as InformerState, event, h.endpointslices as EventHandlers) ||
      informerHandle(ctx, s.services as InformerState, event, h.services as EventHandlers) ||
      informerHandle(ctx, s.nodes as InformerState, event, h.nodes as EventHandlers);
    if (!mine && !workQueueHandle(s.attemptToDelete, event) && !workQueueHandle(s.attemptToOrphan, event)) return;
    if (
      s.attemptToDelete.queue.length === s.attemptToDelete.head &&
      s.attemptToOrphan.queue.length === s.attemptToOrphan.head
    )
      return;
    drain(ctx, s.attemptToOrphan, attemptToOrphanItem);
    drain(ctx, s.attemptToDelete, attemptToDeleteItem);
  },
};
