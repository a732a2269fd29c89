// Serves the built site as a static host that reads `_headers` would (Netlify, Cloudflare Pages):
// the files of dist/ under the site's base path, each response with the headers of every
// `_headers` rule matching its path (scripts/lib/headers.mjs), text compressed with gzip when the
// client accepts it, `/x` redirected to `/x/` when `x` is a folder, and the site's 404 page for
// anything else. The e2e tests, Lighthouse and the browser benchmark run against this, so they see
// what a reader sees where the site is published; `astro preview` (which ignores `_headers`) stays
// for people.
//   node scripts/serve.mjs [--dir dist] [--port 4321] [--host 127.0.0.1]   (SITE_BASE sets the base)
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { headersFor, parseHeaders } from './lib/headers.mjs';

/** Content types by extension, as a host serves them (wasm must be application/wasm for streaming compilation). */
const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = /^(text\/|application\/(json|xml|wasm)|image\/svg)/;

/**
 * A request handler for the site in `dir` published at `base` ("" or "/desired-state"). Headers
 * are read from `dir/_headers` once, when the handler is made.
 */
function staticSite(dir, base = '') {
  const headersFile = join(dir, '_headers');
  const rules = existsSync(headersFile) ? parseHeaders(readFileSync(headersFile, 'utf8')) : [];
  const root = normalize(dir + sep);
  const fileAt = (p) => {
    try {
      return statSync(p);
    } catch {
      return null;
    }
  };

  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    let path;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      path = '\0';
    }
    const send = (status, file, requestPath) => {
      for (const [name, value] of headersFor(rules, requestPath)) res.setHeader(name, value);
      const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
      let body = readFileSync(file);
      res.setHeader('Content-Type', type);
      if (COMPRESSIBLE.test(type) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        body = gzipSync(body);
        res.setHeader('Content-Encoding', 'gzip');
        res.setHeader('Vary', 'Accept-Encoding');
      }
      res.setHeader('Content-Length', body.length);
      res.writeHead(status);
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const notFound = () => {
      const page = join(dir, '404.html');
      if (existsSync(page)) return send(404, page, `${base}/404.html`);
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found');
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' });
      res.end();
      return;
    }
    if (base && path !== base && !path.startsWith(`${base}/`)) return notFound();
    const local = normalize(join(dir, path.slice(base.length)));
    // Nothing outside the site's folder, whatever the path says.
    if (!(local + sep).startsWith(root) && local !== normalize(dir)) return notFound();
    const stat = fileAt(local);
    if (stat?.isDirectory()) {
      if (!path.endsWith('/')) {
        res.writeHead(301, { Location: `${path}/${url.search}` });
        res.end();
        return;
      }
      const index = join(local, 'index.html');
      return fileAt(index)?.isFile() ? send(200, index, path) : notFound();
    }
    if (stat?.isFile() && !path.endsWith('/_headers')) return send(200, local, path);
    return notFound();
  };
}

/** Starts a server for the site; resolves with it once it listens. */
export function serveSite({
  dir = 'dist',
  port = 4321,
  host = '127.0.0.1',
  base = (process.env.SITE_BASE ?? '/').replace(/\/$/, ''),
} = {}) {
  const server = createServer(staticSite(dir, base));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const dir = opt('--dir', 'dist');
  const port = Number(opt('--port', process.env.PORT ?? 4321));
  const host = opt('--host', '127.0.0.1');
  if (!existsSync(join(dir, 'index.html'))) {
    console.error(`serve: no built site in ${dir}/ (run npm run build first)`);
    process.exit(1);
  }
  const server = await serveSite({ dir, port, host });
  const base = (process.env.SITE_BASE ?? '/').replace(/\/$/, '');
  console.log(`serve: ${dir}/ at http://${host}:${port}${base}/ with its _headers`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
