// Pins whole runs of the assembled cluster (world.hash() covers the store, the request log, the clock
// and the rng), so that optimisations of the core cannot change what a reader sees: the same
// objects, names, timings and request log for the same inputs.
import type { Deployment } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import { componentDefs, createCluster, replayCluster, type Cluster } from './cluster.ts';
import { replay } from './world.ts';

function deployment(name: string, replicas: number, image = 'nginx:1.27'): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image, resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
      },
    },
  };
}

function apply(c: Cluster, d: Deployment): void {
  const r = c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: d });
  if (!r.ok) throw new Error(r.status.message);
}

function setImage(c: Cluster, image: string): void {
  c.request({ verb: 'patch', resource: 'deployments', namespace: 'default', name: 'web', body: { spec: { template: { spec: { containers: [{ name: 'app', image }] } } } } });
}

interface PodView { metadata?: { name?: string; deletionTimestamp?: string }; spec?: { nodeName?: string }; status?: { phase?: string; containerStatuses?: { restartCount?: number; state?: { waiting?: { reason?: string } } }[] } }

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
    waiting: pods.map((p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason).filter(Boolean).sort(),
    names: pods.map((p) => `${p.metadata?.name}@${p.spec?.nodeName ?? ''}`).sort().slice(0, 8),
  };
}

/** The scenarios, each a function of a fresh cluster. */
const scenarios: Record<string, { opts?: { nodes?: number }; run: (c: Cluster) => void }> = {
  'create web ×3, settle': { run: (c) => { apply(c, deployment('web', 3)); c.settle(); } },
  'set image, roll out': {
    run: (c) => { apply(c, deployment('web', 3)); c.settle(); setImage(c, 'nginx:1.28'); c.settle(); },
  },
  'node-2 stop, 7 minutes': {
    run: (c) => { apply(c, deployment('web', 6)); c.settle(); c.node('node-2', 'stop'); c.advance(7 * 60_000); },
  },
  'control plane stop 3 min, start': {
    run: (c) => { apply(c, deployment('web', 3)); c.settle(); c.controlPlane('stop'); c.advance(3 * 60_000); c.controlPlane('start'); c.settle(); },
  },
  'crash loop': {
    run: (c) => {
      apply(c, deployment('web', 1));
      c.settle();
      const pod = () => Object.values(c.world.state.store.objects.pods ?? {})[0] as PodView;
      // The kubelet's crash fault injected directly (Cluster.crash() refuses a container that is not running).
      const crash = () => c.world.inject(`kubelet/${pod().spec!.nodeName}`, { type: 'crash', namespace: 'default', pod: pod().metadata!.name, container: 'app', oom: false });
      for (let i = 0; i < 5; i++) { crash(); c.advance(i < 2 ? 15_000 : 45_000); }
      c.advance(5 * 60_000);
    },
  },
  'demo: web ×3, 10 minutes': { run: (c) => { apply(c, deployment('web', 3)); c.advance(10 * 60_000); } },
  'image missing, then available': {
    run: (c) => { c.image('nginx:9.9', 'missing'); apply(c, deployment('web', 2, 'nginx:9.9')); c.advance(90_000); c.image('nginx:9.9', 'available'); c.advance(120_000); },
  },
  '120 nodes, 600 pods': {
    opts: { nodes: 120 },
    run: (c) => { c.advance(1_000); apply(c, deployment('app-0', 400)); apply(c, deployment('app-1', 200)); c.advance(30_000); },
  },
};

/** The pinned results (update deliberately, with the reason in the change). */
const PINS: Record<string, { hash: string; facts: ReturnType<typeof facts> } | undefined> = {
  "create web ×3, settle": {"hash":"9203eb48","facts":{"now":6798,"steps":149,"revision":67,"log":227,"kinds":{"request":118,"watch":94,"cri":15},"phases":{"Pending":3},"restarts":0,"waiting":["ContainerCreating","ContainerCreating","ContainerCreating"],"names":["web-cd6dd8cd5-c75cz@node-2","web-cd6dd8cd5-cdq7g@node-1","web-cd6dd8cd5-l2bvd@node-3"]}},
  "set image, roll out": {"hash":"b0e40b7f","facts":{"now":13510,"steps":284,"revision":96,"log":344,"kinds":{"request":150,"watch":174,"cri":20},"phases":{"Running":3,"Pending":1},"restarts":0,"waiting":["ContainerCreating"],"names":["web-5bc8cfccdd-6bsjh@node-3","web-cd6dd8cd5-c75cz@node-2","web-cd6dd8cd5-cdq7g@node-1","web-cd6dd8cd5-l2bvd@node-3"]}},
  "node-2 stop, 7 minutes": {"hash":"981c04e2","facts":{"now":426813,"steps":2054,"revision":227,"log":739,"kinds":{"request":278,"watch":423,"cri":38},"phases":{"Running":6,"Pending":2},"restarts":0,"waiting":["ContainerCreating","ContainerCreating"],"names":["web-cd6dd8cd5-2vxng@node-1","web-cd6dd8cd5-c75cz@node-1","web-cd6dd8cd5-cdq7g@node-3","web-cd6dd8cd5-cn28r@node-3","web-cd6dd8cd5-hpgzc@node-2","web-cd6dd8cd5-l2bvd@node-3","web-cd6dd8cd5-pv6tm@node-1","web-cd6dd8cd5-xzjwt@node-2"]}},
  "control plane stop 3 min, start": {"hash":"9caa151d","facts":{"now":207202,"steps":1252,"revision":84,"log":791,"kinds":{"request":639,"watch":137,"cri":15},"phases":{"Running":3},"restarts":0,"waiting":[],"names":["web-cd6dd8cd5-c75cz@node-2","web-cd6dd8cd5-cdq7g@node-1","web-cd6dd8cd5-l2bvd@node-3"]}},
  "crash loop": {"hash":"91c0d21f","facts":{"now":471864,"steps":2677,"revision":243,"log":641,"kinds":{"request":290,"watch":331,"cri":20},"phases":{"Running":1},"restarts":5,"waiting":[],"names":["web-cd6dd8cd5-c75cz@node-2"]}},
  "demo: web ×3, 10 minutes": {"hash":"e4e4faa5","facts":{"now":600000,"steps":3255,"revision":258,"log":644,"kinds":{"request":309,"watch":320,"cri":15},"phases":{"Running":3},"restarts":0,"waiting":[],"names":["web-cd6dd8cd5-c75cz@node-2","web-cd6dd8cd5-cdq7g@node-1","web-cd6dd8cd5-l2bvd@node-3"]}},
  "image missing, then available": {"hash":"8a098367","facts":{"now":210000,"steps":1295,"revision":170,"log":470,"kinds":{"request":217,"watch":223,"cri":30},"phases":{"Running":2},"restarts":0,"waiting":[],"names":["web-767b98b5f-c75cz@node-3","web-767b98b5f-l2bvd@node-2"]}},
  "120 nodes, 600 pods": {"hash":"42d2bc3c","facts":{"now":31000,"steps":29195,"revision":8183,"log":32869,"kinds":{"request":8587,"watch":21282,"cri":3000},"phases":{"Running":600},"restarts":0,"waiting":[],"names":["app-0-d6d764cd5-2bcq7@node-60","app-0-d6d764cd5-2cljv@node-45","app-0-d6d764cd5-2dqgp@node-73","app-0-d6d764cd5-2gctl@node-18","app-0-d6d764cd5-2kfqs@node-37","app-0-d6d764cd5-2l5ns@node-117","app-0-d6d764cd5-2ph7c@node-3","app-0-d6d764cd5-2rz2n@node-100"]}},
};

describe('performance invariants: whole runs are byte-identical', () => {
  for (const [name, s] of Object.entries(scenarios)) {
    it(name, () => {
      const c = createCluster({ seed: 1, ...s.opts });
      s.run(c);
      const got = { hash: c.world.hash(), facts: facts(c) };
      if (!PINS[name]) { console.log(`PIN ${JSON.stringify(name)}: ${JSON.stringify(got)},`); return; }
      expect(got.facts).toEqual(PINS[name]!.facts);
      expect(got.hash).toBe(PINS[name]!.hash);
      // A replay of the recorded inputs reaches the same bytes.
      const r = replayCluster({ seed: 1, ...s.opts }, c.world.state.inputs, c.now);
      expect(r.world.hash()).toBe(got.hash);
    }, 60_000);
  }

  it('an unfrozen world (the default outside tests) produces the same bytes as a frozen one', () => {
    const c = createCluster({ seed: 1 });
    expect(c.world.state.store.freeze).toBe(true); // vitest: frozen by default
    scenarios['crash loop'].run(c);
    const thawed = replay(c.world.state.inputs, { seed: 1, freeze: false }, componentDefs, c.now);
    expect(thawed.state.store.freeze).toBe(false);
    expect(thawed.hash()).toBe(c.world.hash());
  });
});
