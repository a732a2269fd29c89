// The `level-triggered` widget (the reconcile-loop chapter): web runs 3 pods; the reader stops
// kube-controller-manager and deletes two of them. The writes that remove them happen while no
// controller watches, so no notification of them ever reaches it. When it starts again its informers
// list what exists (the one pod left, then a BOOKMARK), no DELETED event is replayed, and the
// ReplicaSet controller, comparing 1 active pod with spec.replicas 3, creates both replacements in one
// sync. The picture reads the request log: the writes the controller-manager missed, its relist, its sync.
import type { Cluster } from '../cluster.ts';
import { KUBE_CONTROLLER_MANAGER } from '../cluster.ts';
import type { Frame } from '../view/types.ts';
import { agree, count, listOf } from '../view/words.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { livePodsOf, readyPodsOf, setupDemo, WEB, webOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';
import { setOf } from '../util/table.ts';

/** web's replicas, as the chapter's other widgets have them. */
const REPLICAS = 3;
/** How many pods the reader deletes while the controller-manager is down. */
const DELETED = 2;
const MUTATING = setOf(['POST', 'PUT', 'PATCH', 'DELETE']);
const WEB_PODS = `pods/default/${WEB}-`;
const podName = (object: string): string => object.slice(object.lastIndexOf('/') + 1);

/** One write to a pod of web that no watch of kube-controller-manager delivered. */
type MissedWrite = {
  component: string;
  verb: string;
  pod: string;
  revision: number;
};

/** What the picture draws: the controller-manager, the writes it missed, its relist and its first sync after it. */
export type LevelDetail = {
  controllerManager: boolean;
  missed: MissedWrite[];
  /** Its pod watch's initial list after its latest start: web's pods ADDED, and the BOOKMARK's revision. */
  relist: { t: number; pods: string[]; bookmark: number } | null;
  /** The ReplicaSet controller's first pod creations after that relist, all at one instant: one sync. */
  sync: { t: number; created: string[]; active: number } | null;
};
/** The figure's detail (FigureDef.detail): LevelDetail under its key. */
type Detail = { level: LevelDetail };

/** Reads the request log for the controller-manager's missed writes, its relist and the sync that follows it. */
function levelDetailOf(cluster: Cluster, frame: Frame): LevelDetail {
  const log = cluster.world.state.log;
  const heard = new Set<string>();
  let watchStart = -1;
  for (let i = 0; i < log.length; i++) {
    const r = log[i];
    if (r.component !== KUBE_CONTROLLER_MANAGER) continue;
    if (r.kind === 'watch' && r.object?.startsWith('pods/')) heard.add(`${r.revision} ${r.object}`);
    else if (r.kind === 'request' && r.verb === 'WATCH' && r.path.startsWith('/api/v1/pods?')) watchStart = i;
  }
  const up = frame.controlPlane.controllerManager;
  // Its controllers run (and its informers watch) only once it leads: until then it hears nothing.
  const watching = up && !!cluster.world.state.components['replicaset-controller'];
  const missed: MissedWrite[] = [];
  for (let i = 0; i < log.length; i++) {
    const r = log[i];
    if (
      r.kind !== 'request' ||
      !MUTATING.has(r.verb) ||
      r.code < 200 ||
      r.code >= 400 ||
      r.revision === undefined ||
      !r.object?.startsWith(WEB_PODS)
    )
      continue;
    // A write not yet delivered while its watch is open is on its way, not missed.
    if (heard.has(`${r.revision} ${r.object}`) || (watching && i > watchStart)) continue;
    missed.push({ component: r.component, verb: r.verb, pod: podName(r.object), revision: r.revision });
  }
  let relist: LevelDetail['relist'] = null;
  let sync: LevelDetail['sync'] = null;
  if (watching && watchStart >= 0 && missed.length > 0) {
    const pods: string[] = [];
    let watcher: string | undefined;
    let i = watchStart + 1;
    for (; i < log.length && !relist; i++) {
      const r = log[i];
      if (r.kind !== 'watch' || r.component !== KUBE_CONTROLLER_MANAGER || !(r.object ?? '').startsWith('pods/'))
        continue;
      if (watcher === undefined) watcher = r.watcher;
      if (r.watcher !== watcher) continue;
      if (r.event === 'BOOKMARK') relist = { t: r.t, pods, bookmark: r.revision ?? 0 };
      else if (r.event === 'ADDED' && r.object!.startsWith(WEB_PODS)) pods.push(podName(r.object!));
    }
    for (; relist && i < log.length; i++) {
      const r = log[i];
      if (
        r.kind !== 'request' ||
        r.component !== 'replicaset-controller' ||
        r.verb !== 'POST' ||
        !r.object?.startsWith(WEB_PODS) ||
        r.code !== 201
      )
        continue;
      if (sync && r.t !== sync.t) break;
      sync ??= { t: r.t, created: [], active: relist.pods.length };
      sync.created.push(podName(r.object));
    }
  }
  return { controllerManager: up, missed, relist, sync };
}

const detailOf = (d: Detail | null): LevelDetail | null => (d?.level ? d.level : null);
/** Keeps what the detail says in the memo for the beat's text (which sees the frame and memo only). Returns true. */
function hold(m: DemoMemo, d: LevelDetail): true {
  const revs = d.missed.map((x) => x.revision);
  Object.assign(m, {
    missed: d.missed.length,
    from: Math.min(...revs),
    to: Math.max(...revs),
    listed: (d.relist?.pods ?? []).join(','),
    bookmark: d.relist?.bookmark ?? 0,
    created: (d.sync?.created ?? []).join(','),
    active: d.sync?.active ?? 0,
  });
  return true;
}
const names = (s: string | number): string[] => (String(s) ? String(s).split(',') : []);

/** Stop kube-controller-manager, or start it again: the widget's action. */
const controllerManager: DemoDef<Detail> = {
  id: 'controller-manager',
  label: (f) => (f.controlPlane.controllerManager ? 'Stop the controller-manager' : 'Start the controller-manager'),
  unavailable: (f) =>
    !webOf(f) ? `Create ${WEB} first.` : f.controlPlane.apiserver ? null : 'The API server is stopped.',
  start: (f): DemoStart<Detail> => {
    if (f.controlPlane.controllerManager) {
      return {
        actions: [{ type: 'control-plane', action: 'stop', component: 'controller-manager' }],
        memo: {},
        intro: `${KUBE_CONTROLLER_MANAGER} stops: its watches close, and no controller of it hears of anything until it runs again. The API server, the scheduler and the kubelets go on.`,
        beats: [],
      };
    }
    return {
      actions: [{ type: 'control-plane', action: 'start', component: 'controller-manager' }],
      memo: { at: f.t },
      intro: `${KUBE_CONTROLLER_MANAGER} starts again. It waits to hold its leader-election Lease, then opens its watches anew.`,
      beats: [
        {
          when: (_g, m, detail) => {
            const d = detailOf(detail());
            return !!d?.relist && hold(m, d);
          },
          text: (g, m) => {
            const listed = names(m.listed);
            return `${Math.round((g.t - Number(m.at)) / 1000)} s later its informers list what exists: its pod watch brings ${listOf(listed)}, then a BOOKMARK at revision ${m.bookmark} saying the list is complete. None of the ${count(Number(m.missed), 'write')} it missed is replayed; ${agree(listed.length, 'that pod is', 'those pods are')} all it knows of ${WEB}.`;
          },
        },
        {
          when: (_g, m, detail) => {
            const d = detailOf(detail());
            return !!d?.sync && hold(m, d);
          },
          text: (g, m) => {
            const created = names(m.created);
            return `The ReplicaSet controller compares ${count(Number(m.active), 'active pod')} with spec.replicas ${webOf(g)?.replicas ?? REPLICAS} and, in one sync, creates ${listOf(created)}: it acts on the state it finds, not on the deletions it never saw.`;
          },
        },
        {
          when: (g) => readyPodsOf(g).length === REPLICAS && livePodsOf(g).length === REPLICAS,
          text: () => `${count(REPLICAS, 'pod')} of ${WEB} ${agree(REPLICAS, 'is', 'are')} ready again.`,
        },
      ],
    };
  },
};

/** Delete two of web's pods (kubectl delete pod, twice), and wait until both are gone. */
const deleteTwo: DemoDef<Detail> = {
  id: 'delete-pods',
  label: () => `Delete ${DELETED} pods`,
  unavailable: (f) => (readyPodsOf(f).length < DELETED ? `Fewer than ${DELETED} pods of ${WEB} are running.` : null),
  start: (f): DemoStart<Detail> => {
    const victims = readyPodsOf(f)
      .slice(0, DELETED)
      .map((p) => p.name);
    return {
      actions: victims.map((pod) => ({ type: 'delete-pod' as const, pod })),
      memo: { victims: victims.join(',') },
      intro: `kubectl deletes ${listOf(victims)}.`,
      beats: [
        {
          when: (g, m) => !names(m.victims).some((v) => [...g.pods, ...g.pending].some((p) => p.name === v)),
          text: (g) => {
            const left = livePodsOf(g).length;
            return `Their kubelets stop the containers and remove both pods from the API server: ${WEB} has ${count(left, 'pod')} for spec.replicas ${webOf(g)?.replicas ?? REPLICAS}${g.controlPlane.controllerManager ? '' : `, and ${KUBE_CONTROLLER_MANAGER}, stopped, was told of none of it`}.`;
          },
        },
      ],
    };
  },
};

/** The `level-triggered` widget: changes made while the controller-manager was down, fixed by one sync on the state it finds. */
export const levelTriggeredWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'level-triggered',
  title: 'State, not events',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), controllerManager, deleteTwo],
  story: ['setup', 'controller-manager', 'delete-pods', 'controller-manager'],
  opening: 1,
  leavesOut: [
    'The widget opens with web already running 3 pods, one on each node.',
    `Only ${KUBE_CONTROLLER_MANAGER} stops; the API server, etcd, the scheduler and the kubelets keep running, so the deletions complete without it.`,
    'A restarted controller-manager waits for its old leader-election Lease to expire before it leads and starts its controllers; that is the wait before its watches open.',
    'Its watches ask for a streaming list (sendInitialEvents): the objects that exist arrive as ADDED events, and a BOOKMARK marks the end of the list.',
  ],
  detail: (cluster, frame) => ({ level: levelDetailOf(cluster, frame) }),
};
