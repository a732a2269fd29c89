// Text the kit's components show for a frame or a record: pure functions, so the server render,
// the island and the tests word a moment the same way.
import type { Endpoint, StepRecord } from '../../sim/view/types.ts';

/** The control-plane endpoints, in the order the canvas draws them. */
export const CONTROL_PLANE: readonly Endpoint[] = ['kube-apiserver', 'etcd', 'scheduler', 'kube-controller-manager'];

/** Seconds with ms, as the CLI prints times: `12.004s`. */
export function formatSeconds(ms: number): string {
  return (ms / 1000).toFixed(3) + 's';
}

/** Elapsed simulated time as a clock, `m:ss.s` (floored to the tenth, so it never shows 60.0 s). */
export function formatClock(elapsedMs: number): string {
  const tenths = Math.floor(Math.max(0, elapsedMs) / 100);
  const m = Math.floor(tenths / 600);
  const s = (tenths % 600) / 10;
  return `${m}:${s < 10 ? '0' : ''}${s.toFixed(1)}`;
}

/** The clock read aloud: "1 minute 12.4 seconds" (the same flooring as formatClock). */
export function spokenClock(elapsedMs: number): string {
  const tenths = Math.floor(Math.max(0, elapsedMs) / 100);
  const m = Math.floor(tenths / 600);
  const s10 = tenths % 600;
  const s = s10 % 10 === 0 ? String(s10 / 10) : (s10 / 10).toFixed(1);
  const secs = `${s} ${s === '1' ? 'second' : 'seconds'}`;
  if (m === 0) return secs;
  return `${m} ${m === 1 ? 'minute' : 'minutes'} ${secs}`;
}

/** A Lease's age as the node card says it: "lease 3s ago", "lease 1m 5s ago", "no lease yet". */
export function leaseAge(ms: number | null): string {
  if (ms === null) return 'no lease yet';
  const total = Math.floor(Math.max(0, ms) / 1000);
  if (total < 60) return `lease ${total}s ago`;
  return `lease ${Math.floor(total / 60)}m ${total % 60}s ago`;
}

/** A taint key without the `node.kubernetes.io/` prefix every built-in taint carries. */
export function shortTaintKey(key: string): string {
  return key.startsWith('node.kubernetes.io/') ? key.slice('node.kubernetes.io/'.length) : key;
}

/** The word and symbol for each record kind: the colour is never the only cue. */
export const KIND_LABEL: Record<StepRecord['kind'], string> = {
  write: 'write',
  read: 'read',
  watch: 'watch',
  cri: 'CRI',
};

const GRPC: Record<number, string> = {
  1: 'Canceled',
  2: 'Unknown',
  4: 'DeadlineExceeded',
  5: 'NotFound',
  8: 'ResourceExhausted',
  14: 'Unavailable',
};

/** The outcome worth showing beside a record, or null when it simply succeeded (HTTP 200/201, gRPC OK). */
export function outcomeText(r: Pick<StepRecord, 'kind' | 'code'>): string | null {
  if (r.kind === 'cri') return r.code === 0 ? null : (GRPC[r.code] ?? `gRPC ${r.code}`);
  if (r.code === 200 || r.code === 201) return null;
  if (r.code === 0) return 'refused';
  return String(r.code);
}

/** A path or key cut after each slash ("/registry/", "pods/", "web"): drawn with a <wbr> between, a line may break there and nowhere inside a name. */
export function slashPieces(s: string): string[] {
  return s.split(/(?<=\/)/);
}

/** A generated pod name cut to what tells it apart: "web-c68c68797-lkdzk" → "…-lkdzk" (a name of fewer than three words stays whole). */
export function shortPodName(name: string): string {
  const parts = name.split('-');
  return parts.length >= 3 ? `…-${parts[parts.length - 1]}` : name;
}
