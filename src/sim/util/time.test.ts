import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EPOCH_MS, microTime } from './names.ts';
import { parseTime, rfc3339, rfc3339Micro } from './time.ts';
import { runs } from '../../test/fc.ts';

// What the formatters and the parser must agree with: the platform's own ISO handling.
const isoMicro = (ms: number) => new Date(EPOCH_MS + Math.floor(ms)).toISOString().replace('Z', '000Z');
const dateParse = (s: string) => Date.parse(s) - EPOCH_MS;

describe('simulated time formats', () => {
  it('rfc3339Micro writes metav1.MicroTime as toISOString does, across second and minute boundaries', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 4e11, noNaN: true }), (ms) => rfc3339Micro(ms) === isoMicro(ms)),
      { numRuns: runs(2) },
    );
    expect(rfc3339Micro(59_999)).toBe('2026-01-01T00:00:59.999000Z');
    expect(rfc3339Micro(60_000)).toBe('2026-01-01T00:01:00.000000Z');
    expect(rfc3339Micro(3_600_005.7)).toBe('2026-01-01T01:00:00.005000Z');
  });

  it('parseTime reads both of the core’s shapes exactly as Date.parse does', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 4e11, noNaN: true }), (ms) => {
        return (
          parseTime(rfc3339Micro(ms)) === dateParse(rfc3339Micro(ms)) &&
          parseTime(rfc3339(ms)) === dateParse(rfc3339(ms))
        );
      }),
      { numRuns: runs(2) },
    );
  });

  it('parseTime leaves every other shape, and impossible dates, to Date.parse', () => {
    for (const s of [
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:00:60Z',
      '2026-01-01T00:00:00.999999Z',
      '2026-01-01T00:00:00.1234567Z',
      '2026-01-01 00:00:00Z',
      '2026-01-01T00:00:00.12a000Z',
      '2026-01-01T00:00:00+02:00',
      'yesterday',
    ]) {
      expect(parseTime(s)).toEqual(dateParse(s));
    }
    expect(parseTime(undefined)).toBeUndefined();
  });

  it('parseTime with micro keeps a MicroTime to the microsecond, what microTime wrote', () => {
    expect(parseTime('2026-01-01T00:01:00Z', true)).toBe(60_000);
    expect(parseTime(microTime(12_004), true)).toBe(12_004);
    expect(parseTime(microTime(1_234.5), true)).toBe(1_234.5);
    expect(parseTime(microTime(1_234.5))).toBe(1_234);
  });
});
