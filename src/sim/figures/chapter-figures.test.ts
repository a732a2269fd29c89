import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import type { FigureDef } from './demo.ts';
import { FigureHost } from './host.ts';
import type { CompiledFigure, FigureRequest, FigureView } from './protocol.ts';
import { rolloutFigure, type RolloutDetail } from './rollout-figure.ts';
import { schedulerFigure, type SchedulerDetail } from './scheduler-figure.ts';
import { FIGURES } from '../testing/figures.ts';
import { createFigureServer } from './serve.ts';
import { ask, reply } from '../testing/figure-server.ts';
import { expectStoryReplays } from './replay-check.ts';
import { runs } from '../../test/fc.ts';

const compiled: Record<string, CompiledFigure> = {
  scheduler: compileFigure(schedulerFigure),
  rollout: compileFigure(rolloutFigure),
};
const live = (def: FigureDef): FigureHost => new FigureHost(def, compiled[def.id].story);
const sched = (v: FigureView): SchedulerDetail => v.detail as unknown as SchedulerDetail;
const ro = (v: FigureView): RolloutDetail => v.detail as unknown as RolloutDetail;

/** Runs "next event that matters" until the predicate holds (or fails after many moves). */
function until(host: FigureHost, ok: (v: FigureView) => boolean, each?: (v: FigureView) => void): FigureView {
  let v = host.view();
  for (let n = 0; !ok(v); n++) {
    if (n > 5000) throw new Error('never happened');
    v = host.handle({ op: 'next' })!;
    each?.(v);
  }
  return v;
}

for (const def of [schedulerFigure, rolloutFigure]) {
  describe(`the ${def.id} figure, compiled`, () => {
    const c = compiled[def.id];
    it('has beats with text, in step order, ending the story, and is plain JSON', () => {
      const b = c.story.beats;
      expect(b.length).toBeGreaterThanOrEqual(6);
      for (const x of b) expect(x.text).toMatch(/[.)]$/);
      expect(b.map((x) => x.step)).toEqual([...b.map((x) => x.step)].sort((p, q) => p - q));
      expect(c.story.end).toBe(b[b.length - 1].step);
      expect(JSON.parse(JSON.stringify(c))).toEqual(c);
    });

    it('replays in a fresh host to the same world and frame at every beat', () => {
      expectStoryReplays(def, c);
    });

    it('gives the identical view after a step back and a step forward', () => {
      const host = live(def);
      host.handle({ op: 'seek', step: c.story.beats[2].step + 3 });
      const here = host.view();
      host.handle({ op: 'back' });
      expect(host.handle({ op: 'step' })).toEqual(here);
    });

    it('survives any sequence of requests (fuzzed)', async () => {
      const ids = def.demos.map((d) => d.id);
      const op: fc.Arbitrary<FigureRequest> = fc.oneof(
        fc.constantFrom<FigureRequest>(
          { op: 'step' },
          { op: 'back' },
          { op: 'next' },
          { op: 'reset' },
          { op: 'rejoin' },
        ),
        fc.record({ op: fc.constant('seek' as const), step: fc.integer({ min: -5, max: 2000 }) }),
        fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 700_000 }) }),
        fc.record({ op: fc.constant('demo' as const), demo: fc.constantFrom(...ids, 'bogus') }),
        fc.constantFrom<FigureRequest>(
          { op: 'action', action: { type: 'strategy', name: 'web', maxSurge: 0, maxUnavailable: 0 } },
          { op: 'action', action: { type: 'strategy', name: 'web', maxSurge: '50%', maxUnavailable: 'x' } },
          {
            op: 'action',
            action: { type: 'replace-pod', pod: { name: 'big', image: 'nginx:1.27', cpu: '1', memory: '1Gi' } },
          },
          {
            op: 'action',
            action: { type: 'tolerate', pod: 'nope', toleration: { key: 'a', value: 'b', effect: 'NoSchedule' } },
          },
          { op: 'action', action: { type: 'rollout', name: 'web', verb: 'undo' } },
        ),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 8 }), async (ops) => {
          const serve = createFigureServer(FIGURES)('x');
          expect((await reply(serve.open(def.id, c.story))).ok).toBe(true);
          for (const o of ops) {
            const r = await ask(serve, o);
            if (r.ok) expect(JSON.parse(JSON.stringify(r.view))).toEqual(r.view);
            else expect(r.error.length).toBeGreaterThan(0);
          }
          expect((await reply(serve.advance(1000))).ok).toBe(true);
        }),
        { numRuns: runs(0.02, 6) },
      );
    }, 120_000);
  });
}

describe('the scheduler figure', () => {
  const c = compiled.scheduler;
  const beatWith = (s: string) => c.story.beats.find((b) => b.text.includes(s))!;

  it('builds nodes of different sizes: one cordoned, one tainted, one full', () => {
    const f = beatWith('The scene').frame!;
    expect(f.nodes.map((n) => n.cpuMilli)).toEqual([4000, 8000, 2000, 4000, 2000]);
    expect(f.nodes[0].cordoned).toBe(true);
    expect(f.nodes[1].taints).toContainEqual({ key: 'dedicated', effect: 'NoSchedule' });
    expect(f.pods.find((p) => p.name === 'batch')!.node).toBe('node-3');
  });

  it("scores the feasible nodes with each plugin's weight and binds web to the highest total", () => {
    const host = live(schedulerFigure);
    const v = host.handle({ op: 'seek', step: beatWith('Filter, then score').step });
    const web = sched(v).pods.find((p) => p.name === 'web')!;
    const fit = web.attempt!.perNode.filter((n) => n.passed);
    expect(fit.map((n) => n.node)).toEqual(['node-4', 'node-5']);
    const weights = Object.fromEntries(sched(v).weights.map((w) => [w.plugin, w.weight]));
    expect(weights).toMatchObject({
      TaintToleration: 3,
      NodeAffinity: 2,
      PodTopologySpread: 2,
      NodeResourcesFit: 1,
      NodeResourcesBalancedAllocation: 1,
    });
    for (const n of fit) {
      for (const s of n.scores) expect(s.weighted).toBe(s.normalized * weights[s.plugin]);
      expect(n.total).toBe(n.scores.reduce((a, s) => a + s.weighted, 0));
    }
    const best = [...fit].sort((a, b) => b.total - a.total)[0];
    expect(web.attempt!.node).toBe(best.node);
    expect(v.frame.pods.find((p) => p.name === 'web')!.node).toBe(best.node);
  });

  it('leaves big Pending with the exact FailedScheduling message', () => {
    const host = live(schedulerFigure);
    const v = host.handle({ op: 'seek', step: beatWith('stays Pending').step });
    const big = sched(v).pods.find((p) => p.name === 'big')!;
    expect(big.node).toBeNull();
    expect(big.attempt!.message).toBe(
      '0/5 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 3 Insufficient cpu. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.',
    );
    expect(big.attempt!.perNode.map((n) => n.plugin)).toEqual([
      'NodeUnschedulable',
      'TaintToleration',
      'NodeResourcesFit',
      'NodeResourcesFit',
      'NodeResourcesFit',
    ]);
  });

  it("draws the kubelet's pod statechart of a bound pod: batch running.ready at the scene, none for a Pending big", () => {
    const host = live(schedulerFigure);
    let d = sched(host.handle({ op: 'seek', step: beatWith('The scene').step }));
    expect(d.statechart.chart.machine).toBe('pod');
    expect(d.statechart.pods.batch).toMatchObject({ current: 'running.ready', subject: 'batch on node-3' });
    expect(d.statechart.pods.batch.reason).toMatch(/Running on node-3: Ready=True/);
    d = sched(host.handle({ op: 'seek', step: beatWith('stays Pending').step }));
    expect(d.statechart.pods.big).toBeUndefined();
    expect(Object.keys(d.statechart.pods).sort()).toEqual(['batch', 'web']);
    const end = c.story.beats[c.story.beats.length - 1];
    expect(sched(host.handle({ op: 'seek', step: end.step })).statechart.pods.big).toMatchObject({
      current: 'running.ready',
      subject: 'big on node-2',
    });
  });

  it("schedules big on node-2 once it tolerates the taint (the story's end)", () => {
    const f = c.story.beats[c.story.beats.length - 1].frame!;
    expect(f.pods.find((p) => p.name === 'big')).toMatchObject({ node: 'node-2', ready: true });
  });

  it('schedules big when the reader lowers its requests instead, and uncordoning alone is not enough', () => {
    const host = live(schedulerFigure);
    host.handle({ op: 'seek', step: beatWith('stays Pending').step });
    until(host, (x) => !x.demoRunning);
    host.handle({ op: 'demo', demo: 'cordon' });
    let v = until(
      host,
      (x) =>
        sched(x)
          .pods.find((p) => p.name === 'big')!
          .attempt!.message?.includes('unschedulable') === false,
    );
    expect(sched(v).pods.find((p) => p.name === 'big')!.node).toBeNull();
    expect(sched(v).pods.find((p) => p.name === 'big')!.attempt!.message).toMatch(/^0\/5 nodes are available: /);
    host.handle({
      op: 'action',
      action: { type: 'replace-pod', pod: { name: 'big', image: 'nginx:1.27', cpu: '3', memory: '2Gi' } },
    });
    v = until(host, (x) => !!x.frame.pods.find((p) => p.name === 'big' && !p.terminating)?.node);
    const big = sched(v).pods.find((p) => p.name === 'big')!;
    expect(big.cpu).toBe('3');
    expect(['node-1', 'node-4']).toContain(big.node);
  });
});

describe('the rollout figure', () => {
  const c = compiled.rollout;
  const beatWith = (s: string) => c.story.beats.find((b) => b.text.includes(s))!;

  it('resolves the 25% defaults of 6 replicas as Kubernetes does: surge up to 2, unavailable down to 1', () => {
    const host = live(rolloutFigure);
    const d = ro(host.handle({ op: 'seek', step: c.story.beats[1].step })).deployment!;
    expect(d).toMatchObject({
      replicas: 6,
      maxSurgeSpec: '25%',
      maxUnavailableSpec: '25%',
      maxSurge: 2,
      maxUnavailable: 1,
      atMost: 8,
      atLeastReady: 5,
      progressDeadlineSeconds: 600,
    });
  });

  it('never runs more than replicas + maxSurge pods nor fewer than replicas − maxUnavailable ready, through the update', () => {
    const host = live(rolloutFigure);
    const from = beatWith('kubectl set image changes').step;
    const to = beatWith('Rollout complete').step;
    host.handle({ op: 'seek', step: from });
    for (let s = from; s <= to; s++) {
      const v = host.handle({ op: 'step' });
      const d = ro(v);
      expect(d.pods.total).toBeLessThanOrEqual(d.deployment!.atMost);
      expect(d.pods.ready).toBeGreaterThanOrEqual(d.deployment!.atLeastReady);
    }
  });

  it("refuses maxSurge 0 with maxUnavailable 0 with the API server's validation message, and resolves 50%/0", () => {
    const host = live(rolloutFigure);
    host.handle({ op: 'seek', step: c.story.beats[1].step });
    let v = host.handle({ op: 'action', action: { type: 'strategy', name: 'web', maxSurge: 0, maxUnavailable: 0 } });
    expect(ro(v).refused).toBe(
      'Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    );
    v = host.handle({ op: 'action', action: { type: 'strategy', name: 'web', maxSurge: '50%', maxUnavailable: 0 } })!;
    expect(ro(v).refused).toBeNull();
    expect(ro(v).deployment).toMatchObject({ maxSurge: 3, maxUnavailable: 0, atMost: 9, atLeastReady: 6 });
  });

  it('stalls on an image that never pulls and reports ProgressDeadlineExceeded about 600 s later', () => {
    const start = beatWith('The registry has no');
    const stalled = beatWith('ProgressDeadlineExceeded');
    expect((stalled.t - start.t) / 1000).toBeGreaterThanOrEqual(600);
    expect((stalled.t - start.t) / 1000).toBeLessThan(620);
    const host = live(rolloutFigure);
    const d = ro(host.handle({ op: 'seek', step: stalled.step }));
    expect(d.conditions.find((x) => x.type === 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
    });
    expect(d.rollout!.state).toBe('deadlineExceeded');
    expect(d.chart).toMatchObject({ current: 'deadlineExceeded', subject: 'Deployment web' });
    expect(d.chart.chart.machine).toBe('rollout');
    expect(d.chart.reason).toMatch(/^ProgressDeadlineExceeded: /);
    expect(d.pods.ready).toBeGreaterThanOrEqual(5);
  });

  it('lights the rollout statechart in step with the story: complete after apply, progressing during the update', () => {
    const host = live(rolloutFigure);
    expect(
      ro(host.handle({ op: 'seek', step: beatWith('the rollout of revision 1 is complete').step })).chart.current,
    ).toBe('complete');
    const up = ro(host.handle({ op: 'seek', step: beatWith('is scaled up first').step })).chart;
    expect(up.current).toMatch(/^progressing\./);
    expect(up.reason).toMatch(/updated/);
    const done = ro(host.handle({ op: 'seek', step: beatWith('Rollout complete').step })).chart;
    expect(done.current).toBe('complete');
    expect(done.reason).toMatch(/^NewReplicaSetAvailable: /);
  });

  it('undo returns to the previous ReplicaSet without making a new one', () => {
    const end = c.story.beats[c.story.beats.length - 1];
    const host = live(rolloutFigure);
    const d = ro(host.handle({ op: 'seek', step: end.step }));
    expect(d.replicaSets).toHaveLength(3);
    const on = d.replicaSets.filter((rs) => rs.replicas > 0);
    expect(on).toHaveLength(1);
    expect(on[0].image).toBe('nginx:1.28');
  });

  it('pause stops the rollout of a new template until resume', () => {
    const host = live(rolloutFigure);
    host.handle({ op: 'seek', step: c.story.beats[1].step });
    host.handle({ op: 'demo', demo: 'pause' });
    host.handle({ op: 'action', action: { type: 'set-image', name: 'web', image: 'nginx:1.28' } });
    let v = host.handle({ op: 'advance', ms: 60_000 });
    expect(v.frame.deployments[0].rollout!.state).toBe('paused');
    expect(
      ro(v)
        .replicaSets.filter((rs) => rs.replicas > 0)
        .map((rs) => rs.image),
    ).toEqual(['nginx:1.27']);
    host.handle({ op: 'demo', demo: 'pause' });
    v = until(host, (x) => ro(x).replicaSets.some((rs) => rs.image === 'nginx:1.28' && rs.ready === 6));
    expect(v.frame.deployments[0].rollout!.state).not.toBe('paused');
  });
});
