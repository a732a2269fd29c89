// The troubleshooting figure as a reader uses it: keyboard only, its terminal open from the start,
// the story walked to the failed pull, the broken pod read with kubectl describe in the terminal and
// in the panel, axe with the terminal open and at the beat, no page error and the CSP intact.
import type { Locator, Page } from '@playwright/test';
import { BASE, cspViolations, expect, test } from './fixtures';
import { expectNoAxeViolations } from './figure-helpers';

const TS = '[data-testid="figure-troubleshooting"]';
const line = (fig: Locator) => fig.getByRole('textbox', { name: 'kubectl command' });
const log = (fig: Locator) => fig.getByRole('log', { name: 'Terminal output' });

async function openFigure(page: Page): Promise<Locator> {
  await page.goto(`${BASE}/troubleshooting/`);
  const fig = page.locator(TS).first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /);
  return fig;
}

test('the failed pull, read in the terminal and in the panel, by keyboard', async ({ page, watch }) => {
  test.setTimeout(120_000);
  const fig = await openFigure(page);
  // Open from the start: the terminal's line is there before anyone asks for it.
  await expect(line(fig)).toBeVisible();
  await expectNoAxeViolations(page, TS, 'first frame, terminal open');
  await fig.locator('[data-demo]').first().focus();
  const narration = fig.getByTestId('narration');
  for (let i = 0; i < 40 && !/registry answered NotFound/.test((await narration.textContent()) ?? ''); i++) {
    const step = await fig.getAttribute('data-step');
    await page.keyboard.press('n');
    await expect(fig).not.toHaveAttribute('data-step', step!);
  }
  await expect(narration).toContainText('ErrImagePull');
  const pod = /(web-[a-z0-9]+-[a-z0-9]{5}) shows ErrImagePull/.exec((await narration.textContent()) ?? '')![1];
  const panel = fig.getByTestId('troubleshooting-panel');
  await expect(panel.locator(`tr[data-pod="${pod}"] [data-testid="pod-state"]`)).toHaveText('Waiting: ErrImagePull');
  await expect(panel.locator(`tr[data-pod="${pod}"] [data-testid="pod-backoff"]`)).toContainText('of a 10 s wait');
  await expectNoAxeViolations(page, TS, 'at the ErrImagePull beat');

  await line(fig).focus();
  await expect(fig.getByTestId('terminal')).toBeVisible();
  await line(fig).fill(`kubectl describe pod ${pod}`);
  await line(fig).press('Enter');
  await expect(log(fig)).toContainText('Failed to pull image "nginx:1.277": rpc error: code = NotFound');
  await expect(log(fig)).toContainText('Error: ErrImagePull');
  await line(fig).fill(`kubectl logs ${pod}`);
  await line(fig).press('Enter');
  await expect(log(fig)).toContainText(`container "nginx" in pod "${pod}" is waiting to start: image can't be pulled`);
  expect(watch.errors).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
});
