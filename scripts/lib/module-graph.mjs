// A built chunk and the chunks it imports statically, as a browser fetches them before the chunk runs.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A built JS file plus every chunk it imports statically, each counted once. */
export function moduleGraph(entry, seen = new Set()) {
  if (seen.has(entry) || !existsSync(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  for (const m of code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    moduleGraph(join(dirname(entry), m[1]), seen);
  }
  return seen;
}

/** The chunks a built JS file imports dynamically (`import('./x.js')`), by path. */
export function lazyImports(entry) {
  const code = readFileSync(entry, 'utf8');
  return [
    ...new Set(
      [...code.matchAll(/import\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g)].map((m) => join(dirname(entry), m[1])),
    ),
  ];
}
