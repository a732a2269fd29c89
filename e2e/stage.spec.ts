// A figure's stage (issue 25): its demos, its picture, its caption and its controls fit one screen at
// a laptop's and a phone's size, the controls never move while the figure steps (whatever the frame
// holds, each region keeps its size), and this step's requests are drawn travelling from sender to
// receiver — or, with reduced motion, drawn where they arrive without moving.
import type { Locator, Page } from '@playwright/test';
import { BASE, expect, test } from './fixtures';
import { LIVE_FIGURES } from './figure-helpers';

const SIZES = [
  { width: 1280, height: 900, stage: 760 },
  { width: 360, height: 800, stage: 720 },
];

async function openLive(page: Page, path: string): Promise<Locator> {
  await page.goto(`${BASE}${path}`);
  const fig = page.locator('[data-figure][data-state]').first();
  await fig.scrollIntoViewIfNeeded();
  await expect(fig).toHaveAttribute('data-state', /^live /, { timeout: 30_000 });
  return fig;
}

/** Where a control sits relative to its figure's top edge (so scrolling the page does not count as moving). */
async function offset(fig: Locator, control: Locator): Promise<{ x: number; y: number }> {
  const [f, c] = await Promise.all([fig.boundingBox(), control.boundingBox()]);
  return { x: Math.round(c!.x - f!.x), y: Math.round(c!.y - f!.y) };
}

/** On a figure that opens on its own panel: steps until a request leaves, and checks it travels along the line between ends drawn where they are. */
async function wireTravels(page: Page, path: string): Promise<void> {
  const fig = await openLive(page, path);
  await expect(fig.locator('[role="tab"][data-tab="panel"]')).toHaveAttribute('aria-selected', 'true');
  const wire = fig.getByTestId('wire');
  await expect(wire).toBeVisible();
  await expect(wire.locator('[data-endpoint="kube-apiserver"]')).toHaveText('kube-apiserver');
  const markers = wire.locator('[data-testid="travel"] [data-kind]');
  // Forward until a step sends something (a quiet step has the API server alone).
  const forward = fig.getByRole('button', { name: 'Step forward', exact: true });
  for (let i = 0; i < 40 && (await markers.count()) === 0; i++) {
    const step = await fig.getAttribute('data-step');
    await forward.click();
    await expect(fig).not.toHaveAttribute('data-step', step!);
  }
  await expect.poll(() => markers.count()).toBeGreaterThan(0);
  // Each marker moves from one drawn end to another: its first and last keyframes differ.
  const motion = await markers.first().evaluate((el) =>
    el.getAnimations().map((a) => {
      const frames = (a.effect as KeyframeEffect).getKeyframes();
      return String(frames[0]?.transform) !== String(frames.at(-1)?.transform);
    }),
  );
  expect(motion).toEqual([true]);
  // The ends' places are computed, not measured: each path starts and stops on the edge of an end as drawn.
  const off = await wire.evaluate((w) => {
    const o = w.getBoundingClientRect();
    const rects = [...w.querySelectorAll('[data-endpoint]')].map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left - o.left, y: r.top - o.top, w: r.width, h: r.height };
    });
    const onEdge = (x: number, y: number) =>
      rects.some(
        (r) =>
          x >= r.x - 1.5 &&
          x <= r.x + r.w + 1.5 &&
          y >= r.y - 1.5 &&
          y <= r.y + r.h + 1.5 &&
          (Math.abs(x - r.x) <= 1.5 ||
            Math.abs(x - r.x - r.w) <= 1.5 ||
            Math.abs(y - r.y) <= 1.5 ||
            Math.abs(y - r.y - r.h) <= 1.5),
      );
    return [...w.querySelectorAll('path.kit-travel__path')].flatMap((p) => {
      const n = (p.getAttribute('d') ?? '').match(/-?[\d.]+/g)!.map(Number);
      return [
        [n[0], n[1]],
        [n[4], n[5]],
      ]
        .filter(([x, y]) => !onEdge(x, y))
        .map(([x, y]) => `${x},${y}`);
    });
  });
  expect(off, 'path ends off every drawn end').toEqual([]);
  expect(await wire.locator('[data-endpoint]').count()).toBeGreaterThanOrEqual(2);
  // On the cluster's tab the line goes: the canvas draws the travel there.
  await fig.locator('[role="tab"][data-tab="cluster"]').click();
  await expect(wire).toHaveCount(0);
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    // One figure per page: the reconcile-loop chapter's is the home page's cluster figure again.
    for (const { path } of LIVE_FIGURES.filter((f) => f.path !== '/reconcile-loop/')) {
      test(`${path}: the stage fits ${size.stage} px and its controls never move over 80 steps`, async ({ page }) => {
        test.setTimeout(180_000);
        const fig = await openLive(page, path);
        const stage = fig.locator('[data-testid="figure-stage"]');
        const height = Math.round((await stage.boundingBox())!.height);
        expect(height, 'the stage: demos, picture, caption and controls').toBeLessThanOrEqual(size.stage);
        const forward = fig.getByRole('button', { name: 'Step forward', exact: true });
        // Where Step forward and the first demo sit relative to the figure's top edge, read in one
        // round trip per step (four bounding boxes a step made this the suite's slowest file).
        const where = () =>
          fig.evaluate((f) => {
            const o = f.getBoundingClientRect();
            const at = (sel: string) => {
              const r = f.querySelector(sel)!.getBoundingClientRect();
              return [Math.round(r.left - o.left), Math.round(r.top - o.top)];
            };
            return [...at('[data-action="forward"]'), ...at('[data-demo]')];
          });
        await expect(forward).toHaveAttribute('data-action', 'forward');
        const at0 = await where();
        let moved = 0;
        for (let i = 0; i < 80; i++) {
          const step = await fig.getAttribute('data-step');
          await forward.click();
          await expect(fig).not.toHaveAttribute('data-step', step!);
          const now = await where();
          // Step forward's x and y, and the first demo's y (a demo bar may scroll sideways).
          moved = Math.max(moved, Math.abs(now[0] - at0[0]), Math.abs(now[1] - at0[1]), Math.abs(now[3] - at0[3]));
        }
        expect(moved, 'px the controls moved over 80 steps').toBe(0);
      });
    }
  });
}

test.describe('requests travel', () => {
  test("each record of a step travels from its sender's box to its receiver's, a burst at a time", async ({ page }) => {
    const fig = await openLive(page, '/');
    await fig.locator('[data-demo]').first().click();
    const trips = fig.locator('[data-testid="travel"] [data-kind]');
    await expect.poll(() => trips.count()).toBeGreaterThan(0);
    // Each has its path drawn, and its marker moves along it by a transform animation (the compositor's, no layout per frame).
    await expect(fig.locator('[data-testid="travel"] path.kit-travel__path').first()).toHaveAttribute(
      'd',
      /^M[\d.]+ [\d.]+Q/,
    );
    // (Polled: a box that moved in this step has its trips drawn again once the frame is painted, on new markers.)
    let motion: { frames: number; duration: number; first: string; last: string }[] = [];
    await expect
      .poll(async () => {
        motion = await trips.first().evaluate((el) =>
          el.getAnimations().map((a) => {
            const frames = (a.effect as KeyframeEffect).getKeyframes();
            return {
              frames: frames.length,
              duration: Number(a.effect?.getTiming().duration),
              first: String(frames[0]?.transform),
              last: String(frames.at(-1)?.transform),
            };
          }),
        );
        return motion.length;
      })
      .toBe(1);
    expect(motion[0].frames).toBeGreaterThan(2);
    expect(motion[0].duration).toBeGreaterThan(0);
    expect(motion[0].first).not.toBe(motion[0].last);
    await expect(fig.locator('[data-testid="travel"]')).toHaveAttribute('data-motion', 'moving');
  });

  // Most figures open on their own panel (a chart, a timeline, a table): the step's requests travel
  // along a line under it, the API server in the middle, so they are seen whichever tab is up.
  for (const { path } of LIVE_FIGURES.filter((f) => f.id !== 'cluster')) {
    test(`${path}: on the figure's own panel, the step's requests travel along the line under it`, async ({ page }) => {
      await wireTravels(page, path);
    });
  }
  test('on a 360 px phone the line has three slots, and the requests still leave and arrive on the ends drawn', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await wireTravels(page, '/rolling-updates/');
  });

  test('with reduced motion the requests are drawn where they arrive, without moving', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    const fig = await openLive(page, '/');
    await fig.locator('[data-demo]').first().click();
    const markers = fig.locator('[data-testid="travel"] .kit-travel__marker');
    await expect.poll(() => markers.count()).toBeGreaterThan(0);
    await expect(fig.locator('[data-testid="travel"]')).toHaveAttribute('data-motion', 'still');
    // Each marker stands where it arrives: one instant "animation" to its end, nothing moving.
    // (Polled: a box that moved in this step has its trips drawn again once the frame is painted, on new markers.)
    await expect
      .poll(() =>
        markers.first().evaluate((el) =>
          el.getAnimations().map((a) => ({
            duration: Number(a.effect?.getTiming().duration),
            frames: (a.effect as KeyframeEffect).getKeyframes().length,
          })),
        ),
      )
      .toEqual([{ duration: 0, frames: 1 }]);
    expect(await markers.first().evaluate((el) => getComputedStyle(el).transform)).toMatch(/^matrix\(/);
    await context.close();
  });
});

test.describe("the stage's tabs and its terminal", () => {
  test('arrow keys move between the tabs, each shows its pane in the same box; the terminal docks in the box; the controls never move', async ({
    page,
  }) => {
    const fig = await openLive(page, '/node-failure/');
    const stage = fig.locator('[data-testid="figure-stage"]');
    const forward = fig.getByRole('button', { name: 'Step forward', exact: true });
    const before = { stage: (await stage.boundingBox())!.height, forward: await offset(fig, forward) };
    // The hero first: this figure opens on its own panel, the Lease clock's timeline.
    const hero = fig.getByRole('tab', { name: 'Lease clock', exact: true });
    await expect(hero).toHaveAttribute('aria-selected', 'true');
    await expect(fig.getByTestId('failure-timeline')).toBeVisible();
    await expect(fig.getByTestId('failure-timeline').locator('[aria-current="step"]')).toHaveCount(1);
    await hero.focus();
    await page.keyboard.press('ArrowRight');
    const requests = fig.getByRole('tab', { name: 'Requests', exact: true });
    await expect(requests).toBeFocused();
    await expect(requests).toHaveAttribute('aria-selected', 'true');
    await expect(fig.getByTestId('request-log')).toBeVisible();
    await expect(fig.getByTestId('failure-timeline')).toBeHidden();
    await page.keyboard.press('Home');
    await expect(fig.getByRole('tab', { name: 'Cluster', exact: true })).toBeFocused();
    await expect(fig.getByTestId('cluster-canvas')).toBeVisible();
    // A figure key pressed on a tab still acts on the figure (n: next event), and nothing moves.
    const step = await fig.getAttribute('data-step');
    await page.keyboard.press('n');
    await expect(fig).not.toHaveAttribute('data-step', step!);
    await fig.locator('[data-action="terminal"]').click();
    await expect(fig.getByTestId('terminal')).toBeVisible();
    const after = { stage: (await stage.boundingBox())!.height, forward: await offset(fig, forward) };
    expect(after).toEqual(before);
    // The terminal sits inside the stage's box.
    const [view, term] = await Promise.all([
      fig.locator('.figure-stage__view').boundingBox(),
      fig.getByTestId('terminal').boundingBox(),
    ]);
    expect(term!.y + term!.height).toBeLessThanOrEqual(view!.y + view!.height + 1);
  });
});
