// The server's table printers as kubectl v1.37.2 shows them: printEvent's cells for Events of the
// old shape (firstTimestamp, lastTimestamp, count) and of events.k8s.io/v1's (eventTime, series,
// reportingController, no lastTimestamp), and printNode's -o wide KERNEL-VERSION with the
// architecture (pkg/printers/internalversion/printers.go).
import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { runKubectl } from './kubectl.ts';
import { coreEvent, nodeKernelVersion, printEvent, printTable } from './printers.ts';
import { kindInfo } from './resources.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const NOW = 600_000; // simulated time counts from T0 (util/time.ts SIM_EPOCH_ISO)
const pod = { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u1', apiVersion: 'v1' };

describe('printEvent', () => {
  test('an old-style Event seen three times: LAST SEEN is the last time alone; COUNT and FIRST SEEN say the rest', () => {
    const e = {
      metadata: { name: 'e1' },
      involvedObject: pod,
      reason: 'BackOff',
      type: 'Warning',
      message: ' Back-off \n',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: at(60),
      lastTimestamp: at(540),
      count: 3,
    };
    expect(printEvent(e, NOW)).toEqual({
      lastSeen: '60s',
      firstSeen: '9m',
      count: 3,
      target: 'pod/web-1',
      fieldPath: '',
      source: 'kubelet, node-1',
      message: 'Back-off',
    });
  });
  test('a new-API singleton: eventTime only, count 0 shown as 1, reportingComponent (reportingController) and reportingInstance as SOURCE', () => {
    const e = {
      involvedObject: { ...pod, fieldPath: 'spec.containers{app}' },
      reason: 'FailedScheduling',
      eventTime: at(300),
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-node-1',
      source: {},
    };
    expect(printEvent(e, NOW)).toEqual({
      lastSeen: '5m',
      firstSeen: '5m',
      count: 1,
      target: 'pod/web-1',
      fieldPath: 'spec.containers{app}',
      source: 'default-scheduler, default-scheduler-node-1',
      message: '',
    });
  });
  test("a series: LAST SEEN and COUNT are the series' even beside a lastTimestamp", () => {
    const e = {
      involvedObject: pod,
      eventTime: at(120),
      lastTimestamp: at(200),
      count: 1,
      series: { count: 7, lastObservedTime: at(590) },
      reportingComponent: 'default-scheduler',
    };
    expect(printEvent(e, NOW)).toMatchObject({
      lastSeen: '10s',
      firstSeen: '8m',
      count: 7,
      source: 'default-scheduler',
    });
  });
  test('no time at all: <unknown>; an object without a name: its kind alone', () => {
    expect(
      printEvent({ involvedObject: { kind: 'Node' }, firstTimestamp: null, lastTimestamp: null }, NOW),
    ).toMatchObject({ lastSeen: '<unknown>', firstSeen: '<unknown>', count: 1, target: 'node' });
  });
  test('an events.k8s.io/v1 Event reads as its core/v1 conversion', () => {
    const v1 = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e2' },
      regarding: pod,
      note: 'Container started',
      reason: 'Started',
      type: 'Normal',
      eventTime: null,
      deprecatedSource: { component: 'kubelet', host: 'node-2' },
      deprecatedFirstTimestamp: at(5),
      deprecatedLastTimestamp: at(300),
      deprecatedCount: 2,
      reportingController: 'kubelet',
      reportingInstance: 'node-2',
    };
    expect(coreEvent(v1)).toMatchObject({
      involvedObject: pod,
      message: 'Container started',
      source: { component: 'kubelet', host: 'node-2' },
      firstTimestamp: at(5),
      lastTimestamp: at(300),
      count: 2,
    });
    expect(printEvent(v1, NOW)).toEqual({
      lastSeen: '5m',
      firstSeen: '9m55s',
      count: 2,
      target: 'pod/web-1',
      fieldPath: '',
      source: 'kubelet, node-2',
      message: 'Container started',
    });
    const core = { involvedObject: pod, message: 'x' };
    expect(coreEvent(core)).toBe(core);
  });
  test('the wide table: LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME', () => {
    const e = {
      metadata: { name: 'web-1.1' },
      involvedObject: pod,
      reason: 'FailedScheduling',
      type: 'Warning',
      message: '0/3 nodes are available.',
      eventTime: at(120),
      series: { count: 4, lastObservedTime: at(540) },
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-node-1',
    };
    expect(printTable(kindInfo('events'), [e], NOW)).toBe(
      `LAST SEEN   TYPE      REASON             OBJECT      MESSAGE
60s         Warning   FailedScheduling   pod/web-1   0/3 nodes are available.
`,
    );
    expect(printTable(kindInfo('events'), [e], NOW, { wide: true })).toBe(
      `LAST SEEN   TYPE      REASON             OBJECT      SUBOBJECT   SOURCE                                        MESSAGE                    FIRST SEEN   COUNT   NAME
60s         Warning   FailedScheduling   pod/web-1               default-scheduler, default-scheduler-node-1   0/3 nodes are available.   8m           4       web-1.1
`,
    );
  });
});

describe('printNode -o wide', () => {
  test('KERNEL-VERSION carries the architecture; there is no ARCH column', () => {
    expect(nodeKernelVersion({ kernelVersion: '6.1.0-40-amd64', architecture: 'amd64' })).toBe(
      '6.1.0-40-amd64 (amd64)',
    );
    expect(nodeKernelVersion({ kernelVersion: '', architecture: 'arm64' })).toBe('<unknown> (arm64)');
    expect(nodeKernelVersion({ kernelVersion: '6.1.0' })).toBe('6.1.0');
    expect(runKubectl(fixtureCluster(), 'get nodes -o wide').stdout).toBe(
      `NAME     STATUS   ROLES    AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE                         KERNEL-VERSION           CONTAINER-RUNTIME
node-1   Ready    <none>   10m   v1.37.2   10.0.0.11     <none>        Debian GNU/Linux 12 (bookworm)   6.1.0-40-amd64 (amd64)   containerd://2.1.4
node-2   Ready    <none>   10m   v1.37.2   10.0.0.12     <none>        Debian GNU/Linux 12 (bookworm)   6.1.0-40-amd64 (amd64)   containerd://2.1.4
node-3   Ready    <none>   10m   v1.37.2   10.0.0.13     <none>        Debian GNU/Linux 12 (bookworm)   6.1.0-40-amd64 (amd64)   containerd://2.1.4
`,
    );
  });
});
