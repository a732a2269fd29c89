// The live cluster figure, as a reader uses it: keyboard only, every state of its machine, each demo
// to the moment Kubernetes would reach, axe in each state and theme, reduced motion, no JavaScript.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { BASE, cspViolations, expect, test } from './fixtures';
import { normalizedDom, runDemo, expectNoAxeViolations, showTab } from './figure-helpers';

/**
 * Every state of the figure machine (source, playback, story), as data-state shows it. A unit test
 * (src/machines/figure-machine.test.ts) checks this list against the states xstate/graph finds, so a
 * new state fails there until a walk here reaches it; every state the figure takes here must be on it.
 */
const COVERED_STATES: string[] = JSON.parse(readFileSync(new URL('./covered-states.json', import.meta.url), 'utf8'));

const FIG = '[data-testid="figure-cluster"]';

/** Opens the home page, brings the figure into view, waits until the worker answers, and records every data-state it takes. */
async function openFigure(page: Page, path = `${BASE}/`): Promise<Locator> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __states: string[] }).__states = seen;
    new MutationObserver((ms) => {
      for (const m of ms) {
        const t = m.target as HTMLElement;
        if (m.attributeName === 'data-state' && t.dataset.testid === 'figure-cluster') seen.push(t.dataset.state ?? '');
      }
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-state'] });
  });
  await page.goto(path);
  const fig = page.locator(FIG).first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /);
  return fig;
}

/** The data-states the figure has taken since the page opened. */
async function statesSeen(page: Page): Promise<string[]> {
  const seen = await page.evaluate(() => (window as unknown as { __states: string[] }).__states);
  expect(COVERED_STATES).toEqual(expect.arrayContaining(seen));
  return seen;
}

/** Puts keyboard focus inside the figure where its shortcuts work (the first demo button). */
async function focusFigure(fig: Locator): Promise<void> {
  await fig.locator('[data-demo]').first().focus();
}

const podsOf = (fig: Locator) => fig.locator('[data-testid^="pod-web-"]');

test.describe('the live cluster figure', () => {
  test('hydrates from its first frame without moving anything, then follows the keyboard through play, beats, steps and reset', async ({
    page,
    watch,
  }) => {
    await page.addInitScript(() => {
      (window as unknown as { __cls: number }).__cls = 0;
      new PerformanceObserver((l) => {
        for (const e of l.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
          if (!e.hadRecentInput) (window as unknown as { __cls: number }).__cls += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const fig = await openFigure(page);
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
    await expect(fig).toHaveAttribute('data-step', '0');
    await expect(fig.locator('li[data-testid^="node-node-"]')).toHaveCount(3);

    await focusFigure(fig);
    await page.keyboard.press('k');
    // Play dwells on the story's first beat (time to read it); pausing there stands at it.
    await expect(fig).toHaveAttribute('data-state', 'live playing at-beat');
    await page.keyboard.press('k');
    await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
    expect(await statesSeen(page)).toContain('live playing between');
    const atBeat = Number(await fig.getAttribute('data-step'));
    await expect(fig.getByTestId('narration')).toContainText('kubectl sends a Deployment named web');

    // Step forward, back, forward: the same DOM. The first step after Apply goes over every
    // component's start-up list at once (one summarised step, drawn as one burst).
    await page.keyboard.press('l');
    await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBeGreaterThan(atBeat + 10);
    const listed = String(await fig.getAttribute('data-step'));
    await expect(fig.getByTestId('narration')).toContainText('Every component lists what exists');
    await expect(fig).toHaveAttribute('data-state', 'live paused between');
    const canvas = fig.getByTestId('cluster-canvas');
    // The same elements and text (normalizedDom: Svelte's block-anchor comments differ between a
    // hydrated block and one drawn afresh, and are not part of what a reader gets).
    const here = await normalizedDom(canvas);
    // The log's pane is drawn only while it is shown: open it to read it, then come back.
    // Its entries: the filter's id is new each time the pane is drawn.
    const readLog = async () => {
      await showTab(fig, 'Requests');
      const d = await normalizedDom(fig.getByTestId('request-log').locator('ol'));
      await showTab(fig, 'Cluster');
      await focusFigure(fig);
      return d;
    };
    const log = await readLog();
    await page.keyboard.press('j');
    await expect(fig).toHaveAttribute('data-step', String(atBeat));
    await page.keyboard.press('l');
    await expect(fig).toHaveAttribute('data-step', listed);
    expect(await normalizedDom(canvas)).toBe(here);
    expect(await readLog()).toBe(log);

    // Next event that matters skips heartbeats; the speed key cycles the select; Home resets.
    await page.keyboard.press('n');
    await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBeGreaterThan(Number(listed));
    const speed = fig.getByLabel('Speed');
    await expect(speed).toHaveValue('compressed');
    await page.keyboard.press('s');
    await expect(speed).toHaveValue('real');
    await page.keyboard.press('s');
    await page.keyboard.press('s');
    await expect(speed).toHaveValue('compressed');
    await page.keyboard.press('Home');
    await expect(fig).toHaveAttribute('data-step', '0');

    // The slider says where the reader is.
    await page.keyboard.press('l');
    await expect(fig.getByRole('slider', { name: 'Timeline' })).toHaveAttribute(
      'aria-valuetext',
      /^Step 1 of \d+: kubectl sends a Deployment/,
    );
    expect(watch.offsite).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  test('a demo pressed mid-story diverges, plays while at its beats, and the story can be rejoined', async ({
    page,
  }) => {
    const fig = await openFigure(page);
    await focusFigure(fig);
    for (let i = 0; i < 3; i++) await page.keyboard.press('n');
    await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBeGreaterThan(1);
    const node3 = fig.locator('[data-demo="node-3"]');
    await node3.focus();
    await page.keyboard.press('Enter');
    await expect(fig).toHaveAttribute('data-state', 'live paused diverged');
    await expect(fig.getByTestId('narration')).toContainText('the story no longer applies');
    await page.keyboard.press('k');
    await expect.poll(() => statesSeen(page)).toContain('live playing diverged');
    const seen = await statesSeen(page);
    expect(seen).toContain('live playing diverged');
    expect(seen).toContain('live paused diverged');
    const back = fig.getByRole('button', { name: 'Return to the story' });
    await back.focus();
    await page.keyboard.press('Enter');
    await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
  });

  test('a demo pressed plays and is at a beat while it plays (live playing at-beat)', async ({ page }) => {
    const fig = await openFigure(page);
    await fig.locator('[data-demo="apply"]').focus();
    await page.keyboard.press('Enter');
    await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
    await page.keyboard.press('k');
    await expect.poll(() => statesSeen(page)).toContain('live playing at-beat');
  });

  test('Apply reaches three Running pods, one per node; Self-healing gives the replacement a new name and IP', async ({
    page,
  }) => {
    const fig = await openFigure(page);
    await runDemo(page, fig, 'apply');
    await expect(podsOf(fig)).toHaveCount(3);
    for (const p of await podsOf(fig).all()) await expect(p).toHaveAttribute('data-status', 'Running');
    const before = await podsOf(fig).evaluateAll((ps) =>
      ps.map((p) => `${p.dataset.testid} ${p.textContent?.match(/10\.244\.\d+\.\d+/)?.[0]}`),
    );
    await runDemo(page, fig, 'self-healing');
    const after = await podsOf(fig).evaluateAll((ps) =>
      ps
        .filter((p) => p.dataset.terminating !== 'true')
        .map((p) => `${p.dataset.testid} ${p.textContent?.match(/10\.244\.\d+\.\d+/)?.[0]}`),
    );
    expect(after).toHaveLength(3);
    const added = after.filter((a) => !before.includes(a));
    expect(added).toHaveLength(1);
    const [name, ip] = added[0].split(' ');
    expect(before.map((b) => b.split(' ')[0])).not.toContain(name);
    expect(before.map((b) => b.split(' ')[1])).not.toContain(ip);
  });

  test('Scale 3 → 5 → 2 ends with two pods; Update image rolls out and then offers Roll back', async ({ page }) => {
    test.setTimeout(90_000);
    const fig = await openFigure(page);
    await runDemo(page, fig, 'apply');
    await runDemo(page, fig, 'scale');
    await expect(podsOf(fig)).toHaveCount(2);
    await runDemo(page, fig, 'update-image');
    await expect(fig.locator('[data-demo="update-image"]')).toHaveText('Roll back');
    await expect(fig.getByTestId('narration')).toContainText('Rollout complete');
  });

  test('Node-3 dies: Unknown with its taints, its pods replaced after the toleration; Node-3 returns empty', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const fig = await openFigure(page);
    await runDemo(page, fig, 'apply');
    await runDemo(page, fig, 'node-3');
    await expect(fig.getByTestId('node-node-3')).toHaveAttribute('data-ready', 'Unknown');
    await expect(fig.getByTestId('node-node-3')).toContainText('unreachable');
    const ready = fig.locator('[data-testid^="pod-web-"][data-ready="true"][data-terminating="false"]');
    await expect(ready).toHaveCount(3);
    await runDemo(page, fig, 'node-3');
    await expect(fig.getByTestId('node-node-3')).toHaveAttribute('data-ready', 'True');
    await expect(fig.getByTestId('node-node-3').locator('[data-testid^="pod-"]')).toHaveCount(0);
  });

  test('Control plane down keeps the pods running and refuses kubectl; up again, everything reports in', async ({
    page,
  }) => {
    const fig = await openFigure(page);
    await runDemo(page, fig, 'apply');
    await runDemo(page, fig, 'control-plane');
    await expect(fig.locator('[data-demo="control-plane"]')).toHaveText('Control plane up');
    await expect(fig.locator('[data-endpoint="kube-apiserver"]')).toContainText('down');
    const scale = fig.locator('[data-demo="scale"]');
    await scale.focus();
    await page.keyboard.press('Enter');
    await showTab(fig, 'Requests');
    await expect(fig.getByTestId('request-log')).toContainText('PATCH deployments/scale refused');
    await showTab(fig, 'Cluster');
    await runDemo(page, fig, 'control-plane');
    for (const n of ['node-1', 'node-2', 'node-3'])
      await expect(fig.getByTestId(`node-${n}`)).toHaveAttribute('data-ready', 'True');
  });

  test('choosing a log entry highlights its two ends; choosing a component filters the log', async ({ page }) => {
    const fig = await openFigure(page);
    await focusFigure(fig);
    for (let i = 0; i < 4; i++) await page.keyboard.press('n');
    await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBeGreaterThan(3);
    await expect(fig).toHaveAttribute('data-state', /^live paused /);
    await showTab(fig, 'Requests');
    const seq = await fig.locator('.kit-log__entry[data-seq]').last().getAttribute('data-seq');
    const entry = fig.locator(`.kit-log__entry[data-seq="${seq}"]`);
    await entry.focus();
    await page.keyboard.press('Enter');
    await expect(entry).toHaveAttribute('aria-pressed', 'true');
    await expect(fig.locator('[data-highlighted="true"]')).toHaveCount(2);
    await showTab(fig, 'Cluster');
    await expect(fig.locator('[data-endpoint][data-highlighted="true"]')).toHaveCount(2);
    await fig.locator('[data-endpoint="scheduler"]').focus();
    await page.keyboard.press('Enter');
    await expect(fig.locator('[data-endpoint="scheduler"]')).toHaveAttribute('data-highlighted', 'true');
  });

  test('is loading until the worker answers, and says so politely when the worker cannot start', async ({
    page,
    browser,
  }) => {
    await page.route('**/core.worker-*.js', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto(`${BASE}/`);
    const fig = page.locator(FIG);
    await fig.scrollIntoViewIfNeeded();
    await expect(fig).toHaveAttribute('data-state', 'loading paused between');
    await expect(fig).toHaveAttribute('data-state', /^live /);

    const other = await browser.newPage();
    await other.route('**/core.worker-*.js', (route) => route.abort());
    await other.goto(`${BASE}/`);
    const broken = other.locator(FIG);
    await broken.scrollIntoViewIfNeeded();
    await expect(broken).toHaveAttribute('data-state', 'failed paused between');
    await expect(broken.getByRole('status').filter({ hasText: 'could not start' })).toContainText(
      'its simulation failed to load',
    );
    await other.close();
  });

  test('without JavaScript: the first frame and the whole story as text', async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/`);
    const fig = page.locator(FIG);
    await expect(fig).toHaveAttribute('data-state', 'ssr paused between');
    await expect(fig.locator('li[data-testid^="node-node-"]')).toHaveCount(3);
    const story = page.locator('.figure-story--nojs');
    await expect(story).toBeVisible();
    expect(await story.locator('.figure-story__beats li').count()).toBeGreaterThanOrEqual(10);
    await expect(story).toContainText('What this leaves out');
    await expect(page.locator('.figure-story--js')).toBeHidden();
    // Controls that nothing could run are not drawn: no dead buttons above the story.
    await expect(fig.locator('.demo-bar, .kit-controls')).toHaveCount(2);
    await expect(fig.locator('.demo-bar')).toBeHidden();
    await expect(fig.locator('.kit-controls')).toBeHidden();
    await expect(fig.getByRole('button', { name: 'Copy link to this step' })).toBeHidden();
    await ctx.close();
  });

  test('axe finds no violation in any state, light and dark', async ({ page }) => {
    test.setTimeout(120_000);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const fig = await openFigure(page);
      const check = (what: string) => expectNoAxeViolations(page, FIG, `${scheme} ${what}`);
      await check('at the start');
      await focusFigure(fig);
      await page.keyboard.press('k');
      // Play dwells on the first beat (time to read it); pausing there stands at it.
      await expect(fig).toHaveAttribute('data-state', 'live playing at-beat');
      await page.keyboard.press('k');
      await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
      await check('at a beat');
      await page.keyboard.press('l');
      await check('between beats');
      await fig.locator('[data-demo="node-3"]').focus();
      await page.keyboard.press('Enter');
      await expect(fig).toHaveAttribute('data-state', 'live paused diverged');
      await check('diverged');
      await showTab(fig, 'Requests');
      await fig.locator('.kit-log__entry[data-seq]').last().focus();
      await page.keyboard.press('Enter');
      await check('with a log entry chosen');
    }
  });

  test('on a 360 px phone: nodes stack, nothing scrolls sideways, no text under 12 px; reduced motion animates nothing', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const fig = await openFigure(page);
    await runDemo(page, fig, 'apply');
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
    const [a, b] = await fig
      .locator('li[data-testid^="node-node-"]')
      .evaluateAll((ns) => ns.slice(0, 2).map((n) => n.getBoundingClientRect().top));
    expect(b).toBeGreaterThan(a);
    const moving = await fig.evaluate(
      (root) =>
        [...root.querySelectorAll('*')].filter((e) => {
          const s = getComputedStyle(e);
          const secs = (v: string) =>
            Math.max(...v.split(',').map((x) => (x.trim().endsWith('ms') ? parseFloat(x) / 1000 : parseFloat(x))));
          return (
            secs(s.transitionDuration) > 0.001 || (s.animationName !== 'none' && secs(s.animationDuration) > 0.001)
          );
        }).length,
    );
    expect(moving).toBe(0);
  });

  test('the reconcile-loop chapter carries the same live figure', async ({ page }) => {
    const fig = await openFigure(page, `${BASE}/reconcile-loop/`);
    await expect(page.locator('#figure-reconcile-loop-live')).toContainText('kube-apiserver');
    await focusFigure(fig);
    await page.keyboard.press('n');
    await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBeGreaterThan(0);
  });

  test('Copy link to this step: the link reopens the same frame on the figure; a bad link starts politely from the beginning', async ({
    browser,
  }) => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const fig = await openFigure(page);
    await focusFigure(fig);
    for (let i = 0; i < 6; i++) {
      const step = await fig.getAttribute('data-step');
      await page.keyboard.press('n');
      await expect(fig).not.toHaveAttribute('data-step', step!);
    }
    const step = await fig.getAttribute('data-step');
    const canvas = await normalizedDom(fig.getByTestId('cluster-canvas'));
    const copy = fig.getByRole('button', { name: 'Copy link to this step' });
    await copy.focus();
    await page.keyboard.press('Enter');
    await expect(fig.getByText('Link copied.')).toBeVisible();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toMatch(/\?fig=cluster\.[A-Za-z0-9_-]+#live-cluster$/);

    const again = await context.newPage();
    const fig2 = await openFigure(again, url.replace(/^https?:\/\/[^/]+/, ''));
    await expect(fig2).toHaveAttribute('data-step', step!);
    expect(await normalizedDom(fig2.getByTestId('cluster-canvas'))).toBe(canvas);
    // It opens saying where the link put the reader, on the step's own words.
    await expect(fig2.locator('.figure-live__notice')).toContainText(
      `Opened from a link at step ${Number(step).toLocaleString('en-US')} of `,
    );

    const bad = await context.newPage();
    const fig3 = await openFigure(bad, `${BASE}/?fig=${encodeURIComponent('cluster.<b id="injected">x</b>')}`);
    await expect(fig3.locator('.figure-live__notice')).toContainText('starts from the beginning instead');
    await expect(fig3).toHaveAttribute('data-step', '0');
    await expect(bad.locator('#injected')).toHaveCount(0);
    await context.close();
  });
});
