import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ambientUses, checkTree, importsOf, resolveImport, RULES, sourceFiles } from './check-deps.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A small repository: the core's entries, a machine, two widgets, a component, and the given files. */
function tree(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'deps-'));
  roots.push(root);
  const base: Record<string, string> = {
    'src/sim/index.ts': "export { clock } from './clock.ts';\nexport type { View } from './view/types.ts';\n",
    'src/sim/clock.ts':
      '/** Date.now() is not read here: this comment does not count. */\nexport const clock = { now: 0, window: 5 };\n',
    'src/sim/view/types.ts': 'export interface View { step: number }\n',
    'src/sim/kubectl/index.ts': "export const runKubectl = () => 'ok';\n",
    'src/sim/figures/terminal.ts':
      "import { runKubectl } from '../kubectl/index.ts';\nexport const runOnFigure = () => runKubectl();\n",
    'src/machines/m.ts':
      "import { setup } from 'xstate';\nimport type { View } from '../sim/view/types.ts';\nexport const m = setup({});\n",
    'src/widgets/shared/core.worker.ts':
      "import { clock } from '../../sim/index.ts';\nexport const kubectl = () => import('../../sim/kubectl/index.ts');\n",
    'src/widgets/shared/format.ts': 'export const f = 1;\n',
    'src/widgets/hub/Hub.svelte':
      "<script lang=\"ts\">\n  import type { View } from '../../sim/view/types.ts';\n  import { f } from '../shared/format.ts';\n</script>\n{#snippet s(v: import('../../sim/index.ts').View)}{/snippet}\n",
    'src/widgets/hub/Hub.astro': "---\nimport Hub from './Hub.svelte';\n---\n<Hub />\n",
    'src/widgets/rollout/view.ts': 'export const r = 1;\n',
    'src/components/Aside.astro': '---\n---\n<aside />\n',
    'scripts/sim.ts':
      "import { runKubectl } from '../src/sim/kubectl/index.ts';\nimport { clock } from '../src/sim/index.ts';\n",
    'scripts/lib/report.mjs': 'export const r = 1;\n',
    'e2e/a.spec.ts':
      "import { test } from '@playwright/test';\nimport { r } from '../scripts/lib/report.mjs';\nimport { h } from './helpers.ts';\n",
    'e2e/helpers.ts': 'export const h = 1;\n',
    'content/chapter.mdx':
      "---\ntitle: A\n---\nimport Aside from '../src/components/Aside.astro';\nimport Hub from '../src/widgets/hub/Hub.astro';\n\n```ts\nimport { clock } from '../src/sim/clock.ts';\n```\n",
  };
  for (const [path, text] of Object.entries({ ...base, ...files })) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The rules a tree breaks, with the files that break them. */
const broken = (files: Record<string, string>) => checkTree(tree(files)).violations.map((v) => `${v.rule} ${v.file}`);

describe('check-deps', () => {
  it('passes a tree that keeps every rule (type imports of core modules, lazy kubectl, the worker)', () => {
    const result = checkTree(tree());
    expect(result.violations).toEqual([]);
    expect(result.imports).toBeGreaterThan(10);
  });

  it('reads imports from .svelte scripts and markup, .astro frontmatter and scripts, .mdx ESM outside fences', () => {
    const svelte = importsOf(
      'a.svelte',
      "<script lang=\"ts\">\n  import type { A } from './a.ts';\n  import B from './B.svelte';\n</script>\n{#snippet s(v: import('./c.ts').C)}{/snippet}\n",
    );
    expect(svelte).toEqual([
      { spec: './a.ts', line: 2, typeOnly: true, dynamic: false },
      { spec: './B.svelte', line: 3, typeOnly: false, dynamic: false },
      { spec: './c.ts', line: 5, typeOnly: true, dynamic: false },
    ]);
    const astro = importsOf(
      'a.astro',
      "---\nimport X from './x.ts';\n---\n<p/>\n<script>\n  import { y } from './y.ts';\n</script>\n",
    );
    expect(astro.map((i) => [i.spec, i.line])).toEqual([
      ['./x.ts', 2],
      ['./y.ts', 6],
    ]);
    const mdx = importsOf(
      'a.mdx',
      "import A from './a.astro';\n\n```js\nimport B from './b.ts';\n```\nimport {\n  C,\n} from './c.astro';\n",
    );
    expect(mdx.map((i) => [i.spec, i.line])).toEqual([
      ['./a.astro', 1],
      ['./c.astro', 6],
    ]);
    const ts = importsOf(
      'a.ts',
      "import { type A } from './a.ts';\nexport type { B } from './b.ts';\nconst w = new Worker(new URL('./w.ts', import.meta.url));\n",
    );
    expect(ts).toEqual([
      { spec: './a.ts', line: 1, typeOnly: false, dynamic: false },
      { spec: './b.ts', line: 2, typeOnly: true, dynamic: false },
      { spec: './w.ts', line: 3, typeOnly: false, dynamic: true },
    ]);
  });

  it('finds the wall clock, chance, timers and the DOM in code, never in comments, strings or member names', () => {
    const code = [
      '// Date.now() and window in a comment',
      "const s = 'setTimeout in a string';",
      'const o = { window: 1, document: 2 }; o.window; o.document;',
      'const t = Date.now();',
      'const r = Math.random();',
      'setTimeout(() => {}, 1);',
      'globalThis.setInterval(() => {}, 1);',
      'const el = document.body;',
      'const p = performance.now();',
      'const g = globalThis.Date.now();',
    ].join('\n');
    expect(ambientUses('x.ts', code).map((h) => `${h.line} ${h.name}`)).toEqual([
      '4 Date.now',
      '5 Math.random',
      '6 setTimeout',
      '7 setInterval',
      '8 document',
      '9 performance.now',
      '10 Date.now',
    ]);
  });

  it('sim-imports: the core imports no Svelte, Astro or view code', () => {
    expect(
      broken({
        'src/sim/a.ts':
          "import { mount } from 'svelte';\nimport { getEntry } from 'astro:content';\nimport { m } from '../machines/m.ts';\nimport { f } from '../widgets/shared/format.ts';\n",
      }),
    ).toEqual([
      'sim-imports src/sim/a.ts',
      'sim-imports src/sim/a.ts',
      'sim-imports src/sim/a.ts',
      'sim-imports src/sim/a.ts',
    ]);
  });

  it('sim-imports: no part of the core imports the test fixtures, which tests and other fixtures may', () => {
    expect(
      broken({
        'src/sim/testing/world.ts': 'export const w = 1;\n',
        'src/sim/testing/more.ts': "import { w } from './world.ts';\nexport const m = w;\n",
        'src/sim/c.ts': "import { w } from './testing/world.ts';\nexport const c = w;\n",
        'src/sim/c.test.ts': "import { w } from './testing/world.ts';\n",
        // A type test (vitest's *.test-d.ts) is a test too.
        'src/sim/d.test-d.ts': "import { w } from './testing/world.ts';\n",
      }),
    ).toEqual(['sim-imports src/sim/c.ts']);
  });

  it('sim-globals: the core reads no wall clock, but its tests may', () => {
    expect(
      broken({
        'src/sim/b.ts': 'export const t = () => Date.now();\n',
        'src/sim/b.test.ts': 'export const t = () => Date.now();\n',
      }),
    ).toEqual(['sim-globals src/sim/b.ts']);
  });

  it('core-entry: values come through the entry; type-only imports may name core modules', () => {
    expect(
      broken({
        'scripts/bench.ts':
          "import { clock } from '../src/sim/clock.ts';\nimport type { View } from '../src/sim/view/types.ts';\n",
        'src/machines/m.test.ts':
          "import { clock } from '../sim/clock.ts';\nimport { clock as c } from '../sim/index.ts';\n",
        'src/widgets/hub/x.ts': "import { type View } from '../../sim/view/types.ts';\n",
      }),
    ).toEqual([
      'core-entry scripts/bench.ts',
      'core-entry src/machines/m.test.ts',
      'core-entry src/widgets/hub/x.ts',
      'widget-core-values src/widgets/hub/x.ts',
    ]);
  });

  it("core-entry: the oracle's by-hand recorders may read the core's insides, nothing else in scripts/oracle may", () => {
    expect(
      broken({
        'scripts/oracle/record-dns.ts': "import { clock } from '../../src/sim/clock.ts';\n",
        'scripts/oracle/compare.ts': "import { clock } from '../../src/sim/clock.ts';\n",
      }),
    ).toEqual(['core-entry scripts/oracle/compare.ts']);
  });

  it('kubectl-entry: kubectl is loaded lazily outside the CLI', () => {
    expect(
      broken({
        'src/widgets/shared/core.worker.ts': "import { runKubectl } from '../../sim/kubectl/index.ts';\n",
      }),
    ).toEqual(['kubectl-entry src/widgets/shared/core.worker.ts']);
  });

  it("kubectl-entry: the figures' terminal is a lazy entry, loaded with import() everywhere, the CLI included", () => {
    expect(
      broken({
        'src/widgets/shared/t.test.ts': "export const t = () => import('../../sim/figures/terminal.ts');\n",
        'scripts/bench-terminal.ts': "import { runOnFigure } from '../src/sim/figures/terminal.ts';\n",
        'src/widgets/shared/core.worker.ts': "import { runOnFigure } from '../../sim/figures/terminal.ts';\n",
      }),
    ).toEqual(['kubectl-entry scripts/bench-terminal.ts', 'kubectl-entry src/widgets/shared/core.worker.ts']);
  });

  it("machines: only xstate and the core's types", () => {
    expect(
      broken({
        'src/machines/m.ts':
          "import { setup } from 'xstate';\nimport { writable } from 'svelte/store';\nimport { clock } from '../sim/index.ts';\nimport { f } from '../widgets/shared/format.ts';\n",
      }),
    ).toEqual(['machines src/machines/m.ts', 'machines src/machines/m.ts', 'machines src/machines/m.ts']);
  });

  it("widgets: never another widget's folder", () => {
    expect(
      broken({
        'src/widgets/hub/y.ts': "import { r } from '../rollout/view.ts';\n",
        'src/widgets/hub/Hub.astro': "---\nimport Aside from '../../components/Aside.astro';\n---\n",
      }),
    ).toEqual(['widgets src/widgets/hub/Hub.astro', 'widgets src/widgets/hub/y.ts']);
  });

  it("the widgets' island host (generated glue) imports every widget from src/components/, never from a widget's folder", () => {
    const host = (up: string) =>
      `---\nimport { f } from '${up}widgets/shared/format.ts';\nimport A from '${up}widgets/write-watch/WriteWatchWidget.svelte';\nimport B from '${up}widgets/conflict/ConflictWidget.svelte';\n---\n<A /><B />\n`;
    const widgets = {
      'src/widgets/write-watch/WriteWatchWidget.svelte':
        '<script lang="ts">\n  import { f } from \'../shared/format.ts\';\n</script>\n',
      'src/widgets/conflict/ConflictWidget.svelte': '<p>conflict</p>\n',
    };
    expect(
      broken({
        ...widgets,
        'src/components/InlineWidget.astro': host('../'),
        'content/widgets.mdx': "import InlineWidget from '../src/components/InlineWidget.astro';\n",
        'src/pages/embed/[figure]/index.astro':
          "---\nimport InlineWidget from '../../../components/InlineWidget.astro';\n---\n",
      }),
    ).toEqual([]);
    expect(broken({ ...widgets, 'src/widgets/inline/InlineWidget.astro': host('../../') })).toEqual([
      'widgets src/widgets/inline/InlineWidget.astro',
      'widgets src/widgets/inline/InlineWidget.astro',
    ]);
  });

  it("widget-core-values: only the worker imports the core's values", () => {
    expect(
      broken({
        'src/widgets/hub/z.ts': "import { clock } from '../../sim/index.ts';\n",
        'src/widgets/shared/w.ts': "export const load = () => import('../../sim/index.ts');\n",
      }),
    ).toEqual(['widget-core-values src/widgets/hub/z.ts', 'widget-core-values src/widgets/shared/w.ts']);
  });

  it("pages: components, layouts and widgets' wrappers only", () => {
    expect(
      broken({
        'src/pages/index.astro':
          "---\nimport Hub from '../widgets/hub/Hub.astro';\nimport HubS from '../widgets/hub/Hub.svelte';\n---\n",
      }),
    ).toEqual(['pages src/pages/index.astro']);
  });

  it("content: only components and widgets' .astro wrappers", () => {
    expect(
      broken({
        'content/bad.mdx':
          "import Hub from '../src/widgets/hub/Hub.svelte';\nimport { clock } from '../src/sim/index.ts';\nimport yaml from 'yaml';\n",
      }),
    ).toEqual(['content content/bad.mdx', 'content content/bad.mdx', 'content content/bad.mdx']);
  });

  it('e2e: never the source', () => {
    expect(
      broken({
        'e2e/b.spec.ts': "import type { View } from '../src/sim/view/types.ts';\n",
      }),
    ).toEqual(['e2e e2e/b.spec.ts']);
  });

  it('resolves: a relative import names a file inside the repository', () => {
    expect(
      broken({
        'scripts/x.mjs': "import { a } from '/elsewhere/lib.mjs';\nimport { b } from './lib/gone.mjs';\n",
      }),
    ).toEqual(['resolves scripts/x.mjs', 'resolves scripts/x.mjs']);
  });

  it("hub: the API server's values only through its entry (world, cluster, the views' reader) or an optional part's own module", () => {
    expect(
      broken({
        'src/sim/apiserver/index.ts': "export { handle } from './handler.ts';\n",
        'src/sim/apiserver/handler.ts': "import { q } from './store.ts';\nexport const handle = q;\n",
        'src/sim/apiserver/store.ts': 'export const q = 1;\n',
        'src/sim/apiserver/request-checks.ts': 'export const CHECKS = 1;\n',
        'src/sim/world.ts': "import { handle } from './apiserver/index.ts';\n",
        'src/sim/view/stored.ts': "export { handle } from '../apiserver/index.ts';\n",
        'src/sim/figures/uses-part.ts': "import { CHECKS } from '../apiserver/request-checks.ts';\n",
        'src/sim/figures/f.ts':
          "import { q } from '../apiserver/store.ts';\nimport type { Q } from '../apiserver/store.ts';\nimport { handle } from '../apiserver/index.ts';\n",
        'src/sim/controllers/c.ts': "import { handle } from '../apiserver/handler.ts';\n",
        'src/sim/controllers/c.test.ts': "import { q } from '../apiserver/store.ts';\n",
      }),
    ).toEqual(['hub src/sim/controllers/c.ts', 'hub src/sim/figures/f.ts', 'hub src/sim/figures/f.ts']);
  });

  it("components: a component imports no other component's values, but may name its types", () => {
    expect(
      broken({
        'src/sim/kubelet/k.ts': 'export const k = 1;\nexport type K = number;\n',
        'src/sim/kube-proxy/p.ts': "import { k } from '../kubelet/k.ts';\nimport type { K } from '../kubelet/k.ts';\n",
        'src/sim/scheduler/s.test.ts': "import { k } from '../kubelet/k.ts';\n",
        'src/sim/kubelet/other.ts': "import { k } from './k.ts';\n",
      }),
    ).toEqual(['components src/sim/kube-proxy/p.ts']);
  });

  it('client-go: values only from api/, util/, itself, the clock and chance', () => {
    expect(
      broken({
        'src/sim/api/request.ts': 'export const r = 1;\n',
        'src/sim/util/u.ts': 'export const u = 1;\n',
        'src/sim/rng.ts': 'export const g = 1;\n',
        'src/sim/world.ts': 'export const w = 1;\nexport type W = number;\n',
        'src/sim/client-go/informer.ts':
          "import { r } from '../api/request.ts';\nimport { u } from '../util/u.ts';\nimport { g } from '../rng.ts';\nimport { clock } from '../clock.ts';\nimport type { W } from '../world.ts';\n",
        'src/sim/client-go/events.ts': "import { w } from '../world.ts';\n",
      }),
    ).toEqual(['client-go src/sim/client-go/events.ts']);
  });

  it("server: the API server imports only the API, utilities, itself and the controllers' names, types included", () => {
    expect(
      broken({
        'src/sim/api/request.ts': 'export type R = number;\n',
        'src/sim/controllers/names.ts': "export const C = 'c';\n",
        'src/sim/controllers/c.ts': 'export const c = 1;\n',
        'src/sim/kubelet/kubelet-state.ts': 'export type K = number;\n',
        'src/sim/apiserver/server.ts': 'export type ApiHost = number;\n',
        'src/sim/apiserver/eviction.ts':
          "import type { R } from '../api/request.ts';\nimport { C } from '../controllers/names.ts';\nimport type { ApiHost } from './server.ts';\n",
        'src/sim/apiserver/kubelet-client.ts': "import type { K } from '../kubelet/kubelet-state.ts';\n",
        'src/sim/apiserver/pdb.ts': "import { c } from '../controllers/c.ts';\n",
        'src/sim/apiserver/pdb.test.ts': "import { c } from '../controllers/c.ts';\n",
      }),
    ).toEqual(['server src/sim/apiserver/kubelet-client.ts', 'server src/sim/apiserver/pdb.ts']);
  });

  describe('the repository', () => {
    const root = join(import.meta.dirname, '..');
    const built = new Map<boolean, Map<string, string[]>>();
    /** The core's non-test import graph: every static import, or only the value imports (each built once). */
    const graph = (values: boolean): Map<string, string[]> => {
      const known = built.get(values);
      if (known) return known;
      const next = new Map<string, string[]>();
      built.set(values, next);
      for (const f of sourceFiles(root).filter((f) => f.startsWith('src/sim/') && !/\.test(-d)?\.ts$/.test(f)))
        next.set(
          f,
          importsOf(f, readFileSync(join(root, f), 'utf8'))
            .filter((i) => !i.dynamic && !(values && i.typeOnly))
            .map((i) => resolveImport(root, f, i.spec).file)
            .filter((t): t is string => !!t),
        );
      return next;
    };
    /** Whether `from` reaches itself again through `next`. */
    const onCycle = (next: Map<string, string[]>, from: string): boolean => {
      const seen = new Set<string>();
      const todo = [...(next.get(from) ?? [])];
      while (todo.length) {
        const f = todo.pop()!;
        if (f === from) return true;
        if (seen.has(f)) continue;
        seen.add(f);
        todo.push(...(next.get(f) ?? []));
      }
      return false;
    };

    it("no import cycle passes through the API server's files (ApiHost, its configuration, its handlers), type imports counted", () => {
      const next = graph(false);
      const server = [...next.keys()].filter((f) => f.startsWith('src/sim/apiserver/'));
      expect(server).toContain('src/sim/apiserver/server.ts');
      expect(server.filter((f) => onCycle(next, f))).toEqual([]);
    });

    it('names no design outside the repository: docs/DESIGN.md is the one the code is checked against', () => {
      const outside = ['shared', 'DESIGN'].join('/');
      const docs = ['README.md', 'docs/DESIGN.md', 'src/sim/ARCHITECTURE.md', 'src/sim/NOTES.md'];
      const files = [...sourceFiles(root), ...docs];
      expect(files.filter((f) => readFileSync(join(root, f), 'utf8').includes(outside))).toEqual([]);
    });

    it('kubectl knows no figure: nothing in kubectl/ imports from figures/, types included (the arrow runs figures → kubectl)', () => {
      const next = graph(false);
      const back = [...next].filter(
        ([f, to]) => f.startsWith('src/sim/kubectl/') && to.some((t) => t.startsWith('src/sim/figures/')),
      );
      expect(back.map(([f]) => f)).toEqual([]);
    });

    it('the core has no value-level import cycle (the review of 2026-12-01, §1.3)', () => {
      const next = graph(true);
      expect([...next.keys()].filter((f) => onCycle(next, f))).toEqual([]);
    });
  });

  it('has a test above for every rule', () => {
    expect(Object.keys(RULES)).toHaveLength(15);
  });
});
