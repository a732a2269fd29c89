// Manifests from -f FILE or stdin, read as cli-runtime's resource builder reads them (YAML or JSON,
// several documents, a List), within the bounds a page can afford.
import { parseAllDocuments } from 'yaml';
import { Fail, type Obj, type Run } from './util.ts';

/** Largest manifest `apply` accepts (bytes). */
export const MAX_MANIFEST_BYTES = 64 * 1024;
/** Most documents in one manifest. */
export const MAX_MANIFEST_DOCUMENTS = 20;
/** YAML alias expansion limit (billion-laughs guard). */
export const MAX_ALIAS_COUNT = 100;
/** The objects of a manifest (every document; a List's items), or the error kubectl prints for it. */
export function manifestObjects(r: Run, text: string, source: string): Obj[] {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_MANIFEST_BYTES) throw new Fail(`error: ${source}: manifest is ${bytes} bytes, more than the 64 KiB this simulator accepts`);
  const docs = parseAllDocuments(text, { maxAliasCount: MAX_ALIAS_COUNT, version: '1.2' } as Obj);
  const docList = Array.isArray(docs) ? docs : [docs];
  if (docList.length > MAX_MANIFEST_DOCUMENTS) throw new Fail(`error: ${source}: ${docList.length} documents, more than the ${MAX_MANIFEST_DOCUMENTS} this simulator accepts`);
  const out: Obj[] = [];
  for (const d of docList) {
    if (d.errors.length) {
      const e = d.errors[0];
      const line = e.linePos?.[0]?.line;
      throw new Fail(`error: error parsing ${source}: error converting YAML to JSON: yaml: ${line ? `line ${line}: ` : ''}${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
    }
    let v: unknown;
    try { v = d.toJS({ maxAliasCount: MAX_ALIAS_COUNT }); } catch (e) {
      // go-yaml's wording for the same guard (a billion-laughs document).
      const msg = /alias/i.test((e as Error).message) ? 'error converting YAML to JSON: yaml: document contains excessive aliasing' : (e as Error).message;
      throw new Fail(`error: error parsing ${source}: ${msg}`);
    }
    if (v === null || v === undefined) continue;
    if (typeof v !== 'object' || Array.isArray(v)) throw new Fail(`error: error parsing ${source}: error unmarshaling JSON: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : 'number'} into Go value of type map[string]interface {}`);
    const o = v as Obj;
    if (o.kind === 'List' && Array.isArray(o.items)) out.push(...o.items); else out.push(o);
  }
  return out;
}

/** The text of -f FILE (`-` is stdin), through the host. */
export function readSource(r: Run, file: string): string {
  if (file === '-') return r.stdin ?? '';
  const t = r.host.readFile?.(file);
  if (t === undefined) throw new Fail(`error: the path "${file}" does not exist`);
  return t;
}
