/**
 * Content checks of the built pages: the section anchors courses may link to still exist, each
 * page states the facts on its checklist, and each chapter's prose is 1,500–3,000 words.
 * Checklists: content/checklists/<slug>.yaml with `anchors:` and `facts:`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createReport } from './lib/report.mjs';
import { ids, read } from './lib/site.mjs';

const CHAPTERS = [
  'control-plane',
  'reconcile-loop',
  'scheduler',
  'rolling-updates',
  'networking',
  'node-failure',
  'control-plane-outage',
  'troubleshooting',
];
const MIN_WORDS = 1500;
const MAX_WORDS = 3000;

/** The article's prose as plain text: figures, code, tooltips and heading buttons left out. */
function proseText(html) {
  const start = html.indexOf('<div class="prose">');
  const end = html.indexOf('<section class="sources"');
  let body = start >= 0 ? html.slice(start, end > start ? end : undefined) : '';
  body = body
    .replace(/<figure[\s\S]*?<\/figure>/g, ' ')
    .replace(/<pre[\s\S]*?<\/pre>/g, ' ')
    .replace(/<div class="code__bar"[\s\S]*?<\/div>/g, ' ')
    .replace(/<span class="term__tip"[^>]*>[\s\S]*?<\/span>/g, ' ')
    .replace(/<a class="heading__anchor"[^>]*>#<\/a>/g, ' ')
    .replace(/<button[^>]*class="(?:heading__copy|code__copy)"[\s\S]*?<\/button>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ');
  return body.replace(/\s+/g, ' ').trim();
}

/** Decodes the entities Astro writes in text. */
function decodeEntities(s) {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Counts words the way a reader would (runs of letters or digits). */
function countWords(text) {
  return (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu) ?? []).length;
}

const report = createReport('content');
const checklistDir = 'content/checklists';
for (const slug of CHAPTERS) {
  const file = join('dist', slug, 'index.html');
  if (!existsSync(file)) {
    report.check(`/${slug}/ is built`, false);
    continue;
  }
  const html = read(file);
  const words = countWords(proseText(html));
  report.check(
    `/${slug}/: ${words} words of prose (${MIN_WORDS}–${MAX_WORDS})`,
    words >= MIN_WORDS && words <= MAX_WORDS,
  );
  report.check(
    `/${slug}/: at least two "predict, then look" prompts`,
    (html.match(/class="predict"/g) ?? []).length >= 2,
  );
  report.check(
    `/${slug}/: at least two figures, each with a text alternative`,
    (html.match(/<figure class="figure/g) ?? []).length >= 2 &&
      // A drawing with its title, a live island, or a diagram made of HTML: a captioned table and its description in words.
      [...html.matchAll(/<figure class="figure[\s\S]*?<\/figure>/g)].every(
        (m) =>
          /<svg[^>]*role="img"[\s\S]*?<title/.test(m[0]) ||
          /<astro-island/.test(m[0]) ||
          (/<table class="dg-table[\s\S]*?<caption/.test(m[0]) && /data-dg-words/.test(m[0])),
      ),
  );
  report.check(
    `/${slug}/: lists its sources and its Kubernetes version`,
    /<section class="sources"[\s\S]*describes Kubernetes 1\.\d+[\s\S]*<li><a href="https:/.test(html),
  );
  // Source files are pinned to the release the chapter describes, never to a moving branch.
  const sources = html.slice(html.indexOf('<section class="sources"'));
  const minor = (sources.match(/describes Kubernetes 1\.(\d+)/) ?? [])[1];
  const unpinned = [
    ...sources.matchAll(/href="(https:\/\/github\.com\/kubernetes\/(kubernetes|kubectl)\/blob\/([^/"]+)\/[^"]*)"/g),
  ]
    .filter(
      (m) =>
        m[3] !== (m[2] === 'kubernetes' ? `v1.${minor}` : `v0.${minor}`) &&
        !m[3].startsWith(m[2] === 'kubernetes' ? `v1.${minor}.` : `v0.${minor}.`),
    )
    .map((m) => m[1]);
  report.check(
    `/${slug}/: source files pinned to the release it describes (1.${minor})`,
    unpinned.length === 0,
    unpinned.join(' '),
  );
  // Astro writes attributes as typed: React-style SVG names would silently do nothing.
  const reactSvg =
    html.match(
      /\s(textAnchor|markerEnd|markerStart|strokeWidth|strokeDasharray|dominantBaseline|fontWeight|fontSize)=/gi,
    ) ?? [];
  report.check(`/${slug}/: SVG attributes use SVG spellings`, reactSvg.length === 0, reactSvg.join(' '));
  const listFile = join(checklistDir, `${slug}.yaml`);
  if (!existsSync(listFile)) {
    report.check(`${listFile} exists`, false);
    continue;
  }
  const list = parse(read(listFile)) ?? {};
  const pageIds = ids(html);
  // Facts may be stated in prose, code or a figure's text: search the whole page's text.
  const text = decodeEntities(html.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .toLowerCase();
  for (const anchor of list.anchors ?? []) report.check(`/${slug}/#${anchor} exists`, pageIds.has(anchor));
  for (const fact of list.facts ?? [])
    report.check(`/${slug}/ states "${fact}"`, text.includes(String(fact).toLowerCase()));
}
// Every checklist belongs to a page that exists.
for (const f of existsSync(checklistDir) ? readdirSync(checklistDir) : []) {
  report.check(`${f} names a chapter`, CHAPTERS.includes(f.replace(/\.yaml$/, '')));
}
report.finish();
