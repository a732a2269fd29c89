import AxeBuilder from '@axe-core/playwright';
import { BASE, MISSING_PAGE, cspViolations, expect, sitePages, test } from './fixtures';

test.describe('every page', () => {
  // Two tests open a page that does not exist on purpose; its 404 is the one console error allowed.
  test.use({ allowFaults: [MISSING_PAGE] });
  test("the page list has the home page, the fixed chapter slugs, the glossary and the instructors' page", async ({
    request,
  }) => {
    const pages = await sitePages(request);
    for (const slug of [
      '',
      'control-plane/',
      'reconcile-loop/',
      'scheduler/',
      'rolling-updates/',
      'networking/',
      'node-failure/',
      'control-plane-outage/',
      'troubleshooting/',
      'glossary/',
      'for-instructors/',
    ]) {
      expect(pages).toContain(`${BASE}/${slug}`);
    }
  });

  test('renders with a title, one h1, landmarks, no CSP violation and no request off the site', async ({
    page,
    request,
    watch,
  }) => {
    for (const path of [...(await sitePages(request)), `${BASE}/search/?q=lease`, `${BASE}/no-such-page/`]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(path.includes('no-such-page') ? 404 : 200);
      await expect(page.locator('h1'), path).toHaveCount(1);
      await expect(page.locator('main#main'), path).toBeVisible();
      await expect(page.locator('header nav[aria-label="Site"]'), path).toBeVisible();
      expect(await page.title(), path).toMatch(/Desired State/);
      await page.waitForLoadState('networkidle');
      expect(await cspViolations(page), path).toEqual([]);
    }
    expect(watch.csp).toEqual([]);
    expect(watch.offsite).toEqual([]);
    expect(watch.errors).toEqual([]);
  });

  // Four tests (each scheme, every other page) so the two CI workers share the longest check.
  for (const scheme of ['light', 'dark'] as const) {
    for (const half of [0, 1]) {
      test(`axe finds no WCAG 2.2 AA violation in ${scheme} mode, pages ${half ? 'even' : 'odd'}`, async ({
        page,
        request,
      }) => {
        test.setTimeout(150_000);
        await page.emulateMedia({ colorScheme: scheme });
        const paths = [...(await sitePages(request)), `${BASE}/search/?q=lease`, `${BASE}/no-such-page/`].filter(
          (_, i) => i % 2 === half,
        );
        for (const path of paths) {
          await page.goto(path);
          await page.waitForLoadState('networkidle');
          const results = await new AxeBuilder({ page })
            .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
            .analyze();
          const summary = results.violations.map(
            (v) =>
              `${v.id}: ${v.nodes
                .slice(0, 3)
                .map((n) => n.target.join(' '))
                .join(' | ')}`,
          );
          expect(summary, `${scheme} ${path}`).toEqual([]);
        }
      });
    }
  }

  test('every h2 and h3 in an article has an id, a visible anchor link and a copy-link button', async ({
    page,
    request,
  }) => {
    // It walks every page's headings one by one (about 15 s on an idle CI machine, twice that on a busy one).
    test.setTimeout(90_000);
    for (const path of await sitePages(request)) {
      await page.goto(path);
      const headings = page.locator('.prose h2, .prose h3');
      const n = await headings.count();
      for (let i = 0; i < n; i++) {
        const h = headings.nth(i);
        const id = await h.getAttribute('id');
        expect(id, `${path} heading ${i}`).toMatch(/^[a-z0-9-]+$/);
        await expect(h.locator(`a.heading__anchor[href="#${id}"]`)).toBeVisible();
        await expect(h.locator(`button[data-copy="${id}"]`)).toBeVisible();
      }
      // The table of contents points at headings that exist.
      for (const href of await page.locator('nav.toc a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
        await expect(page.locator(`[id="${href!.slice(1)}"]`), `${path} toc ${href}`).toHaveCount(1);
      }
    }
  });

  test('component CSS is applied (the CSP does not block stylesheets)', async ({ page }) => {
    await page.goto(`${BASE}/`);
    const header = page.locator('.site-header');
    await expect(header).toHaveCSS('border-bottom-style', 'solid');
    await page.goto(`${BASE}/control-plane/`);
    // A figure's frame and a prediction's bar come from component classes in MDX.
    await expect(page.locator('.figure__body').first()).toHaveCSS('border-top-style', 'solid');
    await expect(page.locator('.predict').first()).toHaveCSS('border-left-width', '4px');
    await expect(page.locator('svg.dg').first()).toHaveCSS('display', 'block');
  });

  test('a page without JavaScript still reads well and shows its figures', async ({ browser }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/rolling-updates/`);
    await expect(page.locator('h1')).toBeVisible();
    // The diagrams, and the live figure's first frame (its controls, which nothing could run, are not drawn).
    await expect(page.locator('figure svg:visible').first()).toBeVisible();
    await expect(page.getByTestId('cluster-canvas').first()).toBeVisible();
    await expect(page.locator('.kit-controls').first()).toBeHidden();
    await expect(page.locator('.theme-toggle')).toBeHidden();
    // The search box still works, as a plain form.
    await page.locator('#site-search-q').fill('lease');
    await page.locator('#site-search-q').press('Enter');
    await expect(page).toHaveURL(/\/search\/\?q=lease/);
    await ctx.close();
  });

  test('nothing overflows sideways at 320 px', async ({ page, request }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    for (const path of await sitePages(request)) {
      await page.goto(path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });

  test('no figure text is cut off: every label lies inside its diagram', async ({ page, request }) => {
    for (const path of await sitePages(request)) {
      await page.goto(path);
      const outside = await page.evaluate(() =>
        [...document.querySelectorAll<SVGSVGElement>('svg.dg')].flatMap((svg) => {
          const box = svg.getBoundingClientRect();
          return [...svg.querySelectorAll('text')]
            .filter((t) => {
              const r = t.getBoundingClientRect();
              return (
                r.width > 0 &&
                (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
              );
            })
            .map((t) => `${svg.closest('figure')?.id}: "${t.textContent}"`);
        }),
      );
      expect(outside, path).toEqual([]);
    }
  });

  test('the 404 page answers 404 and links back to the chapters', async ({ page }) => {
    const res = await page.goto(`${BASE}/nope/`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('link', { name: /scheduler/i }).first()).toBeVisible();
  });

  test('the print stylesheet hides the chrome and prints every prediction with its answer opened', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${BASE}/scheduler/`);
    await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
    await expect(page.locator('.site-header')).toBeHidden();
    await expect(page.locator('nav.pager')).toBeHidden();
    await expect(page.locator('nav.toc')).toBeHidden();
    await expect(page.locator('.heading__tools').first()).toBeHidden();
    await expect(page.locator('h1')).toBeVisible();
    // The answers print although no <details> was opened, under an "Answer" label instead of the button.
    const answers = page.locator('.predict__body');
    expect(await answers.count()).toBeGreaterThanOrEqual(2);
    for (const answer of await answers.all()) await expect(answer).toBeVisible();
    expect(await page.locator('details.predict__answer[open]').count()).toBe(0);
    await expect(page.locator('.predict__answer summary').first()).toBeHidden();
    // Paper is light even when the screen was dark, and nothing is cut at the right margin.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
    expect(
      await page
        .locator('pre')
        .first()
        .evaluate((el) => getComputedStyle(el).whiteSpace),
    ).toBe('pre-wrap');
  });
});
