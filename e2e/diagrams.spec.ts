// The static diagrams (src/components/diagrams) on a 360 px phone: no visible text under 12 px
// inside any of them (HTML text at its computed size, SVG text at its size times the drawing's
// scale), each one's description visible to sighted readers too, not only to screen readers, and no
// diagram's frame scrolling sideways (except the few listed in SCROLLS_ON_A_PHONE, each with its reason).
import type { Page } from '@playwright/test';
import { BASE, expect, test } from './fixtures';

const CHAPTERS = [
  'control-plane',
  'reconcile-loop',
  'scheduler',
  'rolling-updates',
  'networking',
  'node-failure',
  'control-plane-outage',
  'troubleshooting',
];

/**
 * Diagrams another branch is reworking, which have no "Described in words" yet (issue 19, item 7):
 * they are still checked for small text. Drop an id from here once its diagram carries DiagramWords.
 */
const WORDS_PENDING = new Set<string>();

/**
 * Static diagrams still drawn at their own width, whose frame scrolls sideways on a phone (and says
 * so), each with its reason. Every other diagram must fit a 360 px screen without scrolling.
 */
const SCROLLS_ON_A_PHONE = new Map<string, string>([]);

/** The page's static diagrams whose frame is wider inside than it is on screen, as "figure-id: scrollWidth > clientWidth". */
async function sidewaysScrollers(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.figure--diagram')].flatMap((fig) => {
      const frame = fig.querySelector<HTMLElement>('.figure__body')!;
      return frame.scrollWidth > frame.clientWidth
        ? [`${fig.dataset.figure}: ${frame.scrollWidth} > ${frame.clientWidth}`]
        : [];
    }),
  );
}

/** Every visible text run under 12 px in the page's static diagrams, as "figure-id: text (size)". */
async function smallText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const fig of document.querySelectorAll<HTMLElement>('.figure--diagram')) {
      for (const el of fig.querySelectorAll<Element>('*')) {
        const own = [...el.childNodes]
          .filter((n) => n.nodeType === 3 && n.textContent!.trim())
          .map((n) => n.textContent!.trim())
          .join(' ');
        if (!own || !el.getClientRects().length) continue;
        const rect = el.getBoundingClientRect();
        if (rect.width === 0 || rect.height === 0) continue;
        let px = parseFloat(getComputedStyle(el).fontSize);
        if (el instanceof SVGElement && el.ownerSVGElement) px *= el.ownerSVGElement.getScreenCTM()?.a ?? 1;
        if (px < 11.95) out.push(`${fig.dataset.figure}: ${own.slice(0, 40)} (${px.toFixed(1)} px)`);
      }
    }
    return out;
  });
}

test.describe('static diagrams on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 800 } });
  for (const chapter of CHAPTERS) {
    test(`${chapter}: no diagram text under 12 px or scrolling sideways, each described in visible words`, async ({
      page,
    }) => {
      await page.goto(`${BASE}/${chapter}/`);
      const figs = page.locator('.figure--diagram');
      expect(await figs.count()).toBeGreaterThan(0);
      expect(await smallText(page)).toEqual([]);
      for (const fig of await figs.all()) {
        const id = (await fig.getAttribute('data-figure'))!;
        if (WORDS_PENDING.has(id)) continue;
        const words = fig.locator('[data-dg-words]');
        await expect(words, id).toHaveCount(1);
        await expect(words.locator('summary'), id).toBeVisible();
        await words.locator('summary').click();
        const p = words.locator('p');
        await expect(p, id).toBeVisible();
        expect((await p.innerText()).length, id).toBeGreaterThan(80);
        // The drawing or table points at these words for screen readers.
        expect(await fig.locator(`[aria-describedby="${await p.getAttribute('id')}"]`).count(), id).toBeGreaterThan(0);
      }
      // No diagram's frame needs sideways scrolling, except the listed ones (which still must scroll, or leave the list).
      const scrollers = await sidewaysScrollers(page);
      const ids = await figs.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.figure!));
      expect(scrollers.filter((s) => !SCROLLS_ON_A_PHONE.has(s.split(':')[0]))).toEqual([]);
      for (const id of ids.filter((id) => SCROLLS_ON_A_PHONE.has(id)))
        expect(
          scrollers.some((s) => s.startsWith(`${id}:`)),
          `${id} fits now: drop it from SCROLLS_ON_A_PHONE`,
        ).toBe(true);
      // Opening the descriptions does not make the page scroll sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    });
  }
});
