// client-go's util/flowcontrol token bucket (NewTokenBucketRateLimiter over golang.org/x/time/rate)
// on the simulated clock, as plain data: every client a component builds has one, and a request
// takes a token before it is sent.
//   staging/src/k8s.io/client-go/util/flowcontrol/throttle.go, rest/config.go (DefaultQPS/Burst)

/** A client's QPS and burst (rest.Config.QPS / Burst). */
export interface RateLimit {
  qps: number;
  burst: number;
}

/** The bucket's state: tokens left (fractional; negative after reservations) and when they were counted (ms). */
export interface TokenBucket {
  tokens: number;
  last: number;
}

/** rest.DefaultQPS / DefaultBurst: a client whose config leaves QPS and Burst at 0 (kubectl's main client). */
export const DEFAULT_CLIENT_LIMIT: RateLimit = { qps: 5, burst: 10 };
/**
 * kube-controller-manager's --kube-api-qps/--kube-api-burst defaults (pkg/controller/apis/config/
 * v1alpha1/defaults.go); each controller builds its own client (ClientBuilder), so each has a bucket.
 */
export const KUBE_CONTROLLER_MANAGER_CLIENT: RateLimit = { qps: 20, burst: 30 };
/** kube-scheduler's clientConnection defaults (pkg/scheduler/apis/config/v1/defaults.go); its events use a client of their own. */
export const KUBE_SCHEDULER_CLIENT: RateLimit = { qps: 50, burst: 100 };
/**
 * The kubelet's kubeAPIQPS/kubeAPIBurst defaults (pkg/kubelet/apis/config/v1beta1/defaults.go): its
 * pod status and deletes. Node status and the Lease go through its heartbeat client (QPS -1: no limit).
 */
export const KUBELET_CLIENT: RateLimit = { qps: 50, burst: 100 };

/** NewTokenBucketRateLimiter: the bucket starts full ("initially filled with 'burst' tokens"). */
export function newTokenBucket(limit: RateLimit, now: number): TokenBucket {
  return { tokens: limit.burst, last: now };
}

// rate.Limiter.advance: tokens after the time since `last`, capped at the burst (not stored).
function advance(b: TokenBucket, limit: RateLimit, now: number): number {
  const elapsed = Math.max(0, now - b.last);
  // elapsed·qps before dividing, so whole-ms intervals give whole tokens exactly (50 ms at 20 QPS is 1).
  return Math.min(limit.burst, b.tokens + (elapsed * limit.qps) / 1000);
}

/** TryAccept (rate.Limiter.AllowN(now, 1)): take a token if one is there now. */
export function tryAccept(b: TokenBucket, limit: RateLimit, now: number): boolean {
  const tokens = advance(b, limit, now);
  if (tokens < 1) return false;
  b.tokens = tokens - 1;
  b.last = now;
  return true;
}

/**
 * Wait / Accept (rate.Limiter.ReserveN(now, 1)): take a token now, going into debt when there is
 * none, and return how long the request must wait for it (ms, rounded up; 0 when it was there).
 */
export function reserve(b: TokenBucket, limit: RateLimit, now: number): number {
  const tokens = advance(b, limit, now) - 1;
  b.tokens = tokens;
  b.last = now;
  return tokens < 0 ? Math.ceil((-tokens * 1000) / limit.qps) : 0;
}

/** The wait before a token is there (0 when one is there now); takes nothing. */
export function tokenDelay(b: TokenBucket, limit: RateLimit, now: number): number {
  const tokens = advance(b, limit, now);
  return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / limit.qps);
}

/** rest/request.go extraLongThrottleLatency: a longer wait is logged at -v=0 too, once per 10 s at most. */
export const EXTRA_LONG_THROTTLE_LATENCY_MS = 1000;
