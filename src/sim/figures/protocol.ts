// The one typed boundary between a figure on the page and its cluster in the worker: what a figure
// is (its compiled story), what it sees after each request (FigureView), and the messages both ways
// (the page's SessionMessage and ReaderEvent, the worker's SessionUpdate; inside the worker, the moves
// the figure's machine asks its FigureServer for, FigureRequest). Everything that crosses is plain, JSON-safe data.
import type { Input } from '../world.ts';
import type { Frame, StepRecord } from '../view/types.ts';
import type { FigureAction } from './actions.ts';
import type { FigureClusterOptions, FigureDetail } from './demo.ts';
import type { RanLine } from './echo.ts';

/** A beat of a story: after this step the narration pauses and says `text`. */
interface BeatMark {
  step: number;
  text: string;
}

/** A beat as the build compiled it: where it falls, and the cluster there (for the page without JavaScript and for tests). */
export interface CompiledBeat extends BeatMark {
  t: number;
  /** The world's hash at the beat: the browser's replay must arrive at the same bytes. */
  hash: string;
  /** The cluster at the beat (build time and tests; left out of what the page ships to its island). */
  frame?: Frame;
}

/** A figure's default story, run once at build time (figures/compile.ts). */
export interface CompiledStory {
  figure: string;
  title: string;
  options: FigureClusterOptions;
  /** The inputs after the cluster's construction, as the world recorded them. */
  inputs: Input[];
  beats: CompiledBeat[];
  /** The last step of the story (its last beat). */
  end: number;
  /** The step the figure opens at, resets to and steps back to no further (FigureDef.opening); 0 when unset. */
  opening?: number;
}

/** What a figure's page gets at build time: the story, the first frame's view and the figure's note. */
export interface CompiledFigure {
  id: string;
  title: string;
  story: CompiledStory;
  /** The view at step 0, exactly as the worker will first answer: the server render and hydration use it. */
  first: FigureView;
  /** The "what this leaves out" note, one item per simplification. */
  leavesOut: string[];
}

/** A demo button as the page shows it at this moment. */
export interface DemoButton {
  id: string;
  label: string;
  /** The kubectl or sim line the button amounts to now. */
  command: string;
  enabled: boolean;
  /** Why it is disabled, when it is. */
  why: string | null;
}

/** Where the reader stands relative to the story. */
interface StoryState {
  /** The beats of the story (the page lists them). */
  beats: number;
  /** Index of the last story beat at or before the cursor, or -1. */
  beatIndex: number;
  /** The reader changed the cluster before the story's end: the story no longer applies. */
  diverged: boolean;
  /** The cursor is at or past the story's last beat. */
  ended: boolean;
}

/**
 * Everything a figure draws after a request: the worker's answer. D is the figure's detail type
 * (FigureDef<D>): a figure's widget reads its own view type, `FigureView<RolloutDetail>`; the wire and
 * the core's generic code see plain JSON.
 */
export interface FigureView<D = FigureDetail> {
  figure: string;
  step: number;
  last: number;
  /** Simulated ms at the cursor, and at step 0. */
  t: number;
  t0: number;
  frame: Frame;
  /** The records of the current step (drawn as arrows). */
  records: StepRecord[];
  /** The request log up to the cursor, newest last (the most recent ones only). */
  log: StepRecord[];
  /** The beat's text when the cursor is at a beat (story or demo), else null. */
  beat: string | null;
  /** The sentence for the current step: the beat, else what its first record did. */
  sentence: string;
  /** What "Next event that matters" jumped over to arrive here ("Every component lists what exists: 31 notifications."), else null. */
  skipped: string | null;
  /** At rest (nothing that matters lies ahead; see FigureHost.atRest): the sentence that says so, else null. Play stops here. */
  rest: string | null;
  story: StoryState;
  demos: DemoButton[];
  /** A demo the reader started is still waiting for its next beat. */
  demoRunning: string | null;
  /** The figure's own data (FigureDef.detail), or null. */
  detail: D | null;
  /** What the reader's last demo (or panel action) ran, line by line with kubectl's answer, while the cursor is at or after it. */
  ran?: RanLine[];
  /** Said once, when the figure opened a link: why it starts from the beginning instead, or that it plays differently now. */
  notice?: string;
  /** What a terminal command printed: only in the answer to FigureServer.terminal. */
  terminal?: TerminalOutput;
}

/** One terminal command and what it printed, as `npm run sim` prints the same line (stdout, then stderr). */
export interface TerminalOutput {
  /** Counts the figure's terminal commands (the page shows each once). */
  n: number;
  line: string;
  /** The manifest given on stdin (`kubectl apply -f -`), if any. */
  stdin?: string;
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Characters of a very long output left out of what the page shows. */
  truncated?: number;
}

/** What Tab completes a terminal line to (kubectl/complete.ts). */
export interface TerminalCompletion {
  line: string;
  completed: string;
  candidates: string[];
}

/** Speeds of playback: simulated time at wall-clock pace, ten times it, or jumps to the next event that matters. */
export type Speed = 'real' | 'fast' | 'compressed';

/** A move of a figure's cursor or cluster: FigureHost.handle's vocabulary, one FigureServer method each (serve.ts). */
export type FigureRequest =
  | { op: 'step' | 'back' | 'next' | 'reset' | 'rejoin' | 'view' }
  | { op: 'seek'; step: number }
  | { op: 'advance'; ms: number }
  | { op: 'demo'; demo: string }
  | { op: 'action'; action: FigureAction };

/** A link to a moment, or why this moment cannot be linked to. */
export type FigureLink = { ok: true; value: string; step: number } | { ok: false; error: string; step: number };

/**
 * What the page may tell a figure's machine: the reader's commands and the island's observations
 * (machines/figure-machine.ts adds the core's answers to these for its own FigureEvent).
 */
export type ReaderEvent =
  | { type: 'VISIBLE' }
  | { type: 'HIDDEN' }
  | { type: 'PLAY' }
  | { type: 'PAUSE' }
  | { type: 'TOGGLE' }
  | { type: 'STEP' }
  | { type: 'BACK' }
  | { type: 'NEXT' }
  | { type: 'RESET' }
  | { type: 'REJOIN' }
  | { type: 'SEEK'; step: number }
  /** "Advance 5 minutes": the clock runs on at rest (ADVANCE_MS). */
  | { type: 'ADVANCE' }
  | { type: 'DEMO'; demo: string }
  /** A change the reader makes through a figure's own panel (a pod's requests, a rollout's bounds). */
  | { type: 'ACTION'; action: FigureAction }
  | { type: 'SPEED'; speed: Speed }
  | { type: 'CYCLE_SPEED' }
  /** The reader asks for a link to this moment; the machine's LINK brings it. */
  | { type: 'PERMALINK' }
  /** A line typed into the figure's terminal (kubectl or sim), with a manifest for `apply -f -`. */
  | { type: 'TERMINAL'; line: string; stdin?: string }
  /** Tab in the terminal (and its first focus, which loads kubectl); the machine's COMPLETED brings the answer. */
  | { type: 'COMPLETE'; line: string }
  | { type: 'SELECT'; seq: number | null }
  | { type: 'FILTER'; endpoint: string | null };

/** A message from the page to the worker: open an instance of a figure, send its machine an event, or close it. */
export type SessionMessage =
  | {
      instance: string;
      type: 'open';
      figure: string;
      story: CompiledStory;
      view: FigureView;
      /** A link (from the page's `fig` parameter) to open the figure at. */ link?: string;
    }
  | { instance: string; type: 'event'; seq: number; event: ReaderEvent }
  | { instance: string; type: 'close' }
  /** Ctrl+C in the terminal: not an event for the machine (one is in flight: the long line), straight to the server. */
  | { instance: string; type: 'interrupt' };

/** What the worker sends the page, and the page draws: the machine's regions as one data-state string, its context, and the view. */
export interface SessionUpdate {
  instance: string;
  /** The last event seq this update has taken into account (the page drops updates older than what it sent). */
  seq: number;
  /** "live paused at-beat": source, playback and story, for the root's data-state. */
  state: string;
  playing: boolean;
  live: boolean;
  speed: Speed;
  selected: number | null;
  filter: string | null;
  error: string | null;
  /** The link to the moment the reader asked for, if any (see FigureLink). */
  link: FigureLink | null;
  /** What the figure said about the link it was opened with (it could not use it, or it plays differently now). */
  notice: string | null;
  /** The terminal's latest outputs, oldest first (each has its number; the page shows new ones). */
  terminal: TerminalOutput[];
  /** Tab's latest answer. */
  completion: TerminalCompletion | null;
  view: FigureView;
}
