import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lazyImports, moduleGraph } from './module-graph.mjs';

describe("a built chunk's imports", () => {
  const dir = mkdtempSync(join(tmpdir(), 'module-graph-'));
  writeFileSync(
    join(dir, 'entry.js'),
    'import{a as x}from"./shared.js";export{y}from"./re.js";const l=()=>import("./lazy.js");',
  );
  writeFileSync(join(dir, 'shared.js'), 'import"./leaf.js";export const a=1;');
  writeFileSync(join(dir, 're.js'), 'import{a}from"./shared.js";export const y=a;');
  writeFileSync(join(dir, 'leaf.js'), '');
  writeFileSync(join(dir, 'lazy.js'), 'import"./only-lazy.js";');
  writeFileSync(join(dir, 'only-lazy.js'), '');

  it('counts each static import once, through re-exports, and leaves dynamic imports out', () => {
    expect([...moduleGraph(join(dir, 'entry.js'))].map((f) => f.slice(dir.length + 1)).sort()).toEqual([
      'entry.js',
      'leaf.js',
      're.js',
      'shared.js',
    ]);
  });

  it('lists the chunks loaded later by import()', () => {
    expect(lazyImports(join(dir, 'entry.js'))).toEqual([join(dir, 'lazy.js')]);
    expect(lazyImports(join(dir, 'shared.js'))).toEqual([]);
  });
});
