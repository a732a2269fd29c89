// The node-failure and outage figures: their stories replay to the compiled hashes, step back and
// forward agree, and each chapter's key moments happen when Kubernetes says they do (the 50 s grace,
// the 300 s toleration, the containers that keep running behind a partition, kubectl refused, nothing
// replaced during the outage, a fresh grace period after it).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KUBECTL_CONNECTION_REFUSED } from '../api/status.ts';
import { JITTER_FACTOR, LEASE_DURATION_MS, RETRY_PERIOD_MS } from '../client-go/leader-election.ts';
import type { StatechartView } from '../view/statechart.ts';
import type { FigureAction } from './actions.ts';
import { compileFigure } from './compile.ts';
import type { FigureDef } from './demo.ts';
import { FigureHost } from './host.ts';
import type { LeaseClock, PodCountdown, ServiceEndpoint } from './node-detail.ts';
import { FAILING, nodeFailureFigure } from './node-failure-figure.ts';
import { DYING, outageFigure, type ClientRequest } from './outage-figure.ts';
import type { CompiledFigure, FigureView } from './protocol.ts';
import { expectStepBackForward, expectStoryReplays, expectWellFormedStory } from './replay-check.ts';
import { runs } from '../../test/fc.ts';

const S = 1000;

/** Presses a demo, then moves (by "next event that matters", which goes beat to beat, or one step at a time to see every step) until its last beat. */
function runDemo(
  host: FigureHost,
  demo: string,
  each?: (v: FigureView) => void,
  move: 'next' | 'step' = 'next',
): FigureView {
  let v = host.handle({ op: 'demo', demo });
  each?.(v);
  for (let n = 0; v.demoRunning !== null; n++) {
    if (n > 5000) throw new Error(`demo ${demo} never finished`);
    v = host.handle({ op: move })!;
    each?.(v);
  }
  return v;
}
const fresh = (def: FigureDef, c: CompiledFigure) => new FigureHost(def, { ...c.story, inputs: [], beats: [], end: 0 });
const chart = (v: FigureView) => v.detail!.chart as unknown as StatechartView;
const clock = (v: FigureView) => v.detail!.clock as unknown as LeaseClock;
const pods = (v: FigureView) => v.detail!.pods as unknown as PodCountdown[];
const endpoints = (v: FigureView) => (v.detail!.service as unknown as { endpoints: ServiceEndpoint[] }).endpoints;
const client = (v: FigureView) => v.detail!.client as unknown as ClientRequest[];

for (const def of [nodeFailureFigure, outageFigure]) {
  describe(`the ${def.id} figure, compiled`, () => {
    const compiled = compileFigure(def);

    it('has beats with text in step order, and is plain JSON', () => {
      expectWellFormedStory(compiled, 8);
    });

    it('replays in a fresh host to the same world, frame and beat text at every beat', () => {
      expectStoryReplays(def, compiled);
    });

    it('gives the identical view (detail included) after a step back and a step forward', () => {
      expectStepBackForward(def, compiled, [2, 5, compiled.story.beats.length - 2]);
    });

    it('lights a state of the node chart whenever the controller runs, with a reason', () => {
      const host = new FigureHost(def, compiled.story);
      for (const beat of compiled.story.beats) {
        const v = host.handle({ op: 'seek', step: beat.step });
        const c = chart(v);
        expect(c.chart.machine).toBe('node');
        expect(c.reason.length).toBeGreaterThan(10);
        if (v.frame.controlPlane.controllerManager && c.current !== null)
          expect(c.chart.states.map((s) => s.id)).toContain(c.current);
      }
    });

    it('never throws whatever the reader presses, in any order', () => {
      const actions: FigureAction[] = [
        { type: 'node', node: 'node-2', action: 'partition' },
        { type: 'node', node: 'node-2', action: 'heal' },
        { type: 'node', node: 'node-3', action: 'stop' },
        { type: 'control-plane', action: 'stop' },
        { type: 'control-plane', action: 'start' },
        { type: 'get', resource: 'pods' },
        { type: 'expose', name: 'web', port: 80 },
        { type: 'scale', name: 'web', replicas: 1 },
      ];
      fc.assert(
        fc.property(
          fc.array(
            fc.oneof(
              fc.constantFrom(...def.demos.map((d) => ({ op: 'demo' as const, demo: d.id }))),
              fc.constantFrom(...actions.map((action) => ({ op: 'action' as const, action }))),
              fc.constantFrom({ op: 'next' as const }, { op: 'back' as const }, { op: 'advance' as const, ms: 60_000 }),
            ),
            { maxLength: 8 },
          ),
          (reqs) => {
            const host = fresh(def, compiled);
            for (const r of reqs) {
              try {
                host.handle(r);
              } catch (e) {
                // A demo that is unavailable now says why; nothing else may throw.
                expect(r.op).toBe('demo');
                expect(String((e as Error).message)).toMatch(/\.$/);
              }
              expect(() => JSON.stringify(host.view())).not.toThrow();
            }
            // Each case runs a whole cluster: a few dozen in CI (FC_RUNS is 1,000 there), a handful otherwise.
          },
        ),
        { numRuns: runs(0.03, 8) },
      );
    }, 120_000);
  });
}

describe("node-failure: the controller's clock", () => {
  const compiled = compileFigure(nodeFailureFigure);

  it('power-off: Unknown 50 s after the last renewal, tainted, evicted 300 s after the taint, replaced elsewhere, node back empty', () => {
    const host = fresh(nodeFailureFigure, compiled);
    runDemo(host, 'apply');
    const before = host
      .view()
      .frame.pods.filter((p) => p.node === FAILING)
      .map((p) => p.name);
    expect(before.length).toBeGreaterThan(0);
    let unknown: FigureView | null = null;
    let taintedAt = 0;
    let evictedAt = 0;
    let scheduled = false;
    const states: string[] = [];
    // Every step: the moment the taint-eviction controller schedules the evictions falls between beats.
    runDemo(
      host,
      'power',
      (v) => {
        const c = chart(v).current!;
        if (states[states.length - 1] !== c) states.push(c);
        const n = v.frame.nodes.find((x) => x.name === FAILING)!;
        if (!unknown && n.ready === 'Unknown') unknown = v;
        if (!taintedAt && n.taints.some((t) => t.effect === 'NoExecute')) taintedAt = v.t;
        if (taintedAt && !scheduled && pods(v).every((p) => p.evictAt !== null)) {
          scheduled = true;
          // The taint-eviction controller, told of the taint, schedules each pod's deletion at its 300 s toleration.
          for (const p of pods(v)) {
            expect(p).toMatchObject({ tolerationSeconds: 300, container: 'none' });
            expect(p.evictAt! - taintedAt).toBeGreaterThanOrEqual(300 * S);
            expect(p.evictAt! - taintedAt).toBeLessThan(301 * S);
            expect(p.remainingS).toBeGreaterThanOrEqual(299);
          }
        }
        if (!evictedAt && v.frame.pods.some((p) => p.node === FAILING && p.terminating)) evictedAt = v.t;
      },
      'step',
    );
    const u = unknown as FigureView | null;
    expect(u).not.toBeNull();
    expect(clock(u!).leaseAgeS).toBeGreaterThanOrEqual(50);
    expect(clock(u!).leaseAgeS).toBeLessThanOrEqual(51);
    expect(chart(u!).reason).toMatch(/^Ready=Unknown: no Lease renewal for 5\d s/);
    expect(scheduled).toBe(true);
    expect(evictedAt - taintedAt).toBeGreaterThanOrEqual(300 * S);
    expect(evictedAt - taintedAt).toBeLessThan(301 * S);
    // (graceRunning starts at the first pass that sees the missed renewal: the beat at a Lease age of 10 s
    // may come up to one 5 s period before that pass, so the sampled views need not show it.)
    expect(states.filter((x) => x !== 'graceRunning')).toEqual(['healthy', 'unknown', 'tainted']);
    // The controller's next pass counts the evicted pods.
    const end = host.handle({ op: 'advance', ms: 10 * S });
    expect(chart(end).current).toBe('evicting');
    expect(chart(end).reason).toContain(`${before.length} pods evicted`);
    expect(end.frame.pods.filter((p) => p.node === FAILING).every((p) => p.terminating)).toBe(true);
    expect(end.frame.pods.filter((p) => p.node !== FAILING && !p.terminating && p.ready)).toHaveLength(6);
    const back = runDemo(host, 'power');
    expect(back.frame.pods.filter((p) => p.node === FAILING)).toEqual([]);
    expect(['recovered', 'healthy']).toContain(chart(back).current);
    expect(chart(host.handle({ op: 'advance', ms: 10 * S })).current).toBe('healthy');
  });

  it("partition: the same clock, but the evicted pods' containers keep running until the node is reconnected", () => {
    const host = fresh(nodeFailureFigure, compiled);
    runDemo(host, 'apply');
    let sawRunningTerminating = false;
    runDemo(host, 'partition', (v) => {
      for (const p of pods(v)) if (p.terminating && p.container === 'running') sawRunningTerminating = true;
    });
    expect(sawRunningTerminating).toBe(true);
    expect(pods(host.view()).every((p) => p.terminating && p.container === 'running')).toBe(true);
    const back = runDemo(host, 'partition');
    expect(back.frame.pods.filter((p) => p.node === FAILING)).toEqual([]);
    expect(pods(back)).toEqual([]);
  });
});

describe('outage: the cluster serves on, out of reach', () => {
  const compiled = compileFigure(outageFigure);

  it('refuses kubectl with the real message, serves the client, replaces nothing, then catches up with a fresh grace period', () => {
    const host = fresh(outageFigure, compiled);
    runDemo(host, 'apply');
    expect(endpoints(host.view()).filter((e) => e.listedReady)).toHaveLength(3);
    runDemo(host, 'control-plane');
    expect(client(host.view()).every((r) => r.ok)).toBe(true);
    const refused = runDemo(host, 'get');
    expect(refused.log.some((r) => r.component === 'kubectl' && r.code === 0)).toBe(true);
    expect(refused.beat).toContain(KUBECTL_CONNECTION_REFUSED);
    const podsBefore = refused.frame.pods.map((p) => p.name);
    const diedAt = host.view().t;
    const during = runDemo(host, 'node');
    expect(during.frame.pods.map((p) => p.name)).toEqual(podsBefore);
    expect(during.frame.nodes.find((n) => n.name === DYING)!.ready).toBe('True');
    expect(chart(during).current).toBeNull();
    // The rules still send a third of the requests to the dead node's pod.
    const ok = client(during).filter((r) => r.ok).length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(client(during).length);
    const restartAt = host.view().t;
    let unknownAt = 0;
    let evictedAt = 0;
    runDemo(host, 'control-plane', (v) => {
      const n = v.frame.nodes.find((x) => x.name === DYING)!;
      if (!unknownAt && n.ready === 'Unknown') unknownAt = v.t;
      if (!evictedAt && v.frame.pods.some((p) => p.node === DYING && p.terminating)) evictedAt = v.t;
    });
    expect(restartAt - diedAt).toBeGreaterThanOrEqual(60 * S);
    // The new controller-manager leads once the old one's Lease has gone 15 s unrenewed (its first
    // GET starts that count; a jittered retry of at most 4.4 s takes it over), and its fresh grace
    // period counts from then.
    expect(unknownAt - restartAt).toBeGreaterThanOrEqual(50 * S + LEASE_DURATION_MS);
    expect(unknownAt - restartAt).toBeLessThan(56 * S + LEASE_DURATION_MS + RETRY_PERIOD_MS * (1 + JITTER_FACTOR));
    expect(evictedAt - restartAt).toBeGreaterThanOrEqual(350 * S);
    const end = host.view();
    expect(
      endpoints(end)
        .filter((e) => e.listedReady)
        .every((e) => e.node !== DYING && e.answers),
    ).toBe(true);
    expect(client(end).every((r) => r.ok)).toBe(true);
  });
});
