// Every figure the site has, and the request handler over them as the build, the tests and the
// in-thread transport use it (the worker loads figures one by one instead: figures/loaders.ts).
import { clusterFigure } from './cluster-figure.ts';
import { nodeFailureFigure } from './node-failure-figure.ts';
import { outageFigure } from './outage-figure.ts';
import { rolloutFigure } from './rollout-figure.ts';
import { schedulerFigure } from './scheduler-figure.ts';
import type { FigureDef } from './demo.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';
import { serveFigures } from './server.ts';

/** Every figure the site has, by id. */
export const FIGURES: Record<string, FigureDef> = { cluster: clusterFigure, 'node-failure': nodeFailureFigure, outage: outageFigure, scheduler: schedulerFigure, rollout: rolloutFigure };

/** A handler that answers requests for many figure instances (one host each), over every figure or the ones given. */
export function createFigureServer(figures: Record<string, FigureDef> = FIGURES): (req: WorkerRequest) => WorkerReply {
  return serveFigures(figures);
}
