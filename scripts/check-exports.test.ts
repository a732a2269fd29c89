import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkExports, unexport } from './check-exports.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A small repository of the given files, with a package.json whose `test` runs scripts/run.mjs. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'exports-'));
  roots.push(root);
  const all = { 'package.json': '{"scripts":{"test":"node scripts/run.mjs"}}', 'scripts/run.mjs': '', ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The names the check reports, as `file name` (own: used only in its own file). */
const report = (root: string) => {
  const { unused, orphans } = checkExports(root);
  return { unused: unused.map((u) => `${u.file} ${u.name}${u.own ? ' (own)' : ''}`).sort(), orphans };
};

describe('check-exports', () => {
  it('keeps a name another file imports, reports one used nowhere and one used only in its own file', () => {
    const root = tree({
      'src/a.ts':
        'export const used = 1;\nexport const dead = 2;\nexport function own() { return 3; }\nexport const twice = own();\n',
      'src/b.ts': "import { used, twice } from './a.ts';\nexport const b = used + twice;\n",
      'scripts/b.test.ts': "import { b } from '../src/b.ts';\n",
      // A type test (*.test-d.ts) is imported by no one, like any test, and its imports count.
      'src/b.test-d.ts': "import type { b } from './b.ts';\n",
    });
    expect(report(root)).toEqual({ unused: ['src/a.ts dead', 'src/a.ts own (own)'], orphans: [] });
  });

  it('follows re-exports and stars, and reads the names off import() and import types', () => {
    const root = tree({
      'src/index.ts': "export { a } from './a.ts';\nexport * from './b.ts';\nexport { gone } from './a.ts';\n",
      'src/a.ts': 'export const a = 1;\nexport const gone = 2;\n',
      'src/b.ts':
        'export const b = 1;\nexport const c = 2;\nexport interface T { x: number }\nexport const d = 3;\nexport const e = 4;\n',
      'src/use.ts':
        "import { a, b } from './index.ts';\nexport const run = async () => { const { c } = await import('./b.ts'); return import('./b.ts').then((m) => m.d + a + b + c); };\nexport type U = import('./b.ts').T;\n",
      'src/use.test.ts': "import { run, type U } from './use.ts';\n",
    });
    expect(report(root).unused).toEqual(['src/a.ts gone', 'src/b.ts e', 'src/index.ts gone']);
  });

  it('names a file no one imports unless a framework, package.json or a README runs it', () => {
    const root = tree({
      'src/pages/index.ts': 'export const prerender = true;\n',
      'src/content.config.ts': 'export const collections = {};\n',
      'src/lonely.ts': 'const x = 1;\n',
      'scripts/by-hand.ts': 'const y = 1;\n',
      'README.md': 'Run `node scripts/by-hand.ts` by hand.\n',
    });
    execGit(root);
    expect(report(root)).toEqual({ unused: [], orphans: ['src/lonely.ts'] });
  });

  it('--fix un-exports a name used only in its own file and leaves the rest alone', () => {
    const root = tree({
      'src/a.ts':
        '/** Doc. */\nexport const own = 1;\nexport function f() { return own; }\nconst g = 2, h = 3;\nexport { g, h };\nexport const keep = g + h;\n',
      'src/b.ts': "import { f, keep, h } from './a.ts';\nexport const b = f() + keep + h;\n",
      'src/b.test.ts': "import { b } from './b.ts';\n",
    });
    expect(unexport(root, checkExports(root).unused)).toEqual([]);
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe(
      '/** Doc. */\nconst own = 1;\nexport function f() { return own; }\nconst g = 2, h = 3;\nexport { h };\nexport const keep = g + h;\n',
    );
    expect(report(root).unused).toEqual([]);
  });
});

/** Makes root a git checkout holding its Markdown, as the check finds documents with git ls-files. */
function execGit(root: string): void {
  const run = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  run('init', '-q');
  run('add', 'README.md');
}
