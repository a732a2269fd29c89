// A widget's picture is a box of fixed size whose content may scroll (on a phone most do): after each
// step the box scrolls, by itself and by as little as it can, to what the step changed, so a reader
// who pressed "Next event" sees the new row rather than the rows that were already there. A chunk of
// its own: WidgetShell loads it the first time its picture overflows, and keeps the leaves' texts
// (elements without child elements, in document order) that followChange compares with.

/** A changed element's extent inside the box's content, in px from the content's top. */
export interface Span { top: number; bottom: number }

/**
 * The scrollTop that brings a step's changes (in document order) into a box of `height` px: all of
 * them when they fit, else as many of the last ones as fit (what a step adds comes last: a new row's
 * every line); undefined when they are in view already, or nothing changed.
 */
export function scrollTopFor(changed: readonly Span[], scrollTop: number, height: number): number | undefined {
  if (!changed.length) return undefined;
  const bottom = Math.max(...changed.map((c) => c.bottom));
  let top = changed[changed.length - 1].top;
  for (let i = changed.length - 1; i >= 0 && Math.max(bottom, changed[i].bottom) - changed[i].top <= height; i--) top = Math.min(top, changed[i].top);
  const end = Math.min(bottom, top + height);
  if (top >= scrollTop && end <= scrollTop + height) return undefined;
  return top < scrollTop ? top : end - height;
}

/** After a step: scroll the box to the leaves whose text is not what `before` held at their place. */
export function followChange(box: HTMLElement, before: readonly (string | null)[]): void {
  const origin = box.getBoundingClientRect().top - box.scrollTop;
  const changed: Span[] = [];
  [...box.querySelectorAll('*')].filter((e) => !e.firstElementChild).forEach((e, i) => {
    if (e.textContent === before[i]) return;
    const r = e.getBoundingClientRect();
    if (r.height) changed.push({ top: r.top - origin, bottom: r.bottom - origin });
  });
  const top = scrollTopFor(changed, box.scrollTop, box.clientHeight);
  if (top === undefined) return;
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  box.scrollTo({ top, behavior: still ? 'auto' : 'smooth' });
}
