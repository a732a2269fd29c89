// What a figure's island needs of its compiled story, and no more: the page ships it as the island's
// props (inline in the HTML), and a beat's frame is for the build and the tests only (the island
// replays the inputs and draws the worker's views), so dropping the frames keeps a long story's page
// within its HTML budget.
import type { CompiledFigure, Frame } from '../../sim/index.ts';

/** The compiled figure with each beat's frame left out (replaced by null; nothing on the page reads it). */
export function islandProps(compiled: CompiledFigure): CompiledFigure {
  const beats = compiled.story.beats.map((b) => ({ ...b, frame: null as unknown as Frame }));
  return { ...compiled, story: { ...compiled.story, beats } };
}
