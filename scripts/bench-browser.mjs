// Browser benchmarks of the figures (`npm run bench` runs this after the core's): what one step
// costs the page's main thread (Chrome's own performance counters: layouts and script time per step)
// and Lighthouse's mobile audit of a page with a figure in view. Needs the built site (`npm run build`);
// prints figures and asserts nothing, like the rest of the bench.
//   node scripts/bench-browser.mjs [--steps N] [--no-lighthouse]
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { resolveBrowser } from './lib/browser.mjs';
import { serveSite } from './serve.mjs';

const args = process.argv.slice(2);
const steps = Number(args[args.indexOf('--steps') + 1]) || 40;
const withLighthouse = !args.includes('--no-lighthouse');
const PORT = 4391;
const origin = `http://127.0.0.1:${PORT}`;
const line = (label, value) => console.log(`  ${label.padEnd(52)} ${value}`);
const fmt = (n, d = 1) => n.toFixed(d);

if (!existsSync('dist/index.html')) {
  console.log('\nBrowser: skipped (no built site; run npm run build first)');
  process.exit(0);
}

// Served as a host that reads dist/_headers serves it (CSP header, gzip), so Lighthouse scores what a
// reader gets where the site is published (scripts/serve.mjs).
const server = await serveSite({ dir: 'dist', port: PORT, base: '' });
const stop = () => { try { server.close(); server.closeAllConnections(); } catch { /* already gone */ } };
process.on('exit', stop);

async function waitForServer() {
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(origin + '/')).ok) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the static server did not start');
}

const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

try {
  await waitForServer();
  const b = await resolveBrowser();
  const debugPort = 9333;
  const browser = await chromium.launch({ executablePath: b.executablePath, args: [...b.args, `--remote-debugging-port=${debugPort}`] });
  console.log(`\nBrowser: main-thread cost of one figure step (Chromium from ${b.source})`);
  for (const path of ['/', '/reconcile-loop/']) {
    const page = await browser.newPage({ viewport: { width: 412, height: 860 } });
    await page.goto(origin + path);
    const fig = page.locator('[data-testid="figure-cluster"]');
    await fig.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('[data-testid="figure-cluster"]')?.getAttribute('data-state')?.startsWith('live'));
    await fig.locator('[data-demo]').first().focus();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const layouts = [];
    const script = [];
    const styles = [];
    for (let i = 0; i < steps; i++) {
      const before = await metrics();
      const at = await fig.getAttribute('data-step');
      // One step forward (L): "next event that matters" now jumps several steps and stops at rest.
      await page.keyboard.press('l');
      await page.waitForFunction(([s]) => document.querySelector('[data-testid="figure-cluster"]')?.getAttribute('data-step') !== s, [at]);
      // Let the frame that draws the new step finish before reading the counters.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const after = await metrics();
      layouts.push(after.LayoutCount - before.LayoutCount);
      styles.push(after.RecalcStyleCount - before.RecalcStyleCount);
      script.push((after.ScriptDuration - before.ScriptDuration) * 1000);
    }
    line(`${path}: layouts per step (${steps} steps)`, `p50 ${pct(layouts, 0.5)}, max ${Math.max(...layouts)} (target ≤ 1)`);
    line(`${path}: style recalculations per step`, `p50 ${pct(styles, 0.5)}, max ${Math.max(...styles)}`);
    line(`${path}: main-thread script per step`, `p50 ${fmt(pct(script, 0.5), 2)} ms, p95 ${fmt(pct(script, 0.95), 2)} ms (target ≤ 8 ms)`);
    await page.close();
  }

  if (withLighthouse) {
    console.log('\nLighthouse (mobile) on every page with a live figure');
    const { default: lighthouse } = await import('lighthouse');
    for (const path of ['/', '/reconcile-loop/', '/control-plane/', '/scheduler/', '/rolling-updates/', '/node-failure/', '/control-plane-outage/', '/troubleshooting/']) {
      const result = await lighthouse(origin + path, { port: debugPort, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] });
      const lhr = result.lhr;
      const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
      const audit = (a) => lhr.audits[a]?.numericValue ?? NaN;
      line(`${path}: performance / accessibility / best practices / SEO`, `${score('performance')} / ${score('accessibility')} / ${score('best-practices')} / ${score('seo')} (target ≥ 98)`);
      line(`${path}: CLS, TBT, LCP`, `${fmt(audit('cumulative-layout-shift'), 3)}, ${fmt(audit('total-blocking-time'), 0)} ms (target ≤ 50), ${fmt(audit('largest-contentful-paint'), 0)} ms`);
    }
  }
  await browser.close();
} finally {
  stop();
}
