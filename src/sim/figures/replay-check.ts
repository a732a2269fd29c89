// The check every figure's tests make of its compiled story (test-only): a fresh host, following
// the story, reaches each beat in the same world, with the same frame, saying the same words.
import { expect } from 'vitest';
import type { FigureDef } from './demo.ts';
import { FigureHost } from './host.ts';
import type { CompiledFigure } from './protocol.ts';

/** Seeks a fresh host to every compiled beat and asserts the world hash, the frame and the beat text there. */
export function expectStoryReplays(def: FigureDef, compiled: CompiledFigure, withText = true): void {
  const host = new FigureHost(def, compiled.story);
  for (const beat of compiled.story.beats) {
    const v = host.handle({ op: 'seek', step: beat.step })!;
    expect(host.cluster.world.hash()).toBe(beat.hash);
    expect(v.frame).toEqual(beat.frame);
    if (withText) expect(v.beat).toBe(beat.text);
  }
}
