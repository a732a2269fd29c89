/**
 * Link-and-fragment check of the built site: every internal href and src points to a file that
 * exists, and every #fragment to an id on the target page. External links are only counted (the
 * site makes no requests to them; readers follow them). First, the repository's own documents
 * (README.md, docs/*.md, src/sim/*.md): every relative link names a file a clone holds (lib/doc-links.mjs),
 * and docs/DESIGN.md stays within 150 lines.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createReport } from './lib/report.mjs';
import { attrValues, basePath, htmlPages, ids, read } from './lib/site.mjs';
import { checkDocLinks } from './lib/doc-links.mjs';

const dist = 'dist';
const base = basePath();
const report = createReport('links');

const docs = checkDocLinks('.');
for (const file of docs.files) {
  const mine = docs.broken.filter((b) => b.file === file);
  report.check(
    `${file}: its relative links name files in the repository`,
    mine.length === 0,
    mine.map((b) => `${b.file}:${b.line} ${b.link}: ${b.why}`).join('\n      '),
  );
}
// The design stays short enough to read in one sitting (issue 29: at most 150 lines).
const designLines = existsSync('docs/DESIGN.md')
  ? readFileSync('docs/DESIGN.md', 'utf8').trimEnd().split('\n').length
  : 0;
report.check(
  `docs/DESIGN.md is at most 150 lines (${designLines})`,
  designLines > 0 && designLines <= 150,
  `${designLines} lines`,
);
report.check(
  'the repository has its documents to check',
  docs.files.includes('README.md') && docs.files.includes('docs/DESIGN.md'),
  `found ${docs.files.join(', ')}`,
);

const pages = htmlPages(dist);
const idsByPath = new Map(pages.map((p) => [p.path, ids(read(p.file))]));

/** Resolves a site URL path to a file in dist, or undefined. */
function fileFor(path) {
  const local = decodeURI(path.startsWith(base + '/') ? path.slice(base.length) : path);
  const candidates = [join(dist, local), join(dist, local, 'index.html'), join(dist, `${local}.html`)];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

let external = 0;
for (const page of pages) {
  const html = read(page.file);
  const refs = [
    ...attrValues(html, 'a', 'href'),
    ...attrValues(html, 'link', 'href'),
    ...attrValues(html, 'script', 'src'),
    ...attrValues(html, 'img', 'src'),
    ...attrValues(html, 'form', 'action'),
  ];
  const broken = [];
  for (const ref of refs) {
    if (/^(https?:)?\/\//.test(ref)) {
      if (!ref.startsWith('http://localhost:4321') && !ref.startsWith(process.env.SITE_URL ?? '\0')) external++;
      continue;
    }
    if (/^(mailto|data|tel):/.test(ref)) continue;
    const url = new URL(ref, `http://site${base}${page.path}`);
    const target = url.pathname;
    const file = fileFor(target);
    if (!file) {
      broken.push(`${ref} (no file for ${target})`);
      continue;
    }
    const frag = decodeURIComponent(url.hash.slice(1));
    if (frag) {
      const targetPath = target.slice(base.length) || '/';
      const targetIds =
        idsByPath.get(targetPath.endsWith('/') || targetPath.endsWith('.xml') ? targetPath : `${targetPath}/`) ??
        idsByPath.get(targetPath);
      if (!targetIds || !targetIds.has(frag)) broken.push(`${ref} (no id "${frag}" on ${targetPath})`);
    }
  }
  report.check(`${page.path}: ${refs.length} links resolve`, broken.length === 0, broken.join('\n      '));
}
report.check('the site has pages to check', pages.length >= 5, `found ${pages.length}`);
console.log(`(${external} external links, not fetched)`);
report.finish();
