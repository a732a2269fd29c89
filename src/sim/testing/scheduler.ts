import type { Node, Pod, Taint, Toleration } from '../scheduler/k8s-types.ts';
import type { Rng } from '../scheduler/framework.ts';

// Builders in the spirit of st.MakePod()/st.MakeNode() (pkg/scheduler/testing/wrappers.go).

/** A node with allocatable resources, labels (hostname added) and taints. */
export function makeNode(
  name: string,
  allocatable: Record<string, string> = { cpu: '4', memory: '8Gi', pods: '110' },
  opts: { labels?: Record<string, string>; taints?: Taint[]; unschedulable?: boolean } = {},
): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(opts.labels ?? {}) } },
    spec: { taints: opts.taints, unschedulable: opts.unschedulable },
    status: { allocatable, capacity: allocatable },
  };
}

/** A pod whose containers request the given resources (one entry per container). */
export function makePod(
  name: string,
  requests: Record<string, string>[] = [],
  opts: Partial<NonNullable<Pod['spec']>> & {
    labels?: Record<string, string>;
    namespace?: string;
    uid?: string;
    ownerReferences?: NonNullable<Pod['metadata']>['ownerReferences'];
  } = {},
): Pod {
  const { labels, namespace, uid, ownerReferences, ...spec } = opts;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: namespace ?? 'default', uid: uid ?? `uid-${name}`, labels, ownerReferences },
    spec: {
      ...spec,
      containers: requests.map((r, i) => ({ name: `c${i}`, image: 'nginx', resources: { requests: r } })),
    },
  };
}

/** A toleration shorthand. */
export function tol(
  key: string | undefined,
  operator: Toleration['operator'],
  value?: string,
  effect?: Toleration['effect'],
): Toleration {
  return { key, operator, value, effect };
}

/** mulberry32: a tiny seeded generator for tests. */
export function seededRng(seed: number): Rng & { draws: number } {
  let a = seed >>> 0;
  const r = {
    draws: 0,
    int(n: number): number {
      r.draws++;
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    },
  };
  return r;
}
