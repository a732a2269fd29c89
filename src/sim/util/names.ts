// Kubernetes-style names, hashes, uids and timestamps, all from simulated time and the seeded rng.
import { chars, nextUint32, type RngState } from '../rng.ts';
import { rfcSeconds } from './names-cache.ts';
import { lastCall } from './memo.ts';

/** utilrand's alphabet: no vowels (no accidental words) and no confusable 0/1/3. */
export const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
/** Random suffix length of generateName. */
const RANDOM_LENGTH = 5;
/** Longest generateName base kept (63 − 5). */
const MAX_GENERATED_NAME_LENGTH = 63 - RANDOM_LENGTH;
/** Simulated time 0 as Unix ms: 2026-01-01T00:00:00Z. */
export const EPOCH_MS = Date.UTC(2026, 0, 1);

/** names.SimpleNameGenerator.GenerateName: base (truncated to 58) + 5 random chars. */
export function generateName(rng: RngState, base: string): string {
  const b = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base;
  return b + chars(rng, ALPHANUMS, RANDOM_LENGTH);
}

/** rand.SafeEncodeString: each byte mapped to alphanums[byte % 27]. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += ALPHANUMS[s.charCodeAt(i) % ALPHANUMS.length];
  return out;
}

/** JSON with object keys sorted, so equal objects give equal text whatever their key order. */
export function stableStringify(v: unknown): string {
  if (v === null || typeof v !== 'object') return v === undefined ? 'null' : JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined ? 'null' : stableStringify(x))).join(',') + ']';
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + stableStringify(o[k])).join(',') + '}';
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a 32-bit over bytes, continuing from `h`. */
function fnv1a32Bytes(bytes: Uint8Array, h = FNV_OFFSET): number {
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], FNV_PRIME) >>> 0;
  return h >>> 0;
}

/** FNV-1a 32-bit over the UTF-8 bytes of a string. */
export function fnv1a32(s: string, h = FNV_OFFSET): number {
  return fnv1a32Bytes(new TextEncoder().encode(s), h);
}

/**
 * The template as Go's DeepHashObject sees it: a container's ResourceRequirements is a struct, so an
 * empty `resources: {}` (which the API server's defaulting writes) hashes as an absent one.
 */
function hashedTemplate(template: unknown): unknown {
  const spec = (template as { spec?: Record<string, unknown> } | undefined)?.spec;
  if (!spec) return template;
  const strip = (cs: unknown): unknown =>
    Array.isArray(cs)
      ? cs.map((c: Record<string, unknown>) => {
          const r = c?.resources;
          if (!r || typeof r !== 'object' || Object.keys(r).length > 0) return c;
          const { resources: _r, ...rest } = c;
          return rest;
        })
      : cs;
  return {
    ...(template as object),
    spec: { ...spec, containers: strip(spec.containers), initContainers: strip(spec.initContainers) },
  };
}

/** controller.ComputeHash: the pod-template-hash (FNV-1a of the template, + collisionCount as 8 LE bytes). */
export function computeHash(template: unknown, collisionCount?: number): string {
  let h = fnv1a32(stableStringify(hashedTemplate(template)));
  if (collisionCount !== undefined && collisionCount !== null) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv1a32Bytes(b, h);
  }
  return safeEncodeString(String(h));
}

/** A v4-shaped uid drawn from the rng. */
export function newUID(rng: RngState): string {
  const a = nextUint32(rng);
  const b = (nextUint32(rng) & 0xffff0fff) | 0x4000; // version nibble 4
  const c = (nextUint32(rng) & 0x3fffffff) | 0x80000000; // variant 10xx
  const d = nextUint32(rng);
  // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx as one flat string in a single call (an argument list, not
  // `apply` over an array, which costs six times as much).
  const H = HEX_CODES;
  return String.fromCharCode(
    H[a >>> 28],
    H[(a >>> 24) & 15],
    H[(a >>> 20) & 15],
    H[(a >>> 16) & 15],
    H[(a >>> 12) & 15],
    H[(a >>> 8) & 15],
    H[(a >>> 4) & 15],
    H[a & 15],
    45,
    H[b >>> 28],
    H[(b >>> 24) & 15],
    H[(b >>> 20) & 15],
    H[(b >>> 16) & 15],
    45,
    H[(b >>> 12) & 15],
    H[(b >>> 8) & 15],
    H[(b >>> 4) & 15],
    H[b & 15],
    45,
    H[c >>> 28],
    H[(c >>> 24) & 15],
    H[(c >>> 20) & 15],
    H[(c >>> 16) & 15],
    45,
    H[(c >>> 12) & 15],
    H[(c >>> 8) & 15],
    H[(c >>> 4) & 15],
    H[c & 15],
    H[d >>> 28],
    H[(d >>> 24) & 15],
    H[(d >>> 20) & 15],
    H[(d >>> 16) & 15],
    H[(d >>> 12) & 15],
    H[(d >>> 8) & 15],
    H[(d >>> 4) & 15],
    H[d & 15],
  );
}
const HEX_CODES = [...'0123456789abcdef'].map((ch) => ch.charCodeAt(0));

/** metav1.Time: RFC 3339 with second precision (what creationTimestamp looks like). */
export function rfc3339(ms: number): string {
  // Memoised per second (bounded): writes share a second, and older timestamps recur on every pass.
  const sec = Math.floor(ms / 1000);
  let s = rfcSeconds.get(sec);
  if (s === undefined) {
    if (rfcSeconds.size >= 8192) rfcSeconds.clear();
    s = new Date(EPOCH_MS + sec * 1000).toISOString().replace('.000Z', 'Z');
    rfcSeconds.set(sec, s);
  }
  return s;
}

/** metav1.MicroTime: RFC 3339 with microseconds (lease renewTime, event eventTime). */
export function microTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.round((ms - whole) * 1000);
  const iso = new Date(EPOCH_MS + whole).toISOString(); // ...ss.mmmZ
  return iso.slice(0, -1) + String(micros).padStart(3, '0') + 'Z';
}

/** FNV-1a 32-bit over the UTF-16 code units of a string (fast; no encoding pass over large text). */
export function fnv1a32Chars(s: string, h = FNV_OFFSET): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h = Math.imul(h ^ (c & 0xff), FNV_PRIME);
    if (c > 0xff) h = Math.imul(h ^ (c >>> 8), FNV_PRIME);
  }
  return h >>> 0;
}

/** A stable hash of any plain data (fnv-1a over stable, key-sorted JSON), hex. */
export function hashOf(v: unknown): string {
  return fnv1a32Chars(stableStringify(v)).toString(16).padStart(8, '0');
}

/** Hash of the exact JSON bytes (key order included): what "byte-identical" runs must share. */
export function hashJSON(v: unknown): string {
  return fnv1a32Chars(JSON.stringify(v)).toString(16).padStart(8, '0');
}

// Why flatten: a string built by concatenation is a tree of pieces in V8 (a uid from a template
// literal is ~400 bytes); reading a character of it makes V8 flatten it in place, and the next GC
// drops the pieces (~60 bytes left). Kept strings — stored objects, log records, names — are
// flattened once; the value never changes. A character read costs a few ns on a string that is flat
// already (most are), a number conversion ~25. Strings under 13 characters are never trees. The
// sink keeps the read from being optimised away.
const flattenSink = new Int32Array(1);

/** The same string, flattened in V8's representation when it was built by concatenation. */
export function flatten(s: string): string {
  if (s.length > 12) flattenSink[0] ^= s.charCodeAt(0);
  return s;
}

/** Flatten every string in `v` that is not shared with `prev` (the previous version of the object). */
export function flattenStrings(v: unknown, prev?: unknown): void {
  if (typeof v === 'string') {
    flatten(v);
    return;
  }
  if (v === null || typeof v !== 'object' || v === prev) return;
  const p = (prev !== null && typeof prev === 'object' ? prev : undefined) as Record<string, unknown> | undefined;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === 'string') flatten(x);
      else if (x !== null && typeof x === 'object') flattenStrings(x, (p as unknown[] | undefined)?.[i]);
    }
    return;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (typeof x === 'string') {
      if (p === undefined || p[k] !== x) flatten(x);
    } else if (x !== null && typeof x === 'object') flattenStrings(x, p?.[k]);
  }
}

/** Structural equality of plain data (early exit; cheaper than comparing serialisations). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k in ao) {
    if (ao[k] === undefined) continue;
    n++;
    if (!deepEqual(ao[k], bo[k])) return false;
  }
  for (const k in bo) if (bo[k] !== undefined) n--;
  return n === 0;
}

/** An Event's name as client-go's recorder makes it: `<object>.<hex of unix nanoseconds>`. */
export function eventName(objectName: string, ms: number, extraNanos = 0): string {
  return flatten(
    `${objectName}.${unixNanoHex(EPOCH_MS + Math.floor(ms), Math.round((ms % 1) * 1_000_000) + extraNanos)}`,
  );
}

/**
 * (msSinceEpoch × 10⁶ + nanos) in hex, exactly, without BigInt (the product passes 2^53): the
 * milliseconds are split at 2^24 so every partial product stays exact in a double.
 */
export function unixNanoHex(msSinceEpoch: number, nanos: number): string {
  const a1 = Math.floor(msSinceEpoch / TWO24);
  const a0 = msSinceEpoch - a1 * TWO24;
  const low = a0 * 1_000_000 + nanos; // < 2^45
  const carry = Math.floor(low / TWO24);
  const high = a1 * 1_000_000 + carry; // the value is high × 2^24 + (low mod 2^24)
  const rest = low - carry * TWO24;
  if (high === 0) return rest.toString(16);
  if (rest !== Math.floor(rest)) {
    const r = rest.toString(16);
    return high.toString(16) + '000000'.slice(r.length) + r;
  } // not whole nanoseconds
  // The high digits change every ~17 ms of clock: remembered. The low 24 bits as six digits at once.
  const H = HEX_CODES;
  return (
    highHex(high) +
    String.fromCharCode(
      H[rest >>> 20],
      H[(rest >>> 16) & 15],
      H[(rest >>> 12) & 15],
      H[(rest >>> 8) & 15],
      H[(rest >>> 4) & 15],
      H[rest & 15],
    )
  );
}
const TWO24 = 16_777_216;
const highHex = lastCall((high: number): string => high.toString(16));
