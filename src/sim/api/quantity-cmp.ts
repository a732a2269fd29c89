// Quantity.Sign and Quantity.Cmp: only the request checks' validation and kubectl's --sort-by compare
// quantities, so they are apart from quantity.ts, in the lazy chunks those travel in, not the worker's core.
import { digitCount, type Quantity } from './quantity.ts';

/** Quantity.Sign(). */
export function quantitySign(q: Quantity): number {
  return q.mantissa > 0n ? 1 : q.mantissa < 0n ? -1 : 0;
}

/** Quantity.Cmp: -1, 0 or 1, exact, without building the power of ten between two far exponents. */
export function cmpQuantity(a: Quantity, b: Quantity): number {
  const sa = quantitySign(a);
  const sb = quantitySign(b);
  if (sa !== sb || sa === 0) return Math.sign(sa - sb);
  // Same sign: the order of magnitude decides, and when it is the same the exponents are close.
  const ma = digitCount(a.mantissa) + a.exp;
  const mb = digitCount(b.mantissa) + b.exp;
  if (ma !== mb) return ma > mb ? sa : -sa;
  const low = Math.min(a.exp, b.exp);
  const x = a.mantissa * 10n ** BigInt(a.exp - low);
  const y = b.mantissa * 10n ** BigInt(b.exp - low);
  return x < y ? -1 : x > y ? 1 : 0;
}
