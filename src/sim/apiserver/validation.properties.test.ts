// Property: any manifest, however wrong (arbitrary JSON in any field of a Deployment, ReplicaSet,
// Pod, Service, Namespace or Node: wrong types, huge numbers, NaN-like strings, deep nesting), sent
// through `kubectl apply -f -` ends in the API server's answer (2xx or 4xx, never an exception),
// and the cluster keeps running: a minute later nothing has thrown and a valid Deployment still
// becomes available.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { storeGet } from './store.ts';
import { storeKey } from '../api/resources.ts';
import { runs } from '../../test/fc.ts';

type Unstructured = any;

const template = (): Unstructured => ({
  metadata: { labels: { app: 'bad' } },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1.27',
        ports: [{ containerPort: 80 }],
        resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
      },
    ],
  },
});

/** A valid object of each kind kubectl apply sends, the base every case corrupts. */
const BASES: Record<string, () => Unstructured> = {
  Deployment: () => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'bad', labels: { app: 'bad' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'bad' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: template(),
    },
  }),
  ReplicaSet: () => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'bad' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'bad' } }, template: template() },
  }),
  Pod: () => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'bad', labels: { app: 'bad' } },
    spec: template().spec,
  }),
  Service: () => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'bad' },
    spec: { type: 'NodePort', selector: { app: 'bad' }, ports: [{ port: 80, targetPort: 8080, nodePort: 30080 }] },
  }),
  Namespace: () => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bad', labels: { a: 'b' } } }),
  Node: () => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'bad', labels: { a: 'b' } },
    spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] },
    status: { capacity: { cpu: '2', memory: '4Gi', pods: '110' } },
  }),
};

/** Paths into the bases (and a few that are not there): where a wrong value goes. */
const PATHS = [
  'metadata',
  'metadata.name',
  'metadata.labels',
  'metadata.labels.app',
  'metadata.annotations',
  'metadata.namespace',
  'metadata.generateName',
  'metadata.finalizers',
  'metadata.ownerReferences',
  'spec',
  'spec.replicas',
  'spec.selector',
  'spec.selector.matchLabels',
  'spec.selector.matchLabels.app',
  'spec.selector.matchExpressions',
  'spec.strategy',
  'spec.strategy.type',
  'spec.strategy.rollingUpdate',
  'spec.strategy.rollingUpdate.maxSurge',
  'spec.strategy.rollingUpdate.maxUnavailable',
  'spec.minReadySeconds',
  'spec.revisionHistoryLimit',
  'spec.progressDeadlineSeconds',
  'spec.paused',
  'spec.template',
  'spec.template.metadata',
  'spec.template.metadata.labels',
  'spec.template.metadata.labels.app',
  'spec.template.spec',
  'spec.template.spec.containers',
  'spec.template.spec.containers.0',
  'spec.template.spec.containers.0.name',
  'spec.template.spec.containers.0.image',
  'spec.template.spec.containers.0.ports',
  'spec.template.spec.containers.0.ports.0.containerPort',
  'spec.template.spec.containers.0.resources',
  'spec.template.spec.containers.0.resources.requests.cpu',
  'spec.template.spec.containers.0.resources.limits.memory',
  'spec.template.spec.containers.0.readinessProbe',
  'spec.template.spec.containers.0.env',
  'spec.template.spec.containers.0.command',
  'spec.template.spec.restartPolicy',
  'spec.template.spec.nodeSelector',
  'spec.template.spec.tolerations',
  'spec.template.spec.terminationGracePeriodSeconds',
  'spec.template.spec.nodeName',
  'spec.template.spec.affinity',
  'spec.containers',
  'spec.containers.0',
  'spec.containers.0.name',
  'spec.containers.0.image',
  'spec.containers.0.ports',
  'spec.containers.0.ports.0',
  'spec.containers.0.ports.0.containerPort',
  'spec.containers.0.resources',
  'spec.containers.0.resources.requests',
  'spec.containers.0.resources.requests.cpu',
  'spec.containers.0.resources.limits.cpu',
  'spec.containers.0.resources.limits.memory',
  'spec.containers.0.livenessProbe',
  'spec.containers.0.imagePullPolicy',
  'spec.restartPolicy',
  'spec.nodeName',
  'spec.nodeSelector',
  'spec.tolerations',
  'spec.activeDeadlineSeconds',
  'spec.initContainers',
  'spec.priority',
  'spec.type',
  'spec.ports',
  'spec.ports.0',
  'spec.ports.0.port',
  'spec.ports.0.targetPort',
  'spec.ports.0.nodePort',
  'spec.ports.0.protocol',
  'spec.ports.0.name',
  'spec.clusterIP',
  'spec.clusterIPs',
  'spec.selector.app',
  'spec.sessionAffinity',
  'spec.externalTrafficPolicy',
  'spec.taints',
  'spec.taints.0',
  'spec.taints.0.effect',
  'spec.unschedulable',
  'spec.podCIDR',
  'status',
  'status.capacity',
  'status.capacity.cpu',
  'status.allocatable',
  'status.conditions',
  'status.phase',
  'spec.finalizers',
  'x',
  'spec.x',
];

const WEIRD = fc.constantFrom<unknown>(
  'NaN',
  'Infinity',
  '-1',
  '1e400',
  '',
  ' ',
  '25%',
  '150%',
  '-5%',
  'abc%',
  '%',
  '0%',
  '1.5',
  '0x10',
  '100m',
  '-100m',
  '1Ki',
  '9999999999999Ei',
  'Always',
  'Never',
  'null',
  'true',
  '[]',
  '{}',
  'a'.repeat(300),
  'UPPER',
  'a_b',
  '-a',
  'nginx:latest',
  'TCP',
  'SCTP',
  'ClusterIP',
  'NodePort',
  'NoSchedule',
  'Recreate',
  'RollingUpdate',
  -1,
  0,
  1,
  -2147483649,
  2147483648,
  1e21,
  1.5,
  -0.5,
  Number.MAX_SAFE_INTEGER,
  65536,
  30000,
  99999,
  true,
  false,
  null,
  [],
  {},
  [[[[[[]]]]]],
  [null],
  [1, 'a'],
  { a: { b: { c: { d: { e: {} } } } } },
  { matchLabels: { app: 'other' } },
  { '': '' },
  { name: 1 },
  [{ name: 'web' }, { name: 'web' }],
);
const VALUE = fc.oneof(
  { weight: 3, arbitrary: WEIRD },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.double() },
);

/** Set `value` at a dotted path, making the containers on the way (objects, or arrays for a numeric step). */
function setPath(o: Unstructured, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = o;
  for (let i = 0; i < parts.length - 1; i++) {
    const k = parts[i];
    if (cur[k] === null || typeof cur[k] !== 'object') cur[k] = /^\d+$/.test(parts[i + 1]) ? [] : {};
    cur = cur[k];
  }
  cur[parts[parts.length - 1]] = value;
}

const CASE = fc.record({
  kind: fc.constantFrom(...Object.keys(BASES)),
  edits: fc.array(fc.tuple(fc.constantFrom(...PATHS), VALUE), { minLength: 1, maxLength: 4 }),
  // Apply a valid one first, so the bad one goes in as an update (PUT) instead of a create.
  update: fc.boolean(),
});

const GOOD = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'good' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'good' } },
    template: { metadata: { labels: { app: 'good' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
});

const cluster = createCluster({ seed: 3 });
cluster.advance(5_000);
const start = cluster.snapshot();

/** Apply the manifest, then check the cluster still runs and converges a valid Deployment. */
function check(kind: string, edits: [string, unknown][], update: boolean): void {
  cluster.restore(start);
  const m = BASES[kind]();
  if (update) expect(runKubectl(cluster, 'kubectl apply -f -', JSON.stringify(m)).exitCode).toBe(0);
  // A valid but huge replica count (30000) is accepted, as Kubernetes does, and only makes the case slow.
  for (const [p, v] of edits)
    setPath(
      m,
      p,
      p === 'spec.replicas' && typeof v === 'number' && v > 20 && Number.isInteger(v) && v < 2 ** 31 ? v % 20 : v,
    );
  const logFrom = cluster.world.state.log.length;
  const r = runKubectl(cluster, 'kubectl apply -f -', JSON.stringify(m));
  expect(typeof r.stdout).toBe('string');
  if (r.exitCode !== 0) expect(r.stderr).toMatch(/^(error: |Error from server|The [A-Za-z]+ ".*" is invalid)/);
  // Every answer from the API server is 2xx or 4xx: nothing broke inside it.
  for (const rec of cluster.world.state.log.slice(logFrom))
    if (rec.kind === 'request' && rec.component === 'kubectl') expect(rec.code).toBeLessThan(500);
  cluster.advance(60_000);
  // A Node object with no kubelet behind it (or a pod holding a node's room) is the case's own: it goes.
  runKubectl(cluster, `kubectl delete ${kind.toLowerCase()} bad --wait=false`);
  cluster.advance(5_000);
  expect(runKubectl(cluster, 'kubectl apply -f -', GOOD).exitCode).toBe(0);
  cluster.advance(30_000);
  const good = storeGet(
    cluster.world.state.store,
    'deployments',
    storeKey('deployments', 'default', 'good'),
  ) as Unstructured;
  expect(good?.status?.availableReplicas).toBe(2);
}

describe('validation refuses instead of crashing', () => {
  test('any manifest through kubectl apply ends in an answer, and the cluster keeps converging', () => {
    fc.assert(
      fc.property(CASE, ({ kind, edits, update }) => check(kind, edits, update)),
      { numRuns: runs(0.3) },
    );
  }, 120_000);
});
