// Benchmarks of the simulation core (`npm run bench`). Prints figures; asserts nothing. Run on an
// idle machine: wall-clock numbers are the machine's, simulated times are the model's.
//   node scripts/bench.ts [--quick] [--scale-limit-seconds N] [--scale NODES:PODS [--hash]]
// --scale runs only that size; --hash then prints a hash of the final store, log, clock and rng, so a
// speed-up can be checked to leave a big run byte-identical (world.hash() is too big for one string).
import type { Deployment } from 'kubernetes-types/apps/v1';
import {
  compileFigure,
  createCluster,
  FigureHost,
  fnv1a32Chars,
  loadAllFigures,
  replayCluster,
  Timeline,
  type Cluster,
  type FigureRequest,
} from '../src/sim/index.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const scaleLimitSeconds = Number(args[args.indexOf('--scale-limit-seconds') + 1]) || 120;
const only = args.includes('--scale') ? args[args.indexOf('--scale') + 1].split(':').map(Number) : undefined;
const withHash = args.includes('--hash');

const ms = (t0: number) => performance.now() - t0;
const fmt = (n: number, d = 1) => n.toFixed(d);
const mb = (b: number) => `${fmt(b / 1024 / 1024, 0)} MB`;

/** A Deployment manifest with the given replicas and a small CPU request. */
function deployment(name: string, replicas: number, image = 'nginx:1.27', cpu = '10m'): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image, resources: { requests: { cpu, memory: '16Mi' } } }] },
      },
    },
  };
}

function apply(c: Cluster, d: Deployment): void {
  const r = c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: d });
  if (!r.ok) throw new Error(`create ${d.metadata?.name}: ${r.status.message}`);
}

/** Pods in phase Running with every container ready, and the total. */
function podCounts(c: Cluster): { running: number; total: number } {
  let running = 0;
  let total = 0;
  for (const o of Object.values(c.world.state.store.objects.pods ?? {})) {
    total++;
    const p = o as { status?: { phase?: string; conditions?: { type: string; status: string }[] } };
    if (p.status?.phase === 'Running' && p.status.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'))
      running++;
  }
  return { running, total };
}

function line(label: string, value: string): void {
  console.log(`  ${label.padEnd(52)} ${value}`);
}

function scenario(name: string, run: (c: Cluster) => void): Cluster {
  const c = createCluster({ seed: 1 });
  const t0 = performance.now();
  run(c);
  line(
    name,
    `${fmt(ms(t0))} ms wall, ${fmt(c.now / 1000)} s simulated, ${c.log.length} log records, revision ${c.world.state.store.revision}`,
  );
  return c;
}

if (!only) {
  console.log('Chapter scenarios (three nodes, seed 1)');
  scenario('reconcile-loop: create web ×3, settle', (c) => {
    apply(c, deployment('web', 3));
    c.settle();
  });
  scenario('reconcile-loop: scale to 6, delete a pod, settle', (c) => {
    apply(c, deployment('web', 3));
    c.settle();
    c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      subresource: 'scale',
      body: { spec: { replicas: 6 } },
    });
    c.settle();
    const pod = Object.keys(c.world.state.store.objects.pods ?? {})
      .find((k) => k.startsWith('/registry/pods/default/web-'))!
      .split('/')
      .pop()!;
    c.request({ verb: 'delete', resource: 'pods', namespace: 'default', name: pod });
    c.settle();
  });
  scenario('rolling-updates: set image, roll out, undo', (c) => {
    apply(c, deployment('web', 3));
    c.settle();
    c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } },
    });
    c.settle();
    c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } } },
    });
    c.settle();
  });
  scenario('node-failure: node-2 off, 7 minutes', (c) => {
    apply(c, deployment('web', 6));
    c.settle();
    c.node('node-2', 'stop');
    c.advance(7 * 60_000);
  });
  scenario('control-plane-outage: 3 minutes down, back up', (c) => {
    apply(c, deployment('web', 3));
    c.settle();
    c.controlPlane('stop');
    c.advance(3 * 60_000);
    c.controlPlane('start');
    c.settle();
  });

  console.log('\nStepping back: replay of a three-node demo (web ×3, 10 simulated minutes)');
  {
    const demo = createCluster({ seed: 1 });
    apply(demo, deployment('web', 3));
    demo.advance(10 * 60_000);
    const inputs = demo.world.state.inputs;
    const until = demo.now;
    const hash = demo.world.hash();
    const times: number[] = [];
    let same = true;
    // The first replays in a fresh process run before V8 has optimised the core (the JIT needs a few
    // tens of thousands of events); a page that time-travels has been running its figure for a while.
    // Report the first one apart and take the median once the code is hot.
    const warmup = quick ? 5 : 10;
    for (let i = 0; i < warmup + (quick ? 5 : 21); i++) {
      const t0 = performance.now();
      const r = replayCluster({ seed: 1 }, inputs, until);
      times.push(ms(t0));
      same &&= r.world.hash() === hash;
    }
    const first = times[0];
    const warm = times.slice(warmup).sort((a, b) => a - b);
    line('events in the demo', String(demo.world.state.steps));
    line('replay 10 simulated minutes (first, unoptimised JIT)', `${fmt(first, 2)} ms`);
    line(
      `replay 10 simulated minutes (median after ${warmup})`,
      `${fmt(warm[warm.length >> 1], 2)} ms (target ≤ 10 ms)`,
    );
    line('replayed state identical to the original', same ? 'yes' : 'NO');
    // What a figure actually does on "step back": restore the nearest snapshot and replay to the step.
    const tl = new Timeline(createCluster({ seed: 1 }));
    tl.apply((c) => apply(c, deployment('web', 3)));
    tl.advance(10 * 60_000);
    const backs: number[] = [];
    for (let i = 0; i < 41; i++) {
      tl.seek(tl.length - 1);
      const t0 = performance.now();
      tl.back();
      backs.push(ms(t0));
    }
    backs.sort((a, b) => a - b);
    line(
      'a figure steps back one step at the end (median)',
      `${fmt(backs[backs.length >> 1], 2)} ms (snapshot every 64 events, then replay)`,
    );
    const snap = performance.now();
    const s = demo.snapshot();
    line('snapshot (plain-data copy, clonePlain)', `${fmt(ms(snap), 2)} ms`);
    const rs = performance.now();
    demo.restore(s);
    line('restore', `${fmt(ms(rs), 2)} ms`);
  }
}

/** The world's hash, chained over objects and log records (one JSON string of it would not fit). */
function bigHash(c: Cluster): string {
  const w = c.world.state;
  let h = fnv1a32Chars(JSON.stringify({ now: w.now, rng: w.rng, revision: w.store.revision }));
  for (const [resource, objs] of Object.entries(w.store.objects)) h = fnv1a32Chars(resource + JSON.stringify(objs), h);
  for (const r of w.log) h = fnv1a32Chars(JSON.stringify(r), h);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Apply `pods` replicas across `nodes` nodes and run until all are Running; null if out of time. */
/** Client limits no burst of a scale run exhausts (see scaleRun). */
const UNTHROTTLED = Object.fromEntries(
  ['replicaset-controller', 'scheduler', 'kubelet'].map((t) => [t, { qps: 1e6, burst: 1e6 }]),
);

function scaleRun(
  nodes: number,
  pods: number,
  limitSeconds: number,
): {
  setupMs: number;
  wallMs: number;
  simMs: number;
  rss: number;
  running: number;
  steps: number;
  hash?: string;
} | null {
  // The cluster is built and its nodes registered first (timed apart); the clock for "apply to all
  // Running" starts at the first apply.
  const s0 = performance.now();
  // The scale runs measure the core's speed, so the clients' limits are raised out of the way, as a
  // real scale test raises --kube-api-qps/--kube-api-burst: at the real defaults (the controller
  // manager's 20/30) 30,000 pods take 25 minutes of simulated time, mostly heartbeats.
  const c = createCluster({ seed: 1, nodes, clientLimits: UNTHROTTLED });
  c.advance(1_000);
  const setupMs = ms(s0);
  const t0 = performance.now();
  // The bench's own once-a-simulated-second scan of every pod is not the simulator's work: keep it out.
  let scanMs = 0;
  const perDeployment = 1000;
  for (let i = 0; i * perDeployment < pods; i++)
    apply(c, deployment(`app-${i}`, Math.min(perDeployment, pods - i * perDeployment)));
  let peak = process.memoryUsage().rss;
  for (;;) {
    c.advance(1_000);
    const scan = performance.now();
    peak = Math.max(peak, process.memoryUsage().rss);
    const { running } = podCounts(c);
    scanMs += ms(scan);
    const wallMs = ms(t0) - scanMs;
    if (running >= pods)
      return {
        setupMs,
        wallMs,
        simMs: c.now,
        rss: peak,
        running,
        steps: c.world.state.steps,
        hash: withHash ? bigHash(c) : undefined,
      };
    if (wallMs > limitSeconds * 1000) {
      line(
        `${nodes} nodes, ${pods} pods: stopped after ${limitSeconds} s wall`,
        `${running}/${pods} Running at ${fmt(c.now / 1000)} s simulated, ${c.world.state.steps} events, peak RSS ${mb(peak)}`,
      );
      return null;
    }
  }
}

console.log('\nFigures: how long the worker takes to answer (the same FigureHost the worker runs)');
// A figure's worker must answer a step within 16 ms (one frame at 60 Hz) at the 95th percentile.
for (const def of await loadAllFigures()) {
  const c0 = performance.now();
  const compiled = compileFigure(def);
  line(
    `${def.id}: compile the story (build time)`,
    `${fmt(ms(c0))} ms, ${compiled.story.beats.length} beats over ${compiled.story.end} steps`,
  );
  const host = new FigureHost(def, compiled.story);
  const times: Record<string, number[]> = {};
  const time = (req: FigureRequest): void => {
    const t = performance.now();
    host.handle(req);
    (times[req.op] ??= []).push(ms(t));
  };
  // Play the story through as a reader would: steps, the odd step back, next-that-matters, seeks.
  for (let i = 0; i < compiled.story.end; i++) {
    time({ op: 'step' });
    if (i % 7 === 3) {
      time({ op: 'back' });
      time({ op: 'step' });
    }
  }
  for (let i = 0; i < 40; i++) time({ op: 'seek', step: (i * 7919) % compiled.story.end });
  time({ op: 'seek', step: compiled.story.end });
  for (const d of def.demos) {
    if (!host.view().demos.find((b) => b.id === d.id)?.enabled) continue;
    time({ op: 'demo', demo: d.id });
    for (let i = 0; i < 30; i++) time({ op: 'next' });
  }
  for (let i = 0; i < 50; i++) time({ op: 'advance', ms: 1000 });
  for (const [op, xs] of Object.entries(times)) {
    const sorted = [...xs].sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    line(
      `${def.id}: ${op} (${xs.length}×)`,
      `p50 ${fmt(p(0.5), 2)} ms, p95 ${fmt(p(0.95), 2)} ms, max ${fmt(sorted[sorted.length - 1], 2)} ms${op === 'step' ? ' (target p95 ≤ 16 ms)' : ''}`,
    );
  }
}

console.log('\nScale: apply to all Running (client rate limits raised, as a scale test raises --kube-api-qps)');
// Every size runs (a size that runs out of time reports how far it got), so the figures show the trend.
for (const [nodes, pods] of only
  ? [only]
  : quick
    ? [[100, 3000]]
    : [
        [1000, 30000],
        [2000, 60000],
        [5000, 150000],
      ]) {
  const r = scaleRun(nodes, pods, scaleLimitSeconds);
  if (!r) continue;
  line(
    `${nodes} nodes, ${pods} pods`,
    `${fmt(r.wallMs / 1000, 2)} s wall (cluster built in ${fmt(r.setupMs / 1000, 2)} s before), ${fmt(r.simMs / 1000)} s simulated, ${r.steps} events, peak RSS ${mb(r.rss)}${nodes === 1000 ? ' (target ≤ 5 s, ≤ 1 GB)' : ''}${r.hash ? `, hash ${r.hash}` : ''}`,
  );
}
