// The reader's flow through a figure, and nothing of Kubernetes: where the figure's data comes from
// (the server render, the worker loading, live), whether it plays, where the reader stands in the
// story, and what is selected in the request log. Kubernetes' own states arrive in the views the
// core answers with. The machine coordinates: its actions ask the core (provided by the island).
import { and, assign, not, stateIn } from 'xstate';
import { setup } from './machine-setup.ts';
import type {
  FigureAction,
  FigureRequest,
  FigureView,
  Speed,
  TerminalCompletion,
  TerminalOutput,
} from '../sim/index.ts';
import type { CoreRequest, FigureLink, ReaderEvent } from '../sim/figures/protocol.ts';

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

/** The figure machine; the island provides `core` (send a request to the worker) and `connect` (open the figure). */
export const figureMachine = setup({
  types: {
    context: {} as FigureContext,
    events: {} as FigureEvent,
    input: {} as { view: FigureView },
  },
  actions: {
    /** Send one request to the core; the answer comes back as VIEW (or FAILED). Provided by the island. */
    core: (_, _params: CoreRequest) => {},
    /** Start the worker and open this figure's cluster. Provided by the island. */
    connect: () => {},
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
  }),
  states: {
    source: {
      initial: 'ssr',
      states: {
        ssr: { on: { VISIBLE: { target: 'loading', actions: 'connect' } } },
        loading: {
          on: {
            LOADED: { target: 'live', actions: ['keepView', 'keepNotice'] },
            FAILED: { target: 'failed', actions: 'keepError' },
          },
        },
        live: {
          on: {
            VIEW: { actions: 'keepView' },
            FAILED: { actions: 'keepError' },
            STEP: { actions: [{ type: 'core', params: { op: 'step' } }] },
            BACK: { guard: 'canBack', actions: [{ type: 'core', params: { op: 'back' } }] },
            NEXT: { actions: [{ type: 'core', params: { op: 'next' } }] },
            RESET: { actions: [{ type: 'core', params: { op: 'reset' } }] },
            REJOIN: { actions: [{ type: 'core', params: { op: 'rejoin' } }] },
            SEEK: {
              guard: 'validStep',
              actions: [
                { type: 'core', params: ({ event }) => ({ op: 'seek', step: (event as { step: number }).step }) },
              ],
            },
            ADVANCE: { actions: [{ type: 'core', params: { op: 'advance', ms: ADVANCE_MS } }] },
            DEMO: {
              actions: [
                { type: 'core', params: ({ event }) => ({ op: 'demo', demo: (event as { demo: string }).demo }) },
              ],
            },
            PERMALINK: { actions: [{ type: 'core', params: { op: 'link' } }] },
            LINK: { actions: 'keepLink' },
            ACTION: {
              actions: [
                {
                  type: 'core',
                  params: ({ event }) => ({ op: 'action', action: (event as { action: FigureAction }).action }),
                },
              ],
            },
            TERMINAL: {
              actions: [
                {
                  type: 'core',
                  params: ({ event }) => {
                    const e = event as { line: string; stdin?: string };
                    return e.stdin === undefined
                      ? { op: 'terminal', line: e.line }
                      : { op: 'terminal', line: e.line, stdin: e.stdin };
                  },
                },
              ],
            },
            COMPLETE: {
              actions: [
                { type: 'core', params: ({ event }) => ({ op: 'complete', line: (event as { line: string }).line }) },
              ],
            },
            COMPLETED: { actions: 'keepCompletion' },
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
            fetching: {
              entry: [{ type: 'core', params: ({ context }) => tickRequest(context.speed) }],
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
