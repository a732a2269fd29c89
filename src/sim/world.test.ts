import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { informerHandle, listAndWatch, listerList, newInformer, type InformerState } from './client-go/informer.ts';
import { microTime } from './util/names.ts';
import type { Pod } from 'kubernetes-types/core/v1';
import { storeList } from './apiserver/store.ts';
import { pod, testWorld } from './testing/world.ts';
import { replay, World, type AnyComponentDef, type ComponentDef } from './world.ts';
import { FC_RUNS, runs } from '../test/fc.ts';

// ---- a miniature cluster: a scheduler that binds at random, kubelets that run and finish pods.

interface SchedState {
  pending: InformerState<Pod>;
}
const miniScheduler: ComponentDef<SchedState> = {
  name: 'mini-scheduler',
  identity: () => 'scheduler',
  init(ctx) {
    const s = { pending: newInformer('pending', 'pods', { fieldSelector: 'spec.nodeName=' }) };
    listAndWatch(ctx, s.pending);
    return s;
  },
  handle(ev, ctx) {
    informerHandle(ctx, ctx.state.pending, ev, {
      add: (p) => {
        ctx.schedule(ctx.rng.jitter(1, 20), { type: 'schedule', ns: p.metadata!.namespace, name: p.metadata!.name });
      },
    });
    const e = ev as { type: string; ns: string; name: string };
    if (e.type === 'schedule') ctx.api.bind(e.ns, e.name, ctx.rng.pick(['node-1', 'node-2', 'node-3']));
  },
};

interface KubeletState {
  pods: InformerState<Pod>;
  node: string;
}
const miniKubelet: ComponentDef<KubeletState> = {
  name: 'mini-kubelet',
  init(ctx) {
    const node = ctx.name.split('/')[1];
    const s = { node, pods: newInformer('pods', 'pods', { fieldSelector: `spec.nodeName=${node}` }) };
    ctx.api.create(
      'leases',
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: node, namespace: 'kube-node-lease' },
        spec: { holderIdentity: node, leaseDurationSeconds: 40, renewTime: microTime(ctx.now) },
      },
      'kube-node-lease',
    );
    ctx.schedule(10_000, { type: 'renew' }, { recurring: true });
    listAndWatch(ctx, s.pods);
    return s;
  },
  handle(ev, ctx) {
    const s = ctx.state;
    const seen = (p: Pod) => {
      const md = p.metadata!;
      if (md.deletionTimestamp)
        ctx.schedule(ctx.rng.jitter(100, 2000), { type: 'kill', ns: md.namespace, name: md.name });
      else if (p.status?.phase === 'Pending')
        ctx.schedule(ctx.rng.jitter(500, 3000), { type: 'start', ns: md.namespace, name: md.name });
    };
    if (informerHandle(ctx, s.pods, ev, { add: seen, update: (_o, n) => seen(n) })) return;
    const e = ev as { type: string; ns: string; name: string };
    if (e.type === 'renew') {
      ctx.api.patch('leases', 'kube-node-lease', s.node, { spec: { renewTime: microTime(ctx.now) } });
      ctx.schedule(10_000, { type: 'renew' }, { recurring: true });
    } else if (e.type === 'start') {
      ctx.api.patch('pods', e.ns, e.name, { status: { phase: 'Running' } }, 'status');
    } else if (e.type === 'kill') {
      ctx.api.delete('pods', e.ns, e.name, { gracePeriodSeconds: 0 });
    }
  },
};

const DEFS: AnyComponentDef[] = [miniScheduler, miniKubelet];

function build(seed: number): World {
  const w = testWorld({ seed }, DEFS);
  w.addComponent('scheduler', 'mini-scheduler');
  for (const n of ['node-1', 'node-2', 'node-3']) w.addComponent(`kubelet/${n}`, 'mini-kubelet');
  return w;
}

function scenario(w: World, until: number): void {
  for (let i = 0; i < 6; i++) {
    w.kubectl({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: {
        metadata: { generateName: 'web-7c5ddbdf54-', labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    });
    w.advance(700);
  }
  w.advance(5_000);
  const first = storeList(w.state.store, 'pods', 'default')[0];
  w.kubectl({ verb: 'delete', resource: 'pods', namespace: 'default', name: first.metadata!.name! });
  w.fault({ type: 'api-latency', ms: 50 });
  w.advance(3_000);
  w.fault({ type: 'api-latency', ms: 0 });
  w.runUntil(until);
}

describe('world', () => {
  it('runs the mini cluster: pods get bound and run', () => {
    const w = build(1);
    scenario(w, 60_000);
    const pods = storeList(w.state.store, 'pods', 'default');
    expect(pods).toHaveLength(5);
    expect(
      pods.every(
        (p) => (p.status as { phase: string }).phase === 'Running' && (p.spec as { nodeName?: string }).nodeName,
      ),
    ).toBe(true);
    expect(w.state.log.some((r) => r.kind === 'watch' && r.component === 'scheduler')).toBe(true);
  });
  it('same seed and inputs ⇒ byte-identical store and log; different seeds differ', () => {
    const a = build(7);
    scenario(a, 60_000);
    const b = build(7);
    scenario(b, 60_000);
    expect(JSON.stringify(a.state.store)).toBe(JSON.stringify(b.state.store));
    expect(JSON.stringify(a.state.log)).toBe(JSON.stringify(b.state.log));
    expect(a.hash()).toBe(b.hash());
    const c = build(8);
    scenario(c, 60_000);
    expect(c.hash()).not.toBe(a.hash());
    const names = (w: World) =>
      storeList(w.state.store, 'pods', 'default')
        .map((p) => p.metadata!.name)
        .sort();
    expect(names(c)).not.toEqual(names(a));
  });
  it('snapshot → restore → continue equals running straight through', () => {
    const straight = build(3);
    scenario(straight, 90_000);
    const w = build(3);
    scenario(w, 30_000);
    const snap = w.snapshot();
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap); // plain data
    w.runUntil(50_000); // wander off
    w.restore(snap);
    w.runUntil(90_000);
    expect(w.hash()).toBe(straight.hash());
    const fresh = new World({}, DEFS);
    fresh.restore(snap);
    fresh.runUntil(90_000);
    expect(fresh.hash()).toBe(straight.hash());
    const fromJson = new World({}, DEFS); // a permalink would carry JSON, not a structured clone
    fromJson.restore(JSON.parse(JSON.stringify(snap)));
    fromJson.runUntil(90_000);
    expect(fromJson.hash()).toBe(straight.hash());
  });
  it('replay(inputs, seed, t) rebuilds the same state', () => {
    const w = build(5);
    scenario(w, 40_000);
    w.step();
    w.step(); // inputs after partial steps are placed exactly
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('late') });
    w.runUntil(70_000);
    const r = replay(w.state.inputs, { seed: 5 }, DEFS, 70_000);
    expect(r.hash()).toBe(w.hash());
    expect(JSON.stringify(r.state.inputs)).toBe(JSON.stringify(w.state.inputs));
  });
  it('settle stops when only recurring timers remain', () => {
    const w = build(1);
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    expect(w.settle(60_000)).toBe(true);
    expect(w.state.queue.pending).toBe(0);
    expect(w.state.queue.heap.length).toBeGreaterThan(0); // lease renewals and compaction remain
    expect((storeList(w.state.store, 'pods', 'default')[0].status as { phase: string }).phase).toBe('Running');
    expect(w.now).toBeLessThan(10_000);
  });
  it('step returns what happened', () => {
    const w = build(1);
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
    const s = w.step()!;
    expect(s.target).toBe('scheduler');
    expect((s.event as { type: string }).type).toBe('watch');
  });
});

// ---- property: random writes, watches and outages; revisions increase and resumed watches miss nothing.

interface WatchState {
  inf: InformerState<Pod>;
}
const watcher: ComponentDef<WatchState> = {
  name: 'watcher',
  identity: () => 'kubectl',
  init(ctx) {
    const s = { inf: newInformer('inf', 'pods', ctx.params as { labelSelector?: string; fieldSelector?: string }) };
    listAndWatch(ctx, s.inf);
    return s;
  },
  handle(ev, ctx) {
    informerHandle(ctx, ctx.state.inf, ev);
  },
};

type Op =
  | { op: 'create'; name: number; label: number }
  | { op: 'label'; name: number; label: number }
  | { op: 'bind'; name: number; node: number }
  | { op: 'delete'; name: number; grace: boolean }
  | { op: 'advance'; ms: number }
  | { op: 'down' }
  | { op: 'up' }
  | { op: 'full' }
  | { op: 'freed' }
  | { op: 'watch'; from: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), name: fc.nat(5), label: fc.nat(2) }),
  fc.record({ op: fc.constant('label' as const), name: fc.nat(5), label: fc.nat(2) }),
  fc.record({ op: fc.constant('bind' as const), name: fc.nat(5), node: fc.nat(1) }),
  fc.record({ op: fc.constant('delete' as const), name: fc.nat(5), grace: fc.boolean() }),
  fc.record({
    op: fc.constant('advance' as const),
    ms: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1000, max: 400_000 })),
  }),
  fc.constant({ op: 'down' as const }),
  fc.constant({ op: 'up' as const }),
  fc.constant({ op: 'full' as const }),
  fc.constant({ op: 'freed' as const }),
  fc.record({ op: fc.constant('watch' as const), from: fc.integer({ min: 1, max: 40 }) }), // "0" means "from now, with synthetic ADDED"
);

describe('property: store and watches', () => {
  it(
    'revisions strictly increase and informers end equal to the store',
    () => {
      fc.assert(
        fc.property(fc.array(opArb, { maxLength: 40 }), fc.nat(1000), (ops, seed) => {
          const w = testWorld({ seed }, [watcher]);
          const selectors = [
            {},
            { labelSelector: 'app=l1' },
            { fieldSelector: 'spec.nodeName=node-1' },
            { fieldSelector: 'spec.nodeName=' },
          ];
          selectors.forEach((p, i) => w.addComponent(`watcher-${i}`, 'watcher', { params: p }));
          const rawWatches: { id: string; from: number }[] = [];
          w.addComponent('raw', 'watcher', { params: {} });
          for (const o of ops) {
            const ns = 'default';
            const up = () => !w.state.apiServer.faults.apiServerDown;
            switch (o.op) {
              case 'create':
                w.kubectl({
                  verb: 'create',
                  resource: 'pods',
                  namespace: ns,
                  body: pod(`p${o.name}`, { app: `l${o.label}` }),
                });
                break;
              case 'label':
                w.kubectl({
                  verb: 'patch',
                  resource: 'pods',
                  namespace: ns,
                  name: `p${o.name}`,
                  body: { metadata: { labels: { app: `l${o.label}` } } },
                });
                break;
              case 'bind':
                w.kubectl({
                  verb: 'create',
                  resource: 'pods',
                  namespace: ns,
                  name: `p${o.name}`,
                  subresource: 'binding',
                  body: { target: { name: `node-${o.node + 1}` } },
                });
                break;
              case 'delete':
                w.kubectl({
                  verb: 'delete',
                  resource: 'pods',
                  namespace: ns,
                  name: `p${o.name}`,
                  options: o.grace ? {} : { gracePeriodSeconds: 0 },
                });
                break;
              case 'advance':
                w.advance(o.ms);
                break;
              case 'down':
                w.fault({ type: 'apiserver-down' });
                break;
              case 'up':
                w.fault({ type: 'apiserver-up' });
                break;
              case 'full':
                w.fault({ type: 'etcd-full' });
                break;
              case 'freed':
                w.fault({ type: 'etcd-space-freed' });
                break;
              case 'watch':
                if (up()) {
                  const r = w.ctx('raw').watch('pods', { resourceVersion: String(o.from) });
                  if (r.ok) rawWatches.push({ id: r.object.watchId, from: o.from });
                  else if (r.code !== 410 || o.from >= w.state.store.compactedRevision) return false;
                }
                break;
            }
          }
          w.fault({ type: 'apiserver-up' });
          w.settle(10 * 60_000);
          // Revisions of successful writes in the log strictly increase.
          const revs = w.state.log
            .filter((r) => r.kind === 'request' && r.revision !== undefined)
            .map((r) => r.revision!);
          for (let i = 1; i < revs.length; i++) if (revs[i] <= revs[i - 1]) return false;
          // Every object's resourceVersion is its last write's revision and ≤ the global revision.
          for (const p of storeList(w.state.store, 'pods'))
            if (Number(p.metadata!.resourceVersion) > w.state.store.revision) return false;
          // Each informer's cache equals the store filtered by its selector, at the same resourceVersions.
          for (let i = 0; i < selectors.length; i++) {
            const inf = (w.state.components[`watcher-${i}`].state as WatchState).inf;
            const sel = selectors[i] as { labelSelector?: string; fieldSelector?: string };
            const want = storeList(w.state.store, 'pods').filter(
              (p) =>
                (!sel.labelSelector || (p.metadata!.labels as Record<string, string>)?.app === 'l1') &&
                (!sel.fieldSelector ||
                  ((p.spec as { nodeName?: string }).nodeName ?? '') === sel.fieldSelector.split('=')[1]),
            );
            const got = listerList(inf);
            if (
              JSON.stringify(got.map((p) => [p.metadata!.name, p.metadata!.resourceVersion])) !==
              JSON.stringify(want.map((p) => [p.metadata!.name, p.metadata!.resourceVersion]))
            )
              return false;
          }
          // Raw watches that stayed open received, in order, exactly the pod events after their start revision.
          const delivered: Record<string, number[]> = {};
          for (const r of w.state.log)
            if (r.kind === 'watch' && r.component === 'raw' && r.watcher)
              (delivered[r.watcher] ??= []).push(r.revision!);
          for (const rw of rawWatches) {
            if (!w.state.apiServer.watchers[rw.id]) continue; // broken by an outage
            const expected = w.state.log
              .filter(
                (r) =>
                  r.kind === 'request' && r.revision !== undefined && r.revision > rw.from && r.path.includes('/pods'),
              )
              .map((r) => r.revision!);
            if (JSON.stringify(delivered[rw.id] ?? []) !== JSON.stringify(expected)) return false;
          }
          return true;
        }),
        { numRuns: runs(1) },
      );
    },
    Math.max(30_000, FC_RUNS * 30),
  );
});

describe('bounded request log', () => {
  it('keeps at most a quarter over its limit, drops the oldest, counts them, and replays identically', async () => {
    const { createCluster, replayCluster } = await import('./cluster.ts');
    const { runKubectl } = await import('./kubectl/kubectl.ts');
    const { logCount } = await import('./world.ts');
    const full = createCluster({ seed: 1, logLimit: 0 });
    const small = createCluster({ seed: 1, logLimit: 100 });
    for (const c of [full, small]) {
      runKubectl(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=3');
      c.advance(60_000);
    }
    expect(full.world.state.logDropped).toBeUndefined();
    expect(full.log.length).toBeGreaterThan(200);
    expect(small.log.length).toBeLessThanOrEqual(125);
    expect(logCount(small.world.state)).toBe(full.log.length);
    // The kept records are exactly the newest of the full log; the store is the same.
    expect(small.log).toEqual(full.log.slice(full.log.length - small.log.length));
    expect(JSON.stringify(small.world.state.store.objects)).toBe(JSON.stringify(full.world.state.store.objects));
    expect(small.world.hash()).not.toBe(full.world.hash()); // the hash covers what is kept, and the count
    const again = replayCluster({ seed: 1, logLimit: 100 }, small.world.state.inputs, small.now);
    expect(again.world.hash()).toBe(small.world.hash());
  });

  it('the default keeps every record of a chapter-sized run', async () => {
    const { createCluster } = await import('./cluster.ts');
    const c = createCluster({ seed: 1 });
    expect(c.world.state.logLimit).toBe(200_000);
    c.advance(10 * 60_000);
    expect(c.world.state.logDropped).toBeUndefined();
  });
});

describe('snapshots (copyState)', () => {
  it('copy everything but share the append-only log records: a snapshot keeps its own log array and state', () => {
    const w = testWorld();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('a') });
    const snap = w.snapshot();
    expect(snap.log).not.toBe(w.state.log);
    expect(snap.log[0]).toBe(w.state.log[0]);
    expect(snap.store).not.toBe(w.state.store);
    const n = snap.log.length;
    const hash = w.hash();
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('b') });
    expect(snap.log.length).toBe(n);
    w.restore(snap);
    expect(w.hash()).toBe(hash);
    // The restored state has an array of its own: running on does not reach back into the snapshot.
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('c') });
    expect(snap.log.length).toBe(n);
    expect(Object.keys(w.snapshot())).toEqual(Object.keys(w.state));
  });
});

// ---- what woke a write: each request a sync sends is noted with the notification that woke it.

describe('causes (the notification that woke a sync)', async () => {
  const { createCluster, replayCluster } = await import('./cluster.ts');
  const { runKubectl } = await import('./kubectl/kubectl.ts');
  const { causeOf } = await import('./request-log.ts');
  const { logCount } = await import('./world.ts');
  type C = ReturnType<typeof createCluster>;
  /** A settled cluster, then `kubectl create deployment web` and 20 s; returns the position the create was logged at. */
  function withWeb(opts: Parameters<typeof createCluster>[0] = {}): { c: C; from: number } {
    const c = createCluster({ seed: 3, ...opts });
    c.advance(10_000);
    const from = logCount(c.world.state);
    expect(runKubectl(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=2').exitCode).toBe(0);
    c.advance(20_000);
    return { c, from };
  }
  const at = (c: C, seq: number) => c.world.state.log[seq - (c.world.state.logDropped ?? 0)];
  const seqs = (c: C, from: number, pred: (r: C['world']['state']['log'][number]) => boolean) => {
    const out: number[] = [];
    for (let s = from; s < logCount(c.world.state); s++) if (pred(at(c, s))) out.push(s);
    return out;
  };

  it("marks the ReplicaSet controller's pod creates with the ReplicaSet's ADDED notification, and the Deployment controller's ReplicaSet create with the Deployment's", () => {
    const { c, from } = withWeb();
    const causes = c.world.state.causes;
    const creates = seqs(
      c,
      from,
      (r) => r.component === 'replicaset-controller' && r.verb === 'POST' && r.path.endsWith('/pods'),
    );
    expect(creates).toHaveLength(2);
    for (const s of creates) {
      const cause = at(c, causeOf(causes, s)!);
      expect(cause).toMatchObject({ kind: 'watch', event: 'ADDED', component: 'kube-controller-manager' });
      expect(cause.object).toMatch(/^replicasets\/default\/web-/);
    }
    const [rsCreate] = seqs(
      c,
      from,
      (r) => r.component === 'deployment-controller' && r.verb === 'POST' && r.path.endsWith('/replicasets'),
    );
    expect(at(c, causeOf(causes, rsCreate)!)).toMatchObject({
      kind: 'watch',
      event: 'ADDED',
      object: 'deployments/default/web',
    });
  });

  it("marks the scheduler's bindings with the pod's ADDED notification and the kubelet's first sandbox with the bound pod's", () => {
    const { c, from } = withWeb();
    const causes = c.world.state.causes;
    const binds = seqs(c, from, (r) => r.component === 'scheduler' && r.path.endsWith('/binding'));
    expect(binds).toHaveLength(2);
    for (const s of binds) {
      const cause = at(c, causeOf(causes, s)!);
      expect(cause).toMatchObject({ kind: 'watch', event: 'ADDED', component: 'scheduler' });
      expect(at(c, s).path).toContain(cause.object!.slice('pods/default/'.length));
    }
    for (const s of seqs(c, from, (r) => r.kind === 'cri' && r.verb === 'RunPodSandbox')) {
      const cause = at(c, causeOf(causes, s)!);
      expect(cause.component).toBe(`kubelet/${at(c, s).component.slice('containerd/'.length)}`);
      expect(cause.object).toBe(at(c, s).object);
    }
  });

  it('gives timer-driven writes (Lease renewals, node status, a pull finishing) no cause, and every cause is an earlier watch notification', () => {
    const { c, from } = withWeb();
    const causes = c.world.state.causes!;
    expect(causes.length).toBeGreaterThan(0);
    for (const s of seqs(
      c,
      from,
      (r) =>
        r.component.startsWith('kubelet/') &&
        r.kind === 'request' &&
        (r.path.includes('/leases/') || r.path.includes('/nodes/')),
    )) {
      expect(causeOf(causes, s)).toBeUndefined();
    }
    for (const s of seqs(c, from, (r) => r.kind === 'cri' && (r.verb === 'PullImage' || r.verb === 'StartContainer')))
      expect(causeOf(causes, s)).toBeUndefined();
    for (let i = 0; i < causes.length; i += 2) {
      expect(causes[i + 1]).toBeLessThan(causes[i]);
      expect(at(c, causes[i + 1]).kind).toBe('watch');
      if (i > 0) expect(causes[i]).toBeGreaterThan(causes[i - 2]);
    }
  });

  it('leaves world.hash() as it would be without them, and survives snapshot/restore, replay and a trimmed log', () => {
    const { c } = withWeb();
    const causes = c.world.state.causes!.slice();
    const snap = c.world.snapshot();
    expect(snap.causes).toEqual(causes);
    const hash = c.world.hash();
    c.advance(5_000);
    c.world.restore(snap);
    expect(c.world.state.causes).toEqual(causes);
    expect(c.world.hash()).toBe(hash);
    const { causes: _dropped, ...without } = snap;
    const bare = createCluster({ seed: 3 });
    bare.world.restore(without);
    expect(bare.world.hash()).toBe(hash);
    const again = replayCluster({ seed: 3 }, c.world.state.inputs, c.now);
    expect(again.world.state.causes).toEqual(causes);
    // A log kept short keeps the causes of the records it still has, at the same positions.
    const { c: short } = withWeb({ logLimit: 100 });
    const kept = short.world.state.causes!;
    expect(kept.length).toBeGreaterThan(0);
    expect(kept[0]).toBeGreaterThanOrEqual(short.world.state.logDropped!);
    for (let i = 0; i < kept.length; i += 2) expect(causeOf(causes, kept[i])).toBe(kept[i + 1]);
  });
});
