/**
 * The repository's own documents link only to what a fresh clone holds: every relative link in
 * README.md, docs/*.md and src/sim/*.md resolves to a file (or folder) inside the repository that
 * git does not ignore. Links to other sites and to a #fragment of the same page are not followed,
 * and a link's #fragment is not checked (GitHub's heading ids are its own). Run by check-links.mjs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The documents checked, as repository-relative POSIX paths: README.md, docs/*.md, src/sim/*.md. */
export function docFiles(root) {
  const mdIn = (dir) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir), { withFileTypes: true })
          .filter((e) => e.isFile() && e.name.endsWith('.md'))
          .map((e) => `${dir}/${e.name}`)
          .sort()
      : [];
  return [...(existsSync(join(root, 'README.md')) ? ['README.md'] : []), ...mdIn('docs'), ...mdIn('src/sim')];
}

/** Blanks what Markdown does not read as links (fenced code, code spans, HTML comments), keeping every newline. */
function withoutCode(text) {
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  const lines = text.split('\n');
  let fence = null;
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[i]);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length && lines[i].trim() === open[1])
        fence = null;
      lines[i] = blank(lines[i]);
    } else if (open) {
      fence = open[1];
      lines[i] = blank(lines[i]);
    }
  }
  return lines
    .join('\n')
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, blank);
}

/** Every link target of a Markdown text with its line, in the order they appear: inline links and images, reference definitions, `<a href>` and `<img src>`. */
export function linksOf(text) {
  const body = withoutCode(text);
  const lineAt = (index) => body.slice(0, index).split('\n').length;
  const found = [];
  const inline =
    /!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
  for (const m of body.matchAll(inline)) found.push({ at: m.index, target: m[1] });
  for (const m of body.matchAll(/^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)/gm))
    found.push({ at: m.index, target: m[1] });
  for (const m of body.matchAll(/<(?:a|img)\b[^>]*?\s(?:href|src)\s*=\s*(["'])(.*?)\1/gi))
    found.push({ at: m.index, target: m[2] });
  return found
    .sort((a, b) => a.at - b.at)
    .map((l) => ({ line: lineAt(l.at), target: l.target.replace(/^<(.*)>$/, '$1') }));
}

/** A link that leaves the repository by design: another site, mail, or a fragment of the same page. */
const isExternal = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || target.startsWith('#');

/** The paths (repository-relative) git would ignore, or an empty set when root is not a git work tree. */
function ignoredByGit(root, paths) {
  if (paths.length === 0) return new Set();
  const r = spawnSync('git', ['-C', root, 'check-ignore', '--stdin'], {
    input: paths.join('\n') + '\n',
    encoding: 'utf8',
  });
  return r.status === 0 ? new Set(r.stdout.split('\n').filter(Boolean)) : new Set();
}

/**
 * Checks the documents under root: { files, links, broken: [{ file, line, link, why }] }. A link is
 * relative to its document's folder, or to the repository's root when it starts with `/` (as GitHub reads it).
 */
export function checkDocLinks(root) {
  const files = docFiles(root);
  const broken = [];
  const kept = [];
  let links = 0;
  for (const file of files) {
    for (const { line, target } of linksOf(readFileSync(join(root, file), 'utf8'))) {
      if (isExternal(target)) continue;
      links++;
      const fail = (why) => broken.push({ file, line, link: target, why });
      let path = target.replace(/[?#].*$/, '');
      try {
        path = decodeURIComponent(path);
      } catch {
        fail('it is not a valid URL');
        continue;
      }
      if (!path) {
        fail('it names no file');
        continue;
      }
      const abs = path.startsWith('/') ? join(root, path) : resolve(root, dirname(file), path);
      const rel = relative(resolve(root), abs);
      if (rel.startsWith('..') || isAbsolute(rel)) {
        fail('it points outside the repository');
        continue;
      }
      if (!existsSync(abs)) {
        fail(`no file ${rel.split(sep).join('/')} in the repository`);
        continue;
      }
      if (rel !== '') kept.push({ file, line, link: target, rel: rel.split(sep).join('/') });
    }
  }
  const ignored = ignoredByGit(root, [...new Set(kept.map((k) => k.rel))]);
  for (const k of kept)
    if (ignored.has(k.rel))
      broken.push({
        file: k.file,
        line: k.line,
        link: k.link,
        why: `${k.rel} is ignored by git, so a clone does not have it`,
      });
  return { files, links, broken };
}
