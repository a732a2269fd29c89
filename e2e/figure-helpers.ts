// What the live-figure specs share: driving a figure by keyboard as a reader would.
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

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

/** The DOM under a locator as text with each element's attributes sorted (two renders of one frame may order them differently). */
export async function normalizedDom(loc: Locator): Promise<string> {
  return loc.evaluate((root) => {
    const walk = (n: Node): string => {
      if (n.nodeType === Node.TEXT_NODE) return (n.textContent ?? '').replace(/\s+/g, ' ');
      if (n.nodeType !== Node.ELEMENT_NODE) return '';
      const e = n as Element;
      const attrs = [...e.attributes].map((a) => `${a.name}="${a.value}"`).sort().join(' ');
      return `<${e.tagName.toLowerCase()} ${attrs}>${[...e.childNodes].map(walk).join('')}</${e.tagName.toLowerCase()}>`;
    };
    return walk(root);
  });
}
