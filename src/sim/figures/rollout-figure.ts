// The `rollout` figure: one Deployment rolled from one image to another within its maxSurge and
// maxUnavailable, paused and resumed, undone, and stalled by an image that never runs until the
// Deployment reports ProgressDeadlineExceeded. The bounds are the Deployment controller's own
// arithmetic (deployment-util's MaxSurge / MaxUnavailable over the stored object), never redone here.
import { REQUEST_CHECKS } from '../apiserver/request-checks.ts';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Cluster } from '../cluster.ts';
import { maxSurge, maxUnavailable, rollingUpdateParams, specReplicas } from '../controllers/deployment-util.ts';
import { storeGet, storeList } from '../view/stored.ts';
import { rolloutStatechartOf, type StatechartView } from '../view/statechart.ts';
import type { DeploymentView, Frame, PodView } from '../view/types.ts';
import { agree, count } from '../view/words.ts';
import type { DemoDef, FigureDef } from './demo.ts';
import type { FigureView } from './protocol.ts';
import { rolloutSeries, type RolloutSeries } from './rollout-series.ts';
import { figureActions } from './figure-actions.ts';

/** The Deployment the figure rolls out. */
const NAME = 'web';
/** Its images: the first, the update, and one that no registry has. */
const IMAGES = { first: 'nginx:1.27', next: 'nginx:1.28', broken: 'nginx:1.99' } as const;
/** Six replicas make the 25% defaults round visibly: 1.5 → maxSurge 2 (up), maxUnavailable 1 (down). */
const REPLICAS = 6;

const web = (f: Frame): DeploymentView | undefined =>
  f.deployments.find((d) => d.name === NAME && d.namespace === 'default');

/** web's pods that are not being deleted. */
function livePods(f: Frame): PodView[] {
  const owners = new Set((web(f)?.replicaSets ?? []).map((rs) => `ReplicaSet/${rs.name}`));
  return [...f.pending, ...f.pods].filter((p) => p.owner !== null && owners.has(p.owner) && !p.terminating);
}

const ready = (f: Frame): PodView[] => livePods(f).filter((p) => p.ready);
const needsWeb = (f: Frame): string | null => (web(f) ? null : 'Apply the Deployment first.');
const paused = (f: Frame): boolean => web(f)?.rollout?.state === 'paused';

/** The Deployment controller itself has judged the rollout complete (its statechart, which the figure draws). */
const controllerSaysComplete = (f: Frame): boolean => web(f)?.rollout?.state === 'complete';

/** Every pod of web runs `image` and is ready, no other ReplicaSet has replicas, and the controller says so too. */
function completeOn(f: Frame, image: string): boolean {
  const d = web(f);
  if (!d || !controllerSaysComplete(f)) return false;
  const pods = livePods(f);
  return (
    pods.length === d.replicas &&
    pods.every((p) => p.image === image && p.ready) &&
    d.replicaSets.every((rs) => rs.image === image || rs.replicas === 0)
  );
}

const apply: DemoDef<RolloutDetail> = {
  id: 'apply',
  label: () => 'Apply',
  unavailable: (f) => (web(f) ? 'The Deployment web exists already.' : null),
  start: () => ({
    actions: [{ type: 'apply', name: NAME, image: IMAGES.first, replicas: REPLICAS }],
    memo: {},
    intro: `kubectl creates the Deployment ${NAME}: ${REPLICAS} replicas of ${IMAGES.first}. The API server fills in the defaults: strategy RollingUpdate with maxSurge 25% and maxUnavailable 25%, progressDeadlineSeconds 600.`,
    beats: [
      {
        when: (f) => ready(f).length >= REPLICAS && controllerSaysComplete(f),
        text: (f) =>
          `${count(ready(f).length, 'pod')} of ReplicaSet ${web(f)!.replicaSets[0].name} ${agree(ready(f).length, 'is', 'are')} Ready: the rollout of revision 1 is complete.`,
      },
    ],
  }),
};

const update: DemoDef<RolloutDetail> = {
  id: 'update',
  label: (f) => `Update to ${web(f)?.image === IMAGES.next ? IMAGES.first : IMAGES.next}`,
  unavailable: (f) => needsWeb(f),
  start: (f) => {
    const to = web(f)!.image === IMAGES.next ? IMAGES.first : IMAGES.next;
    return {
      actions: [{ type: 'set-image', name: NAME, image: to }],
      memo: { to },
      intro: `kubectl set image changes the pod template to ${to}. A new template is a new ReplicaSet (or an old one whose template matches); the Deployment controller moves replicas over, never above replicas + maxSurge pods and never below replicas − maxUnavailable available.`,
      beats: [
        {
          when: (g) => (web(g)?.replicaSets.find((rs) => rs.image === to)?.replicas ?? 0) > 0,
          text: (g) => {
            const rs = web(g)!.replicaSets.find((x) => x.image === to)!;
            return `ReplicaSet ${rs.name} (${to}) is scaled up first, into the room maxSurge leaves: ${count(livePods(g).length, 'pod')} in all, ${ready(g).length} ready. Old pods go only as new ones become available.`;
          },
        },
        {
          when: (g, m) => completeOn(g, String(m.to)),
          text: (g, m) =>
            `Rollout complete: ${web(g)!.replicas === 1 ? 'the one pod runs' : `all ${count(web(g)!.replicas, 'pod')} run`} ${m.to}. The old ReplicaSet stays, scaled to 0, which is what kubectl rollout undo goes back to.`,
        },
      ],
    };
  },
};

const pause: DemoDef<RolloutDetail> = {
  id: 'pause',
  label: (f) => (paused(f) ? 'Resume' : 'Pause'),
  unavailable: needsWeb,
  start: (f) =>
    paused(f)
      ? {
          actions: [{ type: 'rollout', name: NAME, verb: 'resume' }],
          memo: {},
          intro:
            'kubectl rollout resume clears spec.paused. The controller picks up where it stopped, with any template change made in the meantime.',
          beats: [],
        }
      : {
          actions: [{ type: 'rollout', name: NAME, verb: 'pause' }],
          memo: {},
          intro:
            'kubectl rollout pause sets spec.paused. The controller still keeps the replica count, but starts no new rollout step, and the progress deadline stops counting.',
          beats: [],
        },
};

const undo: DemoDef<RolloutDetail> = {
  id: 'undo',
  label: () => 'Undo',
  unavailable: (f) =>
    needsWeb(f) ??
    (paused(f)
      ? 'A paused Deployment cannot be rolled back; resume it first.'
      : web(f)!.replicaSets.length < 2
        ? 'There is no earlier revision yet.'
        : null),
  start: (f) => {
    const d = web(f)!;
    const prev = [...d.replicaSets]
      .filter((rs) => rs.image !== d.image)
      .sort((a, b) => Number(b.revision) - Number(a.revision))[0];
    const to = prev?.image ?? d.image;
    return {
      actions: [{ type: 'rollout', name: NAME, verb: 'undo' }],
      memo: { to },
      intro: `kubectl rollout undo copies the pod template of the previous revision (${to}) back into the Deployment. Its ReplicaSet already exists, so it is scaled up again and takes the next revision number.`,
      beats: [
        {
          when: (g, m) => completeOn(g, String(m.to)),
          text: (g, m) => `Back on ${m.to}: ${count(ready(g).length, 'pod')} ready, no new ReplicaSet made.`,
        },
      ],
    };
  },
};

const broken: DemoDef<RolloutDetail> = {
  id: 'broken',
  label: () => `Roll out ${IMAGES.broken} (never pulls)`,
  unavailable: (f) => needsWeb(f) ?? (web(f)!.image === IMAGES.broken ? `web already runs ${IMAGES.broken}.` : null),
  start: () => ({
    actions: [
      { type: 'image-fault', image: IMAGES.broken, state: 'missing' },
      { type: 'set-image', name: NAME, image: IMAGES.broken },
    ],
    memo: {},
    intro: `The registry has no ${IMAGES.broken}, and kubectl set image asks for it. The new pods are created and scheduled, but no kubelet can pull their image.`,
    beats: [
      {
        when: (g) =>
          livePods(g).some((p) => p.image === IMAGES.broken && /ErrImagePull|ImagePullBackOff/.test(p.status)),
        text: (g) => {
          const d = web(g)!;
          const bad = livePods(g).filter((p) => p.image === IMAGES.broken);
          const shown = bad.find((p) => /ErrImagePull|ImagePullBackOff/.test(p.status))!;
          return `${count(bad.length, 'new pod')} cannot start (${shown.name}: ${shown.status}). ${agree(bad.length, 'It never becomes', 'They never become')} ready, so the controller scales the old ReplicaSet down no further: ${ready(g).length} of ${d.replicas} stay ready and serve.`;
        },
      },
      {
        when: (g) => /ProgressDeadlineExceeded/.test(web(g)?.rollout?.why ?? ''),
        text: () =>
          `No progress for progressDeadlineSeconds (600 s): the controller sets the Progressing condition to False with reason ProgressDeadlineExceeded. It does not roll back by itself; kubectl rollout status now exits with an error, and undo is the reader's call.`,
      },
    ],
  }),
};

/** What the figure sends beside each frame: the bounds as the controller resolves them, the ReplicaSets, the counts, and the last refusal. */
export type RolloutDetail = {
  deployment: {
    replicas: number;
    /** spec.strategy.rollingUpdate as stored (after the API server's defaults). */
    maxSurgeSpec: string | number;
    maxUnavailableSpec: string | number;
    /** MaxSurge / MaxUnavailable of deployment-util (surge rounds up, unavailable down, at least one fencepost). */
    maxSurge: number;
    maxUnavailable: number;
    atMost: number;
    atLeastReady: number;
    progressDeadlineSeconds: number;
    paused: boolean;
    revision: string;
  } | null;
  replicaSets: { name: string; revision: string; image: string; replicas: number; ready: number; available: number }[];
  /** The Deployment's pods now: not being deleted, and of those the ready ones. */
  pods: { total: number; ready: number; terminating: number };
  /** The rollout statechart's state and the reason the controller gives. */
  rollout: { state: string; why: string } | null;
  /** The rollout statechart itself, lit at web's state as the Deployment controller holds it, with its reason. */
  chart: StatechartView;
  conditions: { type: string; status: string; reason: string; message: string }[];
  /** The last change of the reader's that the API server refused, with its message. */
  refused: string | null;
  /** The pods and bounds over the last minutes, for the chart: read from etcd's history at this moment. */
  series: RolloutSeries;
};

/** Reads the Deployment as stored and resolves its bounds with the controller's own functions. */
function rolloutDetail(c: Cluster, f: Frame): RolloutDetail {
  const w = c.world.state;
  const d = storeGet(w.store, 'deployments', `/registry/deployments/default/${NAME}`) as Deployment | undefined;
  const rss = storeList(w.store, 'replicasets', 'default').filter((rs) =>
    rs.metadata?.ownerReferences?.some((o) => o.kind === 'Deployment' && o.name === NAME && o.uid === d?.metadata?.uid),
  );
  const uids = new Set(rss.map((rs) => rs.metadata?.uid));
  const pods = storeList(w.store, 'pods', 'default').filter((p) =>
    p.metadata?.ownerReferences?.some((o) => uids.has(o.uid)),
  );
  const isReady = (p: Pod): boolean => !!p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True');
  const live = pods.filter((p) => !p.metadata?.deletionTimestamp);
  let deployment: RolloutDetail['deployment'] = null;
  if (d) {
    const ru = rollingUpdateParams(d);
    const replicas = specReplicas(d);
    const surge = maxSurge(d);
    const unavailable = maxUnavailable(d);
    deployment = {
      replicas,
      maxSurgeSpec: ru.maxSurge,
      maxUnavailableSpec: ru.maxUnavailable,
      maxSurge: surge,
      maxUnavailable: unavailable,
      atMost: replicas + surge,
      atLeastReady: replicas - unavailable,
      progressDeadlineSeconds: d.spec?.progressDeadlineSeconds ?? 600,
      paused: !!d.spec?.paused,
      revision: d.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? '',
    };
  }
  const view = web(f);
  return {
    deployment,
    replicaSets: rss
      .map((rs) => ({
        name: rs.metadata?.name ?? '',
        revision: rs.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? '',
        image: rs.spec?.template?.spec?.containers?.[0]?.image ?? '',
        replicas: rs.spec?.replicas ?? 0,
        ready: rs.status?.readyReplicas ?? 0,
        available: rs.status?.availableReplicas ?? 0,
      }))
      .sort((a, b) => Number(a.revision) - Number(b.revision)),
    pods: { total: live.length, ready: live.filter(isReady).length, terminating: pods.length - live.length },
    rollout: view?.rollout ?? null,
    chart: rolloutStatechartOf(w, `default/${NAME}`),
    conditions: (d?.status?.conditions ?? []).map((x) => ({
      type: x.type,
      status: x.status,
      reason: x.reason ?? '',
      message: x.message ?? '',
    })),
    refused: lastRefusal(c),
    series: rolloutSeries(w, 'default', NAME),
  };
}

/** The newest write of kubectl's the API server refused (a 4xx with its message), among the last few. */
function lastRefusal(c: Cluster): string | null {
  const log = c.world.state.log;
  for (let i = log.length - 1, seen = 0; i >= 0 && seen < 200; i--, seen++) {
    const r = log[i];
    if (r.component !== 'kubectl' || r.kind !== 'request' || r.verb === 'GET' || r.verb === 'LIST') continue;
    return r.code >= 400 && r.message ? r.message : null;
  }
  return null;
}

/** What the rollout figure's widget draws. */
export type RolloutView = FigureView<RolloutDetail>;

/** The `rollout` figure (the rolling-updates chapter). */
export const rolloutFigure: FigureDef<RolloutDetail> = {
  actions: figureActions,
  // The API server's request checks: its panel sends the reader's maxSurge and maxUnavailable, and ValidateDeployment refuses 0 and 0.
  checks: REQUEST_CHECKS,
  id: 'rollout',
  title: 'A rolling update, live',
  options: { seed: 3, nodes: 3 },
  demos: [apply, update, pause, undo, broken],
  story: ['apply', 'update', 'broken', 'undo'],
  leavesOut: [
    'One Deployment with pods that have no readiness probe: a pod counts as ready once its container runs, and minReadySeconds is 0, so ready and available are the same here.',
    'The strategy Recreate is not offered; only RollingUpdate with its two bounds.',
    'Images come from a simulated registry; the broken image is simply missing from it.',
    'The 600 s progress deadline is real in the model; only the playback compresses the wait.',
  ],
  detail: (c, f) => rolloutDetail(c, f),
};
