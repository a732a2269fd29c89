// Main-thread helpers of the rollout figure: reading the reader's bound inputs as the API takes them,
// and laying the chart out. No Kubernetes arithmetic and no memory here: the resolved bounds and the
// chart's series arrive in the figure's detail for the step shown, computed in the worker.
import type { IntOrPercent, RolloutPoint, RolloutSeries } from '../../sim/index.ts';

/** "2" is the integer 2; anything else ("25%", "abc") goes as a string, for the API server to accept or refuse. */
export function intOrPercent(text: string): IntOrPercent {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : t;
}

/** The chart's geometry: SVG path data for pods, ready pods and the two bounds, each a step function over time, broken where there was no Deployment. */
export function chartOf(
  series: RolloutSeries,
  width: number,
  height: number,
  pad = 24,
): { total: string; ready: string; atMost: string; atLeast: string; yMax: number; y: (v: number) => number } {
  const points = series.segments.flatMap((s) => s.points);
  const yMax = Math.max(1, ...points.map((p) => Math.max(p.atMost, p.total))) + 1;
  const t0 = points[0]?.t ?? series.from;
  const t1 = Math.max(t0 + 1, series.to);
  const x = (t: number): string =>
    (pad + ((Math.min(Math.max(t, t0), t1) - t0) / (t1 - t0)) * (width - pad - 4)).toFixed(1);
  const y = (v: number): number => height - pad + 4 - (v / yMax) * (height - pad - 4);
  const line = (pick: (p: RolloutPoint) => number): string =>
    series.segments
      .map((seg) => {
        const parts = seg.points.map((p, i) => {
          const at = `${x(p.t)},${y(pick(p)).toFixed(1)}`;
          return i === 0 ? `M${at}` : `L${x(p.t)},${y(pick(seg.points[i - 1])).toFixed(1)} L${at}`;
        });
        const last = seg.points[seg.points.length - 1];
        parts.push(`L${x(seg.until)},${y(pick(last)).toFixed(1)}`);
        return parts.join(' ');
      })
      .join(' ');
  return {
    total: line((p) => p.total),
    ready: line((p) => p.ready),
    atMost: line((p) => p.atMost),
    atLeast: line((p) => p.atLeast),
    yMax,
    y,
  };
}
