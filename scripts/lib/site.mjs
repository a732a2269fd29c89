/** Reading the built site (dist/) for the link and budget checks: pages, ids, links, assets. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every HTML file under dir, as { file, path } where path is the URL path ("/scheduler/"). */
export function htmlPages(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'pagefind' && name !== '_astro') walk(p);
      } else if (name.endsWith('.html')) {
        const rel = relative(dir, p).replaceAll('\\', '/');
        const path = '/' + rel.replace(/index\.html$/, '').replace(/\.html$/, '');
        out.push({ file: p, path });
      }
    }
  };
  walk(dir);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Decodes the few entities Astro writes into attribute values. */
function decodeAttr(v) {
  return v
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** All values of one attribute on the given tags, e.g. attrValues(html, 'a', 'href'). */
export function attrValues(html, tag, attr) {
  const re = new RegExp(`<${tag}\\b[^>]*?\\s${attr}="([^"]*)"`, 'gi');
  return [...html.matchAll(re)].map((m) => decodeAttr(m[1]));
}

/** Every id="…" in a page. */
export function ids(html) {
  return new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decodeAttr(m[1])));
}

/** The site's base path from the environment, without a trailing slash ("" for the root). */
export function basePath() {
  return (process.env.SITE_BASE ?? '/').replace(/\/$/, '');
}

/** Reads a file as UTF-8. */
export function read(file) {
  return readFileSync(file, 'utf8');
}
