// client-go's ControllerRefManager (pkg/controller/controller_ref_manager.go): which objects a
// controller owns. Its own that still match its selector stay; its own that no longer match are
// released (the ownerReference patched away); orphans that match are adopted (an ownerReference
// patched in), but only after a fresh GET has shown the controller is still there and not being
// deleted (RecheckDeletionTimestamp). Objects owned by another controller are left alone.
import type { OwnerReference } from 'kubernetes-types/meta/v1';
import {
  labelSelectorRequirements,
  matchesLabels,
  type LabelRequirement,
  type LabelSelectorLike,
} from '../api/labels.ts';

/** The little the manager reads from an object. */
export interface Owned {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
    ownerReferences?: OwnerReference[];
  };
}

/** A controller as the manager sees it: its identity, its selector and its owner reference for adoptees. */
export interface Controller extends Owned {
  apiVersion?: string;
  kind?: string;
  spec?: { selector?: LabelSelectorLike };
}

/** What claiming needs from the API: the patches and the fresh read of the controller. */
export interface ClaimApi<T> {
  /** PATCH an ownerReference in; the object as stored after, or undefined when it failed. */
  adopt(o: T, patch: object): T | undefined;
  /** PATCH the controller's ownerReference out; true when it is gone (or the object is). */
  release(o: T, patch: object): boolean;
  /** GET the controller afresh; undefined when the request failed. */
  fresh(): Controller | undefined;
}

/** The result: the objects owned now, and whether every patch worked (false: sync again later). */
interface Claimed<T> {
  owned: T[];
  adopted: T[];
  released: T[];
  ok: boolean;
}

/** metav1.GetControllerOf. */
function controllerRef(o: Owned): OwnerReference | undefined {
  const refs = o.metadata?.ownerReferences;
  if (!refs) return undefined;
  for (const r of refs) if (r.controller) return r;
  return undefined;
}

/** The label selector of a controller as requirements (none without a selector). */
function selectorOf(c: Controller): LabelRequirement[] {
  const sel = c.spec?.selector;
  return sel ? labelSelectorRequirements(sel) : [];
}

/** Whether an object is one the controller should look at: its own, or an orphan it could adopt. */
export function claimCandidate(c: Controller, o: Owned): boolean {
  const ref = controllerRef(o);
  if (ref) return ref.uid === c.metadata?.uid;
  return (
    !c.metadata?.deletionTimestamp && !o.metadata?.deletionTimestamp && matchesLabels(selectorOf(c), o.metadata?.labels)
  );
}

/** ClaimObject over `objs` (candidates in the order the caller wants them handled). */
export function claimObjects<T extends Owned>(c: Controller, objs: readonly T[], api: ClaimApi<T>): Claimed<T> {
  const out: Claimed<T> = { owned: [], adopted: [], released: [], ok: true };
  const uid = c.metadata?.uid;
  const reqs = selectorOf(c);
  let canAdopt: boolean | undefined;
  for (const o of objs) {
    const ref = controllerRef(o);
    const match = matchesLabels(reqs, o.metadata?.labels);
    if (ref) {
      if (ref.uid !== uid) continue; // someone else's
      if (match) {
        out.owned.push(o);
        continue;
      }
      if (c.metadata?.deletionTimestamp) continue; // a controller being deleted releases nothing
      if (api.release(o, { metadata: { ownerReferences: [{ $patch: 'delete', uid }], uid: o.metadata?.uid } }))
        out.released.push(o);
      else out.ok = false;
      continue;
    }
    if (c.metadata?.deletionTimestamp || !match || o.metadata?.deletionTimestamp) continue;
    if (c.metadata?.namespace && c.metadata.namespace !== o.metadata?.namespace) continue;
    // RecheckDeletionTimestamp, once: adopt only for a controller that is really still there.
    if (canAdopt === undefined) {
      const f = api.fresh();
      canAdopt = !!f && f.metadata?.uid === uid && !f.metadata?.deletionTimestamp;
      if (!canAdopt) out.ok = false;
    }
    if (!canAdopt) continue;
    const ownerRef: OwnerReference = {
      apiVersion: c.apiVersion ?? '',
      kind: c.kind ?? '',
      name: c.metadata?.name ?? '',
      uid: uid ?? '',
      controller: true,
      blockOwnerDeletion: true,
    };
    const adopted = api.adopt(o, { metadata: { ownerReferences: [ownerRef], uid: o.metadata?.uid } });
    if (adopted) {
      out.owned.push(adopted);
      out.adopted.push(adopted);
    } else out.ok = false;
  }
  return out;
}
