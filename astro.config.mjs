// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import svelte from '@astrojs/svelte';
import sitemap from '@astrojs/sitemap';

// The site can be published under a subpath (SITE_BASE=/desired-state) and at any origin
// (SITE_URL); both come from the environment so the same build works locally and in production.
const site = process.env.SITE_URL ?? 'http://localhost:4321';
const base = process.env.SITE_BASE ?? '/';

export default defineConfig({
  site,
  base,
  trailingSlash: 'always',
  integrations: [mdx(), svelte(), sitemap()],
  markdown: {
    // Shiki writes inline styles, which the CSP forbids; Prism is styled by a stylesheet.
    syntaxHighlight: 'prism',
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
    // The worker loads each figure's definition as its own chunk (dynamic import), which needs ES module output.
    worker: { format: 'es' },
  },
  prefetch: false,
  devToolbar: { enabled: false },
});
