import type { FigureRowText } from './lib/figure-registry.mjs';

/** The generated files under `root` whose text on disk differs from what the registry's `rows` give; throws when a row's folder or component is missing. */
export function staleFiles(root?: string, rows?: readonly Pick<FigureRowText, 'id' | 'kind'>[]): string[];
