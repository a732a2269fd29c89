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
      const serve = createFigureServer(FIGURES);
      serve({ id: 1, instance: 'x', op: 'open', figure: id, story });
      const here = serve({ id: 2, instance: 'x', op: 'seek', step: story.end });
      const made = await serve.link({ id: 3, instance: 'x', op: 'permalink' });
      const link = made.ok && made.view?.link;
      expect(link && (link.ok ? 'ok' : link.error)).toBe('ok');
      const r = await createFigureServer(FIGURES).restore({
        id: 4,
        instance: 'y',
        op: 'open',
        figure: id,
        story,
        link: link && link.ok ? link.value : '',
      });
      expect(r.ok && r.view?.notice).toMatch(/^Opened from a link at step [\d,]+ of [\d,]+: /);
      expect(r.ok && r.view?.step).toBe(here.ok && here.view?.step);
      expect(r.ok && r.view?.frame).toEqual(here.ok && here.view?.frame);
    }, 60_000);
  }
});
