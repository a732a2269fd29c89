// kubectl explain's plaintext template (staging/src/k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl)
// over an OpenAPI v3 document, one function per template ("output", "fieldList", "fieldDetail",
// "description", "typeGuess", "extractEnum") and its funcs (funcs.go: wrap, indent, resolveRef).
// Conditions are Go template truth: an empty map, list or string is false, as `if` and `with` read them.

/** An OpenAPI v3 schema as the template reads it (refs without `#/components/schemas/`). */
interface SchemaNode {
  description?: string;
  type?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  additionalProperties?: SchemaNode;
  allOf?: SchemaNode[];
  $ref?: string;
  enum?: unknown[];
  externalDocs?: { description?: string; url?: string };
}

/** A resource's GVK as its paths name it, and the schema carrying that GVK. */
interface ResourceSchema {
  group: string;
  kind: string;
  version: string;
  schema: string;
}

/** The documents explain reads: by group version path (`api/v1`, `apis/apps/v1`), the resources in it; and every schema they reach. */
export interface ExplainDocument {
  paths: Record<string, Record<string, ResourceSchema>>;
  schemas: Record<string, SchemaNode>;
}

/** Go template truth: false for nil, false, 0, and an empty string, list or map. */
function truth(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v !== '';
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v).length > 0;
}

/** unicode.IsSpace (Go), the test go-wordwrap breaks at. */
function isSpace(c: string): boolean {
  return /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/.test(c);
}

/** go-wordwrap's WrapString (v1.0.1), as kubectl's `wrap` calls it: breaks at white space only, counting runes. */
export function wrapString(s: string, lim: number): string {
  let buf = '';
  let current = 0;
  let word = '';
  let space = '';
  let wordLen = 0;
  let spaceLen = 0;
  for (const ch of s) {
    if (ch === '\n') {
      // Go also adds the line's last spaces and word to `current` here, which the newline then resets.
      if (wordLen > 0) buf += space + word;
      else if (current + spaceLen <= lim) buf += space;
      space = '';
      spaceLen = 0;
      word = '';
      wordLen = 0;
      buf += ch;
      current = 0;
    } else if (isSpace(ch) && ch !== '\u00a0') {
      if (spaceLen === 0 || wordLen > 0) {
        current += spaceLen + wordLen;
        buf += space + word;
        space = '';
        spaceLen = 0;
        word = '';
        wordLen = 0;
      }
      space += ch;
      spaceLen++;
    } else {
      word += ch;
      wordLen++;
      if (current + wordLen + spaceLen > lim && wordLen < lim) {
        buf += '\n';
        current = 0;
        space = '';
        spaceLen = 0;
      }
    }
  }
  if (wordLen === 0) {
    if (current + spaceLen <= lim) buf += space;
  } else buf += space + word;
  return buf;
}

/** funcs.go's indent: every line after a newline, and the first, padded. */
export function indent(amount: number, s: string): string {
  const pad = ' '.repeat(amount);
  return pad + s.replaceAll('\n', '\n' + pad);
}

/** One explain: the document, and what the command asked for. */
interface Ctx {
  doc: ExplainDocument;
  recursive: boolean;
  maxDepth: number;
}

/** resolveRef: the schema a ref names, or undefined. */
function resolveRef(ref: unknown, c: Ctx): SchemaNode | undefined {
  return typeof ref === 'string' && Object.hasOwn(c.doc.schemas, ref) ? c.doc.schemas[ref] : undefined;
}

/** `or (resolveRef $ref Document) $schema`: an empty resolved schema is false too. */
function resolved(s: SchemaNode, c: Ctx): SchemaNode {
  const r = resolveRef(s.$ref, c);
  return truth(r) ? r! : s;
}

/** The schema's additionalProperties when it is a schema (never a bool, which the generator drops). */
const mapOf = (s: SchemaNode): SchemaNode | undefined =>
  truth(s.additionalProperties) ? s.additionalProperties : undefined;

/** Go's default formatting of an enum value (`""` for the empty string, as the template writes it). */
function enumValue(e: unknown): string {
  return e === '' ? '""' : typeof e === 'string' ? e : JSON.stringify(e);
}

/** The template "extractEnum": `ENUM:` and a value a line (the long view), or `enum: a, b` under a field, cut at `limit`. */
function extractEnum(s: SchemaNode, long: boolean, limit: number, indentAmount = 0): string {
  if (!truth(s.enum)) return '';
  let out = long ? 'ENUM:' : '\n' + indent(indentAmount, '') + 'enum: ';
  for (const [i, e] of s.enum!.entries()) {
    if (limit > -1 && i >= limit) {
      out += ', ....';
      break;
    }
    if (i > 0 && !long) out += ', ';
    else if (long) out += '\n' + indent(4, '');
    out += enumValue(e);
  }
  return out;
}

/** The template "typeGuess": `string`, `Object`, `[]Container`, `map[string]Quantity`, a ref's kind name. */
export function typeGuess(s: SchemaNode, c: Ctx): string {
  if (!truth(s)) throw new Error("expected schema argument to subtemplate 'typeguess'");
  if (truth(s.items)) return '[]' + typeGuess(s.items!, c);
  const map = mapOf(s);
  if (map) return 'map[string]' + typeGuess(map, c);
  if (truth(s.allOf) && !truth(s.properties) && s.allOf!.length === 1) return typeGuess(s.allOf![0], c);
  if (truth(s.$ref)) {
    const ref = s.$ref!;
    const r = resolveRef(ref, c);
    if (!truth(r) || !truth(r!.type) || r!.type === 'object') return ref.split('/').pop()!.split('.').pop() || 'Object';
    return r!.type || 'Object';
  }
  return s.type === 'object' ? 'Object' : s.type || 'Object';
}

/** The template "description": the schema's own description, then its allOf's, items' and map values' (a ref resolved first). */
function description(s: SchemaNode, c: Ctx): string {
  const d = resolved(s, c);
  if (!truth(d)) return '';
  let out = truth(d.description) ? d.description + '\n' : '';
  for (const a of d.allOf ?? []) out += description(a, c);
  if (truth(d.items)) out += description(d.items!, c);
  const map = mapOf(d);
  if (map) out += description(map, c);
  return out;
}

/** The template "externalDocs" of the resource or field explained. */
function externalDocs(s: SchemaNode): string {
  const e = s.externalDocs;
  if (!truth(e)) return '';
  let out = 'EXTERNAL DOCS:\n';
  if (truth(e!.description)) out += indent(4, wrapString(e!.description!, 76)) + '\n';
  if (truth(e!.url)) out += indent(4, 'URL: ' + e!.url) + '\n';
  return out;
}

/** The template "fieldDetail": `name\t<type> -required-`, its enum, and (unless short) its description, wrapped. */
function fieldDetail(name: string, s: SchemaNode, short: boolean, level: number, c: Ctx): string {
  const ind = level * 2;
  const f = s.properties![name];
  let out = indent(ind, name) + '\t<' + typeGuess(f, c) + '>';
  if ((s.required ?? []).includes(name)) out += ' -required-';
  out += extractEnum(f, false, 4, ind) + '\n';
  if (short) return out;
  out += indent(ind + 2, wrapString(truth(f.description) ? f.description! : '<no description>', 78 - ind)) + '\n';
  const e = f.externalDocs;
  if (truth(e)) {
    out += '\n' + indent(ind + 2, 'EXTERNAL DOCS:') + '\n';
    if (truth(e!.description)) out += indent(ind + 4, wrapString(e!.description!, 76 - ind)) + '\n';
    if (truth(e!.url)) out += indent(ind + 4, 'URL: ' + e!.url) + '\n';
  }
  return out + '\n';
}

/** The template "fieldList": each property (sorted, as Go ranges over a map), and with --recursive theirs; a ref already on the way is a cycle, left out. */
function fieldList(s: SchemaNode, level: number, history: ReadonlySet<string>, c: Ctx): string {
  const ref = s.$ref ?? '';
  if (ref && history.has(ref)) return '';
  const next = new Set(history).add(ref);
  const r = resolved(s, c);
  let out = '';
  const props = r.properties ?? {};
  for (const k of Object.keys(props).sort(byteOrder)) {
    out += fieldDetail(k, r, c.recursive, level, c);
    if (c.recursive && (c.maxDepth === 0 || level < c.maxDepth)) out += fieldList(props[k], level + 1, next, c);
  }
  for (const a of r.allOf ?? []) out += fieldList(a, level, next, c);
  if (truth(r.items)) out += fieldList(r.items!, level, next, c);
  const map = mapOf(r);
  if (map) out += fieldList(map, level, next, c);
  return out;
}

/** Go's string order (bytes; the property names are ASCII). */
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The template "output": follows the field path (through properties, array items, map values and
 * allOf), printing `FIELD:` at its last step, then the description and the fields of where it ends.
 * Empty when the path leads nowhere.
 */
function output(s: SchemaNode, path: readonly string[], history: ReadonlySet<string>, c: Ctx): string {
  const ref = s.$ref ?? '';
  const next = new Set(history).add(ref);
  const r = resolved(s, c);
  if (!path.length) {
    let out = 'DESCRIPTION:\n' + indent(4, wrapString(description(r, c) || '<empty>', 76)) + '\n';
    const docs = externalDocs(r);
    if (docs) out += '\n' + docs;
    const fields = fieldList(r, 1, new Set(), c);
    if (fields) out += 'FIELDS:\n' + fields;
    return out;
  }
  if (ref && history.has(ref)) return '';
  if (truth(r.properties) && Object.hasOwn(r.properties!, path[0]) && truth(r.properties![path[0]])) {
    const sub = r.properties![path[0]];
    let out = '';
    if (path.length === 1) out += `FIELD: ${path[0]} <${typeGuess(sub, c)}>\n` + extractEnum(sub, true, -1) + '\n\n';
    return out + output(sub, path.slice(1), new Set(), c);
  }
  if (truth(r.items)) return output(r.items!, path, next, c);
  const map = mapOf(r);
  if (map) return output(map, path, next, c);
  for (const a of r.allOf ?? []) {
    const o = output(a, path, next, c);
    if (o) return o;
  }
  return '';
}

/** What explain was asked: a group version, a resource, a field path, and --recursive with --max-depth. */
interface ExplainRequest {
  group: string;
  version: string;
  resource: string;
  fieldPath: readonly string[];
  recursive: boolean;
  maxDepth: number;
}

/** GroupVersionResource.String(): `apps/v1, Resource=deployments`, `/v1, Resource=pods`. */
const gvrString = (q: Pick<ExplainRequest, 'group' | 'version' | 'resource'>): string =>
  `${q.group}/${q.version}, Resource=${q.resource}`;

/**
 * PrintModelDescription with the plaintext template: the text explain writes, and the error it ends
 * with (the template's header is written before a field is looked for, so it comes with a field's
 * error too). An unknown group version is refused before anything is written.
 */
export function renderExplain(doc: ExplainDocument, q: ExplainRequest): { out: string; error?: string } {
  const gv = q.group ? `apis/${q.group}/${q.version}` : `api/${q.version}`;
  if (!Object.hasOwn(doc.paths, gv)) return { out: '', error: `error: couldn't find resource for "${gvrString(q)}"` };
  const res = Object.hasOwn(doc.paths[gv], q.resource) ? doc.paths[gv][q.resource] : undefined;
  if (!res) return { out: '', error: `error: GVR (${gvrString(q)}) not found in OpenAPI schema` };
  const head =
    (res.group ? `GROUP:      ${res.group}\n` : '') + `KIND:       ${res.kind}\nVERSION:    ${res.version}\n\n`;
  const c: Ctx = { doc, recursive: q.recursive, maxDepth: q.maxDepth };
  const body = output(doc.schemas[res.schema], q.fieldPath, new Set(), c);
  if (!body) return { out: head, error: `error: field "${q.fieldPath[q.fieldPath.length - 1]}" does not exist` };
  return { out: head + body + '\n' };
}
