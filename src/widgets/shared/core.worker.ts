// The page's one Web Worker: the simulation core with one FigureHost per figure instance, and each
// figure's machine beside it (figure-session.ts). The main thread only draws the updates it posts.
// This is the only widget file that imports core values.
import { createFigureServer } from '../../sim/index.ts';
import { createSessions, type SessionMessage } from '../../machines/figure-session.ts';

const handle = createSessions(createFigureServer(), (u) => self.postMessage(u));

self.addEventListener('message', (e: MessageEvent<SessionMessage>) => handle(e.data));
