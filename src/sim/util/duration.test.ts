import { describe, it, expect } from 'vitest';
import { goDuration, humanDuration, shortHumanDuration, translateTimestampSince } from './duration.ts';
import { parseDurationMs } from './parse-duration.ts';
import { rfc3339 } from './time.ts';

const s = 1000,
  m = 60 * s,
  h = 60 * m,
  d = 24 * h,
  y = 365 * d;

// Tables from k8s.io/apimachinery/pkg/util/duration/duration_test.go (ns → ms; "−2s+1ns" becomes −1999 ms).
describe('HumanDuration', () => {
  it.each([
    [s, '1s'],
    [70 * s, '70s'],
    [190 * s, '3m10s'],
    [70 * m, '70m'],
    [47 * h, '47h'],
    [49 * h, '2d1h'],
    [(8 * 24 + 2) * h, '8d'],
    [367 * 24 * h, '367d'],
    [(365 * 2 * 24 + 25) * h, '2y1d'],
    [(365 * 8 * 24 + 2) * h, '8y'],
  ])('TestHumanDuration %d ms → %s', (ms, want) => expect(humanDuration(ms)).toBe(want));

  it.each([
    [-2 * s, '<invalid>'],
    [-1999, '0s'],
    [0, '0s'],
    [s - 1, '0s'],
    [2 * m - 1, '119s'],
    [2 * m, '2m'],
    [2 * m + s, '2m1s'],
    [10 * m - 1, '9m59s'],
    [10 * m, '10m'],
    [10 * m + s, '10m'],
    [3 * h - 1, '179m'],
    [3 * h, '3h'],
    [3 * h + m, '3h1m'],
    [8 * h - 1, '7h59m'],
    [8 * h, '8h'],
    [8 * h + 59 * m, '8h'],
    [2 * d - 1, '47h'],
    [2 * d, '2d'],
    [2 * d + h, '2d1h'],
    [8 * d - 1, '7d23h'],
    [8 * d, '8d'],
    [8 * d + 23 * h, '8d'],
    [2 * y - 1, '729d'],
    [2 * y, '2y'],
    [2 * y + 23 * h, '2y'],
    [2 * y + 23 * h + 59 * m, '2y'],
    [2 * y + 24 * h - 1, '2y'],
    [2 * y + 24 * h, '2y1d'],
    [3 * y, '3y'],
    [4 * y, '4y'],
    [5 * y, '5y'],
    [6 * y, '6y'],
    [7 * y, '7y'],
    [8 * y - 1, '7y364d'],
    [8 * y, '8y'],
    [8 * y + 364 * d, '8y'],
    [9 * y, '9y'],
  ])('TestHumanDurationBoundaries %d ms → %s', (ms, want) => expect(humanDuration(ms)).toBe(want));

  it('reads the brief examples', () => {
    expect([5 * s, 150 * s, 10 * m, 3 * h + 5 * m, 2 * d].map(humanDuration)).toEqual([
      '5s',
      '2m30s',
      '10m',
      '3h5m',
      '2d',
    ]);
  });
});

describe('ShortHumanDuration', () => {
  it.each([
    [-2 * s, '<invalid>'],
    [-1999, '0s'],
    [0, '0s'],
    [s - 1, '0s'],
    [s, '1s'],
    [2 * s - 1, '1s'],
    [m - 1, '59s'],
    [m, '1m'],
    [2 * m - 1, '1m'],
    [h - 1, '59m'],
    [h, '1h'],
    [2 * h - 1, '1h'],
    [d - 1, '23h'],
    [d, '1d'],
    [2 * d - 1, '1d'],
    [y - 1, '364d'],
    [y, '1y'],
    [2 * y - 1, '1y'],
    [2 * y, '2y'],
  ])('TestShortHumanDurationBoundaries %d ms → %s', (ms, want) => expect(shortHumanDuration(ms)).toBe(want));
});

describe('Go durations', () => {
  it('prints as time.Duration.String', () => {
    expect([0, 500, 10_000, 80_000, 300_000, 3_600_000, 1500].map(goDuration)).toEqual([
      '0s',
      '500ms',
      '10s',
      '1m20s',
      '5m0s',
      '1h0m0s',
      '1.5s',
    ]);
  });
  it('reads as time.ParseDuration', () => {
    expect(parseDurationMs('500ms')).toBe(500);
    expect(parseDurationMs('30s')).toBe(30_000);
    expect(parseDurationMs('5m')).toBe(300_000);
    expect(parseDurationMs('1h2m')).toBe(3_720_000);
    expect(parseDurationMs('1.5s')).toBe(1500);
    expect(parseDurationMs('5x')).toBeUndefined();
    expect(parseDurationMs('')).toBeUndefined();
  });
});

describe('translateTimestampSince', () => {
  it('is <unknown> for a missing timestamp', () => expect(translateTimestampSince(undefined, 0)).toBe('<unknown>'));
  it('ages from creationTimestamp', () => expect(translateTimestampSince(rfc3339(0), 150 * s)).toBe('2m30s'));
});
