import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import { hubFigure, PIPELINE } from './hub-figure.ts';
import type { CompiledFigure, FigureView } from './protocol.ts';
import { expectStoryReplays } from './replay-check.ts';
import { runs } from '../../test/fc.ts';

const compiled: CompiledFigure = compileFigure(hubFigure);
const live = (): FigureHost => new FigureHost(hubFigure, compiled.story);

interface Pipeline {
  seq: number;
  component: string;
  user: string | null;
  verb: string;
  code: number;
  refusedAt: string | null;
  message: string | null;
  revision: number | null;
  key: string | null;
  stages: { stage: string; state: string }[];
  notified: { component: string; event: string }[];
}
const pipe = (v: FigureView): Pipeline => v.detail!.pipeline as unknown as Pipeline;

function runDemo(host: FigureHost, demo: string): FigureView {
  let v = host.handle({ op: 'demo', demo });
  for (let n = 0; v.demoRunning !== null; n++) {
    if (n > 5000) throw new Error(`demo ${demo} never finished`);
    v = host.handle({ op: 'next' })!;
  }
  return v;
}

/** The host at the story's end (web created and running, the four refusals made). */
function atEnd(): FigureHost {
  const h = live();
  h.handle({ op: 'seek', step: compiled.story.end });
  return h;
}

describe('the hub figure, compiled', () => {
  it('has beats in step order, ending the story, and is plain JSON', () => {
    const b = compiled.story.beats;
    expect(b.length).toBe(9);
    for (const x of b) expect(x.text).toMatch(/\.$/);
    expect(b.map((x) => x.step)).toEqual([...b.map((x) => x.step)].sort((p, q) => p - q));
    expect(compiled.story.end).toBe(b[b.length - 1].step);
    expect(JSON.parse(JSON.stringify(compiled))).toEqual(compiled);
  });

  it('replays in a fresh host to the same world and frame at every beat', () => {
    expectStoryReplays(hubFigure, compiled, false);
  });

  it('steps back then forward to identical views', () => {
    const host = live();
    for (let s = 1; s <= compiled.story.end; s += 7) {
      const a = host.handle({ op: 'seek', step: s });
      host.handle({ op: 'back' });
      const b = host.handle({ op: 'step' });
      expect(b).toEqual(a);
    }
  });
});

describe('the hub figure: one write through the stages', () => {
  it("stores kubectl's Deployment at the next revision under /registry and notifies kube-controller-manager", () => {
    const host = live();
    const before = host.handle({ op: 'seek', step: compiled.story.beats[0].step - 1 }).frame.revision;
    const v = host.handle({ op: 'seek', step: compiled.story.beats[0].step });
    const p = pipe(v);
    expect(p).toMatchObject({
      component: 'kubectl',
      user: 'kubernetes-admin',
      verb: 'POST',
      code: 201,
      refusedAt: null,
      key: '/registry/deployments/default/web',
    });
    expect(p.revision).toBe(before + 1);
    expect(p.stages.map((s) => s.state)).toEqual(PIPELINE.map(() => 'passed'));
    // A few steps on, the notification has gone out to the Deployment's one watcher.
    let w = v;
    while (pipe(w).notified.length === 0 && w.step < compiled.story.end) w = host.handle({ op: 'step' })!;
    expect(pipe(w).seq).toBe(p.seq);
    expect(pipe(w).notified).toEqual([{ component: 'kube-controller-manager', event: 'ADDED' }]);
  });

  it("shows each refusal at the stage that refused it, with the API server's message", () => {
    const host = live();
    const at = (i: number): Pipeline => pipe(host.handle({ op: 'seek', step: compiled.story.beats[i].step }));
    const expectations: [number, string, number, RegExp][] = [
      [5, 'authentication', 401, /^Unauthorized$/],
      [6, 'authorization', 403, /User "jane" cannot create resource "deployments"/],
      [7, 'admission', 404, /namespaces "staging" not found/],
      [8, 'validation', 422, /`selector` does not match template `labels`/],
    ];
    for (const [beat, stage, code, message] of expectations) {
      const p = at(beat);
      expect(p.refusedAt).toBe(stage);
      expect(p.code).toBe(code);
      expect(p.message).toMatch(message);
      expect(p.revision).toBeNull();
      const i = PIPELINE.indexOf(stage as never);
      expect(p.stages.map((s) => s.state)).toEqual(
        PIPELINE.map((_, j) => (j < i ? 'passed' : j === i ? 'refused' : 'not-reached')),
      );
    }
  });
});

describe('the hub figure: the pod on its kubelet', () => {
  it("lights the kubelet's pod statechart from pending through pulling and creating to running.ready, in step with the frame", () => {
    const host = live();
    const seen: string[] = [];
    for (let s = 0; s <= compiled.story.beats[4].step; s++) {
      const v = host.handle({ op: 'seek', step: s });
      const pod = v.detail!.pod as { current: string | null; reason: string; subject: string } | null;
      if (!pod?.current) continue;
      if (seen[seen.length - 1] !== pod.current) seen.push(pod.current);
      const name = pod.subject.split(' ')[0];
      const p = v.frame.pods.find((x) => x.name === name)!;
      expect(pod.reason).toMatch(new RegExp(`kubectl (still )?shows ${p.status}`));
    }
    expect(seen).toEqual(['pending', 'pulling', 'creating', 'running.ready']);
  });
});

describe('the hub figure: one component stopped at a time', () => {
  it('API server: kubectl is refused at the connection, Leases go stale, no node is marked NotReady', () => {
    const host = atEnd();
    const v0 = host.handle({ op: 'demo', demo: 'stop-apiserver' });
    expect(pipe(v0)).toMatchObject({ refusedAt: 'connection', code: 0 });
    expect(pipe(v0).stages.every((s) => s.state === 'not-reached')).toBe(true);
  });

  it('etcd: the stages pass and storage refuses with "etcdserver: request timed out"', () => {
    const host = atEnd();
    const v = host.handle({ op: 'demo', demo: 'stop-etcd' });
    expect(pipe(v)).toMatchObject({ refusedAt: 'storage', code: 500, message: 'etcdserver: request timed out' });
    expect(v.frame.controlPlane.etcd).toBe(false);
  });

  it('scheduler: new pods stay Pending until it starts again', () => {
    const host = atEnd();
    let v = runDemo(host, 'stop-scheduler');
    expect(v.frame.pending.length).toBe(2);
    expect(v.beat).toMatch(/2 pods .* Pending with no node/);
    v = runDemo(host, 'stop-scheduler');
    expect(v.frame.pending.length).toBe(0);
    expect(v.frame.controlPlane.scheduler).toBe(true);
  });

  it('controller-manager: the scale is stored, and no pod follows until it starts again', () => {
    const host = atEnd();
    let v = runDemo(host, 'stop-controller-manager');
    const d = v.frame.deployments.find((x) => x.name === 'web')!;
    expect(d.replicas).toBe(5);
    expect(pipe(v)).toMatchObject({ code: 200, refusedAt: null });
    v = host.handle({ op: 'advance', ms: 10_000 })!;
    expect(v.frame.pods.filter((p) => p.owner?.startsWith('ReplicaSet/web-')).length).toBe(3);
    v = runDemo(host, 'stop-controller-manager');
    expect(v.frame.pods.filter((p) => p.ready && p.owner?.startsWith('ReplicaSet/web-')).length).toBe(5);
  });

  it('a stopped API server: Leases age past 10 s and every node still says Ready', () => {
    const host = atEnd();
    const v = runDemo(host, 'stop-apiserver');
    expect(v.frame.controlPlane.apiserver).toBe(false);
    expect(Math.min(...v.frame.nodes.map((n) => n.leaseAgeMs ?? 0))).toBeGreaterThan(10_000);
    expect(v.frame.nodes.every((n) => n.ready === 'True')).toBe(true);
  });

  it('a slow API server: a scale that takes milliseconds takes seconds, and nothing is refused', () => {
    const fast = atEnd();
    const t0 = fast.handle({ op: 'view' }).t;
    fast.handle({ op: 'action', action: { type: 'scale', name: 'web', replicas: 5 } });
    let v = fast.handle({ op: 'view' });
    while (v.frame.pods.filter((p) => p.ready).length < 5) v = fast.handle({ op: 'step' })!;
    const fastMs = v.t - t0;
    const slow = atEnd();
    const s = runDemo(slow, 'slow');
    expect(s.frame.controlPlane.latencyMs).toBe(2000);
    const slowMs = s.t - t0;
    expect(slowMs).toBeGreaterThan(4 * 2000);
    expect(fastMs).toBeLessThan(slowMs / 2);
  });

  it('a slow API server waits for a running control plane: with etcd or a hand-off stopped its scale would not go through, so the button says why', () => {
    const why = (h: FigureHost) => h.view().demos.find((d) => d.id === 'slow')!;
    for (const [part, reason] of [
      ['etcd', /^etcd is stopped: kubectl's scale would be refused\.$/],
      ['controller-manager', /^The controller manager is stopped: nothing would act on the scale\.$/],
      ['scheduler', /^The scheduler is stopped: no new pod would be placed\.$/],
    ] as const) {
      const host = atEnd();
      host.handle({ op: 'demo', demo: `stop-${part}` });
      expect(why(host)).toMatchObject({ enabled: false, why: expect.stringMatching(reason) });
    }
    expect(why(atEnd())).toMatchObject({ enabled: true, why: null });
  });
});

describe('the hub figure, fuzzed', () => {
  it('never throws on any sequence of its demos and steps', () => {
    const ids = hubFigure.demos.map((d) => d.id);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...ids), fc.constantFrom('next', 'back', 'step')), { maxLength: 12 }),
        (ops) => {
          const host = atEnd();
          for (const op of ops) {
            const v = host.handle({ op: 'view' });
            if (op === 'next' || op === 'back' || op === 'step') host.handle({ op });
            else if (v.demos.find((d) => d.id === op)?.enabled) host.handle({ op: 'demo', demo: op });
            const p = host.handle({ op: 'view' });
            expect(JSON.parse(JSON.stringify(p.detail))).toEqual(p.detail);
          }
          // Each case runs a whole cluster: a few dozen in CI (FC_RUNS is 1,000 there), a handful otherwise.
        },
      ),
      { numRuns: runs(0.04, 10) },
    );
  }, 120_000);
});
