// Small pure helpers the figure islands share.
import type { CompiledFigure, FigureView } from '../../sim/figures/protocol.ts';
import type { SessionUpdate } from '../../sim/figures/protocol.ts';

/** The timeline slider's aria-valuetext: "Step 7 of 23: the scheduler binds …". */
export function valueTextOf(v: FigureView<unknown>): string {
  return `Step ${v.step} of ${v.last}: ${v.sentence}`;
}

/** The sentence a figure that could not start shows in its frame: what failed, and what the reader can do. */
export function couldNotStart(error: string | null): string {
  return `This figure could not start: ${error || 'its simulation did not load'}. Reload the page to try again.`;
}

/** What the page shows before the worker has answered: the server render's state, from the compiled first view. */
export function ssrUpdate(instance: string, view: FigureView): SessionUpdate {
  return {
    instance,
    seq: 0,
    state: 'ssr paused between',
    playing: false,
    live: false,
    speed: 'compressed',
    selected: null,
    filter: null,
    error: null,
    link: null,
    notice: null,
    terminal: [],
    completion: null,
    view,
  };
}

/**
 * What a figure's island is given: the compiled figure without the frame at every beat (those serve
 * the page's text and the tests; the worker replays to them), which keeps the hydration data small.
 */
export function islandFigure(compiled: CompiledFigure): CompiledFigure {
  return {
    ...compiled,
    story: {
      ...compiled.story,
      beats: compiled.story.beats.map(({ step, text, t, hash }) => ({ step, text, t, hash })),
    },
  };
}

/** The link in the page's `fig` parameter meant for this figure ("<figure>.<link>": a dot, which a query keeps as it is), or null. */
export function linkFromSearch(search: string, figure: string): string | null {
  let value: string | null;
  try {
    value = new URLSearchParams(search).get('fig');
  } catch {
    return null;
  }
  if (!value || !value.startsWith(figure + '.')) return null;
  return value.slice(figure.length + 1);
}

/** The page's address with `fig` naming this figure's moment (the fragment stays the reader's section anchor). */
function urlWithLink(href: string, figure: string, link: string): string {
  const u = new URL(href);
  u.searchParams.set('fig', `${figure}.${link}`);
  return u.toString();
}

/**
 * Copies the page's address carrying a figure's link, anchored at the section that holds the figure
 * (so the link lands on it). Says `manual` when the page may not write the clipboard: the reader is
 * then shown the address to copy by hand.
 */
export async function copyFigureLink(
  root: Element | undefined,
  figure: string,
  link: string,
): Promise<{ state: 'copied' | 'manual'; url: string }> {
  const anchor = root?.closest('[id]')?.id;
  const url = urlWithLink(location.href.split('#')[0] + (anchor ? `#${anchor}` : ''), figure, link);
  const clip = navigator.clipboard;
  if (!clip) return { state: 'manual', url };
  return clip.writeText(url).then(
    () => ({ state: 'copied' as const, url }),
    () => ({ state: 'manual' as const, url }),
  );
}

/**
 * What an inline widget's island is given: islandFigure's, and its first view without the request
 * log and the step's records (a widget draws neither; the worker's first answer brings its own).
 */
export function islandWidget(compiled: CompiledFigure): CompiledFigure {
  const c = islandFigure(compiled);
  return { ...c, first: { ...c.first, log: [], records: [] } };
}
