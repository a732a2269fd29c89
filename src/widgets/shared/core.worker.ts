// The page's one Web Worker: the simulation core with one FigureHost per figure instance, and each
// figure's machine beside it (figure-session.ts). The main thread only draws the updates it posts.
// This is the only widget file that imports core values. A figure's definition is loaded when a
// page first opens it (FIGURE_LOADERS), so the shared chunk is the core alone.
import { createFigureServer, loadFigure, type FigureDef } from '../../sim/index.ts';
import { createSessions } from './figure-session.ts';
import type { SessionMessage } from '../../sim/figures/protocol.ts';

const figures: Record<string, FigureDef> = {};
/** Why a figure's definition is missing: its chunk did not load (the figure then says so). */
const unloaded: Record<string, string> = {};
// A long terminal run pauses between slices so that the page's other figures are answered meanwhile.
const pause = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
const handle = createSessions(createFigureServer(figures, { pause, unloaded }), (u) => self.postMessage(u));
// Messages wait behind a definition still loading, so they keep their order.
let ready: Promise<unknown> = Promise.resolve();

self.addEventListener('message', (e: MessageEvent<SessionMessage>) => {
  const m = e.data;
  if (m?.type === 'open' && typeof m.figure === 'string' && !Object.hasOwn(figures, m.figure)) {
    ready = ready.then(() =>
      loadFigure(m.figure).then(
        (def) => {
          figures[def.id] = def;
          delete unloaded[m.figure];
        },
        (e: unknown) => {
          unloaded[m.figure] =
            `its simulation failed to load (the figure's own code: ${e instanceof Error ? e.message : String(e)})`;
        },
      ),
    );
  }
  ready = ready.then(() => handle(m));
});
