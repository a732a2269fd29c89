/**
 * The Content-Security-Policy of the built site is complete: on every page, every inline <script>
 * and <style> is allowed by its hash in both the page's <meta> policy and the policy `_headers`
 * sends for its path, the two policies agree (the header's is the meta's plus frame-ancestors), a
 * page gets exactly one CSP header (two matching rules would enforce two policies), no element has
 * a style="" attribute (a hash cannot allow one), and the isolation headers are there. A host that
 * sends the header blocks an inline script the meta policy could not (a meta policy covers only
 * what is parsed after it), so this is checked on the files, page by page, naming what is missing.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createReport } from './lib/report.mjs';
import { headersFor, parseHeaders } from './lib/headers.mjs';
import { basePath, htmlPages, read } from './lib/site.mjs';
import { metaCsp } from '../src/integrations/publish.mjs';

const dist = process.argv[2] ?? 'dist';
const base = basePath();
const report = createReport('csp');
const rules = parseHeaders(readFileSync(join(dist, '_headers'), 'utf8'));

/** The sources of one directive of a policy ("script-src" → ["'self'", "'sha256-…'"]). */
function sources(policy, directive) {
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name === directive) return values;
  }
  return [];
}

/** Inline scripts that run (no src, a JavaScript type) and inline styles, with their hashes. */
function inlineCode(html) {
  const out = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1];
    if (/\ssrc=/.test(attrs)) continue;
    const type = attrs.match(/\stype="([^"]*)"/)?.[1];
    if (type && !/^(module|text\/javascript|application\/javascript)$/i.test(type)) continue;
    out.push({ kind: 'script-src', code: m[2] });
  }
  for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) out.push({ kind: 'style-src', code: m[1] });
  return out.map((x) => ({ ...x, hash: `'sha256-${createHash('sha256').update(x.code).digest('base64')}'` }));
}

const pages = htmlPages(dist);
for (const page of pages) {
  const html = read(page.file);
  const urlPath = `${base}${page.path === '/404' ? '/404.html' : page.path}`;
  const meta = metaCsp(html);
  const headerCsp = headersFor(rules, urlPath)
    .filter(([k]) => k.toLowerCase() === 'content-security-policy')
    .map(([, v]) => v);
  const problems = [];
  if (!meta) problems.push('no <meta> CSP');
  if (headerCsp.length !== 1 || headerCsp[0].includes(', '))
    problems.push(
      `_headers gives ${headerCsp.length === 1 ? 'two merged policies' : `${headerCsp.length} CSP headers`} for ${urlPath}`,
    );
  const header = headerCsp[0] ?? '';
  if (meta && header && header.replace(/; frame-ancestors [^;]*$/, '') !== meta)
    problems.push('the header policy is not the meta policy plus frame-ancestors');
  for (const { kind, code, hash } of inlineCode(html)) {
    const where = `inline ${kind === 'script-src' ? 'script' : 'style'} "${code.slice(0, 40).replace(/\s+/g, ' ')}…" (${hash})`;
    if (meta && !sources(meta, kind).includes(hash)) problems.push(`${where} is not allowed by the <meta> policy`);
    if (header && !sources(header, kind).includes(hash))
      problems.push(`${where} is not allowed by the _headers policy`);
  }
  const styleAttrs = [...html.matchAll(/<[a-z][^>]*\sstyle="[^"]*"/gi)].length;
  if (styleAttrs) problems.push(`${styleAttrs} style="" attribute(s), which a CSP without 'unsafe-inline' drops`);
  report.check(
    `${page.path}: every inline script and style is allowed by both policies`,
    problems.length === 0,
    problems.join('\n      '),
  );
}

// The isolation and transport headers a host sends (src/integrations/publish.mjs).
const get = (path, name) => headersFor(rules, path).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
const home = `${base}/`;
const embed = `${base}/embed/cluster/`;
const asset = `${base}/_astro/x.js`;
report.check(
  'HSTS on every path',
  [home, embed, asset].every((p) => /max-age=\d{8,}/.test(get(p, 'Strict-Transport-Security') ?? '')),
);
report.check(
  "a reader's page is same-origin for COOP and CORP",
  get(home, 'Cross-Origin-Opener-Policy') === 'same-origin' &&
    get(home, 'Cross-Origin-Resource-Policy') === 'same-origin',
);
report.check(
  'an embed and the assets stay loadable from other origins (CORP cross-origin, no COOP, CORS on assets)',
  get(embed, 'Cross-Origin-Resource-Policy') === 'cross-origin' &&
    !get(embed, 'Cross-Origin-Opener-Policy') &&
    get(asset, 'Cross-Origin-Resource-Policy') === 'cross-origin' &&
    get(asset, 'Access-Control-Allow-Origin') === '*',
);
report.check('the site has pages to check', pages.length >= 5, `found ${pages.length}`);
report.finish();
