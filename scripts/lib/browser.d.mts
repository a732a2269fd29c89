// Types of browser.mjs, for playwright.config.ts.
/** The browser the e2e suite launches and the rule that chose it. */
export interface ResolvedBrowser {
  source: 'CHROMIUM_PATH' | 'playwright' | 'system' | '@sparticuz/chromium';
  executablePath: string | undefined;
  args: string[];
}
/** Resolves the browser: CHROMIUM_PATH, Playwright's own, a system Chromium, @sparticuz/chromium. */
export declare function resolveBrowser(env?: NodeJS.ProcessEnv): Promise<ResolvedBrowser>;
