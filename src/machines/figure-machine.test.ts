import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { compileFigure, loadFigure, type FigureView } from '../sim/index.ts';
import { figureMachine, tickRequest, type FigureEvent } from './figure-machine.ts';
import { stateString } from './figure-session.ts';

const compiled = compileFigure(await loadFigure('cluster'));
const first = compiled.first;
const atBeat: FigureView = { ...first, step: 5, beat: 'a beat.', story: { ...first.story, beatIndex: 0 } };
const between: FigureView = { ...first, step: 6, beat: null, story: { ...first.story, beatIndex: 0 } };
const diverged: FigureView = { ...first, step: 7, beat: null, story: { ...first.story, diverged: true } };
const TICK = 'xstate.after.tick.figure.playback.playing.waiting';

const EVENTS: FigureEvent[] = [
  { type: 'VISIBLE' }, { type: 'LOADED', view: first }, { type: 'FAILED', error: 'x' },
  { type: 'TOGGLE' }, { type: 'HIDDEN' }, { type: 'STEP' }, { type: 'BACK' }, { type: 'NEXT' }, { type: 'RESET' }, { type: 'REJOIN' },
  { type: 'DEMO', demo: 'apply' }, { type: 'SPEED', speed: 'fast' },
  { type: 'VIEW', view: atBeat }, { type: 'VIEW', view: between }, { type: 'VIEW', view: diverged },
  { type: 'PERMALINK' }, { type: 'LINK', link: { ok: true, value: 'a', step: 5 } },
  { type: TICK } as unknown as FigureEvent,
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

describe('the figure machine', () => {
  it('reaches exactly the states the e2e suite walks through with the keyboard', () => {
    const spec = readFileSync('e2e/figure.spec.ts', 'utf8');
    const covered = JSON.parse(/COVERED_STATES = (\[[^\]]*\])/.exec(spec)![1].replace(/'/g, '"')) as string[];
    expect(reachable()).toEqual([...covered].sort());
  });

  it('asks the core for nothing before it is live, and plays only when live', () => {
    const asked: string[] = [];
    const actor = createActor(figureMachine.provide({ actions: { core: (_, r) => { asked.push(r.op); }, connect: () => { asked.push('connect'); } } }), { input: { view: first } }).start();
    actor.send({ type: 'STEP' });
    actor.send({ type: 'TOGGLE' });
    expect(stateString(actor.getSnapshot().value as Record<string, unknown>)).toBe('ssr paused between');
    actor.send({ type: 'VISIBLE' });
    actor.send({ type: 'LOADED', view: first });
    actor.send({ type: 'BACK' });
    actor.send({ type: 'SEEK', step: 99_999 });
    expect(asked).toEqual(['connect']);
    actor.send({ type: 'STEP' });
    actor.send({ type: 'SEEK', step: 3 });
    expect(asked).toEqual(['connect', 'step', 'seek']);
  });

  it('asks for a link, keeps it while the figure stands at that step, and drops it once it moves', () => {
    const asked: string[] = [];
    const actor = createActor(figureMachine.provide({ actions: { core: (_, r) => { asked.push(r.op); }, connect: () => {} } }), { input: { view: first } }).start();
    actor.send({ type: 'VISIBLE' });
    actor.send({ type: 'LOADED', view: atBeat });
    actor.send({ type: 'PERMALINK' });
    expect(asked).toEqual(['permalink']);
    actor.send({ type: 'LINK', link: { ok: true, value: 'aXyz', step: atBeat.step } });
    expect(actor.getSnapshot().context.link).toEqual({ ok: true, value: 'aXyz', step: atBeat.step });
    actor.send({ type: 'VIEW', view: atBeat });
    expect(actor.getSnapshot().context.link?.ok).toBe(true);
    actor.send({ type: 'VIEW', view: between });
    expect(actor.getSnapshot().context.link).toBeNull();
  });

  it('a tick asks for time at the chosen speed, and a beat pauses playback', () => {
    expect(tickRequest('compressed')).toEqual({ op: 'next' });
    expect(tickRequest('real')).toEqual({ op: 'advance', ms: 100 });
    expect(tickRequest('fast')).toEqual({ op: 'advance', ms: 1000 });
    const asked: unknown[] = [];
    const actor = createActor(figureMachine.provide({ actions: { core: (_, r) => { asked.push(r); }, connect: () => {} } }), { input: { view: first } }).start();
    actor.send({ type: 'VISIBLE' });
    actor.send({ type: 'LOADED', view: first });
    actor.send({ type: 'SPEED', speed: 'fast' });
    actor.send({ type: 'PLAY' });
    actor.send({ type: TICK } as unknown as FigureEvent);
    expect(asked).toEqual([{ op: 'advance', ms: 1000 }]);
    actor.send({ type: 'VIEW', view: between });
    expect(actor.getSnapshot().matches({ playback: { playing: 'waiting' } })).toBe(true);
    actor.send({ type: TICK } as unknown as FigureEvent);
    actor.send({ type: 'VIEW', view: atBeat });
    expect(stateString(actor.getSnapshot().value as Record<string, unknown>)).toBe('live paused at-beat');
  });
});
