// The peer in the benchmark (`npm run bench`, between the core's and the browser's): the one other
// project that runs Kubernetes' controllers in the browser, @ngrok/webernetes (a devDependency, at an
// exact version). Two comparisons, printed with their ratios and written to reports/bench-peer.json:
// - bytes: the peer bundled by esbuild (minified, ESM, browser platform, its `Cluster`: the entry a
//   cluster plus a Deployment needs, since its Cluster registers its Deployment and ReplicaSet
//   controllers itself) against our worker chunk and the chunks it imports statically (from dist/,
//   what every figure page's worker loads before it runs), both gzip -9;
// - time, in Node: the same workload on both (a three-replica Deployment on three nodes until every
//   pod is Ready; scaled to 100; on ten nodes scaled to 1,000), wall time from the request to the
//   last pod Ready, without the bench's own polling of the pods.
//   node scripts/bench-peer.ts [--limit-seconds N] [--runs N] [--only K]   (K: run only the K-th workload, 1–3)
// Prints figures and asserts nothing, like the rest of the bench.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Deployment } from 'kubernetes-types/apps/v1';
import { createCluster, type Cluster } from '../src/sim/index.ts';
import { lazyImports, moduleGraph } from './lib/module-graph.mjs';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number): number =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const limitSeconds = opt('--limit-seconds', 120);
const runs = Math.max(1, opt('--runs', 3));
const only = opt('--only', 0);
const PEER = '@ngrok/webernetes';
const peerVersion = (JSON.parse(readFileSync(`node_modules/${PEER}/package.json`, 'utf8')) as { version: string })
  .version;

const KB = 1024;
const gz = (b: Buffer | string): number => gzipSync(b, { level: 9 }).length;
const fmt = (n: number, d = 1): string => n.toFixed(d);
const kb = (b: number): string => `${fmt(b / KB)} KB (${b} B)`;
const line = (label: string, value: string): void => console.log(`  ${label.padEnd(56)} ${value}`);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
/** How long the bench lets the event loop run between two 100 ms steps of the peer's paused clock. */
const turn = (): Promise<void> =>
  new Promise((r) => {
    setImmediate(r);
  });
/** Both sides move their clock 100 simulated ms between two looks at the pods. */
const SLICE_MS = 100;

// ——— bytes ———

console.log(`\nThe peer: ${PEER} ${peerVersion}`);
const outDir = join(tmpdir(), 'desired-state-bench');
mkdirSync(outDir, { recursive: true });
const peerBundle = join(outDir, `webernetes-${peerVersion}.mjs`);
await build({
  stdin: {
    contents: `export { Cluster } from '${PEER}';\n`,
    resolveDir: process.cwd(),
    loader: 'js',
    sourcefile: 'peer-entry.js',
  },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  outfile: peerBundle,
  logLevel: 'error',
});
const peerBytes = gz(readFileSync(peerBundle));
const astro = join('dist', '_astro');
const workerFile = existsSync(astro) ? readdirSync(astro).find((f) => /^core\.worker-.*\.js$/.test(f)) : undefined;
const sum = (files: Iterable<string>): number => [...files].reduce((n, f) => n + gz(readFileSync(f)), 0);
let ours: { worker: string; bytes: number; withClusterFigure: number } | null = null;
console.log('Bytes (gzip -9)');
line(`the peer's bundle (esbuild: ${PEER}'s Cluster, minified ESM)`, kb(peerBytes));
if (workerFile) {
  const core = moduleGraph(join(astro, workerFile));
  // The cluster figure's own definition, which the worker loads when a page opens it: a cluster plus a Deployment, told as a story.
  const figure = lazyImports(join(astro, workerFile)).find((f) => /\/cluster-figure-[^/]*\.js$/.test(f));
  const extra = figure ? sum([...moduleGraph(figure)].filter((f) => !core.has(f))) : 0;
  ours = { worker: workerFile, bytes: sum(core), withClusterFigure: sum(core) + extra };
  line(`our worker chunk (dist/_astro/${workerFile}, ${core.size} files)`, kb(ours.bytes));
  line("ratio ours / the peer's", `${fmt(ours.bytes / peerBytes, 3)} (goal ≤ 0.65)`);
  line(
    "our worker with the cluster figure's own chunk",
    `${kb(ours.withClusterFigure)}, ratio ${fmt(ours.withClusterFigure / peerBytes, 3)}`,
  );
} else {
  line('our worker chunk', 'not measured: no built site (run npm run build first)');
}

// ——— time ———

/** A Deployment as both sides take it (the peer runs only images it knows: its pause image on both). */
function deployment(name: string, replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'registry.k8s.io/pause:3.10',
              resources: { requests: { cpu: '10m', memory: '16Mi' } },
            },
          ],
        },
      },
    },
  };
}

type PodLike = { status?: { conditions?: { type: string; status: string }[] } };
const isReady = (p: PodLike): boolean =>
  p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True') ?? false;

/** One side of the comparison: build a cluster, ask for something, move its clock, count its pods. */
interface Side {
  name: string;
  setup(nodes: number): Promise<void>;
  create(replicas: number): Promise<void>;
  scale(replicas: number): Promise<void>;
  /** Moves the clock one slice (and lets the side's own asynchronous work run). */
  tick(): Promise<void>;
  pods(): Promise<{ total: number; ready: number }>;
  /** Simulated ms since setup. */
  now(): number;
  close(): Promise<void>;
}

function oursSide(): Side {
  let c: Cluster;
  let t0 = 0;
  const req = (r: Parameters<Cluster['request']>[0]): void => {
    const res = c.request(r);
    if (!res.ok) throw new Error(`${r.verb} ${r.resource}: ${res.status.message}`);
  };
  return {
    name: 'ours',
    async setup(nodes) {
      c = createCluster({ seed: 1, nodes });
      t0 = c.now;
    },
    async create(replicas) {
      req({ verb: 'create', resource: 'deployments', namespace: 'default', body: deployment('web', replicas) });
    },
    async scale(replicas) {
      req({
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        subresource: 'scale',
        body: { spec: { replicas } },
      });
    },
    async tick() {
      c.advance(SLICE_MS);
    },
    async pods() {
      let total = 0;
      let ready = 0;
      for (const [key, p] of Object.entries(c.world.state.store.objects.pods ?? {}))
        if (key.startsWith('/registry/pods/default/')) {
          total++;
          if (isReady(p as PodLike)) ready++;
        }
      return { total, ready };
    },
    now: () => c.now - t0,
    async close() {
      /* nothing runs in the background */
    },
  };
}

/** The peer's API, as far as the bench uses it (its bundle has no types). */
interface PeerCluster {
  init(): Promise<void>;
  pause(): void;
  close(): Promise<void>;
  clock: { step(ms: number): void; nowMs(): number };
  apply(resources: unknown[]): Promise<unknown>;
  api: {
    appsv1: { patchNamespacedDeploymentScale(r: unknown, o: unknown): Promise<unknown> };
    corev1: { listNamespacedPod(r: { namespace: string }): Promise<{ items: PodLike[] }> };
  };
}

async function peerSide(): Promise<Side> {
  const { Cluster: PeerClusterClass } = (await import(pathToFileURL(peerBundle).href)) as {
    Cluster: new (o: { nodes: number }) => PeerCluster;
  };
  let c: PeerCluster;
  let t0 = 0;
  return {
    name: 'the peer',
    // Its clock runs with the wall clock unless paused; paused, it moves only when stepped, as ours does.
    async setup(nodes) {
      c = new PeerClusterClass({ nodes });
      await c.init();
      c.pause();
      t0 = c.clock.nowMs();
    },
    async create(replicas) {
      await c.apply([deployment('web', replicas)]);
    },
    // Its scale subresource takes a JSON merge patch and says so by the content type, as the API server does.
    async scale(replicas) {
      await c.api.appsv1.patchNamespacedDeploymentScale(
        { name: 'web', namespace: 'default', body: { spec: { replicas } } },
        { headers: { 'Content-Type': 'application/merge-patch+json' } },
      );
    },
    // Its controllers continue on real promises between its clock's timers: give them the event loop after each step.
    async tick() {
      c.clock.step(SLICE_MS);
      await turn();
    },
    async pods() {
      const items = (await c.api.corev1.listNamespacedPod({ namespace: 'default' })).items;
      return { total: items.length, ready: items.filter(isReady).length };
    },
    now: () => c.clock.nowMs() - t0,
    async close() {
      await c.close();
    },
  };
}

interface Timed {
  wallMs: number;
  simMs: number;
  ready: number;
  want: number;
  done: boolean;
}

/** Runs `ask` and then slices until `want` pods exist and all are Ready; the bench's own look at the pods is not counted. */
async function untilReady(side: Side, want: number, ask: () => Promise<void>): Promise<Timed> {
  const sim0 = side.now();
  const t0 = performance.now();
  let looking = 0;
  await ask();
  for (;;) {
    await side.tick();
    const l = performance.now();
    const { total, ready } = await side.pods();
    looking += performance.now() - l;
    const wallMs = performance.now() - t0 - looking;
    if (total === want && ready === want) return { wallMs, simMs: side.now() - sim0, ready, want, done: true };
    if (wallMs > limitSeconds * 1000) return { wallMs, simMs: side.now() - sim0, ready, want, done: false };
  }
}

/** The workloads, each on a fresh cluster per run; what is timed is the last step of each. */
const WORKLOADS: { label: string; nodes: number; run(s: Side): Promise<Timed> }[] = [
  { label: '3 nodes: Deployment ×3 applied → all Ready', nodes: 3, run: (s) => untilReady(s, 3, () => s.create(3)) },
  {
    label: '3 nodes: scale 3 → 100, all Ready',
    nodes: 3,
    run: async (s) => {
      await untilReady(s, 3, () => s.create(3));
      return untilReady(s, 100, () => s.scale(100));
    },
  },
  // A node takes at most 110 pods (the kubelet's default maxPods, which ours enforces), so 1,000 need ten nodes.
  {
    label: '10 nodes: scale 3 → 1,000, all Ready',
    nodes: 10,
    run: async (s) => {
      await untilReady(s, 3, () => s.create(3));
      return untilReady(s, 1000, () => s.scale(1000));
    },
  },
];

// The limit is looked at between slices: a slice that itself runs long is over it by that much.
const describe = (r: Timed): string =>
  `${fmt(r.wallMs, 0)} ms wall, ${fmt(r.simMs / 1000, 1)} s simulated${r.done ? '' : ` — stopped past the ${limitSeconds} s limit: ${r.ready}/${r.want} Ready`}`;

console.log(
  `\nThe same workload in Node (median of ${runs} runs, 1 for 1,000 pods; each side's clock moved in ${SLICE_MS} ms slices)`,
);
const times: Record<string, { ours?: Timed; peer?: Timed; ratio?: number; error?: string }> = {};
const makers: [string, () => Promise<Side>][] = [
  ['ours', async () => oursSide()],
  ['peer', peerSide],
];
for (const [k, w] of WORKLOADS.entries()) {
  if (only && k + 1 !== only) continue;
  const row: (typeof times)[string] = {};
  const n = w.nodes >= 10 ? 1 : runs;
  for (const [key, make] of makers) {
    try {
      const all: Timed[] = [];
      // One run before the timed ones, so that neither side is measured before its JIT has warmed up.
      for (let i = 0; i < n + (n > 1 ? 1 : 0); i++) {
        const side = await make();
        await side.setup(w.nodes);
        const r = await w.run(side);
        await side.close();
        if (n === 1 || i > 0) all.push(r);
      }
      const mid = median(all.map((r) => r.wallMs));
      row[key as 'ours' | 'peer'] = all.find((r) => r.wallMs === mid)!;
    } catch (e) {
      row.error = `${key}: cannot run this workload (${e instanceof Error ? e.message : String(e)})`;
    }
  }
  console.log(`  ${w.label}`);
  if (row.ours) line('    ours', describe(row.ours));
  if (row.peer) line('    the peer', describe(row.peer));
  if (row.ours?.done && row.peer?.done) {
    row.ratio = row.ours.wallMs / row.peer.wallMs;
    line("    ratio of wall times, ours / the peer's", `${fmt(row.ratio, 3)} (goal < 1)`);
  }
  if (row.error) line(w.label, row.error);
  times[w.label] = row;
}

console.log(
  "  Ours keeps Kubernetes' client rate limits (the controller manager's 20 QPS, burst 30), so 1,000 pods take about",
);
console.log(
  '  50 s of simulated time to create; the peer has no client limits. Its images are its own (the pause image here).',
);
mkdirSync('reports', { recursive: true });
writeFileSync(
  'reports/bench-peer.json',
  JSON.stringify(
    {
      peer: { name: PEER, version: peerVersion, bytes: peerBytes },
      ours,
      times,
      sliceMs: SLICE_MS,
      runs,
      limitSeconds,
    },
    null,
    2,
  ) + '\n',
);
console.log('  (written to reports/bench-peer.json)');
// The peer's pause leaves no timer behind, but its informers may hold the event loop: this script is done.
process.exit(0);
