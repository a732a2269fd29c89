// Where a figure's machine runs: in the page's worker, beside the figure's cluster, so xstate (which
// the core already carries) costs the page's main thread nothing and a playback tick never waits on
// it. A session is one figure instance: its machine, whose requests (invoked actors) the figure
// server answers, and every change of its snapshot sent to the page as an update.
import { createActor, fromPromise, type Actor } from 'xstate';
import type { FigureRequest, FigureServer } from '../../sim/index.ts';
import type { FigureView, SessionMessage, SessionUpdate } from '../../sim/figures/protocol.ts';
import { figureMachine, stateString, type TerminalLine } from '../../machines/figure-machine.ts';

/** One figure instance in the worker: its machine, and the last event seq it has taken. */
interface Session {
  actor: Actor<typeof figureMachine>;
  seq: number;
}

/** A move, as the figure server's method of that name makes it. */
function move(server: FigureServer, req: FigureRequest): Promise<FigureView> {
  switch (req.op) {
    case 'seek':
      return server.seek(req.step);
    case 'advance':
      return server.advance(req.ms);
    case 'demo':
      return server.demo(req.demo);
    case 'action':
      return server.action(req.action);
    default:
      return server[req.op]();
  }
}

/** Runs figure sessions over a figure server (createFigureServer in the worker); posts updates through `post`. */
export function createSessions(
  serverOf: (instance: string) => FigureServer,
  post: (u: SessionUpdate) => void,
): (m: SessionMessage) => void {
  const sessions = new Map<string, Session>();

  function open(m: Extract<SessionMessage, { type: 'open' }>): void {
    sessions.get(m.instance)?.actor.stop();
    const server = serverOf(m.instance);
    const machine = figureMachine.provide({
      actors: {
        open: fromPromise(() =>
          typeof m.link === 'string' ? server.restore(m.figure, m.story, m.link) : server.open(m.figure, m.story),
        ),
        move: fromPromise<FigureView, FigureRequest>(({ input }) => move(server, input)),
        link: fromPromise(() => server.link()),
        terminal: fromPromise<FigureView, TerminalLine>(({ input }) => server.terminal(input.line, input.stdin)),
        complete: fromPromise<Awaited<ReturnType<FigureServer['complete']>>, string>(({ input }) =>
          server.complete(input),
        ),
      },
    });
    const session: Session = { actor: createActor(machine, { input: { view: m.view } }), seq: 0 };
    // Every event the machine takes is posted once, changed or not (a reader's event is answered by
    // one update), except while a move waits for the figure server (the `asking` tag): its answer's
    // update is then the one.
    session.actor.subscribe((s) => {
      if (s.hasTag('asking')) return;
      post({
        instance: m.instance,
        seq: session.seq,
        state: stateString(s.value as Record<string, unknown>),
        playing: s.matches({ playback: 'playing' }),
        live: s.matches({ source: 'live' }),
        speed: s.context.speed,
        selected: s.context.selected,
        filter: s.context.filter,
        error: s.context.error,
        link: s.context.link,
        notice: s.context.notice,
        terminal: s.context.terminal,
        completion: s.context.completion,
        view: s.context.view,
      });
    });
    sessions.set(m.instance, session);
    session.actor.start();
    session.actor.send({ type: 'VISIBLE' });
  }

  return (m) => {
    if (!m || typeof m !== 'object' || typeof m.instance !== 'string') return;
    if (m.type === 'open') {
      open(m);
      return;
    }
    const s = sessions.get(m.instance);
    if (!s) return;
    if (m.type === 'close') {
      s.actor.stop();
      sessions.delete(m.instance);
      serverOf(m.instance).close();
      return;
    }
    if (m.type === 'interrupt') {
      serverOf(m.instance).interrupt();
      return;
    }
    if (m.type === 'event' && m.event && typeof m.event.type === 'string') {
      s.seq = Math.max(s.seq, Number(m.seq) || 0);
      s.actor.send(m.event);
    }
  };
}
