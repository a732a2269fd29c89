// kubectl patch (pkg/cmd/patch): strategic merge, JSON merge or JSON patch, from -p or a file.
import { mergePatch, strategicMergePatch } from '../../api/patch.ts';
import { applyJSONPatch, decodeJSONPatch } from '../../api/json-patch.ts';
import { parseAllDocuments } from 'yaml';
import { nsOf, parse, str } from './flags.ts';
import { Fail, apiError, targets, type MetaObject, type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, sameObject, writeOptions } from './dryrun.ts';

/** kubectl patch TYPE NAME (-p PATCH | --patch-file FILE) [--type strategic|merge|json]: "patched", or "patched (no change)". */
export function cmdPatch(r: Run, argv: string[]): void {
  const p = parse(r, 'patch', argv, {
    patch: { kind: 'string', short: 'p' },
    'patch-file': { kind: 'string' },
    type: { kind: 'string' },
    subresource: { kind: 'string' },
    ...WRITE_FLAGS,
  });
  const dry = dryRunStrategy(r, p);
  checkOutput(p);
  const text = str(p, 'patch') ?? '';
  const file = str(p, 'patch-file') ?? '';
  // PatchOptions.Validate, in its order.
  if (text && file) throw new Fail('error: cannot specify --patch and --patch-file together');
  if (!text && !file)
    throw new Fail('error: must specify --patch or --patch-file containing the contents of the patch');
  const typeFlag = str(p, 'type') ?? 'strategic';
  const type = typeFlag.toLowerCase(); // patchTypes[strings.ToLower(o.PatchType)]
  if (type !== 'strategic' && type !== 'merge' && type !== 'json')
    throw new Fail(`error: --type must be one of [json merge strategic], not "${typeFlag}"`);
  let source = text;
  if (file) {
    const content = r.host.readFile?.(file);
    if (content === undefined)
      throw new Fail(`error: unable to read patch file: open ${file}: no such file or directory`);
    source = content;
  }
  let body: unknown;
  try {
    const docs = parseAllDocuments(source);
    if (docs.length !== 1 || docs[0].errors.length) throw new Error(docs[0]?.errors[0]?.message ?? 'not one document');
    body = docs[0].toJSON();
  } catch (e) {
    // yaml.ToJSON's error is quoted with o.Patch, which is empty when the patch came from a file.
    throw new Fail(`error: unable to parse "${text}": ${(e as Error).message.split('\n')[0]}`);
  }
  // A JSON patch goes to the server as it is: kubectl leaves it to the server to refuse one that
  // is not a list of operations (400 BadRequest).
  if (type !== 'json' && (body === null || typeof body !== 'object' || Array.isArray(body)))
    throw new Fail(`error: unable to parse "${text}": the patch must be an object`);
  const t = targets(p.args, r);
  if (!t.names.length) throw new Fail('error: resource(s) were provided, but no name was specified');
  const ns = nsOf(p);
  for (const { kind, name } of t.names) {
    const before = r.req({ verb: 'get', resource: kind.resource, namespace: kind.namespaced ? ns : undefined, name });
    if (!before.ok) {
      if (before.code === 0) throw new Fail(apiError(before.status));
      r.error(apiError(before.status));
      continue;
    }
    const sub = str(p, 'subresource');
    const what = `${kind.singular}/${name}`;
    if (dry === 'client') {
      // The patch applied here, as kubectl's client dry run does (always "patched").
      const local = localPatch(before.object, body, type);
      if (typeof local === 'string') {
        r.error(local);
        continue;
      }
      printWritten(r, p, dry, what, 'patched', local);
      continue;
    }
    const res = r.req({
      verb: 'patch',
      resource: kind.resource,
      namespace: kind.namespaced ? ns : undefined,
      name,
      subresource: sub,
      body,
      options: writeOptions(dry, { patchType: type, fieldManager: 'kubectl-patch' }),
    });
    if (!res.ok) {
      if (res.code === 0) throw new Fail(apiError(res.status));
      r.error(apiError(res.status));
      continue;
    }
    // A server dry run makes no revision: whether it would change anything is read off the object.
    const changed =
      dry === 'server'
        ? !sameObject(res.object, before.object)
        : (res.object as MetaObject | undefined)?.metadata?.resourceVersion !==
          (before.object as MetaObject).metadata?.resourceVersion;
    printWritten(r, p, dry, what, changed ? 'patched' : 'patched (no change)', res.object);
  }
}

/** The object with the patch applied on the client (a JSON patch that does not apply gives kubectl's error). */
function localPatch(o: unknown, body: unknown, type: 'strategic' | 'merge' | 'json'): unknown {
  if (type === 'merge') return mergePatch(o, body);
  if (type === 'strategic') return strategicMergePatch(o, body);
  const d = decodeJSONPatch(body);
  if (!d.ok) return `error: ${d.message}`;
  const r = applyJSONPatch(o, d.ops);
  return r.ok ? r.doc : `error: ${r.error}`;
}
