// kubectl describe's Events (1.36+, kubernetes#137145): shown for a single object, left out for
// several objects, a name prefix or a name not found, unless --show-events says otherwise; and the
// Events section itself as DescribeEvents prints it (series, eventTime, fieldPath, reportingController).
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { fixtureCluster } from '../../testing/kubectl-fixture.ts';
import { runKubectl } from '../kubectl.ts';

const EVENTS_HEADER = 'Events:\n  Type    Reason';
const count = (s: string, sub: string) => s.split(sub).length - 1;
const eventLists = (c: ReturnType<typeof fixtureCluster>, from: number) =>
  c.log.slice(from).filter((x) => x.component === 'kubectl' && x.path.includes('/events')).length;

describe('describe: --show-events', () => {
  test('one object by name: its Events', () => {
    const out = runKubectl(fixtureCluster(), 'describe deployment web').stdout;
    expect(out).toContain(`${EVENTS_HEADER}             Age    From                   Message\n`);
    expect(out).toContain(
      'Normal  ScalingReplicaSet  9m55s  deployment-controller  Scaled up replica set web-7c5ddbdf54 from 0 to 3\n',
    );
  });
  test('several objects: no Events section and no LIST of events', () => {
    const c = fixtureCluster();
    const from = c.log.length;
    const out = runKubectl(c, 'describe pods').stdout;
    expect(count(out, 'Name:             web-7c5ddbdf54-')).toBe(3);
    expect(out).not.toContain('Events:');
    expect(eventLists(c, from)).toBe(0);
    expect(runKubectl(c, 'describe pods -l app=web').stdout).not.toContain('Events:');
    expect(runKubectl(c, 'describe deployment/web pod/web-7c5ddbdf54-2xkqz').stdout).not.toContain('Events:');
  });
  test('several objects with --show-events: each one has its section', () => {
    const c = fixtureCluster();
    const from = c.log.length;
    const out = runKubectl(c, 'describe pods --show-events').stdout;
    expect(eventLists(c, from)).toBe(3);
    // The first pod has two; the others none, said as such.
    expect(
      out
        .split('\n')
        .filter((l) => l.startsWith('Events:'))
        .map((l) => l.replace(/ +/g, ' ')),
    ).toEqual(['Events:', 'Events: <none>', 'Events: <none>']);
  });
  test('a name prefix: no Events unless asked for', () => {
    const c = fixtureCluster();
    const prefix = runKubectl(c, 'describe pod web-7c5ddbdf54-2x');
    expect(prefix.stdout).toContain('Name:             web-7c5ddbdf54-2xkqz\n');
    expect(prefix.stdout).not.toContain('Events:');
    expect(runKubectl(c, 'describe pod web-7c5ddbdf54-2x --show-events').stdout).toContain(
      'Normal  Scheduled  9m55s  default-scheduler  Successfully assigned',
    );
  });
  test('one object with --show-events=false: none', () => {
    expect(runKubectl(fixtureCluster(), 'describe deployment web --show-events=false').stdout).not.toContain('Events:');
  });
  test('one object found by listing its kind: its Events', () => {
    expect(runKubectl(fixtureCluster(), 'describe deployments').stdout).toContain('ScalingReplicaSet');
  });
});

describe('describe: the Events section', () => {
  test('events.k8s.io-style Events (eventTime, series, no lastTimestamp) and a fieldPath', () => {
    const c = fixtureCluster();
    const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + s * 1000).toISOString();
    const uid = runKubectl(c, 'get pod web-7c5ddbdf54-8mfvt -o jsonpath={.metadata.uid}').stdout;
    const involved = { kind: 'Pod', namespace: 'default', name: 'web-7c5ddbdf54-8mfvt', uid, apiVersion: 'v1' };
    // A new-API singleton: eventTime only, count 0, reportingComponent (reportingController) instead of source.
    c.create('events', {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'a', namespace: 'default' },
      involvedObject: involved,
      reason: 'FailedScheduling',
      message: '0/3 nodes are available.',
      type: 'Warning',
      eventTime: at(60),
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-node-1',
      action: 'Scheduling',
      source: {},
    });
    // A new-API series: seen 4 times, last at 540 s.
    c.create('events', {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'b', namespace: 'default' },
      involvedObject: involved,
      reason: 'FailedScheduling',
      message: 'still no node',
      type: 'Warning',
      eventTime: at(120),
      series: { count: 4, lastObservedTime: at(540) },
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-node-1',
      action: 'Scheduling',
      source: {},
    });
    // An old-API Event with a count and a container's fieldPath.
    c.create('events', {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'c', namespace: 'default' },
      involvedObject: { ...involved, fieldPath: 'spec.containers{web}' },
      reason: 'Started',
      message: 'Container started',
      type: 'Normal',
      source: { component: 'kubelet', host: 'node-2' },
      firstTimestamp: at(5),
      lastTimestamp: at(300),
      count: 2,
    });
    const out = runKubectl(c, 'describe pod web-7c5ddbdf54-8mfvt').stdout;
    // SortableEvents sorts by lastTimestamp alone: the two without one come first, in their order.
    expect(out.slice(out.indexOf('Events:'))).toBe(`Events:
  Type     Reason            Age                 From               Message
  ----     ------            ----                ----               -------
  Warning  FailedScheduling  9m                  default-scheduler  0/3 nodes are available.
  Warning  FailedScheduling  60s (x4 over 8m)    default-scheduler  still no node
  Normal   Started           5m (x2 over 9m55s)  kubelet            spec.containers{web}: Container started
`);
  });

  describe('describe node', () => {
    test("System Info ends with the kubelet's version: 1.37 prints no Kube-Proxy Version", () => {
      const out = runKubectl(fixtureCluster(), 'describe node node-1').stdout;
      expect(out).toContain(`System Info:
  Machine ID:                 
  System UUID:                
  Boot ID:                    
  Kernel Version:             6.1.0-40-amd64
  OS Image:                   Debian GNU/Linux 12 (bookworm)
  Operating System:           linux
  Architecture:               amd64
  Container Runtime Version:  containerd://2.1.4
  Kubelet Version:            v1.37.2
PodCIDR:`);
      expect(out).not.toContain('Kube-Proxy');
    });
  });
});

describe('describe deployment: its ReplicaSets (GetAllReplicaSets)', () => {
  test('after two rollouts every old ReplicaSet is listed, oldest first, those at 0 too', () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
    c.settle();
    runKubectl(c, 'set image deployment/web nginx=nginx:1.28');
    c.settle();
    runKubectl(c, 'set image deployment/web nginx=nginx:1.29');
    c.settle();
    const rss = (JSON.parse(runKubectl(c, 'get rs -o json').stdout) as { items: unknown[] }).items as {
      metadata: { name: string; creationTimestamp: string };
      spec: { template: { spec: { containers: { image: string }[] } } };
    }[];
    const byImage = (image: string) =>
      rss.find((rs) => rs.spec.template.spec.containers[0].image === image)!.metadata.name;
    const out = runKubectl(c, 'describe deployment web').stdout;
    expect(out).toContain(
      `OldReplicaSets:  ${byImage('nginx:1.27')} (0/0 replicas created), ${byImage('nginx:1.28')} (0/0 replicas created)\n`,
    );
    expect(out).toContain(`NewReplicaSet:   ${byImage('nginx:1.29')} (2/2 replicas created)\n`);
  });
  test('a Deployment that owns no ReplicaSet: neither line is printed', () => {
    const c = fixtureCluster();
    runKubectl(c, 'create deployment lone --image=nginx:1.27');
    const out = runKubectl(c, 'describe deployment lone').stdout;
    expect(out).toContain('  Tolerations:     <none>\nEvents:');
    expect(out).not.toContain('OldReplicaSets:');
    expect(out).not.toContain('NewReplicaSet:');
  });
  test('a ReplicaSet the Deployment does not control (no controller: true) is not its own', () => {
    const c = fixtureCluster();
    const rs = JSON.parse(runKubectl(c, 'get rs web-7c5ddbdf54 -o json').stdout) as ReplicaSet;
    runKubectl(
      c,
      'apply -f -',
      JSON.stringify({
        ...rs,
        metadata: {
          name: 'web-other',
          labels: rs.metadata!.labels,
          ownerReferences: rs.metadata!.ownerReferences!.map((r: object) => ({ ...r, controller: false })),
        },
        status: undefined,
      }),
    );
    expect(runKubectl(c, 'get rs web-other').exitCode).toBe(0);
    expect(runKubectl(c, 'describe deployment web').stdout).toContain(
      'OldReplicaSets:  <none>\nNewReplicaSet:   web-7c5ddbdf54 (3/3 replicas created)\n',
    );
  });
});

describe('describe: its requests, as kubectl v1.37 sends them', () => {
  const sent = (c: Pick<ReturnType<typeof fixtureCluster>, 'log'>, from: number) =>
    c.log
      .slice(from)
      .filter((x) => x.component === 'kubectl' && x.kind === 'request')
      .map((x) => `${x.verb} ${decodeURIComponent(x.path)}`);
  test("a Deployment: the builder's GET, the describer's GET, its Events by name, namespace, kind and uid, its ReplicaSets, in pages of 500", () => {
    const c = fixtureCluster();
    const uid = runKubectl(c, 'get deployment web -o jsonpath={.metadata.uid}').stdout;
    const from = c.log.length;
    runKubectl(c, 'describe deployment web');
    expect(sent(c, from)).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/web',
      'GET /apis/apps/v1/namespaces/default/deployments/web',
      `GET /api/v1/namespaces/default/events?fieldSelector=involvedObject.name=web,involvedObject.namespace=default,involvedObject.kind=Deployment,involvedObject.uid=${uid}&limit=500`,
      'GET /apis/apps/v1/namespaces/default/replicasets?labelSelector=app=web&limit=500',
    ]);
  });
  test('a Node: its non-terminated pods, then Events twice (the controllers name its uid, the kubelet its name), then its Lease', () => {
    const c = createCluster({ seed: 1 });
    c.advance(5_000);
    const uid = runKubectl(c, 'get node node-1 -o jsonpath={.metadata.uid}').stdout;
    const from = c.log.length;
    const out = runKubectl(c, 'describe node node-1').stdout;
    expect(sent(c, from)).toEqual([
      'GET /api/v1/nodes/node-1',
      'GET /api/v1/nodes/node-1',
      'GET /api/v1/pods?fieldSelector=spec.nodeName=node-1,status.phase!=Succeeded,status.phase!=Failed&limit=500',
      `GET /api/v1/events?fieldSelector=involvedObject.name=node-1,involvedObject.namespace=,involvedObject.kind=Node,involvedObject.uid=${uid}&limit=500`,
      'GET /api/v1/events?fieldSelector=involvedObject.name=node-1,involvedObject.namespace=,involvedObject.kind=Node,involvedObject.uid=node-1&limit=500',
      'GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1',
    ]);
    // The kubelet's Events (involvedObject.uid = the node's name) are found by the second search.
    expect(out).toContain('Starting');
    expect(out).toContain('NodeReady');
  });
});
