// Text in the live figures fits: at 1280 and 360 px no word or name is broken inside (a line may
// break after a hyphen or a slash, as a browser breaks "kube-controller-" "manager", never inside
// "container/d"), and an element whose text does not fit is a name cut with an ellipsis that
// carries its whole text in a title. Checked at the first frame and again a few events into the story.
import type { Locator, Page } from '@playwright/test';
import { BASE, expect, test } from './fixtures';
import { CHAPTER_FIGURES, showTab } from './figure-helpers';

/** What does not fit in a figure now: words broken inside, and overflowing text that is not an ellipsised name with a title. */
async function textProblems(fig: Locator): Promise<string[]> {
  return fig.evaluate((root) => {
    const out: string[] = [];
    // checkVisibility also hides what a closed <details> holds (its content is not rendered).
    const shown = (e: Element) => e.checkVisibility({ visibilityProperty: true });
    // The terminal prints output as a terminal does (long lines wrap anywhere); screen-reader text is never drawn.
    // Text hidden visually but kept for assistive technology (clipped to nothing, as the phone toolbar's labels are) is never drawn either.
    const clipped = (e: Element) => {
      for (let x: Element | null = e; x && x !== root; x = x.parentElement)
        if (getComputedStyle(x).clipPath === 'inset(50%)') return true;
      return false;
    };
    // The travel layer's words hang beside their moving markers by design, clipped to the canvas (aria-hidden: the chips say the same).
    const skip = (e: Element) =>
      !!e.closest('.kit-term, .kit-sr, .kit-travel, [hidden], svg, textarea, input, select, option') || clipped(e);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent ?? '';
      if (!el || skip(el) || !shown(el) || !text.trim()) continue;
      // Text that never wraps cannot break inside a word; if it does not fit, the check below finds it.
      if (getComputedStyle(el).whiteSpace === 'nowrap') continue;
      for (const m of text.matchAll(/\S+/g)) {
        const word = m[0];
        const at = m.index ?? 0;
        const top = (i: number) => {
          const r = document.createRange();
          r.setStart(n!, at + i);
          r.setEnd(n!, at + i + 1);
          const rect = [...r.getClientRects()].find((x) => x.width > 0);
          return rect ? rect : null;
        };
        const whole = document.createRange();
        whole.setStart(n, at);
        whole.setEnd(n, at + word.length);
        const rects = [...whole.getClientRects()].filter((x) => x.width > 0);
        if (rects.length < 2) continue;
        for (let i = 1; i < word.length; i++) {
          const a = top(i - 1);
          const b = top(i);
          if (!a || !b || b.top < a.bottom - 2) continue;
          // A new line starts at character i: fine after a hyphen or a slash, not inside a word.
          if (!/[-/]/.test(word[i - 1]))
            out.push(
              `"${word}" breaks after "${word.slice(0, i)}" in <${el.tagName.toLowerCase()} class="${el.className}">`,
            );
        }
      }
    }
    for (const e of root.querySelectorAll('*')) {
      if (skip(e) || !shown(e)) continue;
      const s = getComputedStyle(e);
      if (
        s.overflowX === 'auto' ||
        s.overflowX === 'scroll' ||
        e.scrollWidth <= e.clientWidth + 1 ||
        !e.textContent?.trim()
      )
        continue;
      if (s.textOverflow === 'ellipsis' && (e.getAttribute('title') ?? '').trim() === (e.textContent ?? '').trim())
        continue;
      out.push(
        `<${e.tagName.toLowerCase()} class="${e.className}"> overflows (${e.scrollWidth} > ${e.clientWidth}): ${(e.textContent ?? '').trim().slice(0, 60)}`,
      );
    }
    return out;
  });
}

async function openFigure(page: Page, figure: string, path: string): Promise<Locator> {
  await page.goto(`${BASE}${path}`);
  const fig = page.locator(`[data-testid="figure-${figure}"]`).first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /);
  return fig;
}

for (const width of [1280, 360]) {
  test.describe(`figure text at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });
    for (const { id: figure, path } of CHAPTER_FIGURES) {
      test(`${figure}: no word breaks inside, and what does not fit is an ellipsised name with a title`, async ({
        page,
      }) => {
        const fig = await openFigure(page, figure, path);
        expect(await textProblems(fig), 'first frame').toEqual([]);
        // A few events into the story: pods, chips and log entries on the canvas.
        await fig.locator('[data-demo]').first().focus();
        for (let i = 0; i < 8; i++) {
          const step = await fig.getAttribute('data-step');
          await page.keyboard.press('n');
          await expect(fig).not.toHaveAttribute('data-step', step!);
        }
        expect(await textProblems(fig), 'into the story').toEqual([]);
      });
    }
  });
}

test('a pod marked not ready shows it on its card, beside READY', async ({ page }) => {
  const fig = await openFigure(page, 'node-failure', '/node-failure/');
  await fig.locator('[data-demo]').first().focus();
  // Through the story to the beat where node-2's pods are marked not ready.
  for (let i = 0; i < 400; i++) {
    if (/marked not ready/.test((await fig.getByTestId('narration').textContent()) ?? '')) break;
    const step = await fig.getAttribute('data-step');
    await page.keyboard.press('n');
    await expect(fig).not.toHaveAttribute('data-step', step!);
  }
  await showTab(fig, 'Cluster');
  const marked = fig.locator('[data-condition="False"].kit-badge--bad');
  await expect(marked.first()).toBeVisible();
  await expect(marked.first()).toHaveText(/Ready=False/);
});
