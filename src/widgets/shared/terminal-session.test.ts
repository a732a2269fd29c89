import { describe, expect, it } from 'vitest';
import { compileFigure, createFigureServer, loadFigure } from '../../sim/index.ts';
import { createSessions } from './figure-session.ts';
import type { SessionUpdate } from '../../sim/figures/protocol.ts';

const def = await loadFigure('cluster');
const compiled = compileFigure(def);

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
}

/** A session of the cluster figure opened as `instance` and live: its handler and the updates it posts. */
async function openLive(
  instance: string,
): Promise<{ handle: ReturnType<typeof createSessions>; updates: SessionUpdate[] }> {
  const updates: SessionUpdate[] = [];
  const handle = createSessions(createFigureServer({ cluster: def }), (u) => updates.push(u));
  handle({ instance, type: 'open', figure: 'cluster', story: compiled.story, view: compiled.first });
  await until(() => updates.at(-1)?.live === true);
  return { handle, updates };
}

describe('the terminal through the figure machine', () => {
  it('completes a line, runs a TERMINAL event in the worker and brings its output back', async () => {
    const { handle, updates } = await openLive('i');
    handle({ instance: 'i', type: 'event', seq: 1, event: { type: 'COMPLETE', line: 'kubectl get dep' } });
    await until(() => updates.at(-1)?.completion != null);
    expect(updates.at(-1)!.completion).toMatchObject({ completed: 'kubectl get deployments ' });
    handle({ instance: 'i', type: 'event', seq: 2, event: { type: 'TERMINAL', line: 'kubectl get nodes' } });
    await until(() => (updates.at(-1)?.terminal.length ?? 0) > 0);
    const u = updates.at(-1)!;
    expect(u.terminal[0]).toMatchObject({ n: 1, line: 'kubectl get nodes', exitCode: 0 });
    expect(u.terminal[0].stdout).toMatch(/^NAME\s+STATUS/);
    expect(u.view.step).toBe(1);
    expect('terminal' in u.view).toBe(false);
    // Stepping back undoes the command's step; the output stays in the terminal.
    handle({ instance: 'i', type: 'event', seq: 3, event: { type: 'BACK' } });
    await until(() => updates.at(-1)?.view.step === 0);
    expect(updates.at(-1)!.terminal).toHaveLength(1);
  });

  it('pauses playback for a command', async () => {
    const { handle, updates } = await openLive('p');
    handle({ instance: 'p', type: 'event', seq: 1, event: { type: 'PLAY' } });
    handle({ instance: 'p', type: 'event', seq: 2, event: { type: 'TERMINAL', line: 'sim time' } });
    expect(updates.at(-1)!.playing).toBe(false);
    await until(() => (updates.at(-1)?.terminal.length ?? 0) > 0);
    expect(updates.at(-1)!.terminal[0].stdout).toMatch(/^t=/);
  });

  it("keeps a line's output when the reader moves the figure before it is answered (each kind of request has its own region)", async () => {
    const { handle, updates } = await openLive('m');
    handle({ instance: 'm', type: 'event', seq: 1, event: { type: 'TERMINAL', line: 'kubectl get nodes' } });
    handle({ instance: 'm', type: 'event', seq: 2, event: { type: 'STEP' } });
    await until(() => (updates.at(-1)?.terminal.length ?? 0) > 0);
    expect(updates.at(-1)!.terminal[0]).toMatchObject({ line: 'kubectl get nodes', exitCode: 0 });
    expect(updates.at(-1)!.error).toBeNull();
  });

  it('runs a line sent while another still runs after it, and keeps both outputs', async () => {
    const { handle, updates } = await openLive('q');
    handle({ instance: 'q', type: 'event', seq: 1, event: { type: 'TERMINAL', line: 'kubectl get nodes' } });
    handle({ instance: 'q', type: 'event', seq: 2, event: { type: 'TERMINAL', line: 'sim time' } });
    await until(() => (updates.at(-1)?.terminal.length ?? 0) === 2);
    const [first, second] = updates.at(-1)!.terminal;
    expect(first).toMatchObject({ line: 'kubectl get nodes', exitCode: 0 });
    expect(first.stdout).toMatch(/^NAME\s+STATUS/);
    expect(second).toMatchObject({ line: 'sim time', exitCode: 0 });
    expect(second.stdout).toMatch(/^t=/);
    // Both ran in the world: get is a step of its own, sim time reads the clock and takes none.
    expect(updates.at(-1)!.view.step).toBe(1);
  });
});
