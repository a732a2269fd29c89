// Simulated-time helpers shared by the components and kubectl: metav1.Time/MicroTime text, parsing, Go durations.
import { EPOCH_MS, flatten } from './names.ts';
import { parsed } from './time-cache.ts';
import { lastCall } from './memo.ts';

/** metav1.Time: RFC 3339 with second precision (one implementation, in names.ts). */
export { rfc3339 } from './names.ts';

/** metav1.MicroTime (Lease renewTime): RFC 3339 with microseconds. */
export function rfc3339Micro(ms: number): string {
  // …T00:00:10.123000Z: the date and the time up to the minute are formatted once per minute (the
  // leases of a small cluster renew in different seconds), the seconds and milliseconds written here.
  const whole = Math.floor(ms);
  const second = Math.floor(whole / 1000);
  const minute = Math.floor(second / 60);
  const sec = second - minute * 60;
  const milli = whole - second * 1000;
  return flatten(
    minutePrefix(minute) +
      (sec < 10 ? '0' : '') +
      sec +
      (milli < 10 ? '.00' : milli < 100 ? '.0' : '.') +
      milli +
      '000Z',
  );
}
const minutePrefix = lastCall((minute: number): string =>
  new Date(EPOCH_MS + minute * 60_000).toISOString().slice(0, 17),
); // …T00:00:

/**
 * Simulated milliseconds of an RFC 3339 timestamp (undefined stays undefined): to the millisecond, as
 * Date.parse reads it; with `micro`, to the microsecond, as a metav1.MicroTime (a Lease's acquire and
 * renew times) round-trips through microTime.
 */
export function parseTime(s: string | undefined | null, micro = false): number | undefined {
  if (!s) return undefined;
  if (micro) {
    const fraction = /\.(\d+)Z$/.exec(s);
    if (fraction) return parseTime(s.replace(/\.\d+Z$/, 'Z'))! + Number('0.' + fraction[1]) * 1000;
  }
  let t = parsed.get(s);
  if (t === undefined) {
    // Date.parse is slow and the same few timestamps are read on every pass: memoise (bounded).
    if (parsed.size >= 4096) parsed.clear();
    t = parseOwnFormat(s) ?? Date.parse(s) - EPOCH_MS;
    parsed.set(s, t);
  }
  return t;
}

// Digits of `s` from i to j (exclusive) as a number, or -1 when one is not a digit.
function digits(s: string, i: number, j: number): number {
  let n = 0;
  for (; i < j; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * The two shapes the core writes, `2026-01-01T00:00:10Z` and `…10.123000Z`, read without Date.parse
 * (a new renewTime every lease renewal); anything else, or a day past 28 (where Date.parse has its
 * own rules for impossible dates), is left to Date.parse (undefined here). Same value as Date.parse:
 * the fraction's first three digits are the milliseconds.
 */
function parseOwnFormat(s: string): number | undefined {
  const n = s.length;
  if (
    (n !== 20 && n !== 27) ||
    s[4] !== '-' ||
    s[7] !== '-' ||
    s[10] !== 'T' ||
    s[13] !== ':' ||
    s[16] !== ':' ||
    s[n - 1] !== 'Z'
  )
    return undefined;
  if (n === 27 && s[19] !== '.') return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 7);
  const day = digits(s, 8, 10);
  const hour = digits(s, 11, 13);
  const minute = digits(s, 14, 16);
  const second = digits(s, 17, 19);
  const milli = n === 27 ? digits(s, 20, 23) : 0;
  if (n === 27 && digits(s, 23, 26) < 0) return undefined;
  if (
    year < 1970 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 28 ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59 ||
    milli < 0
  )
    return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, milli) - EPOCH_MS;
}
