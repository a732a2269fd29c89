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
    test(`at ${width} px: at most two rows (≤ 120 px), search reachable, no label overflows its button`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width, height: 640 });
      for (const path of [`${BASE}/`, `${BASE}/control-plane/`, `${BASE}/glossary/`]) {
        await page.goto(path);
        const box = await page.locator('.site-header').boundingBox();
        expect(box!.height, `${path} header height`).toBeLessThanOrEqual(120);
        // Search is an input with its button on wide screens, an icon link to the search page on narrow ones.
        const search =
          width < 768
            ? page.getByRole('link', { name: 'Search' })
            : page.getByRole('searchbox', { name: 'Search the site' });
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
    await expect(page.getByRole('main').getByRole('searchbox')).toBeVisible();
  });
});

test.describe('the contents', () => {
  test('nest every h3 under its h2, and number only the h2 sections', async ({ page, request }) => {
    for (const path of await sitePages(request)) {
      await page.goto(path);
      if ((await page.locator('nav.toc').count()) === 0) continue;
      const structure = await page.evaluate(() => {
        const fromPage: { h2: string; h3: string[] }[] = [];
        for (const h of document.querySelectorAll('.prose h2, .prose h3')) {
          if (h.tagName === 'H2') fromPage.push({ h2: h.id, h3: [] });
          else fromPage.at(-1)!.h3.push(h.id);
        }
        const fromToc = [...document.querySelectorAll('nav.toc .toc__list > li')].map((li) => ({
          h2: li.querySelector(':scope > a')!.getAttribute('href')!.slice(1),
          h3: [...li.querySelectorAll(':scope > .toc__sub a')].map((a) => a.getAttribute('href')!.slice(1)),
        }));
        return { fromPage, fromToc };
      });
      expect(structure.fromToc, path).toEqual(structure.fromPage);
    }
  });

  test('the numbers line up with the first line of a wrapped entry', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${BASE}/control-plane/`);
    await page.locator('.toc__summary').click();
    const entries = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('nav.toc .toc__list > li')].map((li) => {
        const a = li.querySelector<HTMLElement>(':scope > a')!;
        const range = document.createRange();
        range.selectNodeContents(a);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        const number = getComputedStyle(li, '::before');
        return {
          text: a.textContent,
          lines,
          align: getComputedStyle(li).alignItems,
          numberHeight: parseFloat(number.height),
          lineHeight: parseFloat(getComputedStyle(a).lineHeight) + 2,
        };
      }),
    );
    const wrapped = entries.filter((e) => e.lines > 1);
    expect(wrapped.length, 'some entry wraps at 320 px').toBeGreaterThan(0);
    // A one-line number aligned on the first baseline of its entry, not centred on a two-line block.
    for (const e of wrapped) {
      expect(e.align, e.text!).toBe('baseline');
      expect(e.numberHeight, e.text!).toBeLessThanOrEqual(e.lineHeight);
    }
  });

  test('on a wide screen they stay in view as a sidebar and mark the current section', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${BASE}/node-failure/`);
    const toc = page.locator('nav.toc');
    await expect(toc.getByRole('link', { name: 'Force deletion' })).toBeVisible();
    await page.locator('#force-deletion').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById('force-deletion')!.scrollIntoView());
    const box = await toc.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeLessThan(100);
    // The prose sits beside the sidebar, not under it.
    const prose = await page.locator('.prose').boundingBox();
    expect(prose!.x + prose!.width).toBeLessThanOrEqual(box!.x);
    await expect(toc.locator('a:target-current')).toHaveText('Force deletion');
  });

  test('on a phone they start collapsed and open with a tap', async ({ browser }) => {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 700 }, hasTouch: true });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/node-failure/`);
    const link = page.locator('nav.toc').getByRole('link', { name: 'Force deletion' });
    await expect(link).toBeHidden();
    await page.locator('.toc__summary').tap();
    await expect(link).toBeVisible();
    await ctx.close();
  });

  test('a long page offers a way back to the top', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 700 });
    await page.goto(`${BASE}/troubleshooting/`);
    const up = page.getByRole('link', { name: 'Back to top' }).last();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
    await expect(up).toBeVisible();
    await up.click();
    await expect(page).toHaveURL(/#main$/);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(200);
  });
});

test.describe('headings and code', () => {
  test('the copy-link control shows on hover and on keyboard focus, not on every heading at rest', async ({ page }) => {
    await page.goto(`${BASE}/node-failure/`);
    const h2 = page.locator('.prose h2').nth(1);
    const tools = h2.locator('.heading__tools');
    await page.mouse.move(0, 0);
    await expect(tools).toHaveCSS('opacity', '0');
    await h2.hover();
    await expect(tools).toHaveCSS('opacity', '1');
    await page.mouse.move(0, 0);
    await expect(tools).toHaveCSS('opacity', '0');
    await h2.locator('.heading__copy').focus();
    await expect(tools).toHaveCSS('opacity', '1');
    // No grey pill: the button has no border and no background of its own.
    await expect(h2.locator('.heading__copy')).toHaveCSS('border-top-width', '0px');
  });

  test('code blocks are at least 14 px on every page, at every width', async ({ page, request }) => {
    for (const width of [320, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of await sitePages(request)) {
        await page.goto(path);
        const small = await page.evaluate(() =>
          [...document.querySelectorAll('pre, pre *')]
            .filter((el) => el.getClientRects().length > 0 && parseFloat(getComputedStyle(el).fontSize) < 14)
            .map((el) => `${el.tagName}.${el.className} ${getComputedStyle(el).fontSize}`),
        );
        expect(small, `${width} px ${path}`).toEqual([]);
      }
    }
  });

  test('a command is told apart from its output, without keyword colours, and its copy button copies only the commands', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`${BASE}/node-failure/`);
    // A terminal session: "$ " lines are commands (drawn with a prompt), the rest is output.
    const session = page.locator('.code--session').filter({ hasText: 'force deleted' });
    await expect(session.locator('.code__label')).toHaveText('Terminal');
    await expect(session.locator('.cmd')).toHaveText([
      'kubectl delete pod web-c68c68797-nzjqm --grace-period=0 --force',
    ]);
    expect(await session.locator('.cmd').evaluate((el) => getComputedStyle(el, '::before').content)).toContain('$');
    await session.getByRole('button', { name: 'Copy the commands' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'kubectl delete pod web-c68c68797-nzjqm --grace-period=0 --force',
    );
    await page.goto(`${BASE}/reconcile-loop/`);
    const command = page.locator('.code--command').first();
    await expect(command.locator('.code__label')).toHaveText('Command');
    await expect(command.locator('.token')).toHaveCount(0);
    await expect(page.locator('.code--command + .code--output .code__label').first()).toHaveText('Output');
    await command.getByRole('button', { name: 'Copy the command' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'kubectl create deployment web --image=nginx:1.27 --replicas=3',
    );
  });

  test('without JavaScript a command is selected whole with one click, and no dead copy button shows', async ({
    browser,
  }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/reconcile-loop/`);
    const command = page.locator('.code--command').first();
    await expect(command.locator('.code__copy')).toBeHidden();
    await expect(command.locator('.cmd').first()).toHaveCSS('user-select', 'all');
    await command.locator('.cmd').first().click();
    expect(await page.evaluate(() => String(getSelection()))).toBe(
      'kubectl create deployment web --image=nginx:1.27 --replicas=3',
    );
    await ctx.close();
  });
});

test.describe('the home page', () => {
  test('says who it is for, starts with a "Start here" link to chapter 1, and lists numbered chapters with reading times', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${BASE}/`);
    const start = page.getByRole('link', { name: /^Start here/ });
    await expect(start).toHaveAttribute('href', `${BASE}/control-plane/`);
    const box = await start.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(900);
    await expect(page.locator('.hero__for')).toContainText('For');
    // The live cluster figure stands right after the hero (its lede and the start link).
    expect(await page.content()).toMatch(/class="hero__lede"[\s\S]*?<\/section><section class="home-figure"/);
    const cards = page.locator('.chapter-card');
    await expect(cards).toHaveCount(8);
    for (let i = 0; i < 8; i++) {
      await expect(cards.nth(i).locator('.chapter-card__number')).toHaveText(String(i + 1));
      await expect(cards.nth(i).locator('.chapter-card__meta')).toHaveText(/^\d+ min read/);
      await expect(cards.nth(i).getByRole('link')).toHaveAccessibleName(new RegExp(`^Chapter ${i + 1}: `));
    }
  });
});

test.describe('phones', () => {
  test('a tap on a glossary term opens its definition without leaving the page, and the definition links to the glossary', async ({
    browser,
  }) => {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 700 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/node-failure/`);
    const url = page.url();
    const term = page.locator('.term__button').first();
    const tip = page.locator(`[id="${await term.getAttribute('aria-describedby')}"]`);
    await expect(tip).toBeHidden();
    await term.tap();
    await expect(tip).toBeVisible();
    expect(page.url()).toBe(url);
    // The definition sits inside the screen.
    const box = await tip.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    await expect(tip.getByRole('link', { name: /^Glossary: / })).toHaveAttribute('href', /\/glossary\/#/);
    // A tap elsewhere closes it.
    await page.locator('h1').tap();
    await expect(tip).toBeHidden();
    await ctx.close();
  });

  test('tables at 320 px are stacked or scroll with a visible cue, never a clipped column', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    for (const path of await sitePages(request)) {
      await page.goto(path);
      const bad = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.table-scroll')].flatMap((wrap) => {
          const table = wrap.querySelector('table')!;
          const stacked = getComputedStyle(table).display === 'block';
          const scrolls = wrap.scrollWidth > wrap.clientWidth;
          if (stacked && scrolls)
            return [`stacked but still wider than the screen: ${table.textContent!.slice(0, 40)}`];
          if (!stacked && scrolls && !getComputedStyle(wrap).backgroundImage.includes('gradient'))
            return [`scrolls without a cue: ${table.textContent!.slice(0, 40)}`];
          return [];
        }),
      );
      expect(bad, path).toEqual([]);
    }
  });

  test("every figure's text is at least 12 px at 360 px", async ({ page, request }) => {
    await page.setViewportSize({ width: 360, height: 700 });
    for (const path of await sitePages(request)) {
      await page.goto(path);
      const small = await page.evaluate(() =>
        // A drawing that is not shown at this width (a wide layout's twin of a narrow one) has no size.
        [...document.querySelectorAll<SVGSVGElement>('figure svg')]
          .filter((svg) => svg.getClientRects().length > 0)
          .flatMap((svg) => {
            const scale =
              svg.viewBox.baseVal && svg.viewBox.baseVal.width
                ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width
                : 1;
            return [...svg.querySelectorAll('text')]
              .filter((t) => parseFloat(getComputedStyle(t).fontSize) * scale < 11.99)
              .map(
                (t) =>
                  `${svg.closest('figure')?.id}: "${t.textContent}" at ${(parseFloat(getComputedStyle(t).fontSize) * scale).toFixed(1)} px`,
              );
          }),
      );
      expect(small, path).toEqual([]);
    }
  });
});

test.describe('glossary and search', () => {
  test('the glossary has an A–Z bar, the missing terms, and links that say where they lead', async ({ page }) => {
    await page.goto(`${BASE}/glossary/`);
    const bar = page.getByRole('navigation', { name: 'Glossary, A to Z' });
    const letters = bar.getByRole('link');
    expect(await letters.count()).toBeGreaterThan(15);
    for (const href of await letters.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
      await expect(page.locator(`h2[id="${href.slice(1)}"]`)).toHaveCount(1);
    }
    await bar.getByRole('link', { name: 'S', exact: true }).click();
    await expect(page).toHaveURL(/#letter-s$/);
    for (const id of [
      'cordon',
      'drain',
      'daemonset',
      'statefulset',
      'pod-disruption-budget',
      'mirror-pod',
      'leader-election',
      'pod-garbage-collector',
      'taint-eviction-controller',
      'out-of-service-taint',
      'allocatable',
      'preemption',
      'compaction',
      'pod-sandbox',
      'startup-probe',
    ]) {
      await expect(page.locator(`[id="${id}"]`), id).toHaveCount(1);
    }
    const more = page.locator('.glossary__more a');
    for (const text of await more.allTextContents()) expect(text).toMatch(/^Explained in: .+/);
    await expect(page.locator('[id="cordon"]').locator('xpath=..').locator('.glossary__more a')).toHaveText(
      'Explained in: How the scheduler picks a node › Filter, then score',
    );
  });

  test('search links to the matching section, and leaves tooltips and button labels out of the index', async ({
    page,
  }) => {
    await page.goto(`${BASE}/search/?q=tolerationSeconds`);
    await expect(page.locator('.search-results__sections a').first()).toBeVisible();
    const sectionLinks = await page
      .locator('.search-results__sections a')
      .evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent]));
    expect(sectionLinks.some(([href]) => /\/node-failure\/#[a-z0-9-]+$/.test(href!))).toBe(true);
    // Section titles are the headings' own words, without the "#" or the copy button's label.
    for (const [, title] of sectionLinks) expect(title).not.toMatch(/Copy link|#$/);
    // A phrase that appears only in a glossary definition (and in the tooltips that repeat it) is found on the glossary alone.
    await page.goto(`${BASE}/search/?q=${encodeURIComponent('shields a slow start')}`);
    await expect(page.getByRole('status')).toContainText(/result/);
    const pages = await page
      .locator('.search-results__page')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(pages.length).toBeGreaterThan(0);
    for (const href of pages) expect(href).toContain('/glossary/');
  });
});
