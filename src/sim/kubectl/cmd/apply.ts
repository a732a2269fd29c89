// kubectl apply -f (pkg/cmd/apply), client-side: create, or a three-way merge in miniature with the
// last-applied-configuration annotation, sent as a strategic-merge PATCH (nothing at all when it is empty).
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { PATCH_MERGE_KEYS } from '../../api/patch.ts';
import { isMap, type Unstructured } from '../../api/unstructured.ts';
import { deepEqual } from '../../util/names.ts';
import type { Parsed } from '../args.ts';
import { kindInfo } from '../resources.ts';
import { nsOf, parse, str } from './flags.ts';
import { manifestObjects, manifestResource, readSource } from './manifest.ts';
import { Fail, addSourceToErr, apiError, printAggregate, type MetaObject, type Run } from './util.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, sameObject, writeOptions } from './dryrun.ts';

function lastApplied(o: unknown): string {
  return JSON.stringify(sortKeysDeep(o)) + '\n';
}

function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeysDeep((v as Record<string, unknown>)[k])]),
    );
  return v;
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** kubectl apply -f FILE|-: each object created, configured or unchanged. */
export function cmdApply(r: Run, argv: string[]): void {
  const p = parse(r, 'apply', argv, {
    filename: { kind: 'string', short: 'f' },
    validate: { kind: 'string' },
    'server-side': { kind: 'bool' },
    ...WRITE_FLAGS,
  });
  dryRunStrategy(r, p);
  checkOutput(p);
  const file = str(p, 'filename');
  if (!file) throw new Fail('error: must specify one of -f and -k');
  // The builder's source, as its errors quote it (%q): "STDIN" for `-`.
  const source = JSON.stringify(file === '-' ? 'STDIN' : file);
  const objs = manifestObjects(r, readSource(r, file), file === '-' ? 'STDIN' : file);
  if (!objs.length) throw new Fail('error: no objects passed to apply');
  // As Run does: the builder's errors (validation, mapping) first, then each object applied, every
  // error gathered and printed at the end.
  const errs: string[] = [];
  const gather = (fn: () => void) => {
    try {
      fn();
    } catch (e) {
      if (e instanceof Fail) errs.push(e.message);
      else throw e;
    }
  };
  const mapped: { m: MetaObject; resource: string }[] = [];
  for (const m of objs) gather(() => mapped.push({ m, resource: mapApplied(m, source) }));
  for (const { m, resource } of mapped) gather(() => applyOne(r, p, m, source, resource));
  printAggregate(r, errs);
}

/** The builder's part for one object: validated (kind and apiVersion set) and mapped to its resource. */
function mapApplied(m: MetaObject, source: string): string {
  if (!m.kind)
    throw new Fail(
      `error: error validating ${source}: error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false`,
    );
  if (!m.apiVersion)
    throw new Fail(
      `error: error validating ${source}: error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false`,
    );
  return manifestResource(m, source);
}

function applyOne(r: Run, p: Parsed, m: MetaObject, source: string, resource: string): void {
  const kind = kindInfo(resource);
  const name = m.metadata?.name;
  if (!name)
    throw new Fail(
      `error: error when retrieving current configuration of:\nResource: "${resource}", GroupVersionKind: "${m.kind}"\nName: "", Namespace: "${nsOf(p)}"\nfrom server for: ${source}: resource name may not be empty`,
    );
  const flagNs = str(p, 'namespace');
  if (kind.namespaced && flagNs && m.metadata?.namespace && m.metadata.namespace !== flagNs) {
    throw new Fail(
      `error: the namespace from the provided object "${m.metadata.namespace}" does not match the namespace "${flagNs}". You must pass '--namespace=${m.metadata.namespace}' to perform this operation.`,
    );
  }
  const ns = kind.namespaced ? m.metadata?.namespace || nsOf(p) : undefined;
  const manifest = structuredClone(m);
  const meta: ObjectMeta = { ...manifest.metadata, ...(ns ? { namespace: ns } : {}) };
  const annotations = { ...meta.annotations };
  meta.annotations = annotations;
  manifest.metadata = meta;
  const applied = lastApplied(manifest);
  const dry = dryRunStrategy(r, p, true);
  const what = `${kind.singular}/${name}`;
  const cur = r.req({ verb: 'get', resource, namespace: ns, name });
  if (!cur.ok) {
    if (cur.code !== 404) {
      if (cur.code === 0)
        throw new Fail(
          `error: error validating ${source}: error validating data: failed to download openapi: Get "https://127.0.0.1:6443/openapi/v2?timeout=32s": dial tcp 127.0.0.1:6443: connect: connection refused; if you choose to ignore these errors, turn validation off with --validate=false`,
        );
      throw new Fail(apiError(cur.status));
    }
    const body = structuredClone(manifest);
    body.metadata!.annotations![LAST_APPLIED] = applied;
    if (dry === 'client') {
      printWritten(r, p, dry, what, 'created', body);
      return;
    }
    const res = r.req({
      verb: 'create',
      resource,
      namespace: ns,
      body,
      options: writeOptions(dry, { fieldManager: 'kubectl-client-side-apply', fieldValidation: 'Strict' }),
    });
    if (!res.ok) throw new Fail(apiError(addSourceToErr('creating', JSON.parse(source) as string, res.status)));
    printWritten(r, p, dry, what, 'created', res.object);
    return;
  }
  const live = cur.object as MetaObject;
  if (live.metadata?.annotations?.[LAST_APPLIED] === undefined) {
    r.warn(
      `Warning: resource ${resource}/${name} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`,
    );
  }
  const prev = (() => {
    try {
      return JSON.parse(live.metadata?.annotations?.[LAST_APPLIED] ?? '{}') as MetaObject;
    } catch {
      return {};
    }
  })();
  const next = structuredClone(live);
  // A three-way merge in miniature: fields the last apply set but this one drops are removed;
  // fields set by others (controllers, kubectl scale) and not named by either apply are kept.
  // A stored object always has metadata.
  const nextMeta = next.metadata!;
  const labels = { ...nextMeta.labels };
  nextMeta.labels = labels;
  for (const k of Object.keys(prev.metadata?.labels ?? {})) if (!(k in (meta.labels ?? {}))) delete labels[k];
  Object.assign(labels, meta.labels ?? {});
  if (!Object.keys(labels).length) delete nextMeta.labels;
  const nextAnnotations = { ...nextMeta.annotations };
  nextMeta.annotations = nextAnnotations;
  for (const k of Object.keys(prev.metadata?.annotations ?? {})) if (!(k in annotations)) delete nextAnnotations[k];
  Object.assign(nextAnnotations, annotations, { [LAST_APPLIED]: applied });
  for (const top of Object.keys(manifest)) {
    if (top === 'metadata' || top === 'status' || top === 'apiVersion' || top === 'kind') continue;
    const want = manifest[top];
    const have = next[top];
    if (isMap(want) && have && typeof have === 'object') {
      // Both are maps here (mergeDeep of a map and an array answers the map it was given).
      const merged = mergeDeep(have, want) as Unstructured;
      for (const k of Object.keys(prev[top] ?? {})) if (!(k in want)) delete merged[k];
      next[top] = merged;
    } else next[top] = want;
  }
  for (const top of Object.keys(prev))
    if (!(top in manifest) && top !== 'status' && top !== 'metadata') delete next[top];
  // The patch from what is stored to what the merge asks for; an empty one is not sent (kubectl
  // prints `unchanged` and writes nothing).
  const patch = twoWayPatch(live, next);
  if (dry === 'client' || patch === undefined) {
    printWritten(
      r,
      p,
      dry,
      what,
      patch === undefined || sameObject(next, live) ? 'unchanged' : 'configured',
      patch === undefined ? live : next,
    );
    return;
  }
  const res = r.req({
    verb: 'patch',
    resource,
    namespace: ns,
    name,
    body: patch,
    options: writeOptions(dry, {
      patchType: 'strategic',
      fieldManager: 'kubectl-client-side-apply',
      fieldValidation: 'Strict',
    }),
  });
  if (!res.ok) throw new Fail(apiError(res.status));
  // A server dry run makes no revision: whether anything would change is read off the object.
  const changed = dry === 'server' ? !sameObject(res.object, live) : res.revision !== undefined;
  printWritten(r, p, dry, what, changed ? 'configured' : 'unchanged', res.object);
}

/**
 * A strategic-merge patch that takes `from` to `to` (undefined when they are the same): changed and
 * new fields as they are, removed ones null, lists with a merge key item by item (a removed item as
 * `$patch: delete`), other lists whole.
 */
export function twoWayPatch(from: unknown, to: unknown, field = ''): unknown {
  if (deepEqual(from, to)) return undefined;
  if (Array.isArray(from) && Array.isArray(to)) {
    let key: string | undefined = PATCH_MERGE_KEYS[field];
    if (field === 'ports') key = to.some((x) => isMap(x) && 'containerPort' in x) ? 'containerPort' : 'port';
    if (!key || key === 'names') return to;
    const k = key;
    const keyed = (l: unknown[]): l is Unstructured[] => l.every((x) => isMap(x) && x[k] !== undefined);
    if (!keyed(from) || !keyed(to)) return to;
    const out: Unstructured[] = [];
    for (const item of to) {
      const old = from.find((x) => x[key] === item[key]);
      if (!old) {
        out.push(item);
        continue;
      }
      const d = twoWayPatch(old, item);
      if (d !== undefined) out.push({ [key]: item[key], ...d });
    }
    for (const old of from) if (!to.some((x) => x[key] === old[key])) out.push({ [key]: old[key], $patch: 'delete' });
    return out;
  }
  if (!isMap(from) || !isMap(to)) return to;
  const out: Unstructured = {};
  for (const k of Object.keys(to)) {
    if (!(k in from)) {
      out[k] = to[k];
      continue;
    }
    const d = twoWayPatch(from[k], to[k], k);
    if (d !== undefined) out[k] = d;
  }
  for (const k of Object.keys(from)) if (!(k in to)) out[k] = null;
  return Object.keys(out).length ? out : undefined;
}

/** Strategic-merge in miniature: maps merge, lists of named items merge by name, the rest is replaced. */
function mergeDeep(live: unknown, want: unknown): unknown {
  if (isMap(live) && isMap(want)) {
    const out: Unstructured = { ...live };
    for (const [k, v] of Object.entries(want)) out[k] = mergeDeep(live[k], v);
    return out;
  }
  const named = (v: unknown): v is Unstructured[] =>
    Array.isArray(v) && v.every((x) => isMap(x) && typeof x.name === 'string');
  if (named(live) && named(want))
    return want.map((w) =>
      mergeDeep(
        live.find((l) => l.name === w.name),
        w,
      ),
    );
  // Lists of maps without a name key (ports): element by element, so server defaults survive.
  const maps = (v: unknown): v is Unstructured[] => Array.isArray(v) && v.every(isMap);
  if (maps(live) && maps(want) && live.length === want.length) return want.map((w, i) => mergeDeep(live[i], w));
  return want;
}
