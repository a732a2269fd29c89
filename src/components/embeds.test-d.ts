// The registry's two halves and its id type agree (Starlight's icon.test-d.ts pattern: checked by
// `npm run check`, which type-checks every file; nothing here runs). A figure added to one half and
// not the other, or to FigureId alone, fails here or at the table's own annotation.
import { expectTypeOf } from 'vitest';
import type { ChapterFigureId, FIGURE_LOADERS, FigureId, WidgetId } from '../sim/figures/catalog.ts';
import type { CHAPTER_FIGURES, FIGURES } from '../sim/testing/figures.ts';
import type { EmbedId, FIGURE_ROWS } from './embeds.ts';
import { embedFigure } from './embeds.ts';

// The worker's half (the loaders) and the page half (the rows) have exactly the ids FigureId names.
expectTypeOf<keyof typeof FIGURE_LOADERS>().toEqualTypeOf<FigureId>();
expectTypeOf<keyof typeof FIGURE_ROWS>().toEqualTypeOf<FigureId>();
// The tests' fixtures read the same table, and their chapter list is every chapter figure.
expectTypeOf<keyof typeof FIGURES>().toEqualTypeOf<FigureId>();
expectTypeOf<(typeof CHAPTER_FIGURES)[number]>().toEqualTypeOf<ChapterFigureId>();
// A figure is a chapter figure or a widget, never both.
expectTypeOf<ChapterFigureId & WidgetId>().toEqualTypeOf<never>();
// Each figure embeds under its id, and the terminal variant under `terminal`.
expectTypeOf<EmbedId>().toEqualTypeOf<FigureId | 'terminal'>();
expectTypeOf(embedFigure).parameter(0).toEqualTypeOf<EmbedId>();
// @ts-expect-error: an id the registry lacks
expectTypeOf(embedFigure).toBeCallableWith('roll-out');
