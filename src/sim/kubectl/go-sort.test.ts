// goSort must sort, permute, be deterministic and reproduce Go's order for ties; naturalLess must
// agree with the table in fvbommel/sortorder's natsort_test.go.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { goSort, goStringLess } from './go-sort.ts';
import { runs } from '../../test/fc.ts';

interface Row {
  key: number;
  id: number;
}

/** Tag each key with its original position so ties stay distinguishable. */
const rows = (keys: number[]): Row[] => keys.map((key, id) => ({ key, id }));
const byKey = (a: Row, b: Row) => a.key < b.key;
const ids = (rs: Row[]) => rs.map((r) => r.id);

// Small key ranges force many duplicates; lengths cross the insertion-sort (12) and ninther (50) cut-offs.
const keyArrays = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 200 }),
  fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 200 }),
  fc.array(fc.integer(), { maxLength: 200 }),
);

/** Structured inputs that steer pdqsort into its special paths (hints, partialInsertionSort, breakPatterns, heapsort). */
function patterned(kind: number, n: number, m: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    switch (kind) {
      case 0:
        out.push(i);
        break; // ascending
      case 1:
        out.push(n - i);
        break; // descending
      case 2:
        out.push(i < n / 2 ? i : n - i);
        break; // organ pipe
      case 3:
        out.push(i % m);
        break; // sawtooth
      case 4:
        out.push(7);
        break; // all equal
      case 5:
        out.push(i === n - 1 ? -1 : i);
        break; // sorted but for the last element
      default:
        out.push((i * 7919) % (m + 1));
        break; // pseudo-random, many ties
    }
  }
  return out;
}

const isSorted = (keys: number[]) => keys.every((k, i) => i === 0 || keys[i - 1] <= k);

describe('goSort', () => {
  test('output is sorted for a strict less', () => {
    fc.assert(
      fc.property(keyArrays, (keys) => {
        const data = [...keys];
        goSort(data, (a, b) => a < b);
        expect(isSorted(data)).toBe(true);
      }),
      { numRuns: runs(0.5) },
    );
  });

  test('structured inputs are sorted too', () => {
    for (let kind = 0; kind <= 6; kind++) {
      for (let n = 0; n <= 200; n++) {
        for (const m of [1, 2, 5, 13]) {
          const data = patterned(kind, n, m);
          goSort(data, (a, b) => a < b);
          expect(isSorted(data), `kind ${kind} n ${n} m ${m}`).toBe(true);
        }
      }
    }
  });

  test('output is a permutation of the input', () => {
    fc.assert(
      fc.property(keyArrays, (keys) => {
        const data = rows(keys);
        goSort(data, byKey);
        expect([...ids(data)].sort((a, b) => a - b)).toEqual(keys.map((_, i) => i));
        expect(data.every((r) => r.key === keys[r.id])).toBe(true);
      }),
      { numRuns: runs(0.3) },
    );
  });

  test('is deterministic, even for a random, inconsistent less', () => {
    fc.assert(
      fc.property(keyArrays, fc.integer(), (keys, seed) => {
        // The same pseudo-random answers in the same call order must give the same permutation.
        const coin = (s: number) => () => {
          s = (s * 1103515245 + 12345) >>> 0;
          return (s & 0x10000) !== 0;
        };
        const x = rows(keys);
        const y = rows(keys);
        const f = coin(seed);
        const g = coin(seed);
        goSort(x, () => f());
        goSort(y, () => g());
        expect(ids(x)).toEqual(ids(y));
      }),
      { numRuns: runs(0.2) },
    );
  });

  test('up to 12 elements it is a plain insertion sort, hence stable', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 12 }), (keys) => {
        const data = rows(keys);
        goSort(data, byKey);
        const stable = [...rows(keys)].sort((a, b) => a.key - b.key); // Array#sort is stable
        expect(ids(data)).toEqual(ids(stable));
      }),
      { numRuns: runs(0.3) },
    );
  });

  test('13 elements with ties: the unstable order traced by hand from pdqsort', () => {
    // keys [1,1,1,1,1,1,0,1,1,1,1,1,1]: choosePivot samples 3,6,9 -> one swap -> unknownHint,
    // pivot index 3. partition swaps (0,3), (1,6), then (1,0), leaving mid = 1. Left side has one
    // element; the right side (11 elements) is insertion-sorted without moves.
    const keys = [1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1];
    const data = rows(keys);
    const calls: [number, number][] = [];
    goSort(data, (a, b) => {
      calls.push([a.id, b.id]);
      return a.key < b.key;
    });
    expect(ids(data)).toEqual([6, 3, 2, 0, 4, 5, 1, 7, 8, 9, 10, 11, 12]);
    // A stable sort would give [6, 0, 1, 2, ...]; Go's does not.
    expect(calls).toEqual([
      // choosePivot: median(3, 6, 9)
      [6, 3],
      [9, 3],
      [3, 6],
      // partition around id 3 (moved to position 0)
      [1, 3],
      [12, 3],
      [11, 3],
      [10, 3],
      [9, 3],
      [8, 3],
      [7, 3],
      [6, 3],
      [2, 3],
      [5, 3],
      [4, 3],
      [0, 3],
      [2, 3],
      // insertionSort(2, 13) over [2, 0, 4, 5, 1, 7, 8, 9, 10, 11, 12]
      [0, 2],
      [4, 0],
      [5, 4],
      [1, 5],
      [7, 1],
      [8, 7],
      [9, 8],
      [10, 9],
      [11, 10],
      [12, 11],
    ]);
  });

  test("McIlroy's quicksort adversary (as in Go's TestAdversary) still gets sorted", () => {
    // Values start as "gas" and freeze to increasing solids as they are compared; this drives
    // pdqsort through breakPatterns and into its heapsort fallback.
    for (let n = 13; n <= 200; n++) {
      const gas = n;
      const val = new Array<number>(n).fill(gas);
      let nsolid = 0;
      let candidate = 0;
      const less = (x: number, y: number) => {
        if (val[x] === gas && val[y] === gas) {
          if (x === candidate) val[x] = nsolid++;
          else val[y] = nsolid++;
        }
        if (val[x] === gas) candidate = x;
        else if (val[y] === gas) candidate = y;
        return val[x] < val[y];
      };
      const data = Array.from({ length: n }, (_, i) => i);
      goSort(data, less);
      expect(isSorted(data.map((i) => val[i])), `n ${n}`).toBe(true);
    }
  });

  test('an already sorted run with ties is left untouched (partialInsertionSort)', () => {
    const data = rows(patterned(3, 120, 1).map(() => 0));
    goSort(data, byKey);
    expect(ids(data)).toEqual(data.map((_, i) => i));
  });
});

describe("goStringLess (Go's < on strings)", () => {
  test('byte order: no natural order of numbers, upper case before lower case', () => {
    expect(goStringLess('web-10', 'web-2')).toBe(true);
    expect(goStringLess('B', 'a')).toBe(true);
    expect(goStringLess('ab', 'abc')).toBe(true);
    expect(goStringLess('abc', 'abc')).toBe(false);
  });

  test('compares UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF5E is one UTF-16 unit above the surrogates of U+1F600, but its UTF-8 (EF ...) is below F0.
    expect(goStringLess('\uff5e', '\u{1f600}')).toBe(true);
    expect(goStringLess('\u{1f600}', '\uff5e')).toBe(false);
  });

  test('agrees with comparing the UTF-8 encodings', () => {
    const enc = new TextEncoder();
    const bytesLess = (a: string, b: string) =>
      Buffer.compare(Buffer.from(enc.encode(a)), Buffer.from(enc.encode(b))) < 0;
    const str = fc.string({
      unit: fc.constantFrom('a', 'B', '-', '0', '9', 'é', '\uff5e', '\u{1f600}', '\ue000'),
      maxLength: 6,
    });
    fc.assert(
      fc.property(str, str, (x, y) => {
        expect(goStringLess(x, y)).toBe(bytesLess(x, y));
      }),
      { numRuns: runs(1) },
    );
  });
});
