import { describe, expect, it } from 'vitest';
import { FIGURE_LOADERS, loadFigure } from './catalog.ts';

describe('FIGURE_LOADERS', () => {
  it('loads under each id the definition of that id', async () => {
    for (const [id, load] of Object.entries(FIGURE_LOADERS)) expect((await load()).id).toBe(id);
  });

  it('answers an id it does not have, an inherited name included, with an error', async () => {
    await expect(loadFigure('nope')).rejects.toThrow('no figure "nope"');
    await expect(loadFigure('toString')).rejects.toThrow('no figure "toString"');
  });
});
