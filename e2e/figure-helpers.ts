// What the live-figure specs share: driving a figure by keyboard as a reader would.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';
import { CHAPTER_FIGURE_ROWS } from './registry';

/** Every live figure and the page it stands on (the home page's is the cluster figure again); figure-play.spec checks this is all the site has. */
export const LIVE_FIGURES: readonly { id: string; path: string }[] = [
  { id: 'cluster', path: '/' },
  ...CHAPTER_FIGURE_ROWS.map(({ id, chapter }) => ({ id, path: `/${chapter}/` })),
];

/** Each figure once, on its chapter. */
export const CHAPTER_FIGURES = LIVE_FIGURES.filter((f) => f.path !== '/');

/** Presses a demo by keyboard (it stands at its first beat), then "next event that matters" (N) until its last beat. */
export async function runDemo(page: Page, fig: Locator, demo: string): Promise<void> {
  const button = fig.locator(`[data-demo="${demo}"]`);
  const before = Number(await fig.getAttribute('data-step'));
  await button.focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBeGreaterThan(before);
  for (let i = 0; i < 2000; i++) {
    if ((await button.getAttribute('aria-pressed')) === 'false') return;
    const step = await fig.getAttribute('data-step');
    await page.keyboard.press('n');
    await expect(fig).not.toHaveAttribute('data-step', step!);
  }
  throw new Error(`demo ${demo} did not finish`);
}

/** The DOM under a locator as text with each element's attributes, and its class names, sorted (two renders of one frame may order them differently). */
export async function normalizedDom(loc: Locator): Promise<string> {
  return loc.evaluate((root) => {
    const walk = (n: Node): string => {
      if (n.nodeType === Node.TEXT_NODE) return (n.textContent ?? '').replace(/\s+/g, ' ');
      if (n.nodeType !== Node.ELEMENT_NODE) return '';
      const e = n as Element;
      // The travel layer is drawn from the boxes' measured places after layout: geometry, not the frame.
      if (e.getAttribute('data-testid') === 'travel') return '';
      // A class list's order is not part of the render either (a class directive set on update comes after the static ones).
      // Ids from Svelte's $props.id() count the islands hydrated before this one on the page ("s1-…" in a
      // chapter with a widget above the figure, "s0-…" in its embed): the same render, numbered apart.
      const value = (a: Attr) =>
        a.name === 'class'
          ? a.value.split(/\s+/).filter(Boolean).sort().join(' ')
          : /^(id|for|aria-[a-z]+)$/.test(a.name)
            ? a.value.replace(/\bs\d+-/g, 's#-')
            : a.value;
      const attrs = [...e.attributes]
        .map((a) => `${a.name}="${value(a)}"`)
        .sort()
        .join(' ');
      return `<${e.tagName.toLowerCase()} ${attrs}>${[...e.childNodes].map(walk).join('')}</${e.tagName.toLowerCase()}>`;
    };
    return walk(root);
  });
}

/** Axe on one figure (WCAG 2.2 AA): no violation, or the list of them named by `what`. */
export async function expectNoAxeViolations(page: Page, sel: string, what: string): Promise<void> {
  const r = await new AxeBuilder({ page })
    .include(sel)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    r.violations.map(
      (v) =>
        `${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    ),
    what,
  ).toEqual([]);
}

/** Shows one of a figure's stage tabs ("Cluster", "Requests", or the figure's own panel's name) and waits until its pane is shown. */
export async function showTab(fig: Locator, name: string): Promise<void> {
  const tab = fig.getByRole('tab', { name, exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}
