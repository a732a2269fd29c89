import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompiledStory, FigureView } from '../../sim/figures/protocol.ts';

/** A Worker that never runs anything: the test fires its events. */
class FakeWorker extends EventTarget {
  static last: FakeWorker | null = null;
  posted: unknown[] = [];
  constructor() {
    super();
    FakeWorker.last = this;
  }
  postMessage(m: unknown): void {
    this.posted.push(m);
  }
}

/** worker-client.ts afresh (its transport is one per page, kept in the module). */
async function fresh(): Promise<typeof import('./worker-client.ts')> {
  vi.resetModules();
  return import('./worker-client.ts');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the page's worker transport", () => {
  it('tells every figure, also one that opens after the failure, that the worker script did not load', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const { workerTransport } = await fresh();
    const early: string[] = [];
    workerTransport().failed!((m) => early.push(m));
    FakeWorker.last!.dispatchEvent(new Event('error', { cancelable: true }));
    expect(early).toEqual(['its simulation failed to load (the browser could not load its worker script)']);
    const late: string[] = [];
    workerTransport().failed!((m) => late.push(m));
    await Promise.resolve();
    expect(late).toEqual(early);
  });

  it('says the simulation stopped, with the error, when the worker threw', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const { workerTransport } = await fresh();
    const heard: string[] = [];
    workerTransport().failed!((m) => heard.push(m));
    FakeWorker.last!.dispatchEvent(
      Object.assign(new Event('error', { cancelable: true }), { message: 'Uncaught TypeError: boom' }),
    );
    expect(heard).toEqual(['its simulation stopped with an error (Uncaught TypeError: boom)']);
  });

  it('fails every figure at once when the browser refuses to make the worker, instead of throwing', async () => {
    vi.stubGlobal(
      'Worker',
      class {
        constructor() {
          throw new Error('Access to the worker was denied');
        }
      },
    );
    const { workerTransport, FigureClient } = await fresh();
    // Only the figure's id reaches the worker that never starts: an empty story and view stand in.
    const compiled = { id: 'rollout', story: {} as CompiledStory, first: {} as FigureView };
    const client = new FigureClient(compiled, workerTransport());
    const heard: string[] = [];
    client.onfail = (m) => heard.push(m);
    await Promise.resolve();
    expect(heard).toEqual([
      'its simulation failed to load (the browser refused to start its worker: Access to the worker was denied)',
    ]);
  });
});
