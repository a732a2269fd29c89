// The figure server as the tests drive it: a move named by its FigureRequest (the fuzzers'
// vocabulary), and any answer as ok-or-error, so a test can assert a refusal without try/catch.
import type { FigureServer } from '../figures/serve.ts';
import type { FigureRequest, FigureView } from '../figures/protocol.ts';

/** An answer of the figure server, or the message it was refused with. */
type Reply<T> = { ok: true; view: T } | { ok: false; error: string };

/** Waits for an answer and says it as a Reply (a rejection becomes `{ ok: false, error }`). */
export async function reply<T>(answer: Promise<T>): Promise<Reply<T>> {
  try {
    return { ok: true, view: await answer };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Makes the move a FigureRequest names, through the server's method for it. */
export function ask(server: FigureServer, req: FigureRequest): Promise<Reply<FigureView>> {
  switch (req.op) {
    case 'seek':
      return reply(server.seek(req.step));
    case 'advance':
      return reply(server.advance(req.ms));
    case 'demo':
      return reply(server.demo(req.demo));
    case 'action':
      return reply(server.action(req.action));
    default:
      return reply(server[req.op]());
  }
}
