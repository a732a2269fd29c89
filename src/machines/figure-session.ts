// Where a figure's machine runs: in the page's worker, beside the figure's cluster, so xstate (which
// the core already carries) costs the page's main thread nothing and a playback tick never waits on
// it. A session is one figure instance: its machine, with `connect` and `core` wired to the figure
// server, and every change of its snapshot sent to the page as an update.
import { createActor, type Actor } from 'xstate';
import type { FigureRequest, FigureServer, WorkerRequest } from '../sim/index.ts';
import type { SessionMessage, SessionUpdate } from '../sim/figures/protocol.ts';
import { figureMachine } from './figure-machine.ts';

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
export function createSessions(serve: FigureServer, post: (u: SessionUpdate) => void): (m: SessionMessage) => void {
  const sessions = new Map<string, Session>();
  let id = 0;

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
    const ask = (req: FigureRequest): void => {
      const full = { ...req, id: ++id, instance: m.instance } as WorkerRequest;
      const terminal = req.op === 'terminal' || req.op === 'complete';
      const answer =
        req.op === 'permalink'
          ? serve.link(full)
          : terminal
            ? serve.terminal(full)
            : req.op === 'open' && req.link !== undefined
              ? serve.restore(full)
              : serve(full);
      // A reader's event that moves the figure (a step, a seek, a demo) is answered by one update, with
      // the new view; a terminal line (it may run for seconds, in slices) or a link (its encoder may
      // still be loading) is acknowledged at once, and its answer posted when it comes.
      const waits = session.handling && !terminal && req.op !== 'permalink';
      if (waits) owed++;
      // Answers are delivered after the current transition, as a worker's would be.
      void Promise.resolve(answer).then((r) => {
        if (session.actor.getSnapshot().status !== 'active') return;
        // A link comes on its own (its encoder may still have been loading while the figure moved on).
        if (r.ok && r.view && req.op === 'complete') {
          if (r.view.completion) session.actor.send({ type: 'COMPLETED', completion: r.view.completion });
        } else if (r.ok && r.view && req.op === 'permalink')
          session.actor.send({
            type: 'LINK',
            link: r.view.link
              ? { ...r.view.link, step: r.view.step }
              : { ok: false, error: 'no link was made', step: r.view.step },
          });
        else if (r.ok && r.view)
          session.actor.send(req.op === 'open' ? { type: 'LOADED', view: r.view } : { type: 'VIEW', view: r.view });
        else if (!r.ok) session.actor.send({ type: 'FAILED', error: r.error });
        if (waits && !--owed) update();
      });
    };
    const machine = figureMachine.provide({
      actions: {
        connect: () =>
          ask(
            typeof m.link === 'string'
              ? { op: 'open', figure: m.figure, story: m.story, link: m.link }
              : { op: 'open', figure: m.figure, story: m.story },
          ),
        core: (_, req: FigureRequest) => ask(req),
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
      serve({ id: ++id, instance: m.instance, op: 'close' });
      return;
    }
    if (m.type === 'interrupt') {
      serve({ id: ++id, instance: m.instance, op: 'interrupt' });
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
