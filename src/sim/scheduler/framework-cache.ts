// framework.ts' scratch: a buffer reused across calls so that normalising scores allocates nothing.
// Not simulation state: every call overwrites what it reads.

let tableBuf = new Float64Array(1024);

/** Scratch of length n for defaultNormalizeScore's per-value table (reused: valid until the next call). */
export function normalizeTable(n: number): Float64Array {
  if (tableBuf.length < n) tableBuf = new Float64Array(n);
  return tableBuf.subarray(0, n);
}
