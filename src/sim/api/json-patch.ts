// RFC 6902 JSON patch as the Kubernetes API server applies it: the vendored
// gopkg.in/evanphx/json-patch.v4 (patch.go, errors.go) with its quirks and its error strings, and
// the request decoding of the apiserver's patch handler (handlers/patch.go, jsonPatcher.applyJSPatch).
// Pure functions over plain JSON data; the API server turns the results into Statuses.

type Obj = Record<string, unknown>;

/** One operation as decoded (json-patch's `Operation`: the raw members of one patch item). */
export type JsonPatchOperation = Record<string, unknown>;

/** maxJSONPatchOperations in handlers/patch.go. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/**
 * The apiserver's JSONPatchMaxCopyBytes (genericapiserver.NewConfig: 3 MiB), which it installs as
 * json-patch's AccumulatedCopySizeLimit: the most a patch's `copy` operations may add.
 */
const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

// json-patch's sentinel errors (patch.go), printed after the message they are wrapped in (%w).
const ERR_TEST_FAILED = 'test failed';
const ERR_MISSING = 'missing value';
const ERR_INVALID_INDEX = 'invalid index referenced';

/** Set a member, also one named `__proto__` (an own data property, as JSON.parse makes it). */
function put(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** The result of one step: nothing (done) or Go's error text. */
type GoErr = string | undefined;

/** A JSON container the patch walks through (partialDoc or partialArray). */
type Container = unknown[] | Obj;

/** What Go's encoding/json calls the JSON type of a value in an UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v; // string, number
}

/**
 * The patch handler's first reading of a JSON patch body. kubectl sends no fieldValidation, so the
 * server's directive is Warn (rest.go fieldValidation) and applyJSPatch first decodes the body
 * strictly into `[]jsonPatchOp` (op, path, from strings; value anything): a type error there is a
 * 400 `error decoding patch: …`. The Go type names are derived from the handler's source (package
 * handlers), not seen in a captured response. Unknown members (strict-decoding warnings) are not
 * modelled. `null` decodes to no operations.
 */
export function decodeJSONPatch(
  body: unknown,
): { ok: true; ops: JsonPatchOperation[] } | { ok: false; message: string } {
  const bad = (what: string): { ok: false; message: string } => ({
    ok: false,
    message: `error decoding patch: json: cannot unmarshal ${what}`,
  });
  if (body === null || body === undefined) return { ok: true, ops: [] };
  if (!Array.isArray(body)) return bad(`${jsonKind(body)} into Go value of type []handlers.jsonPatchOp`);
  for (const item of body) {
    if (item === null) continue;
    if (typeof item !== 'object' || Array.isArray(item))
      return bad(`${jsonKind(item)} into Go value of type handlers.jsonPatchOp`);
    for (const f of ['op', 'path', 'from']) {
      const v = (item as Record<string, unknown>)[f];
      if (v !== undefined && v !== null && typeof v !== 'string')
        return bad(`${jsonKind(v)} into Go struct field jsonPatchOp.${f} of type string`);
    }
  }
  // A null item is a nil Operation: it has no "op" and fails as `Unexpected kind: unknown`.
  return { ok: true, ops: body.map((item) => (item ?? {}) as JsonPatchOperation) };
}

/** RFC 6901 unescaping as json-patch does it (`~1` → `/` first, then `~0` → `~`). */
export function decodePatchKey(k: string): string {
  return k.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** strconv.Atoi: a decimal int64 with an optional sign, else Go's NumError text. */
export function atoi(s: string): { ok: true; n: bigint } | { ok: false; error: string } {
  const q = JSON.stringify(s); // strconv.Quote, for the printable keys a path holds
  if (!/^[+-]?[0-9]+$/.test(s)) return { ok: false, error: `strconv.Atoi: parsing ${q}: invalid syntax` };
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n)
    return { ok: false, error: `strconv.Atoi: parsing ${q}: value out of range` };
  return { ok: true, n };
}

const invalidIndex = (i: bigint): string => `Unable to access invalid index: ${i}: ${ERR_INVALID_INDEX}`;

/** A member or element as json-patch's `get` gives it: undefined for a missing key or a JSON null (a nil node). */
function get(c: Container, key: string): { v: unknown } | { error: string } {
  if (!Array.isArray(c)) {
    const v = Object.hasOwn(c, key) ? c[key] : undefined;
    return { v: v === null ? undefined : v };
  }
  const a = atoi(key);
  if (!a.ok) return { error: a.error };
  let i = a.n;
  const len = BigInt(c.length);
  // SupportNegativeIndices (on by default): -1 is the last element.
  if (i < 0n) {
    if (i < -len) return { error: invalidIndex(i) };
    i += len;
  }
  if (i >= len) return { error: invalidIndex(i) };
  const v = c[Number(i)];
  return { v: v === null ? undefined : v };
}

/** partialDoc/partialArray `add`: a member set, or an element inserted (`-` appends). */
function add(c: Container, key: string, v: unknown): GoErr {
  if (!Array.isArray(c)) {
    put(c, key, v);
    return;
  }
  if (key === '-') {
    c.push(v);
    return;
  }
  const a = atoi(key);
  if (!a.ok) return `value was not a proper array index: '${key}': ${a.error}`;
  let i = a.n;
  const size = BigInt(c.length + 1);
  if (i >= size) return invalidIndex(i);
  if (i < 0n) {
    if (i < -size) return invalidIndex(i);
    i += size;
  }
  c.splice(Number(i), 0, v);
}

/** partialDoc/partialArray `remove`. A member holding null is there to remove. */
function remove(c: Container, key: string): GoErr {
  if (!Array.isArray(c)) {
    if (!Object.hasOwn(c, key) || c[key] === undefined)
      return `Unable to remove nonexistent key: ${key}: ${ERR_MISSING}`;
    delete c[key];
    return;
  }
  const a = atoi(key);
  if (!a.ok) return a.error;
  let i = a.n;
  const len = BigInt(c.length);
  if (i >= len) return invalidIndex(i);
  if (i < 0n) {
    if (i < -len) return invalidIndex(i);
    i += len;
  }
  c.splice(Number(i), 1);
}

/** partialArray `set` (only after a successful get, so the index is in range). */
function set(c: Container, key: string, v: unknown): void {
  if (!Array.isArray(c)) {
    put(c, key, v);
    return;
  }
  const a = atoi(key) as { n: bigint };
  let i = a.n;
  if (i < 0n) i += BigInt(c.length);
  c[Number(i)] = v;
}

/**
 * findObject: the container of a path's last token and that token. The first token is dropped
 * unread (`strings.Split(path, "/")[1:]`), so a path without a leading slash, `a/b`, means `/b`; a
 * path with no slash at all (or `""`) has no container. A step through a missing member, a null, a
 * string or a number has none either.
 */
function findObject(doc: Container, path: string): { c: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let c: Container = doc;
  for (const part of split.slice(1, -1)) {
    const next = get(c, decodePatchKey(part));
    if ('error' in next || next.v === undefined) return undefined;
    if (next.v === null || typeof next.v !== 'object') return undefined;
    c = next.v as Container;
  }
  return { c, key: decodePatchKey(split[split.length - 1]) };
}

/** lazyNode.equal for values a patch compares: JSON equality, a null member differing from a missing one. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ak = Object.keys(a).filter((k) => (a as Obj)[k] !== undefined);
  const bk = Object.keys(b).filter((k) => (b as Obj)[k] !== undefined);
  return (
    ak.length === bk.length &&
    ak.every((k) => Object.hasOwn(b, k) && (b as Obj)[k] !== undefined && jsonEqual((a as Obj)[k], (b as Obj)[k]))
  );
}

/** A deep copy as JSON would make it (undefined members dropped): the document json-patch edits in place. */
function jsonCopy(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : jsonCopy(x)));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) if ((v as Obj)[k] !== undefined) put(out, k, jsonCopy((v as Obj)[k]));
  return out;
}

/** Operation.Path/From: the member's string, or undefined when it is missing or null. */
function member(op: JsonPatchOperation, k: string): string | undefined {
  const v = op[k];
  return typeof v === 'string' ? v : undefined;
}

/** An operation's value: a missing `value` adds a null, as a nil node marshals. */
function valueOf(op: JsonPatchOperation): unknown {
  return op.value === undefined ? null : jsonCopy(op.value);
}

const NO_PATH = `operation missing path field: ${ERR_MISSING}`;
const NO_FROM = `operation, missing from field: ${ERR_MISSING}`;

/** Patch.add (the error strings are json-patch's, including which ones wrap the cause and which do not). */
function opAdd(root: { doc: Container }, op: JsonPatchOperation): GoErr {
  const path = member(op, 'path');
  if (path === undefined) return `add operation failed to decode path: ${ERR_MISSING}`;
  const f = findObject(root.doc, path);
  if (!f) return `add operation does not apply: doc is missing path: "${path}": ${ERR_MISSING}`;
  const e = add(f.c, f.key, valueOf(op));
  if (e) return `error in add for path: '${path}': ${e}`;
}

/** Patch.remove. */
function opRemove(root: { doc: Container }, op: JsonPatchOperation): GoErr {
  const path = member(op, 'path');
  if (path === undefined) return `remove operation failed to decode path: ${ERR_MISSING}`;
  const f = findObject(root.doc, path);
  if (!f) return `remove operation does not apply: doc is missing path: "${path}": ${ERR_MISSING}`;
  const e = remove(f.c, f.key);
  if (e) return `error in remove for path: '${path}': ${e}`;
}

/**
 * Patch.replace. An object member need not exist (partialDoc's get never fails, so replace then
 * adds it); a missing array element is "doc is missing key". `""` replaces the whole document.
 */
function opReplace(root: { doc: Container }, op: JsonPatchOperation): GoErr {
  const path = member(op, 'path');
  if (path === undefined) return `replace operation failed to decode path: ${NO_PATH}`;
  if (path === '') {
    const v = op.value;
    // Go formats the nil error it wraps here as %!w(<nil>). (Without a `value` member Go
    // dereferences a nil node and panics; that case is given the same message here.)
    if (v === null || v === undefined || typeof v !== 'object')
      return 'replace operation value must be object or array: %!w(<nil>)';
    root.doc = jsonCopy(v) as Container;
    return;
  }
  const f = findObject(root.doc, path);
  if (!f) return `replace operation does not apply: doc is missing path: ${path}: ${ERR_MISSING}`;
  if ('error' in get(f.c, f.key))
    return `replace operation does not apply: doc is missing key: ${path}: ${ERR_MISSING}`;
  set(f.c, f.key, valueOf(op));
}

/** Patch.move: remove at `from`, then add at `path` (so moving a value into itself finds no destination). */
function opMove(root: { doc: Container }, op: JsonPatchOperation): GoErr {
  const from = member(op, 'from');
  if (from === undefined) return `move operation failed to decode from: ${NO_FROM}`;
  let f = findObject(root.doc, from);
  if (!f) return `move operation does not apply: doc is missing from path: ${from}: ${ERR_MISSING}`;
  const got = get(f.c, f.key);
  // json-patch names the last token here, not the path.
  if ('error' in got) return `error in move for path: '${f.key}': ${got.error}`;
  const e1 = remove(f.c, f.key);
  if (e1) return `error in move for path: '${f.key}': ${e1}`;
  const path = member(op, 'path');
  if (path === undefined) return `move operation failed to decode path: ${NO_PATH}`;
  f = findObject(root.doc, path);
  if (!f) return `move operation does not apply: doc is missing destination path: ${path}: ${ERR_MISSING}`;
  const e2 = add(f.c, f.key, got.v === undefined ? null : got.v);
  if (e2) return `error in move for path: '${path}': ${e2}`;
}

/** Patch.test: a missing member or a null passes against a null (or absent) value. */
function opTest(root: { doc: Container }, op: JsonPatchOperation): GoErr {
  const path = member(op, 'path');
  if (path === undefined) return `test operation failed to decode path: ${NO_PATH}`;
  const failed = `testing value ${path} failed: ${ERR_TEST_FAILED}`;
  if (path === '') return op.value !== undefined && jsonEqual(root.doc, op.value) ? undefined : failed;
  const f = findObject(root.doc, path);
  if (!f) return `test operation does not apply: is missing path: ${path}: ${ERR_MISSING}`;
  const got = get(f.c, f.key);
  if ('error' in got) return `error in test for path: '${path}': ${got.error}`;
  if (got.v === undefined) return op.value === undefined || op.value === null ? undefined : failed;
  if (op.value === undefined) return failed;
  return jsonEqual(got.v, op.value) ? undefined : failed;
}

/** Patch.copy, counting the bytes copied against the limit. */
function opCopy(root: { doc: Container }, op: JsonPatchOperation, acc: { bytes: number }): GoErr {
  const from = member(op, 'from');
  if (from === undefined) return `copy operation failed to decode from: ${NO_FROM}`;
  let f = findObject(root.doc, from);
  if (!f) return `copy operation does not apply: doc is missing from path: ${from}: ${ERR_MISSING}`;
  const got = get(f.c, f.key);
  if ('error' in got) return `error in copy for from: '${from}': ${got.error}`;
  const path = member(op, 'path');
  if (path === undefined) return `copy operation failed to decode path: ${ERR_MISSING}`;
  f = findObject(root.doc, path);
  if (!f) return `copy operation does not apply: doc is missing destination path: ${path}: ${ERR_MISSING}`;
  const v = got.v === undefined ? null : jsonCopy(got.v);
  // deepCopy measures the marshalled node (a nil node copies as nothing).
  acc.bytes += got.v === undefined ? 0 : new TextEncoder().encode(JSON.stringify(v)).length;
  if (acc.bytes > JSON_PATCH_MAX_COPY_BYTES)
    return `Unable to complete the copy, the accumulated size increase of copy is ${acc.bytes}, exceeding the limit ${JSON_PATCH_MAX_COPY_BYTES}`;
  const e = add(f.c, f.key, v);
  if (e) return `error while adding value during copy: ${e}`;
}

/**
 * Patch.Apply: the operations in order on a copy of `doc`; the first failure ends it with
 * json-patch's error text (which the API server answers with a bare 422, the text not sent).
 */
export function applyJSONPatch(
  doc: unknown,
  ops: JsonPatchOperation[],
): { ok: true; doc: unknown } | { ok: false; error: string } {
  const root = { doc: jsonCopy(doc) as Container };
  const acc = { bytes: 0 };
  for (const op of ops) {
    const kind = op !== null && typeof op === 'object' && typeof op.op === 'string' ? op.op : 'unknown';
    let e: GoErr;
    switch (kind) {
      case 'add':
        e = opAdd(root, op);
        break;
      case 'remove':
        e = opRemove(root, op);
        break;
      case 'replace':
        e = opReplace(root, op);
        break;
      case 'move':
        e = opMove(root, op);
        break;
      case 'test':
        e = opTest(root, op);
        break;
      case 'copy':
        e = opCopy(root, op, acc);
        break;
      default:
        e = `Unexpected kind: ${kind}`;
    }
    if (e !== undefined) return { ok: false, error: e };
  }
  return { ok: true, doc: root.doc };
}
