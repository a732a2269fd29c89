// Simulated-time helpers shared by the kubelet and node-lifecycle models.
import { EPOCH_MS, flatten } from '../names.ts';

/** Simulated time 0 is this instant; every `now` in the core is milliseconds since it. */
export const SIM_EPOCH_ISO = '2026-01-01T00:00:00Z';

/** metav1.Time: RFC 3339 with second precision (one implementation, in names.ts). */
export { rfc3339 } from '../names.ts';

/** metav1.MicroTime (Lease renewTime): RFC 3339 with microseconds. */
export function rfc3339Micro(ms: number): string {
  // …T00:00:10.123000Z: the date and time up to the second are formatted once per second (every
  // node renews its lease within a few seconds of the others), the milliseconds written here.
  const whole = Math.floor(ms);
  const second = Math.floor(whole / 1000);
  if (second !== microSecond) {
    microSecond = second;
    microPrefix = new Date(EPOCH_MS + second * 1000).toISOString().slice(0, 20); // …T00:00:10.
  }
  const milli = whole - second * 1000;
  return flatten(microPrefix + (milli < 10 ? '00' : milli < 100 ? '0' : '') + milli + '000Z');
}
let microSecond = NaN;
let microPrefix = '';

/** Simulated milliseconds of an RFC 3339 timestamp (undefined stays undefined). */
export function parseTime(s: string | undefined | null): number | undefined {
  if (!s) return undefined;
  let t = parsed.get(s);
  if (t === undefined) {
    // Date.parse is slow and the same few timestamps are read on every pass: memoise (bounded).
    if (parsed.size >= 4096) parsed.clear();
    t = Date.parse(s) - EPOCH_MS;
    parsed.set(s, t);
  }
  return t;
}
const parsed = new Map<string, number>();

/** Go's time.Duration.String() for a non-negative duration in ms ("10s", "1m20s", "5m0s", "500ms"). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const totalSec = ms / 1000;
  const h = Math.floor(totalSec / 3600);
  const m = Math.floor((totalSec - h * 3600) / 60);
  const s = +(totalSec - h * 3600 - m * 60).toFixed(3);
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
