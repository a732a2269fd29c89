import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDocLinks, docFiles, linksOf } from './doc-links.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A repository with the given files (inside a folder of its own, so `../x` leaves it). */
function tree(files: Record<string, string>, git = false): string {
  const root = join(mkdtempSync(join(tmpdir(), 'doc-links-')), 'repo');
  roots.push(dirname(root));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  if (git) execFileSync('git', ['init', '-q'], { cwd: root });
  return root;
}

/** The broken links of a tree, as `file:line link`. */
const broken = (root: string) => checkDocLinks(root).broken.map((b) => `${b.file}:${b.line} ${b.link}`);

describe('the links of a Markdown text', () => {
  it('finds inline links, images, reference definitions and HTML links, each with its line', () => {
    const text =
      'See [the design](docs/DESIGN.md "title") and ![a shot](<shots/a b.png>).\n\n[ref]: ./NOTES.md\n<a href="x.md">x</a> [wrapped\nlink](y.md#part)\n';
    expect(linksOf(text)).toEqual([
      { line: 1, target: 'docs/DESIGN.md' },
      { line: 1, target: 'shots/a b.png' },
      { line: 3, target: './NOTES.md' },
      { line: 4, target: 'x.md' },
      { line: 4, target: 'y.md#part' },
    ]);
  });

  it('reads no link inside fenced code, code spans or HTML comments', () => {
    const text =
      '```md\n[a](a.md)\n```\n~~~\n[b](b.md)\n~~~\nText `[c](c.md)` and ``[d](d.md)``.\n<!-- [e](e.md) -->\n[f](f.md)\n';
    expect(linksOf(text)).toEqual([{ line: 9, target: 'f.md' }]);
  });
});

describe('the repository documents link only to what a clone holds', () => {
  it('checks README.md, docs/*.md and src/sim/*.md, and no other Markdown', () => {
    const root = tree({
      'README.md': '',
      'docs/DESIGN.md': '',
      'docs/old/x.md': '',
      'src/sim/NOTES.md': '',
      'src/sim/view/x.md': '',
      'examples/README.md': '',
    });
    expect(docFiles(root)).toEqual(['README.md', 'docs/DESIGN.md', 'src/sim/NOTES.md']);
  });

  it('accepts links to files and folders of the repository, relative to the document or to its root', () => {
    const root = tree({
      'README.md':
        '[design](docs/DESIGN.md) [notes](src/sim/NOTES.md#the-hub) [core](src/sim/) [root link](/docs/DESIGN.md) [site](https://example.org/x.md) [here](#top) [mail](mailto:a@b.c)\n',
      'docs/DESIGN.md': '[readme](../README.md) [map](../src/sim/NOTES.md?plain=1)\n',
      'src/sim/NOTES.md': '[design](../../docs/DESIGN.md)\n',
    });
    const r = checkDocLinks(root);
    expect(r.broken).toEqual([]);
    expect(r.links).toBe(7);
  });

  it('fails a link to a missing file, one that leaves the repository, and one that names no file', () => {
    const root = tree({
      'README.md': 'The rules are in [DESIGN](../outside/RULES.md).\n\n[gone](docs/GONE.md) [empty](?x)\n',
      'src/sim/ARCHITECTURE.md': 'Read [the design](../../../outside/RULES.md) first.\n',
    });
    expect(checkDocLinks(root).broken).toEqual([
      { file: 'README.md', line: 1, link: '../outside/RULES.md', why: 'it points outside the repository' },
      { file: 'README.md', line: 3, link: 'docs/GONE.md', why: 'no file docs/GONE.md in the repository' },
      { file: 'README.md', line: 3, link: '?x', why: 'it names no file' },
      {
        file: 'src/sim/ARCHITECTURE.md',
        line: 1,
        link: '../../../outside/RULES.md',
        why: 'it points outside the repository',
      },
    ]);
  });

  it('fails a link to a file git ignores (a build output a clone does not have)', () => {
    const root = tree(
      {
        '.gitignore': 'dist/\nreports/\n',
        'README.md': '[built](dist/index.html) [report](reports/) [kept](docs/a.md)\n',
        'dist/index.html': '',
        'reports/x.json': '',
        'docs/a.md': '',
      },
      true,
    );
    expect(broken(root)).toEqual(['README.md:1 dist/index.html', 'README.md:1 reports/']);
  });

  it('holds for this repository', () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
    const r = checkDocLinks(root);
    expect(r.files).toContain('docs/DESIGN.md');
    expect(r.broken).toEqual([]);
  });
});
