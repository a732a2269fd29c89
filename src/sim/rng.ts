// Seeded PRNG (sfc32) whose whole state is four uint32s in the world state, so snapshots and
// replays reproduce every random choice.

/** The generator state: plain data. */
export type RngState = [number, number, number, number];

/** A fresh state from a numeric seed (splitmix32 spreads small seeds over all 128 bits). */
export function createRng(seed: number): RngState {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const st: RngState = [split(), split(), split(), split()];
  for (let i = 0; i < 12; i++) nextUint32(st);
  return st;
}

/** Next uint32 (sfc32), advancing the state in place. */
export function nextUint32(st: RngState): number {
  // Indexed reads, not destructuring: this runs for every tie in every scheduling cycle.
  let a = st[0];
  let b = st[1];
  let c = st[2];
  let d = st[3];
  const t = (((a + b) >>> 0) + d) >>> 0;
  d = (d + 1) >>> 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) >>> 0;
  c = ((c << 21) | (c >>> 11)) >>> 0;
  c = (c + t) >>> 0;
  st[0] = a >>> 0;
  st[1] = b;
  st[2] = c;
  st[3] = d;
  return t;
}

/** Uniform float in [0, 1). */
export function float(st: RngState): number {
  return nextUint32(st) / 4294967296;
}

/** Uniform integer in [0, n). */
export function int(st: RngState, n: number): number {
  return Math.floor(float(st) * n);
}

/** A uniformly chosen element of a non-empty array. */
export function pick<T>(st: RngState, items: readonly T[]): T {
  return items[int(st, items.length)];
}

/** Uniform integer in [min, max] (inclusive): reaction times and latencies. */
export function jitter(st: RngState, min: number, max: number): number {
  return min + int(st, max - min + 1);
}

/** `n` characters drawn uniformly from `alphabet` (like utilrand.String). */
export function chars(st: RngState, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[int(st, alphabet.length)];
  return s;
}

/** The helpers bound to one state, as components see them through `ctx.rng`. */
export interface Rng {
  int(n: number): number;
  float(): number;
  pick<T>(items: readonly T[]): T;
  jitter(min: number, max: number): number;
  chars(alphabet: string, n: number): string;
}

/** Bind the helpers to a state (the binding holds no state of its own). */
export function bindRng(st: RngState): Rng {
  return {
    int: (n) => int(st, n),
    float: () => float(st),
    pick: (items) => pick(st, items),
    jitter: (min, max) => jitter(st, min, max),
    chars: (alphabet, n) => chars(st, alphabet, n),
  };
}
