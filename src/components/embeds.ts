/**
 * The figures a course may embed: which chapter each belongs to, the anchor of its place there, a
 * one-line summary, and the size of its iframe. Used by the embed pages, their oEmbed documents and
 * /for-instructors/. The ids are the figure ids of src/sim/figures/catalog.ts, and `terminal`.
 */
import type { FigureId, WidgetId } from '../sim/figures/catalog.ts';

/** A figure's row in the registry's page half: what a page says of it and how it embeds. */
interface FigureRow {
  /** A chapter's live figure (widgets/<id>/<Name>Figure.astro) or an inline widget (widgets/<id>/<Name>Widget.svelte in components/InlineWidget.astro). */
  kind: FigureKind;
  /** The iframe's title and the oEmbed title. */
  title: string;
  /** The chapter's slug, and the id of the figure element there (Figure.astro: figure-<id>). */
  chapter: string;
  anchor: string;
  /** One line: what the reader can do with it. */
  summary: string;
  /** The iframe's suggested size in CSS pixels (the embed posts its real height to the parent). */
  width: number;
  height: number;
  /** Its terminal variant, the embed /embed/terminal/: the figure with its kubectl terminal open, in the same chapter place. */
  terminal?: { title: string; summary: string; height: number };
}

/** What kind of figure a row is: the kind must match its id's union in catalog.ts (a type error otherwise). */
type FigureKind = 'figure' | 'widget';

/** The table's type: exactly one row per FigureId, each of its id's kind. */
type FigureRows = { readonly [K in FigureId]: FigureRow & { kind: K extends WidgetId ? 'widget' : 'figure' } };

/** The embeds' path segments, /embed/<id>/: each figure's id, and `terminal`. */
export type EmbedId = FigureId | 'terminal';

/** One embed: a figure, or a figure's terminal variant. */
export interface EmbedFigure extends Omit<FigureRow, 'terminal'> {
  /** The embed's path segment, /embed/<id>/. */
  id: EmbedId;
  /** The figure it shows, when it is not `id`: the terminal embed shows `cluster`. */
  figure?: FigureId;
}

/**
 * The registry's page half (its worker half, the loaders and the FigureId type, is
 * src/sim/figures/catalog.ts): every figure's row, keyed by exactly the FigureIds (embeds.test-d.ts),
 * in the order /for-instructors/ lists them.
 */
export const FIGURE_ROWS: FigureRows = {
  cluster: {
    kind: 'figure',
    title: 'The reconcile loop, live',
    chapter: 'reconcile-loop',
    anchor: 'figure-reconcile-loop-live',
    summary:
      'Create a Deployment and step through the chain of controllers, or delete a pod, stop a node or the control plane and watch each controller close the gap.',
    width: 960,
    height: 1100,
    terminal: {
      title: 'kubectl on a live cluster',
      summary:
        'A kubectl terminal open on a three-node cluster: type kubectl and sim lines (history, Tab completion, apply -f - with a pasted manifest) and watch the figure and its request log answer.',
      height: 1300,
    },
  },
  hub: {
    kind: 'figure',
    title: 'One write through the API server, live',
    chapter: 'control-plane',
    anchor: 'figure-control-plane-request-path',
    summary:
      'Follow one request through authentication, authorisation, admission and validation to an etcd write and its watch notifications; send requests a stage refuses.',
    width: 960,
    height: 1100,
  },
  scheduler: {
    kind: 'figure',
    title: 'The scheduler, live',
    chapter: 'scheduler',
    anchor: 'figure-scheduler-live',
    summary:
      'Five nodes of different sizes: see every node’s filter verdict and every plugin’s weighted score for the chosen pod, and the pods that stay Pending.',
    width: 960,
    height: 1200,
  },
  rollout: {
    kind: 'figure',
    title: 'A rolling update, live',
    chapter: 'rolling-updates',
    anchor: 'figure-rolling-updates-live',
    summary:
      'The old and new ReplicaSets against the maxSurge and maxUnavailable lines; pause, resume, undo, or roll out an image that never pulls.',
    width: 960,
    height: 1200,
  },
  'node-failure': {
    kind: 'figure',
    title: 'A node fails, live',
    chapter: 'node-failure',
    anchor: 'figure-node-failure-eviction',
    summary:
      'Power node-2 off or cut it off the network: its Lease ages past the grace period, taints arrive, tolerations run down and replacements start elsewhere.',
    width: 960,
    height: 1200,
  },
  outage: {
    kind: 'figure',
    title: 'The control plane goes down, live',
    chapter: 'control-plane-outage',
    anchor: 'figure-control-plane-outage-keeps-stops',
    summary:
      'Stop the control plane: running pods keep serving while kubectl is refused, and a node that dies meanwhile is noticed only after the restart.',
    width: 960,
    height: 1100,
  },
  troubleshooting: {
    kind: 'figure',
    title: 'Break a pod, then diagnose it',
    chapter: 'troubleshooting',
    anchor: 'figure-troubleshooting-live',
    summary:
      'Give web a mistyped image tag, a container that crashes, one that leaks past its memory limit or a pod that never gets Ready, and read each with kubectl in the terminal: the Events, the restart back-off, the last state, the EndpointSlice.',
    width: 960,
    height: 1300,
  },
  traffic: {
    kind: 'figure',
    title: 'Requests through a Service, live',
    chapter: 'networking',
    anchor: 'figure-networking-traffic-live',
    summary:
      'A client sends one request a second through the Service web to its three pods: scale, delete a pod, roll out, stop a node or the control plane, and watch the answers per pod beside the iptables rules kube-proxy writes on node-1.',
    width: 960,
    height: 1300,
  },
  'write-watch': {
    kind: 'widget',
    title: 'One write, its revision and its watchers',
    chapter: 'control-plane',
    anchor: 'figure-control-plane-write-watch',
    summary:
      'A small widget: scale web and follow each write to its store revision and the watchers told of it, then the writes those notifications set off.',
    width: 720,
    height: 520,
  },
  conflict: {
    kind: 'widget',
    title: 'Two writers, one resourceVersion',
    chapter: 'control-plane',
    anchor: 'figure-control-plane-conflict',
    summary:
      'A small widget: alice and bob replace web from the same resourceVersion; the API server stores one write, answers the other 409 Conflict, and the retry on a fresh read keeps both changes.',
    width: 720,
    height: 520,
  },
  'watch-resume': {
    kind: 'widget',
    title: 'A watch resumes from its resourceVersion',
    chapter: 'control-plane',
    anchor: 'figure-control-plane-watch-resume',
    summary:
      'A small widget: cut node-1 off from the API server, scale web so a pod lands on node-1 unseen, reconnect; its kubelet watches again from the last resourceVersion it saw and gets exactly the change it missed.',
    width: 720,
    height: 520,
  },
  'replace-pod': {
    kind: 'widget',
    title: 'A deleted pod is replaced',
    chapter: 'reconcile-loop',
    anchor: 'figure-reconcile-loop-replace-pod',
    summary:
      'A small widget: delete one of web’s three pods and watch the ReplicaSet controller count the gap and create a pod under a new name.',
    width: 720,
    height: 520,
  },
  'cascade-delete': {
    kind: 'widget',
    title: 'Owners and the garbage collector',
    chapter: 'reconcile-loop',
    anchor: 'figure-reconcile-loop-cascade-delete',
    summary:
      'A small widget: delete the Deployment web and watch the garbage collector follow ownerReferences down, deleting its ReplicaSet and then its pods.',
    width: 720,
    height: 520,
  },
  'level-triggered': {
    kind: 'widget',
    title: 'State, not events',
    chapter: 'reconcile-loop',
    anchor: 'figure-reconcile-loop-level-triggered',
    summary:
      'A small widget: stop kube-controller-manager, delete two of web’s pods, start it again; its informers list only what exists, and the ReplicaSet controller replaces both pods in one sync without replaying a single event.',
    width: 720,
    height: 520,
  },
  'max-surge': {
    kind: 'widget',
    title: 'maxSurge and maxUnavailable, resolved',
    chapter: 'rolling-updates',
    anchor: 'figure-rolling-updates-max-surge',
    summary:
      'A small widget: pick replicas, maxSurge and maxUnavailable, see the controller resolve them and the first step they allow, then a real rollout on them.',
    width: 720,
    height: 520,
  },
  'rollout-undo': {
    kind: 'widget',
    title: 'kubectl rollout undo',
    chapter: 'rolling-updates',
    anchor: 'figure-rolling-updates-undo',
    summary:
      'A small widget: undo web’s rollout to nginx:1.28 and watch the controller scale the old ReplicaSet back up under the next revision number, and the new one down, within the same limits.',
    width: 720,
    height: 520,
  },
  'new-replicaset': {
    kind: 'widget',
    title: 'A new template, a new ReplicaSet',
    chapter: 'rolling-updates',
    anchor: 'figure-rolling-updates-new-replicaset',
    summary:
      'A small widget: set web’s image to nginx:1.28 and watch the Deployment controller hash the new template, create a ReplicaSet under the next revision, move the replicas across, and keep the old one at 0.',
    width: 720,
    height: 520,
  },
  heartbeats: {
    kind: 'widget',
    title: 'Two proofs of life',
    chapter: 'node-failure',
    anchor: 'figure-node-failure-heartbeats',
    summary:
      'A small widget: three kubelets renew their Leases every 10 s and send their node status only on a change; power node-2 off and watch its Lease age while the others keep renewing.',
    width: 720,
    height: 520,
  },
  'force-delete': {
    kind: 'widget',
    title: 'Deleted from the API, still running',
    chapter: 'node-failure',
    anchor: 'figure-node-failure-force-delete',
    summary:
      'A small widget: node-2 is cut off the network and its two pods hang Terminating; force-delete one and watch the object vanish from the API server at once while node-2 still runs its container, until it reconnects.',
    width: 720,
    height: 520,
  },
  'node-lease': {
    kind: 'widget',
    title: 'A Lease ages past the grace period',
    chapter: 'node-failure',
    anchor: 'figure-node-failure-lease',
    summary:
      'A small widget: cut node-2’s power and watch its Lease’s renewTime age past the 50 s grace period, then the node-lifecycle controller set Ready to Unknown and add the unreachable taints.',
    width: 720,
    height: 520,
  },
  'toleration-countdown': {
    kind: 'widget',
    title: 'Tolerated for 300 seconds',
    chapter: 'node-failure',
    anchor: 'figure-node-failure-toleration',
    summary:
      'A small widget: cut node-2’s power and watch each of its pods’ 300 s toleration of the unreachable taint run down in the taint-eviction controller, then the deletion and the replacements on node-1 and node-3.',
    width: 720,
    height: 520,
  },
  'frozen-endpoints': {
    kind: 'widget',
    title: 'Answered while the control plane is down',
    chapter: 'control-plane-outage',
    anchor: 'figure-control-plane-outage-frozen-endpoints',
    summary:
      'A small widget: stop the control plane while a client on node-1 calls the Service web, and see its requests answered by the rules kube-proxy wrote before the outage, beside the EndpointSlice nothing can change.',
    width: 720,
    height: 520,
  },
  'kubelet-alone': {
    kind: 'widget',
    title: 'The kubelet works alone',
    chapter: 'control-plane-outage',
    anchor: 'figure-control-plane-outage-kubelet-alone',
    summary:
      'A small widget: stop the control plane and crash a container on node-1; its kubelet restarts it on its own, with its back-off, while every status write is refused, and reports the restarts once the API server is back.',
    width: 720,
    height: 520,
  },
  'filter-score': {
    kind: 'widget',
    title: 'One pod, filtered and scored',
    chapter: 'scheduler',
    anchor: 'figure-scheduler-filter-score-live',
    summary:
      'A small widget: the scheduler chapter’s worked example run by the scheduler itself, each node’s filter verdict and plugin scores; cordon node-3 and watch the replacement pod scheduled without it.',
    width: 720,
    height: 520,
  },
  'pending-pod': {
    kind: 'widget',
    title: 'A pod that fits nowhere',
    chapter: 'scheduler',
    anchor: 'figure-scheduler-pending-pod-live',
    summary:
      'A small widget: a pod that requests more CPU than any node has free stays Pending with the scheduler’s FailedScheduling message; delete another pod to make room and watch the scheduler retry it unasked.',
    width: 720,
    height: 520,
  },
  'one-at-a-time': {
    kind: 'widget',
    title: 'One pod at a time',
    chapter: 'scheduler',
    anchor: 'figure-scheduler-one-at-a-time',
    summary:
      'A small widget: web’s pods wait in kube-scheduler’s queue and are placed one at a time, each scheduling cycle scoring the nodes from a cache that already counts the pod before it; scale web up and watch the new pods spread the same way.',
    width: 720,
    height: 520,
  },
  'ready-endpoints': {
    kind: 'widget',
    title: 'A pod stops being ready',
    chapter: 'networking',
    anchor: 'figure-networking-ready-endpoints',
    summary:
      'A small widget: make one of web’s pods fail its readiness probe and watch its endpoint turn not ready and not serving, kube-proxy drop it from its rules, and a passing probe bring it back.',
    width: 720,
    height: 520,
  },
  'proxy-pick': {
    kind: 'widget',
    title: 'How kube-proxy picks a pod',
    chapter: 'networking',
    anchor: 'figure-networking-proxy-pick',
    summary:
      'A small widget: pick web’s replica count and read the probabilities kube-proxy writes into each rule of the Service’s chain, and the share of connections each endpoint gets.',
    width: 720,
    height: 520,
  },
  'service-address': {
    kind: 'widget',
    title: 'A Service is an address',
    chapter: 'networking',
    anchor: 'figure-networking-service-address',
    summary:
      'A small widget: the Service web’s ClusterIP, the pods its EndpointSlice lists and where client’s connection to the address goes; delete a pod and watch its replacement take a new IP behind the same ClusterIP.',
    width: 720,
    height: 520,
  },
  'restart-leases': {
    kind: 'widget',
    title: 'A control plane comes back',
    chapter: 'control-plane-outage',
    anchor: 'figure-control-plane-outage-restart-leases',
    summary:
      'A small widget: ten minutes into an outage, start the control plane again and watch the new scheduler take its Lease at once, the new controller manager wait 15 seconds for its own, and every node stay Ready.',
    width: 720,
    height: 520,
  },
  'dns-lookup': {
    kind: 'widget',
    title: 'A name becomes a ClusterIP',
    chapter: 'networking',
    anchor: 'figure-networking-dns-lookup',
    summary:
      'A small widget: the client pod’s DNS lookup of web through kube-dns and CoreDNS, and a connection to the answer, as the Service web is deleted and made again with a new ClusterIP.',
    width: 720,
    height: 520,
  },
  'chain-stops': {
    kind: 'widget',
    title: 'Where the chain stops',
    chapter: 'troubleshooting',
    anchor: 'figure-troubleshooting-chain-stops',
    summary:
      'A small widget: the twelve steps from kubectl apply to traffic for one pod, each marked from the cluster; mistype the image or stop the scheduler and see the step where the chain stops and what kubectl get pods shows.',
    width: 720,
    height: 520,
  },
  'image-backoff': {
    kind: 'widget',
    title: 'An image that does not exist',
    chapter: 'troubleshooting',
    anchor: 'figure-troubleshooting-image-backoff',
    summary:
      'A small widget: upgrade web to a tag the registry lacks, follow each failed pull and the kubelet’s doubling back-off on a timeline, then fix the tag and watch a new pod start.',
    width: 720,
    height: 520,
  },
  'crash-loop': {
    kind: 'widget',
    title: 'A container that keeps crashing',
    chapter: 'troubleshooting',
    anchor: 'figure-troubleshooting-crash-loop',
    summary:
      'A small widget: make one of web’s containers exit after each start and watch RESTARTS climb while the kubelet’s wait doubles; fix it and see the kubelet notice only when the wait ends.',
    width: 720,
    height: 520,
  },
};

const rows = Object.entries(FIGURE_ROWS) as [FigureId, FigureRow][];

/** Every embed: each figure's, then the terminal variants. */
export const EMBED_FIGURES: readonly EmbedFigure[] = [
  ...rows.map(([id, r]): EmbedFigure => ({
    id,
    kind: r.kind,
    title: r.title,
    chapter: r.chapter,
    anchor: r.anchor,
    summary: r.summary,
    width: r.width,
    height: r.height,
  })),
  ...rows.flatMap(([figure, r]): EmbedFigure[] =>
    r.terminal
      ? [
          {
            id: 'terminal',
            kind: r.kind,
            figure,
            title: r.terminal.title,
            chapter: r.chapter,
            anchor: r.anchor,
            summary: r.terminal.summary,
            width: r.width,
            height: r.terminal.height,
          },
        ]
      : [],
  ),
];

/** The inline widgets' embeds, one page each from one route (pages/embed/[figure]/index.astro). */
export const WIDGET_EMBEDS = EMBED_FIGURES.filter(
  (f): f is EmbedFigure & { id: WidgetId } => f.kind === 'widget' && f.id !== 'terminal',
);

/** An embed by its id: a typo is a type error. */
export function embedFigure(id: EmbedId): EmbedFigure {
  const f = EMBED_FIGURES.find((e) => e.id === id);
  if (!f) throw new Error(`no embed "${id}"`);
  return f;
}

/** The iframe a host page pastes in: sandboxed to scripts and popups for the link back to the chapter (no same-origin, no storage, no top navigation). */
export function embedSnippet(f: EmbedFigure, origin: string, basePath: string): string {
  const src = `${origin}${basePath}/embed/${f.id}/`;
  return `<iframe src="${src}" title="${escapeAttr(`${f.title} (Desired State)`)}" width="${f.width}" height="${f.height}" sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" loading="lazy"></iframe>`;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
