// The node-failure and outage figures, as a reader uses them: keyboard only, the machine's states
// (at a beat, between, diverged, playing), each demo to the moment Kubernetes would reach, the node
// statechart lit in step with the canvas, axe in each state and theme, 360 px, no JavaScript.
import type { Locator, Page } from '@playwright/test';
import { BASE, cspViolations, expect, test } from './fixtures';
import { runDemo, expectNoAxeViolations, showTab } from './figure-helpers';

const NF = '[data-testid="figure-node-failure"]';
const OG = '[data-testid="figure-outage"]';

/** Opens a chapter, brings its figure into view, waits until the worker answers, and records every data-state it takes. */
async function openFigure(page: Page, path: string, sel: string): Promise<Locator> {
  await page.addInitScript((s) => {
    const seen: string[] = [];
    (window as unknown as { __states: string[] }).__states = seen;
    new MutationObserver((ms) => {
      for (const m of ms)
        if (m.attributeName === 'data-state' && (m.target as HTMLElement).matches(s))
          seen.push((m.target as HTMLElement).dataset.state ?? '');
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-state'] });
  }, sel);
  await page.goto(`${BASE}${path}`);
  const fig = page.locator(sel).first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /);
  return fig;
}

const statesSeen = (page: Page) => page.evaluate(() => (window as unknown as { __states: string[] }).__states);

/** Presses N (next event that matters) `times` times, each time waiting until the figure has moved. */
async function next(page: Page, fig: Locator, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const step = await fig.getAttribute('data-step');
    await page.keyboard.press('n');
    await expect(fig).not.toHaveAttribute('data-step', step!);
  }
}

/** Text under 12 px that is shown, and whether the page scrolls sideways, at the current viewport. */
async function phoneProblems(page: Page, fig: Locator): Promise<{ small: string[]; wide: boolean }> {
  const small = await fig.evaluate((root) =>
    [...root.querySelectorAll('*')]
      .filter(
        (e) =>
          e.childNodes.length &&
          [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()) &&
          (e as HTMLElement).offsetParent !== null &&
          parseFloat(getComputedStyle(e).fontSize) < 12,
      )
      .map((e) => e.outerHTML.slice(0, 80)),
  );
  const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  return { small, wide };
}

test.describe('the node-failure figure', () => {
  test('follows the keyboard through its story: beats, a step back and forward with the identical panel, the chart lit in step', async ({
    page,
    watch,
  }) => {
    const fig = await openFigure(page, '/node-failure/', NF);
    await showTab(fig, 'Lease clock');
    const diagram = fig.getByTestId('state-diagram');
    await expect(diagram).toBeVisible();
    await fig.locator('[data-demo]').first().focus();
    await page.keyboard.press('k');
    // Play dwells on the first beat (time to read it); pausing there stands at it.
    await expect(fig).toHaveAttribute('data-state', 'live playing at-beat');
    await page.keyboard.press('k');
    await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
    expect(await statesSeen(page)).toContain('live playing between');
    await next(page, fig, 6);
    await expect(fig).toHaveAttribute('data-state', /^live paused/);
    const step = Number(await fig.getAttribute('data-step'));
    const panel = fig.getByTestId('node-failure-panel');
    const here = await panel.innerHTML();
    await page.keyboard.press('j');
    await expect(fig).toHaveAttribute('data-step', String(step - 1));
    await page.keyboard.press('l');
    await expect(fig).toHaveAttribute('data-step', String(step));
    expect(await panel.innerHTML()).toBe(here);
    // The chart's current state is the one the node card shows in words.
    const current = await diagram.getAttribute('data-current');
    if (current) await expect(diagram.locator(`[data-chart-state="${current}"]`)).toContainText('now');
    await page.keyboard.press('Home');
    await expect(fig).toHaveAttribute('data-step', '0');
    expect(watch.errors).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  test('power-off: Ready=Unknown after 50 s, unreachable taints, the countdown, the eviction, replacements; node-2 returns empty', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const fig = await openFigure(page, '/node-failure/', NF);
    await runDemo(page, fig, 'apply');
    await expect(fig.locator('[data-testid^="pod-web-"][data-ready="true"]')).toHaveCount(6);
    const diagram = fig.getByTestId('state-diagram');
    await expect(diagram).toHaveAttribute('data-current', 'healthy');
    await runDemo(page, fig, 'power');
    const node2 = fig.getByTestId('node-node-2');
    await expect(node2).toHaveAttribute('data-ready', 'Unknown');
    await expect(node2).toContainText('unreachable');
    await expect(fig.getByTestId('state-diagram-reason')).toContainText('Ready=Unknown');
    await expect(fig.getByTestId('pod-countdowns').locator('tbody tr')).not.toHaveCount(0);
    for (const row of await fig.getByTestId('pod-countdowns').locator('tbody tr').all()) {
      await expect(row).toContainText('Terminating');
      await expect(row).toHaveAttribute('data-container', 'none');
    }
    await expect(fig.locator('[data-testid^="pod-web-"][data-ready="true"][data-terminating="false"]')).toHaveCount(6);
    await expect(fig.getByTestId('narration')).toContainText('replacements');
    await runDemo(page, fig, 'power');
    await expect(node2).toHaveAttribute('data-ready', 'True');
    await expect(node2.locator('[data-testid^="pod-"]')).toHaveCount(0);
  });

  test('partition: the same clock, but the evicted pods keep running on the cut-off machine', async ({ page }) => {
    test.setTimeout(180_000);
    const fig = await openFigure(page, '/node-failure/', NF);
    await runDemo(page, fig, 'apply');
    await runDemo(page, fig, 'partition');
    await expect(fig.locator('[data-demo="partition"]')).toHaveText('Reconnect node-2');
    const rows = fig.getByTestId('pod-countdowns').locator('tbody tr');
    await expect(rows).not.toHaveCount(0);
    for (const row of await rows.all()) {
      await expect(row).toContainText('Terminating');
      await expect(row).toHaveAttribute('data-container', 'running');
    }
    await runDemo(page, fig, 'partition');
    await expect(fig.getByTestId('node-node-2').locator('[data-testid^="pod-"]')).toHaveCount(0);
  });

  test('axe finds no violation at the start, at a beat, between beats and diverged, light and dark', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const fig = await openFigure(page, '/node-failure/', NF);
      await expectNoAxeViolations(page, NF, `${scheme} at the start`);
      await fig.locator('[data-demo]').first().focus();
      await page.keyboard.press('k');
      // Play dwells on the first beat (time to read it); pausing there stands at it.
      await expect(fig).toHaveAttribute('data-state', 'live playing at-beat');
      await page.keyboard.press('k');
      await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
      await expectNoAxeViolations(page, NF, `${scheme} at a beat`);
      // Next goes beat to beat: to the six running pods, then one step back, between beats (node-2 still up, so it can be cut off).
      await next(page, fig, 1);
      await page.keyboard.press('j');
      await expect(fig).toHaveAttribute('data-state', 'live paused between');
      await expectNoAxeViolations(page, NF, `${scheme} between beats`);
      await fig.locator('[data-demo="partition"]').focus();
      await page.keyboard.press('Enter');
      await expect(fig).toHaveAttribute('data-state', 'live paused diverged');
      await expectNoAxeViolations(page, NF, `${scheme} diverged`);
    }
  });

  test('on a 360 px phone nothing scrolls sideways and no text is under 12 px', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    const fig = await openFigure(page, '/node-failure/', NF);
    await runDemo(page, fig, 'apply');
    await fig.locator('[data-demo="power"]').focus();
    await page.keyboard.press('Enter');
    // Beat by beat, mid-failure: the missed renewal, then Ready=Unknown.
    await next(page, fig, 2);
    await expect(fig).toHaveAttribute('data-state', /^live paused/);
    expect(await phoneProblems(page, fig)).toEqual({ small: [], wide: false });
  });

  test('without JavaScript: the first frame, the statechart and the whole story as text', async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/node-failure/`);
    const fig = page.locator(NF);
    await expect(fig).toHaveAttribute('data-state', 'ssr paused between');
    await expect(fig.getByTestId('state-diagram')).toContainText('grace running');
    const story = page.locator('.figure-story--nojs');
    await expect(story).toBeVisible();
    expect(await story.locator('.figure-story__beats li').count()).toBeGreaterThanOrEqual(15);
    await expect(story).toContainText('Ready=Unknown');
    await expect(story).toContainText('the containers are still running');
    await expect(story).toContainText('What this leaves out');
    await ctx.close();
  });
});

test.describe('the outage figure', () => {
  test('the client is served through the outage, kubectl is refused, a dead node is not noticed until the control plane returns', async ({
    page,
    watch,
  }) => {
    test.setTimeout(180_000);
    const fig = await openFigure(page, '/control-plane-outage/', OG);
    await runDemo(page, fig, 'apply');
    const endpoints = fig.getByTestId('service-endpoints').locator('tbody tr');
    await expect(endpoints).toHaveCount(3);
    await runDemo(page, fig, 'control-plane');
    await expect(fig.locator('[data-demo="control-plane"]')).toHaveText('Start the control plane');
    await expect(fig.getByTestId('client-summary')).toContainText('0 got no answer');
    // The hero's strip: one mark a request, as many as the list says in words, and every one answered.
    const marks = fig.getByTestId('client-strip').locator('li');
    await expect(marks).toHaveCount(await fig.locator('.og-requests li').count());
    await expect(fig.getByTestId('client-strip').locator('li[data-ok="false"]')).toHaveCount(0);
    await expect(fig.getByTestId('state-diagram-reason')).toContainText('kube-controller-manager is not running');
    await runDemo(page, fig, 'get');
    await expect(fig.getByTestId('narration')).toContainText(
      'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?',
    );
    // Each check opens the tab it reads (the log's pane is drawn only while shown).
    await showTab(fig, 'Requests');
    await expect(fig.getByTestId('request-log')).toContainText('refused');
    await runDemo(page, fig, 'node');
    await showTab(fig, 'Cluster');
    await expect(fig.getByTestId('node-node-3')).toHaveAttribute('data-ready', 'True');
    await showTab(fig, 'Client');
    await expect(fig.getByTestId('service-endpoints').locator('tr[data-answers="false"]')).toHaveCount(1);
    await expect(fig.getByTestId('client-summary')).not.toContainText('0 got no answer');
    await runDemo(page, fig, 'control-plane');
    await showTab(fig, 'Cluster');
    await expect(fig.getByTestId('node-node-3')).toHaveAttribute('data-ready', 'Unknown');
    await expect(fig.getByTestId('narration')).toContainText('Everything has caught up');
    await showTab(fig, 'Client');
    await expect(fig.getByTestId('client-summary')).toContainText('0 got no answer');
    expect(watch.errors).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  test('axe finds no violation at the start, at a beat and diverged, light and dark; 360 px holds', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const fig = await openFigure(page, '/control-plane-outage/', OG);
      await expectNoAxeViolations(page, OG, `${scheme} at the start`);
      await fig.locator('[data-demo]').first().focus();
      await page.keyboard.press('k');
      // Play dwells on the first beat (time to read it); pausing there stands at it.
      await expect(fig).toHaveAttribute('data-state', 'live playing at-beat');
      await page.keyboard.press('k');
      await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
      await next(page, fig, 4);
      await expect(fig).toHaveAttribute('data-state', /^live paused/);
      await expectNoAxeViolations(page, OG, `${scheme} at a beat`);
      await fig.locator('[data-demo="node"]').focus();
      await page.keyboard.press('Enter');
      await expect(fig).toHaveAttribute('data-state', 'live paused diverged');
      await expectNoAxeViolations(page, OG, `${scheme} diverged`);
    }
    await page.setViewportSize({ width: 360, height: 800 });
    const fig = await openFigure(page, '/control-plane-outage/', OG);
    await runDemo(page, fig, 'apply');
    expect(await phoneProblems(page, fig)).toEqual({ small: [], wide: false });
  });

  test("without JavaScript: the story as text with kubectl's message and the fresh grace period", async ({
    browser,
  }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/control-plane-outage/`);
    await expect(page.locator(OG)).toHaveAttribute('data-state', 'ssr paused between');
    const story = page.locator('.figure-story--nojs');
    await expect(story).toContainText('was refused');
    await expect(story).toContainText('after the restart');
    await expect(story).toContainText('kube-proxy');
    await ctx.close();
  });
});
