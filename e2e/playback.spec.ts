// Playback as a reader meets it on the home page's cluster figure: Play at the fastest speed tells
// the story and stops where the cluster is at rest (saying so, and offering "Advance 5 minutes" in a
// place held for it), and "Next event that matters" goes from Apply to three running pods in a few presses.
import type { Locator, Page } from '@playwright/test';
import { BASE, expect, test } from './fixtures';

const FIG = '[data-testid="figure-cluster"]';
const REST = 'The cluster matches what you asked for; nothing happens until you change something.';

async function openFigure(page: Page): Promise<Locator> {
  await page.goto(`${BASE}/`);
  const fig = page.locator(FIG).first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /);
  return fig;
}

/** Presses the Apply demo by keyboard; the figure stands at its first beat. */
async function pressApply(page: Page, fig: Locator): Promise<void> {
  await fig.locator('[data-demo="apply"]').focus();
  await page.keyboard.press('Enter');
  await expect(fig).toHaveAttribute('data-step', '1');
  await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
}

const running = (fig: Locator) => fig.locator('[data-testid^="pod-web-"][data-status="Running"]');

/** Where the Advance control sits: its box, and the distance from it to the playback toolbar below (which must not move when it appears). */
function placeOf(fig: Locator): Promise<{ x: number; width: number; height: number; toToolbar: number }> {
  return fig.evaluate((root) => {
    const a = root.querySelector('.kit-narration__advance')!.getBoundingClientRect();
    const t = root.querySelector('[role="toolbar"]')!.getBoundingClientRect();
    return { x: a.x, width: a.width, height: a.height, toToolbar: t.top - a.bottom };
  });
}

test.describe('playback of the cluster figure', () => {
  test('Play at the compressed speed dwells on each beat and stops at rest, with the rest sentence and Advance 5 minutes in its place', async ({
    page,
    watch,
  }) => {
    test.setTimeout(120_000);
    const fig = await openFigure(page);
    await expect(fig.getByLabel('Speed')).toHaveValue('compressed');
    const advance = fig.getByRole('button', { name: 'Advance 5 minutes' });
    const held = fig.locator('.kit-narration__advance');
    // Not offered yet, but its place is held (hidden, not removed: nothing moves when it appears).
    await expect(advance).toHaveCount(0);
    const place = await placeOf(fig);
    expect(place.height).toBeGreaterThanOrEqual(44);
    await expect(held).toBeHidden();

    await pressApply(page, fig);
    await page.keyboard.press('k');
    await expect(fig).toHaveAttribute('data-state', 'live playing at-beat');
    // It stops by itself, at rest, with Apply done: three pods running.
    await expect(fig).toHaveAttribute('data-state', /^live paused /, { timeout: 90_000 });
    await expect(fig.locator('.kit-narration__rest')).toHaveText(REST);
    await expect(running(fig)).toHaveCount(3);
    await expect(fig.getByRole('log')).toContainText(REST);
    await expect(advance).toBeVisible();
    expect(await placeOf(fig)).toEqual(place);
    await expect(fig.locator('[data-action="toggle"]')).toHaveAttribute('aria-disabled', 'true');
    await expect(fig.locator('[data-action="next"]')).toHaveAttribute('aria-disabled', 'true');

    // Play stays stopped at rest; the step and the clock stand still.
    const step = await fig.getAttribute('data-step');
    const clock = fig.getByRole('timer');
    const before = await clock.getAttribute('aria-label');
    await page.keyboard.press('k');
    await page.waitForTimeout(1_000);
    await expect(fig).toHaveAttribute('data-step', step!);
    await expect(clock).toHaveAttribute('aria-label', before!);

    // Advance 5 minutes runs the clock on by 5 simulated minutes, and the cluster is still at rest.
    await advance.focus();
    await page.keyboard.press('Enter');
    await expect(clock).not.toHaveAttribute('aria-label', before!);
    expect(await clock.textContent()).toMatch(/^5:0\d/);
    await expect(fig.locator('.kit-narration__rest')).toHaveText(REST);
    expect(watch.errors).toEqual([]);
  });

  test('after the Apply demo, at most 5 presses of "Next event that matters" reach three running pods, the start-up lists summed up in one', async ({
    page,
  }) => {
    const fig = await openFigure(page);
    await pressApply(page, fig);
    let presses = 0;
    for (; presses < 5 && (await running(fig).count()) < 3; presses++) {
      const step = await fig.getAttribute('data-step');
      await page.keyboard.press('n');
      await expect(fig).not.toHaveAttribute('data-step', step!);
      if (presses === 0)
        await expect(fig.getByTestId('narration')).toContainText(
          /Every component lists what exists: \d+ notifications\./,
        );
    }
    await expect(running(fig)).toHaveCount(3);
    expect(presses).toBeLessThanOrEqual(5);
  });
});

test.describe('playback of the node-failure figure', () => {
  test('from the power cut, at most 5 presses of "Next event that matters" reach the eviction, saying the minutes it skipped', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto(`${BASE}/node-failure/`);
    const fig = page.locator('[data-testid="figure-node-failure"]').first();
    await fig.scrollIntoViewIfNeeded();
    await expect(fig).toHaveAttribute('data-state', /^live /);
    await fig.locator('[data-demo="apply"]').focus();
    await page.keyboard.press('Enter');
    await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
    const runningPods = fig.locator('[data-testid^="pod-web-"][data-status="Running"]');
    for (let i = 0; i < 30 && (await runningPods.count()) < 6; i++) {
      const step = await fig.getAttribute('data-step');
      await page.keyboard.press('n');
      await expect(fig).not.toHaveAttribute('data-step', step!);
    }
    await expect(runningPods).toHaveCount(6);
    await fig.locator('[data-demo="power"]').focus();
    await page.keyboard.press('Enter');
    await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
    const evicted = fig.locator('[data-testid="node-node-2"] [data-terminating="true"]');
    let presses = 0;
    const skipped: string[] = [];
    for (; presses < 5 && (await evicted.count()) === 0; presses++) {
      const step = await fig.getAttribute('data-step');
      await page.keyboard.press('n');
      await expect(fig).not.toHaveAttribute('data-step', step!);
      skipped.push(await fig.getByTestId('narration').innerText());
    }
    await expect(evicted.first()).toBeAttached();
    expect(presses).toBeLessThanOrEqual(5);
    expect(skipped.join('\n')).toMatch(/min later/);
  });
});
