// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import svelte from '@astrojs/svelte';
import sitemap from '@astrojs/sitemap';
import { satteri } from '@astrojs/markdown-satteri';
import { codeBlocks } from './src/markdown/code-blocks.mjs';
import { tables } from './src/markdown/tables.mjs';
import { publish } from './src/integrations/publish.mjs';

// The site can be published under a subpath (SITE_BASE=/desired-state) and at any origin
// (SITE_URL); both come from the environment so the same build works locally and in production.
// Without SITE_URL the build knows no address: it writes no canonical links and no sitemap (a
// sitemap's <loc> must be absolute), rather than localhost ones.
const site = process.env.SITE_URL || undefined;
const base = process.env.SITE_BASE ?? '/';
// The embeds are for iframes, not for search engines or the sitemap.
/** @param {string} page */
const inSitemap = (page) => !new URL(page).pathname.includes('/embed/');

/**
 * The main thread's one dynamic import (a figure's terminal, Terminal.svelte) needs nothing
 * preloaded beside it (its only dependency, Svelte's runtime, is already loaded, and its CSS is in
 * the kit's stylesheet): Vite's preload helper, about 0.5 KB gzip on every figure page, is replaced by
 * a plain call.
 * @returns {import('vite').Plugin}
 */
function noPreloadHelper() {
  const id = '\0vite/preload-helper.js';
  return {
    name: 'desired-state:no-preload-helper',
    enforce: 'pre',
    apply: 'build',
    resolveId: (source) => (source === id ? id : undefined),
    load: (source) => (source === id ? 'export const __vitePreload = (load) => load();' : undefined),
  };
}

export default defineConfig({
  site,
  base,
  // scripts/e2e-base.mjs builds the site under a base path beside the usual one (DIST_DIR=dist-base).
  outDir: process.env.DIST_DIR || './dist',
  trailingSlash: 'always',
  integrations: [
    mdx(),
    svelte({ compilerOptions: { discloseVersion: false } }),
    ...(site ? [sitemap({ filter: inSitemap })] : []),
    publish(),
  ],
  markdown: {
    // Shiki writes inline styles, which the CSP forbids; Prism is styled by a stylesheet.
    syntaxHighlight: 'prism',
    // Commands told apart from their output, after Prism has run, and tables that stack on phones
    // (src/markdown/).
    processor: satteri({ hastPlugins: [codeBlocks, tables] }),
  },
  build: {
    // CSS that reaches a page only through MDX would be inlined without a CSP hash and dropped.
    inlineStylesheets: 'never',
  },
  security: {
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        // The figures' simulation runs in a module worker from the site itself.
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
      scriptDirective: {
        // Search loads Pagefind's module and its WebAssembly index from the site itself.
        resources: ["'self'", "'wasm-unsafe-eval'"],
      },
      styleDirective: { resources: ["'self'"] },
    },
  },
  vite: {
    // Module workers, so the worker can load each figure's definition as a chunk of its own. Every
    // module the worker's entry imports statically goes into that entry's one chunk: left alone,
    // rolldown splits the core by which lazy chunks share each module (four more files, each gzipped
    // apart, and the glue that names what they share: about 3.4 KB gzip).
    // The built worker keeps no /* @__PURE__ */ annotations (nothing bundles it again): 2.4 KB of
    // minified comments in the core, ~150 B gzip. Legal comments stay.
    worker: {
      format: 'es',
      rolldownOptions: {
        output: {
          codeSplitting: { groups: [{ name: 'core.worker', tags: ['$initial'] }] },
          comments: { legal: true, annotation: false, jsdoc: false },
        },
      },
    },
    // `WORKER_BREAKDOWN=1 npm run build` writes source maps (no reference from the code) for scripts/worker-breakdown.mjs.
    build: { sourcemap: process.env.WORKER_BREAKDOWN ? 'hidden' : false },
    plugins: [noPreloadHelper()],
    environments: {
      client: {
        build: {
          // What every island needs before it can hydrate, in one chunk: Svelte's client runtime, Astro's
          // Svelte renderer, and the kit both shells import (the worker's client, the keymap, the figure
          // state). Left alone, rolldown makes three files of them, each gzipped apart, and the imports
          // between them name what they share: about 0.35 KB gzip on every figure page.
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  {
                    name: 'client',
                    test: /node_modules\/(svelte\/src|@astrojs\/svelte\/dist\/client)|src\/widgets\/shared\/(worker-client|keymap|figure-state)\.ts/,
                  },
                ],
              },
            },
          },
          // A lazy chunk's CSS is already linked by the page (Astro collects every island's styles) and
          // the preload helper is a plain call (noPreloadHelper): no list of dependencies to ship.
          modulePreload: { polyfill: false, resolveDependencies: () => [] },
        },
      },
    },
  },
  // What dist/_headers gives the built assets on a static host, so `astro preview` (and the e2e
  // tests) serve the embeds the same way: module scripts and the worker are fetched with CORS by an
  // embed in a sandboxed iframe, whose origin is opaque ("null"). The site is public and static.
  server: { headers: { 'Access-Control-Allow-Origin': '*' } },
  prefetch: false,
  devToolbar: { enabled: false },
});
