import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { getPodsToDelete } from '../controllers/replicaset-util.ts';
import { rfc3339 } from '../util/names.ts';
import { storeList } from '../view/stored.ts';
import { frameOf } from '../view/frame.ts';
import { World } from '../world.ts';
import type { Frame } from '../view/types.ts';
import { clusterFigure } from './cluster-figure.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { CompiledFigure, FigureRequest, FigureView } from './protocol.ts';
import { FIGURES } from '../testing/figures.ts';
import { createFigureServer } from './serve.ts';
import { ask, reply } from '../testing/figure-server.ts';
import { expectStoryReplays } from './replay-check.ts';
import { runs } from '../../test/fc.ts';

const compiled: CompiledFigure = compileFigure(clusterFigure);
const live = (): FigureHost => new FigureHost(clusterFigure, compiled.story);
const webPods = (f: Frame): Frame['pods'] =>
  [...f.pending, ...f.pods].filter((p) => p.owner?.startsWith('ReplicaSet/web-'));

/** A host past the story's end with nothing changed, then a demo pressed and run until its last beat. */
function runDemo(host: FigureHost, demo: string, each?: (v: FigureView) => void): FigureView {
  let v = host.handle({ op: 'demo', demo });
  for (let n = 0; v.demoRunning !== null; n++) {
    if (n > 5000) throw new Error(`demo ${demo} never finished`);
    v = host.handle({ op: 'next' })!;
    each?.(v);
  }
  return v;
}

/** A fresh cluster (no story) for demos pressed from the start. */
function fresh(): FigureHost {
  return new FigureHost(clusterFigure, { ...compiled.story, inputs: [], beats: [], end: 0 });
}

describe('the cluster figure, compiled', () => {
  it('has beats with text, in step order, ending the story', () => {
    const b = compiled.story.beats;
    expect(b.length).toBeGreaterThanOrEqual(10);
    for (const x of b) expect(x.text).toMatch(/\.$/);
    expect(b.map((x) => x.step)).toEqual([...b.map((x) => x.step)].sort((p, q) => p - q));
    expect(compiled.story.end).toBe(b[b.length - 1].step);
    expect(compiled.first.step).toBe(0);
    expect(compiled.first.frame.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('is plain JSON (it crosses postMessage and the build)', () => {
    expect(JSON.parse(JSON.stringify(compiled))).toEqual(compiled);
  });

  it('replays in a fresh host to the same world and frame at every beat', () => {
    expectStoryReplays(clusterFigure, compiled);
  });

  it('reaches the same beats by stepping "next event that matters" as by seeking', () => {
    const host = live();
    const seen: number[] = [];
    for (let n = 0; n < 2000; n++) {
      const v = host.handle({ op: 'next' });
      if (v.beat !== null) seen.push(v.step);
      if (v.story.ended) break;
    }
    expect(seen).toEqual(compiled.story.beats.map((b) => b.step));
  });

  it('gives the identical view after a step back and a step forward', () => {
    const host = live();
    host.handle({ op: 'seek', step: compiled.story.beats[3].step + 5 });
    const here = host.view();
    host.handle({ op: 'back' });
    const again = host.handle({ op: 'step' });
    expect(again).toEqual(here);
  });
});

describe("the cluster figure's demos", () => {
  it('Apply reaches three Running, ready pods, one per node', () => {
    const v = runDemo(fresh(), 'apply');
    const pods = webPods(v.frame);
    expect(pods.map((p) => [p.status, p.readyText])).toEqual([
      ['Running', '1/1'],
      ['Running', '1/1'],
      ['Running', '1/1'],
    ]);
    expect(new Set(pods.map((p) => p.node)).size).toBe(3);
    expect(v.frame.deployments[0].replicaSets[0].name).toMatch(/^web-[a-z0-9]+$/);
  });

  it('Scale 3 → 5 → 2 deletes the pods Kubernetes ranks first for deletion', () => {
    const host = fresh();
    runDemo(host, 'apply');
    let expected: string[] | null = null;
    runDemo(host, 'scale', (v) => {
      if (expected || !v.beat?.includes('Now down to 2')) return;
      // Just before the ReplicaSet controller acts: rank the 5 pods as replica_set.go does.
      const w = host.cluster.world.state;
      const pods = storeList(w.store, 'pods', 'default').filter((p) => !p.metadata?.deletionTimestamp);
      expected = getPodsToDelete(pods, pods, 3, rfc3339(w.now))
        .map((p) => p.metadata!.name!)
        .sort();
    });
    expect(expected).not.toBeNull();
    const left = webPods(host.view().frame).map((p) => p.name);
    expect(left).toHaveLength(2);
    for (const gone of expected!) expect(left).not.toContain(gone);
  });

  it('Self-healing replaces a deleted pod with a new name and a new IP', () => {
    const host = fresh();
    const before = webPods(runDemo(host, 'apply').frame);
    const after = webPods(runDemo(host, 'self-healing').frame).filter((p) => !p.terminating);
    expect(after).toHaveLength(3);
    const added = after.filter((p) => !before.some((b) => b.name === p.name));
    expect(added).toHaveLength(1);
    expect(before.map((p) => p.ip)).not.toContain(added[0].ip);
  });

  it('Update image never runs more than 4 pods nor fewer than 3 ready, and Roll back returns to the old ReplicaSet', () => {
    const host = fresh();
    runDemo(host, 'apply');
    const oldRS = host.view().frame.deployments[0].replicaSets[0].name;
    const check = (v: FigureView): void => {
      const pods = webPods(v.frame).filter((p) => !p.terminating);
      expect(pods.length).toBeLessThanOrEqual(4);
      expect(pods.filter((p) => p.ready).length).toBeGreaterThanOrEqual(3);
    };
    let v = runDemo(host, 'update-image', check);
    expect(webPods(v.frame).every((p) => p.image === 'nginx:1.28')).toBe(true);
    expect(v.demos.find((d) => d.id === 'update-image')!.label).toBe('Roll back');
    v = runDemo(host, 'update-image', check);
    const d = v.frame.deployments[0];
    expect(d.replicaSets.find((rs) => rs.replicas === 3)!.name).toBe(oldRS);
    expect(d.replicaSets).toHaveLength(2);
  });

  it('Node-3 dies: Unknown about 50 s later, its pods replaced about 300 s after that; Node-3 returns empty', () => {
    const host = fresh();
    runDemo(host, 'apply');
    const stoppedAt = host.view().t + 0;
    let unknownAt = 0;
    let taintedAt = 0;
    let leaseAge = 0;
    let evictedAt = 0;
    runDemo(host, 'node-3', (v) => {
      const n3 = v.frame.nodes.find((n) => n.name === 'node-3')!;
      if (!unknownAt && n3.ready === 'Unknown') {
        unknownAt = v.t;
        leaseAge = n3.leaseAgeMs ?? 0;
      }
      if (!taintedAt && n3.taints.some((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute')) {
        taintedAt = v.t;
        expect(n3.taints.map((t) => `${t.key}:${t.effect}`)).toEqual(
          expect.arrayContaining([
            'node.kubernetes.io/unreachable:NoExecute',
            'node.kubernetes.io/unreachable:NoSchedule',
          ]),
        );
      }
      if (!evictedAt && v.frame.pods.some((p) => p.node === 'node-3' && p.terminating)) evictedAt = v.t;
    });
    // 50 s (node-monitor-grace-period) after the last Lease renewal, seen at the next 5 s monitor pass;
    // that renewal came up to 10 s before the power went.
    expect(leaseAge / 1000).toBeGreaterThanOrEqual(50);
    expect(leaseAge / 1000).toBeLessThan(56);
    expect((unknownAt - stoppedAt) / 1000).toBeGreaterThanOrEqual(40);
    expect((unknownAt - stoppedAt) / 1000).toBeLessThan(56);
    // The NoExecute taint comes with the controller's next taint pass; the 300 s run from there.
    expect((taintedAt - unknownAt) / 1000).toBeLessThan(6);
    expect((evictedAt - taintedAt) / 1000).toBeGreaterThanOrEqual(300);
    expect((evictedAt - taintedAt) / 1000).toBeLessThan(302);
    let v = host.view();
    expect(webPods(v.frame).filter((p) => p.ready && !p.terminating && p.node !== 'node-3')).toHaveLength(3);
    expect(v.demos.find((d) => d.id === 'node-3')!.label).toBe('Node-3 returns');
    v = runDemo(host, 'node-3');
    expect(v.frame.nodes.find((n) => n.name === 'node-3')!.ready).toBe('True');
    expect(v.frame.pods.filter((p) => p.node === 'node-3')).toEqual([]);
  });

  it('Control plane down keeps the pods running; kubectl is refused; up again, the nodes are Ready', () => {
    const host = fresh();
    runDemo(host, 'apply');
    let v = runDemo(host, 'control-plane');
    expect(v.frame.controlPlane.apiserver).toBe(false);
    v = host.handle({ op: 'advance', ms: 120_000 })!;
    expect(webPods(v.frame).filter((p) => p.status === 'Running')).toHaveLength(3);
    v = host.handle({ op: 'demo', demo: 'scale' })!;
    expect(v.log.some((r) => r.component === 'kubectl' && r.code === 0)).toBe(true);
    v = runDemo(host, 'control-plane');
    expect(v.frame.nodes.every((n) => n.ready === 'True')).toBe(true);
  });

  it('a demo pressed mid-story diverges, and rejoin returns to the story at its last beat', () => {
    const host = live();
    const beat = compiled.story.beats[2];
    host.handle({ op: 'seek', step: beat.step + 3 });
    let v = host.handle({ op: 'demo', demo: 'node-3' });
    expect(v.story.diverged).toBe(true);
    v = host.handle({ op: 'rejoin' })!;
    expect(v.story.diverged).toBe(false);
    expect(v.step).toBe(beat.step);
    expect(host.cluster.world.hash()).toBe(beat.hash);
  });
});

describe("the figure server (the worker's handler)", () => {
  it('opens instances separately and answers errors as refusals', async () => {
    const serve = createFigureServer(FIGURES);
    const a = await reply(serve('a').open('cluster', compiled.story));
    const b = await reply(serve('b').open('cluster', compiled.story));
    expect(a.ok && b.ok).toBe(true);
    await serve('a').seek(40);
    expect((await serve('b').view()).step).toBe(0);
    expect(await reply(serve('zz').step())).toMatchObject({ ok: false, error: expect.stringMatching(/not open/) });
    expect(await reply(serve('a').open('nope', compiled.story))).toMatchObject({
      ok: false,
      error: 'no figure "nope"',
    });
    expect(
      await reply(serve('c').open('cluster', { ...compiled.story, options: { seed: 2, nodes: 3 } })),
    ).toMatchObject({ ok: false });
    expect(await reply(serve('a').demo('apply'))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/exists already/),
    });
    expect(await reply(serve('a').advance(Number.NaN))).toMatchObject({ ok: false });
    serve('a').close();
    expect(await reply(serve('a').view())).toMatchObject({ ok: false });
  });

  it('survives any sequence of requests (fuzzed): every answer is a view or a message, and the cluster keeps going', async () => {
    const op: fc.Arbitrary<FigureRequest> = fc.oneof(
      fc.constantFrom<FigureRequest>(
        { op: 'step' },
        { op: 'back' },
        { op: 'next' },
        { op: 'reset' },
        { op: 'rejoin' },
        { op: 'view' },
      ),
      fc.record({ op: fc.constant('seek' as const), step: fc.oneof(fc.integer({ min: -5, max: 400 }), fc.double()) }),
      fc.record({
        op: fc.constant('advance' as const),
        ms: fc.oneof(fc.integer({ min: 0, max: 400_000 }), fc.double()),
      }),
      fc.record({
        op: fc.constant('demo' as const),
        demo: fc.constantFrom('apply', 'scale', 'self-healing', 'update-image', 'node-3', 'control-plane', 'bogus'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        const serve = createFigureServer(FIGURES)('x');
        expect((await reply(serve.open('cluster', compiled.story))).ok).toBe(true);
        for (const o of ops) {
          const r = await ask(serve, o);
          if (r.ok) expect(JSON.parse(JSON.stringify(r.view))).toEqual(r.view);
          else expect(r.error.length).toBeGreaterThan(0);
        }
        expect((await reply(serve.advance(1000))).ok).toBe(true);
      }),
      { numRuns: runs(0.06, 15) },
    );
  }, 120_000);
});

describe('a link to the moment', () => {
  it('is answered (its encoder loaded on first use) for the current step, and decodes to the same inputs and step', async () => {
    const { decodeMoment, restoreMoment } = await import('../permalink.ts');
    const serve = createFigureServer(FIGURES)('l');
    await serve.open('cluster', compiled.story);
    const beat = compiled.story.beats[4];
    await serve.seek(beat.step);
    const r = await serve.link();
    expect(r).toMatchObject({ ok: true, step: beat.step });
    const link = r.ok ? r.value : '';
    const d = decodeMoment(link);
    expect(d.ok && d.moment.step).toBe(beat.step);
    expect(d.ok && d.moment.scenario).toBe('cluster');
    const back = d.ok ? restoreMoment(d.moment) : null;
    expect(back?.ok && back.cluster.world.hash()).toBe(beat.hash);
  });
});

describe('opening a figure at a link', () => {
  const open = (link: string) => reply(createFigureServer(FIGURES)('r').restore('cluster', compiled.story, link));
  const linkAt = async (step: number, demo?: string): Promise<string> => {
    const serve = createFigureServer(FIGURES)('x');
    await serve.open('cluster', compiled.story);
    await serve.seek(step);
    if (demo) await serve.demo(demo);
    const r = await serve.link();
    return r.ok ? r.value : '';
  };

  it('stands at the same step of the story, in the same world, as the figure the link was made from', async () => {
    const beat = compiled.story.beats[6];
    const r = await open(await linkAt(beat.step));
    expect(r.ok && r.view.step).toBe(beat.step);
    expect(r.ok && r.view.beat).toBe(beat.text);
    // It says where the link put the reader, with the beat's own words.
    expect(r.ok && r.view.notice).toBe(
      `Opened from a link at step ${beat.step.toLocaleString('en-US')} of ${(r.ok && r.view.last).toLocaleString('en-US')}: ${beat.text}`,
    );
    expect(r.ok && r.view.frame).toEqual(beat.frame);
  });

  it("replays a reader's own run (a demo pressed mid-story) to the same frame", async () => {
    const serve = createFigureServer(FIGURES)('x');
    await serve.open('cluster', compiled.story);
    await serve.seek(compiled.story.beats[2].step);
    await serve.demo('node-3');
    for (let i = 0; i < 5; i++) await serve.next();
    const here = await serve.view();
    const made = await serve.link();
    const r = await open(made.ok ? made.value : '');
    expect(r.ok && r.view.step).toBe(here.step);
    expect(r.ok && r.view.frame).toEqual(here.frame);
  });

  it("replays the link once: the events run to open it are the moment's own, not twice as many", async () => {
    const beat = compiled.story.beats[6];
    const link = await linkAt(beat.step);
    await import('../permalink.ts');
    // Count only the events opening the link runs (World.next runs one).
    const next = vi.spyOn(World.prototype, 'next');
    try {
      const r = await open(link);
      expect(r.ok && r.view.step).toBe(beat.step);
      const events = next.mock.calls.length;
      // Every event up to the moment once, as many as a figure runs to seek there (restoreMoment's
      // check and then the host's own replay ran each twice).
      const host = createFigureServer(FIGURES)('z');
      await host.open('cluster', compiled.story);
      next.mockClear();
      await host.seek(beat.step);
      const once = next.mock.calls.length;
      expect(once).toBeGreaterThan(100);
      expect(events).toBe(once);
    } finally {
      next.mockRestore();
    }
  });

  it('goes on from the link as the figure it was made from does: steps back, steps forward, a demo', async () => {
    const beat = compiled.story.beats[6];
    const r = await open(await linkAt(beat.step));
    expect(r.ok).toBe(true);
    const from = createFigureServer(FIGURES)('x');
    await from.open('cluster', compiled.story);
    await from.seek(beat.step);
    const serve = createFigureServer(FIGURES)('r');
    await serve.restore('cluster', compiled.story, await linkAt(beat.step));
    const reqs: FigureRequest[] = [
      { op: 'back' },
      { op: 'back' },
      { op: 'step' },
      { op: 'step' },
      { op: 'step' },
      { op: 'next' },
      { op: 'demo', demo: 'node-3' },
      { op: 'next' },
      { op: 'next' },
      { op: 'back' },
    ];
    for (const req of reqs) {
      const a = await ask(from, req);
      const b = await ask(serve, req);
      expect(b.ok && { step: b.view.step, last: b.view.last, beat: b.view.beat, frame: b.view.frame }, req.op).toEqual(
        a.ok && { step: a.view.step, last: a.view.last, beat: a.view.beat, frame: a.view.frame },
      );
    }
  });

  it('falls back to the start with a polite notice for a malformed, tampered, oversized or foreign link', async () => {
    const good = await linkAt(40);
    // One character changed (to one it is not already: a same-letter swap would tamper with nothing).
    const tampered = good.slice(0, -3) + (good.at(-3) === 'A' ? 'B' : 'A') + good.slice(-2);
    for (const bad of [
      '',
      'zzz',
      '<img src=x onerror=alert(1)>',
      tampered,
      'a' + 'A'.repeat(20_000),
      'a' + btoaJson([1, 'x']),
    ]) {
      const r = await open(bad);
      expect(r.ok, bad.slice(0, 20)).toBe(true);
      expect(r.ok && r.view.step).toBe(0);
      expect(r.ok && r.view.notice).toMatch(/starts from the beginning instead\.$/);
    }
    const { permalinkOf } = await import('../permalink.ts');
    const { Timeline } = await import('../time-travel.ts');
    const { createCluster } = await import('../cluster.ts');
    const foreign = permalinkOf(new Timeline(createCluster({ seed: 1, nodes: 3 })), 'scheduler');
    const r = await open(foreign.ok ? foreign.link : '');
    expect(r.ok && r.view.notice).toMatch(/another (figure|cluster)/);
  });
});

/** base64url of a JSON value, as a link body the decoder must refuse politely. */
function btoaJson(v: unknown): string {
  return Buffer.from(JSON.stringify(v)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

describe('frames the figure shows agree with the core', () => {
  it('the first view is the cluster as built', () => {
    expect(compiled.first.frame).toEqual(frameOf(fresh().cluster));
  });
});
