// Where a figure's machine runs: in the page's worker, beside the figure's cluster, so xstate (which
// the core already carries) costs the page's main thread nothing and a playback tick never waits on
// it. A session is one figure instance: its machine, with `connect` and `core` wired to the figure
// server, and every change of its snapshot sent to the page as an update.
import { createActor, type Actor } from 'xstate';
import type { FigureServer } from '../sim/index.ts';
import type { CoreRequest, FigureView, SessionMessage, SessionUpdate } from '../sim/figures/protocol.ts';
import { figureMachine, type FigureEvent } from './figure-machine.ts';

/** "live paused at-beat" from the machine's state value. */
export function stateString(value: Record<string, unknown>): string {
  const leaf = (v: unknown): string =>
    typeof v === 'string' ? v : v && typeof v === 'object' ? (Object.keys(v)[0] ?? '') : '';
  const kebab = (s: string): string => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return [leaf(value.source), leaf(value.playback), kebab(leaf(value.story))].join(' ');
}

/** One figure instance in the worker: its machine, the last event seen, and how its updates go out. */
interface Session {
  actor: Actor<typeof figureMachine>;
  seq: number;
  handling: boolean;
  /** Posts the session's update, unless a reader's event still waits for the figure server's answer (see ask). */
  post: () => void;
}

/** Runs figure sessions over a figure server (createFigureServer in the worker); posts updates through `post`. */
export function createSessions(
  serverOf: (instance: string) => FigureServer,
  post: (u: SessionUpdate) => void,
): (m: SessionMessage) => void {
  const sessions = new Map<string, Session>();

  function open(m: Extract<SessionMessage, { type: 'open' }>): void {
    sessions.get(m.instance)?.actor.stop();
    const session: Session = {
      actor: null as unknown as Actor<typeof figureMachine>,
      seq: 0,
      handling: false,
      post: () => {},
    };
    /** The figure server's answers a reader's event still waits for: its one update goes out with the last. */
    let owed = 0;
    const server = serverOf(m.instance);
    const ask = (req: CoreRequest | { op: 'open' }): void => {
      const terminal = req.op === 'terminal' || req.op === 'complete';
      // A reader's event that moves the figure (a step, a seek, a demo) is answered by one update, with
      // the new view; a terminal line (it may run for seconds, in slices) or a link (its encoder may
      // still be loading) is acknowledged at once, and its answer posted when it comes.
      const waits = session.handling && !terminal && req.op !== 'link';
      if (waits) owed++;
      // Answers are delivered after the current transition, as a worker's would be.
      answer(server, req, m)
        .then(
          (event) => {
            if (session.actor.getSnapshot().status === 'active') session.actor.send(event);
          },
          (e: unknown) => {
            if (session.actor.getSnapshot().status === 'active')
              session.actor.send({ type: 'FAILED', error: e instanceof Error ? e.message : String(e) });
          },
        )
        .finally(() => {
          if (waits && !--owed) update();
        });
    };
    const machine = figureMachine.provide({
      actions: {
        connect: () => ask({ op: 'open' }),
        core: (_, req: CoreRequest) => ask(req),
      },
    });
    session.actor = createActor(machine, { input: { view: m.view } });
    const update = (): void => {
      const s = session.actor.getSnapshot();
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
    };
    session.post = () => {
      if (!owed) update();
    };
    // Changes the machine makes on its own (a playback tick, the core's answer) are posted as they
    // happen; a reader's event is answered once, changed or not: at once, or with the figure
    // server's answer when it asked for one (see ask).
    session.actor.subscribe(() => {
      if (!session.handling) session.post();
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
      s.handling = true;
      try {
        s.actor.send(m.event);
      } finally {
        s.handling = false;
      }
      // The ack, unless the event asked the figure server: then the answer's update is the one (ask).
      s.post();
    }
  };
}

/** Asks the figure server what a core request names; its answer comes back as the machine's event. */
async function answer(
  server: FigureServer,
  req: CoreRequest | { op: 'open' },
  m: Extract<SessionMessage, { type: 'open' }>,
): Promise<FigureEvent> {
  const view = (v: FigureView): FigureEvent => ({ type: 'VIEW', view: v });
  switch (req.op) {
    case 'open':
      return {
        type: 'LOADED',
        view: await (typeof m.link === 'string'
          ? server.restore(m.figure, m.story, m.link)
          : server.open(m.figure, m.story)),
      };
    case 'link':
      return { type: 'LINK', link: await server.link() };
    case 'complete':
      return { type: 'COMPLETED', completion: await server.complete(req.line) };
    case 'terminal':
      return view(await server.terminal(req.line, req.stdin));
    case 'seek':
      return view(await server.seek(req.step));
    case 'advance':
      return view(await server.advance(req.ms));
    case 'demo':
      return view(await server.demo(req.demo));
    case 'action':
      return view(await server.action(req.action));
    default:
      return view(await server[req.op]());
  }
}
