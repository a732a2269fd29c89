// Every figure's last moment as a link: made by the figure server, opened by it again on a fresh
// server, it stands at the same step in the same frame — the scheduler's sized nodes, the hub's
// request with unknown credentials and node-failure's ~40,000-event story included.
import { describe, expect, it } from 'vitest';
import { FIGURE_IDS, FIGURES } from '../testing/figures.ts';
import { compileFigure } from './compile.ts';
import { createFigureServer } from './serve.ts';

describe("a link to each figure's last moment", () => {
  for (const id of FIGURE_IDS) {
    it(`${id}: reopens at the same step and frame`, async () => {
      const { story } = compileFigure(FIGURES[id]);
      const serve = createFigureServer(FIGURES)('x');
      await serve.open(id, story);
      const here = await serve.seek(story.end);
      const link = await serve.link();
      expect(link.ok ? 'ok' : link.error).toBe('ok');
      const r = await createFigureServer(FIGURES)('y').restore(id, story, link.ok ? link.value : '');
      expect(r.notice).toMatch(/^Opened from a link at step [\d,]+ of [\d,]+: /);
      expect(r.step).toBe(here.step);
      expect(r.frame).toEqual(here.frame);
    }, 60_000);
  }
});
