/**
 * The dead-export check (review of 2026-12-01, §1.5 and change 5): every name a module in src/ or
 * scripts/ exports must be imported by another file, and every such module must be imported by
 * another file or be an entry point. Writes reports/exports.json for .ci/run.
 *
 * - A user is any other file of src/, scripts/, e2e/, content/*.mdx or a root *.config.* file,
 *   tests included: the review counts "exported and used nowhere" as dead and lists "used only by
 *   tests" apart (kubelet's powerOn drives a test as a figure's panel would), so a test's import
 *   keeps a name. A name used only inside its own file is not exported.
 * - Imports are followed through re-exports (`export { a } from`, `export * from`): a barrel's
 *   re-export is itself an export, dead when nobody imports the name through it. A namespace
 *   import, or an `import()` whose names cannot be read off the code, uses every name.
 * - The only exemptions are the framework's entry points, whose exports a framework reads: Astro's
 *   pages (src/pages/), its content config (src/content.config.ts) and the default export of a
 *   .svelte or .astro file (never listed). A file run by name (a script package.json or a
 *   README's command runs, a setup file a config names) needs no importer; its exports still
 *   need one, as nothing reads a CLI's exports.
 * It reads the files with the TypeScript parser only (no type checker), about as fast as
 * check-deps. `node scripts/check-exports.mjs --fix` un-exports the names used only in their own
 * file; a name used nowhere is deleted by hand.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { resolveImport, scriptParts, sourceFiles } from './check-deps.mjs';

/** Root files that import from src/ or scripts/ (the tools' configurations). */
const ROOT_FILES = ['astro.config.mjs', 'vitest.config.ts', 'playwright.config.ts', 'eslint.config.js'];

const isTest = (file) => /\.(test|test-d|spec)\.[mc]?[jt]s$/.test(file);
/** A module whose exports are checked: TypeScript or JavaScript in src/ or scripts/, not a test. */
const checked = (file) =>
  /^(src|scripts)\//.test(file) && /\.[mc]?[jt]s$/.test(file) && !/\.d\.[mc]?ts$/.test(file) && !isTest(file);
/** Files a framework or a tool loads by itself: Astro's pages and content config. */
const frameworkEntry = (file) => file.startsWith('src/pages/') || file === 'src/content.config.ts';

/**
 * The files run or loaded by name rather than imported: the scripts package.json's commands run,
 * the files the tools' configs name by path (vitest's setupFiles), and the by-hand scripts the
 * repository's Markdown tells a reader to run (`node scripts/kubectl-golden.ts`).
 */
function namedEntries(root) {
  const out = new Set();
  const texts = [JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts)];
  for (const f of ROOT_FILES) if (existsSync(join(root, f))) texts.push(readFileSync(join(root, f), 'utf8'));
  let docs = [];
  try {
    docs = execFileSync('git', ['ls-files', '-z', '--', '*.md'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\0')
      .filter(Boolean);
  } catch {
    // not a git checkout (a test's temporary tree): no Markdown names a script
  }
  for (const f of docs) if (existsSync(join(root, f))) texts.push(readFileSync(join(root, f), 'utf8'));
  for (const text of texts)
    for (const m of text.matchAll(/(?<![\w/])\.?\/?((?:src|scripts)\/[\w./-]+?\.[mc]?[jt]s)\b/g)) out.add(m[1]);
  return out;
}

/** The names bound by a declaration's name (a destructuring `export const { a, b } = …` binds several). */
function boundNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((el) => (ts.isOmittedExpression(el) ? [] : boundNames(el.name)));
}

/** The names read off the value a module namespace lands in: a destructuring, `m.name`, or every name ('*'). */
function namesRead(node) {
  const p = node.parent;
  if (ts.isParenthesizedExpression(p) || ts.isAwaitExpression(p)) return namesRead(p);
  if (ts.isPropertyAccessExpression(p) && p.expression === node)
    return p.name.text === 'then' ? thenNames(p) : [p.name.text];
  if (ts.isVariableDeclaration(p) && p.initializer === node && ts.isObjectBindingPattern(p.name))
    return bindingNames(p.name);
  return ['*'];
}
/** `import('…').then(({ a }) => …)` or `.then((m) => m.a)`. */
function thenNames(access) {
  const call = access.parent;
  const fn = ts.isCallExpression(call) ? call.arguments[0] : undefined;
  const param = fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) ? fn.parameters[0] : undefined;
  if (!param) return ['*'];
  if (ts.isObjectBindingPattern(param.name)) return bindingNames(param.name);
  const names = [];
  let other = false;
  const visit = (n) => {
    if (ts.isIdentifier(n) && n.text === param.name.text && n !== param.name) {
      if (ts.isPropertyAccessExpression(n.parent) && n.parent.expression === n) names.push(n.parent.name.text);
      else other = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(fn.body);
  return other ? ['*'] : names;
}
function bindingNames(pattern) {
  if (pattern.elements.some((el) => el.dotDotDotToken || (el.propertyName && !ts.isIdentifier(el.propertyName))))
    return ['*'];
  return pattern.elements.map((el) => (el.propertyName ?? el.name).text);
}

/**
 * One file's module surface: exports (name → { line, from?, name? } where `from` marks a
 * re-export), stars (files it re-exports wholesale), uses ([file, name] it imports) and, per local
 * export, how often its name occurs in the file besides its declaration.
 */
function surfaceOf(root, file, text) {
  const exports = new Map();
  const stars = [];
  const uses = [];
  const ownUses = new Map();
  const target = (spec) => resolveImport(root, file, spec).file;
  const { parts, markup } = scriptParts(file, text);
  for (const part of parts) {
    const sf = ts.createSourceFile(file + '.ts', part.code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const line = (node) => part.line + sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    const imported = new Map(); // local name → [file, name], for `import { a } …; export { a }`
    const declNames = new Set();
    // How to un-export a name (--fix), for a whole-file part only: the `export` keyword of its
    // statement (with every name the statement binds), or its element of an `export { … }` list.
    const whole = part.code === text;
    const keywordOf = (st) => {
      const kw = ts.getModifiers(st).find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      let end = kw.end;
      while (/\s/.test(text[end])) end++;
      return { start: kw.getStart(sf), end };
    };
    const addLocal = (name, node, decl, fix) => {
      exports.set(name, { line: line(node), fix: whole ? fix : undefined });
      if (decl) declNames.add(decl);
    };
    for (const st of sf.statements) {
      if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
        const t = target(st.moduleSpecifier.text);
        const clause = st.importClause;
        if (!t || !clause) continue;
        if (clause.name) {
          uses.push([t, 'default']);
          imported.set(clause.name.text, [t, 'default']);
        }
        const nb = clause.namedBindings;
        if (nb && ts.isNamespaceImport(nb)) uses.push([t, '*']);
        if (nb && ts.isNamedImports(nb)) {
          for (const el of nb.elements) {
            const name = (el.propertyName ?? el.name).text;
            uses.push([t, name]);
            imported.set(el.name.text, [t, name]);
          }
        }
      }
    }
    for (const st of sf.statements) {
      const mods = ts.canHaveModifiers(st) ? (ts.getModifiers(st) ?? []) : [];
      const exported = mods.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      const isDefault = mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (exported && ts.isVariableStatement(st)) {
        const names = st.declarationList.declarations.flatMap((d) => boundNames(d.name));
        for (const d of st.declarationList.declarations)
          for (const n of boundNames(d.name)) addLocal(n, d, n, { keyword: keywordOf(st), names });
      } else if (
        exported &&
        (ts.isFunctionDeclaration(st) ||
          ts.isClassDeclaration(st) ||
          ts.isInterfaceDeclaration(st) ||
          ts.isTypeAliasDeclaration(st) ||
          ts.isEnumDeclaration(st) ||
          ts.isModuleDeclaration(st))
      ) {
        if (isDefault) addLocal('default', st);
        else if (st.name) addLocal(st.name.text, st, st.name.text, { keyword: keywordOf(st), names: [st.name.text] });
      } else if (ts.isExportAssignment(st)) {
        addLocal('default', st);
      } else if (ts.isExportDeclaration(st)) {
        const from =
          st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? target(st.moduleSpecifier.text) : undefined;
        if (st.moduleSpecifier && !from) continue; // a package's names
        if (!st.exportClause) {
          stars.push(from);
          continue;
        }
        if (ts.isNamespaceExport(st.exportClause)) {
          exports.set(st.exportClause.name.text, { line: line(st), from, name: '*' });
          continue;
        }
        for (const el of st.exportClause.elements) {
          const local = (el.propertyName ?? el.name).text;
          if (from) exports.set(el.name.text, { line: line(el), from, name: local });
          else if (imported.has(local))
            exports.set(el.name.text, { line: line(el), from: imported.get(local)[0], name: imported.get(local)[1] });
          else {
            const list = { start: st.getStart(sf), end: st.end, count: st.exportClause.elements.length };
            exports.set(el.name.text, {
              line: line(el),
              fix: whole ? { element: { start: el.getStart(sf), end: el.end }, list } : undefined,
            });
            declNames.add(local);
          }
        }
      }
    }
    // import('…'), import types, a worker's `new URL('./x', import.meta.url)`, and every identifier
    // (to tell "used in its own file" from "used nowhere").
    const counts = new Map();
    const visit = (node) => {
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteralLike(node.arguments[0])
      ) {
        const t = target(node.arguments[0].text);
        if (t) for (const n of namesRead(node)) uses.push([t, n]);
      } else if (
        ts.isImportTypeNode(node) &&
        ts.isLiteralTypeNode(node.argument) &&
        ts.isStringLiteral(node.argument.literal)
      ) {
        const t = target(node.argument.literal.text);
        let q = node.qualifier;
        while (q && ts.isQualifiedName(q)) q = q.left;
        if (t) uses.push([t, q ? q.text : '*']);
      } else if (
        ts.isNewExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'URL' &&
        node.arguments?.length === 2 &&
        ts.isStringLiteralLike(node.arguments[0]) &&
        node.arguments[0].text.startsWith('.')
      ) {
        const t = target(node.arguments[0].text);
        if (t) uses.push([t, '']);
      } else if (ts.isIdentifier(node)) {
        counts.set(node.text, (counts.get(node.text) ?? 0) + 1);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    for (const n of declNames) ownUses.set(n, (ownUses.get(n) ?? 0) + (counts.get(n) ?? 0) - 1);
  }
  // Import types in markup and in JSDoc (`{import('./x').T}`), which the parse above does not see.
  for (const m of (markup + text).matchAll(/\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)\s*\.\s*([A-Za-z_$][\w$]*)/g)) {
    const t = target(m[2]);
    if (t && m[3] !== 'then') uses.push([t, m[3]]);
  }
  return { exports, stars, uses, ownUses };
}

/** Reads the tree at root: { files, exports, unused: [{ file, line, name, own }], orphans: [file] }. */
export function checkExports(root) {
  const files = [...sourceFiles(root), ...ROOT_FILES.filter((f) => existsSync(join(root, f)))];
  const surfaces = new Map(files.map((f) => [f, surfaceOf(root, f, readFileSync(join(root, f), 'utf8'))]));
  const used = new Set();
  const importedBy = new Map();
  const mark = (file, name, seen = new Set()) => {
    const key = `${file}\0${name}`;
    const s = surfaces.get(file);
    if (!s || seen.has(key)) return;
    seen.add(key);
    if (name === '*') {
      for (const n of s.exports.keys()) mark(file, n, seen);
      for (const star of s.stars) mark(star, '*', seen);
      return;
    }
    const e = s.exports.get(name);
    if (e) {
      used.add(key);
      if (e.from) mark(e.from, e.name, seen);
    } else if (name !== 'default') {
      for (const star of s.stars) mark(star, name, seen);
    }
  };
  for (const [file, s] of surfaces) {
    for (const [t, name] of s.uses) {
      if (t === file) continue;
      if (!importedBy.has(t)) importedBy.set(t, new Set());
      importedBy.get(t).add(file);
      if (name) mark(t, name);
    }
    // A star re-export links files: the barrel imports its parts.
    for (const t of s.stars) {
      if (!importedBy.has(t)) importedBy.set(t, new Set());
      importedBy.get(t).add(file);
    }
  }
  const entries = namedEntries(root);
  const unused = [];
  const orphans = [];
  let count = 0;
  for (const [file, s] of surfaces) {
    if (!checked(file)) continue;
    if (!frameworkEntry(file) && !entries.has(file) && !importedBy.has(file)) orphans.push(file);
    if (frameworkEntry(file)) continue;
    for (const [name, e] of s.exports) {
      count++;
      if (!used.has(`${file}\0${name}`))
        unused.push({ file, line: e.line, name, own: !e.from && (s.ownUses.get(name) ?? 0) > 0 });
    }
  }
  return { files: surfaces.size, exports: count, unused, orphans };
}

/**
 * Un-exports the names used only in their own file (`--fix`): drops `export ` from a declaration
 * whose every name is such, or the name from an `export { … }` list. Returns what it left to a person.
 */
export function unexport(root, unused) {
  const own = unused.filter((u) => u.own);
  const left = [];
  const byFile = new Map();
  for (const u of own) byFile.set(u.file, [...(byFile.get(u.file) ?? []), u]);
  for (const [file, list] of byFile) {
    const text = readFileSync(join(root, file), 'utf8');
    const { exports } = surfaceOf(root, file, text);
    const names = new Set(list.map((u) => u.name));
    const cuts = new Map(); // start → { start, end, insert }
    const lists = new Map(); // list start → elements removed
    for (const u of list) {
      const fix = exports.get(u.name)?.fix;
      if (fix?.keyword && fix.names.every((n) => names.has(n)))
        cuts.set(fix.keyword.start, { ...fix.keyword, insert: '' });
      else if (fix?.element) {
        const l = lists.get(fix.list.start) ?? { ...fix.list, elements: [] };
        l.elements.push(fix.element);
        lists.set(fix.list.start, l);
      } else left.push(u);
    }
    for (const l of lists.values()) {
      if (l.elements.length === l.count) {
        let end = l.end;
        if (text[end] === '\n') end++;
        cuts.set(l.start, { start: l.start, end, insert: '' });
        continue;
      }
      // Rebuild the list without the removed elements.
      const body = text.slice(l.start, l.end);
      const open = body.indexOf('{') + 1;
      const close = body.lastIndexOf('}');
      const kept = body
        .slice(open, close)
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x && !l.elements.some((e) => text.slice(e.start, e.end).trim() === x));
      cuts.set(l.start, {
        start: l.start,
        end: l.end,
        insert: `${body.slice(0, open)} ${kept.join(', ')} ${body.slice(close)}`,
      });
    }
    let out = text;
    for (const c of [...cuts.values()].sort((a, b) => b.start - a.start))
      out = out.slice(0, c.start) + c.insert + out.slice(c.end);
    writeFileSync(join(root, file), out);
  }
  return left;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { createReport } = await import('./lib/report.mjs');
  const report = createReport('exports');
  let { files, exports, unused, orphans } = checkExports(process.cwd());
  if (process.argv.includes('--fix')) {
    const left = unexport(process.cwd(), unused);
    console.log(
      `exports: un-exported ${unused.filter((u) => u.own).length - left.length} names used only in their own file`,
    );
    ({ files, exports, unused, orphans } = checkExports(process.cwd()));
  }
  console.log(`exports: ${exports} exported names in ${files} files`);
  const list = (xs) => xs.map((u) => `${u.file}:${u.line} ${u.name}`).join('\n      ');
  report.check(
    'every module in src/ and scripts/ is imported by another file or is an entry point',
    orphans.length === 0,
    orphans.join('\n      '),
  );
  report.check(
    'every exported name is imported by another file',
    unused.filter((u) => !u.own).length === 0,
    list(unused.filter((u) => !u.own)),
  );
  report.check(
    'a name used only inside its own file is not exported',
    unused.filter((u) => u.own).length === 0,
    list(unused.filter((u) => u.own)),
  );
  report.finish();
}
