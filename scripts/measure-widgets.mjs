// How far each inline widget's picture overflows its box (the reader would scroll inside it), on the
// built site: at 360×800 and 1280×900, for every [data-widget] on a chapter, the most its picture's
// content exceeds the box's height and width (and the caption's box its height; and the height its
// picture's box would take to draw all of it, widgets.css's --picture), at the opening, over presses of Next event, and after
// its action and more presses. For looking while fixing layouts (e2e/widgets.spec.ts guards it):
// `node scripts/measure-widgets.mjs [page …]` prints one line a widget (px over; 0 when it fits).
import { chromium } from '@playwright/test';
import { resolveBrowser } from './lib/browser.mjs';
import { serveSite } from './serve.mjs';

const only = process.argv.slice(2);
const PAGES = only.length
  ? only
  : [
      '/control-plane/',
      '/reconcile-loop/',
      '/scheduler/',
      '/rolling-updates/',
      '/node-failure/',
      '/control-plane-outage/',
      '/troubleshooting/',
      '/networking/',
    ];
// MEASURE_WIDTHS=360 measures one width only (320 too, when named) (faster, while fixing the phone's layouts).
const SIZES = [
  { width: 320, height: 800 },
  { width: 360, height: 800 },
  { width: 1280, height: 900 },
].filter((s) => (process.env.MEASURE_WIDTHS ?? '360,1280').split(',').includes(String(s.width)));
const PRESSES = 8;
const PORT = 4398;
const server = await serveSite({ dir: 'dist', port: PORT, base: '' });
const b = await resolveBrowser();
const browser = await chromium.launch({ executablePath: b.executablePath, args: b.args });

/**
 * The picture's overflow now: [px over in height, px over in width, the widget's height, the caption's
 * px over in height, the height the picture's box would take to draw all it has (widgets.css's --picture)].
 */
const overflow = (w) =>
  w.evaluate((el) => {
    const p = el.querySelector('[data-testid="widget-picture"]');
    const c = el.querySelector('[data-testid="widget-caption"]');
    const over = [
      p.scrollHeight - p.clientHeight,
      p.scrollWidth - p.clientWidth,
      Math.round(el.getBoundingClientRect().height),
      c.scrollHeight - c.clientHeight,
    ];
    // Its own height for a moment (CSSOM, which the CSP allows; restored before the next paint).
    p.style.blockSize = 'max-content';
    const natural = p.offsetHeight;
    p.style.blockSize = '';
    return [...over, natural];
  });

/** Clicks `button` if enabled and waits for the widget's step to change; false when it could not. */
async function press(w, button) {
  if (!(await button.isEnabled())) return false;
  const s = await w.getAttribute('data-step');
  await button.click();
  await w
    .page()
    .waitForFunction(([el, was]) => el.getAttribute('data-step') !== was, [await w.elementHandle(), s], {
      timeout: 5000,
    })
    .catch(() => {});
  await w.page().evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return true;
}

/** The worst overflow of one widget over its opening, its steps, and its action's steps. */
async function measure(w) {
  const worst = [0, 0, 0, 0, 0];
  const note = async () => {
    const o = await overflow(w);
    for (let i = 0; i < worst.length; i++) worst[i] = Math.max(worst[i], o[i]);
  };
  await note();
  const next = w.locator('[data-action="next"]');
  for (let i = 0; i < PRESSES && (await press(w, next)); i++) await note();
  await press(w, w.locator('[data-action="reset"]'));
  if (await press(w, w.locator('[data-action="demo"]'))) {
    await note();
    for (let i = 0; i < PRESSES && (await press(w, next)); i++) await note();
  }
  return worst;
}

const rows = new Map();
try {
  for (const size of SIZES) {
    for (const path of PAGES) {
      const page = await browser.newPage({ viewport: size });
      await page.goto(`http://127.0.0.1:${PORT}${path}`);
      for (const w of await page.locator('[data-widget]').all()) {
        const id = await w.getAttribute('data-widget');
        await w.scrollIntoViewIfNeeded();
        await page.waitForFunction((el) => el.getAttribute('data-state')?.startsWith('live'), await w.elementHandle(), {
          timeout: 30_000,
        });
        const row = rows.get(id) ?? { id };
        row[size.width] = await measure(w);
        rows.set(id, row);
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
console.log(
  'widget                  360: over h, over w, tall, caption over h, picture box | 1280: the same | 320: the same',
);
for (const r of rows.values())
  console.log(`${r.id.padEnd(24)}${String(r[360] ?? '').padEnd(24)}${String(r[1280] ?? '').padEnd(24)}${r[320] ?? ''}`);
