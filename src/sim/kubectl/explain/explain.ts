// kubectl explain (pkg/cmd/explain/explain.go and pkg/explain/explain.go): the resource and field
// path read from `TYPE.FIELD…` as a JSONPath, the resource found as kubectl's RESTMapper finds it,
// and the schema printed by the plaintext template (render.ts) from the OpenAPI v3 documents the
// real v1.37.2 API server serves (schema-data.ts). This module is a chunk of its own, which only
// kubectl explain loads (cmd/explain.ts).
import { OTHER_GROUP_VERSIONS, RESOURCES } from '../../api/resources.ts';
import { parse, str, bool } from '../cmd/flags.ts';
import { Fail, type Run } from '../cmd/util.ts';
import { shortNames } from '../resources.ts';
import { EXPLAIN_HELP } from './help.ts';
import { renderExplain } from './render.ts';
import { SCHEMA } from './schema-data.ts';

/** A resource as discovery names it: group, version, plural, singular, short names. */
interface ApiResource {
  group: string;
  version: string;
  resource: string;
  singular: string;
  short: string[];
}

/**
 * The served resources in discovery's order, as the RESTMapper ranks them (the core group first):
 * Events twice, in v1 and events.k8s.io/v1, both with the short name `ev`.
 */
const API_RESOURCES: ApiResource[] = Object.entries(RESOURCES)
  .flatMap(([resource, r]) =>
    [r, ...(OTHER_GROUP_VERSIONS[resource] ?? [])].map((gv) => ({
      group: gv.group,
      version: gv.version,
      resource,
      singular: r.kind.toLowerCase(),
      short: shortNames(resource),
    })),
  )
  .sort((a, b) => Number(a.group !== '') - Number(b.group !== ''));

/** One node of a parsed JSONPath: a field's name, or any other node (array, recursive descent, …). */
type PathNode = { field: string } | { other: string };

/** `%#U` of a rune: `U+0023 '#'`. */
const goRune = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} '${c}'`;

/**
 * jsonPathParse: `{.` + the text + `}` parsed as client-go's JSONPath parser reads it, kept to what
 * tells explain's paths apart: fields (`.name`, up to a terminator), and the nodes that are not fields.
 */
function jsonPathParse(text: string): PathNode[] {
  const s = '.' + (text.endsWith('.') ? text.slice(0, -1) : text);
  const nodes: PathNode[] = [];
  let i = 0;
  // isTerminator: the parser's spaces (space, tab), ends of line and delimiters.
  const terminator = (c: string): boolean => /[ \t\r\n.,[\]$@{}]/.test(c);
  while (i < s.length) {
    const c = s[i];
    if (s.startsWith('..', i)) {
      if (
        nodes.length &&
        'other' in nodes[nodes.length - 1] &&
        (nodes[nodes.length - 1] as { other: string }).other === '..'
      )
        throw new Fail('error: invalid multiple recursive descent');
      nodes.push({ other: '..' });
      i += 2;
      if (i < s.length && /[A-Za-z0-9_]/.test(s[i])) i = field(s, i, nodes, terminator);
    } else if (c === '.') i = field(s, i + 1, nodes, terminator);
    else if (c === ' ' || c === '@' || c === '$')
      i++; // spaces, and the current object's names, are passed over
    else if (c === '[') {
      const end = s.indexOf(']', i);
      if (end < 0) throw new Fail('error: unterminated array');
      nodes.push({ other: s.slice(i, end + 1) });
      i = end + 1;
    } else if (c === '\n' || c === '\r') throw new Fail('error: unclosed action');
    else if (/[A-Za-z0-9_+\-"']/.test(c)) {
      // Identifiers, numbers and quoted text are nodes of their own, none of them a field.
      let j = i + 1;
      while (j < s.length && !terminator(s[j])) j++;
      nodes.push({ other: s.slice(i, j) });
      i = j;
    } else
      throw new Fail(`error: unrecognized character in action: ${goRune(String.fromCodePoint(s.codePointAt(i)!))}`);
  }
  return nodes;
}

/** parseField: the name up to a terminator (a backslash escapes one character); `*` is a wildcard, no field. */
function field(s: string, i: number, nodes: PathNode[], terminator: (c: string) => boolean): number {
  let j = i;
  while (j < s.length) {
    if (s[j] === '\\' && j + 1 < s.length) {
      j += 2;
      continue;
    }
    if (terminator(s[j])) break;
    j++;
  }
  const value = s.slice(i, j);
  nodes.push(value === '*' ? { other: '*' } : { field: value.replaceAll('\\', '') });
  return j;
}

/**
 * The shortcut expander, then the RESTMapper's ResourcesFor: a short name (matched as typed) becomes
 * its resource, warning when another group has it too; plural and singular names match in lower case.
 */
function resourcesFor(r: Run, name: string): ApiResource[] {
  let want = name;
  const byShort = API_RESOURCES.filter((a) => a.short.includes(name));
  if (byShort.length && !API_RESOURCES.some((a) => a.resource === name || a.singular === name)) {
    want = byShort[0].resource;
    for (const other of byShort.slice(1))
      if (other.resource !== byShort[0].resource || other.group !== byShort[0].group)
        r.warn(
          `Warning: short name "${name}" could also match lower priority resource ${other.resource}.${other.group}\n`,
        );
  }
  const lower = want.toLowerCase();
  const found = API_RESOURCES.filter((a) => a.resource === lower || a.singular === lower);
  if (!found.length) throw new Fail(`the server doesn't have a resource type "${name}"`);
  return found;
}

/** GroupResource.String(): `deployments.apps`, `pods`. */
const groupResource = (a: ApiResource): string => (a.group ? `${a.resource}.${a.group}` : a.resource);

/** The field names of nodes after the first, or kubectl's error when one is not a field. */
function fieldsOf(nodes: PathNode[], message: string): string[] {
  return nodes.map((n) => {
    if (!('field' in n)) throw new Fail(`error: invalid jsonpath syntax, ${message}`);
    return n.field;
  });
}

/** The first node's resource (it must be a field). */
function firstResource(nodes: PathNode[]): string {
  const first = nodes[0];
  if (!first || !('field' in first)) throw new Fail('error: invalid jsonpath syntax, first node must be field node');
  return first.field;
}

/** SplitAndParseResourceRequestWithMatchingPrefix: the resource whose `resource.group` prefixes the text, else the first (highest priority). */
function splitWithMatchingPrefix(r: Run, text: string): { api: ApiResource; fields: string[] } {
  const nodes = jsonPathParse(text);
  const all = resourcesFor(r, firstResource(nodes));
  for (const a of all) {
    const gr = groupResource(a);
    if (!text.startsWith(gr)) continue;
    const suffix = text.slice(gr.length);
    return { api: a, fields: suffix ? fieldsOf(jsonPathParse(suffix).slice(1), 'first node must be field node') : [] };
  }
  return { api: all[0], fields: fieldsOf(nodes.slice(1), 'first node must be field node') };
}

/** SplitAndParseResourceRequest (with --api-version): the highest priority resource, every node after it a field. */
function split(r: Run, text: string): { api: ApiResource; fields: string[] } {
  const nodes = jsonPathParse(text);
  const all = resourcesFor(r, firstResource(nodes));
  return { api: all[0], fields: fieldsOf(nodes.slice(1), 'all nodes must be field nodes') };
}

/** schema.ParseGroupVersion: `v1`, `apps/v1`; more than one slash is refused. */
function parseGroupVersion(gv: string): { group: string; version: string } {
  const slashes = gv.split('/').length - 1;
  if (slashes === 0) return { group: '', version: gv };
  if (slashes === 1) return { group: gv.slice(0, gv.indexOf('/')), version: gv.slice(gv.indexOf('/') + 1) };
  throw new Fail(`error: unexpected GroupVersion string: ${gv}`);
}

/** pflag's IntVar: strconv.ParseInt(s, 0, 64), so 0x, 0o, 0b and a leading 0 (octal) prefixes too; undefined when it is no integer. */
function parseGoInt(s: string): number | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]+|[1-9][0-9]*|0)$/.exec(s);
  if (!m) return undefined;
  const digits = m[2];
  const n = /^0[0-7]/.test(digits)
    ? parseInt(digits.slice(1), 8)
    : /^0[oO]/.test(digits)
      ? parseInt(digits.slice(2), 8)
      : Number(digits);
  return m[1] === '-' ? -n : n;
}

/** kubectl explain TYPE[.FIELD…] [--recursive [--max-depth=N]] [--api-version=GROUP/VERSION] [-o plaintext]. */
export function cmdExplain(r: Run, argv: string[]): void {
  const p = parse(r, 'explain', argv, {
    recursive: { kind: 'bool', short: 'R' },
    'api-version': { kind: 'string' },
    output: { kind: 'string', short: 'o' },
    'max-depth': { kind: 'string' },
  });
  if (bool(p, 'help')) {
    r.print(EXPLAIN_HELP);
    return;
  }
  const depth = str(p, 'max-depth') ?? '0';
  const maxDepth = parseGoInt(depth);
  if (maxDepth === undefined)
    throw new Fail(
      `error: invalid argument "${depth}" for "--max-depth" flag: strconv.ParseInt: parsing "${depth}": invalid syntax\nSee 'kubectl explain --help' for usage.`,
    );
  const recursive = bool(p, 'recursive');
  const apiVersion = str(p, 'api-version') ?? '';
  const output = str(p, 'output') ?? 'plaintext';
  // Validate.
  if (!p.args.length)
    throw new Fail(
      'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.\n',
    );
  if (p.args.length > 1) throw new Fail('error: We accept only this format: explain RESOURCE\n');
  if (maxDepth > 0 && !recursive) throw new Fail('error: --max-depth requires --recursive');
  if (maxDepth < 0) throw new Fail('error: --max-depth must be non-negative');
  // Run.
  const { api, fields } = apiVersion ? split(r, p.args[0]) : splitWithMatchingPrefix(r, p.args[0]);
  if (output === 'plaintext-openapiv2')
    throw new Fail(
      'error: kubectl explain --output=plaintext-openapiv2 is a real format that this simulator does not print: it bundles the OpenAPI v3 schema only (the default, --output=plaintext)',
    );
  const gv = apiVersion ? parseGroupVersion(apiVersion) : api;
  const q = { group: gv.group, version: gv.version, resource: api.resource, fieldPath: fields, recursive, maxDepth };
  // An unknown format is found by the renderer, after the group version's document.
  const known = Object.hasOwn(SCHEMA.paths, q.group ? `apis/${q.group}/${q.version}` : `api/${q.version}`);
  if (known && output !== 'plaintext') throw new Fail(`error: unrecognized format: ${output}`);
  const res = renderExplain(SCHEMA, q);
  r.print(res.out);
  if (res.error) throw new Fail(res.error);
}
