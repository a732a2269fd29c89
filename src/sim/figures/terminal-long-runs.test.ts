// Long runs of simulated time: one line runs at most a day (MAX_LINE_MS), refused in one line
// otherwise, and in a figure's worker a long `sim advance`/`sim settle` runs in slices with pauses
// between them, leaving the same world, recording and output as a run in a piece.
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runScript } from '../kubectl/index.ts';
import { longRun, runOnFigure, runOnFigureInSlices, SLICE_MS } from './terminal.ts';
import { MAX_LINE_MS } from '../kubectl/sim-commands.ts';
import { FIGURES } from '../testing/figures.ts';
import { clusterFigure } from './cluster-figure.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import { createFigureServer } from './serve.ts';
import { reply } from '../testing/figure-server.ts';
import type { FigureView } from './protocol.ts';

const compiled = compileFigure(clusterFigure);
const story = (): FigureHost => new FigureHost(clusterFigure, compiled.story);

describe('a line runs at most a day of simulated time', () => {
  it.each([
    [
      'sim advance 999999h',
      'error: sim advance runs at most 24h of simulated time per line (asked for 999999h); run it again to go further\n',
    ],
    [
      'sim advance 24h1ms',
      'error: sim advance runs at most 24h of simulated time per line (asked for 24h1ms); run it again to go further\n',
    ],
    [
      'sim settle 25h',
      'error: sim settle runs at most 24h of simulated time per line (asked for 25h); run it again to go further\n',
    ],
    [
      `sim advance ${'9'.repeat(400)}h`,
      `error: sim advance runs at most 24h of simulated time per line (asked for ${'9'.repeat(400)}h); run it again to go further\n`,
    ],
  ])('%s is refused at once, in the CLI and in a figure alike', (line, stderr) => {
    const c = createCluster({ seed: 1, nodes: 3 });
    const { steps } = runScript(c, line);
    expect(steps[0]).toMatchObject({ stdout: '', stderr, exitCode: 1 });
    expect(c.now).toBe(0);
    const h = story();
    const at = h.timeline.at();
    expect(runOnFigure(h, line)).toMatchObject({ stdout: '', stderr, exitCode: 1 });
    // Refused before anything ran: the clock and the figure's timeline did not move.
    expect(h.timeline.at()).toEqual(at);
  });

  it('a day is allowed', () => {
    // settle stops once only recurring timers are queued: a fresh cluster is quickly there.
    const c = createCluster({ seed: 1, nodes: 3 });
    expect(runScript(c, 'sim settle 24h').steps[0]).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(MAX_LINE_MS).toBe(24 * 3_600_000);
  });

  it('knows which lines run in slices', () => {
    expect(longRun('sim advance 1h')).toEqual({ kind: 'advance', ms: 3_600_000 });
    expect(longRun('sim settle 30m')).toEqual({ kind: 'settle', ms: 1_800_000 });
    for (const line of [
      'sim advance 5m',
      'sim settle',
      'sim advance 25h',
      ' sim advance 1h',
      'sim advance 1h 2h',
      'kubectl get pods',
      'sim advance "1h',
    ])
      expect(longRun(line), line).toBeUndefined();
  });
});

describe('a long run in slices', () => {
  it.each(['sim advance 30m', 'sim settle 25m'])(
    '%s leaves the same world, recording and output as in one piece',
    async (line) => {
      const whole = story();
      const sliced = story();
      // An image that cannot be pulled keeps a back-off retrying: the cluster never settles.
      for (const h of [whole, sliced])
        for (const l of [
          'sim image nginx:1.27 missing',
          'kubectl create deployment web --image=nginx:1.27 --replicas=3',
        ])
          runOnFigure(h, l);
      const a = runOnFigure(whole, line);
      let pauses = 0;
      const b = await runOnFigureInSlices(sliced, line, undefined, async () => {
        pauses++;
      });
      expect(b).toEqual(a);
      // Three slices each (10, 10 and 10 or 5 minutes), with a pause between two.
      expect(pauses).toBe(2);
      expect(sliced.timeline.at()).toEqual(whole.timeline.at());
      expect(sliced.cluster.world.hash()).toBe(whole.cluster.world.hash());
      expect(sliced.view()).toEqual(whole.view());
    },
    60_000,
  );

  it('lets the worker answer other figures between slices, and holds its own figure still meanwhile', async () => {
    const answered: number[] = [];
    let during: Promise<FigureView> | undefined;
    const pause = async (): Promise<void> => {
      // Another figure's request, and one for the busy figure, arrive while the line runs.
      answered.push((await reply(serve('b').step())).ok ? 1 : 0);
      during ??= serve('a').reset();
    };
    const serve = createFigureServer(FIGURES, { pause });
    await serve('a').open('cluster', compiled.story);
    await serve('b').open('cluster', compiled.story);
    const r = await serve('a').terminal('sim advance 1h');
    expect(r.terminal).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(answered.length).toBe(3_600_000 / SLICE_MS - 1);
    expect(answered.every((x) => x === 1)).toBe(true);
    // The reset asked for mid-run was answered with the run's progress, not carried out.
    expect((await during!).t).toBeGreaterThan(0);
    expect(r.t).toBe(3_600_000);
  }, 60_000);

  it('stops at Ctrl+C after the slice under way, keeping what ran, and says ^C as a shell does', async () => {
    let pauses = 0;
    const serve = createFigureServer(FIGURES, {
      pause: async () => {
        if (++pauses === 3) serve.interrupt();
      },
    })('a');
    await serve.open('cluster', compiled.story);
    const r = await serve.terminal('sim advance 24h');
    expect(pauses).toBe(3);
    expect(r.terminal).toMatchObject({ stdout: '', stderr: '^C\n', exitCode: 130 });
    expect(r.t).toBe(3 * SLICE_MS);
    // The next line runs whole: the interrupt was for the line it stopped.
    const next = await serve.terminal('sim advance 20m');
    expect(next.terminal).toMatchObject({ stderr: '', exitCode: 0 });
    expect(next.t).toBe(3 * SLICE_MS + 20 * 60_000);
    // With nothing running, Ctrl+C changes nothing.
    serve.interrupt();
    expect((await serve.view()).t).toBe(3 * SLICE_MS + 20 * 60_000);
  });

  it('stops when its figure is closed', async () => {
    let pauses = 0;
    const serve = createFigureServer(FIGURES, {
      pause: async () => {
        if (++pauses === 2) serve.close();
      },
    })('a');
    await serve.open('cluster', compiled.story);
    await serve.terminal('sim advance 24h');
    expect(pauses).toBe(2);
  });
});
