// Go's time.ParseDuration for the flags kubectl and `sim` read (--timeout=30s, --since=1h): apart
// from duration.ts so that it travels in kubectl's lazy chunk, not the worker's core.

/** Go's time.ParseDuration for what a reader types (`500ms`, `30s`, `5m`, `1h2m`, `1.5s`), in ms; undefined when malformed. */
export function parseDurationMs(s: string): number | undefined {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    const n = parseFloat(m[1]);
    total += n * (m[2] === 'h' ? 3_600_000 : m[2] === 'm' ? 60_000 : m[2] === 's' ? 1000 : 1);
    matched = re.lastIndex;
  }
  if (!s || matched !== s.length) return undefined;
  return Math.round(total);
}
