// Each figure's definition as a module of its own, loaded in the worker only when a page opens that
// figure: the worker's first chunk then carries the core and the host, and a page pays only for the
// figures it shows. Every id of FIGURES (serve.ts) must be here; loaders.test.ts checks both agree.
import type { FigureDef } from './demo.ts';

/** How the worker loads a figure's definition by id. */
export const FIGURE_LOADERS: Record<string, () => Promise<FigureDef>> = {
  cluster: () => import('./cluster-figure.ts').then((m) => m.clusterFigure),
  'node-failure': () => import('./node-failure-figure.ts').then((m) => m.nodeFailureFigure),
  outage: () => import('./outage-figure.ts').then((m) => m.outageFigure),
  scheduler: () => import('./scheduler-figure.ts').then((m) => m.schedulerFigure),
  rollout: () => import('./rollout-figure.ts').then((m) => m.rolloutFigure),
};
