import { chromium } from '@playwright/test';
import { resolveBrowser } from '/work/main/scripts/lib/browser.mjs';
const b = await resolveBrowser();
const browser = await chromium.launch({ executablePath: b.executablePath, args: b.args });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
for (const p of process.argv.slice(2)) {
  await page.goto(`http://127.0.0.1:4390/${p}/`);
  const tops = await page.evaluate(() => [...document.querySelectorAll('h2, [data-testid^="widget-"][data-figure], figure, pre')].slice(0, 14).map(e => (e.tagName==='H2'? 'H2 '+e.textContent.slice(0,25) : e.tagName==='PRE' ? 'pre' : (e.getAttribute('data-testid')||e.id||e.tagName))+':'+Math.round(e.getBoundingClientRect().top + scrollY)+'-'+Math.round(e.getBoundingClientRect().bottom + scrollY)));
  console.log(p, tops.join(' | '));
}
await browser.close();
