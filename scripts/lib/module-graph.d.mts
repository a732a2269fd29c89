/** A built JS file plus every chunk it imports statically, each counted once. */
export function moduleGraph(entry: string, seen?: Set<string>): Set<string>;
/** The chunks a built JS file imports dynamically (`import('./x.js')`), by path. */
export function lazyImports(entry: string): string[];
