// "No fast path without a differential test" (ARCHITECTURE.md), checked: every *-cache.ts and
// *-fast.ts in src/sim has a test that imports it and the module it speeds up, and every memo held
// in a cache module's Map, WeakMap or WeakSet is bypassed here (each lookup misses, so every answer
// is computed afresh) while the figures' stories and a few cluster runs are made again: the stories,
// their beats' world hashes and the runs' hashes must be the same bytes as with the memos.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from './cluster.ts';
import { compileFigure } from './figures/compile.ts';
import { FigureHost } from './figures/host.ts';
import { FIGURE_IDS, FIGURES } from './testing/figures.ts';
import { appDeployment } from './testing/world.ts';
import { Timeline } from './time-travel.ts';
import { decodeMoment, permalinkOf, restoreMoment } from './permalink.ts';
import { runScript, scriptHeader } from './kubectl/script.ts';
import { loadAddonsFromHeader } from './index.ts';
import { nodeResourcesFitAfterNodeChange } from './scheduler/queueing-hints.ts';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import * as apiserver_authnCache from './apiserver/authn-cache.ts';
import * as apiserver_authn from './apiserver/authn.ts';
import * as apiserver_dryRunCache from './apiserver/dry-run-cache.ts';
import * as apiserver_dryRun from './apiserver/dry-run.ts';
import * as apiserver_getCache from './apiserver/get-cache.ts';
import * as apiserver_get from './apiserver/get.ts';
import * as apiserver_impersonationCache from './apiserver/impersonation-cache.ts';
import * as apiserver_impersonation from './apiserver/impersonation.ts';
import * as apiserver_rbacCache from './apiserver/rbac-cache.ts';
import * as apiserver_rbac from './apiserver/rbac.ts';
import * as apiserver_requestLogCache from './request-log-cache.ts';
import * as apiserver_requestLog from './request-log.ts';
import * as apiserver_resourcesCache from './api/resources-cache.ts';
import * as apiserver_resources from './api/resources.ts';
import * as apiserver_strictFieldsCache from './api/strict-fields-cache.ts';
import * as apiserver_strictFields from './api/strict-fields.ts';
import * as clientgo_informerCache from './client-go/informer-cache.ts';
import * as clientgo_informer from './client-go/informer.ts';
import * as controllers_deploymentControllerCache from './controllers/deployment-controller-cache.ts';
import * as controllers_deploymentController from './controllers/deployment-controller.ts';
import * as controllers_deploymentUtilCache from './controllers/deployment-util-cache.ts';
import * as controllers_deploymentUtil from './controllers/deployment-util.ts';
import * as controllers_endpointsliceControllerCache from './controllers/endpointslice-controller-cache.ts';
import * as controllers_endpointsliceController from './controllers/endpointslice-controller.ts';
import * as controllers_replicasetControllerCache from './controllers/replicaset-controller-cache.ts';
import * as controllers_replicasetController from './controllers/replicaset-controller.ts';
import * as eventRecorderCache from './client-go/record-cache.ts';
import * as eventRecorder from './client-go/record.ts';
import * as kubeproxy_readerCache from './kube-proxy/reader-cache.ts';
import * as kubeproxy_reader from './kube-proxy/reader.ts';
import * as kubelet_containerRuntimeCache from './kubelet/container-runtime-cache.ts';
import * as kubelet_containerRuntime from './kubelet/container-runtime.ts';
import * as kubelet_eventsCache from './kubelet/events-cache.ts';
import * as kubelet_events from './kubelet/events.ts';
import * as kubelet_kubeletCache from './kubelet/kubelet-cache.ts';
import * as kubelet_kubelet from './kubelet/kubelet.ts';
import * as kubelet_nodeStatusCache from './kubelet/node-status-cache.ts';
import * as kubelet_nodeStatus from './kubelet/node-status.ts';
import * as kubelet_plegCache from './kubelet/pleg-cache.ts';
import * as kubelet_pleg from './kubelet/pleg.ts';
import * as kubelet_podIpCache from './kubelet/pod-ip-cache.ts';
import * as kubelet_podIp from './kubelet/pod-ip.ts';
import * as kubelet_podStatusCache from './kubelet/pod-status-cache.ts';
import * as kubelet_podStatus from './kubelet/pod-status.ts';
import * as kubelet_podWorkerCache from './kubelet/pod-worker-cache.ts';
import * as kubelet_podWorker from './kubelet/pod-worker.ts';
import * as namesCache from './util/names-cache.ts';
import * as names from './util/names.ts';
import * as net_iptablesWalkCache from './net/iptables-walk-cache.ts';
import * as net_iptablesWalk from './net/iptables-walk.ts';
import * as nodelifecycle_nodeLifecycleControllerCache from './node-lifecycle/node-lifecycle-controller-cache.ts';
import * as nodelifecycle_nodeLifecycleController from './node-lifecycle/node-lifecycle-controller.ts';
import * as permalinkCache from './permalink-cache.ts';
import * as permalink from './permalink.ts';
import * as scheduler_frameworkCache from './scheduler/framework-cache.ts';
import * as scheduler_framework from './scheduler/framework.ts';
import * as scheduler_matchCountsCache from './scheduler/match-counts-cache.ts';
import * as scheduler_matchCounts from './scheduler/match-counts.ts';
import * as scheduler_nodeInfoCache from './scheduler/node-info-cache.ts';
import * as scheduler_nodeInfo from './scheduler/node-info.ts';
import * as scheduler_nodeSlotsCache from './scheduler/node-slots-cache.ts';
import * as scheduler_nodeSlots from './scheduler/node-slots.ts';
import * as scheduler_podTopologySpreadCache from './scheduler/pod-topology-spread-cache.ts';
import * as scheduler_podTopologySpread from './scheduler/pod-topology-spread.ts';
import * as scheduler_profileCache from './scheduler/profile-cache.ts';
import * as scheduler_profile from './scheduler/profile.ts';
import * as scheduler_queueingHintsCache from './scheduler/queueing-hints-cache.ts';
import * as scheduler_queueingHints from './scheduler/queueing-hints.ts';
import * as scheduler_scheduleFastCache from './scheduler/schedule-fast-cache.ts';
import * as scheduler_scheduleFast from './scheduler/schedule-fast.ts';
import * as scheduler_schedulerCache from './scheduler/scheduler-cache.ts';
import * as scheduler_scheduler from './scheduler/scheduler.ts';
import * as util_labelsCache from './api/labels-cache.ts';
import * as util_labels from './api/labels.ts';
import * as util_quantityCache from './api/quantity-cache.ts';
import * as util_quantity from './api/quantity.ts';
import * as util_timeCache from './util/time-cache.ts';
import * as util_time from './util/time.ts';
import * as view_statechartCache from './view/statechart-cache.ts';
import * as view_statechart from './view/statechart.ts';

/** Each cache module beside the module it speeds up (path relative to src/sim). */
const PAIRS: [string, object, object][] = [
  ['apiserver/authn-cache.ts', apiserver_authnCache, apiserver_authn],
  ['apiserver/dry-run-cache.ts', apiserver_dryRunCache, apiserver_dryRun],
  ['apiserver/get-cache.ts', apiserver_getCache, apiserver_get],
  ['apiserver/impersonation-cache.ts', apiserver_impersonationCache, apiserver_impersonation],
  ['apiserver/rbac-cache.ts', apiserver_rbacCache, apiserver_rbac],
  ['request-log-cache.ts', apiserver_requestLogCache, apiserver_requestLog],
  ['api/resources-cache.ts', apiserver_resourcesCache, apiserver_resources],
  ['api/strict-fields-cache.ts', apiserver_strictFieldsCache, apiserver_strictFields],
  ['client-go/informer-cache.ts', clientgo_informerCache, clientgo_informer],
  [
    'controllers/deployment-controller-cache.ts',
    controllers_deploymentControllerCache,
    controllers_deploymentController,
  ],
  ['controllers/deployment-util-cache.ts', controllers_deploymentUtilCache, controllers_deploymentUtil],
  [
    'controllers/endpointslice-controller-cache.ts',
    controllers_endpointsliceControllerCache,
    controllers_endpointsliceController,
  ],
  [
    'controllers/replicaset-controller-cache.ts',
    controllers_replicasetControllerCache,
    controllers_replicasetController,
  ],
  ['client-go/record-cache.ts', eventRecorderCache, eventRecorder],
  ['kube-proxy/reader-cache.ts', kubeproxy_readerCache, kubeproxy_reader],
  ['kubelet/container-runtime-cache.ts', kubelet_containerRuntimeCache, kubelet_containerRuntime],
  ['kubelet/events-cache.ts', kubelet_eventsCache, kubelet_events],
  ['kubelet/kubelet-cache.ts', kubelet_kubeletCache, kubelet_kubelet],
  ['kubelet/node-status-cache.ts', kubelet_nodeStatusCache, kubelet_nodeStatus],
  ['kubelet/pleg-cache.ts', kubelet_plegCache, kubelet_pleg],
  ['kubelet/pod-ip-cache.ts', kubelet_podIpCache, kubelet_podIp],
  ['kubelet/pod-status-cache.ts', kubelet_podStatusCache, kubelet_podStatus],
  ['kubelet/pod-worker-cache.ts', kubelet_podWorkerCache, kubelet_podWorker],
  ['util/names-cache.ts', namesCache, names],
  ['net/iptables-walk-cache.ts', net_iptablesWalkCache, net_iptablesWalk],
  [
    'node-lifecycle/node-lifecycle-controller-cache.ts',
    nodelifecycle_nodeLifecycleControllerCache,
    nodelifecycle_nodeLifecycleController,
  ],
  ['permalink-cache.ts', permalinkCache, permalink],
  ['scheduler/framework-cache.ts', scheduler_frameworkCache, scheduler_framework],
  ['scheduler/match-counts-cache.ts', scheduler_matchCountsCache, scheduler_matchCounts],
  ['scheduler/node-info-cache.ts', scheduler_nodeInfoCache, scheduler_nodeInfo],
  ['scheduler/node-slots-cache.ts', scheduler_nodeSlotsCache, scheduler_nodeSlots],
  ['scheduler/pod-topology-spread-cache.ts', scheduler_podTopologySpreadCache, scheduler_podTopologySpread],
  ['scheduler/profile-cache.ts', scheduler_profileCache, scheduler_profile],
  ['scheduler/queueing-hints-cache.ts', scheduler_queueingHintsCache, scheduler_queueingHints],
  ['scheduler/schedule-fast-cache.ts', scheduler_scheduleFastCache, scheduler_scheduleFast],
  ['scheduler/scheduler-cache.ts', scheduler_schedulerCache, scheduler_scheduler],
  ['api/labels-cache.ts', util_labelsCache, util_labels],
  ['api/quantity-cache.ts', util_quantityCache, util_quantity],
  ['util/time-cache.ts', util_timeCache, util_time],
  ['view/statechart-cache.ts', view_statechartCache, view_statechart],
];

// Collections that are not memos: bypassing them would change what the model does, not how fast.
const NOT_MEMOS: Record<string, string> = {
  // Marks the scratch copy a dry run is served on (a lookup that misses would dry-run it again).
  'apiserver/dry-run-cache.ts scratchHosts': 'a marker, not a memo',
  // Each canonical machine's transition table, filled as it is used (canonicalByJSON, bypassed, makes
  // every machine a new canonical one, so its transitions are worked out afresh all the same).
  'kubelet/pod-worker-cache.ts transitionsOf': 'the table a canonical machine is registered in',
  // The log of in-place changes that the runtime's map tokens (mapVersion) are read from: other memos
  // key on it, and a missing log would make them hit when they must not.
  'kubelet/container-runtime-cache.ts mapChangeLogs': 'the version log other memos key on',
  // Interns each (namespace, selector) key and numbers it in the order keys are first seen: the number
  // names the key in the NodeInfo journal and in pod-topology-spread's per-selector views. A lookup
  // that misses registers the key again under the next free number, so two keys would share one and
  // read each other's cached views (what made later runs hash differently after a bypass).
  'scheduler/match-counts-cache.ts selectors': 'an interning table whose numbers name keys',
  // One process's informers share a LIST of the same selectors at the same revision, as client-go's
  // shared informer factory does: a bypass sends (and logs) the second request. The runs never reach
  // it (informers list by streaming watches); only the namespace controller's deletion LISTs do.
  'apiserver/get-cache.ts processLists': 'one LIST shared by a process, which the request log shows',
};

type Collection = Map<unknown, unknown> | WeakMap<object, unknown> | Set<unknown> | WeakSet<object>;

/** The memo collections each cache module exports, by "file name". */
function memoCollections(): Map<string, Collection> {
  const out = new Map<string, Collection>();
  for (const [file, cache] of PAIRS) {
    for (const [name, v] of Object.entries(cache)) {
      const key = `${file} ${name}`;
      if (NOT_MEMOS[key]) continue;
      if (v instanceof Map || v instanceof WeakMap || v instanceof Set || v instanceof WeakSet)
        out.set(key, v as Collection);
    }
  }
  return out;
}

/** Runs `f` with every memo collection missing on every lookup; returns f's answer and how often each was consulted. */
function withoutMemos<T>(f: () => T): { value: T; lookups: Map<string, number> } {
  const lookups = new Map<string, number>();
  const all = memoCollections();
  for (const [key, c] of all) {
    lookups.set(key, 0);
    const miss = (answer: unknown) => () => {
      lookups.set(key, lookups.get(key)! + 1);
      return answer;
    };
    Object.defineProperty(c, 'has', { value: miss(false), configurable: true });
    if (!(c instanceof Set || c instanceof WeakSet))
      Object.defineProperty(c, 'get', { value: miss(undefined), configurable: true });
  }
  try {
    return { value: f(), lookups };
  } finally {
    for (const c of all.values()) {
      delete (c as { has?: unknown }).has;
      delete (c as { get?: unknown }).get;
    }
  }
}

function apply(c: Cluster, name: string, replicas: number, image = 'nginx:1.27'): void {
  const r = c.request({
    verb: 'create',
    resource: 'deployments',
    namespace: 'default',
    body: appDeployment(name, replicas, image, { resources: { requests: { cpu: '10m', memory: '16Mi' } } }),
  });
  if (!r.ok) throw new Error(r.status.message);
}

/** Whole cluster runs (rollout, node failure, control-plane outage, crash loop), each as its world hash. */
function clusterRuns(): string[] {
  const runs: ((c: Cluster) => void)[] = [
    (c) => {
      apply(c, 'web', 3);
      c.settle();
      c.request({
        verb: 'patch',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } },
      });
      c.settle();
    },
    (c) => {
      apply(c, 'web', 6);
      c.settle();
      c.node('node-2', 'stop');
      c.advance(7 * 60_000);
    },
    (c) => {
      apply(c, 'web', 3);
      c.settle();
      c.controlPlane('stop');
      c.advance(3 * 60_000);
      c.controlPlane('start');
      c.settle();
    },
    (c) => {
      apply(c, 'web', 2, 'nginx:does-not-exist');
      c.advance(5 * 60_000);
    },
  ];
  return runs.map((run) => {
    const c = createCluster();
    run(c);
    return c.world.hash();
  });
}

/** Runs off the figures' paths: a sidecar with a host port, a pod no node fits, kubeadm's node, a namespace deleted, a link. */
function unusualRuns(): string[] {
  const out: string[] = [];
  {
    const c = createCluster();
    // A restartable init container with a host port: node-info's per-pod caches (not per container list).
    const side = appDeployment('side', 2, 'nginx:1.27', { resources: { requests: { cpu: '10m', memory: '16Mi' } } });
    side.spec!.template.spec!.initContainers = [
      { name: 'log', image: 'busybox:1.36', restartPolicy: 'Always', ports: [{ containerPort: 9000, hostPort: 9000 }] },
    ];
    c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: side });
    apply(c, 'big', 1, 'nginx:1.27');
    c.request({ verb: 'create', resource: 'namespaces', body: { metadata: { name: 'tmp' } } });
    c.request({
      verb: 'create',
      resource: 'deployments',
      namespace: 'tmp',
      body: appDeployment('web', 1, 'nginx:1.27'),
    });
    c.settle();
    // The namespace controller lists what is left in a namespace being deleted (one process's LIST).
    c.request({ verb: 'delete', resource: 'namespaces', name: 'tmp' });
    c.advance(60_000);
    out.push(c.world.hash());
    // NodeResourcesFit's queueing hint over every pair of nodes, for a pod that fits none and one that fits.
    const nodes = (c.world.state.store.objects.nodes ?? {}) as Record<string, Node>;
    const pods: Pod[] = [
      { spec: { containers: [{ name: 'a', resources: { requests: { cpu: '6' } } }] } },
      { spec: { containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }] } },
    ];
    for (const pod of pods)
      for (const a of Object.values(nodes))
        for (const b of Object.values(nodes)) out.push(nodeResourcesFitAfterNodeChange(pod, a, b));
  }
  {
    const c = createCluster({ kubeadm: true });
    apply(c, 'web', 2);
    c.settle();
    out.push(c.world.hash());
  }
  {
    // A link to a moment, and the cluster it restores.
    const tl = new Timeline(createCluster());
    apply(tl.cluster, 'web', 2);
    tl.settle(60_000);
    const link = permalinkOf(tl);
    out.push(JSON.stringify(link));
    if (link.ok) {
      const m = decodeMoment(link.link);
      if (m.ok) {
        const r = restoreMoment(m.moment);
        out.push(r.ok ? r.timeline.cluster.world.hash() : r.error);
      }
    }
  }
  return out;
}

// The oracle's scenarios (oracle/scenarios): kubectl's paths, judged against a real cluster elsewhere.
const SCENARIOS = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'oracle', 'scenarios');
const scripts = (readdirSync(SCENARIOS, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.sim'))
  .sort()
  .map((f) => readFileSync(join(SCENARIOS, f), 'utf8'));

/** Each scenario's kubectl output and world hash, played as the oracle plays it (3 nodes, their sizes, add-ons). */
function scriptRuns(addonsOf: Awaited<ReturnType<typeof loadAddonsFromHeader>>): string[] {
  return scripts.map((text) => {
    const h = scriptHeader(text);
    const size = h.nodes;
    const c = createCluster({
      seed: 1,
      nodes: 3,
      ...(size ? { nodeCapacity: [1, 2, 3].map(() => ({ ...size })) } : {}),
      addons: addonsOf(h),
    });
    c.advance(5000);
    return JSON.stringify(runScript(c, text).steps) + c.world.hash();
  });
}

/** Every figure's compiled story (its beats carry the world hash), and the view at each beat of a fresh host. */
function figureStories(): string[] {
  return FIGURE_IDS.map((id) => {
    const def = FIGURES[id];
    const compiled = compileFigure(def);
    const host = new FigureHost(def, compiled.story);
    const views = compiled.story.beats.map((b) => host.handle({ op: 'seek', step: b.step }));
    return JSON.stringify({ compiled, views });
  });
}

/** '' when a and b are equal, else both around their first difference. */
function firstDifference(a: string, b: string): string {
  if (a === b) return '';
  let i = 0;
  while (a[i] === b[i]) i++;
  return `at ${i}: …${a.slice(Math.max(0, i - 300), i + 100)}… vs …${b.slice(Math.max(0, i - 300), i + 100)}…`;
}

describe('caches and fast paths', () => {
  it('every *-cache.ts and *-fast.ts has a test importing it and the module it speeds up', () => {
    const root = fileURLToPath(new URL('.', import.meta.url));
    const files = (readdirSync(root, { recursive: true }) as string[])
      .map((f) => f.split(sep).join('/'))
      .filter((f) => f.endsWith('.ts'));
    const importsOf = new Map(
      files
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => [
          f,
          new Set(
            [...readFileSync(join(root, f), 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) =>
              posix.normalize(posix.join(posix.dirname(f), m[1])),
            ),
          ),
        ]),
    );
    const speedUps = files.filter((f) => /-(cache|fast)\.ts$/.test(f));
    expect(speedUps.length).toBeGreaterThan(30);
    const missing = speedUps.filter((s) => {
      const reference =
        s === 'scheduler/schedule-fast.ts' ? 'scheduler/schedule-one.ts' : s.replace(/-(cache|fast)\.ts$/, '.ts');
      return ![...importsOf.values()].some((imports) => imports.has(s) && imports.has(reference));
    });
    expect(missing).toEqual([]);
  });

  it('lists every cache module (PAIRS), each beside its module', () => {
    const root = fileURLToPath(new URL('.', import.meta.url));
    const files = (readdirSync(root, { recursive: true }) as string[])
      .map((f) => f.split(sep).join('/'))
      .filter((f) => f.endsWith('-cache.ts'))
      .sort();
    expect(PAIRS.map(([f]) => f).sort()).toEqual(files);
  });

  it('makes the same cluster runs, scripts and figure stories without the memos, byte for byte, and after them', async () => {
    const addonsOf = await loadAddonsFromHeader();
    const all = () => ({
      runs: [...clusterRuns(), ...unusualRuns(), ...scriptRuns(addonsOf)],
      stories: figureStories(),
    });
    const withMemos = all();
    const without = withoutMemos(all);
    expect(without.value.runs).toEqual(withMemos.runs);
    for (let i = 0; i < FIGURE_IDS.length; i++)
      expect(firstDifference(without.value.stories[i], withMemos.stories[i]), FIGURE_IDS[i]).toBe('');
    // Each memo was consulted (and missed), so the comparison above covers every one.
    expect([...without.lookups].filter(([, n]) => n === 0).map(([k]) => k)).toEqual([]);
    // What the memos kept while bypassed (every miss still stores its answer) is as good as their own:
    // the runs made after it are the same bytes (an interning table bypassed once made them differ).
    expect(clusterRuns()).toEqual(withMemos.runs.slice(0, 4));
  }, 600_000);
});
