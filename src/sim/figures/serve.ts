// The figures' request handler, as the worker runs it and as tests and the in-thread transport
// call it: one FigureHost per figure instance on the page, never shared between instances.
import type { FigureDef } from './demo.ts';
import { FigureHost } from './host.ts';
import type { CompiledStory, WorkerReply, WorkerRequest } from './protocol.ts';

/** A handler that answers requests for many figure instances (one host each), over the figures given (by id). */
export function createFigureServer(figures: Record<string, FigureDef>): (req: WorkerRequest) => WorkerReply {
  const hosts = new Map<string, FigureHost>();
  return (req) => {
    const id = typeof req?.id === 'number' ? req.id : -1;
    const instance = typeof req?.instance === 'string' ? req.instance : '';
    try {
      if (req.op === 'open') {
        const def = Object.hasOwn(figures, req.figure) ? figures[req.figure] : undefined;
        if (!def) throw new Error(`no figure "${String(req.figure)}"`);
        checkStory(req.story, def);
        const host = new FigureHost(def, req.story);
        hosts.set(instance, host);
        return { id, instance, ok: true, view: host.view() };
      }
      const host = hosts.get(instance);
      if (!host) throw new Error(`figure instance "${instance}" is not open`);
      const view = host.handle(req);
      if (req.op === 'close') hosts.delete(instance);
      return { id, instance, ok: true, view };
    } catch (e) {
      return { id, instance, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  };
}

/** The story came from our own page, but a message is a boundary: check its shape before building on it. */
function checkStory(s: CompiledStory, def: FigureDef): void {
  if (!s || typeof s !== 'object' || s.figure !== def.id || !Array.isArray(s.inputs) || !Array.isArray(s.beats)) throw new Error(`the story for "${def.id}" is malformed`);
  if (s.options?.seed !== def.options.seed || s.options?.nodes !== def.options.nodes || JSON.stringify(s.options?.nodeCapacity ?? []) !== JSON.stringify(def.options.nodeCapacity ?? [])) throw new Error(`the story for "${def.id}" was compiled for another cluster`);
}
