import { test as base, expect, type Page, type Request } from '@playwright/test';

/** The site's base path ("" at the root), as the build was made. */
export const BASE = (process.env.SITE_BASE ?? '/').replace(/\/$/, '');

/**
 * Every page a reader navigates, as paths under the base ("/scheduler/"): the build's list
 * (dist/site-pages.json, src/integrations/publish.mjs), which exists with or without SITE_URL (the
 * sitemap needs the site's address). The embeds under /embed/ and the 404 page are not in it.
 */
export async function sitePages(request: import('@playwright/test').APIRequestContext): Promise<string[]> {
  return (await (await request.get(`${BASE}/site-pages.json`)).json()) as string[];
}

/** Records what a page does that it must not: requests off 127.0.0.1, CSP violations, page errors. */
export interface Watch {
  offsite: string[];
  csp: string[];
  errors: string[];
}

export const test = base.extend<{ watch: Watch }>({
  watch: async ({ page }, use) => {
    const w: Watch = { offsite: [], csp: [], errors: [] };
    page.on('request', (req: Request) => {
      const u = new URL(req.url());
      if (u.protocol === 'data:' || u.protocol === 'blob:') return;
      if (u.hostname !== '127.0.0.1') w.offsite.push(req.url());
    });
    page.on('pageerror', (e) => w.errors.push(String(e)));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content.Security.Policy|CSP/i.test(msg.text())) w.csp.push(msg.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __csp: string[] }).__csp ??= [];
        (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    await use(w);
  },
});

/** The CSP violations the page itself saw (securitypolicyviolation events). */
export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

export { expect };
