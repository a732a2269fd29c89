// The site as a reader gets it where it is published (issue 24): served with dist/_headers applied
// (scripts/serve.mjs, playwright.config.ts), every page and every embed, at a phone's and a
// laptop's width, light and dark, scrolled through so every island hydrates; each figure goes live
// and steps; nothing on any page errs (the guard in fixtures.ts fails a test on any page error,
// console error or CSP violation). Tagged @published: scripts/e2e-base.mjs runs these again on a
// build made under a base path.
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { BASE, expect, sitePages, test } from './fixtures';
import { CHAPTER_FIGURE_ROWS } from './registry';

/** Every chapter figure's embed, and the terminal variant's. */
const EMBEDS = [...CHAPTER_FIGURE_ROWS.map((r) => r.id), 'terminal'];
const VIEWPORTS = [
  { width: 360, height: 800 },
  { width: 1280, height: 900 },
];
const SCHEMES = ['light', 'dark'] as const;

/** Scrolls from top to bottom a screen at a time, as a reader would, so every client:visible island hydrates. */
async function scrollThrough(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const screen = page.viewportSize()!.height;
  for (let y = 0; y <= height; y += Math.round(screen * 0.8)) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    // Two frames, or 200 ms when the page gets none (a background page's rAF can stall: it hung a CI run 9 minutes once).
    await page.evaluate(
      () =>
        new Promise((r) => {
          requestAnimationFrame(() => requestAnimationFrame(r));
          setTimeout(r, 200);
        }),
    );
  }
}

/** Every figure on the page goes live, and one step forward moves it. */
async function figuresGoLiveAndStep(page: Page): Promise<number> {
  const figures = page.locator('[data-figure][data-state]');
  const n = await figures.count();
  for (let i = 0; i < n; i++) {
    const fig = figures.nth(i);
    await fig.scrollIntoViewIfNeeded();
    await expect(fig, `figure ${await fig.getAttribute('data-figure')} goes live`).toHaveAttribute(
      'data-state',
      /^live /,
      { timeout: 30_000 },
    );
    const step = Number(await fig.getAttribute('data-step'));
    await fig.getByRole('button', { name: 'Step forward', exact: true }).click();
    await expect(fig).not.toHaveAttribute('data-step', String(step));
  }
  return n;
}

test.describe('every page as published @published', () => {
  test('the headers a host sends come with every page: one CSP, HSTS, isolation', async ({ request }) => {
    for (const path of [...(await sitePages(request)), ...EMBEDS.map((e) => `${BASE}/embed/${e}/`)]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      const h = res.headers();
      expect(h['content-security-policy'], path).toMatch(/script-src 'self'/);
      expect(h['content-security-policy'], path).not.toContain(', ');
      expect(h['strict-transport-security'], path).toMatch(/max-age=/);
      expect(h['cross-origin-resource-policy'], path).toBe(path.includes('/embed/') ? 'cross-origin' : 'same-origin');
    }
  });

  // One test per kind, width and scheme, so the two CI workers share them.
  for (const kind of ['pages', 'embeds'] as const) {
    for (const viewport of VIEWPORTS) {
      for (const colorScheme of SCHEMES) {
        test(`${kind} at ${viewport.width} px, ${colorScheme}: the script runs, figures go live and step, nothing errs`, async ({
          browser,
          request,
        }) => {
          const paths = kind === 'pages' ? await sitePages(request) : EMBEDS.map((e) => `${BASE}/embed/${e}/`);
          test.setTimeout(paths.length * 45_000);
          const context = await browser.newContext({ viewport, colorScheme });
          const page = await context.newPage();
          for (const path of paths) {
            await page.goto(path);
            // The inline theme script ran (the CSP allows it): the page takes its JavaScript face.
            await expect(page.locator('html'), `${path}: the theme script ran`).toHaveClass(/(^|\s)js(\s|$)/);
            await scrollThrough(page);
            await figuresGoLiveAndStep(page);
          }
          await context.close();
        });
      }
    }
  }
});

/** A host page on a second origin: the same loopback address under another port (Chromium refuses a public origin framing a loopback one). */
async function hostServer(body: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/course.html`, server };
}

test.describe('embeds on another origin, under the real headers @published', () => {
  for (const id of EMBEDS) {
    test(`the ${id} embed's own snippet goes live and steps in a course page`, async ({ page, request, baseURL }) => {
      // The snippet exactly as the oEmbed document gives it (its sandbox attribute included).
      const oembed = (await (await request.get(`${BASE}/embed/${id}/oembed.json`)).json()) as { html: string };
      const snippet = oembed.html.replace(/src="(\/[^"]*)"/, (_m, p: string) => `src="${baseURL}${p}"`);
      expect(snippet).toMatch(/sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"/);
      const { url, server } = await hostServer(
        `<!doctype html><html lang="en"><title>A course</title><h1>Week 3</h1>${snippet}</html>`,
      );
      try {
        await page.goto(url);
        const frame = page.frameLocator('iframe');
        const fig = frame.locator('[data-figure][data-state]').first();
        await expect(fig).toHaveAttribute('data-state', /^live /, { timeout: 30_000 });
        expect(await page.frames()[1].evaluate(() => self.origin)).toBe('null');
        const step = Number(await fig.getAttribute('data-step'));
        await fig.getByRole('button', { name: 'Step forward', exact: true }).click();
        await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBeGreaterThan(step);
      } finally {
        server.close();
      }
    });
  }
});

test('with its script blocked, a page shows no control that only its script could run @published', async ({
  browser,
}) => {
  // A host whose policy lacked the theme script's hash would block it exactly as this context does.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const path of [`${BASE}/`, `${BASE}/reconcile-loop/`]) {
    await page.goto(path);
    await expect(page.locator('html')).not.toHaveClass(/(^|\s)js(\s|$)/);
    await expect(page.locator('[data-theme-toggle]'), `${path}: theme control`).toBeHidden();
    for (const sel of ['.heading__copy', '.code__copy', '.figure-live__link', '.demo-bar', '.kit-controls']) {
      const all = page.locator(sel);
      for (let i = 0; i < (await all.count()); i++) await expect(all.nth(i), `${path}: ${sel}`).toBeHidden();
    }
    // What it reads is all there: the article and each figure's first frame and story.
    await expect(page.locator('main h1')).toBeVisible();
    await expect(page.locator('[data-testid="cluster-canvas"]').first()).toBeVisible();
  }
  await context.close();
});
