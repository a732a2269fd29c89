import { test as base, expect, type Page, type Request } from '@playwright/test';

/** The site's base path ("" at the root), as the build was made. */
export const BASE = (process.env.SITE_BASE ?? '/').replace(/\/$/, '');

/** Every page the sitemap lists, as paths under the base ("/scheduler/"), plus the 404 page. */
export async function sitePages(request: import('@playwright/test').APIRequestContext): Promise<string[]> {
  const index = await (await request.get(`${BASE}/sitemap-0.xml`)).text();
  const paths = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  return paths;
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
