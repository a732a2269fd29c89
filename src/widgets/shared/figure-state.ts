// Small pure helpers the figure islands share: the data-state a figure's root carries (what tests
// wait on), and the slider's spoken value.
import type { FigureView } from '../../sim/figures/protocol.ts';

/** "live paused at-beat": the machine's source, playback and story regions, for data-state. */
export function figureStateOf(value: Record<string, unknown>): string {
  const leaf = (v: unknown): string => (typeof v === 'string' ? v : v && typeof v === 'object' ? Object.keys(v)[0] ?? '' : '');
  const kebab = (s: string): string => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return [leaf(value.source), leaf(value.playback), kebab(leaf(value.story))].join(' ');
}

/** The timeline slider's aria-valuetext: "Step 7 of 23: the scheduler binds …". */
export function valueTextOf(v: FigureView): string {
  return `Step ${v.step} of ${v.last}: ${v.sentence}`;
}
