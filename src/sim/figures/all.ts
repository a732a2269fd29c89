// Every figure the site has, by id, loaded at once: for the build (which compiles each story) and
// for tests. The worker loads them one at a time instead (catalog.ts).
import { clusterFigure } from './cluster-figure.ts';
import { hubFigure } from './hub-figure.ts';
import type { FigureDef } from './demo.ts';

/** Every figure the site has, by id. */
export const FIGURES: Record<string, FigureDef> = { cluster: clusterFigure, hub: hubFigure };
