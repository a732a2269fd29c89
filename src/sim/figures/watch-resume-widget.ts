// The `watch-resume` widget (the control-plane chapter): web runs 3 pods; the reader cuts node-1 off
// from the API server, so its kubelet's pod watch breaks, and scales web to 6, so a pod is bound to
// node-1 that its kubelet does not hear of. Once the link is back the kubelet watches again from the
// last resourceVersion it saw, and the API server replays from its history exactly the changes since.
// The picture reads the request log: the revision the kubelet last saw, its resumed WATCH, the replay.
import type { Cluster } from '../cluster.ts';
import type { Frame } from '../view/types.ts';
import { count, listOf } from '../view/words.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { livePodsOf, readyPodsOf, setupDemo, WEB, webOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas as the widget opens, and what the reader scales it to. */
const REPLICAS = 3;
const SCALED = 6;
/** The node cut off, and its kubelet. */
const NODE = 'node-1';
const KUBELET = `kubelet/${NODE}`;
const podName = (object: string): string => object.slice(object.lastIndexOf('/') + 1);

/** One pod event the resumed watch delivered that happened while the kubelet was cut off. */
type Replayed = {
  event: string;
  pod: string;
  revision: number;
};

/** What the picture draws: the link, the last revision the kubelet saw, its resumed watch and what it replayed. */
export type ResumeDetail = {
  cutOff: boolean;
  /** The revision of the last pod event the kubelet's watch delivered before its latest re-watch (or until now). */
  lastSeen: number | null;
  /** Its latest WATCH of pods sent with a resourceVersion: when, from which, and the store's revision then. */
  resumed: { t: number; from: number; storeAt: number } | null;
  /** The events that watch delivered up to the store's revision when it was opened: the changes it missed. */
  replayed: Replayed[];
};
/** The figure's detail (FigureDef.detail): ResumeDetail under its key. */
type Detail = { resume: ResumeDetail };

/** Reads the request log for node-1's kubelet's pod watch: what it last saw, where it resumed, what came. */
function resumeDetailOf(cluster: Cluster, frame: Frame): ResumeDetail {
  const log = cluster.world.state.log;
  let resumeAt = -1;
  let from = 0;
  for (let i = log.length - 1; i >= 0; i--) {
    const r = log[i];
    if (r.kind !== 'request' || r.component !== KUBELET || r.verb !== 'WATCH' || !r.path.startsWith('/api/v1/pods?'))
      continue;
    const m = /[?&]resourceVersion=(\d+)/.exec(r.path);
    if (m) {
      resumeAt = i;
      from = Number(m[1]);
    }
    break;
  }
  let lastSeen: number | null = null;
  let storeAt = 0;
  const replayed: Replayed[] = [];
  for (let i = 0; i < log.length; i++) {
    const r = log[i];
    if (resumeAt >= 0 && i < resumeAt && r.revision !== undefined) storeAt = Math.max(storeAt, r.revision);
    if (r.kind !== 'watch' || r.component !== KUBELET || !r.object?.startsWith('pods/') || r.revision === undefined)
      continue;
    if (resumeAt < 0 || i < resumeAt) lastSeen = r.revision;
    else if (r.revision <= storeAt)
      replayed.push({ event: r.event ?? '', pod: podName(r.object), revision: r.revision });
  }
  const cutOff = frame.nodes.find((n) => n.name === NODE)?.partitioned ?? false;
  return { cutOff, lastSeen, resumed: resumeAt >= 0 ? { t: log[resumeAt].t, from, storeAt } : null, replayed };
}

const detailOf = (d: Detail | null): ResumeDetail | null => (d?.resume ? d.resume : null);
/** Keeps what the detail says in the memo for the beat's text (which sees the frame and memo only). Returns true. */
function hold(m: DemoMemo, d: ResumeDetail): true {
  Object.assign(m, {
    from: d.resumed?.from ?? 0,
    storeAt: d.resumed?.storeAt ?? 0,
    lastSeen: d.lastSeen ?? 0,
    replayed: d.replayed.map((x) => `${x.event} ${x.pod} (revision ${x.revision})`).join(';'),
    pods: [...new Set(d.replayed.map((x) => x.pod))].join(','),
  });
  return true;
}
/**
 * The replayed pods the frame no longer has, said in the replay's own clause: a reader who deleted
 * web's extra pods while node-1 was cut off sees them replayed, then not on the stage.
 */
function goneSince(f: Frame, m: DemoMemo): string {
  const here = new Set([...f.pods, ...f.pending].map((p) => p.name));
  const gone = String(m.pods)
    .split(',')
    .filter((p) => p && !here.has(p));
  return gone.length
    ? `, though ${listOf(gone)} ${gone.length === 1 ? 'is' : 'are'} gone from the API server by now`
    : '';
}
const onNode = (f: Frame): string[] =>
  livePodsOf(f)
    .filter((p) => p.node === NODE)
    .map((p) => p.name);
const cut = (f: Frame): boolean => f.nodes.find((n) => n.name === NODE)?.partitioned ?? false;

/** Cut node-1 off from the API server, or reconnect it: the widget's action. */
const link: DemoDef<Detail> = {
  id: 'link',
  label: (f) => (cut(f) ? `Reconnect ${NODE}` : `Cut ${NODE} off`),
  unavailable: (f) =>
    !webOf(f) ? `Create ${WEB} first.` : f.controlPlane.apiserver ? null : 'The API server is stopped.',
  start: (f): DemoStart<Detail> => {
    if (!cut(f)) {
      return {
        actions: [{ type: 'node', node: NODE, action: 'partition' }],
        memo: {},
        intro: `${NODE}'s network to the API server breaks: its kubelet's watches close and its requests fail, while its containers keep running.`,
        beats: [],
      };
    }
    return {
      actions: [{ type: 'node', node: NODE, action: 'heal' }],
      memo: {},
      intro: `${NODE}'s network is back. Its kubelet retries after its back-off and watches its pods again, from the last resourceVersion it saw.`,
      beats: [
        {
          when: (_g, m, detail) => {
            const d = detailOf(detail());
            return !!d && !d.cutOff && !!d.resumed && d.replayed.length > 0 && hold(m, d);
          },
          text: (f, m) =>
            `${NODE}'s kubelet watches from resourceVersion ${m.from}, the last revision it saw, and the API server replays from its history exactly what changed since: ${String(m.replayed).split(';').join(', ')}${goneSince(f, m)}. Nothing before ${m.from} comes again, and no list is needed.`,
        },
        {
          when: (g, m) => names(m.pods).every((p) => readyPodsOf(g).some((x) => x.name === p)),
          text: (g, m) =>
            `${listOf(names(m.pods))} ${names(m.pods).length === 1 ? 'runs' : 'run'} on ${NODE} now: ${count(onNode(g).length, 'pod')} of ${WEB} there, started once its kubelet heard of ${names(m.pods).length === 1 ? 'it' : 'them'}.`,
        },
      ],
    };
  },
};
const names = (s: string | number): string[] => (String(s) ? String(s).split(',') : []);

/** Scale web to 6 (or back to 3): the change the cut-off kubelet misses. */
const scale: DemoDef<Detail> = {
  id: 'scale',
  label: (f) => `Scale ${WEB} to ${webOf(f)?.replicas === SCALED ? REPLICAS : SCALED}`,
  unavailable: (f) =>
    !webOf(f) ? `Create ${WEB} first.` : f.controlPlane.apiserver ? null : 'The API server is stopped.',
  start: (f): DemoStart<Detail> => {
    const to = webOf(f)!.replicas === SCALED ? REPLICAS : SCALED;
    return {
      actions: [{ type: 'scale', name: WEB, replicas: to }],
      memo: { to },
      intro: `kubectl scales ${WEB} to ${to}.`,
      beats: [
        {
          when: (g, m) => livePodsOf(g).length === Number(m.to) && livePodsOf(g).every((p) => p.node),
          text: (g) =>
            `${WEB} has ${count(livePodsOf(g).length, 'pod')}, each bound to a node; on ${NODE}: ${listOf(onNode(g))}${cut(g) ? `. Its kubelet, cut off, has heard of none of what changed there` : ''}.`,
        },
      ],
    };
  },
};

/** The `watch-resume` widget: a kubelet's watch broken and resumed from its last resourceVersion. */
export const watchResumeWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'watch-resume',
  title: 'A watch resumes from its resourceVersion',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), link, scale],
  story: ['setup', 'link', 'scale', 'link'],
  opening: 1,
  leavesOut: [
    `The widget opens with web running one pod on each node; it follows ${NODE}'s kubelet, which watches only the pods bound to ${NODE} (a field selector on spec.nodeName).`,
    `Only ${NODE} is cut off, briefly: its kubelet retries after its reflector back-off (800 ms, doubling). Cut off for longer than 50 s, the node would turn NotReady.`,
    "The history since the revision is still there, so the API server replays it; had it been compacted away, the answer would be 410 Gone and the kubelet would list again with a streaming list ending in a BOOKMARK. The API server's occasional BOOKMARKs on a quiet watch are not modelled.",
  ],
  detail: (cluster, frame) => ({ resume: resumeDetailOf(cluster, frame) }),
};
