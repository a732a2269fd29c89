// Every live figure on the site, as a reader who presses Play and then drags the timeline about:
// 12 s of playback at the fastest speed (enough to cross several beats and thousands of steps) (resumed at each beat, where playback pauses), then the
// slider end to end and in big jumps. No page error and no console error may appear on the way, and
// the rolling-updates chart still has its lines afterwards (its effect once looped on every view).
import type { Locator, Page } from '@playwright/test';
import { BASE, expect, sitePages, test } from './fixtures';
import { LIVE_FIGURES } from './figure-helpers';

/** How long each figure plays: long enough to cross beats and Play's resumes, short enough for CI. */
const PLAY_MS = 12_000;

/** Collects page errors and console errors (any text) from here on. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${String(e)}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  return errors;
}

const stepOf = async (fig: Locator): Promise<number> => Number(await fig.getAttribute('data-step'));

/** Presses a key on the focused timeline slider and waits until the figure shows the step the slider moved to. */
async function slide(page: Page, fig: Locator, range: Locator, key: string): Promise<number> {
  await page.keyboard.press(key);
  const target = Number(await range.inputValue());
  await expect.poll(() => stepOf(fig), { message: `${key} → step ${target}`, timeout: 30_000 }).toBe(target);
  return target;
}

/** The rollout chart's four lines' path data. */
async function chartLines(fig: Locator): Promise<string[]> {
  return fig.locator('.ro__chart path[data-series]').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? ''));
}

test('the list below is every live figure the site has, on its page', async ({ request }) => {
  const found = new Set<string>();
  for (const path of await sitePages(request)) {
    const html = await (await request.get(`${BASE}${path}`)).text();
    for (const m of html.matchAll(/data-figure-root="([^"]+)"/g)) found.add(`${m[1]} ${path}`);
  }
  expect([...found].sort()).toEqual(LIVE_FIGURES.map((f) => `${f.id} ${f.path}`).sort());
});

for (const { id: figure, path } of LIVE_FIGURES) {
  test(`${figure} (${path}): ${PLAY_MS / 1000} s of Play at the fastest speed, then the timeline scrubbed end to end, without an error`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const errors = watchErrors(page);
    await page.goto(`${BASE}${path}`);
    const fig = page.locator(`[data-testid="figure-${figure}"]`).first();
    await fig.scrollIntoViewIfNeeded();
    await expect(fig).toHaveAttribute('data-state', /^live /, { timeout: 30_000 });

    // Compressed: each tick jumps to the next event that matters, the most simulated time per second.
    await fig.locator('.kit-tb-speed select').selectOption('compressed');
    const toggle = fig.locator('[data-action="toggle"]');
    const first = await stepOf(fig);
    const until = Date.now() + PLAY_MS;
    let plays = 0;
    while (Date.now() < until) {
      if (!/ playing /.test((await fig.getAttribute('data-state')) ?? '')) {
        // At rest Play is disabled: nothing is left to play.
        if ((await toggle.getAttribute('aria-disabled')) === 'true') break;
        const from = await stepOf(fig);
        await toggle.click();
        plays++;
        // The worker answers the press: wait for that before looking again, or a second press would undo the first.
        await expect
          .poll(
            async () => / playing /.test((await fig.getAttribute('data-state')) ?? '') || (await stepOf(fig)) !== from,
            { timeout: 10_000 },
          )
          .toBe(true);
      }
      // Playback pauses by itself at a beat: wait for that (then press Play again), an error, or the time to be up.
      await expect
        .poll(
          async () =>
            errors.length > 0 || / paused /.test((await fig.getAttribute('data-state')) ?? '') || Date.now() >= until,
          { timeout: PLAY_MS + 10_000, intervals: [250] },
        )
        .toBe(true);
      expect(errors, 'errors while playing').toEqual([]);
    }
    if (/ playing /.test((await fig.getAttribute('data-state')) ?? '')) await toggle.click();
    await expect(fig).toHaveAttribute('data-state', / paused /);
    expect(plays).toBeGreaterThan(0);
    expect(await stepOf(fig)).toBeGreaterThan(first);
    expect(errors, 'errors while playing').toEqual([]);

    // The slider end to end, back, and in big jumps either way.
    const range = fig.locator('.kit-timeline__range');
    await range.focus();
    const end = await slide(page, fig, range, 'End');
    expect(end).toBe(Number(await range.getAttribute('max')));
    expect(await slide(page, fig, range, 'Home')).toBe(0);
    let at = 0;
    for (const key of ['PageUp', 'PageUp', 'PageUp', 'PageDown', 'PageUp', 'ArrowRight', 'ArrowLeft'])
      at = await slide(page, fig, range, key);
    expect(at).toBeGreaterThan(0);
    await expect(fig).toHaveAttribute('data-state', /^live paused /);

    if (figure === 'rollout') {
      // Past the Deployment's creation, the chart has its four lines, and the same ones however the slider got here.
      const lines = await chartLines(fig);
      expect(lines).toHaveLength(4);
      for (const d of lines) expect(d).toMatch(/^M[\d.]+,[\d.]+( [ML][\d.]+,[\d.]+)+$/);
      await slide(page, fig, range, 'End');
      expect((await chartLines(fig)).every((d) => d.length > 0)).toBe(true);
      await slide(page, fig, range, 'Home');
      for (const key of ['PageUp', 'PageUp', 'PageUp', 'PageDown', 'PageUp', 'ArrowRight', 'ArrowLeft'])
        await slide(page, fig, range, key);
      expect(await stepOf(fig)).toBe(at);
      expect(await chartLines(fig)).toEqual(lines);
    }
    expect(errors, 'errors while scrubbing').toEqual([]);
  });
}
