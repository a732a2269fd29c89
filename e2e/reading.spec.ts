import { BASE, expect, test } from './fixtures';

test('the theme control cycles system → dark → light → system, persists across pages and reloads, with no flash', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${BASE}/control-plane/`);
  const html = page.locator('html');
  const toggle = page.locator('[data-theme-toggle]');
  await expect(toggle).toHaveAccessibleName('Theme: System');
  await expect(html).not.toHaveAttribute('data-theme');
  const bgLight = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  // From the system's light look, the first press always changes what the reader sees.
  await toggle.click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(toggle).toHaveAccessibleName('Theme: Dark');
  const bgDark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bgDark).not.toBe(bgLight);
  // Another page starts dark before its first paint: the inline script runs in <head>.
  await page.goto(`${BASE}/scheduler/`);
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await page.reload();
  await expect(toggle).toHaveAccessibleName('Theme: Dark');
  await toggle.click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(toggle).toHaveAccessibleName('Theme: Light');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'light');
  // The third press returns to following the system, and forgets the choice.
  await page.locator('[data-theme-toggle]').click();
  await expect(html).not.toHaveAttribute('data-theme');
  await expect(toggle).toHaveAccessibleName('Theme: System');
  expect(await page.evaluate(() => localStorage.getItem('ds-theme'))).toBeNull();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(bgDark);
});

test('the system dark preference is followed when the reader has not chosen', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${BASE}/`);
  await expect(page.locator('[data-theme-toggle]')).toHaveAccessibleName('Theme: System');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(17, 20, 24)');
  // From the system's dark look, the first press goes light.
  await page.locator('[data-theme-toggle]').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test('copy-link copies the section URL', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`${BASE}/node-failure/`);
  const h2 = page.locator('.prose h2').first();
  const id = await h2.getAttribute('id');
  await h2.getByRole('button', { name: /Copy link to section/ }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`${new URL(page.url()).origin}${BASE}/node-failure/#${id}`);
});

test('search finds a term on another page and links to it', async ({ page, watch }) => {
  await page.goto(`${BASE}/`);
  await page.locator('#site-search-q').fill('tolerationSeconds');
  await page.locator('#site-search-q').press('Enter');
  await expect(page).toHaveURL(/\/search\/\?q=tolerationSeconds/);
  await expect(page.getByRole('status')).toContainText(/result/);
  const first = page.locator('.search-results a').first();
  await expect(first).toBeVisible();
  const hrefs = await page.locator('.search-results a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(hrefs.some((h) => h?.includes('/node-failure/'))).toBe(true);
  // Searching again from the search page keeps working and reports no results clearly.
  await page.locator('#search-q').fill('zzqxnotaword');
  await page.locator('#search-q').press('Enter');
  await expect(page.getByRole('status')).toHaveText(/No results for “zzqxnotaword”/);
  expect(watch.offsite).toEqual([]);
});

test('a text page loads no script files and Pagefind only on the search page', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto(`${BASE}/scheduler/`);
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual([]);
  await page.goto(`${BASE}/search/?q=etcd`);
  await expect(page.locator('.search-results a').first()).toBeVisible();
  expect(scripts.some((s) => s.includes('/pagefind/'))).toBe(true);
});

test('previous and next chapter links follow the reading order', async ({ page }) => {
  await page.goto(`${BASE}/scheduler/`);
  await expect(page.locator('a[rel="prev"]')).toHaveAttribute('href', `${BASE}/reconcile-loop/`);
  await expect(page.locator('a[rel="next"]')).toHaveAttribute('href', `${BASE}/rolling-updates/`);
  // The networking chapter stands between the rollouts and the failures.
  await page.goto(`${BASE}/networking/`);
  await expect(page.locator('a[rel="prev"]')).toHaveAttribute('href', `${BASE}/rolling-updates/`);
  await expect(page.locator('a[rel="next"]')).toHaveAttribute('href', `${BASE}/node-failure/`);
  await page.goto(`${BASE}/control-plane/`);
  await expect(page.locator('a[rel="prev"]')).toHaveCount(0);
});

test('keyboard alone reaches every control, each with a visible focus indicator', async ({ page }) => {
  for (const path of [`${BASE}/`, `${BASE}/rolling-updates/`, `${BASE}/glossary/`, `${BASE}/search/?q=pod`]) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    // Number every control a reader can see; Tab must reach each of them.
    // (A glossary definition's link appears only while its term has focus, so it adds a Tab stop
    // that is not counted here; the loop allows for every control in the page, shown or not.)
    const [total, stops] = await page.evaluate(() => {
      const sel = 'a[href], button:not([disabled]), input:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';
      // A composite widget (a toolbar, the request log) is one Tab stop whose other items take tabindex -1
      // and are reached with the arrow keys (WAI-ARIA APG), so only the Tab stops are counted.
      const all = [...document.querySelectorAll<HTMLElement>(sel)].filter((el) => el.getAttribute('tabindex') !== '-1');
      const els = all.filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden');
      els.forEach((el, i) => el.setAttribute('data-kb', String(i)));
      return [els.length, all.length];
    });
    const reached = new Set<string>();
    const noRing: string[] = [];
    for (let i = 0; i < stops + 3; i++) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const cs = getComputedStyle(el);
        return {
          kb: el.getAttribute('data-kb') ?? `?${el.tagName}`,
          ring: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2,
        };
      });
      if (!info) continue;
      reached.add(info.kb);
      if (!info.ring) noRing.push(info.kb);
    }
    expect(noRing, `${path}: focused without a visible ring`).toEqual([]);
    const missed = Array.from({ length: total }, (_, i) => String(i)).filter((i) => !reached.has(i));
    expect(missed, `${path}: controls Tab never reached`).toEqual([]);
  }
});

test('the skip link is the first stop and jumps to the content', async ({ page }) => {
  await page.goto(`${BASE}/scheduler/`);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
});

test('a glossary tooltip shows on keyboard focus', async ({ page }) => {
  await page.goto(`${BASE}/control-plane/`);
  const term = page.locator('.term__button').first();
  await term.focus();
  const tipId = await term.getAttribute('aria-describedby');
  await expect(page.locator(`[id="${tipId}"]`)).toBeVisible();
});

test('Escape dismisses a glossary tooltip (WCAG 1.4.13)', async ({ page }) => {
  await page.goto(`${BASE}/control-plane/`);
  const term = page.locator('.term__button').first();
  await term.focus();
  const tip = page.locator(`[id="${await term.getAttribute('aria-describedby')}"]`);
  await expect(tip).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();
});
