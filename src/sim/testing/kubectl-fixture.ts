// The preloaded cluster the golden tests run against: three nodes, Deployment web (3 replicas)
// with its ReplicaSet and running pods, and a few events. Built through the API only.
import type { ObjectReference, Pod } from 'kubernetes-types/core/v1';
import { TestCluster, readyNode } from './test-cluster.ts';

const T0 = '2026-01-01T00:00:00Z';
const T5 = '2026-01-01T00:00:05Z';

/** Build the fixture; simulated time is 10 minutes in when it returns. */
export function fixtureCluster(): TestCluster {
  const c = new TestCluster();
  for (let i = 1; i <= 3; i++) c.create('nodes', readyNode(`node-${i}`, `10.0.0.${10 + i}`, T0));
  c.world.advance(5_000);
  const d = c.create('deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
      },
    },
  });
  const rs = c.create('replicasets', {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'web-7c5ddbdf54',
      labels: { app: 'web', 'pod-template-hash': '7c5ddbdf54' },
      annotations: {
        'deployment.kubernetes.io/revision': '1',
        'deployment.kubernetes.io/desired-replicas': '3',
        'deployment.kubernetes.io/max-replicas': '4',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          uid: d.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web', 'pod-template-hash': '7c5ddbdf54' } },
      template: {
        metadata: { labels: { app: 'web', 'pod-template-hash': '7c5ddbdf54' } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
      },
    },
  });
  const names = ['web-7c5ddbdf54-2xkqz', 'web-7c5ddbdf54-8mfvt', 'web-7c5ddbdf54-tn4hw'];
  names.forEach((name, i) => {
    c.create('pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        labels: { app: 'web', 'pod-template-hash': '7c5ddbdf54' },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: rs.metadata.name,
            uid: rs.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        nodeName: `node-${i + 1}`,
        containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }],
      },
    });
    c.status('pods', 'default', name, {
      phase: 'Running',
      qosClass: 'BestEffort',
      hostIP: `10.0.0.${11 + i}`,
      podIP: `10.244.${i + 1}.2`,
      podIPs: [{ ip: `10.244.${i + 1}.2` }],
      startTime: T5,
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(
        (type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: T5 }),
      ),
      containerStatuses: [
        {
          name: 'web',
          image: 'nginx:1.27',
          imageID: 'docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
          containerID: `containerd://${String(i + 1).repeat(12)}`,
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: T5 } },
        },
      ],
    });
  });
  c.status('replicasets', 'default', 'web-7c5ddbdf54', {
    replicas: 3,
    fullyLabeledReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    observedGeneration: 1,
  });
  c.status('deployments', 'default', 'web', {
    observedGeneration: 1,
    replicas: 3,
    updatedReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    conditions: [
      {
        type: 'Available',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
        lastUpdateTime: T5,
        lastTransitionTime: T5,
      },
      {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        message: 'ReplicaSet "web-7c5ddbdf54" has successfully progressed.',
        lastUpdateTime: T5,
        lastTransitionTime: T5,
      },
    ],
  });
  const ev = (name: string, involved: ObjectReference, reason: string, message: string, source: string, at: string) =>
    c.create('events', {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: 'default' },
      involvedObject: involved,
      reason,
      message,
      type: 'Normal',
      source: { component: source },
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    });
  ev(
    'web.1',
    { kind: 'Deployment', namespace: 'default', name: 'web', uid: d.metadata.uid, apiVersion: 'apps/v1' },
    'ScalingReplicaSet',
    'Scaled up replica set web-7c5ddbdf54 from 0 to 3',
    'deployment-controller',
    T5,
  );
  const p0 = c.world.kubectl({ verb: 'get', resource: 'pods', namespace: 'default', name: names[0] });
  const uid = p0.ok ? (p0.object as Pod).metadata?.uid : undefined;
  ev(
    'web-7c5ddbdf54-2xkqz.1',
    { kind: 'Pod', namespace: 'default', name: names[0], uid, apiVersion: 'v1' },
    'Scheduled',
    `Successfully assigned default/${names[0]} to node-1`,
    'default-scheduler',
    T5,
  );
  ev(
    'web-7c5ddbdf54-2xkqz.2',
    { kind: 'Pod', namespace: 'default', name: names[0], uid, apiVersion: 'v1' },
    'Pulled',
    'Container image "nginx:1.27" already present on machine',
    'kubelet',
    T5,
  );
  c.world.advance(595_000);
  return c;
}
