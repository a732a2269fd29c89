import { describe, expect, it } from 'vitest';
import { FIGURE_LOADERS } from './catalog.ts';
import { FIGURES } from './all.ts';

describe('FIGURE_LOADERS', () => {
  it('loads exactly the figures FIGURES has, each the same definition', async () => {
    expect(Object.keys(FIGURE_LOADERS).sort()).toEqual(Object.keys(FIGURES).sort());
    for (const [id, load] of Object.entries(FIGURE_LOADERS)) expect(await load()).toBe(FIGURES[id]);
  });
});
