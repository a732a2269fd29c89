// The main thread's side of a figure: one shared module worker per page, started when the first
// figure asks for it, and a client per figure instance that keeps one event in flight, folds a run
// of timeline seeks into the last one, and drops updates that events still queued make stale.
import type { CompiledFigure } from '../../sim/figures/protocol.ts';
import type { ReaderEvent, SessionMessage, SessionUpdate } from '../../sim/figures/protocol.ts';
import { linkFromSearch } from './figure-state.ts';

/** How messages reach the figure sessions and updates come back (the worker, or in-thread for tests). */
export interface Transport {
  post(m: SessionMessage): void;
  listen(onUpdate: (u: SessionUpdate) => void): void;
  /** Called if the worker cannot start or dies (a script that failed to load, an uncaught error). */
  failed?(onFail: (message: string) => void): void;
}

let shared: Transport | null = null;

/** What failed when the page's worker could not start or died, as the figure says it ("its simulation failed to load (…)"). */
export function workerFailure(detail: string): string {
  return `its simulation failed to load (${detail})`;
}

/**
 * The page's worker, created on first use and shared by every figure on the page. A failure is
 * kept: a figure that opens after the worker has failed hears of it too, rather than waiting.
 */
export function workerTransport(): Transport {
  if (shared) return shared;
  const listeners: ((u: SessionUpdate) => void)[] = [];
  const failures: ((message: string) => void)[] = [];
  let failure: string | null = null;
  const fail = (message: string): void => {
    failure ??= message;
    for (const f of failures) f(message);
  };
  let worker: Worker | null = null;
  try {
    worker = new Worker(new URL('./core.worker.ts', import.meta.url), { type: 'module', name: 'desired-state-core' });
    worker.addEventListener('message', (e: MessageEvent<SessionUpdate>) => {
      for (const l of listeners) l(e.data);
    });
    // A script that did not load arrives as a plain Event, with no message of its own; one that threw, with its error's.
    worker.addEventListener('error', (e: Event) => {
      e.preventDefault();
      const thrown = (e as ErrorEvent).message;
      fail(
        thrown
          ? `its simulation stopped with an error (${thrown})`
          : workerFailure('the browser could not load its worker script'),
      );
    });
  } catch (e) {
    // Refused outright (a SecurityError, a CSP that forbids workers): every figure says so.
    failure = workerFailure(`the browser refused to start its worker: ${e instanceof Error ? e.message : String(e)}`);
  }
  shared = {
    post: (m) => worker?.postMessage(m),
    listen: (l) => {
      listeners.push(l);
    },
    failed: (f) => {
      failures.push(f);
      const known = failure;
      if (known !== null) queueMicrotask(() => f(known));
    },
  };
  return shared;
}

let nextInstance = 0;

/** One figure instance's connection to its machine and cluster in the worker. */
export class FigureClient {
  readonly instance: string;
  private readonly transport: Transport;
  private seq = 0;
  private acked = 0;
  private queued: ReaderEvent[] = [];
  /** Called with each update that is still current (no event of the reader's is waiting behind it). */
  onupdate: (u: SessionUpdate) => void = () => {};
  /** Called when the worker cannot run this figure at all. */
  onfail: (message: string) => void = () => {};

  /** Opens the figure in the worker (or the given transport), at the moment `link` names when there is one. */
  constructor(
    compiled: Pick<CompiledFigure, 'id' | 'story' | 'first'>,
    transport: Transport = workerTransport(),
    instance = `fig-${++nextInstance}`,
    link: string | null = null,
  ) {
    this.transport = transport;
    this.instance = instance;
    transport.listen((u) => {
      if (u.instance === this.instance) this.update(u);
    });
    transport.failed?.((m) => this.onfail(m));
    // Props reach an island wrapped for reactivity, which postMessage cannot clone: send plain JSON.
    const plain = JSON.parse(JSON.stringify({ story: compiled.story, view: compiled.first })) as Pick<
      SessionMessage & { type: 'open' },
      'story' | 'view'
    >;
    transport.post({
      instance,
      type: 'open',
      figure: compiled.id,
      story: plain.story,
      view: plain.view,
      ...(link !== null ? { link } : {}),
    });
  }

  /** Sends the reader's event; while one is in flight the next waits, and a waiting seek is replaced by a newer one. */
  send(event: ReaderEvent): void {
    const last = this.queued[this.queued.length - 1];
    if (event.type === 'SEEK' && last?.type === 'SEEK') this.queued[this.queued.length - 1] = event;
    else this.queued.push(event);
    this.pump();
  }

  /** Ctrl+C: stops a long terminal line now, past the events waiting behind it. */
  interrupt(): void {
    this.transport.post({ instance: this.instance, type: 'interrupt' });
  }

  /** Closes the instance (its cluster is dropped in the worker). */
  close(): void {
    this.transport.post({ instance: this.instance, type: 'close' });
  }

  /** Events sent and not yet answered, plus those waiting. */
  get pending(): number {
    return (this.seq > this.acked ? 1 : 0) + this.queued.length;
  }

  private pump(): void {
    if (this.seq > this.acked || !this.queued.length) return;
    const event = this.queued.shift()!;
    this.transport.post({ instance: this.instance, type: 'event', seq: ++this.seq, event });
  }

  private update(u: SessionUpdate): void {
    if (u.seq > this.acked) this.acked = u.seq;
    // An update older than an event still waiting would show a moment the reader has moved past.
    if (this.queued.length === 0 && u.seq >= this.seq) this.onupdate(u);
    this.pump();
  }
}

/**
 * Brings an island live: says it is loading, opens its figure in the page's worker (at the moment the
 * page's `?fig=` link names, if it names this figure; the worker validates it), keeps the island's
 * state as the worker's updates come, says a failure of the worker itself (its machine cannot), and,
 * once the island has been in view, tells it when it leaves the view (it pauses). Only an island that
 * has been seen can leave: the observer's first report may come after a reader has already scrolled
 * to it and pressed Play. Returns the client and the cleanup for `onMount`.
 */
export function goLive(
  root: Element | undefined,
  compiled: CompiledFigure,
  state: { get(): SessionUpdate; set(u: SessionUpdate): void },
  send: (e: ReaderEvent) => void,
): { client: FigureClient; stop: () => void } {
  state.set({ ...state.get(), state: 'loading paused between' });
  const client = new FigureClient(compiled, undefined, undefined, linkFromSearch(location.search, compiled.id));
  client.onupdate = (next) => state.set(next);
  client.onfail = (message) =>
    state.set({ ...state.get(), state: 'failed paused between', live: false, playing: false, error: message });
  let seen = false;
  const io = new IntersectionObserver((entries) => {
    for (const en of entries) {
      if (en.isIntersecting) seen = true;
      else if (seen) send({ type: 'HIDDEN' });
    }
  });
  if (root) io.observe(root);
  return {
    client,
    stop: () => {
      io.disconnect();
      client.close();
    },
  };
}
