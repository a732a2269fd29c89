// The figure-facing entry of the simulation core: what the worker, the build, the benchmarks and
// the tests outside src/sim may use. Nothing here changes a cluster without recording an input, and
// nothing pulls kubectl or `yaml` in: those have their own entry, src/sim/kubectl/index.ts, loaded
// lazily by the terminal and the CLI.

// What every figure reads a moment through (its Frame, its step's records, the actions a reader
// makes): imported here so that the bundler puts it in the worker's core chunk once rather than in
// each figure's lazy chunk (every module index.ts imports is in that chunk; without these lines each
// figure's chunk grows by about 2.8 KB gzip).
import './view/frame.ts';
import './view/records.ts';
import './figures/actions.ts';

/** An assembled cluster: create it, replay recorded inputs into it. */
export { Cluster, createCluster, replayCluster } from './cluster.ts';
// kube-proxy, a cluster add-on: nothing here runs or is bundled unless a cluster is given it. No
// value of it is exported statically: what the worker's entry reaches statically lands in its core
// chunk, so the traffic figure (whose chunk imports kube-proxy and net/ itself) would bring it there.
/** The add-ons a script's `# addons:` header names (kube-proxy/addons.ts), loaded when asked for: the CLI's. */
export const loadAddonsFromHeader = (): Promise<typeof import('./kube-proxy/addons.ts').addonsFromHeader> =>
  import('./kube-proxy/addons.ts').then((m) => m.addonsFromHeader);

/** Time travel (step, back, seek, fork over a recorded run). */
export { Timeline } from './time-travel.ts';
// Permalinks (permalink.ts) are reached through a figure's `permalink` request: the worker loads
// their encoder as a chunk of its own the first time a reader asks for a link.

/**
 * The core's statecharts as plain JSON from the machines themselves, with a subject's current state
 * and reason: their types only. The readers (view/statechart.ts, view/pod-statechart.ts) are imported
 * by the figures that draw a chart, so they travel in those figures' chunks: a value exported here
 * would put them in the worker's core chunk (every module index.ts names is in it), ~1.5 KB gzip.
 */
export type { Statechart, ChartState, ChartTransition, StatechartView } from './view/statechart.ts';
/**
 * What the figures carry in their detail, piece by piece; each figure's own view type
 * (`FigureView<RolloutDetail>`, …) is exported beside its definition (figures/<name>-figure.ts).
 */
export type { LeaseClock, PodCountdown } from './figures/node-detail.ts';
export type { PodBackoff, PodTrouble } from './figures/pod-trouble.ts';
export type { EndpointCount } from './figures/traffic-client.ts';

/** Figures: the actions readers make, the host the worker runs, the build-time compiler, the protocol. */
export type { FigureAction, IntOrPercent, TolerationSpec } from './figures/actions.ts';
export { FigureHost } from './figures/host.ts';
export { createFigureServer, type FigureServer } from './figures/serve.ts';
export { loadFigure, loadAllFigures } from './figures/catalog.ts';
export { compileFigure } from './figures/compile.ts';
export type { FigureDef } from './figures/demo.ts';
export type {
  CompiledFigure,
  DemoButton,
  FigureView,
  Speed,
  FigureRequest,
  TerminalOutput,
  TerminalCompletion,
} from './figures/protocol.ts';
export type { RanLine } from './figures/echo.ts';

/** A stable 32-bit hash of text (the benchmarks' world fingerprint). */
export { fnv1a32Chars } from './util/names.ts';
/** The served resources and their group versions (scripts/explain-schema.ts reads explain's schemas for them). */
export { RESOURCES, OTHER_GROUP_VERSIONS } from './api/resources.ts';
export type { PodScheduling, NodeVerdict } from './figures/scheduler-figure.ts';
export type { RolloutPoint, RolloutSeries } from './figures/rollout-series.ts';
