// The `new-replicaset` widget (the rolling-updates chapter): web runs 3 pods of nginx:1.27 from one
// ReplicaSet. The reader runs `kubectl set image deployment/web nginx=nginx:1.28`: the Deployment
// controller finds no ReplicaSet whose pod template matches the new one, creates one named after the
// template's hash, with the next revision, and moves replicas across; the old ReplicaSet stays, at 0 replicas, so
// an undo can scale it back. The picture reads the stored Deployment and ReplicaSets (their labels,
// annotations, spec.replicas and status); nothing here redoes the controller's hashing.
import type { Cluster } from '../cluster.ts';
import type { Frame } from '../view/types.ts';
import { count } from '../view/words.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { figureActions } from './figure-actions.ts';
import { revisionOf, webReplicaSets } from './web-replicasets.ts';
import { livePodsOf, readyPodsOf, setupDemo, WEB, WEB_IMAGE, webOf, webSettled } from './widget-web.ts';

/** web's replicas (the chapter's example). */
const REPLICAS = 3;
/** The image the chapter's `kubectl set image` moves web to. */
const NEXT_IMAGE = 'nginx:1.28';
const HASH = 'pod-template-hash';

/** One of web's ReplicaSets as stored: its hash label, its revision annotation, its spec.replicas and its ready pods. */
type StoredReplicaSet = {
  name: string;
  hash: string;
  image: string;
  revision: number;
  replicas: number;
  ready: number;
};

/** What the picture draws: web's template image and revision annotation, and its ReplicaSets, oldest revision first. */
export type NewReplicaSetDetail = {
  image: string | null;
  revision: number | null;
  replicaSets: StoredReplicaSet[];
};
/** The figure's detail (FigureDef.detail): NewReplicaSetDetail under its key. */
type Detail = { rs: NewReplicaSetDetail };

/** web and the ReplicaSets it owns, read from the store. */
function newReplicaSetOf(cluster: Cluster): NewReplicaSetDetail {
  const { deployment: d, replicaSets } = webReplicaSets(cluster);
  const rss = replicaSets
    .map((rs): StoredReplicaSet => ({
      name: rs.metadata?.name ?? '',
      hash: rs.metadata?.labels?.[HASH] ?? '',
      image: rs.spec?.template?.spec?.containers?.[0]?.image ?? '',
      revision: revisionOf(rs) ?? 0,
      replicas: rs.spec?.replicas ?? 0,
      ready: rs.status?.readyReplicas ?? 0,
    }))
    .sort((a, b) => a.revision - b.revision);
  return { image: d?.spec?.template?.spec?.containers?.[0]?.image ?? null, revision: revisionOf(d), replicaSets: rss };
}

/** web's ReplicaSet running `image`, from the frame. */
const rsOn = (f: Frame, image: string) => webOf(f)?.replicaSets.find((rs) => rs.image === image);
/** web's ReplicaSet called `name`, from the frame. */
const named = (f: Frame, name: string) => webOf(f)?.replicaSets.find((rs) => rs.name === name);
/** The image web is not running: the one the reader's button sets. */
const otherImage = (f: Frame): string => (webOf(f)?.image === NEXT_IMAGE ? WEB_IMAGE : NEXT_IMAGE);
/** web's ReplicaSets from the frame as "name at n", newest revision first. */
const sizes = (f: Frame): string =>
  [...(webOf(f)?.replicaSets ?? [])]
    .sort((a, b) => Number(b.revision) - Number(a.revision))
    .map((rs) => `${rs.name} at ${rs.replicas}`)
    .join(', ');
/** The part of a ReplicaSet's name after the Deployment's: its pod-template-hash. */
const hashOf = (name: string): string => name.slice(WEB.length + 1);

/** `kubectl set image deployment/web nginx=<other image>`: a new template, and the controller's answer to it. */
const setImage: DemoDef<Detail> = {
  id: 'set-image',
  label: (f) => `Set image ${otherImage(f)}`,
  unavailable: (f) =>
    !webOf(f) ? `Create ${WEB} first.` : f.controlPlane.apiserver ? null : 'The API server is stopped.',
  start: (f): DemoStart<Detail> => {
    const to = otherImage(f);
    const from = rsOn(f, webOf(f)!.image);
    const reused = rsOn(f, to);
    const memo: DemoMemo = {
      to,
      from: from?.name ?? '',
      fromRevision: from?.revision ?? '',
      known: reused?.name ?? '',
    };
    return {
      actions: [{ type: 'set-image', name: WEB, image: to }],
      memo,
      intro: `kubectl set image deployment/${WEB} nginx=${to} changes only spec.template of ${WEB}: "deployment.apps/${WEB} image updated".`,
      beats: [
        {
          // The controller's first pass on the new template: a ReplicaSet with its hash holds a replica.
          when: (g, m) => (rsOn(g, String(m.to))?.replicas ?? 0) > 0,
          text: (g, m) => {
            const now = rsOn(g, String(m.to))!;
            // FindNewReplicaSet compares pod templates (ignoring the hash label); a new one is named after its template's hash.
            const found = m.known
              ? `finds ${now.name}, whose pod template matches the new one, so it creates none and scales it up as revision ${now.revision}`
              : `finds no ReplicaSet whose pod template matches the new one, so it creates ${now.name}, named after the template's hash ${hashOf(now.name)}, with revision ${now.revision}`;
            return `The controller ${found}; ${m.from} keeps revision ${m.fromRevision}. ${sizes(g)}: ${count(livePodsOf(g).length, 'pod')}, ${readyPodsOf(g).length} ready.`;
          },
        },
        {
          // The first old pod goes once a new one is ready (maxUnavailable rounds 25% of 3 down to 0).
          when: (g, m) => (named(g, String(m.from))?.replicas ?? REPLICAS) < REPLICAS,
          text: (g, m) => {
            const now = rsOn(g, String(m.to))!;
            return `${now.name} has ${count(now.readyReplicas, 'pod')} ready, so one old pod can go with ${REPLICAS} still available: the controller scales ${m.from} down to ${named(g, String(m.from))!.replicas}. ${sizes(g)}.`;
          },
        },
        {
          when: (g, m) => webSettled(g, REPLICAS) && livePodsOf(g).every((p) => p.image === m.to),
          text: (g, m) =>
            `Rollout complete: ${sizes(g)}. ${m.from} is kept, scaled to zero, with its template and revision ${named(g, String(m.from))!.revision}, for kubectl rollout undo.`,
        },
      ],
    };
  },
};

/** The `new-replicaset` widget: a new pod template makes a new ReplicaSet, with the next revision. */
export const newReplicaSetWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'new-replicaset',
  title: 'A new template, a new ReplicaSet',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), setImage],
  story: ['setup', 'set-image'],
  opening: 1,
  leavesOut: [
    `The widget opens with ${WEB} running 3 pods of ${WEB_IMAGE}; the rollout runs under the default 25% limits.`,
    'Pods become ready as soon as their container starts (no readiness probe), so each step follows the last within a second or two.',
    'Pressed again, the button sets the other image: the controller then finds the kept ReplicaSet, whose pod template matches, and creates none.',
  ],
  detail: (cluster) => ({ rs: newReplicaSetOf(cluster) }),
};
