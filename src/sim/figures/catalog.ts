// The figures the site has, each loaded only when a page opens it: the worker's shared chunk holds
// the core, and each figure's definition (its demos, beats and texts) is a small chunk of its own.
import type { FigureDef } from './demo.ts';

/** The chapters' live figures (a `<Name>Figure.astro` each). */
export type ChapterFigureId =
  'cluster' | 'hub' | 'scheduler' | 'rollout' | 'node-failure' | 'outage' | 'troubleshooting' | 'traffic';
/** The inline widgets (`src/widgets/<id>/<Name>Widget.svelte`, placed with `components/InlineWidget.astro`). */
export type WidgetId =
  | 'write-watch'
  | 'conflict'
  | 'watch-resume'
  | 'replace-pod'
  | 'cascade-delete'
  | 'level-triggered'
  | 'max-surge'
  | 'rollout-undo'
  | 'new-replicaset'
  | 'force-delete'
  | 'heartbeats'
  | 'node-lease'
  | 'toleration-countdown'
  | 'frozen-endpoints'
  | 'restart-leases'
  | 'kubelet-alone'
  | 'filter-score'
  | 'pending-pod'
  | 'one-at-a-time'
  | 'ready-endpoints'
  | 'proxy-pick'
  | 'dns-lookup'
  | 'service-address'
  | 'image-backoff'
  | 'crash-loop'
  | 'chain-stops';
/**
 * Every figure the site has. The registry is one table in two halves, each keyed by exactly these ids
 * (a missing or extra row is a type error): the loaders below, which the worker reads, and the rows a
 * page shows (title, chapter and anchor, embed size, the terminal variant) in src/components/embeds.ts,
 * which the main thread and the Astro pages read; src/components/embeds.test-d.ts holds them together.
 */
export type FigureId = ChapterFigureId | WidgetId;

/** Figure id → a loader of its definition (the worker's half of the registry: nothing more, its core is at its limit). */
export const FIGURE_LOADERS: { readonly [K in FigureId]: () => Promise<FigureDef> } = {
  cluster: () => import('./cluster-figure.ts').then((m) => m.clusterFigure),
  hub: () => import('./hub-figure.ts').then((m) => m.hubFigure),
  scheduler: () => import('./scheduler-figure.ts').then((m) => m.schedulerFigure),
  rollout: () => import('./rollout-figure.ts').then((m) => m.rolloutFigure),
  'node-failure': () => import('./node-failure-figure.ts').then((m) => m.nodeFailureFigure),
  outage: () => import('./outage-figure.ts').then((m) => m.outageFigure),
  troubleshooting: () => import('./troubleshooting-figure.ts').then((m) => m.troubleshootingFigure),
  traffic: () => import('./traffic-figure.ts').then((m) => m.trafficFigure),
  // The inline widgets: small figures, one mechanism each, placed at the paragraph that explains it.
  'write-watch': () => import('./write-watch-widget.ts').then((m) => m.writeWatchWidget),
  conflict: () => import('./conflict-widget.ts').then((m) => m.conflictWidget),
  'watch-resume': () => import('./watch-resume-widget.ts').then((m) => m.watchResumeWidget),
  'replace-pod': () => import('./replace-pod-widget.ts').then((m) => m.replacePodWidget),
  'cascade-delete': () => import('./cascade-delete-widget.ts').then((m) => m.cascadeDeleteWidget),
  'level-triggered': () => import('./level-triggered-widget.ts').then((m) => m.levelTriggeredWidget),
  'max-surge': () => import('./max-surge-widget.ts').then((m) => m.maxSurgeWidget),
  'rollout-undo': () => import('./rollout-undo-widget.ts').then((m) => m.rolloutUndoWidget),
  'new-replicaset': () => import('./new-replicaset-widget.ts').then((m) => m.newReplicaSetWidget),
  'force-delete': () => import('./force-delete-widget.ts').then((m) => m.forceDeleteWidget),
  heartbeats: () => import('./heartbeats-widget.ts').then((m) => m.heartbeatsWidget),
  'node-lease': () => import('./node-lease-widget.ts').then((m) => m.nodeLeaseWidget),
  'toleration-countdown': () => import('./toleration-countdown-widget.ts').then((m) => m.tolerationCountdownWidget),
  'frozen-endpoints': () => import('./frozen-endpoints-widget.ts').then((m) => m.frozenEndpointsWidget),
  'restart-leases': () => import('./restart-leases-widget.ts').then((m) => m.restartLeasesWidget),
  'kubelet-alone': () => import('./kubelet-alone-widget.ts').then((m) => m.kubeletAloneWidget),
  'filter-score': () => import('./filter-score-widget.ts').then((m) => m.filterScoreWidget),
  'pending-pod': () => import('./pending-pod-widget.ts').then((m) => m.pendingPodWidget),
  'one-at-a-time': () => import('./one-at-a-time-widget.ts').then((m) => m.oneAtATimeWidget),
  'ready-endpoints': () => import('./ready-endpoints-widget.ts').then((m) => m.readyEndpointsWidget),
  'proxy-pick': () => import('./proxy-pick-widget.ts').then((m) => m.proxyPickWidget),
  'dns-lookup': () => import('./dns-lookup-widget.ts').then((m) => m.dnsLookupWidget),
  'service-address': () => import('./service-address-widget.ts').then((m) => m.serviceAddressWidget),
  'image-backoff': () => import('./image-backoff-widget.ts').then((m) => m.imageBackoffWidget),
  'crash-loop': () => import('./crash-loop-widget.ts').then((m) => m.crashLoopWidget),
  'chain-stops': () => import('./chain-stops-widget.ts').then((m) => m.chainStopsWidget),
};

/** Loads a figure's definition, or answers why it cannot (the id comes from a page, so any string). */
export async function loadFigure(id: string): Promise<FigureDef> {
  const load = Object.hasOwn(FIGURE_LOADERS, id) ? FIGURE_LOADERS[id as FigureId] : undefined;
  if (!load) throw new Error(`no figure "${id}"`);
  return load();
}

/** Every figure's definition (the build compiles each story; the benchmarks time each figure). */
export async function loadAllFigures(): Promise<FigureDef[]> {
  return Promise.all(Object.keys(FIGURE_LOADERS).map(loadFigure));
}
