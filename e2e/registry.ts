// The figure registry's rows (src/components/embeds.ts, read by scripts/lib/figure-registry.mjs, since
// e2e imports nothing from src/): the specs' lists of figures, widgets and embeds come from here, so a
// new registry row is tested without editing a spec.
import { figureRows } from '../scripts/lib/figure-registry.mjs';

/** Every figure of the registry, in its order: id, kind, title, chapter and anchor. */
export const FIGURE_ROWS = figureRows();

/** The chapters' live figures. */
export const CHAPTER_FIGURE_ROWS = FIGURE_ROWS.filter((r) => r.kind === 'figure');

/** The inline widgets. */
export const WIDGET_ROWS = FIGURE_ROWS.filter((r) => r.kind === 'widget');
