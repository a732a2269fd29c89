import { describe, expect, it } from 'vitest';
import { compileFigure, createFigureServer, loadFigure } from '../sim/index.ts';
import { createSessions } from './figure-session.ts';
import type { SessionUpdate } from '../sim/figures/protocol.ts';

const compiled = compileFigure(await loadFigure('rollout'));
const open = {
  instance: 'fig-1',
  type: 'open' as const,
  figure: 'rollout',
  story: compiled.story,
  view: compiled.first,
};
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('a figure session whose figure did not load', () => {
  it('ends in the failed state with the reason, not in loading, and stays there whatever the reader presses', async () => {
    const why = "its simulation failed to load (the figure's own code: Failed to fetch dynamically imported module)";
    const updates: SessionUpdate[] = [];
    const handle = createSessions(createFigureServer({}, { unloaded: { rollout: why } }), (u) => updates.push(u));
    handle(open);
    expect(updates.at(-1)!.state).toBe('loading paused between');
    await settle();
    expect(updates.at(-1)).toMatchObject({ state: 'failed paused between', live: false, playing: false, error: why });
    for (const event of [{ type: 'PLAY' }, { type: 'STEP' }, { type: 'SEEK', step: 3 }] as const)
      handle({ instance: 'fig-1', type: 'event', seq: 1, event });
    await settle();
    expect(updates.at(-1)).toMatchObject({ state: 'failed paused between', playing: false, error: why });
  });

  it('still says "no figure" for an id no chunk was ever asked for, and opens a loaded figure as before', async () => {
    const updates: SessionUpdate[] = [];
    const handle = createSessions(createFigureServer({ rollout: await loadFigure('rollout') }), (u) => updates.push(u));
    handle({ ...open, instance: 'a', figure: 'bogus' });
    handle(open);
    await settle();
    expect(updates.filter((u) => u.instance === 'a').at(-1)).toMatchObject({
      state: 'failed paused between',
      error: 'no figure "bogus"',
    });
    expect(updates.filter((u) => u.instance === 'fig-1').at(-1)!.state).toMatch(/^live paused/);
  });
});

describe("a reader's event", () => {
  it('is answered by one update: with the new view when it asked the figure server, at once when it did not', async () => {
    const updates: SessionUpdate[] = [];
    const handle = createSessions(createFigureServer({ rollout: await loadFigure('rollout') }), (u) => updates.push(u));
    handle(open);
    await settle();
    expect(updates.at(-1)!.state).toMatch(/^live paused/);
    const before = updates.length;
    const step = updates.at(-1)!.view.step;
    handle({ instance: 'fig-1', type: 'event', seq: 1, event: { type: 'STEP' } });
    await settle();
    expect(updates.slice(before).map((u) => [u.seq, u.view.step])).toEqual([[1, step + 1]]);
    handle({ instance: 'fig-1', type: 'event', seq: 2, event: { type: 'SPEED', speed: 'fast' } });
    expect(updates.slice(before + 1).map((u) => [u.seq, u.speed])).toEqual([[2, 'fast']]);
  });
});
