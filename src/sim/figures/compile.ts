// Build time: a figure's default story runs once in Node, through the same host the worker runs,
// into the recorded inputs plus the frame and world hash at each beat. The page ships that data;
// the browser replays the inputs and must arrive at the same hashes (figures.test.ts checks it).
import { frameOf } from '../view/frame.ts';
import type { FigureDef } from './demo.ts';
import { FigureHost } from './host.ts';
import type { CompiledBeat, CompiledFigure, CompiledStory } from './protocol.ts';

/** Steps of "next event that matters" a demo may take to reach its last beat before compiling fails. */
const MAX_MOVES = 5_000;

/** Runs the figure's story and returns what its page needs (story inputs, beats with frames, the first view). */
export function compileFigure(def: FigureDef): CompiledFigure {
  const empty: CompiledStory = {
    figure: def.id,
    title: def.title,
    options: def.options,
    inputs: [],
    beats: [],
    end: 0,
  };
  const host = new FigureHost(def, empty);
  const base = host.cluster.world.state.inputs.length;
  const marks: { step: number; text: string }[] = [];
  const mark = (): void => {
    const v = host.view();
    if (v.beat !== null && !marks.some((m) => m.step === v.step)) marks.push({ step: v.step, text: v.beat });
  };
  for (const id of def.story) {
    host.handle({ op: 'demo', demo: id });
    mark();
    let moves = 0;
    while (host.view().demoRunning !== null) {
      if (++moves > MAX_MOVES) throw new Error(`compile ${def.id}: demo "${id}" did not reach its last beat`);
      host.handle({ op: 'next' });
      mark();
    }
  }
  const inputs = host.cluster.world.state.inputs.slice(base);
  const beats: CompiledBeat[] = marks.map((m) => {
    host.timeline.seek(m.step);
    return {
      step: m.step,
      text: m.text,
      t: host.cluster.now,
      hash: host.cluster.world.hash(),
      frame: frameOf(host.cluster),
    };
  });
  const story: CompiledStory = {
    figure: def.id,
    title: def.title,
    options: def.options,
    inputs,
    beats,
    end: beats.length ? beats[beats.length - 1].step : 0,
  };
  if (def.opening !== undefined) {
    const at = beats[def.opening];
    if (!at)
      throw new Error(`compile ${def.id}: its opening names beat ${def.opening}, and the story has ${beats.length}`);
    story.opening = at.step;
    // The setup before it is never shown (the figure cannot be stepped back into it): its beats go.
    story.beats = beats.filter((b) => b.step >= at.step);
  }
  return { id: def.id, title: def.title, story, first: new FigureHost(def, story).view(), leavesOut: def.leavesOut };
}
