// Every figure the site has, by id, loaded once through the registry (figures/catalog.ts): for tests.
// The build and the benchmarks load them with loadAllFigures, the worker one at a time as pages open them.
import { FIGURE_LOADERS, type ChapterFigureId, type FigureId, type WidgetId } from '../figures/catalog.ts';
import type { FigureDef } from '../figures/demo.ts';

/** Every figure's id, in the registry's order. */
export const FIGURE_IDS = Object.keys(FIGURE_LOADERS) as readonly FigureId[];
const ids = FIGURE_IDS;
const defs = await Promise.all(ids.map((id) => FIGURE_LOADERS[id]()));

/** Every figure's definition, by id, in the registry's order. */
export const FIGURES: { readonly [K in FigureId]: FigureDef } = Object.fromEntries(
  ids.map((id, i) => [id, defs[i]]),
) as { [K in FigureId]: FigureDef };

/** The chapters' figures (src/components/embeds.test-d.ts checks that these are all of ChapterFigureId). */
export const CHAPTER_FIGURES = [
  'cluster',
  'hub',
  'scheduler',
  'rollout',
  'node-failure',
  'outage',
  'troubleshooting',
  'traffic',
] as const satisfies readonly ChapterFigureId[];

/** The inline widgets, in the registry's order. */
export const WIDGET_FIGURES: readonly WidgetId[] = ids.filter(
  (id): id is WidgetId => !(CHAPTER_FIGURES as readonly string[]).includes(id),
);
