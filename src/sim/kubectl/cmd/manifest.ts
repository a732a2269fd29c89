// Manifests from -f FILE or stdin, read as cli-runtime's resource builder reads them (YAML or JSON,
// several documents, a List), within the bounds a page can afford.
import { parseAllDocuments } from 'yaml';
import { RESOURCES } from '../../api/resources.ts';
import { GO_YAML_V2_TAGS } from '../goyaml.ts';
import { resourceForKind } from '../resources.ts';
import type { ParseOptions, DocumentOptions, SchemaOptions } from 'yaml';
import { Fail, type MetaObject, type Run } from './util.ts';

/** Largest manifest `apply` accepts (bytes). */
const MAX_MANIFEST_BYTES = 64 * 1024;
/** Most documents in one manifest. */
const MAX_MANIFEST_DOCUMENTS = 20;
/** YAML alias expansion limit (billion-laughs guard). */
const MAX_ALIAS_COUNT = 100;
/** go-yaml's scanner refuses flow collections nested deeper than this (scannerc.go, max_flow_level). */
const MAX_FLOW_LEVEL = 10_000;

/** The line (1-based) where flow collections (`[`, `{`) first nest deeper than `max`, outside quoted scalars and comments; 0 if never. */
export function flowTooDeep(text: string, max: number): number {
  let depth = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '"' || c === "'") {
      // A quoted scalar: skip to its closing quote ('' and \" escape one).
      for (i++; i < text.length; i++) {
        if (text[i] === '\n') line++;
        if (c === '"' && text[i] === '\\') i++;
        else if (text[i] === c) {
          if (c === "'" && text[i + 1] === "'") i++;
          else break;
        }
      }
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '[' || c === '{') {
      if (++depth > max) return line;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return 0;
}

/** The objects of a manifest (every document; a List's items), or the error kubectl prints for it. */
export function manifestObjects(r: Run, text: string, source: string): MetaObject[] {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_MANIFEST_BYTES)
    throw new Fail(`error: ${source}: manifest is ${bytes} bytes, more than the 64 KiB this simulator accepts`);
  const deep = flowTooDeep(text, MAX_FLOW_LEVEL);
  if (deep)
    throw new Fail(
      `error: error parsing ${source}: error converting YAML to JSON: yaml: ${deep > 1 ? `line ${deep}: ` : ''}exceeded max depth of ${MAX_FLOW_LEVEL}`,
    );
  // The YAML library recurses once a level: a document nested a few thousand deep (which go-yaml
  // reads) overflows the stack here, and the reader is told so in a sentence.
  const tooDeep = (): Fail =>
    new Fail(`error: error parsing ${source}: the manifest is nested more deeply than this simulator can read`);
  let docs;
  // Plain scalars resolved as go-yaml v2 resolves them (goyaml.ts); merge keys (<<) as it merges them.
  try {
    docs = parseAllDocuments(text, {
      maxAliasCount: MAX_ALIAS_COUNT,
      version: '1.2',
      schema: 'failsafe',
      customTags: GO_YAML_V2_TAGS,
      merge: true,
    } as ParseOptions & DocumentOptions & SchemaOptions);
  } catch (e) {
    if (e instanceof RangeError) throw tooDeep();
    throw e;
  }
  const docList = Array.isArray(docs) ? docs : [docs];
  if (docList.length > MAX_MANIFEST_DOCUMENTS)
    throw new Fail(
      `error: ${source}: ${docList.length} documents, more than the ${MAX_MANIFEST_DOCUMENTS} this simulator accepts`,
    );
  const out: MetaObject[] = [];
  for (const d of docList) {
    if (d.errors.some((e) => /Maximum call stack/.test(e.message))) throw tooDeep();
    if (d.errors.length) {
      const e = d.errors[0];
      const line = e.linePos?.[0]?.line;
      throw new Fail(
        `error: error parsing ${source}: error converting YAML to JSON: yaml: ${line ? `line ${line}: ` : ''}${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
      );
    }
    let v: unknown;
    try {
      v = d.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      // go-yaml's wording for the same guard (a billion-laughs document).
      if (/alias/i.test((e as Error)?.message ?? ''))
        throw new Fail(
          `error: error parsing ${source}: error converting YAML to JSON: yaml: document contains excessive aliasing`,
        );
      throw tooDeep();
    }
    if (v === null || v === undefined) continue;
    if (typeof v !== 'object' || Array.isArray(v))
      throw new Fail(
        `error: error parsing ${source}: error unmarshaling JSON: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : 'number'} into Go value of type map[string]interface {}`,
      );
    const o = v as MetaObject;
    if (o.kind === 'List' && Array.isArray(o.items)) out.push(...(o.items as MetaObject[]));
    else out.push(o);
  }
  return out;
}

/**
 * The resource a manifest object maps to (the builder's mapper.infoForData: its kind in its
 * apiVersion), or kubectl's error naming the object and `source`, the file already quoted as %q
 * quotes it ("STDIN" for stdin).
 */
export function manifestResource(m: MetaObject, source: string): string {
  const resource = resourceForKind(m.kind ?? '');
  const info = resource ? RESOURCES[resource] : undefined;
  const expectedVersion = info ? (info.group ? `${info.group}/${info.version}` : info.version) : '';
  if (!resource || m.apiVersion !== expectedVersion) {
    const q = (v: unknown) => JSON.stringify(typeof v === 'string' ? v : '');
    throw new Fail(
      `error: resource mapping not found for name: ${q(m.metadata?.name)} namespace: ${q(m.metadata?.namespace)} from ${source}: no matches for kind ${q(m.kind)} in version ${q(m.apiVersion)}\nensure CRDs are installed first`,
    );
  }
  return resource;
}

/** The text of -f FILE (`-` is stdin), through the host. */
export function readSource(r: Run, file: string): string {
  if (file === '-') return r.stdin ?? '';
  const t = r.host.readFile?.(file);
  if (t === undefined) throw new Fail(`error: the path "${file}" does not exist`);
  return t;
}
