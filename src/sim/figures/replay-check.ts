// The check every figure's tests make of its compiled story (test-only): a fresh host, following
// the story, reaches each beat in the same world, with the same frame, saying the same words.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { runs } from '../../test/fc.ts';
import type { FigureRequest, FigureView } from './protocol.ts';
import type { FigureDef } from './demo.ts';
import { FigureHost } from './host.ts';
import type { CompiledFigure } from './protocol.ts';

/** Seeks a fresh host to every compiled beat and asserts the world hash, the frame and the beat text there. */
export function expectStoryReplays(def: FigureDef, compiled: CompiledFigure, withText = true): void {
  const host = new FigureHost(def, compiled.story);
  for (const beat of compiled.story.beats) {
    const v = host.handle({ op: 'seek', step: beat.step });
    expect(host.cluster.world.hash()).toBe(beat.hash);
    expect(v.frame).toEqual(beat.frame);
    if (withText) expect(v.beat).toBe(beat.text);
  }
}

/** Asserts a compiled story is well formed: at least `minBeats` beats, each a sentence, in step order; plain JSON; a "leaves out" note of three points or more. */
export function expectWellFormedStory(compiled: CompiledFigure, minBeats: number): void {
  const b = compiled.story.beats;
  expect(b.length).toBeGreaterThanOrEqual(minBeats);
  for (const x of b) expect(x.text).toMatch(/[.)]$/);
  expect(b.map((x) => x.step)).toEqual([...b.map((x) => x.step)].sort((p, q) => p - q));
  expect(JSON.parse(JSON.stringify(compiled))).toEqual(compiled);
  expect(compiled.leavesOut.length).toBeGreaterThanOrEqual(3);
}

/** Asserts that a step back and a step forward give the identical view (detail included) 3 steps after each of the given beats. */
export function expectStepBackForward(def: FigureDef, compiled: CompiledFigure, beats: readonly number[]): void {
  const host = new FigureHost(def, compiled.story);
  for (const i of beats) {
    host.handle({ op: 'seek', step: compiled.story.beats[i].step + 3 });
    const here = host.view();
    host.handle({ op: 'back' });
    expect(host.handle({ op: 'step' })).toEqual(here);
  }
}

/** Presses the figure's demos, `extra` requests, next, back and a minute's advance in random orders on fresh hosts: only an unavailable demo may throw (saying why, a sentence), and every view stays plain JSON. */
export function expectPressesNeverThrow(def: FigureDef, fresh: () => FigureHost, extra: FigureRequest[] = []): void {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.constantFrom<FigureRequest>(...def.demos.map((d) => ({ op: 'demo' as const, demo: d.id }))),
          fc.constantFrom<FigureRequest>({ op: 'next' }, { op: 'back' }, { op: 'advance', ms: 60_000 }, ...extra),
        ),
        { maxLength: 8 },
      ),
      (reqs) => {
        const host = fresh();
        for (const r of reqs) {
          try {
            host.handle(r);
          } catch (e) {
            expect(r.op).toBe('demo');
            expect(String((e as Error).message)).toMatch(/\.$/);
          }
          expect(() => JSON.stringify(host.view())).not.toThrow();
        }
      },
    ),
    { numRuns: runs(0.03, 6) },
  );
}

/** Presses a demo and steps until it has finished (its beats all reached), calling `each` on every view; throws past `limit` steps. */
export function runDemoSteps(
  host: FigureHost,
  demo: string,
  each?: (v: FigureView) => void,
  limit = 20_000,
): FigureView {
  let v = host.handle({ op: 'demo', demo });
  each?.(v);
  for (let n = 0; v.demoRunning !== null; n++) {
    if (n > limit) throw new Error(`demo ${demo} never finished`);
    v = host.handle({ op: 'step' })!;
    each?.(v);
  }
  return v;
}

/**
 * The stepping checks every inline widget's tests make (test-only): it steps back no further than
 * its opening and Reset returns there, a step back then forward gives identical views (`beats`:
 * which beats to check after), and presses in any order never throw.
 */
export function itStepsAsAWidget(
  def: FigureDef,
  compiled: () => CompiledFigure,
  beats: readonly number[] = [1, 2],
): void {
  const live = () => new FigureHost(def, compiled().story);
  it('steps back no further than its opening, and Reset returns there', () => {
    const host = live();
    const open = compiled().story.opening!;
    expect(host.handle({ op: 'back' }).step).toBe(open);
    expect(host.handle({ op: 'seek', step: 0 }).step).toBe(open);
    host.handle({ op: 'seek', step: compiled().story.end });
    expect(host.handle({ op: 'reset' }).step).toBe(open);
  });
  it('steps back then forward to identical views', () => {
    expectStepBackForward(def, compiled(), beats);
  });
  it('never throws on presses in any order', () => {
    expectPressesNeverThrow(def, live);
  });
}
