import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrowser } from './browser.mjs';

const SYSTEM = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

describe('resolveBrowser', () => {
  it('takes CHROMIUM_PATH first, and refuses one that does not exist', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ds-browser-'));
    const fake = join(dir, 'chrome');
    writeFileSync(fake, '');
    await expect(resolveBrowser({ CHROMIUM_PATH: fake })).resolves.toMatchObject({
      source: 'CHROMIUM_PATH',
      executablePath: fake,
    });
    await expect(resolveBrowser({ CHROMIUM_PATH: join(dir, 'missing') })).rejects.toThrow(/does not exist/);
  });

  it('falls back to a browser that exists, and never with flags that would weaken what e2e checks', async () => {
    const b = await resolveBrowser({});
    if (b.executablePath) expect(existsSync(b.executablePath)).toBe(true);
    expect(b.args).toContain('--no-sandbox');
    for (const weak of ['--disable-web-security', '--allow-running-insecure-content', '--single-process'])
      expect(b.args).not.toContain(weak);
    // With no system browser and no Playwright download (as .ci/run arranges), the npm package is the one.
    if (process.env.PLAYWRIGHT_BROWSERS_PATH && !SYSTEM.some((p) => existsSync(p)))
      expect(b.source).toBe('@sparticuz/chromium');
  }, 60_000);
});
