// Main-thread helpers of the rollout figure: reading the reader's bound inputs as the API takes them,
// keeping the chart's samples per step, and laying the chart out. No Kubernetes arithmetic here:
// the resolved bounds arrive in the figure's detail, computed by the Deployment controller's code.
import type { IntOrPercent, RolloutDetail } from '../../sim/index.ts';

/** "2" is the integer 2; anything else ("25%", "abc") goes as a string, for the API server to accept or refuse. */
export function intOrPercent(text: string): IntOrPercent {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : t;
}

/** One point of the chart: the pods at one step, and the two bounds then. */
export interface Sample {
  step: number;
  t: number;
  total: number;
  ready: number;
  atMost: number;
  atLeast: number;
}

/** The samples up to `step` with the one at `step` set: stepping back drops the future, stepping on re-adds it. */
export function addSample(samples: Sample[], step: number, t: number, d: RolloutDetail): Sample[] {
  const kept = samples.filter((s) => s.step < step);
  if (!d.deployment) return kept;
  kept.push({ step, t, total: d.pods.total, ready: d.pods.ready, atMost: d.deployment.atMost, atLeast: d.deployment.atLeastReady });
  return kept.length > 400 ? kept.slice(kept.length - 400) : kept;
}

/** The chart's geometry: polylines for pods, ready pods and the two bounds (as step functions over time). */
export function chartOf(samples: Sample[], width: number, height: number, pad = 24): { total: string; ready: string; atMost: string; atLeast: string; yMax: number; y: (v: number) => number } {
  const yMax = Math.max(1, ...samples.map((s) => Math.max(s.atMost, s.total))) + 1;
  const t0 = samples[0]?.t ?? 0;
  const t1 = Math.max(t0 + 1, samples[samples.length - 1]?.t ?? 1);
  const x = (t: number): number => pad + ((t - t0) / (t1 - t0)) * (width - pad - 4);
  const y = (v: number): number => height - pad + 4 - (v / yMax) * (height - pad - 4);
  const line = (pick: (s: Sample) => number): string => {
    const pts: string[] = [];
    samples.forEach((s, i) => {
      if (i > 0) pts.push(`${x(s.t).toFixed(1)},${y(pick(samples[i - 1])).toFixed(1)}`);
      pts.push(`${x(s.t).toFixed(1)},${y(pick(s)).toFixed(1)}`);
    });
    return pts.join(' ');
  };
  return { total: line((s) => s.total), ready: line((s) => s.ready), atMost: line((s) => s.atMost), atLeast: line((s) => s.atLeast), yMax, y };
}
