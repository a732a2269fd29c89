import { chromium } from '@playwright/test';
import { resolveBrowser } from './lib/browser.mjs';
const b = await resolveBrowser();
const browser = await chromium.launch({ executablePath: b.executablePath, args: b.args });
const [url, out, width, scheme, action] = process.argv.slice(2);
const page = await browser.newPage({ viewport: { width: Number(width || 1280), height: 900 }, colorScheme: scheme || 'light' });
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
await page.goto(url);
const fig = page.locator(`[data-testid="figure-${process.env.FIG || "cluster"}"]`);
await fig.scrollIntoViewIfNeeded();
await page.waitForFunction((id) => document.querySelector(`[data-testid="figure-${id}"]`)?.getAttribute('data-state')?.startsWith('live'), process.env.FIG || 'cluster', { timeout: 15000 }).catch(() => errors.push('never live'));
if (action) {
  for (const a of action.split(',')) {
    if (a.startsWith('demo:')) await page.locator(`[data-demo="${a.slice(5)}"]`).click();
    else if (a === 'focus') await fig.locator('[data-demo]').first().focus();
    else if (a.startsWith('wait:')) await page.waitForTimeout(Number(a.slice(5)));
    else await page.keyboard.press(a);
  }
}
console.log('state', await fig.getAttribute('data-state'), 'step', await fig.getAttribute('data-step'));
await fig.screenshot({ path: out });
console.log(errors.join('\n'));
await browser.close();
