// Causality on the live figure (issue 25, item 2): when a controller's write leaves, the watch
// notification that woke it is marked on the canvas ("woken by …", its route from the API server,
// the sender ringed), and in the Requests pane the write links to that notification's entry, by
// pointer and by keyboard; with reduced motion the same marks are drawn, still.
import type { Locator, Page } from '@playwright/test';
import { BASE, expect, test } from './fixtures';
import { expectNoAxeViolations, showTab } from './figure-helpers';

async function openReconcileLoop(page: Page): Promise<Locator> {
  await page.goto(`${BASE}/reconcile-loop/`);
  const fig = page.locator('[data-figure][data-state]').first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /, { timeout: 30_000 });
  return fig;
}

/** Apply, then "next event that matters" until the ReplicaSet controller's pod creates leave (its mark names the ReplicaSet). */
async function toPodCreates(page: Page, fig: Locator): Promise<Locator> {
  await fig.locator('[data-demo="apply"]').focus();
  await page.keyboard.press('Enter');
  const mark = fig
    .locator('[data-testid="travel-cause"][data-for="kube-controller-manager"]')
    .filter({ hasText: 'rs/web-' });
  for (let i = 0; i < 40 && (await mark.count()) === 0; i++) {
    const step = await fig.getAttribute('data-step');
    await page.keyboard.press('n');
    await expect(fig).not.toHaveAttribute('data-step', step!);
  }
  await expect(mark).toHaveCount(1);
  return mark;
}

for (const reducedMotion of ['no-preference', 'reduce'] as const) {
  test(`/reconcile-loop/: the ReplicaSet controller's pod create is marked with the notification that woke it (motion: ${reducedMotion})`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ reducedMotion });
    const page = await context.newPage();
    const fig = await openReconcileLoop(page);
    const mark = await toPodCreates(page, fig);
    // The canvas: the controller manager's box ringed, the notification's route drawn, its words said.
    await expect(mark.locator('text')).toHaveText(/^woken by ADDED rs\/web-[a-z0-9]+$/);
    await expect(mark.locator('.kit-travel__ring')).toHaveCount(1);
    await expect(mark.locator('path')).toHaveAttribute('d', /^M[\d.]+ [\d.]+Q/);
    // The write it caused is travelling this step, from the same box.
    await expect(
      fig
        .locator('[data-traffic-for="kube-controller-manager"] [data-dir="out"][data-kind="write"]')
        .filter({ hasText: 'POST pods' }),
    ).toHaveCount(1);
    const causeSeq = await mark.getAttribute('data-cause');

    // The Requests pane: choosing the write marks its cause's entry and links to it.
    await showTab(fig, 'Requests');
    const log = fig.getByTestId('request-log');
    const write = log
      .locator('.kit-log__entry[data-kind="write"]')
      .filter({ hasText: 'kube-controller-manager' })
      .filter({ hasText: /POST pods(?!\/)/ })
      .last();
    await write.click();
    await expect(write).toHaveAttribute('aria-pressed', 'true');
    const cause = log.locator(`.kit-log__entry[data-seq="${causeSeq}"]`);
    await expect(cause).toHaveAttribute('data-cause', /.*/);
    await expect(cause).toContainText('cause of the chosen request');
    await expect(cause).toContainText('ADDED replicasets');
    const link = log.locator('.kit-log__why');
    await expect(link).toHaveText(/^caused by ADDED replicasets web-[a-z0-9]+$/);
    // By keyboard: Tab from the chosen write reaches the link; Enter chooses the cause and focuses it.
    await write.focus();
    await page.keyboard.press('Tab');
    await expect(link).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(cause).toHaveAttribute('aria-pressed', 'true');
    await expect(cause).toBeFocused();
    await expectNoAxeViolations(page, '[data-figure]', 'the figure with a cause marked');
    await context.close();
  });
}

test('/reconcile-loop/ in dark mode at 360 px: the cause is marked in the watch colour, and the stage keeps its size', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  const fig = await openReconcileLoop(page);
  const stage = fig.locator('[data-testid="figure-stage"]');
  const before = (await stage.boundingBox())!.height;
  const mark = await toPodCreates(page, fig);
  const colours = await mark.evaluate((g) => {
    const ring = g.querySelector('.kit-travel__ring')!;
    const probe = document.createElement('span');
    probe.style.color = 'var(--kit-watch)';
    g.closest('[data-figure]')!.append(probe);
    const watch = getComputedStyle(probe).color;
    probe.remove();
    return { ring: getComputedStyle(ring).stroke, watch };
  });
  expect(colours.ring).toBe(colours.watch);
  expect((await stage.boundingBox())!.height).toBe(before);
  await expectNoAxeViolations(page, '[data-figure]', 'the figure in dark mode with a cause marked');
  await context.close();
});
