// Which Chromium the end-to-end suite launches, resolved in a fixed order so that a fresh machine
// with no browser (and no way to download Playwright's) still runs the suite:
//   1. CHROMIUM_PATH, when set (it must exist: a typo should fail loudly, not fall through);
//   2. Playwright's own Chromium, when `npx playwright install chromium` put one in its cache;
//   3. a system Chromium (Debian's /usr/bin/chromium and the usual other names);
//   4. the headless Chromium shipped inside the npm package @sparticuz/chromium (a devDependency),
//      unpacked into the temp folder on first use.
import { existsSync } from 'node:fs';

/** The flags every Chromium gets here: headless on a VM without a GPU, sandbox or network extras. */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

// Of @sparticuz/chromium's own flag list, these would weaken what the suite checks (CSP,
// cross-origin embeds, no off-site requests) or are for Lambda only; the rest it keeps.
const SPARTICUZ_DROPPED = new Set([
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--single-process',
  '--no-zygote',
  '--disable-features=AudioServiceOutOfProcess,IsolateOrigins,site-per-process',
]);

/** Finds Playwright's own installed Chromium, or undefined when none was downloaded. */
async function playwrightChromium() {
  try {
    const { chromium } = await import('@playwright/test');
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The browser the suite uses: `{ source, executablePath, args }`. `source` names the rule that
 * chose it ('CHROMIUM_PATH', 'playwright', 'system', '@sparticuz/chromium'); `executablePath` is
 * undefined for Playwright's own browser (Playwright finds it itself).
 */
export async function resolveBrowser(env = process.env) {
  if (env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist`);
    return { source: 'CHROMIUM_PATH', executablePath: env.CHROMIUM_PATH, args: CHROMIUM_FLAGS };
  }
  if (await playwrightChromium()) {
    return { source: 'playwright', executablePath: undefined, args: CHROMIUM_FLAGS };
  }
  const system = SYSTEM_CHROMIUMS.find((p) => existsSync(p));
  if (system) return { source: 'system', executablePath: system, args: CHROMIUM_FLAGS };
  const { default: sparticuz } = await import('@sparticuz/chromium');
  const executablePath = await sparticuz.executablePath();
  const extra = sparticuz.args.filter((a) => !SPARTICUZ_DROPPED.has(a) && !a.startsWith('--headless'));
  return { source: '@sparticuz/chromium', executablePath, args: [...new Set([...CHROMIUM_FLAGS, ...extra])] };
}
