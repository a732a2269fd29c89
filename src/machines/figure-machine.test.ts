import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createActor, fromPromise } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { compileFigure, loadFigure, type FigureRequest, type FigureView } from '../sim/index.ts';
import { ADVANCE_MS, dwellMs, figureMachine, stateString, tickRequest, type FigureEvent } from './figure-machine.ts';
import type { FigureLink } from '../sim/figures/protocol.ts';

const clusterDef = await loadFigure('cluster');
const compiled = compileFigure(clusterDef);
const first = compiled.first;
const atBeat: FigureView = { ...first, step: 5, beat: 'a beat.', story: { ...first.story, beatIndex: 0 } };
const between: FigureView = { ...first, step: 6, beat: null, story: { ...first.story, beatIndex: 0 } };
const diverged: FigureView = { ...first, step: 7, beat: null, story: { ...first.story, diverged: true } };
const atRest: FigureView = {
  ...first,
  step: 453,
  beat: null,
  rest: 'The cluster matches what you asked for.',
  story: { ...first.story, beatIndex: 15, ended: true },
};
const TICK = 'xstate.after.tick.figure.playback.playing.waiting';
const DWELT = 'xstate.after.dwell.figure.playback.playing.dwelling';

const EVENTS: FigureEvent[] = [
  { type: 'VISIBLE' },
  { type: 'LOADED', view: first },
  { type: 'FAILED', error: 'x' },
  { type: 'TOGGLE' },
  { type: 'HIDDEN' },
  { type: 'STEP' },
  { type: 'BACK' },
  { type: 'NEXT' },
  { type: 'RESET' },
  { type: 'REJOIN' },
  { type: 'DEMO', demo: 'apply' },
  { type: 'SPEED', speed: 'fast' },
  { type: 'VIEW', view: atBeat },
  { type: 'VIEW', view: between },
  { type: 'VIEW', view: diverged },
  { type: 'VIEW', view: atRest },
  { type: 'ADVANCE' },
  { type: 'PERMALINK' },
  { type: 'LINK', link: { ok: true, value: 'a', step: 5 } },
  { type: TICK } as unknown as FigureEvent,
  { type: DWELT } as unknown as FigureEvent,
];

/** Every state of the machine the reader can reach, as its data-state string. */
function reachable(): string[] {
  const paths = getShortestPaths(figureMachine, {
    events: EVENTS,
    input: { view: first },
    serializeState: (s) => JSON.stringify(s.value),
  });
  return [...new Set(paths.map((p) => stateString(p.state.value as Record<string, unknown>)))].sort();
}

/** An answer that never comes: the test sends the machine its answers itself. */
const never = <O>(): Promise<O> => new Promise<O>(() => {});

/** The machine with actors that record what it asks the core ('open', 'link', or the move) and never answer. */
function recording(asked: unknown[]): typeof figureMachine {
  return figureMachine.provide({
    actors: {
      open: fromPromise(() => (asked.push('open'), never<FigureView>())),
      move: fromPromise<FigureView, FigureRequest>(({ input }) => (asked.push(input), never())),
      link: fromPromise(() => (asked.push('link'), never<FigureLink>())),
    },
  });
}

describe('the figure machine', () => {
  it('reaches exactly the states the e2e suite walks through with the keyboard', () => {
    const covered = JSON.parse(readFileSync('e2e/covered-states.json', 'utf8')) as string[];
    expect(reachable()).toEqual([...covered].sort());
  });

  it('asks the core for nothing before it is live, and plays only when live', () => {
    const asked: unknown[] = [];
    const actor = createActor(recording(asked), { input: { view: first } }).start();
    actor.send({ type: 'STEP' });
    actor.send({ type: 'TOGGLE' });
    expect(stateString(actor.getSnapshot().value as Record<string, unknown>)).toBe('ssr paused between');
    actor.send({ type: 'VISIBLE' });
    actor.send({ type: 'LOADED', view: first });
    actor.send({ type: 'BACK' });
    actor.send({ type: 'SEEK', step: 99_999 });
    expect(asked).toEqual(['open']);
    actor.send({ type: 'STEP' });
    actor.send({ type: 'SEEK', step: 3 });
    expect(asked).toEqual(['open', { op: 'step' }, { op: 'seek', step: 3 }]);
    // A move asked while one still asks replaces it (asking is re-entered): each reaches the core.
    actor.send({ type: 'STEP' });
    actor.send({ type: 'PERMALINK' });
    actor.send({ type: 'STEP' });
    expect(asked.slice(3)).toEqual([{ op: 'step' }, 'link', { op: 'step' }]);
    // The earlier step's actor is stopped; the link's, in a region of its own, still asks.
    expect(Object.keys(actor.getSnapshot().children)).toHaveLength(2);
  });

  it('asks for a link, keeps it while the figure stands at that step, and drops it once it moves', () => {
    const asked: unknown[] = [];
    const actor = createActor(recording(asked), { input: { view: first } }).start();
    actor.send({ type: 'VISIBLE' });
    actor.send({ type: 'LOADED', view: atBeat });
    actor.send({ type: 'PERMALINK' });
    expect(asked).toEqual(['open', 'link']);
    actor.send({ type: 'LINK', link: { ok: true, value: 'aXyz', step: atBeat.step } });
    expect(actor.getSnapshot().context.link).toEqual({ ok: true, value: 'aXyz', step: atBeat.step });
    actor.send({ type: 'VIEW', view: atBeat });
    expect(actor.getSnapshot().context.link?.ok).toBe(true);
    actor.send({ type: 'VIEW', view: between });
    expect(actor.getSnapshot().context.link).toBeNull();
  });

  it('a tick asks for time at the chosen speed; Play dwells on a beat, then moves on', () => {
    expect(tickRequest('compressed')).toEqual({ op: 'next' });
    expect(tickRequest('real')).toEqual({ op: 'advance', ms: 100 });
    expect(tickRequest('fast')).toEqual({ op: 'advance', ms: 1000 });
    const asked: unknown[] = [];
    const actor = createActor(recording(asked), { input: { view: first } }).start();
    actor.send({ type: 'VISIBLE' });
    actor.send({ type: 'LOADED', view: first });
    asked.length = 0;
    actor.send({ type: 'SPEED', speed: 'fast' });
    actor.send({ type: 'PLAY' });
    actor.send({ type: TICK } as unknown as FigureEvent);
    expect(asked).toEqual([{ op: 'advance', ms: 1000 }]);
    actor.send({ type: 'VIEW', view: between });
    expect(actor.getSnapshot().matches({ playback: { playing: 'waiting' } })).toBe(true);
    actor.send({ type: TICK } as unknown as FigureEvent);
    actor.send({ type: 'VIEW', view: atBeat });
    expect(stateString(actor.getSnapshot().value as Record<string, unknown>)).toBe('live playing at-beat');
    expect(actor.getSnapshot().matches({ playback: { playing: 'dwelling' } })).toBe(true);
    // The tick does not move a beat on; the end of the dwell does.
    actor.send({ type: TICK } as unknown as FigureEvent);
    expect(asked).toHaveLength(2);
    actor.send({ type: DWELT } as unknown as FigureEvent);
    expect(asked).toEqual([
      { op: 'advance', ms: 1000 },
      { op: 'advance', ms: 1000 },
      { op: 'advance', ms: 1000 },
    ]);
  });

  it('dwells longer on a longer beat, within 2.5 s and 10 s', () => {
    expect(dwellMs('Short.')).toBe(2_500);
    expect(dwellMs(Array(20).fill('word').join(' '))).toBe(5_000);
    expect(dwellMs(Array(200).fill('word').join(' '))).toBe(10_000);
    expect(dwellMs(Array(20).fill('word').join(' '))).toBeGreaterThan(dwellMs(Array(12).fill('word').join(' ')));
  });

  it('Play stops at rest, at every speed, and does not start there; Advance 5 minutes runs the clock on', () => {
    for (const speed of ['real', 'fast', 'compressed'] as const) {
      const asked: unknown[] = [];
      const actor = createActor(recording(asked), { input: { view: first } }).start();
      actor.send({ type: 'VISIBLE' });
      actor.send({ type: 'LOADED', view: between });
      asked.length = 0;
      actor.send({ type: 'SPEED', speed });
      actor.send({ type: 'PLAY' });
      actor.send({ type: TICK } as unknown as FigureEvent);
      expect(asked).toEqual([tickRequest(speed)]);
      actor.send({ type: 'VIEW', view: atRest });
      expect(stateString(actor.getSnapshot().value as Record<string, unknown>)).toBe('live paused between');
      expect(actor.getSnapshot().context.view.rest).not.toBeNull();
      actor.send({ type: 'PLAY' });
      actor.send({ type: 'TOGGLE' });
      expect(actor.getSnapshot().matches({ playback: 'paused' })).toBe(true);
      actor.send({ type: 'ADVANCE' });
      expect(asked).toEqual([tickRequest(speed), { op: 'advance', ms: ADVANCE_MS }]);
      // Moved off rest (the clock ran on to where something happens again), Play plays.
      actor.send({ type: 'VIEW', view: between });
      actor.send({ type: 'PLAY' });
      expect(actor.getSnapshot().matches({ playback: 'playing' })).toBe(true);
    }
    expect(ADVANCE_MS).toBe(5 * 60_000);
  });
});
