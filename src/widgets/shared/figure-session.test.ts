import { describe, expect, it, vi } from 'vitest';
import { compileFigure, createFigureServer, loadFigure } from '../../sim/index.ts';
import { dwellMs } from '../../machines/figure-machine.ts';
import { createSessions } from './figure-session.ts';
import type { ReaderEvent, SessionUpdate } from '../../sim/figures/protocol.ts';

const compiled = compileFigure(await loadFigure('rollout'));
const clusterDef = await loadFigure('cluster');
const cluster = compileFigure(clusterDef);
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

describe('posts per reader event (one reader event, one post)', () => {
  /** Opens the rollout figure in a session and returns how to send an event and count what it posts until all is answered. */
  async function session(): Promise<{
    posts: (event: ReaderEvent, answered?: (u: SessionUpdate) => boolean) => Promise<SessionUpdate[]>;
  }> {
    const updates: SessionUpdate[] = [];
    const handle = createSessions(createFigureServer({ rollout: await loadFigure('rollout') }), (u) => updates.push(u));
    handle(open);
    await settle();
    let seq = 0;
    return {
      posts: async (event, answered = () => true) => {
        const before = updates.length;
        handle({ instance: 'fig-1', type: 'event', seq: ++seq, event });
        // A link's encoder and kubectl are chunks loaded on first use: wait for the answer, then until nothing more comes.
        for (let i = 0; i < 500 && !updates.slice(before).some(answered); i++)
          await new Promise((r) => setTimeout(r, 20));
        for (let quiet = 0; quiet < 5;) {
          const n = updates.length;
          await new Promise((r) => setTimeout(r, 20));
          quiet = updates.length === n ? quiet + 1 : 0;
        }
        return updates.slice(before);
      },
    };
  }

  it('posts exactly one update, with the new view, for each event that moves the figure', async () => {
    const { posts } = await session();
    const demo = compiled.first.demos.find((d) => d.enabled)!.id;
    for (const event of [
      { type: 'STEP' },
      { type: 'SEEK', step: 5 },
      { type: 'BACK' },
      { type: 'NEXT' },
      { type: 'DEMO', demo },
      { type: 'ADVANCE' },
      { type: 'RESET' },
    ] as const satisfies readonly ReaderEvent[]) {
      const sent = await posts(event);
      expect(sent, event.type).toHaveLength(1);
    }
    // One that changes only the reader's choices is answered at once, by one update too.
    expect(await posts({ type: 'SELECT', seq: 3 })).toHaveLength(1);
    expect(await posts({ type: 'CYCLE_SPEED' })).toHaveLength(1);
  });

  it("posts two for a terminal line and a link: the ack at once, then the answer (a line may run for seconds in slices, a link's encoder may still be loading; the page must not wait blind)", async () => {
    const { posts } = await session();
    const line = await posts({ type: 'TERMINAL', line: 'kubectl get deployments' }, (u) => u.terminal.length > 0);
    expect(line).toHaveLength(2);
    expect(line[0].terminal).toHaveLength(0);
    expect(line[1].terminal.at(-1)).toMatchObject({ line: 'kubectl get deployments', exitCode: 0 });
    const link = await posts({ type: 'PERMALINK' }, (u) => u.link !== null);
    expect(link).toHaveLength(2);
    expect(link[0].link).toBeNull();
    expect(link[1].link).toMatchObject({ ok: true });
    const tab = await posts({ type: 'COMPLETE', line: 'kubectl get dep' }, (u) => u.completion !== null);
    expect(tab).toHaveLength(2);
    expect(tab[1].completion).toMatchObject({ completed: 'kubectl get deployments ' });
  });
});

describe('playback in a session', () => {
  it("plays the cluster figure's whole story at the compressed speed, dwelling on every beat, and stops at rest", async () => {
    vi.useFakeTimers();
    try {
      const updates: SessionUpdate[] = [];
      const handle = createSessions(createFigureServer({ cluster: clusterDef }), (u) => updates.push(u));
      handle({ instance: 'p', type: 'open', figure: 'cluster', story: cluster.story, view: cluster.first });
      await vi.advanceTimersByTimeAsync(0);
      expect(updates.at(-1)!.live).toBe(true);
      handle({ instance: 'p', type: 'event', seq: 1, event: { type: 'PLAY' } });
      const beats = new Set<number>();
      let ms = 0;
      for (; ms < 600_000 && updates.at(-1)!.playing; ms += 100) {
        await vi.advanceTimersByTimeAsync(100);
        const v = updates.at(-1)!.view;
        if (v.beat !== null) beats.add(v.step);
      }
      const last = updates.at(-1)!;
      expect(last.playing).toBe(false);
      expect(last.view.rest).toMatch(/^The cluster matches what you asked for/);
      expect(last.view.step).toBe(cluster.story.end);
      // Every beat of the story was on screen while playing, for at least the shortest dwell each.
      expect([...beats]).toEqual(cluster.story.beats.map((b) => b.step));
      expect(ms).toBeGreaterThanOrEqual(cluster.story.beats.length * dwellMs(''));
      // At rest it stays: a further Play does not start, and nothing more is asked.
      const n = updates.length;
      handle({ instance: 'p', type: 'event', seq: 2, event: { type: 'PLAY' } });
      await vi.advanceTimersByTimeAsync(5_000);
      expect(updates.slice(n).every((u) => !u.playing && u.view.step === last.view.step)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
