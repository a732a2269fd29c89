// Screenshots of every live figure as a reader sees it (the built site served with its _headers):
// each figure page at 360×800 and 1280×900, light and dark, the figure scrolled to the top of the
// screen once live. For looking, not for testing: `node scripts/screenshots.mjs [out-dir] [page …]`
// writes <out>/<page>-<width>-<scheme>.png (or .jpg with SHOTS_JPEG=1, smaller, for a note) and prints
// each figure's height. SHOTS_NEXT=n presses "Next event that matters" n times before each shot.
// SHOTS_WIDGETS=1 shoots each inline widget instead (<page>-<widget>-<width>-<scheme>.png), after
// its action and SHOTS_NEXT presses of its Next event when SHOTS_NEXT is set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { resolveBrowser } from './lib/browser.mjs';
import { serveSite } from './serve.mjs';

const [out = 'reports/screenshots', ...only] = process.argv.slice(2);
const PAGES = only.length
  ? only
  : [
      '/',
      '/control-plane/',
      '/scheduler/',
      '/rolling-updates/',
      '/node-failure/',
      '/control-plane-outage/',
      '/troubleshooting/',
      '/networking/',
    ];
const PORT = 4397;
// SHOTS_WIDTH=360 (or 320, shot only when named) and SHOTS_SCHEME=dark take one of each (fewer shots while looking at one thing).
const VIEWPORTS = [
  { width: 320, height: 800 },
  { width: 360, height: 800 },
  { width: 1280, height: 900 },
].filter((v) => (process.env.SHOTS_WIDTH ?? '360,1280').split(',').includes(String(v.width)));
const SCHEMES = ['light', 'dark'].filter((c) => !process.env.SHOTS_SCHEME || c === process.env.SHOTS_SCHEME);
mkdirSync(out, { recursive: true });
const server = await serveSite({ dir: 'dist', port: PORT, base: '' });
const b = await resolveBrowser();
const browser = await chromium.launch({ executablePath: b.executablePath, args: b.args });
/** SHOTS_WIDGETS=1: each [data-widget] of the page, live, after its action and SHOTS_NEXT presses. */
async function shootWidgets(page, path, viewport, colorScheme) {
  for (const w of await page.locator('[data-widget]').all()) {
    await w.scrollIntoViewIfNeeded();
    await page.waitForFunction((el) => el.getAttribute('data-state')?.startsWith('live'), await w.elementHandle(), {
      timeout: 30_000,
    });
    const presses = Number(process.env.SHOTS_NEXT ?? 0);
    for (let i = 0; i <= presses; i++) {
      const button = w.locator(i ? '[data-action="next"]' : '[data-action="demo"]');
      if (!presses || !(await button.isEnabled())) break;
      const step = await w.getAttribute('data-step');
      await button.click();
      await page
        .waitForFunction(([el, s]) => el.getAttribute('data-step') !== s, [await w.elementHandle(), step], {
          timeout: 5000,
        })
        .catch(() => {});
    }
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const name = `${path.replace(/\//g, '') || 'home'}-${await w.getAttribute('data-widget')}-${viewport.width}-${colorScheme}.png`;
    await w.screenshot({ path: join(out, name) });
    console.log(`${name}: ${Math.round((await w.boundingBox())?.height ?? 0)} px tall`);
  }
}

try {
  for (const path of PAGES) {
    for (const viewport of VIEWPORTS) {
      for (const colorScheme of SCHEMES) {
        const page = await browser.newPage({ viewport, colorScheme });
        await page.goto(`http://127.0.0.1:${PORT}${path}`);
        if (process.env.SHOTS_WIDGETS === '1') {
          await shootWidgets(page, path, viewport, colorScheme);
          await page.close();
          continue;
        }
        const fig = page.locator('[data-figure][data-state]').first();
        await fig.scrollIntoViewIfNeeded();
        await page.waitForFunction(
          () => document.querySelector('[data-figure][data-state]')?.getAttribute('data-state')?.startsWith('live'),
          null,
          { timeout: 30_000 },
        );
        // SHOTS_NEXT=n: n presses of "Next event that matters" first (a moment with requests travelling).
        for (let i = 0; i < Number(process.env.SHOTS_NEXT ?? 0); i++) {
          const step = await fig.getAttribute('data-step');
          await fig.locator('[data-demo]').first().focus();
          await page.keyboard.press('n');
          await page
            .waitForFunction(
              ([s]) => document.querySelector('[data-figure][data-state]')?.getAttribute('data-step') !== s,
              [step],
              { timeout: 5000 },
            )
            .catch(() => {});
        }
        await fig.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const box = await fig.boundingBox();
        const jpeg = process.env.SHOTS_JPEG === '1';
        const name = `${path.replace(/\//g, '') || 'home'}-${viewport.width}-${colorScheme}.${jpeg ? 'jpg' : 'png'}`;
        await page.screenshot({ path: join(out, name), ...(jpeg ? { type: 'jpeg', quality: 60 } : {}) });
        console.log(`${name}: figure ${Math.round(box?.height ?? 0)} px tall`);
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  server.close();
}
