/**
 * The dependency rules of DESIGN §3 as an import-graph check. Every import in src/, scripts/, e2e/
 * and content/*.mdx is read with the TypeScript parser (the <script> blocks and frontmatter of
 * .svelte and .astro files, the ESM lines of .mdx), resolved to a file of the repository or a
 * package, and held against the rules below; the core's non-test code is also read for the wall
 * clock, chance, timers and the DOM. Writes reports/deps.json (one check per rule) for .ci/run.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The folders read, and the file endings read in each. */
const SOURCES = [
  { dir: 'src', ext: /\.(ts|mts|js|mjs|svelte|astro)$/ },
  { dir: 'scripts', ext: /\.(ts|mts|js|mjs)$/ },
  { dir: 'e2e', ext: /\.(ts|mts|js|mjs)$/ },
  { dir: 'content', ext: /\.mdx$/ },
];

/** The core's public entries (DESIGN §3): everything outside src/sim comes in through one. */
const CORE_ENTRY = 'src/sim/index.ts';
/** kubectl and the script runner: the CLI's, and lazy everywhere else. */
const KUBECTL_ENTRY = 'src/sim/kubectl/index.ts';
/** The figures' terminal, which brings kubectl: the worker's lazy chunk (figures/serve.ts loads it), lazy everywhere. */
const TERMINAL_ENTRY = 'src/sim/figures/terminal.ts';
/** The only file outside the core that may import the core's values: it runs the core in a worker. */
const CORE_WORKER = 'src/widgets/shared/core.worker.ts';

/**
 * Type-only imports (`import type`, `export type … from`, `import('…').T` in a type) may name any
 * core module directly, not only the entries: they are erased before anything runs, so they add no
 * edge to the bundle and cannot reach around the hub at run time. The widgets rely on it for
 * `src/sim/view/types.ts` and `src/sim/figures/protocol.ts`. `import { type A }` does not count:
 * under `verbatimModuleSyntax` it stays in the output as `import {} from '…'`, a real edge.
 */
const TYPE_IMPORTS_MAY_NAME_CORE_MODULES = true;

/**
 * The hub inside the core (docs/DESIGN.md §2): the API server's entry and who may import its values.
 * Clients share the API's types and helpers through src/sim/api/, never the server's modules.
 */
const SERVER_DIR = 'src/sim/apiserver/';
const SERVER_ENTRY = 'src/sim/apiserver/index.ts';
const SERVER_ENTRY_USERS = ['src/sim/world.ts', 'src/sim/cluster.ts', 'src/sim/view/stored.ts'];
/**
 * The server's optional parts (docs/DESIGN.md §7): the request checks and kubectl's server paths, each
 * imported by the figures' and kubectl's chunks that register it (a barrel for both would put both in each).
 */
const SERVER_PARTS = ['src/sim/apiserver/request-checks.ts', 'src/sim/apiserver/kubectl-extras.ts'];
/**
 * What the API server's own files may import, types included: the API, the utilities, itself, the
 * world's clock, chance and request log, and three leaves of the components it must name (the
 * controllers' names, the node taints' keys, podutil's IsPodReady). Types count here: a type import
 * of a client or a component is how the server once closed a type-level cycle through ApiHost.
 */
const SERVER_MAY_USE =
  /^src\/sim\/(api\/|util\/|apiserver\/|clock\.ts$|rng\.ts$|request-log(-cache)?\.ts$|controllers\/names\.ts$|node-lifecycle\/taints\.ts$|controllers\/replicaset-util\.ts$)/;
/** The components, each of which talks to the others only through the API server. */
const COMPONENTS = ['controllers', 'scheduler', 'kubelet', 'node-lifecycle', 'kubectl', 'kube-proxy'];
const componentOf = (path) => COMPONENTS.find((c) => path.startsWith(`src/sim/${c}/`));
/** What client-go may import values from: the API, the utilities, itself, and the world's clock and chance. */
const CLIENT_GO_MAY_USE = /^src\/sim\/(api\/|util\/|client-go\/|clock\.ts$|rng\.ts$)/;

/** What the core may not name: the view layers and the frameworks they run on. */
const VIEW_FOLDERS = ['src/widgets/', 'src/machines/', 'src/components/', 'src/pages/', 'src/layouts/'];
const VIEW_PACKAGES = /^(svelte|astro|@astrojs\/.*|@sveltejs\/.*)$/;

/** Ambient sources of time, chance and the DOM the core's code must not touch (DESIGN §3). */
const FORBIDDEN_MEMBERS = { Date: ['now'], Math: ['random'], performance: ['now'] };
const FORBIDDEN_GLOBALS = new Set(['setTimeout', 'setInterval', 'document', 'window']);

/** The rules, in the order the report lists them. */
export const RULES = {
  'sim-imports': 'src/sim imports nothing from Svelte, Astro, widgets, machines, components, pages or layouts',
  'sim-globals':
    'src/sim (non-test) never touches Date.now, Math.random, performance.now, setTimeout, setInterval, document or window',
  'core-entry':
    'code outside src/sim imports the core only through src/sim/index.ts or a lazy entry, src/sim/kubectl/index.ts or src/sim/figures/terminal.ts (type-only imports excepted)',
  'kubectl-entry':
    'the lazy entries are loaded with import(): src/sim/kubectl/index.ts statically only by scripts/ (the CLI), src/sim/figures/terminal.ts never',
  machines: "src/machines imports only xstate and the core's types",
  widgets:
    "a widget imports only its own folder, src/widgets/shared, src/machines and the core's types, never another widget",
  'widget-core-values': "only src/widgets/shared/core.worker.ts imports the core's values",
  pages: "src/pages imports only components, layouts and widgets' .astro wrappers",
  content: "content/ imports only src/components and widgets' .astro wrappers",
  e2e: 'e2e/ never imports from src/ (only its own files and scripts/lib)',
  resolves: 'every relative import resolves to a file inside the repository',
  hub: "outside src/sim/apiserver, the API server's values come only through apiserver/index.ts (world.ts, cluster.ts, view/stored.ts) or an optional part's own module",
  components:
    "a component (controllers, scheduler, kubelet, node-lifecycle, kubectl, kube-proxy) imports no other component's values",
  server:
    "the API server (src/sim/apiserver) imports, types included, only api/, util/, itself, the clock, chance, the request log and the controllers' and taints' names",
  'client-go':
    "client-go imports values only from api/, util/, client-go/ and the world's clock and chance (types from anywhere)",
};

const isTest = (file) => /\.(test|test-d|spec)\.[mc]?[jt]s$/.test(file);
const toPosix = (p) => p.split(sep).join('/');

/** Every source file under root, as repository-relative POSIX paths. */
export function sourceFiles(root) {
  const out = [];
  const walk = (dir, ext, top) => {
    if (!existsSync(join(root, dir))) return;
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!top && entry.name !== 'node_modules') walk(rel, ext, false);
      } else if (ext.test(entry.name)) out.push(rel);
    }
  };
  for (const { dir, ext } of SOURCES) walk(dir, ext, dir === 'content');
  return out.sort();
}

/** The TypeScript parts of a file, each with the line it starts on, and the markup left over. */
export function scriptParts(file, text) {
  const parts = [];
  const lineAt = (index) => text.slice(0, index).split('\n').length - 1;
  let markup = '';
  if (file.endsWith('.svelte') || file.endsWith('.astro')) {
    let rest = text;
    if (file.endsWith('.astro')) {
      const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
      if (fm) {
        parts.push({ code: fm[1], line: 1 });
        rest = ' '.repeat(fm[0].length) + text.slice(fm[0].length);
      }
    }
    const script = /<script\b[^>]*>([\s\S]*?)<\/script>/g;
    for (const m of rest.matchAll(script)) parts.push({ code: m[1], line: lineAt(m.index + m[0].indexOf('>') + 1) });
    markup = rest
      .replace(script, (s) => s.replace(/[^\n]/g, ' '))
      .replace(/<style\b[\s\S]*?<\/style>/g, (s) => s.replace(/[^\n]/g, ' '));
  } else if (file.endsWith('.mdx')) {
    // MDX's ESM: top-level lines that start with import/export, outside code fences, up to the
    // line that closes the statement (its `from '…'` or a bare `import '…'`).
    const lines = text.split('\n');
    let fence = false;
    for (let i = 0; i < lines.length; i++) {
      if (/^\s*(```|~~~)/.test(lines[i])) fence = !fence;
      if (fence || !/^(import|export)\s/.test(lines[i])) continue;
      const start = i;
      while (i < lines.length - 1 && !/(from\s*|^import\s*)['"][^'"]+['"]\s*;?\s*$/.test(lines[i])) i++;
      parts.push({ code: lines.slice(start, i + 1).join('\n'), line: start });
    }
  } else {
    parts.push({ code: text, line: 0 });
  }
  return { parts, markup };
}

/** Whether an import or export declaration is erased entirely (`import type`, `export type`). */
function declarationIsTypeOnly(node) {
  if (ts.isImportDeclaration(node)) return node.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword;
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  return false;
}

/**
 * Every import of a file: { spec, line, typeOnly, dynamic }. Static imports and re-exports,
 * dynamic import(), `new URL('./x', import.meta.url)` (how a worker is loaded) and import types.
 */
export function importsOf(file, text) {
  const found = [];
  const { parts, markup } = scriptParts(file, text);
  for (const part of parts) {
    const sf = ts.createSourceFile(file + '.ts', part.code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const line = (node) => part.line + sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    const visit = (node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        found.push({
          spec: node.moduleSpecifier.text,
          line: line(node),
          typeOnly: declarationIsTypeOnly(node),
          dynamic: false,
        });
      } else if (
        ts.isImportEqualsDeclaration(node) &&
        ts.isExternalModuleReference(node.moduleReference) &&
        ts.isStringLiteral(node.moduleReference.expression)
      ) {
        found.push({
          spec: node.moduleReference.expression.text,
          line: line(node),
          typeOnly: node.isTypeOnly,
          dynamic: false,
        });
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteralLike(node.arguments[0])
      ) {
        found.push({ spec: node.arguments[0].text, line: line(node), typeOnly: false, dynamic: true });
      } else if (
        ts.isImportTypeNode(node) &&
        ts.isLiteralTypeNode(node.argument) &&
        ts.isStringLiteral(node.argument.literal)
      ) {
        found.push({ spec: node.argument.literal.text, line: line(node), typeOnly: true, dynamic: false });
      } else if (
        ts.isNewExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'URL' &&
        node.arguments?.length === 2 &&
        ts.isStringLiteralLike(node.arguments[0]) &&
        node.arguments[0].text.startsWith('.') &&
        node.arguments[1].getText(sf) === 'import.meta.url'
      ) {
        found.push({ spec: node.arguments[0].text, line: line(node), typeOnly: false, dynamic: true });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  // Markup expressions hold TypeScript too (a snippet's parameter types): `import('…').Name` not
  // followed by a call is a type; any other import('…') is a dynamic import.
  for (const m of markup.matchAll(/\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)(\s*\.\s*[A-Za-z_$][\w$]*\s*(\()?)?/g)) {
    const typeOnly = Boolean(m[3]) && !m[4] && !/\.\s*then\b/.test(m[3]);
    found.push({ spec: m[2], line: markup.slice(0, m.index).split('\n').length, typeOnly, dynamic: !typeOnly });
  }
  return found;
}

/** A bare specifier's package (`astro:content` → astro, `@a/b/c` → @a/b, `node:fs` → node:fs). */
function packageOf(spec) {
  if (spec.startsWith('node:')) return spec;
  if (/^[a-z]+:/.test(spec)) return spec.slice(0, spec.indexOf(':'));
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Where an import points: { file } inside the repository, { pkg } for a package, or { outside }. */
export function resolveImport(root, from, spec) {
  const clean = spec.replace(/[?#].*$/, '');
  if (!clean.startsWith('.') && !clean.startsWith('/')) return { pkg: packageOf(clean) };
  const abs = resolve(root, dirname(from), clean);
  const rel = toPosix(relative(root, abs));
  if (rel.startsWith('..') || rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) return { outside: clean };
  const candidates = [
    rel,
    ...['.ts', '.mts', '.mjs', '.js', '.svelte', '.astro'].map((e) => rel + e),
    `${rel}/index.ts`,
    `${rel}/index.mjs`,
  ];
  const hit = candidates.find((c) => existsSync(join(root, c)) && statSync(join(root, c)).isFile());
  return hit ? { file: hit } : { missing: rel };
}

/** The ambient time, chance and DOM a core file touches: [{ line, name }] (comments and strings never count). */
export function ambientUses(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const hits = [];
  const line = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  // globalThis.setTimeout is setTimeout; globalThis.Date.now is Date.now.
  const baseName = (expr) => {
    if (ts.isIdentifier(expr)) return expr.text;
    if (
      ts.isPropertyAccessExpression(expr) &&
      ts.isIdentifier(expr.expression) &&
      expr.expression.text === 'globalThis'
    )
      return expr.name.text;
    return undefined;
  };
  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node)) {
      const owner = baseName(node.expression);
      if (owner && FORBIDDEN_MEMBERS[owner]?.includes(node.name.text))
        hits.push({ line: line(node), name: `${owner}.${node.name.text}` });
      if (
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'globalThis' &&
        FORBIDDEN_GLOBALS.has(node.name.text)
      )
        hits.push({ line: line(node), name: node.name.text });
    } else if (ts.isIdentifier(node) && FORBIDDEN_GLOBALS.has(node.text)) {
      const p = node.parent;
      // A member name (`x.window`, `{ window: 1 }`, `window?: number`) is not the global.
      const isName =
        (ts.isPropertyAccessExpression(p) && p.name === node) ||
        ((ts.isPropertyAssignment(p) ||
          ts.isPropertySignature(p) ||
          ts.isPropertyDeclaration(p) ||
          ts.isMethodDeclaration(p) ||
          ts.isMethodSignature(p) ||
          ts.isGetAccessor(p) ||
          ts.isSetAccessor(p) ||
          ts.isEnumMember(p)) &&
          p.name === node) ||
        (ts.isBindingElement(p) && p.propertyName === node) ||
        ts.isQualifiedName(p);
      if (!isName) hits.push({ line: line(node), name: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return hits;
}

/** The widget folder a path belongs to (`src/widgets/hub/x.ts` → hub), or undefined. */
const widgetOf = (path) => /^src\/widgets\/([^/]+)\//.exec(path)?.[1];
const under = (path, ...folders) => folders.some((f) => path.startsWith(f));

/** Checks one import against every rule; returns the broken rules' ids with a reason each. */
function judge(from, imp, target) {
  const broken = [];
  const fail = (rule, why) => broken.push({ rule, why });
  const t = target.file;
  const inSim = (p) => p.startsWith('src/sim/');
  const coreValue = t && inSim(t) && !imp.typeOnly;

  if (target.outside) fail('resolves', `it points outside the repository (${target.outside})`);
  if (target.missing) fail('resolves', `no file ${target.missing} exists`);

  if (inSim(from)) {
    if (target.pkg && VIEW_PACKAGES.test(target.pkg)) fail('sim-imports', `the core may not use ${target.pkg}`);
    if (t && under(t, ...VIEW_FOLDERS)) fail('sim-imports', `the core may not reach the view layer (${t})`);
    // The test fixtures (src/sim/testing/) serve tests only: no part of the core runs on them.
    if (t && t.startsWith('src/sim/testing/') && !from.startsWith('src/sim/testing/') && !isTest(from))
      fail('sim-imports', `the core may not import test fixtures (${t})`);
    if (t && inSim(t) && from.startsWith(SERVER_DIR) && !isTest(from) && !SERVER_MAY_USE.test(t))
      fail('server', `the API server may not import ${t}, not even its types: clients and components sit above it`);
    // The three rules of the hub hold for the model; a test (and a test fixture) may reach any module it checks.
    if (t && t.startsWith('src/sim/') && !imp.typeOnly && !isTest(from) && !from.startsWith('src/sim/testing/')) {
      if (t.startsWith(SERVER_DIR) && !from.startsWith(SERVER_DIR)) {
        const door = t === SERVER_ENTRY ? SERVER_ENTRY_USERS.includes(from) : SERVER_PARTS.includes(t);
        if (!door)
          fail(
            'hub',
            t === SERVER_ENTRY
              ? `only ${SERVER_ENTRY_USERS.join(', ')} run the API server; a client uses src/sim/api/`
              : `${t} is the API server's: a client uses src/sim/api/, world.ts and cluster.ts ${SERVER_ENTRY}, an optional part its own module (${SERVER_PARTS.join(', ')})`,
          );
      }
      const a = componentOf(from);
      const b = componentOf(t);
      if (a && b && a !== b)
        fail('components', `${t} is ${b}'s: components meet only at the API server (share code through api/ or util/)`);
      if (from.startsWith('src/sim/client-go/') && !CLIENT_GO_MAY_USE.test(t))
        fail(
          'client-go',
          `client-go may not import ${t} (only api/, util/, client-go/, clock.ts, rng.ts; \`import type\` for the world's types)`,
        );
    }
    return broken;
  }

  if (t && inSim(t)) {
    const throughEntry = t === CORE_ENTRY || t === KUBECTL_ENTRY || t === TERMINAL_ENTRY;
    // The oracle's by-hand recorders (scripts/oracle/record-*.ts, run with Go, never by npm test or
    // in a bundle) read the simulation's insides as the tests beside them do: a judge's fixture
    // (src/sim/testing/) and an add-on's constants are not worth a door in the entries.
    const recorder = /^scripts\/oracle\/record-[a-z-]+\.ts$/.test(from);
    if (!throughEntry && !recorder && !(imp.typeOnly && TYPE_IMPORTS_MAY_NAME_CORE_MODULES)) {
      fail(
        'core-entry',
        `${t} is inside the core: import its values from ${CORE_ENTRY}${imp.typeOnly ? '' : ' (or write `import type` for types)'}`,
      );
    }
    if (t === KUBECTL_ENTRY && !imp.typeOnly && !imp.dynamic && !from.startsWith('scripts/')) {
      fail('kubectl-entry', 'load kubectl lazily, with import(), outside the CLI');
    }
    if (t === TERMINAL_ENTRY && !imp.typeOnly && !imp.dynamic) {
      fail('kubectl-entry', "load the figures' terminal lazily, with import() (the CLI uses src/sim/kubectl/index.ts)");
    }
  }

  // A test of a machine or a widget may drive the real core through its entry: a statechart test
  // checks the system, not the graph against itself (DESIGN §6). The entry rule above still holds.
  const test = isTest(from);
  if (from.startsWith('src/machines/') && !test) {
    if (target.pkg && target.pkg !== 'xstate') fail('machines', `a machine may use only xstate, not ${target.pkg}`);
    if (t && !t.startsWith('src/machines/') && !(inSim(t) && imp.typeOnly)) {
      fail(
        'machines',
        inSim(t)
          ? `${t}: a machine may import the core's types only (\`import type\`)`
          : `a machine may not import ${t}`,
      );
    }
  }

  const widget = widgetOf(from);
  if (widget && t && t.startsWith('src/')) {
    const own = `src/widgets/${widget}/`;
    if (!under(t, own, 'src/widgets/shared/', 'src/machines/', 'src/sim/')) {
      fail(
        'widgets',
        widgetOf(t) ? `${t} is another widget's (share it through src/widgets/shared)` : `a widget may not import ${t}`,
      );
    }
    if (coreValue && from !== CORE_WORKER && !test)
      fail('widget-core-values', `${t}: only ${CORE_WORKER} imports the core's values; write \`import type\``);
  }

  if (
    from.startsWith('src/pages/') &&
    t &&
    t.startsWith('src/') &&
    !(under(t, 'src/components/', 'src/layouts/') || (t.startsWith('src/widgets/') && t.endsWith('.astro')))
  ) {
    fail('pages', `a page may not import ${t}`);
  }

  if (from.startsWith('content/')) {
    if (target.pkg) fail('content', `a chapter may not import the package ${target.pkg}`);
    if (t && !(t.startsWith('src/components/') || (t.startsWith('src/widgets/') && t.endsWith('.astro')))) {
      fail(
        'content',
        t.startsWith('src/widgets/') ? `${t}: import the widget's .astro wrapper` : `a chapter may not import ${t}`,
      );
    }
  }

  if (from.startsWith('e2e/') && t && !under(t, 'e2e/', 'scripts/lib/')) {
    fail(
      'e2e',
      t.startsWith('src/') ? `${t}: the browser tests see the built site, never the source` : `e2e may not import ${t}`,
    );
  }
  return broken;
}

/** Reads the tree at root and returns { files, imports, violations: [{ rule, file, line, spec, message }] }. */
export function checkTree(root) {
  const files = sourceFiles(root);
  const violations = [];
  let imports = 0;
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const imp of importsOf(file, text)) {
      imports++;
      for (const { rule, why } of judge(file, imp, resolveImport(root, file, imp.spec))) {
        violations.push({
          rule,
          file,
          line: imp.line,
          spec: imp.spec,
          message: `${file}:${imp.line} imports '${imp.spec}': ${why} [${rule}]`,
        });
      }
    }
    if (file.startsWith('src/sim/') && /\.[mc]?ts$/.test(file) && !isTest(file)) {
      for (const hit of ambientUses(file, text)) {
        violations.push({
          rule: 'sim-globals',
          file,
          line: hit.line,
          spec: hit.name,
          message: `${file}:${hit.line} uses ${hit.name}: the core's time is the simulated clock, its chance the seeded generator, and it has no DOM [sim-globals]`,
        });
      }
    }
  }
  return { files: files.length, imports, violations };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { createReport } = await import('./lib/report.mjs');
  const report = createReport('deps');
  const { files, imports, violations } = checkTree(process.cwd());
  console.log(`deps: ${imports} imports in ${files} files`);
  for (const [rule, text] of Object.entries(RULES)) {
    const mine = violations.filter((v) => v.rule === rule);
    report.check(`${rule}: ${text}`, mine.length === 0, mine.map((v) => v.message).join('\n      '));
  }
  report.finish();
}
