import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';

// Use a system Chromium where there is one (CHROMIUM_PATH, or Debian's /usr/bin/chromium): this
// machine cannot download Playwright's browsers. Elsewhere Playwright's own Chromium is used.
const systemChromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find(
  (p): p is string => !!p && existsSync(p),
);
const port = Number(process.env.PORT ?? 4321);

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: systemChromium
          ? {
              executablePath: systemChromium,
              args: [
                '--no-sandbox',
                '--disable-gpu',
                '--disable-background-networking',
                '--disable-component-update',
                '--disable-sync',
                '--no-first-run',
                '--disable-quic',
                '--disable-dev-shm-usage',
              ],
            }
          : {},
      },
    },
  ],
  webServer: {
    // The suite tests the built site (npm test builds it first), served as production serves it.
    command: `node node_modules/astro/bin/astro.mjs preview --host 127.0.0.1 --port ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
