// Pins whole runs of the assembled cluster (world.hash() covers the store, the request log, the clock
// and the rng), so that optimisations of the core cannot change what a reader sees: the same
// objects, names, timings and request log for the same inputs.
import type { Deployment } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import { clusterApiServer, componentDefs, createCluster, replayCluster, type Cluster } from './cluster.ts';
import { replay } from './world.ts';
import { appDeployment } from './testing/world.ts';

/** The tests' Deployment, with the small requests that let hundreds of pods fit a node. */
const deployment = (name: string, replicas: number, image = 'nginx:1.27'): Deployment =>
  appDeployment(name, replicas, image, { resources: { requests: { cpu: '10m', memory: '16Mi' } } });

function apply(c: Cluster, d: Deployment): void {
  const r = c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: d });
  if (!r.ok) throw new Error(r.status.message);
}

function setImage(c: Cluster, image: string): void {
  c.request({
    verb: 'patch',
    resource: 'deployments',
    namespace: 'default',
    name: 'web',
    body: { spec: { template: { spec: { containers: [{ name: 'app', image }] } } } },
  });
}

interface PodView {
  metadata?: { name?: string; deletionTimestamp?: string };
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    containerStatuses?: { restartCount?: number; state?: { waiting?: { reason?: string } } }[];
  };
}

/** Readable facts beside the hash, so a changed pin says what changed. */
function facts(c: Cluster) {
  const pods = Object.values(c.world.state.store.objects.pods ?? {}) as PodView[];
  const phases: Record<string, number> = {};
  for (const p of pods) phases[p.status?.phase ?? '?'] = (phases[p.status?.phase ?? '?'] ?? 0) + 1;
  const kinds: Record<string, number> = {};
  for (const r of c.log) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
  return {
    now: c.now,
    steps: c.world.state.steps,
    revision: c.world.state.store.revision,
    log: c.log.length,
    kinds,
    phases,
    restarts: pods.reduce((n, p) => n + (p.status?.containerStatuses?.[0]?.restartCount ?? 0), 0),
    waiting: pods
      .map((p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason)
      .filter(Boolean)
      .sort(),
    names: pods
      .map((p) => `${p.metadata?.name}@${p.spec?.nodeName ?? ''}`)
      .sort()
      .slice(0, 8),
  };
}

/** The scenarios, each a function of a fresh cluster. */
const scenarios: Record<string, { opts?: { nodes?: number }; run: (c: Cluster) => void }> = {
  'create web ×3, settle': {
    run: (c) => {
      apply(c, deployment('web', 3));
      c.settle();
    },
  },
  'set image, roll out': {
    run: (c) => {
      apply(c, deployment('web', 3));
      c.settle();
      setImage(c, 'nginx:1.28');
      c.settle();
    },
  },
  'node-2 stop, 7 minutes': {
    run: (c) => {
      apply(c, deployment('web', 6));
      c.settle();
      c.node('node-2', 'stop');
      c.advance(7 * 60_000);
    },
  },
  'control plane stop 3 min, start': {
    run: (c) => {
      apply(c, deployment('web', 3));
      c.settle();
      c.controlPlane('stop');
      c.advance(3 * 60_000);
      c.controlPlane('start');
      c.settle();
    },
  },
  'crash loop': {
    run: (c) => {
      apply(c, deployment('web', 1));
      c.settle();
      const pod = () => Object.values(c.world.state.store.objects.pods ?? {})[0] as PodView;
      // The kubelet's crash fault injected directly (Cluster.crash() refuses a container that is not running).
      const crash = () =>
        c.world.inject(`kubelet/${pod().spec!.nodeName}`, {
          type: 'crash',
          namespace: 'default',
          pod: pod().metadata!.name,
          container: 'app',
          oom: false,
        });
      for (let i = 0; i < 5; i++) {
        crash();
        c.advance(i < 2 ? 15_000 : 45_000);
      }
      c.advance(5 * 60_000);
    },
  },
  'demo: web ×3, 10 minutes': {
    run: (c) => {
      apply(c, deployment('web', 3));
      c.advance(10 * 60_000);
    },
  },
  'image missing, then available': {
    run: (c) => {
      c.image('nginx:9.9', 'missing');
      apply(c, deployment('web', 2, 'nginx:9.9'));
      c.advance(90_000);
      c.image('nginx:9.9', 'available');
      c.advance(120_000);
    },
  },
  '120 nodes, 600 pods': {
    opts: { nodes: 120 },
    run: (c) => {
      c.advance(1_000);
      apply(c, deployment('app-0', 400));
      apply(c, deployment('app-1', 200));
      c.advance(30_000);
    },
  },
};

/**
 * The pinned results (update deliberately, with the reason in the change).
 * Last changed (ServiceAccounts, issue 30): the world starts with each system namespace's `default`
 * ServiceAccount and kube-root-ca.crt ConfigMap (8 more bootstrap requests and revisions, uids from the
 * bootstrap's own stream), and each kubelet POSTs a TokenRequest for each pod it starts (one request,
 * no revision): every later revision moves by 8, every log by 8 plus one record per pod started;
 * steps, times and names are unchanged.
 * Before (the oracle's third round): requests carry the query strings of the real clients
 * (kubectl's fieldManager and fieldValidation, the kubelet heartbeat client's timeout=10s, the node
 * lifecycle controller's GET of a node with resourceVersion=0), so every log's bytes change; the
 * scheduler's pod informer watches only non-terminal pods (status.phase!=Succeeded,Failed), which
 * moves the order of watch deliveries in the rollout: set image, roll out makes 3 more requests (the
 * ReplicaSet controller's status conflicts and GETs, one fewer Deployment status update) and 3 fewer
 * watch records, 1 ms later; every name and placement is unchanged. Then kube-controller-manager's
 * EndpointSlice watch is unfiltered, as its shared informer is (the controller keeps to its own
 * slices in its handlers): the `kubernetes` slice is one more watch record and step in every run
 * (two after the control plane's restart), nothing else moves.
 * Before, five changes merged: (5) client-side rate limits (client-go's token buckets): the
 * ReplicaSet controller makes 600 pods at its client's QPS 20 after a burst of 30, so 120 nodes,
 * 600 pods runs for 28.5 s of creations instead of all at once (the small runs never empty a bucket).
 * (4) the bootstrapped PriorityClasses and the
 * preemption executor, which these runs never reach): (1) the scheduling queue keeps QueueingHints' in-flight
 * events (its state is hashed); (2) informers start with a streaming list (one WATCH with sendInitialEvents, no LIST;
 * handlers and WaitForCacheSync wait for the initial-events-end bookmark, polled every 100 ms), and
 * generated names come from the API server's own stream (pod names no longer move with watch
 * jitter; every name and most placements change once); pods carry the projected token volume:
 * fewer request records, more watch records, every hash; (3) kube-scheduler and kube-controller-manager hold their leader-election Leases in
 * kube-system (GET, POST and a PUT at start, a PUT each every 2 s: one revision a second), and a
 * restarted controller-manager leads, so starts its controllers, only once the old one's Lease has
 * gone 15 s unrenewed (fewer watch records in the control-plane run). Their uids come from the
 * electors' own generators, so every name is unchanged.
 * Before: every namespace carries kubernetes.io/metadata.name (the API server's automatic
 * label): the bootstrap namespaces' bytes change, nothing else.
 * Before: the API server creates default/kubernetes (10.96.0.1) and its EndpointSlice (the API
 * server's address) at bootstrap, as its bootstrap controller and endpoint reconciler do: two more
 * objects and log records at revisions 5 and 6, so every later revision moves by two (their uids come
 * from a stream of their own, so names and rng draws are unchanged).
 * Before: the kubelet's lease controller GETs the Node before creating its Lease (and before a
 * renewal of a lease without an owner), as SetNodeOwnerFunc does: one more request per kubelet
 * start, so every log moves by those records.
 * Before: kube-controller-manager runs the pod garbage collector, whose pass every 20 s (the
 * first at start) adds events; hashes, logs and names are unchanged (no run here deletes a Node,
 * and the garbage collector, also new, only acts when an owner is deleted).
 * Before: the event recorder runs client-go's whole correlator: the tenth similar event about an
 * object within 10 minutes is aggregated, and a source sends at most 25 events per object, then one
 * per 5 minutes (fewer Event writes where a ReplicaSet makes hundreds of pods or an image pull keeps
 * failing; the other runs are unchanged).
 * Before: kube-controller-manager's controllers share one LIST per resource when they start
 * together (client-go's shared informer factory lists once): 7 fewer LIST records, nothing else moves.
 * Before: they read one watch per resource (shared informers), so each change is one notification
 * to the process instead of five: fewer watch records and jitter draws (pod names shifted).
 * Re-made: the event recorder's Events carry eventTime: null, as client-go's recorder sends a zero
 * MicroTime (JSON null): every stored Event changes, nothing else (facts unchanged).
 * Re-made (Kubernetes 1.37 in the kubelet and node lifecycle): v1.37.2 and declaredFeatures on Nodes;
 * "Container created"/"Container started" with a fieldPath; NodeHas* twice at start; pod conditions
 * with lastProbeTime null; the kubelet reads its Node from a node informer (a LIST and a WATCH per
 * kubelet, no GET per 10 s tick) and GETs each pod before its status PATCH; its lease controller
 * renews without a GET and falls back to GETs with back-off; jittered heartbeat loops; serialised
 * image pulls; the node lifecycle controller GETs an expired-looking Lease live each pass and taints
 * NoExecute with NoSchedule (names unchanged except where more watch deliveries draw more jitter).
 * Re-made (merged with the API server's 1.37 pod defaults): pods carry a generation that a graceful
 * deletion bumps and the kubelet reports as observedGeneration, so a rolling update writes three more
 * pod revisions (set image: 3 ms later, names placed differently); the others keep their facts.
 * Re-made: the API server bootstraps the two system PriorityClasses (two more requests and
 * revisions at start, uids from the bootstrap's own stream): nothing else moves.
 * Re-made: the scheduler records events.k8s.io/v1 Events (tools/events: eventTime, action,
 * reportingController/Instance, no source or timestamps), so its stored Events change, and its
 * broadcaster's finishSeries loop (every 6 minutes) is one more step in the runs that last longer;
 * nothing else moves (same requests, revisions and names).
 * Re-made: the leader electors' Lease requests carry `?timeout=5s` (resourcelock.NewFromKubeconfig's
 * renewDeadline / 2), so the request log's paths change; nothing else moves (facts unchanged).
 * Re-made: the kubelet writes status.resources and allocatedResources (pod and containers, as
 * InPlacePodVerticalScaling does) and its node's quantities as Go prints them (8Gi, not 8388608Ki):
 * every stored pod and Node changes, nothing else moves (facts unchanged).
 * Re-made: the scheduler watches PodDisruptionBudgets from the start (DefaultPreemption's lister):
 * one more watch in every run's log; nothing else moves.
 */
const PINS: Record<string, { hash: string; facts: ReturnType<typeof facts> } | undefined> = {
  'create web ×3, settle': {
    hash: 'e86e2255',
    facts: {
      now: 7013,
      steps: 164,
      revision: 106,
      log: 250,
      kinds: { request: 147, watch: 88, cri: 15 },
      phases: { Running: 3 },
      restarts: 0,
      waiting: [],
      names: ['web-cd6dd8cd5-nzjqm@node-2', 'web-cd6dd8cd5-pjhzg@node-3', 'web-cd6dd8cd5-vc5xc@node-1'],
    },
  },
  'set image, roll out': {
    hash: '3874b2d2',
    facts: {
      now: 29013,
      steps: 537,
      revision: 234,
      log: 584,
      kinds: { request: 301, watch: 244, cri: 39 },
      phases: { Running: 3 },
      restarts: 0,
      waiting: [],
      names: ['web-5bc8cfccdd-2pdpp@node-3', 'web-5bc8cfccdd-lkdzk@node-2', 'web-5bc8cfccdd-ss969@node-1'],
    },
  },
  'node-2 stop, 7 minutes': {
    hash: '8e4a57d2',
    facts: {
      now: 428010,
      steps: 2399,
      revision: 692,
      log: 1162,
      kinds: { request: 837, watch: 287, cri: 38 },
      phases: { Running: 8 },
      restarts: 0,
      waiting: [],
      names: [
        'web-cd6dd8cd5-2pdpp@node-3',
        'web-cd6dd8cd5-lkdzk@node-1',
        'web-cd6dd8cd5-lsm28@node-3',
        'web-cd6dd8cd5-nzjqm@node-2',
        'web-cd6dd8cd5-pjhzg@node-2',
        'web-cd6dd8cd5-rzs7n@node-1',
        'web-cd6dd8cd5-ss969@node-3',
        'web-cd6dd8cd5-vc5xc@node-1',
      ],
    },
  },
  'control plane stop 3 min, start': {
    hash: '39440c61',
    facts: {
      now: 207417,
      steps: 1085,
      revision: 138,
      log: 796,
      kinds: { request: 645, watch: 136, cri: 15 },
      phases: { Running: 3 },
      restarts: 0,
      waiting: [],
      names: ['web-cd6dd8cd5-nzjqm@node-2', 'web-cd6dd8cd5-pjhzg@node-3', 'web-cd6dd8cd5-vc5xc@node-1'],
    },
  },
  'crash loop': {
    hash: 'd2d60db6',
    facts: {
      now: 472012,
      steps: 3146,
      revision: 745,
      log: 1092,
      kinds: { request: 790, watch: 282, cri: 20 },
      phases: { Running: 1 },
      restarts: 5,
      waiting: [],
      names: ['web-cd6dd8cd5-pjhzg@node-2'],
    },
  },
  'demo: web ×3, 10 minutes': {
    hash: 'f2aef91a',
    facts: {
      now: 600000,
      steps: 3840,
      revision: 880,
      log: 1216,
      kinds: { request: 921, watch: 280, cri: 15 },
      phases: { Running: 3 },
      restarts: 0,
      waiting: [],
      names: ['web-cd6dd8cd5-nzjqm@node-2', 'web-cd6dd8cd5-pjhzg@node-3', 'web-cd6dd8cd5-vc5xc@node-1'],
    },
  },
  'image missing, then available': {
    hash: '6c35afb2',
    facts: {
      now: 210000,
      steps: 1484,
      revision: 413,
      log: 679,
      kinds: { request: 462, watch: 179, cri: 38 },
      phases: { Running: 2 },
      restarts: 0,
      waiting: [],
      names: ['web-767b98b5f-pjhzg@node-2', 'web-767b98b5f-vc5xc@node-3'],
    },
  },
  '120 nodes, 600 pods': {
    hash: '71957e6b',
    facts: {
      now: 31000,
      steps: 18524,
      revision: 7634,
      log: 23007,
      kinds: { request: 10533, watch: 9879, cri: 2595 },
      phases: { Running: 600 },
      restarts: 0,
      waiting: [],
      names: [
        'app-0-d6d764cd5-22vxw@node-92',
        'app-0-d6d764cd5-249jj@node-24',
        'app-0-d6d764cd5-26vhn@node-95',
        'app-0-d6d764cd5-2bqbx@node-18',
        'app-0-d6d764cd5-2fm87@node-46',
        'app-0-d6d764cd5-2fsx4@node-75',
        'app-0-d6d764cd5-2jhvr@node-1',
        'app-0-d6d764cd5-2jjsd@node-77',
      ],
    },
  },
};

describe('performance invariants: whole runs are byte-identical', () => {
  for (const [name, s] of Object.entries(scenarios)) {
    it(
      name,
      () => {
        const c = createCluster({ seed: 1, ...s.opts });
        s.run(c);
        const got = { hash: c.world.hash(), facts: facts(c) };
        if (!PINS[name]) {
          console.log(`PIN ${JSON.stringify(name)}: ${JSON.stringify(got)},`);
          return;
        }
        expect(got.facts).toEqual(PINS[name].facts);
        expect(got.hash).toBe(PINS[name].hash);
        // A replay of the recorded inputs reaches the same bytes.
        const r = replayCluster({ seed: 1, ...s.opts }, c.world.state.inputs, c.now);
        expect(r.world.hash()).toBe(got.hash);
      },
      60_000,
    );
  }

  it('an unfrozen world (the default outside tests) produces the same bytes as a frozen one', () => {
    const c = createCluster({ seed: 1 });
    expect(c.world.state.store.freeze).toBe(true); // vitest: frozen by default
    scenarios['crash loop'].run(c);
    const thawed = replay(c.world.state.inputs, { seed: 1, freeze: false }, componentDefs, c.now, clusterApiServer);
    expect(thawed.state.store.freeze).toBe(false);
    expect(thawed.hash()).toBe(c.world.hash());
  });
});
