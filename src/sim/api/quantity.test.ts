import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../test/fc.ts';
import {
  ERR_FORMAT_WRONG,
  ERR_NUMERIC,
  ERR_SUFFIX,
  parseQuantity,
  QuantityError,
  quantityMilliValue,
  quantityOf,
  quantityString,
  quantityValue,
  scaledValue,
} from './quantity.ts';
import { cmpQuantity } from './quantity-cmp.ts';
import canonical from './quantity-canonical.json';

// Cases in the style of apimachinery/pkg/api/resource/quantity_test.go (TestQuantityParse,
// TestQuantityRoundUp): Value() and MilliValue() round up.
describe('quantity', () => {
  it.each([
    ['100m', 100, 1],
    ['2', 2000, 2],
    ['0.5', 500, 1],
    ['1.5', 1500, 2],
    ['250m', 250, 1],
    ['1000m', 1000, 1],
    ['1k', 1_000_000, 1000],
    ['500k', 500_000_000, 500_000],
    ['1e3', 1_000_000, 1000],
    ['1E3', 1_000_000, 1000],
    ['1n', 1, 1],
    ['1u', 1, 1],
    ['0', 0, 0],
    ['.5', 500, 1],
    ['+3', 3000, 3],
  ])('%s → milli %d, value %d', (q, milli, value) => {
    expect(quantityMilliValue(q)).toBe(milli);
    expect(quantityValue(q)).toBe(value);
  });

  it.each([
    ['512Mi', 512 * 1024 * 1024],
    ['1Gi', 1024 ** 3],
    ['8Gi', 8 * 1024 ** 3],
    ['1G', 1e9],
    ['1M', 1e6],
    ['1Ki', 1024],
    ['200Mi', 209715200],
    ['1.5Gi', 1.5 * 1024 ** 3],
    ['128974848', 128974848],
    ['129e6', 129e6],
    ['123Mi', 128974848],
    ['1Ti', 1024 ** 4],
  ])('memory %s = %d bytes', (q, bytes) => {
    expect(quantityValue(q)).toBe(bytes);
  });

  it('accepts numbers and negative values, and trims as UnmarshalJSON does', () => {
    expect(quantityValue(3)).toBe(3);
    expect(quantityMilliValue('-100m')).toBe(-100);
    expect(quantityValue(undefined)).toBe(0);
    expect(quantityValue(' 2 ')).toBe(2);
  });
});

// Worked out by hand from apimachinery v0.37.0-beta.0 (pkg/api/resource):
//  suffix.go interpret: the exponent is strconv.ParseInt(s[1:], 10, 64) then int32(parsed), so it wraps;
//  quantity.go ParseQuantity: the int64Amount fast path when num+denom has ≤ 18 digits (precision ≥ 0) and
//    scale = int32(exponent - len(denom)) ≥ Nano; otherwise inf.Dec, Round(amount, Nano, RoundUp), and
//    BinarySI capped at maxAllowed (2^63-1);
//  amount.go AsScaledInt64 → math.go positiveScaleInt64 (overflow: 0, ok dropped) / negativeScaleInt64
//    (rounds away from zero); quantity.go ScaledValue → scale_int.go scaledValue (big path: Int64(), the low bits).
describe('ParseQuantity as Go has it, huge exponents included', () => {
  it.each([
    // [input, form, mantissa, exp, Value(), MilliValue()]
    ['1e999999999', 'int64', 1n, 999999999, 0n, 0n], // fast path; Value overflows → 0
    ['0e999999999', 'int64', 0n, 999999999, 0n, 0n],
    ['1e4294967297', 'int64', 1n, 1, 10n, 10000n], // int32(4294967297) = 1
    ['1.5e-2147483648', 'int64', 15n, 2147483647, 0n, 0n], // scale int32(-2^31 - 1) wraps to 2^31-1
    ['12E', 'int64', 12n, 18, 0n, 0n], // 1.2e19 > MaxInt64
    ['9E', 'int64', 9n, 18, 9000000000000000000n, 0n],
    ['1e-300000000', 'dec', 1n, -9, 1n, 1n], // below 1n: rounds up to 1n
    ['-1e-300000000', 'dec', -1n, -9, 0n, 0n], // its values: the next test
    ['0.5e-9', 'dec', 1n, -9, 1n, 1n], // quantity_test.go: decQuantity(1, -9)
    ['0.00000012345', 'dec', 124n, -9, 1n, 1n], // quantity_test.go: decQuantity(124, -9)
    ['9Ei', 'dec', 9223372036854775807n, 0, 9223372036854775807n, -1000n], // capped; MilliValue keeps the low 64 bits of (2^63-1)·1000
    ['m', 'int64', 0n, -3, 0n, 0n], // no digits: 0 (kubectl/issues/1517)
    ['+', 'int64', 0n, 0, 0n, 0n],
    ['.', 'int64', 0n, 0, 0n, 0n],
    ['e5', 'int64', 0n, 5, 0n, 0n],
  ] as const)('%s', (input, form, mantissa, exp, value, milli) => {
    const q = parseQuantity(input);
    expect(q).toMatchObject({ form, mantissa, exp });
    if (input !== '-1e-300000000') {
      expect(scaledValue(q, 0)).toBe(value);
      expect(scaledValue(q, -3)).toBe(milli);
    }
  });

  it('a negative inf.Dec below one: int64 `/` truncates, then +1 on a remainder (scaledValue)', () => {
    // -1n: unscaled -1 at scale 9; Value: -1/1e9 = 0 rem -1 → 0+1 = 1; MilliValue: -1/1e6 = 0 → 1.
    const q = parseQuantity('-1e-300000000');
    expect(scaledValue(q, 0)).toBe(1n);
    expect(scaledValue(q, -3)).toBe(1n);
  });

  it.each([
    ['', ERR_FORMAT_WRONG],
    [' 1', ERR_FORMAT_WRONG], // quantity_test.go: whitespace is forbidden
    ['1 ', ERR_FORMAT_WRONG],
    ['1.1.M', ERR_FORMAT_WRONG],
    ['1+1.0M', ERR_FORMAT_WRONG],
    ['0.1am', ERR_FORMAT_WRONG],
    ['aoeu', ERR_FORMAT_WRONG],
    ['1KB', ERR_FORMAT_WRONG],
    ['0.1mi', ERR_SUFFIX],
    ['.5i', ERR_SUFFIX],
    ['1i', ERR_SUFFIX],
    ['-3.01i', ERR_SUFFIX],
    ['-3.01e-', ERR_SUFFIX], // ParseInt("-") fails
    ['--1', ERR_SUFFIX],
    ['1e9223372036854775808', ERR_SUFFIX], // past int64
    ['1e' + '9'.repeat(100000), ERR_SUFFIX],
    ['+e-20', ERR_NUMERIC], // below nano, so Dec.SetString("+"), which has no digit
    ['-.e-20', ERR_NUMERIC],
  ])("refuses %j with Go's error", (input, message) => {
    expect(() => parseQuantity(input)).toThrow(QuantityError);
    expect(() => parseQuantity(input)).toThrow(message);
  });

  it('compares exactly however far apart the exponents are (Quantity.Cmp)', () => {
    const c = (a: string, b: string): number => cmpQuantity(parseQuantity(a), parseQuantity(b));
    expect(c('1e999999999', '1e999999998')).toBe(1);
    expect(c('10e999999998', '1e999999999')).toBe(0);
    expect(c('1e-300000000', '1n')).toBe(0);
    expect(c('-1e999999999', '1')).toBe(-1);
    expect(c('-1e999999999', '-1e999999998')).toBe(-1);
    expect(c('1500m', '1.5')).toBe(0);
    expect(c('1Ki', '1k')).toBe(1);
    expect(c('0', '-0e5')).toBe(0);
  });
});

describe('properties', () => {
  // A quantity-like string: sign, digits, point, suffix letters, an exponent of any size.
  const quantityLike = fc
    .tuple(
      fc.constantFrom('', '+', '-'),
      fc.stringMatching(/^[0-9]{0,30}$/),
      fc.constantFrom('', '.'),
      fc.stringMatching(/^[0-9]{0,30}$/),
      fc.constantFrom('', 'e', 'E', 'Ki', 'Ei', 'm', 'n', 'k', 'i', 'ee', 'Mi'),
      fc.constantFrom('', '+', '-'),
      fc.oneof(fc.stringMatching(/^[0-9]{0,25}$/), fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String)),
    )
    .map((parts) => parts.join(''));

  // No timing here (speed is measured in the bench): a power of ten built for a huge exponent would take
  // minutes and gigabytes, so the test's own timeout is what bounds it.
  it("any string parses or is refused with one of Go's errors, and its values and order follow", () => {
    fc.assert(
      fc.property(fc.oneof(quantityLike, fc.string({ maxLength: 40 })), quantityLike, (s, t) => {
        let q;
        try {
          q = parseQuantity(s);
        } catch (e) {
          expect(e).toBeInstanceOf(QuantityError);
          expect([ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX]).toContain((e as Error).message);
        }
        if (q) {
          expect(typeof scaledValue(q, 0)).toBe('bigint');
          expect(typeof scaledValue(q, -3)).toBe('bigint');
          expect(cmpQuantity(q, q)).toBe(0);
          let r;
          try {
            r = parseQuantity(t);
          } catch {
            /* refused: nothing to compare */
          }
          // Antisymmetric (summed, so that 0 and -0 are one answer).
          if (r) expect(cmpQuantity(q, r) + cmpQuantity(r, q)).toBe(0);
        }
      }),
      { numRuns: runs(3) },
    );
  });

  it('within int64, Value() and MilliValue() are the exact value rounded up', () => {
    // Independent arithmetic: digits × 10^exp as a fraction, ceiling by BigInt.
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: -9, max: 3 }), (digits, exp) => {
        const q = quantityOf(`${digits}e${exp}`);
        const ceil = (shift: number): bigint =>
          shift >= 0 ? digits * 10n ** BigInt(shift) : (digits + 10n ** BigInt(-shift) - 1n) / 10n ** BigInt(-shift);
        expect(scaledValue(q, 0)).toBe(ceil(exp));
        expect(scaledValue(q, -3)).toBe(ceil(exp + 3));
      }),
      { numRuns: runs(2) },
    );
  });
});

describe('Quantity.String() as the API server stores it', () => {
  // 455 inputs (hand-picked edges and random numbers × suffixes) and what real apimachinery v0.37.2
  // prints for each (oracle/cmd/quantity).
  it("gives real apimachinery's canonical form for every captured input", () => {
    const wrong = Object.entries(canonical as Record<string, string>)
      .filter(([input, want]) => quantityString(parseQuantity(input)) !== want)
      .map(([input, want]) => `${input}: ${quantityString(parseQuantity(input))}, want ${want}`);
    expect(wrong).toEqual([]);
  });
  it('is a fixed point: the canonical form of a canonical form is itself', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.values(canonical as Record<string, string>)),
        (s) => quantityString(parseQuantity(s)) === s,
      ),
    );
  });
});
