// A deep copy of the simulation's plain-data state, for snapshots, restores and recorded inputs.
//
// structuredClone goes through V8's serializer: every string is copied and every object rebuilt from
// a byte stream, which made a three-node world's snapshot cost ~3 ms. The state is plain data
// (objects, arrays, strings, numbers, booleans, null, undefined), so a walk in JavaScript that shares
// the immutable strings does the same job several times faster. It keeps what structuredClone keeps
// and the simulation relies on: objects reached twice (an informer's cache and the store hold the
// same object) or in a cycle are copied once; key order is the same; undefined-valued keys stay;
// copies are not frozen. Anything else (a Map, a Date, a typed array) goes to structuredClone, and a
// function or symbol is refused, as structuredClone refuses it.
import { newDict } from './util/dict.ts';

const OBJECT_PROTO = Object.prototype;

// Objects with many keys are id → record dictionaries (dict.ts): copy them into dictionary mode
// rather than growing a chain of hidden classes one key at a time.
const DICT_KEYS = 32;

/** A deep copy of plain data, with shared and cyclic references kept as they are (like structuredClone). */
export function clonePlain<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return check(value);
  return copy(value, new Map()) as T;
}

function check<T>(v: T): T {
  if (typeof v === 'function' || typeof v === 'symbol')
    throw new DOMException(`${String(v)} could not be cloned.`, 'DataCloneError');
  return v;
}

function copy(v: object, seen: Map<object, unknown>): unknown {
  const hit = seen.get(v);
  if (hit !== undefined) return hit;
  if (Array.isArray(v)) {
    const n = v.length;
    const out = new Array(n);
    seen.set(v, out);
    for (let i = 0; i < n; i++) {
      const x = v[i];
      out[i] = typeof x === 'object' && x !== null ? copy(x, seen) : check(x);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== OBJECT_PROTO && proto !== null) {
    const out = structuredClone(v);
    seen.set(v, out);
    return out;
  }
  const src = v as Record<string, unknown>;
  let n = 0;
  for (const _ in src) if (++n > DICT_KEYS) break;
  const out: Record<string, unknown> = n > DICT_KEYS ? newDict() : {};
  seen.set(v, out);
  for (const k in src) {
    const x = src[k];
    const c = typeof x === 'object' && x !== null ? copy(x, seen) : check(x);
    // A manifest may carry a "__proto__" key: an own property, as structuredClone makes it, not a prototype.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    else out[k] = c;
  }
  return out;
}
