// The figures' protocol without a worker: the same requests and answers, handled on this thread
// (asynchronously, as a worker would answer). Tests use it, and so could a page without workers.
import type { WorkerReply, WorkerRequest } from './protocol.ts';
import { FIGURES } from './all.ts';
import { createFigureServer } from './serve.ts';

/** A transport with the worker's interface that serves requests in this thread. */
export function inThreadTransport(): { send(req: WorkerRequest): void; listen(l: (r: WorkerReply) => void): void } {
  const serve = createFigureServer(FIGURES);
  const listeners: ((r: WorkerReply) => void)[] = [];
  return {
    send: (req) => { const copy = structuredClone(req); queueMicrotask(() => { const r = structuredClone(serve(copy)); for (const l of listeners) l(r); }); },
    listen: (l) => { listeners.push(l); },
  };
}
