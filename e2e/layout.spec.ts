import { BASE, expect, sitePages, test } from './fixtures';

/** Every button and button-like link on the page whose label is wider than the box it sits in. */
async function overflowingLabels(page: import('@playwright/test').Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, .icon-button, summary')]
      .filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth)
      .map((el) => `${el.className || el.tagName}: "${el.textContent?.trim()}" ${el.scrollWidth} > ${el.clientWidth}`),
  );
}

test.describe('the header', () => {
  for (const width of [320, 360, 768, 1024, 1280]) {
    test(`at ${width} px: at most two rows (≤ 120 px), search reachable, no label overflows its button`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: 640 });
      for (const path of [`${BASE}/`, `${BASE}/control-plane/`, `${BASE}/glossary/`]) {
        await page.goto(path);
        const box = await page.locator('.site-header').boundingBox();
        expect(box!.height, `${path} header height`).toBeLessThanOrEqual(120);
        // Search is an input with its button on wide screens, an icon link to the search page on narrow ones.
        const search = width < 768 ? page.getByRole('link', { name: 'Search' }) : page.getByRole('searchbox', { name: 'Search the site' });
        await expect(search).toBeVisible();
        await expect(page.locator('[data-theme-toggle]')).toBeVisible();
        expect(await overflowingLabels(page), path).toEqual([]);
      }
      if (width === 320) {
        // Every page, not just the three above.
        for (const path of await sitePages(request)) {
          await page.goto(path);
          expect(await overflowingLabels(page), path).toEqual([]);
        }
      }
    });
  }

  test('the search icon on a phone leads to the search page', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${BASE}/scheduler/`);
    await page.getByRole('link', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/search\/$/);
    await expect(page.getByRole('searchbox')).toBeVisible();
  });
});
