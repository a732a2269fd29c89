// The live hub figure in the control-plane chapter, as a reader uses it: keyboard only, the story's
// write through every stage and a refusal at each one, components stopped one at a time, axe in each
// state and theme, a 360 px phone, step back then forward, and no JavaScript.
import type { Locator, Page } from '@playwright/test';
import { BASE, cspViolations, expect, test } from './fixtures';
import { runDemo, expectNoAxeViolations } from './figure-helpers';

const FIG = '[data-testid="figure-hub"]';
const PAGE = `${BASE}/control-plane/`;

async function openFigure(page: Page): Promise<Locator> {
  await page.goto(PAGE);
  const fig = page.locator(FIG).first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /);
  return fig;
}

/** Moves to the story's next beat with the keyboard: "next event that matters" (N) until the figure stands at a beat. */
async function nextBeat(page: Page, fig: Locator): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const step = await fig.getAttribute('data-step');
    await page.keyboard.press('n');
    await expect(fig).not.toHaveAttribute('data-step', step!);
    if ((await fig.getAttribute('data-state')) === 'live paused at-beat') return;
  }
  throw new Error('no beat ahead');
}

const pipeline = (fig: Locator) => fig.getByTestId('hub-pipeline');
const stage = (fig: Locator, s: string) => pipeline(fig).locator(`[data-stage="${s}"]`);

test.describe('the live hub figure', () => {
  test('the story: one write through every stage into etcd and out to its watcher, then a refusal at each stage', async ({
    page,
    watch,
  }) => {
    const fig = await openFigure(page);
    // At the start the newest write is kube-controller-manager's (its leader-election Lease created as it started, after the kubelets registered).
    await expect(pipeline(fig)).toContainText('kube-controller-manager');
    await fig.locator('[data-demo]').first().focus();

    await nextBeat(page, fig);
    await expect(pipeline(fig)).toHaveAttribute('data-refused', 'none');
    await expect(pipeline(fig)).toHaveAttribute('data-current', 'true');
    for (const s of ['authentication', 'authorization', 'admission', 'validation'])
      await expect(stage(fig, s)).toHaveAttribute('data-state', 'passed');
    await expect(stage(fig, 'authentication')).toContainText('kubernetes-admin');
    await expect(stage(fig, 'storage')).toContainText(/revision \d+, \/registry\/deployments\/default\/web/);
    await expect(stage(fig, 'storage')).toHaveAttribute('aria-current', 'step');
    // Step on (L) until the notification is out: kube-controller-manager is told. The story's write
    // comes as the cluster starts, so the informers' streaming lists (their initial events and
    // bookmarks) are stepped through first.
    for (
      let i = 0;
      i < 40 && !(await fig.getByTestId('hub-notified').textContent())?.includes('kube-controller-manager');
      i++
    ) {
      const step = await fig.getAttribute('data-step');
      await page.keyboard.press('l');
      await expect(fig).not.toHaveAttribute('data-step', step!);
    }
    await expect(fig.getByTestId('hub-notified')).toContainText('ADDED → kube-controller-manager');

    // Once a pod is on a node, its kubelet's statechart is drawn, lit where the kubelet holds it.
    for (let i = 0; i < 4; i++) await nextBeat(page, fig); // the rest of the create, to Ready
    const chart = fig.getByTestId('state-diagram');
    await expect(chart).toHaveAttribute('data-machine', 'pod');
    await expect(chart).toHaveAttribute('data-current', 'running.ready');
    await expect(chart).toContainText('A pod on its kubelet');
    await expect(fig.getByTestId('state-diagram-reason')).toContainText('Ready=True');
    const refusals: [string, RegExp][] = [
      ['authentication', /401 Unauthorized/],
      ['authorization', /403 deployments\.apps is forbidden: User "jane"/],
      ['admission', /404 namespaces "staging" not found/],
      ['validation', /422 .*`selector` does not match template `labels`/],
    ];
    for (const [s, message] of refusals) {
      await nextBeat(page, fig);
      await expect(pipeline(fig)).toHaveAttribute('data-refused', s);
      await expect(stage(fig, s)).toHaveAttribute('data-state', 'refused');
      await expect(stage(fig, s)).toContainText(message);
      await expect(stage(fig, 'storage')).toHaveAttribute('data-state', 'not-reached');
    }
    expect(watch.errors).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  test('stopping one component at a time: each shows its own failure signature, and starts again', async ({ page }) => {
    test.setTimeout(120_000);
    const fig = await openFigure(page);
    await runDemo(page, fig, 'apply');
    await expect(fig.locator('[data-testid^="pod-web-"]')).toHaveCount(3);

    await runDemo(page, fig, 'stop-etcd');
    await expect(fig.getByTestId('narration')).toContainText('cannot store it');
    await runDemo(page, fig, 'stop-etcd');
    await expect(fig.locator('[data-demo="stop-etcd"]')).toHaveText(/Stop etcd/);

    await fig.locator('[data-demo="stop-apiserver"]').focus();
    await page.keyboard.press('Enter');
    await expect(fig.getByTestId('hub-refused')).toContainText('Refused at the connection');
    await runDemo(page, fig, 'stop-apiserver'); // starts it again
    await expect(fig.locator('[data-demo="stop-apiserver"]')).toHaveText(/Stop API server/);

    await runDemo(page, fig, 'stop-scheduler');
    await expect(fig.getByTestId('narration')).toContainText('Pending with no node');
    await runDemo(page, fig, 'stop-scheduler');
    await runDemo(page, fig, 'stop-controller-manager');
    await expect(fig.getByTestId('narration')).toContainText('no controller is left to act on it');
    await runDemo(page, fig, 'stop-controller-manager');
    await runDemo(page, fig, 'slow');
    await expect(fig.getByTestId('narration')).toContainText('everything looked stuck at once');
  });

  test('step back then forward gives the identical pipeline', async ({ page }) => {
    const fig = await openFigure(page);
    await fig.locator('[data-demo]').first().focus();
    await nextBeat(page, fig);
    for (let i = 0; i < 2; i++) {
      const at = await fig.getAttribute('data-step');
      await page.keyboard.press('l');
      await expect(fig).not.toHaveAttribute('data-step', at!);
    }
    const step = await fig.getAttribute('data-step');
    const before = await pipeline(fig).innerHTML();
    await page.keyboard.press('j');
    await expect(fig).not.toHaveAttribute('data-step', step!);
    await page.keyboard.press('l');
    await expect(fig).toHaveAttribute('data-step', step!);
    expect(await pipeline(fig).innerHTML()).toBe(before);
  });

  test('axe finds no violation in any state, light and dark', async ({ page }) => {
    test.setTimeout(120_000);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const fig = await openFigure(page);
      const check = (what: string) => expectNoAxeViolations(page, FIG, `${scheme} ${what}`);
      await check('at the start');
      await fig.locator('[data-demo]').first().focus();
      await nextBeat(page, fig);
      await check('stored in etcd');
      for (let i = 0; i < 6; i++) await nextBeat(page, fig);
      await expect(pipeline(fig)).toHaveAttribute('data-refused', 'authorization');
      await check('refused');
      await fig.locator('[data-demo="stop-apiserver"]').focus();
      await page.keyboard.press('Enter');
      await expect(fig).toHaveAttribute('data-state', 'live paused diverged');
      await check('API server stopped, diverged');
    }
  });

  test('on a 360 px phone: nothing scrolls sideways, no text under 12 px', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    const fig = await openFigure(page);
    await fig.locator('[data-demo]').first().focus();
    await nextBeat(page, fig);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
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
    expect(small).toEqual([]);
  });

  test('without JavaScript: the first frame, the pipeline panel and the whole story as text', async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(PAGE);
    const fig = page.locator(FIG);
    await expect(fig).toHaveAttribute('data-state', 'ssr paused between');
    await expect(pipeline(fig)).toBeVisible();
    // Every pane of the stage drawn whole, one under the other (none squeezed into the picture's box).
    for (const pane of await fig.locator('.figure-stage__pane').all()) {
      const box = (await pane.boundingBox())!;
      expect(box.height).toBeGreaterThan(100);
      expect(await pane.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1);
    }
    const story = page.locator('#figure-control-plane-request-path .figure-story--nojs');
    await expect(story).toBeVisible();
    await expect(story.locator('.figure-story__beats li')).toHaveCount(9);
    await expect(story).toContainText('/registry/deployments/default/web');
    await expect(story).toContainText('What this leaves out');
    await ctx.close();
  });
});
