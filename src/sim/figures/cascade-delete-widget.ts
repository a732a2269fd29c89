// The `cascade-delete` widget (the reconcile-loop chapter): owner references and the garbage
// collector. web runs three pods; each pod's ownerReference names the ReplicaSet web-c68c68797 by
// uid, and the ReplicaSet's names the Deployment web. kubectl deletes the Deployment with
// kubectl's default cascade (propagationPolicy Background): the API server removes web alone, and
// kube-controller-manager's garbage collector, finding that an owner uid no longer exists, deletes
// the ReplicaSet, then the pods whose owner that was. Nothing calls the collector: it learns each
// deletion from its watches, as every controller does. The picture is read from the store (each
// object's uid, ownerReference and deletionTimestamp) and the request log (who sent each DELETE).
import { namesOf } from '../api/resources.ts';
import { storeList } from '../view/stored.ts';
import type { Cluster } from '../cluster.ts';
import type { Frame } from '../view/types.ts';
import { count } from '../view/words.ts';
import type { DemoDef, DemoMemo, FigureDef } from './demo.ts';
import { setupDemo, WEB, webOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas here, as the chapter's chain quotes them. */
const REPLICAS = 3;
/** How far back the picture looks for DELETE requests (records). */
const LOOK_BACK = 4_000;
const KINDS = [
  ['deployments', 'Deployment'],
  ['replicasets', 'ReplicaSet'],
  ['pods', 'Pod'],
] as const;

/** One object of web's chain as the store holds it: its uid, its controller owner, whether it is being deleted. */
export type ChainObject = {
  kind: 'Deployment' | 'ReplicaSet' | 'Pod';
  name: string;
  uid: string;
  owner: { kind: string; name: string; uid: string } | null;
  deleting: boolean;
};

/** One DELETE of an object of the chain: who sent it. */
type ChainDelete = {
  component: string;
  kind: string;
  name: string;
};

/** What the picture draws: the chain's objects still stored, and the DELETEs since kubectl deleted web. */
export type OwnersDetail = {
  objects: ChainObject[];
  deletes: ChainDelete[];
};
/** The figure's detail (FigureDef.detail): OwnersDetail under its key. */
type Detail = { owners: OwnersDetail };

interface Meta {
  metadata: {
    name: string;
    uid: string;
    deletionTimestamp?: string;
    ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean }[];
  };
}

/** The Deployments, ReplicaSets and pods of the default namespace, each with its controller ownerReference. */
function chainOf(cluster: Cluster): ChainObject[] {
  const out: ChainObject[] = [];
  for (const [resource, kind] of KINDS) {
    for (const o of storeList(cluster.world.state.store, resource, 'default') as Meta[]) {
      const ref = o.metadata.ownerReferences?.find((r) => r.controller) ?? null;
      out.push({
        kind,
        name: o.metadata.name,
        uid: o.metadata.uid,
        owner: ref && { kind: ref.kind, name: ref.name, uid: ref.uid },
        deleting: !!o.metadata.deletionTimestamp,
      });
    }
  }
  return out;
}

/** The successful DELETEs of Deployments, ReplicaSets and pods since kubectl's last DELETE of web, in order. */
function deletesOf(cluster: Cluster): ChainDelete[] {
  const w = cluster.world.state;
  const stop = Math.max(0, w.log.length - LOOK_BACK);
  const web = namesOf('deployments', 'default', WEB).object;
  let start = -1;
  for (let i = w.log.length - 1; i >= stop && start < 0; i--) {
    const r = w.log[i];
    if (r.kind === 'request' && r.verb === 'DELETE' && r.component === 'kubectl' && r.object === web && r.code === 200)
      start = i;
  }
  if (start < 0) return [];
  const out: ChainDelete[] = [];
  for (let i = start; i < w.log.length; i++) {
    const r = w.log[i];
    if (r.kind !== 'request' || r.verb !== 'DELETE' || r.code !== 200 || !r.object) continue;
    const [resource, , name] = r.object.split('/');
    const kind = KINDS.find(([res]) => res === resource)?.[1];
    if (kind) out.push({ component: r.component, kind, name });
  }
  return out;
}

const detailOf = (d: Detail | null): OwnersDetail | null => (d?.owners ? d.owners : null);
const objectsIn = (d: Detail | null): ChainObject[] => detailOf(d)?.objects ?? [];
const deletedBy = (d: Detail | null, kind: string): string[] =>
  (detailOf(d)?.deletes ?? []).filter((x) => x.kind === kind).map((x) => x.component);

/**
 * Keeps the chain as the press left it, once (a beat's text sees the frame and the memo only): the
 * Deployment is gone from the store by then, but the ReplicaSet's ownerReference still names its uid.
 */
function remember(f: Frame, m: DemoMemo, objects: ChainObject[]): void {
  if (m.rs) return;
  const rs = objects.find((o) => o.kind === 'ReplicaSet' && o.owner?.kind === 'Deployment' && o.owner.name === WEB);
  m.uid = rs?.owner?.uid ?? '';
  m.rs = rs?.name ?? '';
  m.rsUid = rs?.uid ?? '';
  m.pods = objects
    .filter((o) => o.kind === 'Pod' && o.owner?.uid === rs?.uid)
    .map((o) => o.name)
    .join(', ');
  m.t = f.t;
}

const short = (uid: string | number): string => String(uid).slice(0, 8);
/** The time since kubectl's DELETE, as a reader says it (4 ms, 1.2 s). */
const since = (f: Frame, m: DemoMemo): string => {
  const ms = f.t - Number(m.t);
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
};

/** kubectl deletes the Deployment web (cascade background) and the garbage collector deletes what it owned. */
const deleteWeb: DemoDef<Detail> = {
  id: 'delete-web',
  label: () => `Delete ${WEB}`,
  unavailable: (f) => (webOf(f) ? null : `The Deployment ${WEB} is deleted; Reset brings it back.`),
  start: () => ({
    actions: [{ type: 'delete-deployment', name: WEB }],
    // The chain is read at the first check of a beat, on the press's own step.
    memo: {},
    intro: `kubectl delete deployment ${WEB}: with kubectl's default cascade (propagationPolicy Background) the API server removes the Deployment alone; the ReplicaSet and pods it owns are still there.`,
    beats: [
      {
        // The collector has sent its DELETE for the ReplicaSet: the owner its ownerReference names is gone.
        when: (g, m, detail) => {
          remember(g, m, objectsIn(detail()));
          return deletedBy(detail(), 'ReplicaSet').length > 0;
        },
        text: (g, m) =>
          `${since(g, m)} later the garbage collector deletes ReplicaSet ${m.rs}: its ownerReference names the Deployment with uid ${short(m.uid)}…, which no longer exists. Its pods are not deleted yet.`,
      },
      {
        when: (_g, m, detail) => deletedBy(detail(), 'Pod').length >= String(m.pods).split(', ').length,
        text: (g, m) =>
          `Now the pods' owner, uid ${short(m.rsUid)}…, is gone too: the collector deletes ${m.pods}, ${since(g, m)} after kubectl's DELETE. Each now stops its container.`,
      },
      {
        when: (_g, m, detail) => !objectsIn(detail()).some((o) => String(m.pods).split(', ').includes(o.name)),
        text: (g, m) =>
          `All ${count(String(m.pods).split(', ').length + 2, 'object')} of web are gone, ${since(g, m)} after kubectl deleted one: the garbage collector deleted every other by following ownerReferences down.`,
      },
    ],
  }),
};

/** The `cascade-delete` widget: delete a Deployment and watch the garbage collector follow its ownerReferences down. */
export const cascadeDeleteWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'cascade-delete',
  title: 'Owners and the garbage collector',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), deleteWeb],
  story: ['setup', 'delete-web'],
  opening: 1,
  leavesOut: [
    'The widget opens with web already running 3 pods.',
    "kubectl's default cascade is shown; --cascade=foreground would keep the Deployment, marked for deletion, until the collector had deleted what it owns, and --cascade=orphan would leave the ReplicaSet and pods running without an owner.",
    "Events and the Deployment controller's own reaction to the deletion (nothing to do) are left out of the picture.",
  ],
  detail: (cluster) => ({ owners: { objects: chainOf(cluster), deletes: deletesOf(cluster) } }),
};
