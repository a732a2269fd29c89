import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { rolloutFigure, type RolloutDetail } from './rollout-figure.ts';
import { SERIES_MAX_POINTS, SERIES_WINDOW_MS, segmentsOf, type RolloutSeries } from './rollout-series.ts';

const compiled = compileFigure(rolloutFigure);
const ro = (v: FigureView): RolloutDetail => v.detail as unknown as RolloutDetail;

/** The series' value at time t: the last point at or before t in the stretch that holds t, or null. */
function valueAt(s: RolloutSeries, t: number): [number, number, number, number] | null {
  for (const seg of s.segments) {
    // A stretch ends where the Deployment went; the last one holds up to the present too.
    if (t < seg.points[0].t || (t >= seg.until && !(t === s.to && seg.until === s.to))) continue;
    const p = [...seg.points].reverse().find((x) => x.t <= t)!;
    return [p.total, p.ready, p.atMost, p.atLeast];
  }
  return null;
}

/** What the figure shows at its cursor, as one sample (the detail's own counts and bounds). */
function sampleOf(v: FigureView): [number, number, number, number] | null {
  const d = ro(v);
  return d.deployment ? [d.pods.total, d.pods.ready, d.deployment.atMost, d.deployment.atLeastReady] : null;
}

describe('the rollout figure’s chart series', () => {
  // Every step of the story, one at a time (by the slider: Step forward goes over start-up lists at once): the truth the series must reproduce.
  const host = new FigureHost(rolloutFigure, compiled.story);
  const truth: { step: number; t: number; sample: ReturnType<typeof sampleOf> }[] = [];
  for (let v = host.view(); ; v = host.handle({ op: 'seek', step: v.step + 1 })!) {
    truth.push({ step: v.step, t: v.t, sample: sampleOf(v) });
    if (v.step >= compiled.story.end) break;
  }

  /** Checks the series at `step` against every stepped sample inside its window (the last step of each ms). */
  function expectExactAt(series: RolloutSeries, step: number): void {
    const now = truth[step].t;
    expect(series.to).toBe(now);
    let checked = 0;
    for (let i = 0; i <= step; i++) {
      const x = truth[i];
      if (x.t < series.from || (i < step && truth[i + 1].t === x.t)) continue;
      expect(valueAt(series, x.t), `step ${i} at ${x.t} ms, seen from step ${step}`).toEqual(x.sample);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  }

  it('is, at every beat, exactly the samples of every step before it within its window, its last the detail’s own counts', () => {
    const h = new FigureHost(rolloutFigure, compiled.story);
    for (const b of compiled.story.beats) {
      const v = h.handle({ op: 'seek', step: b.step });
      const s = ro(v).series;
      expectExactAt(s, b.step);
      const last = s.segments.at(-1)?.points.at(-1);
      if (sampleOf(v)) expect(last && [last.total, last.ready, last.atMost, last.atLeast]).toEqual(sampleOf(v));
    }
  });

  it('shows the surge: during the update the pods exceed replicas but never the "at most" bound, and ready never drops below "at least"', () => {
    const h = new FigureHost(rolloutFigure, compiled.story);
    const done = compiled.story.beats.find((b) => b.text.startsWith('Rollout complete'))!;
    const s = ro(h.handle({ op: 'seek', step: done.step })).series;
    const pts = s.segments.flatMap((x) => x.points);
    expect(Math.max(...pts.map((p) => p.total))).toBeGreaterThan(6);
    for (const p of pts) expect(p.total).toBeLessThanOrEqual(p.atMost);
    const firstDone = compiled.story.beats.find((b) => b.text.includes('rollout of revision 1 is complete'))!;
    const afterFirst = pts.filter((p) => p.t >= firstDone.t);
    expect(afterFirst.length).toBeGreaterThan(2);
    for (const p of afterFirst) expect(p.ready).toBeGreaterThanOrEqual(p.atLeast);
  });

  it('is the same after going to the end and seeking back, and after stepping back one step', () => {
    const h = new FigureHost(rolloutFigure, compiled.story);
    const mid = compiled.story.beats[3].step + 5;
    const first = ro(h.handle({ op: 'seek', step: mid })).series;
    h.handle({ op: 'seek', step: compiled.story.end });
    expect(ro(h.handle({ op: 'seek', step: mid })).series).toEqual(first);
    const back = ro(h.handle({ op: 'back' })).series;
    expectExactAt(back, mid - 1);
  });

  it('reaches back exactly SERIES_WINDOW_MS at the story’s end, past the 600 s progress deadline, while etcd compacted the start away', () => {
    const h = new FigureHost(rolloutFigure, compiled.story);
    const v = h.handle({ op: 'seek', step: compiled.story.end });
    const s = ro(v).series;
    expect(h.cluster.world.state.store.compactedRevision).toBeGreaterThan(0);
    expect(s.from).toBe(v.t - SERIES_WINDOW_MS);
    expect(s.segments[0].points[0].t).toBe(s.from);
    expectExactAt(s, compiled.story.end);
  });

  it('is empty before the Deployment exists', () => {
    expect(ro(compiled.first).series.segments).toEqual([]);
  });
});

describe('segmentsOf', () => {
  const v = (total: number, ready = total): { total: number; ready: number; atMost: number; atLeast: number } => ({
    total,
    ready,
    atMost: 8,
    atLeast: 5,
  });

  it('merges equal neighbours, lets the later change of one ms win, and breaks where the Deployment is gone', () => {
    const segs = segmentsOf(
      [
        { t: 0, v: null },
        { t: 10, v: v(1) },
        { t: 20, v: v(1) },
        { t: 30, v: v(2) },
        { t: 30, v: v(3) },
        { t: 40, v: null },
        { t: 50, v: v(4) },
      ],
      60,
    );
    expect(segs).toEqual([
      {
        points: [
          { t: 10, ...v(1) },
          { t: 30, ...v(3) },
        ],
        until: 40,
      },
      { points: [{ t: 50, ...v(4) }], until: 60 },
    ]);
  });

  it(`keeps only the newest ${SERIES_MAX_POINTS} points`, () => {
    const changes = Array.from({ length: SERIES_MAX_POINTS + 50 }, (_, i) => ({ t: i, v: v(i) }));
    const segs = segmentsOf(changes, 1000);
    expect(segs).toHaveLength(1);
    expect(segs[0].points).toHaveLength(SERIES_MAX_POINTS);
    expect(segs[0].points[0].t).toBe(50);
  });
});
