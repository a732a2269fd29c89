// The main thread's side of the figures' protocol: one shared module worker per page, started when
// the first figure asks for it, and a client per figure instance that keeps one request in flight,
// folds a run of seeks into the last one, and drops answers that newer requests have made stale.
import type { FigureRequest, FigureView, WorkerReply, WorkerRequest } from '../../sim/figures/protocol.ts';

/** How requests reach a figure server and answers come back (the worker, or in-thread for tests). */
export interface Transport {
  send(req: WorkerRequest): void;
  listen(onReply: (reply: WorkerReply) => void): void;
}

let shared: Transport | null = null;

/** The page's worker, created on first use and shared by every figure on the page. */
export function workerTransport(): Transport {
  if (shared) return shared;
  const worker = new Worker(new URL('./core.worker.ts', import.meta.url), { type: 'module', name: 'desired-state-core' });
  const listeners: ((r: WorkerReply) => void)[] = [];
  worker.addEventListener('message', (e: MessageEvent<WorkerReply>) => { for (const l of listeners) l(e.data); });
  shared = { send: (req) => worker.postMessage(req), listen: (l) => { listeners.push(l); } };
  return shared;
}

interface Pending {
  req: FigureRequest;
  resolve: (v: FigureView | null) => void;
  reject: (e: Error) => void;
}

let nextInstance = 0;

/** One figure instance's connection to its cluster in the worker. */
export class FigureClient {
  readonly instance: string;
  private readonly transport: Transport;
  private inFlight: { id: number; p: Pending } | null = null;
  private queue: Pending[] = [];
  private seq = 0;
  /** Called with each view that is still current when it arrives (none newer is queued). */
  onview: (v: FigureView) => void = () => {};

  /** A client on the given transport (the page's worker by default). */
  constructor(transport: Transport = workerTransport(), instance = `fig-${++nextInstance}`) {
    this.transport = transport;
    this.instance = instance;
    transport.listen((r) => { if (r.instance === this.instance) this.answer(r); });
  }

  /** Sends a request (after the one in flight); resolves with the view it produced. */
  request(req: FigureRequest): Promise<FigureView | null> {
    return new Promise((resolve, reject) => {
      const last = this.queue[this.queue.length - 1];
      // A seek replaces a seek still waiting: only where the slider stopped matters.
      if (req.op === 'seek' && last?.req.op === 'seek') {
        last.resolve(null);
        this.queue[this.queue.length - 1] = { req, resolve, reject };
      } else this.queue.push({ req, resolve, reject });
      this.pump();
    });
  }

  /** Requests waiting behind the one in flight. */
  get waiting(): number { return this.queue.length; }

  /** A request is in flight. */
  get busy(): boolean { return this.inFlight !== null; }

  private pump(): void {
    if (this.inFlight || !this.queue.length) return;
    const p = this.queue.shift()!;
    const id = ++this.seq;
    this.inFlight = { id, p };
    this.transport.send({ ...p.req, id, instance: this.instance } as WorkerRequest);
  }

  private answer(r: WorkerReply): void {
    const f = this.inFlight;
    if (!f || r.id !== f.id) return; // an answer for a request this client no longer waits on
    this.inFlight = null;
    if (r.ok) {
      if (r.view && this.queue.length === 0) this.onview(r.view);
      f.p.resolve(r.view);
    } else f.p.reject(new Error(r.error));
    this.pump();
  }
}
