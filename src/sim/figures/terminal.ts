// The figures' terminal on the worker side, without kubectl itself (the worker loads that lazily):
// a SimCluster whose every change goes through the figure's Timeline, so a command's requests,
// faults and simulated time are recorded steps (step back, replay and links hold), the limits on
// what a reader may send, and the object names Tab completes from.
import { SETTLE_MAX_MS, type Cluster } from '../cluster.ts';
import type { SimCluster } from '../cluster-types.ts';
import { storeList } from '../store.ts';
import type { Timeline } from '../time-travel.ts';

/** What a command printed (kubectl's KubectlResult). */
export interface LineResult { stdout: string; stderr: string; exitCode: number }

/** The script runner's per-line function (kubectl/script.ts runLine), given by the worker once loaded. */
export type LineRunner = (cluster: SimCluster, line: string, stdin?: string) => LineResult;

/** The longest line a reader may run, and the longest manifest on stdin (kubectl then applies its own 64 KiB limit). */
export const TERMINAL_LIMITS = { maxLine: 4096, maxStdin: 256 * 1024, maxOutput: 64 * 1024 } as const;

/** Why a line is refused before it runs (too long), as the terminal prints it; null when it may run. */
export function refusalOf(line: string, stdin: string | undefined): string | null {
  if (typeof line !== 'string') return 'error: the command is not text\n';
  if (line.length > TERMINAL_LIMITS.maxLine) return `error: the command is ${line.length} characters long; this terminal takes lines of at most ${TERMINAL_LIMITS.maxLine}\n`;
  if (stdin !== undefined && typeof stdin !== 'string') return 'error: the manifest is not text\n';
  if (stdin !== undefined && stdin.length > TERMINAL_LIMITS.maxStdin) return `error: the manifest is ${stdin.length} characters long; this terminal takes at most ${TERMINAL_LIMITS.maxStdin} (kubectl itself applies at most 64 KiB)\n`;
  return null;
}

/** Output cut to what the page shows, and how much was left out. */
export function clip(text: string): { text: string; cut: number } {
  const max = TERMINAL_LIMITS.maxOutput;
  return text.length <= max ? { text, cut: 0 } : { text: text.slice(0, max), cut: text.length - max };
}

/**
 * The cluster as kubectl and `sim` lines see it, with every change made through the timeline:
 * requests and faults are recorded inputs, `advance` and `settle` record the steps they run.
 * `change` is called before the first of them (the host forks the story away there).
 */
export function timelineCluster(tl: Timeline, change: () => void): SimCluster {
  const c: Cluster = tl.cluster;
  const act = <R>(f: (x: Cluster) => R): R => { change(); return tl.apply(f); };
  return {
    get world() { return c.world; },
    get now() { return c.now; },
    get log() { return c.log; },
    request: (req) => act((x) => x.request(req)),
    advance: (ms) => { change(); tl.advance(ms); },
    settle: (maxMs) => { change(); return tl.settle(maxMs ?? SETTLE_MAX_MS); },
    node: (name, action) => act((x) => x.node(name, action)),
    controlPlane: (action, component) => act((x) => x.controlPlane(action, component)),
    apiserverLatency: (ms) => act((x) => x.apiserverLatency(ms)),
    etcd: (state) => act((x) => x.etcd(state)),
    crash: (ns, pod, opts) => act((x) => x.crash(ns, pod, opts)),
    image: (image, state) => act((x) => x.image(image, state)),
  };
}

const CLUSTER_SCOPED = new Set(['nodes', 'namespaces']);

/** Names of a resource's objects in the store (no request is sent: completing must not be a recorded input). */
export function namesIn(cluster: Cluster, resource: string, namespace: string): string[] {
  const objs = storeList(cluster.world.state.store, resource, CLUSTER_SCOPED.has(resource) ? undefined : namespace || undefined);
  const names: string[] = [];
  for (const o of objs) {
    const name = (o as { metadata?: { name?: unknown } }).metadata?.name;
    if (typeof name === 'string' && names.length < 200) names.push(name);
  }
  return names;
}
