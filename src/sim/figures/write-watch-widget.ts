// The `write-watch` widget (the control-plane chapter): kubectl scales web; the API server stores the
// write at the store's next revision and sends a watch notification to every watcher of that kind;
// each controller that acts writes again, at the next revision, with a fan-out of its own. The panel
// lists that chain from the request log, each write with its revision and the watchers told of it.
import type { Cluster } from '../cluster.ts';
import { isHeartbeat } from '../view/records.ts';
import type { Frame } from '../view/types.ts';
import { agree, count } from '../view/words.ts';
import type { DemoDef, FigureDef } from './demo.ts';
import { livePodsOf, readyPodsOf, setupDemo, WEB, webOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';
import { setOf } from '../util/table.ts';

/** web's replicas as the widget opens; the reader's scale toggles between this and one more. */
const REPLICAS = 3;
/** How far back the panel looks for kubectl's write (records). */
const LOOK_BACK = 4_000;
/** Writes the panel lists after kubectl's. */
const CHAIN = 6;
const MUTATING = setOf(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One write and the watchers told of it, as the panel draws it. */
export type WriteFanOut = {
  component: string;
  verb: string;
  object: string;
  revision: number;
  notified: { component: string; event: string }[];
};
/** The figure's detail (FigureDef.detail): the fan-out under its key. */
type Detail = { writes: WriteFanOut[] };

/** kubectl's last write and the writes it set off (Events and heartbeats left out), each with its watch notifications so far. */
function fanOutOf(cluster: Cluster): WriteFanOut[] {
  const w = cluster.world.state;
  const stop = Math.max(0, w.log.length - LOOK_BACK);
  let start = -1;
  for (let i = w.log.length - 1; i >= stop; i--) {
    const r = w.log[i];
    if (r.kind === 'request' && r.component === 'kubectl' && MUTATING.has(r.verb) && r.revision !== undefined) {
      start = i;
      break;
    }
  }
  if (start < 0) return [];
  const out: WriteFanOut[] = [];
  const at = new Map<string, WriteFanOut>();
  for (let i = start; i < w.log.length; i++) {
    const r = w.log[i];
    const about = r.object ?? r.path;
    if (about.includes('events') || isHeartbeat(w, r) || r.revision === undefined) continue;
    if (r.kind === 'request' && MUTATING.has(r.verb) && r.code < 400 && out.length < CHAIN) {
      const x: WriteFanOut = {
        component: r.component,
        verb: r.verb,
        object: about,
        revision: r.revision,
        notified: [],
      };
      out.push(x);
      at.set(`${r.revision} ${about}`, x);
    } else if (r.kind === 'watch' && r.event !== 'BOOKMARK') {
      at.get(`${r.revision} ${about}`)?.notified.push({ component: r.component, event: r.event ?? '' });
    }
  }
  return out;
}

const other = (f: Frame): number => (webOf(f)?.replicas === REPLICAS ? REPLICAS + 1 : REPLICAS);

/** kubectl scale web: one write, its revision and its watchers, then the chain it sets off. */
const scale: DemoDef<Detail> = {
  id: 'scale',
  label: (f) => `Scale web to ${other(f)}`,
  unavailable: (f) =>
    !webOf(f)
      ? 'The Deployment web does not exist yet.'
      : f.controlPlane.apiserver
        ? null
        : 'The API server is stopped.',
  start: (f) => {
    const to = other(f);
    return {
      actions: [{ type: 'scale', name: WEB, replicas: to }],
      memo: { to, revision: f.revision },
      intro: `kubectl sends one write: spec.replicas of web from ${webOf(f)!.replicas} to ${to}. etcd's revision is ${f.revision} before it.`,
      beats: [
        {
          when: (g) => livePodsOf(g).length === webOf(g)?.replicas && readyPodsOf(g).length === webOf(g)?.replicas,
          text: (g, m) => {
            const n = webOf(g)!.replicas;
            return `${count(n, 'pod')} of ${n} ${agree(n, 'is', 'are')} ready: the one write at revision ${Number(m.revision) + 1} set off every write listed, each at the next revision and told to its watchers. etcd is at revision ${g.revision} now (Leases, Events and status count too).`;
          },
        },
      ],
    };
  },
};

/** The `write-watch` widget: one write, its revision, and its watch fan-out. */
export const writeWatchWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'write-watch',
  title: 'One write, its revision and its watchers',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), scale],
  story: ['setup', 'scale'],
  opening: 1,
  leavesOut: [
    'The widget opens with web already running 3 pods; the writes that made them came earlier.',
    'The list leaves out Events and heartbeats (Lease renewals, node status), which also take revisions: that is why the numbers jump.',
    'Each component keeps one watch per kind (a shared informer), so the controller-manager is told once for all its controllers.',
  ],
  detail: (cluster) => ({ writes: fanOutOf(cluster) }),
};
