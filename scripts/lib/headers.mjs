// Reads a `_headers` file the way Netlify and Cloudflare Pages do, so the tests and the benchmarks
// see the headers a reader's browser gets from those hosts: a rule is a path pattern on a line of
// its own (`*` a splat matching any characters, `:name` one path segment) followed by indented
// `Name: value` lines; every rule whose pattern matches a request's path applies, and a header set
// by more than one matching rule has its values joined with ", " (which for a CSP means two
// policies, both enforced).

/**
 * The rules of a `_headers` text, in order: { pattern, match(path), headers: [name, value][] }.
 * Comments (#) and blank lines are skipped; a header line before any pattern is an error.
 */
export function parseHeaders(text) {
  const rules = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (/^\s/.test(line)) {
      const rule = rules.at(-1);
      const m = line.trim().match(/^([A-Za-z0-9-]+):\s*(.*)$/);
      if (!rule || !m) throw new Error(`_headers line ${i + 1}: not a header of a rule: ${line.trim()}`);
      rule.headers.push([m[1], m[2]]);
    } else {
      const pattern = line.trim();
      rules.push({ pattern, match: patternMatcher(pattern), headers: [] });
    }
  }
  return rules;
}

/** A path pattern as a predicate: `*` matches anything (slashes too), `:name` one segment, the rest literally. */
export function patternMatcher(pattern) {
  const source = pattern
    .split(/(\*|:[A-Za-z]\w*)/)
    .map((part) =>
      part === '*'
        ? '.*'
        : part.startsWith(':') && part.length > 1
          ? '[^/]+'
          : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  const re = new RegExp(`^${source}$`);
  return (path) => re.test(path);
}

/**
 * The headers a request for `path` gets: every matching rule's, merged by (case-insensitive) name
 * with ", " between the values of different rules, as both hosts do. Returns [name, value][].
 */
export function headersFor(rules, path) {
  const merged = new Map();
  for (const rule of rules) {
    if (!rule.match(path)) continue;
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      const prior = merged.get(key);
      merged.set(key, prior ? [prior[0], `${prior[1]}, ${value}`] : [name, value]);
    }
  }
  return [...merged.values()];
}
