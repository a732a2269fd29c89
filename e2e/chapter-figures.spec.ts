// The scheduler and rollout figures in their chapters, as a reader uses them with the keyboard:
// the story to its key moments (the FailedScheduling text, the resolved bounds, the 0/0 refusal),
// a change of the reader's that the core answers, axe light and dark, 360 px, and no JavaScript.
import type { Locator, Page } from '@playwright/test';
import { BASE, expect, test } from './fixtures';
import { expectNoAxeViolations, showTab } from './figure-helpers';

const SCHED = '[data-testid="figure-scheduler"]';
const ROLL = '[data-testid="figure-rollout"]';

async function open(page: Page, path: string, sel: string): Promise<Locator> {
  await page.goto(`${BASE}${path}`);
  const fig = page.locator(sel).first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /);
  await fig.locator('[data-demo]').first().focus();
  return fig;
}

/** Presses N ("next event that matters") until the locator is visible. */
async function nextUntil(page: Page, fig: Locator, target: Locator, max = 400): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.isVisible()) return;
    const step = await fig.getAttribute('data-step');
    await page.keyboard.press('n');
    await expect(fig).not.toHaveAttribute('data-step', step!);
  }
  throw new Error('never became visible');
}

/** Moves the timeline slider to its end (the story's last beat) with the End key. */
async function toEnd(page: Page, fig: Locator): Promise<void> {
  const range = fig.locator('.kit-timeline__range');
  await range.focus();
  await page.keyboard.press('End');
  await expect
    .poll(async () => Number(await fig.getAttribute('data-step')))
    .toBe(Number(await range.getAttribute('max')));
}

test.describe('the scheduler figure', () => {
  test('the story reaches big Pending with the exact FailedScheduling message; a toleration lets it schedule', async ({
    page,
  }) => {
    const fig = await open(page, '/scheduler/', SCHED);
    const failed = fig.getByTestId('failed-scheduling');
    await nextUntil(page, fig, failed);
    await expect(failed).toContainText(
      '0/5 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 3 Insufficient cpu.',
    );
    const table = fig.getByTestId('scheduling-table');
    await expect(table.locator('tbody tr')).toHaveCount(5);
    await expect(table.locator('tr[data-node="node-1"]')).toContainText('NodeUnschedulable');
    await expect(table.locator('tr[data-node="node-2"]')).toContainText('TaintToleration');
    // big is Pending, so the pod statechart shows the first bound pod (batch), running and ready on node-3.
    const chart = fig.getByTestId('state-diagram');
    await expect(chart).toHaveAttribute('data-machine', 'pod');
    await expect(chart).toHaveAttribute('data-current', 'running.ready');
    await expect(chart).toContainText('batch on node-3');
    await fig.getByTestId('add-toleration').focus();
    await page.keyboard.press('Enter');
    await expect(fig).toHaveAttribute('data-state', /diverged/);
    const bound = fig.locator('select option', { hasText: 'big (on node-2)' });
    for (let i = 0; i < 200 && !(await bound.count()); i++) {
      const step = await fig.getAttribute('data-step');
      await page.keyboard.press('n');
      await expect(fig).not.toHaveAttribute('data-step', step!);
    }
    await expect(bound).toHaveCount(1);
  });

  test("the requests form follows the reader's choices, and choosing another pod resets them", async ({ page }) => {
    const fig = await open(page, '/scheduler/', SCHED);
    await nextUntil(page, fig, fig.getByTestId('failed-scheduling'));
    const pod = fig.locator('select[id$="-pod"]');
    const cpu = fig.locator('select[id$="-cpu"]');
    const mem = fig.locator('select[id$="-mem"]');
    const replace = fig.getByTestId('replace-pod');
    await expect(cpu).toHaveValue('');
    await expect(replace).toHaveAttribute('aria-disabled', 'true');
    const cpuChoice = (await cpu.locator('option').nth(1).getAttribute('value'))!;
    const memChoice = (await mem.locator('option').nth(1).getAttribute('value'))!;
    await cpu.selectOption(cpuChoice);
    await mem.selectOption(memChoice);
    await expect(cpu).toHaveValue(cpuChoice);
    await expect(mem).toHaveValue(memChoice);
    await expect(replace).toHaveAttribute('aria-disabled', 'false');
    const shown = await pod.inputValue();
    const values = await pod.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const other = values.find((v) => v !== shown)!;
    await pod.selectOption(other);
    await expect(pod).toHaveValue(other);
    await expect(replace).toContainText(`Replace ${other} `);
    await expect(cpu).toHaveValue('');
    await expect(mem).toHaveValue('');
    await expect(replace).toHaveAttribute('aria-disabled', 'true');
  });

  test('axe finds no violation at the start and at the FailedScheduling moment, light and dark', async ({ page }) => {
    test.setTimeout(120_000);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const fig = await open(page, '/scheduler/', SCHED);
      await expectNoAxeViolations(page, SCHED, `${scheme} start`);
      await nextUntil(page, fig, fig.getByTestId('failed-scheduling'));
      await expectNoAxeViolations(page, SCHED, `${scheme} pending`);
    }
  });

  test('on a 360 px phone the page does not scroll sideways and no text is under 12 px', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    const fig = await open(page, '/scheduler/', SCHED);
    await nextUntil(page, fig, fig.getByTestId('failed-scheduling'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const small = await fig.evaluate((root) =>
      [...root.querySelectorAll('*')]
        .filter(
          (e) =>
            [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()) &&
            (e as HTMLElement).offsetParent !== null &&
            parseFloat(getComputedStyle(e).fontSize) < 12,
        )
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    expect(small).toEqual([]);
  });

  test('without JavaScript: the story as text with its note', async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/scheduler/`);
    await expect(page.locator(SCHED)).toHaveAttribute('data-state', 'ssr paused between');
    const story = page.locator('#figure-scheduler-live .figure-story--nojs');
    await expect(story).toBeVisible();
    await expect(story).toContainText('stays Pending');
    await expect(story).toContainText('What this leaves out');
    await ctx.close();
  });
});

test.describe('the rollout figure', () => {
  test('shows the bounds as Kubernetes resolves them, the ReplicaSets after the story, and refuses 0 and 0', async ({
    page,
  }) => {
    const fig = await open(page, '/rolling-updates/', ROLL);
    await showTab(fig, 'Rollout');
    const bounds = fig.getByTestId('resolved-bounds');
    await nextUntil(page, fig, bounds);
    await expect(bounds).toContainText('at most 8 pods, and at least 5 ready');
    await toEnd(page, fig);
    // apply, update, the broken image, undo: three ReplicaSets, only nginx:1.28's with replicas
    await expect(fig.getByTestId('replicasets').locator('tbody tr')).toHaveCount(3);
    // The rollout statechart, lit where the Deployment controller holds web after the undo: complete.
    const chart = fig.getByTestId('state-diagram');
    await expect(chart).toHaveAttribute('data-machine', 'rollout');
    await expect(chart).toHaveAttribute('data-current', 'complete');
    await expect(chart.getByTestId('state-diagram-reason')).toContainText('NewReplicaSetAvailable');
    await fig.getByTestId('max-surge').fill('0');
    await fig.getByTestId('max-unavailable').fill('0');
    await fig.getByTestId('max-unavailable').press('Enter');
    await expect(fig.getByTestId('refused')).toContainText('may not be 0 when `maxSurge` is 0');
    await expectNoAxeViolations(page, ROLL, 'refused');
  });

  test("axe finds no violation at the start and at the story's end, light and dark", async ({ page }) => {
    test.setTimeout(120_000);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const fig = await open(page, '/rolling-updates/', ROLL);
      await expectNoAxeViolations(page, ROLL, `${scheme} start`);
      await toEnd(page, fig);
      await expectNoAxeViolations(page, ROLL, `${scheme} at the story's end`);
    }
  });

  test('without JavaScript: the story as text with its note', async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/rolling-updates/`);
    const story = page.locator('#figure-rolling-updates-live .figure-story--nojs');
    await expect(story).toBeVisible();
    await expect(story).toContainText('ProgressDeadlineExceeded');
    // The first frame has no Deployment yet; its note must not name the Apply button hidden without JS.
    const note = page.locator(`${ROLL} .ro__note`);
    await expect(note).toHaveText('No Deployment yet.', { useInnerText: true });
    await ctx.close();
  });
});
