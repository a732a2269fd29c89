/**
 * What the worker's chunk is made of, module by module, from the real build's source maps:
 *
 *   WORKER_BREAKDOWN=1 npm run build && node scripts/worker-breakdown.mjs [--all] [--lazy]
 *
 * (`WORKER_BREAKDOWN=1` makes the build write hidden source maps, `astro.config.mjs`; the chunks
 * themselves are byte for byte those of a normal build.) Each minified byte of the worker's chunk and
 * of the chunks it imports statically is attributed to the source file its mapping points at; a
 * module's gzip size is approximated as its share of minified bytes × its chunk's gzip ratio (gzip
 * depends on context, so the per-module figures add up to the chunk's, not to each module gzipped
 * alone). Prints folders, then the largest modules (`--all`: every module); `--lazy` adds each lazy
 * chunk the worker loads (figures, the link encoder, kubectl and its server part, optional parts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const astroDir = join('dist', '_astro');
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = Object.fromEntries([...B64].map((c, i) => [c, i]));

/** The Base64 VLQ numbers of one source map segment. */
export function decodeVlq(segment) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = B64_VALUE[c];
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    out.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return out;
}

/** Minified bytes of `code` per source path (relative to the repository; unmapped bytes under '(unmapped)'). */
export function bytesPerSource(code, map, mapDir) {
  const sources = map.sources.map((s) => relative(process.cwd(), resolve(mapDir, map.sourceRoot ?? '', s)));
  const lines = code.split('\n');
  const sizes = new Map();
  const add = (k, n) => sizes.set(k, (sizes.get(k) ?? 0) + n);
  let source = 0;
  map.mappings.split(';').forEach((line, i) => {
    const text = lines[i] ?? '';
    let col = 0;
    let from = 0;
    let owner = '(unmapped)';
    for (const seg of line ? line.split(',') : []) {
      const v = decodeVlq(seg);
      col += v[0];
      add(owner, Buffer.byteLength(text.slice(from, col)));
      if (v.length >= 4) {
        source += v[1];
        owner = sources[source];
      } else owner = '(unmapped)';
      from = col;
    }
    add(owner, Buffer.byteLength(text.slice(from)) + 1);
  });
  return sizes;
}

/** A chunk and the chunks it imports statically, each once. */
function staticGraph(entry, seen = new Set()) {
  if (seen.has(entry) || !existsSync(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  for (const m of code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g))
    staticGraph(join(dirname(entry), m[1]), seen);
  return seen;
}

/** Per module: minified bytes and approximate gzip bytes, over a set of chunks. */
function breakdown(chunks) {
  const modules = new Map();
  let minified = 0;
  let gzipped = 0;
  for (const file of chunks) {
    const code = readFileSync(file, 'utf8');
    const total = Buffer.byteLength(code);
    const zipped = gz(Buffer.from(code));
    minified += total;
    gzipped += zipped;
    if (!existsSync(file + '.map')) throw new Error(`${file}.map missing: build with WORKER_BREAKDOWN=1`);
    for (const [src, n] of bytesPerSource(code, JSON.parse(readFileSync(file + '.map', 'utf8')), dirname(file))) {
      const m = modules.get(src) ?? { min: 0, gzip: 0 };
      m.min += n;
      m.gzip += (n * zipped) / total;
      modules.set(src, m);
    }
  }
  return { modules, minified, gzipped };
}

/** The folder a module is counted under: src/sim/<part>/, a package, or the file's own folder. */
function folderOf(path) {
  const pkg = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const parts = path.split('/');
  return parts.slice(0, parts[0] === 'src' && parts[1] === 'sim' ? 3 : 2).join('/');
}

function print(title, { modules, minified, gzipped }, all) {
  const kb = (n) => (n / 1024).toFixed(1).padStart(6);
  console.log(`\n${title}: ${minified} B minified, ${gzipped} B gzip`);
  const folders = new Map();
  for (const [src, m] of modules) {
    const f = folders.get(folderOf(src)) ?? { min: 0, gzip: 0, n: 0 };
    f.min += m.min;
    f.gzip += m.gzip;
    f.n += 1;
    folders.set(folderOf(src), f);
  }
  console.log('  KB gzip  KB min  modules  folder');
  for (const [f, m] of [...folders].sort((a, b) => b[1].gzip - a[1].gzip))
    console.log(`  ${kb(m.gzip)}  ${kb(m.min)}  ${String(m.n).padStart(7)}  ${f}`);
  const sorted = [...modules].sort((a, b) => b[1].gzip - a[1].gzip);
  console.log('  KB gzip  KB min  module');
  for (const [src, m] of all ? sorted : sorted.slice(0, 40)) console.log(`  ${kb(m.gzip)}  ${kb(m.min)}  ${src}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const all = process.argv.includes('--all');
  const worker = readdirSync(astroDir).find((f) => /^core\.worker-.*\.js$/.test(f));
  if (!worker) throw new Error('no core.worker-*.js in dist/_astro: build first');
  const core = staticGraph(join(astroDir, worker));
  print(`worker ${[...core].map((f) => f.split('/').pop()).join(' + ')}`, breakdown(core), all);
  if (process.argv.includes('--lazy')) {
    const lazy = new Set(
      [...core].flatMap((c) =>
        [...readFileSync(c, 'utf8').matchAll(/import\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g)].map((m) =>
          join(astroDir, m[1]),
        ),
      ),
    );
    for (const chunk of lazy) {
      const own = [...staticGraph(chunk)].filter((f) => !core.has(f));
      print(`lazy ${own.map((f) => f.split('/').pop()).join(' + ')}`, breakdown(own), all);
    }
  }
}
