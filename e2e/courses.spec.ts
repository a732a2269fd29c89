// Courses (issue 17): the embeds work in a sandboxed iframe on another origin and post their height;
// the oEmbed documents validate; /for-instructors/ lists every stable anchor and every figure; the
// build's _headers carries the rules; a build without SITE_URL writes no localhost address.
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { BASE, expect, test } from './fixtures';
import { CHAPTER_FIGURE_ROWS } from './registry';

/** The chapters' figures (the registry's rows of that kind). */
const FIGURES = CHAPTER_FIGURE_ROWS.map((r) => r.id);

/** A host page on a second origin (its own server on another port, reached as localhost, not 127.0.0.1). */
async function hostServer(
  html: (embedOrigin: string) => string,
  embedOrigin: string,
): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(html(embedOrigin));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://localhost:${port}/host.html`, server };
}

test.describe('embeds', () => {
  test('an embed runs and steps inside a sandboxed iframe on another origin, and posts its height', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const { url, server } = await hostServer(
      (origin) => `<!doctype html><html lang="en"><title>A course</title>
<script>window.heights = []; addEventListener('message', (e) => { if (e.data && e.data.type === 'desired-state:height') window.heights.push(e.data.height); });</script>
<iframe id="embed" sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" title="A live cluster" width="960" height="900" src="${origin}${BASE}/embed/cluster/"></iframe></html>`,
      baseURL!,
    );
    try {
      await page.goto(url);
      const frame = page.frameLocator('#embed');
      const fig = frame.locator('[data-figure="cluster"][data-state]');
      // The frame's origin is opaque: no storage, and the worker still starts (src/layouts/Embed.astro).
      const inner = page.frames().find((f) => f.url().includes('/embed/cluster/'))!;
      expect(await inner.evaluate(() => self.origin)).toBe('null');
      expect(
        await inner.evaluate(() => {
          try {
            return typeof localStorage.length === 'number' ? 'storage' : 'no storage';
          } catch {
            return 'no storage';
          }
        }),
      ).toBe('no storage');
      await expect(fig).toHaveAttribute('data-state', /^live /, { timeout: 20_000 });
      await expect(fig).toHaveAttribute('data-step', '0');
      await fig.locator('[data-demo]').first().focus();
      await page.keyboard.press('k');
      // Play dwells on the first beat (time to read it); pausing there stands at it.
      await expect(fig).toHaveAttribute('data-state', 'live playing at-beat');
      await page.keyboard.press('k');
      await expect(fig).toHaveAttribute('data-state', 'live paused at-beat');
      const step = Number(await fig.getAttribute('data-step'));
      await page.keyboard.press('l');
      // (After Apply, one step goes over the components' start-up lists at once.)
      await expect.poll(async () => Number(await fig.getAttribute('data-step'))).toBeGreaterThan(step);
      // Only the figure and a link back to its chapter, in a new tab.
      await expect(frame.locator('header, footer, nav[aria-label="Site"]')).toHaveCount(0);
      await expect(frame.getByRole('link', { name: 'Desired State' })).toHaveAttribute('target', '_blank');
      await expect(frame.getByRole('link', { name: 'Desired State' })).toHaveAttribute(
        'href',
        `${BASE}/reconcile-loop/#figure-reconcile-loop-live`,
      );
      // The snippet's sandbox lets that link open the chapter in a normal tab.
      const [chapter] = await Promise.all([
        page.context().waitForEvent('page'),
        frame.getByRole('link', { name: 'Desired State' }).click(),
      ]);
      await chapter.waitForLoadState();
      expect(new URL(chapter.url()).pathname).toBe(`${BASE}/reconcile-loop/`);
      await chapter.close();
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { heights: number[] }).heights.length))
        .toBeGreaterThan(0);
      const heights = await page.evaluate(() => (window as unknown as { heights: number[] }).heights);
      expect(heights.every((h) => Number.isInteger(h) && h > 300)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      server.close();
    }
  });

  test('the terminal embed: the cluster figure with its kubectl line open, which answers typed commands', async ({
    page,
  }) => {
    await page.goto(`${BASE}/embed/terminal/`);
    const fig = page.locator('[data-figure="cluster"][data-state]');
    await expect(fig).toHaveAttribute('data-state', /^live /, { timeout: 20_000 });
    const line = fig.getByRole('textbox', { name: 'kubectl command' });
    await expect(line).toBeVisible();
    await line.focus();
    await line.fill('kubectl get nodes');
    await line.press('Enter');
    await expect(fig.getByRole('log', { name: 'Terminal output' })).toContainText('node-1');
  });

  test('every embed page advertises its oEmbed document, which validates', async ({ page, request, baseURL }) => {
    for (const id of [...FIGURES, 'terminal']) {
      await page.goto(`${BASE}/embed/${id}/`);
      await expect(page.locator(`[data-figure="${id === 'terminal' ? 'cluster' : id}"][data-state]`)).toHaveCount(1);
      await expect(page.locator('[data-pagefind-body]')).toHaveCount(0);
      const link = page.locator('link[rel="alternate"][type="application/json+oembed"]');
      await expect(link).toHaveCount(1);
      const href = new URL((await link.getAttribute('href'))!, page.url()).href;
      expect(href).toBe(`${baseURL}${BASE}/embed/${id}/oembed.json`);
      const res = await request.get(href);
      expect(res.status()).toBe(200);
      const doc = await res.json();
      expect(doc.version).toBe('1.0');
      expect(doc.type).toBe('rich');
      for (const k of ['title', 'provider_name', 'provider_url', 'html'])
        expect(typeof doc[k], `${id} ${k}`).toBe('string');
      for (const k of ['width', 'height']) expect(Number.isInteger(doc[k]) && doc[k] > 0, `${id} ${k}`).toBe(true);
      expect(doc.provider_name).toBe('Desired State');
      // The html is exactly one sandboxed iframe of the embed page.
      const iframe = await page.evaluate((html) => {
        const t = document.createElement('template');
        t.innerHTML = html;
        const els = [...t.content.children];
        const f = els[0] as HTMLIFrameElement | undefined;
        return {
          count: els.length,
          tag: f?.tagName,
          src: f?.getAttribute('src'),
          sandbox: f?.getAttribute('sandbox'),
          title: f?.getAttribute('title'),
          loading: f?.getAttribute('loading'),
          width: f?.getAttribute('width'),
          height: f?.getAttribute('height'),
        };
      }, doc.html);
      expect(iframe).toMatchObject({
        count: 1,
        tag: 'IFRAME',
        sandbox: 'allow-scripts allow-popups allow-popups-to-escape-sandbox',
        loading: 'lazy',
        width: String(doc.width),
        height: String(doc.height),
      });
      expect(iframe.title).toBeTruthy();
      expect(iframe.src).toMatch(new RegExp(`^(https?://[^/]+)?${BASE}/embed/${id}/$`));
    }
  });
});

test('/for-instructors/ lists every stable anchor and every figure with its embed snippet', async ({ page }) => {
  await page.goto(`${BASE}/for-instructors/`);
  const dir = 'content/checklists';
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const slug = file.replace(/\.yaml$/, '');
    const anchors = (parse(readFileSync(join(dir, file), 'utf8')) as { anchors?: string[] }).anchors ?? [];
    for (const a of anchors)
      await expect(page.locator(`a[href="${BASE}/${slug}/#${a}"]`), `${slug}#${a}`).toHaveCount(1);
  }
  for (const id of FIGURES) {
    const section = page.locator(`[data-embed-figure="${id}"]`);
    await expect(section.locator(`a[href="${BASE}/embed/${id}/"]`)).toHaveCount(1);
    await expect(section.locator('pre code')).toContainText(`${BASE}/embed/${id}/" `);
    await expect(section.locator('pre code')).toContainText(
      'sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"',
    );
  }
  // What the page says of the sandbox is what its snippets do: popups are already allowed.
  await expect(page.locator('main')).toContainText(/already has\s*allow-popups allow-popups-to-escape-sandbox/);
  await expect(page.locator('main')).not.toContainText('sandboxed to scripts only');
  await expect(page.locator('#exercises ~ section h3')).toHaveCount(8);
  // Linked from the home page and every footer.
  await page.goto(`${BASE}/`);
  await expect(page.locator(`main a[href="${BASE}/for-instructors/"]`)).toHaveCount(1);
  await expect(page.locator(`footer a[href="${BASE}/for-instructors/"]`)).toHaveCount(1);
});

test.describe('the build', () => {
  test('dist/_headers has the CSP with frame-ancestors, nosniff, referrer and permissions policies', () => {
    const headers = readFileSync('dist/_headers', 'utf8');
    const rules = new Map<string, string[]>();
    let current = '';
    for (const line of headers.split('\n')) {
      if (!line.trim() || line.startsWith('#')) continue;
      if (!line.startsWith(' ')) {
        current = line.trim();
        rules.set(current, []);
      } else rules.get(current)!.push(line.trim());
    }
    const all = rules.get(`${BASE}/*`)!;
    expect(all).toContain('X-Content-Type-Options: nosniff');
    expect(all).toContain('Referrer-Policy: strict-origin-when-cross-origin');
    expect(
      all.some((h) => h.startsWith('Permissions-Policy: ') && h.includes('camera=()') && h.includes('geolocation=()')),
    ).toBe(true);
    const pages = JSON.parse(readFileSync('dist/site-pages.json', 'utf8')) as string[];
    for (const path of [...pages, ...FIGURES.map((f) => `${BASE}/embed/${f}/`)]) {
      const csp = (rules.get(path) ?? []).filter((h) => h.startsWith('Content-Security-Policy: '));
      expect(csp, path).toHaveLength(1);
      // The page's own meta CSP, plus frame-ancestors.
      const file = join('dist', path.slice(BASE.length), 'index.html');
      const meta = readFileSync(file, 'utf8')
        .match(/http-equiv="content-security-policy" content="([^"]*)"/i)![1]
        .replace(/&#39;/g, "'");
      expect(csp[0]).toContain(meta.trim().replace(/;\s*$/, ''));
      expect(csp[0]).toMatch(path.includes('/embed/') ? /; frame-ancestors \*$/ : /; frame-ancestors 'none'$/);
    }
    expect(rules.get(`${BASE}/_astro/*`)).toContain('Access-Control-Allow-Origin: *');
  });

  test('without SITE_URL, no page, sitemap or robots.txt names localhost', () => {
    test.skip(!!process.env.SITE_URL, 'this build has SITE_URL');
    const walk = (d: string): string[] =>
      readdirSync(d).flatMap((n) =>
        statSync(join(d, n)).isDirectory()
          ? n === '_astro' || n === 'pagefind'
            ? []
            : walk(join(d, n))
          : [join(d, n)],
      );
    const files = walk('dist').filter((f) => /\.(html|xml|txt|json)$/.test(f) || f.endsWith('_headers'));
    expect(files.length).toBeGreaterThan(10);
    // As a host in an address (a chapter may quote kube-proxy's nfacct counter "localhost_nps_accepted_pkts").
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toMatch(/\/\/localhost\b|\blocalhost:\d/);
    expect(existsSync('dist/sitemap-index.xml')).toBe(false);
    for (const f of files.filter((x) => x.endsWith('.html')))
      expect(readFileSync(f, 'utf8'), f).not.toMatch(/rel="canonical"/);
  });
});
