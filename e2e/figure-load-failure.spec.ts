// A figure whose code cannot be loaded (the network dropped the worker's script, a figure's own
// chunk, or kubectl's) says so in its frame, in a plain sentence, and its data-state says "failed":
// it never sits at "loading" for ever, and nothing throws on the page.
import type { Page } from '@playwright/test';
import { BASE, expect, test } from './fixtures';

const ROLL = '[data-testid="figure-rollout"]';
// The loads these tests abort on purpose are logged by the browser as failed resources; nothing else may err.
test.use({ allowFaults: [/Failed to load resource: net::ERR_FAILED/] });

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${String(e)}`));
  return errors;
}

for (const { what, pattern, says } of [
  {
    what: 'the worker script',
    pattern: '**/_astro/core.worker*.js',
    says: 'its simulation failed to load (the browser could not load its worker script)',
  },
  {
    what: 'the figure’s own chunk',
    pattern: '**/_astro/rollout-figure*.js',
    says: "its simulation failed to load (the figure's own code: ",
  },
]) {
  test(`when ${what} fails to load, the rollout figure says it could not start and shows a failed state`, async ({
    page,
  }) => {
    const errors = watchErrors(page);
    const aborted: string[] = [];
    await page.route(pattern, (r) => {
      aborted.push(r.request().url());
      return r.abort();
    });
    await page.goto(`${BASE}/rolling-updates/`);
    const fig = page.locator(ROLL);
    await fig.scrollIntoViewIfNeeded();
    await expect(fig).toHaveAttribute('data-state', /^failed /, { timeout: 20_000 });
    expect(aborted.length).toBeGreaterThan(0);
    const status = fig.getByRole('status').filter({ hasText: 'could not start' });
    await expect(status).toBeVisible();
    await expect(status).toContainText(says);
    await expect(status).toContainText('Reload the page to try again.');
    expect(errors).toEqual([]);
  });
}

test('when kubectl’s chunk fails to load, the figure stays live and its frame says kubectl failed to load', async ({
  page,
}) => {
  const errors = watchErrors(page);
  // kubectl's chunk (named after its entry, the figures' terminal) and the API server's part it loads.
  await page.route(/\/_astro\/(terminal|kubectl-extras)-[^/]*\.js$/, (r) => r.abort());
  await page.goto(`${BASE}/reconcile-loop/`);
  const fig = page.locator('[data-testid="figure-cluster"]');
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /);
  await fig.locator('[data-action="terminal"]').click();
  const line = fig.getByRole('textbox', { name: 'kubectl command' });
  await expect(line).toBeFocused();
  await line.fill('kubectl get pods');
  await page.keyboard.press('Enter');
  await expect(fig.getByRole('alert').filter({ hasText: 'kubectl failed to load' })).toContainText(
    'reload the page to try again',
  );
  await expect(fig).toHaveAttribute('data-state', /^live /);
  expect(errors).toEqual([]);
});
