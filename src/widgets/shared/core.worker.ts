// The page's one Web Worker: the simulation core, one FigureHost per figure instance. The main
// thread only draws the views it answers with. This is the only widget file that imports core values.
import { createFigureServer, type WorkerRequest } from '../../sim/index.ts';

const serve = createFigureServer();

self.addEventListener('message', (e: MessageEvent<WorkerRequest>) => {
  self.postMessage(serve(e.data));
});
