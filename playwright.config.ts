import { defineConfig, devices } from '@playwright/test';
import { resolveBrowser } from './scripts/lib/browser.mjs';

// The browser comes from scripts/lib/browser.mjs: CHROMIUM_PATH, Playwright's own Chromium, a system
// Chromium, or the one inside the npm package @sparticuz/chromium, in that order (README).
const browser = await resolveBrowser();
if (!process.env.TEST_WORKER_INDEX)
  console.log(`e2e: Chromium from ${browser.source}${browser.executablePath ? ` (${browser.executablePath})` : ''}`);
const port = Number(process.env.PORT ?? 4321);
// The built site to serve (scripts/e2e-base.mjs points it at a build made under a base path).
const dist = process.env.DIST_DIR ?? 'dist';

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // One retry in CI: the Chromium this machine runs has crashed on launch under load (SIGSEGV before
  // any page); a test that passes only on its retry is still reported, as flaky, in the JSON report.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: process.env.E2E_REPORT ?? 'reports/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
    // A click on a control that never becomes enabled fails in 30 s, not at the test's timeout.
    actionTimeout: 30_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: browser.executablePath, args: browser.args },
      },
    },
  ],
  webServer: {
    // The suite tests the built site (npm test builds it first) served as a host that reads
    // dist/_headers serves it (scripts/serve.mjs: every matching rule's headers, CSP included, and
    // gzip), so the browser sees what a reader's browser sees where the site is published.
    command: `node scripts/serve.mjs --dir ${dist} --host 127.0.0.1 --port ${port}`,
    url: `http://127.0.0.1:${port}${(process.env.SITE_BASE ?? '/').replace(/\/?$/, '/')}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
