import { describe, expect, it, vi } from 'vitest';
import { clusterFigure } from './cluster-figure.ts';
import { compileFigure } from './compile.ts';
import { FIGURES } from '../testing/figures.ts';
import type { FigureDef } from './demo.ts';
import { FigureHost, REST_LOOKAHEAD_MS } from './host.ts';
import { FAILING, nodeFailureFigure } from './node-failure-figure.ts';
import { lastWholeListEnd, REST_SENTENCE, skippedSentence, spanText } from './playback.ts';
import type { WorldState } from '../world.ts';
import type { CompiledFigure, FigureView } from './protocol.ts';

const compiled: Record<string, CompiledFigure> = Object.fromEntries(
  Object.values(FIGURES).map((d) => [d.id, compileFigure(d)]),
);
const live = (def: FigureDef): FigureHost => new FigureHost(def, compiled[def.id].story);
const fresh = (def: FigureDef): FigureHost =>
  new FigureHost(def, { ...compiled[def.id].story, inputs: [], beats: [], end: 0 });
const next = (h: FigureHost): FigureView => h.handle({ op: 'next' });
const webRunning = (v: FigureView): number =>
  v.frame.pods.filter((p) => p.name.startsWith('web-') && p.phase === 'Running' && p.ready && !p.terminating).length;
const evicted = (v: FigureView): boolean => v.frame.pods.some((p) => p.node === FAILING && p.terminating);

/** Presses "next event that matters" until `ok` holds; the number of presses it took. */
function pressesUntil(
  h: FigureHost,
  ok: (v: FigureView) => boolean,
  max = 50,
): { presses: number; views: FigureView[] } {
  const views: FigureView[] = [];
  for (let n = 1; n <= max; n++) {
    const v = next(h);
    views.push(v);
    if (ok(v)) return { presses: n, views };
  }
  throw new Error(`not reached in ${max} presses`);
}

describe('what the narration says of a jump', () => {
  it('says spans of simulated time as a reader would', () => {
    expect(spanText(250)).toBe('250 ms');
    expect(spanText(7_000)).toBe('7 s');
    expect(spanText(250_000)).toBe('4 min 10 s');
    expect(spanText(300_200)).toBe('5 min');
    expect(spanText(2 * 3_600_000 + 5 * 60_000)).toBe('2 h 5 min');
  });

  it('sums up the start-up lists in one sentence, and says how long it waited', () => {
    expect(skippedSentence({ listing: 31, heartbeats: 0, other: 1 }, 10)).toBe(
      'Every component lists what exists: 31 notifications. Skipped: 1 other record.',
    );
    expect(skippedSentence({ listing: 0, heartbeats: 12, other: 40 }, 250_000)).toBe(
      '4 min 10 s later (skipped: 12 heartbeats and 40 other records).',
    );
    expect(skippedSentence({ listing: 0, heartbeats: 0, other: 0 }, 5_000)).toBe('5 s later.');
    expect(skippedSentence({ listing: 0, heartbeats: 0, other: 0 }, 0)).toBeNull();
  });
});

describe('"Next event that matters" on the cluster figure', () => {
  it("after Apply, skips the informers' start-up lists in one press and says so, and reaches three running pods in at most 5 presses", () => {
    const h = live(clusterFigure);
    const apply = next(h);
    expect(apply.step).toBe(compiled.cluster.story.beats[0].step);
    expect(apply.beat).toMatch(/^kubectl sends a Deployment named web/);
    const { presses, views } = pressesUntil(h, (v) => webRunning(v) === 3);
    expect(presses).toBeLessThanOrEqual(5);
    // The first press passes every informer's initial list and stops where the Deployment controller acts.
    expect(views[0].skipped).toMatch(/^Every component lists what exists: \d+ notifications\./);
    expect(views[0].beat).toMatch(/^The Deployment controller/);
    // Each press stops at a beat of the story.
    expect(views.every((v) => v.beat !== null)).toBe(true);
  });

  it('does the same for a reader who presses Apply on a cluster of their own', () => {
    const h = fresh(clusterFigure);
    h.handle({ op: 'demo', demo: 'apply' });
    const { presses, views } = pressesUntil(h, (v) => webRunning(v) === 3);
    expect(presses).toBeLessThanOrEqual(5);
    expect(views[0].skipped).toMatch(/^Every component lists what exists: \d+ notifications\./);
  });

  it('reaches every story beat, in order, and never stops on a heartbeat', () => {
    const h = live(clusterFigure);
    for (const b of compiled.cluster.story.beats) expect(next(h).step).toBe(b.step);
  });

  it('after the story, stops at a change a reader cares about (a pod deleted), not at heartbeats', () => {
    const h = live(clusterFigure);
    h.handle({ op: 'seek', step: compiled.cluster.story.end });
    const v = h.handle({ op: 'action', action: { type: 'delete-pod', pod: h.view().frame.pods[0].name } });
    expect(v.rest).toBeNull();
    const after = next(h);
    expect(after.step).toBeGreaterThan(v.step);
    expect(after.records.some((r) => r.kind === 'write' && !r.heartbeat)).toBe(true);
  });
});

describe('"Next event that matters" on the node-failure figure', () => {
  it("goes from the node's power cut to the eviction in at most 5 presses, saying the 5 minutes it skipped", () => {
    const h = live(nodeFailureFigure);
    const stop = compiled['node-failure'].story.beats.find((b) => b.text.includes('loses power'))!;
    h.handle({ op: 'seek', step: stop.step });
    const { presses, views } = pressesUntil(h, evicted);
    expect(presses).toBeLessThanOrEqual(5);
    expect(views.some((v) => /^5 min later/.test(v.skipped ?? ''))).toBe(true);
  });

  it('with no demo to follow (a node stopped by hand), still reaches the eviction 300 s after the taint: the wait is not rest', () => {
    const h = fresh(nodeFailureFigure);
    h.handle({ op: 'demo', demo: 'apply' });
    while (h.view().demoRunning !== null) next(h);
    h.handle({ op: 'action', action: { type: 'node', node: FAILING, action: 'stop' } });
    const { views } = pressesUntil(
      h,
      (v) => v.frame.nodes.find((n) => n.name === FAILING)!.taints.some((t) => t.effect === 'NoExecute'),
      20,
    );
    const tainted = views[views.length - 1];
    expect(tainted.rest).toBeNull();
    const { presses, views: on } = pressesUntil(h, evicted, 10);
    expect(presses).toBeLessThanOrEqual(5);
    expect(on[on.length - 1].t - tainted.t).toBeGreaterThanOrEqual(300_000);
  });
});

describe('at rest', () => {
  for (const def of Object.values(FIGURES)) {
    it(`${def.id}: comes to rest after its story; there Next stays, Advance 5 minutes runs the clock on and it stays at rest`, () => {
      const h = live(def);
      let v = h.handle({ op: 'seek', step: compiled[def.id].story.end });
      for (let n = 0; v.rest === null; n++) {
        if (n > 40) throw new Error('never at rest');
        v = next(h);
      }
      expect(v.rest).toBe(REST_SENTENCE);
      const hash = h.cluster.world.hash();
      // Asking again costs nothing (the look ahead is remembered, not run again) and changes nothing (it ran on a copy).
      const snapshots = vi.spyOn(h.cluster.world, 'snapshot');
      for (let i = 0; i < 3; i++) expect(h.handle({ op: 'view' }).rest).toBe(REST_SENTENCE);
      expect(snapshots).not.toHaveBeenCalled();
      snapshots.mockRestore();
      expect(h.cluster.world.hash()).toBe(hash);
      expect(next(h).step).toBe(v.step);
      const later = h.handle({ op: 'advance', ms: 5 * 60_000 });
      expect(later.t - v.t).toBe(5 * 60_000);
      expect(later.rest).toBe(REST_SENTENCE);
    });
  }

  it('is not rest while the story is ahead, while a demo waits for its beat, or just before a change', () => {
    const h = live(clusterFigure);
    expect(h.view().rest).toBeNull();
    h.handle({ op: 'seek', step: compiled.cluster.story.beats[3].step });
    expect(h.view().rest).toBeNull();
    const f = fresh(clusterFigure);
    expect(f.view().rest).toBe(REST_SENTENCE);
    const pressed = f.handle({ op: 'demo', demo: 'apply' });
    expect(pressed.demoRunning).toBe('apply');
    expect(pressed.rest).toBeNull();
  });

  it("looks further ahead than the longest default wait (300 s tolerations, the scheduler's 5-minute flush)", () => {
    expect(REST_LOOKAHEAD_MS).toBeGreaterThan(300_000);
  });

  it('gives the same answer to a host that replays to the same moment (deterministic)', () => {
    const a = live(nodeFailureFigure);
    const b = live(nodeFailureFigure);
    const end = compiled['node-failure'].story.end;
    const seen = (h: FigureHost) => [end - 40, end - 1, end].map((s) => h.handle({ op: 'seek', step: s }).rest);
    expect(seen(a)).toEqual(seen(b));
  });
});

describe('lastWholeListEnd', () => {
  const note = (watcher: string, event: 'ADDED' | 'BOOKMARK') =>
    ({ kind: 'watch', watcher, event }) as unknown as WorldState['log'][number];
  const state = (log: WorldState['log'], logDropped = 0) => ({ log, logDropped }) as unknown as WorldState;

  it('ends the run where every ADDED has its BOOKMARK, the last such place, and counts what lies before it', () => {
    // a lists two objects and bookmarks; b lists one and is cut short after position 5.
    const log = [
      note('a', 'ADDED'),
      note('a', 'ADDED'),
      note('a', 'BOOKMARK'),
      note('b', 'ADDED'),
      note('b', 'BOOKMARK'),
      note('c', 'ADDED'),
    ];
    expect(lastWholeListEnd(state(log), 0, [2, 3, 4, 5, 6])).toEqual({ index: 3, notifications: 5 });
    expect(lastWholeListEnd(state(log), 0, [1, 2])).toEqual({ index: -1, notifications: 0 });
  });

  it('a watch that lists again after its BOOKMARK is open again; positions count past dropped records', () => {
    const log = [note('a', 'ADDED'), note('a', 'BOOKMARK'), note('a', 'ADDED')];
    expect(lastWholeListEnd(state(log), 0, [2, 3])).toEqual({ index: 0, notifications: 2 });
    expect(lastWholeListEnd(state(log, 10), 10, [12, 13])).toEqual({ index: 0, notifications: 2 });
  });
});
