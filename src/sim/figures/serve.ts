// The figures' request handler, as the worker runs it and as tests call it: one FigureHost per
// figure instance on the page, never shared between instances.
import type { FigureDef } from './demo.ts';
import { FigureHost } from './host.ts';
import type { CompiledStory, FigureView, WorkerReply, WorkerRequest } from './protocol.ts';
import type { Input } from '../world.ts';
import type { Timeline } from '../time-travel.ts';
import type { DecodeResult, Moment, RestoreResult } from '../permalink.ts';

/** Answers a request at once; `link` answers a `permalink` request a little later (its encoder loads on first use). */
export type FigureServer = ((req: WorkerRequest) => WorkerReply) & {
  link(req: WorkerRequest): Promise<WorkerReply>;
  /** Runs a terminal line, or completes one (`terminal` and `complete` requests): kubectl loads on first use. */
  terminal(req: WorkerRequest): Promise<WorkerReply>;
  /** Opens a figure at the moment a link names (or, for a link it cannot use, at its start with a notice). */
  restore(req: WorkerRequest): Promise<WorkerReply>;
};

/**
 * A link to the host's current moment. The encoder is a chunk of its own, loaded when a reader
 * first asks for a link: every figure shares the worker's first chunk, and few readers copy links.
 */
async function linkTo(host: FigureHost, id: number, instance: string): Promise<WorkerReply> {
  const { permalinkOf, decodeMoment, restoreMoment } = await import('../permalink.ts');
  // The figure the link names restores its own node sizes (the scheduler figure's differ).
  let r = permalinkOf(host.timeline, host.def.id, { sizesFromScenario: true });
  // After terminal commands the moment is the reader's own: the link is replayed before it is given.
  const nodeCapacity = host.def.options.nodeCapacity;
  if (r.ok && host.terminalUsed)
    r = checkLink(r.link, host, decodeMoment, (m) => restoreMoment(m, { nodeCapacity, addons: host.def.addons?.() }));
  return {
    id,
    instance,
    ok: true,
    view: { ...host.view(), link: r.ok ? { ok: true, value: r.link } : { ok: false, error: r.error } },
  };
}

// kubectl's chunk, loading or loaded (which code is loaded, not simulation state).
const chunks: { kubectl?: Promise<typeof import('../kubectl/index.ts')> } = {};

/**
 * kubectl, the script runner, the terminal's runner and `yaml`: one chunk of their own, loaded when
 * a reader first opens or focuses a terminal (its first `complete` request), never with the figures.
 */
function loadKubectl(): Promise<typeof import('../kubectl/index.ts')> {
  chunks.kubectl ??= import('../kubectl/index.ts').catch((e: unknown) => {
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

/** A handler that answers requests for many figure instances (one host each), over the figures given (by id). */
export function createFigureServer(
  figures: Record<string, FigureDef>,
  options: FigureServerOptions = {},
): FigureServer {
  const unloaded = options.unloaded ?? {};
  const hosts = new Map<string, FigureHost>();
  // Hosts in the middle of a terminal line run in slices, and the line each one runs (the next waits for it).
  const running = new Map<FigureHost, Promise<unknown>>();
  // Hosts whose reader pressed Ctrl+C during a long line: it stops after its current slice.
  const interrupted = new Set<FigureHost>();
  const serve = (req: WorkerRequest): WorkerReply => {
    const id = typeof req?.id === 'number' ? req.id : -1;
    const instance = typeof req?.instance === 'string' ? req.instance : '';
    try {
      const busy = hosts.get(instance);
      if (req.op === 'interrupt') {
        if (busy && running.has(busy)) interrupted.add(busy);
        return { id, instance, ok: true, view: busy ? busy.view() : null };
      }
      // While its terminal runs a long line, a figure answers with where the run has got to and moves for nothing else.
      if (busy && running.has(busy) && req.op !== 'open' && req.op !== 'close')
        return { id, instance, ok: true, view: busy.view() };
      if (req.op === 'open') {
        const def = Object.hasOwn(figures, req.figure) ? figures[req.figure] : undefined;
        if (!def)
          throw new Error(
            Object.hasOwn(unloaded, req.figure) ? unloaded[req.figure] : `no figure "${String(req.figure)}"`,
          );
        checkStory(req.story, def);
        const host = new FigureHost(def, req.story);
        hosts.set(instance, host);
        return { id, instance, ok: true, view: host.view() };
      }
      const host = hosts.get(instance);
      if (!host) throw new Error(`figure instance "${instance}" is not open`);
      if (req.op === 'permalink') throw new Error('a link is asked for with link()');
      if (req.op === 'terminal' || req.op === 'complete') throw new Error('a terminal line is run with terminal()');
      const view = host.handle(req);
      if (req.op === 'close') hosts.delete(instance);
      return { id, instance, ok: true, view };
    } catch (e) {
      return { id, instance, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  };
  const link = async (req: WorkerRequest): Promise<WorkerReply> => {
    const host = hosts.get(req.instance);
    if (!host)
      return { id: req.id, instance: req.instance, ok: false, error: `figure instance "${req.instance}" is not open` };
    return linkTo(host, req.id, req.instance);
  };
  const terminal = async (req: WorkerRequest): Promise<WorkerReply> => {
    const host = hosts.get(req.instance);
    if (!host)
      return { id: req.id, instance: req.instance, ok: false, error: `figure instance "${req.instance}" is not open` };
    try {
      const k = await loadKubectl();
      if (req.op === 'terminal' && options.pause) {
        const pause = options.pause;
        const before = running.get(host);
        const line = (async () => {
          await before;
          interrupted.delete(host);
          return k.runOnFigureInSlices(
            host,
            req.line,
            req.stdin,
            pause,
            () => hosts.get(req.instance) !== host || interrupted.delete(host),
          );
        })();
        running.set(host, line);
        try {
          const terminal = await line;
          return { id: req.id, instance: req.instance, ok: true, view: { ...host.view(), terminal } };
        } finally {
          if (running.get(host) === line) running.delete(host);
        }
      }
      const answer =
        req.op === 'complete'
          ? { completion: k.completeOnFigure(host, req.line) }
          : req.op === 'terminal'
            ? { terminal: k.runOnFigure(host, req.line, req.stdin) }
            : null;
      if (!answer) throw new Error(`"${req.op}" is not a terminal request`);
      return { id: req.id, instance: req.instance, ok: true, view: { ...host.view(), ...answer } };
    } catch (e) {
      return { id: req.id, instance: req.instance, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  };
  const restore = async (req: WorkerRequest): Promise<WorkerReply> => {
    if (req.op !== 'open' || typeof req.link !== 'string') return serve(req);
    const def = Object.hasOwn(figures, req.figure) ? figures[req.figure] : undefined;
    if (!def) return serve(req);
    // kubectl's part of the API server comes with the decoder: a link may replay terminal commands.
    const { decodeMoment, restoreMoment, installKubectlExtras } = await import('../permalink.ts');
    let notice: string | undefined;
    let moment:
      { inputs: Input[]; step: number; beyond?: { events: number; t: number }; restored: Timeline } | undefined;
    const d = decodeMoment(req.link);
    if (!d.ok) notice = d.error;
    else if (d.moment.scenario !== def.id)
      notice = `This link is for another figure (${String(d.moment.scenario ?? 'none')}).`;
    else if (
      d.moment.seed !== def.options.seed ||
      d.moment.options.nodes !== def.options.nodes ||
      d.moment.options.kubeadm
    )
      notice = 'This link was made for another cluster.';
    else {
      const r = restoreMoment(d.moment, { nodeCapacity: def.options.nodeCapacity, addons: def.addons?.() });
      if (!r.ok) notice = r.error;
      // The checked replay is the figure's own: the host takes its timeline rather than replaying the link again.
      else {
        moment = {
          inputs: d.moment.inputs,
          step: d.moment.step,
          ...(d.moment.beyond ? { beyond: d.moment.beyond } : {}),
          restored: r.timeline,
        };
        notice = r.warning;
      }
    }
    if (moment) {
      const id = req.id;
      try {
        checkStory(req.story, def);
        const host = new FigureHost(def, req.story, { ...moment, install: installKubectlExtras });
        hosts.set(req.instance, host);
        const view = host.view();
        return { id, instance: req.instance, ok: true, view: { ...view, notice: notice ?? openedAt(view) } };
      } catch (e) {
        return { id, instance: req.instance, ok: false, error: e instanceof Error ? e.message : String(e) };
      }
    }
    const reply = serve({ ...req, link: undefined });
    if (!reply.ok) return reply;
    return { ...reply, view: { ...reply.view!, notice: `${notice} The figure starts from the beginning instead.` } };
  };
  return Object.assign(serve, { link, restore, terminal });
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
