// The rate limit of a kubectl command's clientset (f.KubernetesClientSet(): rest.Config's QPS 5,
// burst 10, one bucket for all its requests), and client-go's log line when a request waited long.
// Commands that go through the resource builder get a new client, so a new bucket, per object
// (cli-runtime's mapper calls clientFn for each Info): those never wait. drain's clientset does.
import type { ApiRequest, ApiResult } from '../api/request.ts';
import { resourcePath } from '../api/resources.ts';
import {
  DEFAULT_CLIENT_LIMIT,
  EXTRA_LONG_THROTTLE_LATENCY_MS,
  newTokenBucket,
  reserve,
  type TokenBucket,
} from '../client-go/flowcontrol.ts';
import { EPOCH_MS } from '../util/names.ts';
import { goDuration } from '../util/duration.ts';
import type { Run } from './cmd/util.ts';

/** rest/request.go's throttledLogger at -v=0: one line per 10 s at most (per process). */
const THROTTLE_LOG_INTERVAL_MS = 10_000;
/** The process id in kubectl's klog headers (any number: a real one differs on every run). */
const KUBECTL_PID = 4242;

/** One command's clientset: its token bucket and when it last logged a wait. */
interface Clientset {
  bucket: TokenBucket;
  lastLogged?: number;
}

/** The command's clientset, made at its first request (the bucket starts full). */
export function newClientset(r: Run): Clientset {
  return { bucket: newTokenBucket(DEFAULT_CLIENT_LIMIT, r.now) };
}

/** A goroutine entering the limiter's Wait now: the time its request may go (ms on the cluster's clock). */
export function reserveAt(r: Run, c: Clientset): number {
  return r.now + reserve(c.bucket, DEFAULT_CLIENT_LIMIT, r.now);
}

/**
 * Send a request reserved at `reservedAt` to go at `at`: the cluster runs on to then, and a wait
 * over 1 s is logged on stderr as tryThrottleWithInfo logs it at the default verbosity.
 */
export function sendAt(r: Run, c: Clientset, req: ApiRequest, reservedAt: number, at: number): ApiResult<unknown> {
  if (at > r.now) r.cluster.advance(at - r.now);
  const waited = at - reservedAt;
  if (
    waited > EXTRA_LONG_THROTTLE_LATENCY_MS &&
    (c.lastLogged === undefined || r.now - c.lastLogged >= THROTTLE_LOG_INTERVAL_MS)
  ) {
    c.lastLogged = r.now;
    r.warn(throttleLogLine(r.now, waited, req));
  }
  return r.req(req);
}

const HTTP_VERB: Record<string, string> = {
  get: 'GET',
  list: 'GET',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
};

/** klog's text line for "Waited before sending request" (header: severity, date, time, pid, file:line). */
export function throttleLogLine(now: number, waitedMs: number, req: ApiRequest): string {
  const d = new Date(EPOCH_MS + now);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const head = `I${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${String(d.getUTCMilliseconds() * 1000).padStart(6, '0')} ${String(KUBECTL_PID).padStart(7)} request.go:754]`;
  const url = `https://127.0.0.1:6443${resourcePath(req.resource, req.namespace, req.name, req.subresource)}`;
  return `${head} "Waited before sending request" delay="${goDuration(waitedMs)}" reason="client-side throttling, not priority and fairness" verb="${HTTP_VERB[req.verb] ?? req.verb.toUpperCase()}" URL="${url}"\n`;
}
