import { test as base, expect, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';

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

/** The console error of a page a test opens on purpose where nothing is (the document answers 404). */
export const MISSING_PAGE =
  /^console error at http:\/\/[^ ]+\/(no-such-page|nope)\/: Failed to load resource: the server responded with a status of 404/;

/** What any page of a test did wrong, whether or not the test asked: page errors, console errors, CSP violations. */
interface Faults {
  list: string[];
}

/** Listens on one browser context: every page error, console error and CSP violation of its pages. */
function listen(context: BrowserContext, faults: Faults): void {
  context.on('weberror', (e) => faults.list.push(`page error: ${e.error().message}`));
  context.on('console', (msg) => {
    if (msg.type() === 'error')
      faults.list.push(`console error at ${msg.location().url || msg.page()?.url() || '?'}: ${msg.text()}`);
  });
  // A violation the page reports itself (securitypolicyviolation), also in frames and workers' owners.
  void context
    .exposeBinding('__dsViolation', ({ frame }, text: string) => {
      faults.list.push(`CSP violation on ${frame.url()}: ${text}`);
    })
    .catch(() => {});
  void context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __csp: string[]; __dsViolation?: (t: string) => void };
      w.__csp ??= [];
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
      w.__dsViolation?.(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
}

export const test = base.extend<{ watch: Watch; allowFaults: RegExp[]; guard: void }>({
  /**
   * Faults a test provokes on purpose (a chunk it makes fail to load logs "Failed to load resource"):
   * `test.use({ allowFaults: [/…/] })`. Everything else any page does wrong fails the test.
   */
  allowFaults: [[], { option: true }],
  // Every test, asked or not: no page error, console error or CSP violation on any page of its
  // context or of a context it makes itself (browser.newContext / newPage are watched too).
  guard: [
    async ({ context, browser, allowFaults }, use) => {
      const faults: Faults = { list: [] };
      listen(context, faults);
      const b = browser;
      const newContext = b.newContext.bind(b);
      const newPage = b.newPage.bind(b);
      b.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const c = await newContext(...args);
        listen(c, faults);
        return c;
      };
      b.newPage = async (...args: Parameters<Browser['newPage']>) => {
        const p = await newPage(...args);
        listen(p.context(), faults);
        return p;
      };
      try {
        await use();
      } finally {
        b.newContext = newContext;
        b.newPage = newPage;
      }
      const unexpected = faults.list.filter((f) => !allowFaults.some((re) => re.test(f)));
      expect(unexpected, 'page errors, console errors or CSP violations').toEqual([]);
    },
    { auto: true },
  ],
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
    await use(w);
  },
});

/** The CSP violations the page itself saw (securitypolicyviolation events). */
export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

export { expect };
