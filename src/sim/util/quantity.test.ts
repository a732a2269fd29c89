import { describe, expect, it } from 'vitest';
import { parseQuantity, quantityMilliValue, quantityValue } from './quantity.ts';

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

  it('accepts numbers and negative values', () => {
    expect(quantityValue(3)).toBe(3);
    expect(quantityMilliValue('-100m')).toBe(-100);
    expect(quantityValue(undefined)).toBe(0);
  });

  it.each(['', 'abc', '1.2.3', '1Xi', '1KB', 'm', '--1'])('rejects %j', (q) => {
    expect(() => parseQuantity(q)).toThrow();
  });
});
