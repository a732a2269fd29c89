// A request-log record as one line of text: `sim log`'s (kubectl/sim-commands.ts) and the tests'. Apart
// from request-log.ts so that it travels in kubectl's lazy chunk, not the worker's core.
import type { RequestRecord } from '../request-log.ts';

/** Seconds with ms, as the CLI prints times: `12.004s`. */
function formatSeconds(ms: number): string {
  return (ms / 1000).toFixed(3) + 's';
}

/** One line of text, e.g. `12.004s  scheduler  POST /api/v1/namespaces/default/pods/web-x/binding  201  rv=48`. */
export function formatRecord(r: RequestRecord): string {
  const parts = [formatSeconds(r.t), r.component];
  if (r.kind === 'watch') parts.push(`watch ${r.event ?? ''} ${r.object ?? r.path}`.trimEnd());
  else if (r.kind === 'cri') parts.push(`cri ${r.verb}${r.object ? ' ' + r.object : ''}`);
  else parts.push(`${r.verb} ${r.path}`);
  if (r.kind !== 'watch' && r.kind !== 'cri') parts.push(String(r.code));
  if (r.revision !== undefined) parts.push(`rv=${r.revision}`);
  if (r.stage) parts.push(`[${r.stage}]`);
  if (r.watcher && r.kind === 'watch') parts.push(`(${r.watcher})`);
  return parts.join('  ');
}
