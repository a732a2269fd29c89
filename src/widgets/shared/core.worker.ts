// The page's one Web Worker: the simulation core with one FigureHost per figure instance, and each
// figure's machine beside it (figure-session.ts). The main thread only draws the updates it posts.
// This is the only widget file that imports core values. A figure's definition (its demos and
// texts) is a chunk of its own, loaded when the page first opens that figure; that split needs the
// two modules imported directly: through index.ts, FIGURES would pull every figure in statically.
import { FIGURE_LOADERS } from '../../sim/figures/loaders.ts';
import { serveFigures } from '../../sim/figures/server.ts';
import type { FigureDef } from '../../sim/index.ts';
import { createSessions, type SessionMessage } from '../../machines/figure-session.ts';

const defs: Record<string, FigureDef> = {};
const handle = createSessions(serveFigures(defs), (u) => self.postMessage(u));

// Messages are handled one after another, in order, even while a figure's chunk is loading.
let queue: Promise<void> = Promise.resolve();
self.addEventListener('message', (e: MessageEvent<SessionMessage>) => {
  const m = e.data;
  queue = queue.then(async () => {
    if (m?.type === 'open' && !Object.hasOwn(defs, m.figure) && Object.hasOwn(FIGURE_LOADERS, m.figure)) {
      // A chunk that cannot load leaves the figure unknown: the open is answered with that error.
      try { defs[m.figure] = await FIGURE_LOADERS[m.figure](); } catch { /* answered below */ }
    }
    handle(m);
  });
});
