// The `rollout-undo` widget (the rolling-updates chapter): web has rolled from nginx:1.27 to
// nginx:1.28, and its first ReplicaSet waits at 0 replicas with revision 1. The reader runs
// `kubectl rollout undo`: kubectl copies that ReplicaSet's template back into the Deployment, the
// controller finds the ReplicaSet with the same hash, scales it up and the other down under the same
// maxSurge and maxUnavailable, and gives it the next revision (its old one goes to revision-history).
// The picture reads the stored ReplicaSets' annotations; nothing here redoes the controller's work.
import type { Cluster } from '../cluster.ts';
import type { Frame } from '../view/types.ts';
import { count } from '../view/words.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { livePodsOf, readyPodsOf, WEB, WEB_IMAGE, webOf, webSettled } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';
import { revisionOf, webReplicaSets } from './web-replicasets.ts';

/** web's replicas (the chapter's example). */
const REPLICAS = 3;
/** The image web is rolled to before the widget opens (the chapter's `kubectl set image`). */
const NEXT_IMAGE = 'nginx:1.28';
const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';

/** One of web's ReplicaSets as stored: its size, its pods ready, its image and its revision annotations. */
type UndoReplicaSet = {
  name: string;
  image: string;
  replicas: number;
  ready: number;
  revision: number;
  history: string | null;
};

/** What the picture draws: web's ReplicaSets, newest revision first, and the Deployment's own revision. */
export type UndoDetail = {
  deploymentRevision: number | null;
  image: string | null;
  replicaSets: UndoReplicaSet[];
};
/** The figure's detail (FigureDef.detail): UndoDetail under its key. */
type Detail = { undo: UndoDetail };

/** web's ReplicaSets and revisions, read from the store (the annotations the Deployment controller writes). */
function undoDetailOf(cluster: Cluster): UndoDetail {
  const { deployment: d, replicaSets } = webReplicaSets(cluster);
  const rss = replicaSets
    .map((rs): UndoReplicaSet => ({
      name: rs.metadata?.name ?? '',
      image: rs.spec?.template?.spec?.containers?.[0]?.image ?? '',
      replicas: rs.spec?.replicas ?? 0,
      ready: rs.status?.readyReplicas ?? 0,
      revision: revisionOf(rs) ?? 0,
      history: rs.metadata?.annotations?.[REVISION_HISTORY] ?? null,
    }))
    .sort((a, b) => b.revision - a.revision);
  return {
    deploymentRevision: revisionOf(d),
    image: d?.spec?.template?.spec?.containers?.[0]?.image ?? null,
    replicaSets: rss,
  };
}

/** web's ReplicaSet running `image`, from the frame. */
const rsOn = (f: Frame, image: string) => webOf(f)?.replicaSets.find((rs) => rs.image === image);
/** web's ReplicaSets from the frame as "name (revision n) at k", newest first. */
const sizes = (f: Frame): string =>
  [...(webOf(f)?.replicaSets ?? [])]
    .sort((a, b) => Number(b.revision) - Number(a.revision))
    .map((rs) => `${rs.name} (revision ${rs.revision}) at ${rs.replicas}`)
    .join(', ');
/** web has settled on `image`: every pod of it ready and the rollout complete. */
const completeOn = (f: Frame, image: string): boolean =>
  webSettled(f, REPLICAS) && webOf(f)?.image === image && livePodsOf(f).every((p) => p.image === image);

/** kubectl creates web, then rolls it to nginx:1.28; the widget opens once that rollout is complete. */
const setup: DemoDef<Detail> = {
  id: 'setup',
  label: () => `Create ${WEB}, roll it to ${NEXT_IMAGE}`,
  unavailable: (f) => (webOf(f) ? `The Deployment ${WEB} exists already.` : null),
  start: () => ({
    actions: [{ type: 'apply', name: WEB, image: WEB_IMAGE, replicas: REPLICAS }],
    memo: {},
    intro: `kubectl creates the Deployment ${WEB}: ${count(REPLICAS, 'replica')} of ${WEB_IMAGE}.`,
    beats: [
      {
        when: (f) => webSettled(f, REPLICAS),
        text: (f) =>
          `${WEB} runs ${count(REPLICAS, 'pod')} of ReplicaSet ${webOf(f)!.replicaSets[0].name} (revision 1). kubectl set image changes the template to ${NEXT_IMAGE}.`,
        then: () => [{ type: 'set-image', name: WEB, image: NEXT_IMAGE }],
      },
      {
        when: (f) => completeOn(f, NEXT_IMAGE),
        text: (f) => {
          const now = rsOn(f, NEXT_IMAGE)!;
          const old = rsOn(f, WEB_IMAGE)!;
          return `${WEB} runs ${count(REPLICAS, 'pod')} of ${NEXT_IMAGE} from ReplicaSet ${now.name} (revision ${now.revision}); ${old.name} (revision ${old.revision}, ${WEB_IMAGE}) is kept, scaled to zero, with its template.`;
        },
      },
    ],
  }),
};

/** `kubectl rollout undo deployment/web`: back to the previous revision's template (pressed again, forward again). */
const undo: DemoDef<Detail> = {
  id: 'undo',
  label: () => 'kubectl rollout undo',
  unavailable: (f) => {
    const d = webOf(f);
    if (!d) return `Create ${WEB} first.`;
    if (d.replicaSets.length < 2) return 'There is no earlier revision yet.';
    return f.controlPlane.apiserver ? null : 'The API server is stopped.';
  },
  start: (f): DemoStart<Detail> => {
    const d = webOf(f)!;
    const byRevision = [...d.replicaSets].sort((a, b) => Number(b.revision) - Number(a.revision));
    const [current, previous] = byRevision;
    const memo: DemoMemo = {
      to: previous.image,
      back: previous.name,
      from: current.name,
      was: previous.revision,
      next: Number(current.revision) + 1,
    };
    return {
      actions: [{ type: 'rollout', name: WEB, verb: 'undo' }],
      memo,
      intro: `kubectl rollout undo reads ReplicaSet ${previous.name} (revision ${previous.revision}), copies its template (${previous.image}) back into ${WEB} and writes the Deployment: "deployment.apps/${WEB} rolled back".`,
      beats: [
        {
          // The controller's first pass on the old template: the reused ReplicaSet has grown and taken the next revision.
          when: (g, m) => {
            const rs = rsOn(g, String(m.to));
            return !!rs && rs.replicas > 0 && Number(rs.revision) === Number(m.next);
          },
          text: (g, m) =>
            `The template hashes to ${m.back} again, so the controller creates no ReplicaSet: it scales ${m.back} up, now revision ${m.next} (its old number, ${m.was}, moves to its revision-history annotation). ${sizes(g)}; ${count(livePodsOf(g).length, 'pod')}, ${readyPodsOf(g).length} ready.`,
        },
        {
          when: (g, m) => completeOn(g, String(m.to)),
          // The default 25% limits on 3 replicas: surge 1 (rounded up), unavailable 0 (rounded down).
          text: (g, m) =>
            `Rolled back: ${REPLICAS} new pods of ${m.to} from ${m.back}, never more than ${REPLICAS + 1} pods nor fewer than ${REPLICAS} ready. ${sizes(g)}.`,
        },
      ],
    };
  },
};

/** The `rollout-undo` widget: kubectl rollout undo scales the old ReplicaSet back up under the next revision. */
export const rolloutUndoWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'rollout-undo',
  title: 'kubectl rollout undo',
  options: { seed: 1, nodes: 3 },
  demos: [setup, undo],
  story: ['setup', 'undo'],
  opening: 2,
  leavesOut: [
    `The widget opens after ${WEB} has rolled from ${WEB_IMAGE} to ${NEXT_IMAGE} with the default limits; the undo runs under the same limits.`,
    'Pods become ready as soon as their container starts (no readiness probe), so each step follows the last within a second or two.',
    'kubectl rollout undo without --to-revision goes to the previous revision; pressing it again returns to the other image under the next number.',
  ],
  detail: (cluster) => ({ undo: undoDetailOf(cluster) }),
};
