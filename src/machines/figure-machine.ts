// The reader's flow through a figure, and nothing of Kubernetes: where the figure's data comes from
// (the server render, the worker loading, live), whether it plays, where the reader stands in the
// story, and what is selected in the request log. Kubernetes' own states arrive in the views the
// core answers with. The machine coordinates: each request to the core is an invoked promise actor
// (its logic provided by the session, which calls the figure server), whose answer the machine
// raises as the matching event (LOADED, VIEW, LINK, COMPLETED) and whose refusal as FAILED.
import { and, assign, fromPromise, not, raise, stateIn, type ErrorActorEvent } from 'xstate';
import { setup } from './machine-setup.ts';
import type { FigureRequest, FigureView, Speed, TerminalCompletion, TerminalOutput } from '../sim/index.ts';
import type { FigureLink, ReaderEvent } from '../sim/figures/protocol.ts';

/** What the machine keeps: the latest view and the reader's choices. */
interface FigureContext {
  view: FigureView;
  speed: Speed;
  error: string | null;
  /** The request-log entry chosen (its seq), and the component the log is filtered to. */
  selected: number | null;
  filter: string | null;
  /** The link to the moment the reader last asked for (cleared when the figure moves on). */
  link: FigureLink | null;
  /** What the figure said about the link the page opened it with, if anything. */
  notice: string | null;
  /** The terminal's latest outputs (the page shows each new one once, by its number). */
  terminal: TerminalOutput[];
  /** Tab's latest answer. */
  completion: TerminalCompletion | null;
  /** Terminal lines sent and not yet answered, the running one first. */
  lines: TerminalLine[];
}

/** Terminal outputs the context keeps, so an update the page skipped loses none. */
const TERMINAL_KEEP = 8;

/** Events: the reader's commands and the island's observations (protocol.ts: what the page may send), and the core's answers. */
export type FigureEvent =
  | ReaderEvent
  | { type: 'LOADED'; view: FigureView }
  | { type: 'FAILED'; error: string }
  | { type: 'VIEW'; view: FigureView }
  | { type: 'LINK'; link: FigureLink }
  | { type: 'COMPLETED'; completion: TerminalCompletion };

/** The speeds in the order the speed key cycles through them. */
const SPEEDS: readonly Speed[] = ['real', 'fast', 'compressed'];

/** Wall-clock ms between playback ticks, and the simulated ms a tick advances, per speed. */
const TICK: Record<Speed, { every: number; ms: number }> = {
  real: { every: 100, ms: 100 },
  fast: { every: 100, ms: 1_000 },
  compressed: { every: 200, ms: 0 },
};

/** Simulated ms the "Advance 5 minutes" control runs the clock on. */
export const ADVANCE_MS = 5 * 60_000;

/** Wall-clock ms Play dwells on a beat before it moves on: time to read it (¼ s a word), within bounds. */
export function dwellMs(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.min(10_000, Math.max(2_500, words * 250));
}

/** The request a playback tick makes at a speed: time forward, or the next event that matters. */
export function tickRequest(speed: Speed): FigureRequest {
  return speed === 'compressed' ? { op: 'next' } : { op: 'advance', ms: TICK[speed].ms };
}

function viewOf(context: FigureContext, event: FigureEvent): FigureView {
  return 'view' in event ? event.view : context.view;
}

/** "live paused at-beat" from the machine's state value (the root's data-state). */
export function stateString(value: Record<string, unknown>): string {
  const leaf = (v: unknown): string =>
    typeof v === 'string' ? v : v && typeof v === 'object' ? (Object.keys(v)[0] ?? '') : '';
  const kebab = (s: string): string => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return [leaf(value.source), leaf(value.playback), kebab(leaf(value.story))].join(' ');
}

/** The move a reader's command asks the core for (the events the live state's `move` region takes). */
function moveOf(event: FigureEvent): FigureRequest {
  switch (event.type) {
    case 'SEEK':
      return { op: 'seek', step: event.step };
    case 'ADVANCE':
      return { op: 'advance', ms: ADVANCE_MS };
    case 'DEMO':
      return { op: 'demo', demo: event.demo };
    case 'ACTION':
      return { op: 'action', action: event.action };
    case 'BACK':
      return { op: 'back' };
    case 'NEXT':
      return { op: 'next' };
    case 'RESET':
      return { op: 'reset' };
    case 'REJOIN':
      return { op: 'rejoin' };
    default:
      return { op: 'step' };
  }
}

/** A terminal line as the core runs it (stdin for `apply -f -`). */
export interface TerminalLine {
  line: string;
  stdin?: string;
}

/** A refused request raises FAILED: what went wrong, said as text (every invoke's onError). */
const failed = raise<FigureContext, ErrorActorEvent, FigureEvent, undefined>(({ event: { error: e } }) => ({
  type: 'FAILED',
  error: e instanceof Error ? e.message : String(e),
}));

// A request's transition, from its region to the region's `asking`: taken while a request of the
// kind still asks, it exits and re-enters `asking` (and only it: the region is the transition's
// domain), so the later request replaces the earlier one.
const ask = { target: '.asking' } as const;

/** Logic for a request the session did not provide: it never answers (the machine's own tests provide theirs). */
const unprovided = <O, I = undefined>() => fromPromise<O, I>(() => new Promise<O>(() => {}));

/** The figure machine; the session provides its actors' logic (each asks the figure server). */
export const figureMachine = setup({
  types: {
    context: {} as FigureContext,
    events: {} as FigureEvent,
    input: {} as { view: FigureView },
  },
  actors: {
    /** Opens this figure's cluster (at the page's link, if any): LOADED. */
    open: unprovided<FigureView>(),
    /** A move of the cursor or the cluster (a reader's command or a playback tick): VIEW. */
    move: unprovided<FigureView, FigureRequest>(),
    /** A link to the current moment: LINK. */
    link: unprovided<FigureLink>(),
    /** A terminal line: VIEW, with what it printed. */
    terminal: unprovided<FigureView, TerminalLine>(),
    /** Tab: COMPLETED. */
    complete: unprovided<TerminalCompletion, string>(),
  },
  actions: {
    keepView: assign({
      view: ({ event }) => {
        const { terminal: _t, ...view } = ('view' in event ? event.view : undefined)!;
        return view;
      },
      error: null,
      link: ({ event, context }) =>
        'view' in event && context.link && context.link.step === event.view.step ? context.link : null,
      terminal: ({ event, context }) =>
        'view' in event && event.view.terminal
          ? [...context.terminal, event.view.terminal].slice(-TERMINAL_KEEP)
          : context.terminal,
    }),
    queueLine: assign({
      // The event itself: its line and stdin are what the terminal actor takes.
      lines: ({ event, context }) => (event.type === 'TERMINAL' ? [...context.lines, event] : context.lines),
    }),
    dropLine: assign({ lines: ({ context }) => context.lines.slice(1) }),
    keepCompletion: assign({
      completion: ({ event, context }) => (event.type === 'COMPLETED' ? event.completion : context.completion),
    }),
    keepNotice: assign({ notice: ({ event }) => (event.type === 'LOADED' ? (event.view.notice ?? null) : null) }),
    keepLink: assign({ link: ({ event }) => (event.type === 'LINK' ? event.link : null) }),
    keepError: assign({ error: ({ event }) => (event.type === 'FAILED' ? event.error : null) }),
    keepSpeed: assign({
      speed: ({ event, context }) =>
        event.type === 'SPEED'
          ? event.speed
          : event.type === 'CYCLE_SPEED'
            ? SPEEDS[(SPEEDS.indexOf(context.speed) + 1) % SPEEDS.length]
            : context.speed,
    }),
    select: assign({
      selected: ({ event, context }) =>
        event.type === 'SELECT' ? (event.seq === context.selected ? null : event.seq) : context.selected,
    }),
    filter: assign({ filter: ({ event }) => (event.type === 'FILTER' ? event.endpoint : null), selected: null }),
  },
  guards: {
    // Guards of one event are all evaluated before any action runs, so they read the view the event
    // brings (when it brings one), not the one the context still holds.
    isLive: stateIn('#figure.source.live'),
    atBeat: ({ context, event }) => {
      const v = viewOf(context, event);
      return v.beat !== null && !v.story.diverged;
    },
    /** A beat is said here (the story's or a demo's): Play dwells on it. */
    hasBeat: ({ context, event }) => viewOf(context, event).beat !== null,
    /** Nothing that matters lies ahead (the core's FigureView.rest): Play stops, and does not start. */
    atRest: ({ context, event }) => viewOf(context, event).rest !== null,
    diverged: ({ context, event }) => viewOf(context, event).story.diverged,
    canBack: ({ context }) => context.view.step > 0,
    /** A terminal line waits to run. */
    hasLines: ({ context }) => context.lines.length > 0,
    validStep: ({ event, context }) =>
      event.type === 'SEEK' && Number.isInteger(event.step) && event.step >= 0 && event.step <= context.view.last,
  },
  delays: {
    tick: ({ context }) => TICK[context.speed].every,
    dwell: ({ context }) => dwellMs(context.view.beat ?? ''),
  },
}).createMachine({
  id: 'figure',
  type: 'parallel',
  context: ({ input }) => ({
    view: input.view,
    speed: 'compressed',
    error: null,
    selected: null,
    filter: null,
    link: null,
    notice: null,
    terminal: [],
    completion: null,
    lines: [],
  }),
  states: {
    source: {
      initial: 'ssr',
      states: {
        ssr: { on: { VISIBLE: 'loading' } },
        loading: {
          invoke: {
            src: 'open',
            onDone: { actions: raise(({ event }) => ({ type: 'LOADED', view: event.output })) },
            onError: { actions: failed },
          },
          on: {
            LOADED: { target: 'live', actions: ['keepView', 'keepNotice'] },
            FAILED: { target: 'failed', actions: 'keepError' },
          },
        },
        // Each kind of request has a region of its own, so a move never cancels a terminal line, a
        // link or Tab. A move, link or Tab asked while one of its kind still asks re-enters `asking`
        // (see ask): the earlier one's answer is dropped, and the later one's says where the figure
        // stands after both (the figure server answers in order). Terminal lines queue instead: each
        // one's output is what the reader typed it for.
        live: {
          type: 'parallel',
          on: {
            VIEW: { actions: 'keepView' },
            FAILED: { actions: 'keepError' },
            LINK: { actions: 'keepLink' },
            COMPLETED: { actions: 'keepCompletion' },
          },
          states: {
            move: {
              initial: 'idle',
              on: {
                STEP: ask,
                BACK: { guard: 'canBack', ...ask },
                NEXT: ask,
                RESET: ask,
                REJOIN: ask,
                SEEK: { guard: 'validStep', ...ask },
                ADVANCE: ask,
                DEMO: ask,
                ACTION: ask,
              },
              states: {
                idle: {},
                // Tagged: the session posts nothing while the reader's move waits for its answer, so
                // the move is answered by one update, with the new view.
                asking: {
                  tags: 'asking',
                  invoke: {
                    src: 'move',
                    input: ({ event }) => moveOf(event),
                    onDone: { target: 'idle', actions: raise(({ event }) => ({ type: 'VIEW', view: event.output })) },
                    onError: { target: 'idle', actions: failed },
                  },
                },
              },
            },
            // A terminal line (it may run for seconds, in slices), a link (its encoder may still be
            // loading) and Tab are acknowledged at once, and their answers posted when they come.
            // A line sent while another still runs waits its turn (the server runs lines in order), so
            // each line's output reaches the terminal, not only the last one's.
            terminal: {
              initial: 'idle',
              on: { TERMINAL: { actions: 'queueLine' } },
              states: {
                idle: { always: { guard: 'hasLines', target: 'asking' } },
                asking: {
                  invoke: {
                    src: 'terminal',
                    input: ({ context }) => context.lines[0],
                    onDone: {
                      target: 'idle',
                      actions: ['dropLine', raise(({ event }) => ({ type: 'VIEW', view: event.output }))],
                    },
                    onError: { target: 'idle', actions: ['dropLine', failed] },
                  },
                },
              },
            },
            link: {
              initial: 'idle',
              on: { PERMALINK: ask },
              states: {
                idle: {},
                asking: {
                  invoke: {
                    src: 'link',
                    onDone: { target: 'idle', actions: raise(({ event }) => ({ type: 'LINK', link: event.output })) },
                    onError: { target: 'idle', actions: failed },
                  },
                },
              },
            },
            complete: {
              initial: 'idle',
              on: { COMPLETE: ask },
              states: {
                idle: {},
                asking: {
                  invoke: {
                    src: 'complete',
                    input: ({ event }) => (event as { line: string }).line,
                    onDone: {
                      target: 'idle',
                      actions: raise(({ event }) => ({ type: 'COMPLETED', completion: event.output })),
                    },
                    onError: { target: 'idle', actions: failed },
                  },
                },
              },
            },
          },
        },
        failed: {},
      },
    },
    playback: {
      initial: 'paused',
      states: {
        paused: {
          on: {
            PLAY: { guard: and(['isLive', not('atRest')]), target: 'playing' },
            TOGGLE: { guard: and(['isLive', not('atRest')]), target: 'playing' },
          },
        },
        playing: {
          initial: 'waiting',
          on: {
            PAUSE: 'paused',
            TOGGLE: 'paused',
            HIDDEN: 'paused',
            FAILED: 'paused',
            // Any command of the reader's pauses; a demo then stands at its first beat, to be read.
            STEP: 'paused',
            BACK: 'paused',
            NEXT: 'paused',
            RESET: 'paused',
            SEEK: 'paused',
            REJOIN: 'paused',
            DEMO: 'paused',
            ACTION: 'paused',
            TERMINAL: 'paused',
            ADVANCE: 'paused',
          },
          states: {
            waiting: { after: { tick: 'fetching' } },
            // A beat reached while playing stays on screen long enough to be read; housekeeping goes by at the tick.
            dwelling: { after: { dwell: 'fetching' } },
            // A tick's answer comes back before the worker reads its next message (the figure server
            // moves at once), so leaving this state with a tick in flight, which drops its answer, does
            // not happen in practice; if it did, the next answer would bring the figure's view.
            fetching: {
              tags: 'asking',
              invoke: {
                src: 'move',
                input: ({ context }) => tickRequest(context.speed),
                onDone: { actions: raise(({ event }) => ({ type: 'VIEW', view: event.output })) },
                onError: { actions: failed },
              },
              on: {
                VIEW: [
                  // At rest nothing is left to play: Play stops there, at every speed.
                  { guard: 'atRest', target: '#figure.playback.paused', actions: 'keepView' },
                  { guard: 'hasBeat', target: 'dwelling', actions: 'keepView' },
                  { target: 'waiting', actions: 'keepView' },
                ],
              },
            },
          },
        },
      },
    },
    story: {
      initial: 'between',
      states: {
        between: {},
        atBeat: {},
        diverged: {},
      },
      on: {
        LOADED: [
          { guard: 'diverged', target: '.diverged' },
          { guard: 'atBeat', target: '.atBeat' },
          { target: '.between' },
        ],
        VIEW: [
          { guard: and(['isLive', 'diverged']), target: '.diverged' },
          { guard: and(['isLive', 'atBeat']), target: '.atBeat' },
          { guard: 'isLive', target: '.between' },
        ],
      },
    },
  },
  on: {
    SPEED: { actions: 'keepSpeed' },
    CYCLE_SPEED: { actions: 'keepSpeed' },
    SELECT: { actions: 'select' },
    FILTER: { actions: 'filter' },
  },
});
