// Properties of the whole assembled cluster under arbitrary command sequences (fast-check).
// numRuns comes from FC_RUNS (src/test/fc.ts: default 100; CI sets 1000). Sequences are short (a deployment, 5–30 s,
// 3–8 random commands with advances of 0.1–60 s, then 5–60 s) so a sequence averages ~10–20 ms.
//
// Checked, for every command of every sequence:
// - store: the global revision strictly increases along the history, never goes back, and every
//   stored object's resourceVersion ≤ the store revision;
// - watch: a watch opened through the API from a random earlier rv delivers every later event of its
//   resource in revision order with nothing missing (compared with the store history), or is refused
//   with 410 Expired exactly when that rv is older than the compaction; and a client (watch-probe)
//   holding one pods watch for the whole run, re-opening it from its last rv when the API server
//   breaks it, receives a prefix of the history in each stretch, so it never misses an event;
// - scheduling: at the revision where a pod is bound, its node exists, is not cordoned, carries no
//   NoSchedule/NoExecute taint the pod does not tolerate, and has room for its CPU request; a pod
//   never moves to another node once bound;
// - rollout bounds (no faults): while a rollout of an unchanged spec.replicas runs (opened by
//   set image / undo on a complete deployment; closed by scale, by deleting a pod, or by another
//   template change before it is done — see checkedRun for why), at EVERY store revision:
//     Σ spec.replicas of the deployment's ReplicaSets ≤ replicas + maxSurge   (the controller's own
//       guarantee, §2 NewRSNewReplicas: maxTotal = replicas + surge), and
//     non-terminating pods of the deployment ≤ replicas + maxSurge, at the revisions where every
//       one of its ReplicaSets has acted on its current spec (status.observedGeneration = generation)
//       — not at every revision: the ReplicaSet controller may create the new ReplicaSet's pod a few
//       ms before it marks the old ReplicaSet's pod terminating (found by this property with
//       maxSurge 0: 2 live pods for replicas 1 at one revision while Σ spec stayed 1; Kubernetes'
//       workers make no ordering promise either), and
//     non-terminating Ready pods ≥ replicas − maxUnavailable                  (§2 reconcileOldReplicaSets /
//       scaleDownOldReplicaSetsForRollingUpdate scale down only what RS status.availableReplicas
//       exceeds MinAvailable by; status lags the pods, so the true count is never lower).
//   Terminating pods are left out on purpose: Kubernetes' guarantee is on ReplicaSet spec totals and
//   availability counts active pods (IsPodActive excludes deletionTimestamp), so a pod that is
//   shutting down is neither surge nor available.
// - convergence (faults: nodes off/cut off, control plane down, crashes, a node tainted
//   node.kubernetes.io/out-of-service): after every fault is lifted and time passes, every deployment has
//   spec.replicas Ready pods of its current template and no other live pods, and every node is Ready;
// - determinism: the same sequence twice gives the same world hash.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Node, Pod, Taint, Toleration } from 'kubernetes-types/core/v1';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { closeWatch } from './apiserver/watch.ts';
import type { WatchNotification } from './api/watch.ts';
import { componentDefs, createCluster, type Cluster } from './cluster.ts';
import { maxSurge, maxUnavailable } from './controllers/deployment-util.ts';
import { runKubectl } from './kubectl/kubectl.ts';
import { storeList, type StoreEvent } from './apiserver/store.ts';
import type { KObject } from './api/request.ts';
import type { ComponentDef, Ctx } from './world.ts';
import { FC_RUNS, runs } from '../test/fc.ts';

const NODES = ['node-1', 'node-2', 'node-3'];
const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';
const IMAGES = ['nginx:1.27', 'nginx:1.28', 'nginx:1.29'];
const CPUS = ['100m', '500m', '1'];
const STRATEGIES: { maxSurge: number | string; maxUnavailable: number | string }[] = [
  { maxSurge: '25%', maxUnavailable: '25%' },
  { maxSurge: 1, maxUnavailable: 0 },
  { maxSurge: 0, maxUnavailable: 1 },
  { maxSurge: 2, maxUnavailable: 1 },
];
const WATCHED = ['pods', 'replicasets', 'deployments', 'nodes'] as const;

// ------------------------------------------------------------------------------------ commands

type Cmd =
  | { k: 'create'; d: number; replicas: number; cpu: number; strategy: number }
  | { k: 'scale'; d: number; replicas: number }
  | { k: 'image'; d: number; image: number }
  | { k: 'undo' | 'pause' | 'resume'; d: number }
  | { k: 'delete-pod'; i: number }
  | { k: 'cordon' | 'uncordon'; node: number }
  | { k: 'advance'; ms: number }
  | { k: 'node'; node: number; action: 'stop' | 'start' | 'partition' | 'heal' }
  | { k: 'cp'; action: 'stop' | 'start'; part?: 'scheduler' | 'controller-manager' }
  | { k: 'crash'; i: number; oom: boolean }
  | { k: 'out-of-service'; node: number }
  | { k: 'delete-deployment'; d: number; cascade: 'background' | 'orphan' | 'foreground' };

/** One step: a command, then a watch opened from a random earlier revision of one resource. */
interface Step {
  cmd: Cmd;
  watchAt: number;
  watchRes: number;
}

const d = fc.integer({ min: 0, max: 1 });
const userCmd: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('create' as const),
      d,
      replicas: fc.integer({ min: 1, max: 4 }),
      cpu: fc.integer({ min: 0, max: 2 }),
      strategy: fc.integer({ min: 0, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constant('scale' as const), d, replicas: fc.integer({ min: 0, max: 5 }) }),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('image' as const), d, image: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constantFrom('undo' as const, 'pause' as const, 'resume' as const), d }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('delete-pod' as const), i: fc.nat(20) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('delete-deployment' as const),
      d,
      cascade: fc.constantFrom('background' as const, 'orphan' as const, 'foreground' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constantFrom('cordon' as const, 'uncordon' as const),
      node: fc.integer({ min: 0, max: 2 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ k: fc.constant('advance' as const), ms: fc.integer({ min: 100, max: 60_000 }) }),
  },
);
const faultCmd: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('node' as const),
      node: fc.integer({ min: 0, max: 2 }),
      action: fc.constantFrom('stop' as const, 'start' as const, 'partition' as const, 'heal' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('cp' as const),
      action: fc.constantFrom('stop' as const, 'start' as const),
      part: fc.constantFrom(undefined, undefined, 'scheduler' as const, 'controller-manager' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('crash' as const), i: fc.nat(20), oom: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('out-of-service' as const), node: fc.integer({ min: 0, max: 2 }) }),
  },
);
const step = (cmd: fc.Arbitrary<Cmd>): fc.Arbitrary<Step> =>
  fc.record({
    cmd,
    watchAt: fc.double({ min: 0, max: 1, noNaN: true }),
    watchRes: fc.integer({ min: 0, max: WATCHED.length - 1 }),
  });
/**
 * A sequence starts with a deployment (so most sequences have something to roll) and ends with time
 * passing (so what the last commands started is seen through).
 */
const seq = (cmd: fc.Arbitrary<Cmd>, min: number, max: number) =>
  fc
    .tuple(
      fc.record({
        k: fc.constant('create' as const),
        d: fc.constant(0),
        replicas: fc.integer({ min: 1, max: 4 }),
        cpu: fc.integer({ min: 0, max: 2 }),
        strategy: fc.integer({ min: 0, max: 3 }),
      }),
      fc.integer({ min: 5_000, max: 30_000 }),
      fc.array(step(cmd), { minLength: min, maxLength: max }),
      fc.integer({ min: 5_000, max: 60_000 }),
    )
    .map(([first, settle, rest, end]): Step[] => [
      { cmd: first, watchAt: 0.5, watchRes: 0 },
      { cmd: { k: 'advance', ms: settle }, watchAt: 0.5, watchRes: 1 },
      ...rest,
      { cmd: { k: 'advance', ms: end }, watchAt: 0.5, watchRes: 2 },
    ]);
const noFaultSeq = seq(userCmd, 3, 8);
const faultSeq = seq(fc.oneof({ weight: 3, arbitrary: userCmd }, { weight: 2, arbitrary: faultCmd }), 3, 8);

const dname = (i: number) => `d${i}`;

function deploymentBody(c: Extract<Cmd, { k: 'create' }>): Deployment {
  const name = dname(c.d);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas: c.replicas,
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: STRATEGIES[c.strategy] },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: IMAGES[0], resources: { requests: { cpu: CPUS[c.cpu] } } }] },
      },
    },
  };
}

const livePods = (c: Cluster) =>
  storeList(c.world.state.store, 'pods', 'default')
    .filter((p) => !p.metadata?.deletionTimestamp)
    .sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));

/** Apply one command, as a reader would (kubectl lines, sim faults). */
function run(c: Cluster, cmd: Cmd): void {
  const k = (s: string) => runKubectl(c, s);
  switch (cmd.k) {
    case 'create':
      c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: deploymentBody(cmd) });
      break;
    case 'scale':
      k(`kubectl scale deployment ${dname(cmd.d)} --replicas=${cmd.replicas}`);
      break;
    case 'image':
      k(`kubectl set image deployment/${dname(cmd.d)} web=${IMAGES[cmd.image]}`);
      break;
    case 'undo':
      k(`kubectl rollout undo deployment/${dname(cmd.d)}`);
      break;
    case 'pause':
      k(`kubectl rollout pause deployment/${dname(cmd.d)}`);
      break;
    case 'resume':
      k(`kubectl rollout resume deployment/${dname(cmd.d)}`);
      break;
    case 'delete-pod': {
      const ps = livePods(c);
      if (ps.length) k(`kubectl delete pod ${ps[cmd.i % ps.length].metadata!.name} --wait=false`);
      break;
    }
    case 'delete-deployment':
      k(`kubectl delete deployment ${dname(cmd.d)} --cascade=${cmd.cascade} --wait=false`);
      break;
    case 'cordon':
      k(`kubectl cordon ${NODES[cmd.node]}`);
      break;
    case 'uncordon':
      k(`kubectl uncordon ${NODES[cmd.node]}`);
      break;
    case 'advance':
      c.advance(cmd.ms);
      break;
    case 'node':
      c.node(NODES[cmd.node], cmd.action);
      break;
    case 'cp':
      c.controlPlane(cmd.action, cmd.part);
      break;
    // An operator declares a node shut down (rightly or not): its terminating pods are force-deleted.
    case 'out-of-service':
      k(`kubectl taint nodes ${NODES[cmd.node]} ${OUT_OF_SERVICE}=nodeshutdown:NoExecute --overwrite`);
      break;
    case 'crash': {
      const ps = livePods(c).filter((p) => p.status?.phase === 'Running');
      if (ps.length) c.crash('default', ps[cmd.i % ps.length].metadata!.name!, { oom: cmd.oom });
      break;
    }
  }
}

// ------------------------------------------------------------------------------------ watch probe

/** One unbroken stretch of the probe's pods watch: opened from rv `from`, what it delivered. */
interface Segment {
  from: number;
  events: string[];
  last: number;
}
interface ProbeState {
  watchId?: string;
  segments: Segment[];
}

/**
 * A client that keeps one pods watch open for the whole run, as a reflector does: when the watch
 * breaks (API server down) it re-opens from the last revision it saw, so every later event must
 * still arrive, in order, with nothing missing; a 410 makes it re-list and start a new stretch.
 */
const watchProbeDef: ComponentDef<ProbeState> = {
  name: 'watch-probe',
  identity: () => 'kubectl', // reads as kubernetes-admin
  init(ctx) {
    const st: ProbeState = { segments: [] };
    ctx.state = st;
    relist(ctx);
    return ctx.state;
  },
  handle(event, ctx) {
    const ev = event as {
      type: string;
      watchId?: string;
      eventType?: WatchNotification['eventType'];
      revision?: number;
      object?: KObject;
    };
    const st = ctx.state;
    if (ev.type === 'watch' && ev.watchId === st.watchId) {
      const seg = st.segments[st.segments.length - 1];
      seg.events.push(fmtEvent(ev.eventType!, ev.revision!, ev.object!));
      seg.last = ev.revision!;
    } else if (ev.type === 'watch-closed' && ev.watchId === st.watchId) {
      st.watchId = undefined;
      ctx.schedule(1000, { type: 'probe-retry' });
    } else if (ev.type === 'probe-retry') {
      const seg = st.segments[st.segments.length - 1];
      if (!seg) {
        relist(ctx);
        return;
      }
      const r = ctx.watch('pods', { resourceVersion: String(seg.last) });
      if (r.ok) {
        st.watchId = r.object.watchId;
        st.segments.push({ from: seg.last, events: [], last: seg.last });
      } else if (r.code === 410) relist(ctx);
      else ctx.schedule(1000, { type: 'probe-retry' });
    }
  },
};

function relist(ctx: Ctx<ProbeState>): void {
  const l = ctx.api.list('pods');
  if (!l.ok) {
    ctx.schedule(1000, { type: 'probe-retry' });
    return;
  }
  const rv = Number(l.object.metadata?.resourceVersion);
  const w = ctx.watch('pods', { resourceVersion: String(rv) });
  if (!w.ok) {
    ctx.schedule(1000, { type: 'probe-retry' });
    return;
  }
  ctx.state.watchId = w.object.watchId;
  ctx.state.segments.push({ from: rv, events: [], last: rv });
}

componentDefs.push(watchProbeDef);

const fmtEvent = (t: string, rev: number, o: KObject) =>
  `${rev} ${t} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;

/** Each stretch delivered a prefix of the history after its start; each re-open resumed where the last delivery was. */
function checkProbe(c: Cluster, fail: (msg: string) => never): void {
  const st = c.world.state.components['watch-probe']?.state as ProbeState | undefined;
  if (!st) return;
  const s = c.world.state.store;
  st.segments.forEach((seg, i) => {
    if (seg.from < s.compactedRevision) return; // history no longer there to compare with
    const want = s.history
      .filter((e) => e.resource === 'pods' && e.revision > seg.from)
      .map((e) => fmtEvent(e.type, e.revision, e.object));
    const have = seg.events;
    if (JSON.stringify(have) !== JSON.stringify(want.slice(0, have.length))) {
      fail(
        `probe stretch ${i} from rv ${seg.from}: delivered [${have.slice(0, 4).join(', ')}…] (${have.length}) is not a prefix of the history [${want.slice(0, 4).join(', ')}…]`,
      );
    }
  });
}

// ------------------------------------------------------------------------------------ checks

/** How much each check actually saw, so a property cannot pass by checking nothing. */
const seen = {
  podChecks: 0,
  rolloutRevisions: 0,
  windows: 0,
  bindings: 0,
  watches: 0,
  watchEvents: 0,
  gone: 0,
  probeEvents: 0,
  probeResumes: 0,
};

/** A mirror of the objects, rebuilt from the store history one revision at a time. */
interface Mirror {
  rev: number;
  objects: Record<string, Record<string, KObject>>;
  /** Pod uid → the node it was bound to. */
  boundTo: Record<string, string>;
}

function newMirror(c: Cluster): Mirror {
  const s = c.world.state.store;
  // Start from the objects as they are (a fresh cluster: only bootstrap objects, all before history ends).
  const objects: Record<string, Record<string, KObject>> = {};
  for (const [res, bucket] of Object.entries(s.objects)) objects[res] = { ...bucket };
  return { rev: s.revision, objects, boundTo: {} };
}

const cpuMilli = (q: string | number | undefined): number => {
  if (q === undefined) return 0;
  const s = String(q);
  return s.endsWith('m') ? Number(s.slice(0, -1)) : Math.round(Number(s) * 1000);
};

function tolerates(tols: Toleration[] | undefined, t: Taint): boolean {
  return (tols ?? []).some((tol) => {
    if (tol.effect && tol.effect !== t.effect) return false;
    if (!tol.key) return tol.operator === 'Exists';
    if (tol.key !== t.key) return false;
    return tol.operator === 'Exists' || (tol.value ?? '') === (t.value ?? '');
  });
}

const list = <T>(m: Mirror, res: string) => Object.values(m.objects[res] ?? {}) as T[];

/** Check a pod binding against the node as it is at this revision. */
function checkBinding(m: Mirror, e: StoreEvent, fail: (msg: string) => never): void {
  const pod = e.object as Pod;
  const prev = e.prev as Pod | undefined;
  const was = prev?.spec?.nodeName;
  const now = pod.spec?.nodeName;
  const uid = pod.metadata!.uid!;
  if (was && now !== was) fail(`rv ${e.revision}: pod ${pod.metadata?.name} moved from ${was} to ${now}`);
  if (!now || was) return;
  if (m.boundTo[uid] && m.boundTo[uid] !== now)
    fail(`rv ${e.revision}: pod ${pod.metadata?.name} bound twice (${m.boundTo[uid]}, ${now})`);
  m.boundTo[uid] = now;
  seen.bindings++;
  const node = list<Node>(m, 'nodes').find((n) => n.metadata?.name === now);
  if (!node) fail(`rv ${e.revision}: pod ${pod.metadata?.name} bound to missing node ${now}`);
  if (node.spec?.unschedulable) fail(`rv ${e.revision}: pod ${pod.metadata?.name} bound to cordoned ${now}`);
  for (const t of node.spec?.taints ?? []) {
    if ((t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(pod.spec?.tolerations, t)) {
      fail(`rv ${e.revision}: pod ${pod.metadata?.name} bound to ${now} despite taint ${t.key}:${t.effect}`);
    }
  }
  const request = (p: Pod) =>
    (p.spec?.containers ?? []).reduce((n, ct) => n + cpuMilli(ct.resources?.requests?.cpu), 0);
  const used = list<Pod>(m, 'pods')
    .filter(
      (p) =>
        p.spec?.nodeName === now &&
        p.metadata?.uid !== uid &&
        p.status?.phase !== 'Succeeded' &&
        p.status?.phase !== 'Failed',
    )
    .reduce((n, p) => n + request(p), 0);
  const alloc = cpuMilli(node.status?.allocatable?.cpu);
  if (used + request(pod) > alloc)
    fail(
      `rv ${e.revision}: pod ${pod.metadata?.name} (${request(pod)}m) bound to ${now} with ${used}m of ${alloc}m in use`,
    );
}

/** Rollouts being watched: deployment name → the bounds in force. */
type Windows = Record<string, { replicas: number; surge: number; unavailable: number }>;

const isReady = (p: Pod) => !!p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True');

function checkRollouts(m: Mirror, w: Windows, rev: number, fail: (msg: string) => never): void {
  for (const [name, b] of Object.entries(w)) {
    seen.rolloutRevisions++;
    const rss = list<ReplicaSet>(m, 'replicasets').filter((rs) =>
      rs.metadata?.ownerReferences?.some((o) => o.kind === 'Deployment' && o.name === name),
    );
    const specTotal = rss.reduce((n, rs) => n + (rs.spec?.replicas ?? 0), 0);
    const pods = list<Pod>(m, 'pods').filter((p) => p.metadata?.labels?.app === name && !p.metadata?.deletionTimestamp);
    const ready = pods.filter(isReady).length;
    const max = b.replicas + b.surge;
    const min = b.replicas - b.unavailable;
    if (specTotal > max) fail(`rv ${rev}: ${name} ReplicaSet spec total ${specTotal} > replicas+maxSurge ${max}`);
    // Pods follow their ReplicaSet's spec a few ms later; once every ReplicaSet has acted on its
    // current spec (status.observedGeneration = generation), its live pods are within that spec.
    const synced = rss.every((rs) => (rs.status?.observedGeneration ?? 0) >= (rs.metadata?.generation ?? 1));
    if (synced) seen.podChecks++;
    if (synced && pods.length > max)
      fail(`rv ${rev}: ${name} has ${pods.length} non-terminating pods > replicas+maxSurge ${max}`);
    if (ready < min) fail(`rv ${rev}: ${name} has ${ready} Ready pods < replicas-maxUnavailable ${min}`);
  }
}

/** Apply the history written since the mirror's revision, checking at every revision. */
function catchUp(c: Cluster, m: Mirror, w: Windows | undefined, fail: (msg: string) => never): void {
  const s = c.world.state.store;
  let last = m.rev;
  for (const e of s.history) {
    if (e.revision <= m.rev) continue;
    if (e.revision <= last) fail(`history not strictly increasing: ${e.revision} after ${last}`);
    last = e.revision;
    if (e.resource === 'pods') checkBinding(m, e, fail);
    const bucket = (m.objects[e.resource] ??= {});
    if (e.type === 'DELETED') delete bucket[e.key];
    else bucket[e.key] = e.object;
    if (w && (e.resource === 'pods' || e.resource === 'replicasets')) checkRollouts(m, w, e.revision, fail);
  }
  if (s.revision < m.rev) fail(`store revision went back: ${s.revision} < ${m.rev}`);
  if (last !== s.revision) fail(`history ends at ${last}, store at ${s.revision}`);
  m.rev = s.revision;
}

/** Every stored object's resourceVersion ≤ the store revision. */
function checkResourceVersions(c: Cluster, fail: (msg: string) => never): void {
  const s = c.world.state.store;
  for (const bucket of Object.values(s.objects)) {
    for (const [key, o] of Object.entries(bucket)) {
      const rv = Number(o.metadata?.resourceVersion);
      if (!(rv >= 1 && rv <= s.revision))
        fail(`${key} has resourceVersion ${o.metadata?.resourceVersion} (store at ${s.revision})`);
    }
  }
}

/** Open a watch from an earlier revision through the API; compare what it queues with the history. */
function watchFromPast(c: Cluster, st: Step, check: boolean, fail: (msg: string) => never): void {
  const s = c.world.state.store;
  const resource = WATCHED[st.watchRes];
  const rv = Math.max(1, Math.floor(st.watchAt * s.revision));
  const compacted = s.compactedRevision;
  const expected = s.history.filter((e) => e.resource === resource && e.revision > rv);
  const r = c.world.kubectl({ verb: 'watch', resource, options: { resourceVersion: String(rv) } });
  if (!check) {
    if (r.ok) closeWatch(c.world.state, (r.object as { watchId: string }).watchId);
    return;
  }
  if (!c.running('apiserver')) {
    if (r.ok || r.code !== 0) fail(`watch with the API server down: ${r.code}`);
    return;
  }
  if (rv < compacted) {
    if (r.ok || r.code !== 410) fail(`watch from rv ${rv} (compacted at ${compacted}) answered ${r.code}, want 410`);
    seen.gone++;
    return;
  }
  if (!r.ok) fail(`watch ${resource} from rv ${rv} refused: ${r.code} ${r.status.message}`);
  const id = (r.object as { watchId: string }).watchId;
  const got = c.world.state.queue.heap
    .filter((q) => (q.event as WatchNotification)?.watchId === id)
    .sort((a, b) => a.at - b.at || a.seq - b.seq)
    .map((q) => q.event as WatchNotification);
  closeWatch(c.world.state, id);
  seen.watches++;
  seen.watchEvents += got.length;
  const want = expected.map((e) => fmtEvent(e.type, e.revision, e.object));
  const have = got.map((n) => fmtEvent(n.eventType, n.revision, n.object));
  if (JSON.stringify(have) !== JSON.stringify(want)) {
    fail(
      `watch ${resource} from rv ${rv}: got [${have.slice(0, 5).join(', ')}…] (${have.length}), want [${want.slice(0, 5).join(', ')}…] (${want.length})`,
    );
  }
}

/** Run a sequence with every check; returns the cluster. */
function checkedRun(steps: Step[], opts: { rollouts: boolean }): Cluster {
  const c = createCluster({ seed: 1 });
  const fail = (msg: string): never => {
    throw new Error(`${msg}\nsequence: ${JSON.stringify(steps.map((s) => s.cmd))}`);
  };
  c.world.addComponent('watch-probe', 'watch-probe');
  const m = newMirror(c);
  const windows: Windows | undefined = opts.rollouts ? {} : undefined;
  for (const st of steps) {
    const cmd = st.cmd;
    const before = windows && (cmd.k === 'image' || cmd.k === 'undo') ? complete(c, dname(cmd.d)) : false;
    // Closing a window happens before the command: its effects are the user's, not the rollout's.
    if (windows) {
      if (cmd.k === 'scale') delete windows[dname(cmd.d)]; // create of an existing one is refused: no change
      // Deleting the Deployment ends its rollout; one made again under the name starts from nothing.
      if (cmd.k === 'delete-deployment') delete windows[dname(cmd.d)];
      if (cmd.k === 'delete-pod') for (const n of Object.keys(windows)) delete windows[n];
    }
    run(c, cmd);
    // A template change on top of a running rollout ends the watch instead: the deployment
    // controller sizes the newest ReplicaSet from its informer cache, which may not hold the
    // ReplicaSet it created a few ms earlier (Kubernetes' controller has no expectations for its own
    // ReplicaSet writes), so Σ spec may exceed replicas+maxSurge until the cache catches up — found
    // by this property (two set image within ms: Σ spec 6 > 5 at one revision), and true of
    // Kubernetes too. The guarantee checked is the one for a rollout started from a settled state.
    if (windows && (cmd.k === 'image' || cmd.k === 'undo') && !before) delete windows[dname(cmd.d)];
    else if (windows && (cmd.k === 'image' || cmd.k === 'undo')) {
      const dep = storeList(c.world.state.store, 'deployments', 'default').find(
        (x) => x.metadata?.name === dname(cmd.d),
      );
      // (a Deployment being deleted — in the foreground, waiting for its pods — rolls nothing out)
      if (dep && !dep.metadata?.deletionTimestamp) {
        seen.windows++;
        windows[dname(cmd.d)] = {
          replicas: dep.spec?.replicas ?? 1,
          surge: maxSurge(dep),
          unavailable: maxUnavailable(dep),
        };
      }
    }
    catchUp(c, m, windows, fail);
    checkResourceVersions(c, fail);
    watchFromPast(c, st, true, fail);
    checkProbe(c, fail);
  }
  const probe = c.world.state.components['watch-probe'].state as ProbeState;
  seen.probeEvents += probe.segments.reduce((n, g) => n + g.events.length, 0);
  seen.probeResumes += probe.segments.length - 1;
  return c;
}

/**
 * Settled: the controller has observed the current spec and reports it complete (DeploymentComplete:
 * updated = replicas = available), its ReplicaSets add up to spec.replicas, and the live pods are
 * exactly that many Ready pods of the current template.
 */
function complete(c: Cluster, name: string): boolean {
  const store = c.world.state.store;
  const dep = storeList(store, 'deployments', 'default').find((x) => x.metadata?.name === name);
  if (!dep) return false;
  const replicas = dep.spec?.replicas ?? 1;
  const st = dep.status ?? {};
  if ((st.observedGeneration ?? 0) < (dep.metadata?.generation ?? 1)) return false;
  if (
    (st.updatedReplicas ?? 0) !== replicas ||
    (st.replicas ?? 0) !== replicas ||
    (st.availableReplicas ?? 0) !== replicas
  )
    return false;
  const rss = storeList(store, 'replicasets', 'default').filter((rs) =>
    rs.metadata?.ownerReferences?.some((o) => o.name === name),
  );
  if (rss.reduce((n, rs) => n + (rs.spec?.replicas ?? 0), 0) !== replicas) return false;
  const image = dep.spec?.template?.spec?.containers?.[0]?.image;
  const pods = livePods(c).filter((p) => p.metadata?.labels?.app === name);
  return pods.length === replicas && pods.every((p) => isReady(p) && p.spec?.containers?.[0]?.image === image);
}

function plainRun(steps: Step[]): string {
  const c = createCluster({ seed: 1 });
  for (const st of steps) {
    run(c, st.cmd);
    watchFromPast(c, st, false, () => {
      throw new Error('unreachable');
    });
  }
  return c.world.hash();
}

/** Lift every fault, resume and uncordon everything, take the out-of-service taints off. */
function liftFaults(c: Cluster): void {
  for (const n of NODES) {
    c.node(n, 'heal');
    c.node(n, 'start');
    runKubectl(c, `kubectl uncordon ${n}`);
    if (
      storeList(c.world.state.store, 'nodes').some(
        (x) => x.metadata?.name === n && x.spec?.taints?.some((t) => t.key === OUT_OF_SERVICE),
      )
    ) {
      runKubectl(c, `kubectl taint nodes ${n} ${OUT_OF_SERVICE}-`);
    }
  }
  c.controlPlane('start');
  for (let i = 0; i < 2; i++)
    if (storeList(c.world.state.store, 'deployments', 'default').some((x) => x.metadata?.name === dname(i)))
      runKubectl(c, `kubectl rollout resume deployment/${dname(i)}`);
}

function converged(c: Cluster): string | undefined {
  for (const n of storeList(c.world.state.store, 'nodes')) {
    if (n.status?.conditions?.find((x) => x.type === 'Ready')?.status !== 'True')
      return `node ${n.metadata?.name} not Ready`;
  }
  for (const dep of storeList(c.world.state.store, 'deployments', 'default')) {
    const name = dep.metadata!.name!;
    const image = dep.spec?.template?.spec?.containers?.[0]?.image;
    const pods = livePods(c).filter((p) => p.metadata?.labels?.app === name);
    const good = pods.filter((p) => isReady(p) && p.spec?.containers?.[0]?.image === image);
    if (good.length !== dep.spec?.replicas || pods.length !== good.length)
      return `${name}: ${good.length} Ready of ${image}, ${pods.length} live, want ${dep.spec?.replicas}`;
  }
  return undefined;
}

// ------------------------------------------------------------------------------------ properties

const TIMEOUT = Math.max(30_000, FC_RUNS * 500);

describe('cluster properties', () => {
  test('found by the property: two template changes within ms can overshoot maxSurge (stale cache, as in Kubernetes), so only settled rollouts are checked', () => {
    // (Re-found when the controllers started sharing kube-controller-manager's watches, again when
    // the kubelets got node informers, and again when the informers began with streaming lists: the
    // race depends on watch-delivery jitter, so the exact sequence that shows it moves with the rng draws.)
    const counterexample: Step[] = [
      { cmd: { k: 'create', d: 0, replicas: 4, cpu: 0, strategy: 0 }, watchAt: 0.055, watchRes: 0 },
      { cmd: { k: 'advance', ms: 6864 }, watchAt: 0.637, watchRes: 3 },
      { cmd: { k: 'image', d: 0, image: 2 }, watchAt: 0.039, watchRes: 2 },
      { cmd: { k: 'image', d: 0, image: 1 }, watchAt: 0.455, watchRes: 2 },
      { cmd: { k: 'advance', ms: 100 }, watchAt: 0, watchRes: 0 },
    ];
    const c = checkedRun(counterexample, { rollouts: true }); // the window closed at the second change
    // What happened: the controller created the 1.28 ReplicaSet from a cache without the 1.29 one.
    const specs: Record<string, number> = {};
    let peak = 0;
    for (const e of c.world.state.store.history) {
      if (e.resource !== 'replicasets') continue;
      specs[e.key] = e.type === 'DELETED' ? 0 : ((e.object as ReplicaSet).spec?.replicas ?? 0);
      peak = Math.max(
        peak,
        Object.values(specs).reduce((a, b) => a + b, 0),
      );
    }
    expect(peak).toBe(6); // replicas 4 + maxSurge 1 = 5
    // Settled in between: both rollouts are checked at every revision, and hold.
    const at = (cmd: Cmd): Step => ({ cmd, watchAt: 0, watchRes: 0 });
    const before = seen.windows;
    checkedRun(
      [
        counterexample[0],
        at({ k: 'advance', ms: 10_000 }),
        at({ k: 'image', d: 0, image: 2 }),
        at({ k: 'advance', ms: 60_000 }),
        at({ k: 'image', d: 0, image: 1 }),
        at({ k: 'advance', ms: 60_000 }),
      ],
      { rollouts: true },
    );
    expect(seen.windows - before).toBe(2);
  });

  test('with maxSurge 0 the old pod is marked terminating before the new one exists, now that both controllers read one shared watch', () => {
    // Found by the property while every controller had a watch of its own: the ReplicaSet controller
    // could see the new ReplicaSet's scale-up before the old one's scale-down, so a new pod existed a
    // few ms before the old one was marked terminating (live pods 2 while Σ spec never exceeded 1).
    // kube-controller-manager's controllers share one informer per resource, so both ReplicaSet
    // changes reach them in revision order; 1,500 sequences around this one no longer show the race.
    // Kubernetes has no expectation that forbids it, so the rollout check still waits for synced
    // ReplicaSets before counting.
    const counterexample: Step[] = [
      { cmd: { k: 'create', d: 0, replicas: 1, cpu: 0, strategy: 2 }, watchAt: 0.5, watchRes: 0 },
      { cmd: { k: 'advance', ms: 14072 }, watchAt: 0.5, watchRes: 1 },
      { cmd: { k: 'image', d: 0, image: 1 }, watchAt: 0, watchRes: 0 },
      { cmd: { k: 'advance', ms: 7368 }, watchAt: 0, watchRes: 0 },
      { cmd: { k: 'image', d: 0, image: 2 }, watchAt: 0, watchRes: 0 },
      { cmd: { k: 'advance', ms: 18504 }, watchAt: 0, watchRes: 0 },
      { cmd: { k: 'image', d: 0, image: 2 }, watchAt: 0, watchRes: 0 },
      { cmd: { k: 'advance', ms: 26248 }, watchAt: 0, watchRes: 0 },
    ];
    const c = checkedRun(counterexample, { rollouts: true });
    // Revision by revision: live pods never exceed Σ spec (1).
    const live: Record<string, boolean> = {};
    const specs: Record<string, number> = {};
    let peakPods = 0;
    let peakSpec = 0;
    for (const e of c.world.state.store.history) {
      if (e.resource === 'pods') live[e.key] = e.type !== 'DELETED' && !e.object.metadata?.deletionTimestamp;
      if (e.resource === 'replicasets')
        specs[e.key] = e.type === 'DELETED' ? 0 : ((e.object as ReplicaSet).spec?.replicas ?? 0);
      peakPods = Math.max(peakPods, Object.values(live).filter(Boolean).length);
      peakSpec = Math.max(
        peakSpec,
        Object.values(specs).reduce((a, b) => a + b, 0),
      );
    }
    expect(peakSpec).toBe(1);
    expect(peakPods).toBe(1);
  });

  test('a watch from a compacted revision is refused with 410 Expired', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=2');
    c.advance(11 * 60_000); // two compaction ticks: everything before the 5-minute mark is gone
    const s = c.world.state.store;
    expect(s.compactedRevision).toBeGreaterThan(1);
    const r = c.world.kubectl({ verb: 'watch', resource: 'pods', options: { resourceVersion: '1' } });
    expect(r.ok).toBe(false);
    expect(r.code).toBe(410);
    expect(!r.ok && r.status.message).toBe(`too old resource version: 1 (${s.compactedRevision})`);
    const ok = c.world.kubectl({
      verb: 'watch',
      resource: 'pods',
      options: { resourceVersion: String(s.compactedRevision) },
    });
    expect(ok.ok).toBe(true);
  });

  test('the watch probe resumes after an API server outage and misses nothing', () => {
    const steps: Step[] = [
      { cmd: { k: 'create', d: 0, replicas: 2, cpu: 0, strategy: 0 }, watchAt: 0.5, watchRes: 0 },
      { cmd: { k: 'advance', ms: 10_000 }, watchAt: 0.5, watchRes: 0 },
      { cmd: { k: 'cp', action: 'stop' }, watchAt: 0.5, watchRes: 0 },
      { cmd: { k: 'advance', ms: 30_000 }, watchAt: 0.5, watchRes: 0 },
      { cmd: { k: 'cp', action: 'start' }, watchAt: 0.5, watchRes: 0 },
      { cmd: { k: 'scale', d: 0, replicas: 4 }, watchAt: 0.5, watchRes: 0 },
      { cmd: { k: 'advance', ms: 30_000 }, watchAt: 0.9, watchRes: 0 },
    ];
    const c = checkedRun(steps, { rollouts: false });
    const probe = c.world.state.components['watch-probe'].state as ProbeState;
    expect(probe.segments.length).toBe(2);
    expect(probe.segments[1].events.length).toBeGreaterThan(4);
  });

  test(
    'without faults: store, watches, bindings and rollout bounds hold after every command',
    () => {
      const base = { ...seen };
      fc.assert(
        fc.property(noFaultSeq, (steps) => {
          checkedRun(steps, { rollouts: true });
        }),
        { numRuns: runs(1) },
      );
      // Not vacuous: rollouts were watched revision by revision, pods bound, watches compared.
      expect(seen.windows - base.windows).toBeGreaterThan(0);
      expect(seen.rolloutRevisions - base.rolloutRevisions).toBeGreaterThan(0);
      expect(seen.podChecks - base.podChecks).toBeGreaterThan(0);
      expect(seen.bindings - base.bindings).toBeGreaterThan(0);
      expect(seen.watchEvents - base.watchEvents).toBeGreaterThan(0);
      expect(seen.probeEvents - base.probeEvents).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  test(
    'with faults: store, watches and bindings hold; lifted, the cluster converges',
    () => {
      const base = { ...seen };
      fc.assert(
        fc.property(faultSeq, (steps) => {
          const c = checkedRun(steps, { rollouts: false });
          liftFaults(c);
          let why = converged(c);
          for (let t = 0; why && t < 10 * 60_000; t += 10_000) {
            c.advance(10_000);
            why = converged(c);
          }
          expect(why, `not converged after 10 min: ${JSON.stringify(steps.map((s) => s.cmd))}`).toBeUndefined();
          // The probe came back with the API server and missed nothing since.
          checkProbe(c, (msg) => {
            throw new Error(`${msg}\nsequence: ${JSON.stringify(steps.map((s) => s.cmd))}`);
          });
          seen.probeResumes += (c.world.state.components['watch-probe'].state as ProbeState).segments.length - 1;
        }),
        { numRuns: runs(1) },
      );
      expect(seen.bindings - base.bindings).toBeGreaterThan(0);
      expect(seen.watchEvents - base.watchEvents).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  test(
    'determinism: the same sequence twice gives the same hash',
    () => {
      fc.assert(
        fc.property(faultSeq, (steps) => {
          expect(plainRun(steps)).toBe(plainRun(steps));
        }),
        { numRuns: runs(1) },
      );
    },
    TIMEOUT,
  );
});
