// The figures' request handler, as the worker runs it and as tests call it: one FigureHost per
// figure instance on the page, never shared between instances.
import type { FigureDef } from './demo.ts';
import { FigureHost } from './host.ts';
import type {
  CompiledStory,
  FigureLink,
  FigureRequest,
  FigureView,
  TerminalCompletion,
  TerminalOutput,
} from './protocol.ts';
import type { FigureAction } from './actions.ts';
import type { DecodeResult, Moment, RestoreResult } from '../permalink.ts';

/**
 * One figure instance as the worker serves it: a method per operation, each answering with a promise
 * (rejected with what went wrong). Moves answer the view after them; `link`, `terminal`, `complete`
 * and `restore` load their chunks on first use.
 */
export interface FigureServer {
  open(figure: string, story: CompiledStory): Promise<FigureView>;
  /** Opens a figure at the moment a link names (or, for a link it cannot use, at its start with a notice). */
  restore(figure: string, story: CompiledStory, link: string): Promise<FigureView>;
  view(): Promise<FigureView>;
  step(): Promise<FigureView>;
  back(): Promise<FigureView>;
  next(): Promise<FigureView>;
  reset(): Promise<FigureView>;
  rejoin(): Promise<FigureView>;
  seek(step: number): Promise<FigureView>;
  advance(ms: number): Promise<FigureView>;
  demo(demo: string): Promise<FigureView>;
  action(action: FigureAction): Promise<FigureView>;
  link(): Promise<FigureLink>;
  /** Runs a terminal line (kubectl or sim; stdin for `apply -f -`): the view after it, with what it printed. */
  terminal(line: string, stdin?: string): Promise<FigureView & { terminal: TerminalOutput }>;
  /** Tab: what the text before the cursor completes to. */
  complete(line: string): Promise<TerminalCompletion>;
  /** Ctrl+C: a long terminal line running in slices (sim advance, sim settle) stops after its current slice. */
  interrupt(): void;
  close(): void;
}

/**
 * A link to the host's current moment. The encoder is a chunk of its own, loaded when a reader
 * first asks for a link: every figure shares the worker's first chunk, and few readers copy links.
 */
async function linkTo(host: FigureHost): Promise<FigureLink> {
  const { permalinkOf, decodeMoment, restoreMoment } = await import('../permalink.ts');
  // The figure the link names restores its own node sizes (the scheduler figure's differ).
  let r = permalinkOf(host.timeline, host.def.id, { sizesFromScenario: true });
  // After terminal commands the moment is the reader's own: the link is replayed before it is given.
  const nodeCapacity = host.def.options.nodeCapacity;
  if (r.ok && host.terminalUsed)
    r = checkLink(r.link, host, decodeMoment, (m) => restoreMoment(m, { nodeCapacity, addons: host.def.addons?.() }));
  const step = host.timeline.at().step;
  return r.ok ? { ok: true, value: r.link, step } : { ok: false, error: r.error, step };
}

// kubectl's chunk, loading or loaded (which code is loaded, not simulation state).
const chunks: { kubectl?: Promise<typeof import('./terminal.ts')> } = {};

/**
 * The terminal's runner with kubectl, the script runner and `yaml`: one chunk of their own, loaded
 * when a reader first opens or focuses a terminal (its first `complete` request), never with the figures.
 */
function loadKubectl(): Promise<typeof import('./terminal.ts')> {
  chunks.kubectl ??= import('./terminal.ts').catch((e: unknown) => {
    // Said as what failed; the next command tries the chunk again.
    chunks.kubectl = undefined;
    throw new Error(
      `kubectl failed to load (${e instanceof Error ? e.message : String(e)}); reload the page to try again.`,
    );
  });
  return chunks.kubectl;
}

/** How the server may share its thread, and what it knows of figures that did not load. */
interface FigureServerOptions {
  /** Resolves after the thread has answered what is waiting (a macrotask); with it, a long terminal run goes in slices. */
  pause?: () => Promise<void>;
  /** Why a figure's definition is missing, by id: its chunk did not load (the figure then says so). */
  unloaded?: Record<string, string>;
}

/** The figure servers of many figure instances (one host each), over the figures given (by id): `server(instance)`. */
export function createFigureServer(
  figures: Record<string, FigureDef>,
  options: FigureServerOptions = {},
): (instance: string) => FigureServer {
  const unloaded = options.unloaded ?? {};
  const hosts = new Map<string, FigureHost>();
  // Hosts in the middle of a terminal line run in slices, and the line each one runs (the next waits for it).
  const running = new Map<FigureHost, Promise<unknown>>();
  // Hosts whose reader pressed Ctrl+C during a long line: it stops after its current slice.
  const interrupted = new Set<FigureHost>();
  const defOf = (figure: string): FigureDef => {
    const def = Object.hasOwn(figures, figure) ? figures[figure] : undefined;
    if (!def) throw new Error(Object.hasOwn(unloaded, figure) ? unloaded[figure] : `no figure "${String(figure)}"`);
    return def;
  };
  return (instance) => {
    const hostOf = (): FigureHost => {
      const host = hosts.get(instance);
      if (!host) throw new Error(`figure instance "${instance}" is not open`);
      return host;
    };
    const opened = (def: FigureDef, story: CompiledStory, moment?: FigureMoment): FigureView => {
      checkStory(story, def);
      const host = new FigureHost(def, story, moment);
      hosts.set(instance, host);
      return host.view();
    };
    // While its terminal runs a long line, a figure answers with where the run has got to and moves for nothing else.
    const move = async (req: FigureRequest): Promise<FigureView> => {
      const host = hostOf();
      return running.has(host) ? host.view() : host.handle(req);
    };
    const terminal = async (line: string, stdin?: string): Promise<FigureView & { terminal: TerminalOutput }> => {
      const host = hostOf();
      const k = await loadKubectl();
      if (!options.pause) {
        const output = k.runOnFigure(host, line, stdin);
        return { ...host.view(), terminal: output };
      }
      const pause = options.pause;
      const before = running.get(host);
      const run = (async () => {
        await before;
        interrupted.delete(host);
        return k.runOnFigureInSlices(
          host,
          line,
          stdin,
          pause,
          () => hosts.get(instance) !== host || interrupted.delete(host),
        );
      })();
      running.set(host, run);
      try {
        const output = await run;
        return { ...host.view(), terminal: output };
      } finally {
        if (running.get(host) === run) running.delete(host);
      }
    };
    return {
      open: async (figure, story) => opened(defOf(figure), story),
      restore: async (figure, story, link) => {
        const def = defOf(figure);
        const { moment, notice } = await momentOf(def, link);
        if (!moment) {
          const view = opened(def, story);
          return { ...view, notice: `${notice} The figure starts from the beginning instead.` };
        }
        const view = opened(def, story, moment);
        return { ...view, notice: notice ?? openedAt(view) };
      },
      view: () => move({ op: 'view' }),
      step: () => move({ op: 'step' }),
      back: () => move({ op: 'back' }),
      next: () => move({ op: 'next' }),
      reset: () => move({ op: 'reset' }),
      rejoin: () => move({ op: 'rejoin' }),
      seek: (step) => move({ op: 'seek', step }),
      advance: (ms) => move({ op: 'advance', ms }),
      demo: (demo) => move({ op: 'demo', demo }),
      action: (action) => move({ op: 'action', action }),
      link: async () => linkTo(hostOf()),
      terminal,
      complete: async (line) => {
        const host = hostOf();
        return (await loadKubectl()).completeOnFigure(host, line);
      },
      interrupt: () => {
        const busy = hosts.get(instance);
        if (busy && running.has(busy)) interrupted.add(busy);
      },
      close: () => {
        hosts.delete(instance);
      },
    };
  };
}

/** The moment a link names, checked against the figure (its FigureHost then takes the replayed timeline), or why not. */
type FigureMoment = ConstructorParameters<typeof FigureHost>[2];

/**
 * The moment a link to a figure names, replayed and checked, or the notice that says why the figure
 * cannot open there. kubectl's part of the API server comes with the decoder: a link may replay terminal commands.
 */
async function momentOf(def: FigureDef, link: string): Promise<{ moment?: FigureMoment; notice?: string }> {
  const { decodeMoment, restoreMoment, installKubectlExtras } = await import('../permalink.ts');
  const d = decodeMoment(link);
  if (!d.ok) return { notice: d.error };
  if (d.moment.scenario !== def.id)
    return { notice: `This link is for another figure (${String(d.moment.scenario ?? 'none')}).` };
  if (d.moment.seed !== def.options.seed || d.moment.options.nodes !== def.options.nodes || d.moment.options.kubeadm)
    return { notice: 'This link was made for another cluster.' };
  const r = restoreMoment(d.moment, { nodeCapacity: def.options.nodeCapacity, addons: def.addons?.() });
  if (!r.ok) return { notice: r.error };
  // The checked replay is the figure's own: the host takes its timeline rather than replaying the link again.
  return {
    moment: {
      inputs: d.moment.inputs,
      step: d.moment.step,
      ...(d.moment.beyond ? { beyond: d.moment.beyond } : {}),
      restored: r.timeline,
      install: installKubectlExtras,
    },
    notice: r.warning,
  };
}

/** The story came from our own page, but a message is a boundary: check its shape before building on it. */
function checkStory(s: CompiledStory, def: FigureDef): void {
  if (!s || typeof s !== 'object' || s.figure !== def.id || !Array.isArray(s.inputs) || !Array.isArray(s.beats))
    throw new Error(`the story for "${def.id}" is malformed`);
  if (
    s.options?.seed !== def.options.seed ||
    s.options?.nodes !== def.options.nodes ||
    JSON.stringify(s.options?.nodeCapacity ?? []) !== JSON.stringify(def.options.nodeCapacity ?? [])
  )
    throw new Error(`the story for "${def.id}" was compiled for another cluster`);
}

/**
 * A link to a figure's moment after terminal commands, if replaying it arrives at the host's own
 * world; else why it cannot be shared (the clock run on past the last recorded step, a replay that
 * differs), so a link never opens on another frame.
 */
function checkLink(
  link: string,
  host: FigureHost,
  decode: (l: string) => DecodeResult,
  restore: (m: Moment) => RestoreResult,
): { ok: true; link: string } | { ok: false; error: string } {
  const d = decode(link);
  if (!d.ok) return { ok: false, error: `This moment cannot be shared as a link: ${d.error}` };
  if (d.moment.check === undefined)
    return {
      ok: false,
      error:
        'This moment cannot be shared as a link: the clock ran on past a recorded step. Step forward (or back) to a recorded step, then copy the link.',
    };
  const back = restore(d.moment);
  if (!back.ok || back.warning || back.cluster.world.hash() !== host.cluster.world.hash())
    return {
      ok: false,
      error:
        "This moment cannot be shared as a link: replaying the terminal's commands from a link would not arrive at this exact frame.",
    };
  return { ok: true, link };
}

/** Groups a count's digits in threes, as the site writes numbers ("1,776"). */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** What a figure opened from a link says first: where the link put it, and what happens there ("Opened at step 761 of 1,776: …"). */
function openedAt(view: FigureView): string {
  return `Opened from a link at step ${grouped(view.step)} of ${grouped(view.last)}: ${view.beat ?? view.sentence}`;
}
