import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { headersFor, parseHeaders, patternMatcher } from './headers.mjs';
import { serveSite } from '../serve.mjs';

describe('_headers as Netlify and Cloudflare Pages read it', () => {
  it('matches splats across slashes, placeholders within one segment, and the rest literally', () => {
    expect(patternMatcher('/*')('/a/b/c.js')).toBe(true);
    expect(patternMatcher('/_astro/*')('/_astro/x.js')).toBe(true);
    expect(patternMatcher('/_astro/*')('/scheduler/')).toBe(false);
    expect(patternMatcher('/embed/:id/')('/embed/hub/')).toBe(true);
    expect(patternMatcher('/embed/:id/')('/embed/a/b/')).toBe(false);
    expect(patternMatcher('/a.b/')('/aXb/')).toBe(false);
  });

  it('applies every matching rule, joining the values of a header that two rules set', () => {
    const rules = parseHeaders(
      [
        '# comment',
        '/*',
        '  X-A: 1',
        '  Content-Security-Policy: default-src x',
        '',
        '/p/',
        '  content-security-policy: script-src y',
        '  X-B: 2',
      ].join('\n'),
    );
    expect(headersFor(rules, '/p/')).toEqual([
      ['X-A', '1'],
      ['Content-Security-Policy', 'default-src x, script-src y'],
      ['X-B', '2'],
    ]);
    expect(headersFor(rules, '/q/')).toEqual([
      ['X-A', '1'],
      ['Content-Security-Policy', 'default-src x'],
    ]);
  });

  it('refuses a header line that belongs to no rule', () => {
    expect(() => parseHeaders('  X-A: 1')).toThrow(/line 1/);
  });
});

describe('the static server the tests use', () => {
  it('serves under the base with the rules of _headers, gzip, folder redirects and the 404 page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ds-serve-'));
    mkdirSync(join(dir, 'page'));
    writeFileSync(join(dir, 'index.html'), '<p>home</p>');
    writeFileSync(join(dir, 'page', 'index.html'), '<p>page</p>');
    writeFileSync(join(dir, '404.html'), '<p>missing</p>');
    writeFileSync(join(dir, '_headers'), '/base/*\n  X-All: yes\n\n/base/page/\n  X-Page: yes\n');
    const server = await serveSite({ dir, port: 0, base: '/base' });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${origin}/base/page/`, { headers: { 'accept-encoding': 'gzip' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('x-all')).toBe('yes');
      expect(page.headers.get('x-page')).toBe('yes');
      expect(page.headers.get('content-encoding')).toBe('gzip');
      expect(await page.text()).toBe('<p>page</p>');
      const redirect = await fetch(`${origin}/base/page`, { redirect: 'manual' });
      expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/base/page/']);
      const missing = await fetch(`${origin}/base/nothing/`);
      expect([missing.status, await missing.text()]).toEqual([404, '<p>missing</p>']);
      expect((await fetch(`${origin}/page/`)).status).toBe(404);
      expect((await fetch(`${origin}/base/_headers`)).status).toBe(404);
      expect((await fetch(`${origin}/base/..%2f..%2fetc/passwd`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
