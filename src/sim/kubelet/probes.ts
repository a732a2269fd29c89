// The kubelet's prober worker (pkg/kubelet/prober/worker.go doProbe) over simulated time.
// One worker per container and probe type; it ticks every periodSeconds starting when the
// container starts (the real worker starts with the pod; the first tick is immediate).
import type { Probe } from 'kubernetes-types/core/v1';
import type { KubeletEvent } from './backoff.ts';

/** probe type as the kubelet names it in events */
export type ProbeType = 'liveness' | 'readiness' | 'startup';
/** results.Result */
type ProbeResult = 'Success' | 'Failure' | 'Unknown';

/** The numeric fields of a probe after SetDefaults_Probe. */
export interface ProbeTiming {
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds: number;
  successThreshold: number;
  failureThreshold: number;
}

/** SetDefaults_Probe: period 10, timeout 1, success 1, failure 3, initial delay 0. */
export function withProbeDefaults(p: Probe | undefined): ProbeTiming {
  return {
    initialDelaySeconds: p?.initialDelaySeconds ?? 0,
    periodSeconds: p?.periodSeconds || 10,
    timeoutSeconds: p?.timeoutSeconds || 1,
    successThreshold: p?.successThreshold || 1,
    failureThreshold: p?.failureThreshold || 3,
  };
}

/** A worker's plain-data state. */
export interface ProbeWorker {
  probeType: ProbeType;
  containerId: string;
  containerStartedAt: number;
  /** the raw result of the last probe run and how many in a row */
  lastResult: ProbeResult;
  resultRun: number;
  /** the result published to the results manager (what readiness/liveness act on) */
  published: ProbeResult;
  /** after a liveness/startup failure the worker waits for a new container */
  onHold: boolean;
  nextTickAt: number;
}

/** The value the results manager holds before any probe: readiness starts failed, liveness passing. */
function initialProbeValue(t: ProbeType): ProbeResult {
  if (t === 'readiness') return 'Failure';
  if (t === 'liveness') return 'Success';
  return 'Unknown';
}

/** A new worker for a container that started at startedAt; its first tick is at once. */
export function newProbeWorker(probeType: ProbeType, containerId: string, startedAt: number): ProbeWorker {
  return {
    probeType,
    containerId,
    containerStartedAt: startedAt,
    lastResult: 'Unknown',
    resultRun: 0,
    published: initialProbeValue(probeType),
    onHold: false,
    nextTickAt: startedAt,
  };
}

/** When the first probe actually runs: the first tick at or after initialDelaySeconds. */
export function firstProbeAt(startedAt: number, spec: ProbeTiming): number {
  const p = spec.periodSeconds * 1000;
  return startedAt + Math.ceil((spec.initialDelaySeconds * 1000) / p) * p;
}

/** What the simulated container answers: ok, or the failure output the prober reports. */
interface ProbeOutcome {
  ok: boolean;
  output?: string;
}

/** The prober's output for an HTTP status ≥ 400. */
export function httpProbeFailureOutput(statusCode: number): string {
  return `HTTP probe failed with statuscode: ${statusCode}`;
}

/** The prober's output when the app does not answer within timeoutSeconds. */
export function httpProbeTimeoutOutput(url: string): string {
  return `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
}

/** What one tick did. kill is set when the kubelet must kill and restart the container. */
interface ProbeTickResult {
  worker: ProbeWorker;
  ran: boolean;
  /** published result changed on this tick */
  changed: boolean;
  events: KubeletEvent[];
  kill?: { message: string; event: KubeletEvent };
}

const label: Record<ProbeType, string> = { liveness: 'Liveness', readiness: 'Readiness', startup: 'Startup' };

/**
 * doProbe at a tick: skip inside initialDelay, before the container is started (liveness/readiness)
 * or after it is (startup); otherwise probe, count the run and publish at the threshold.
 */
export function doProbe(
  w: ProbeWorker,
  spec: ProbeTiming,
  now: number,
  ctx: { containerName: string; started: boolean; outcome: ProbeOutcome },
): ProbeTickResult {
  const next = { ...w, nextTickAt: now + spec.periodSeconds * 1000 };
  const skip = (): ProbeTickResult => ({ worker: next, ran: false, changed: false, events: [] });
  if (w.onHold) return skip();
  if (Math.trunc((now - w.containerStartedAt) / 1000) < spec.initialDelaySeconds) return skip();
  if (ctx.started ? w.probeType === 'startup' : w.probeType !== 'startup') return skip();

  const result: ProbeResult = ctx.outcome.ok ? 'Success' : 'Failure';
  const events: KubeletEvent[] = [];
  if (!ctx.outcome.ok) {
    // prober.probe records an Unhealthy event on every failed run, before thresholds apply.
    events.push({
      type: 'Warning',
      reason: 'Unhealthy',
      message: `${label[w.probeType]} probe failed: ${ctx.outcome.output ?? ''}`,
    });
  }
  if (next.lastResult === result) next.resultRun++;
  else {
    next.lastResult = result;
    next.resultRun = 1;
  }
  if (
    (result === 'Failure' && next.resultRun < spec.failureThreshold) ||
    (result === 'Success' && next.resultRun < spec.successThreshold)
  ) {
    return { worker: next, ran: true, changed: false, events };
  }
  const changed = next.published !== result;
  next.published = result;
  let kill: ProbeTickResult['kill'];
  // Liveness failure: the container will be restarted. Startup: done either way (#117153).
  // Both wait quietly until a new container ID shows up.
  if ((w.probeType === 'liveness' && result === 'Failure') || w.probeType === 'startup') {
    next.onHold = true;
    next.resultRun = 0;
  }
  if ((w.probeType === 'liveness' || w.probeType === 'startup') && result === 'Failure') {
    const message = `Container ${ctx.containerName} failed ${w.probeType} probe, will be restarted`;
    kill = { message, event: { type: 'Normal', reason: 'Killing', message } };
  }
  return { worker: next, ran: true, changed, events, kill };
}

/** The worker sees a new container ID (restart): fresh counters, initial value, off hold. */
export function resetForNewContainer(w: ProbeWorker, containerId: string, startedAt: number): ProbeWorker {
  return newProbeWorker(w.probeType, containerId, startedAt);
}
