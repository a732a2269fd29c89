import { describe, it, expect } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import { humanDuration, shortHumanDuration, printPod, translateTimestampSince } from './print-pod.ts';
import { rfc3339 } from './time.ts';

const s = 1000, m = 60 * s, h = 60 * m, d = 24 * h, y = 365 * d;

// Tables from k8s.io/apimachinery/pkg/util/duration/duration_test.go (ns → ms; "−2s+1ns" becomes −1999 ms).
describe('HumanDuration', () => {
  it.each([
    [s, '1s'], [70 * s, '70s'], [190 * s, '3m10s'], [70 * m, '70m'], [47 * h, '47h'], [49 * h, '2d1h'],
    [(8 * 24 + 2) * h, '8d'], [367 * 24 * h, '367d'], [(365 * 2 * 24 + 25) * h, '2y1d'], [(365 * 8 * 24 + 2) * h, '8y'],
  ])('TestHumanDuration %d ms → %s', (ms, want) => expect(humanDuration(ms)).toBe(want));

  it.each([
    [-2 * s, '<invalid>'], [-1999, '0s'], [0, '0s'], [s - 1, '0s'], [2 * m - 1, '119s'], [2 * m, '2m'], [2 * m + s, '2m1s'],
    [10 * m - 1, '9m59s'], [10 * m, '10m'], [10 * m + s, '10m'], [3 * h - 1, '179m'], [3 * h, '3h'], [3 * h + m, '3h1m'],
    [8 * h - 1, '7h59m'], [8 * h, '8h'], [8 * h + 59 * m, '8h'], [2 * d - 1, '47h'], [2 * d, '2d'], [2 * d + h, '2d1h'],
    [8 * d - 1, '7d23h'], [8 * d, '8d'], [8 * d + 23 * h, '8d'], [2 * y - 1, '729d'], [2 * y, '2y'], [2 * y + 23 * h, '2y'],
    [2 * y + 23 * h + 59 * m, '2y'], [2 * y + 24 * h - 1, '2y'], [2 * y + 24 * h, '2y1d'], [3 * y, '3y'], [4 * y, '4y'],
    [5 * y, '5y'], [6 * y, '6y'], [7 * y, '7y'], [8 * y - 1, '7y364d'], [8 * y, '8y'], [8 * y + 364 * d, '8y'], [9 * y, '9y'],
  ])('TestHumanDurationBoundaries %d ms → %s', (ms, want) => expect(humanDuration(ms)).toBe(want));

  it('reads the brief examples', () => {
    expect([5 * s, 150 * s, 10 * m, 3 * h + 5 * m, 2 * d].map(humanDuration)).toEqual(['5s', '2m30s', '10m', '3h5m', '2d']);
  });
});

describe('ShortHumanDuration', () => {
  it.each([
    [-2 * s, '<invalid>'], [-1999, '0s'], [0, '0s'], [s - 1, '0s'], [s, '1s'], [2 * s - 1, '1s'], [m - 1, '59s'], [m, '1m'],
    [2 * m - 1, '1m'], [h - 1, '59m'], [h, '1h'], [2 * h - 1, '1h'], [d - 1, '23h'], [d, '1d'], [2 * d - 1, '1d'],
    [y - 1, '364d'], [y, '1y'], [2 * y - 1, '1y'], [2 * y, '2y'],
  ])('TestShortHumanDurationBoundaries %d ms → %s', (ms, want) => expect(shortHumanDuration(ms)).toBe(want));
});

describe('translateTimestampSince', () => {
  it('is <unknown> for a missing timestamp', () => expect(translateTimestampSince(undefined, 0)).toBe('<unknown>'));
  it('ages from creationTimestamp', () => expect(translateTimestampSince(rfc3339(0), 150 * s)).toBe('2m30s'));
});

const NOW = 3600 * s;

function pod(over: { status?: Pod['status']; spec?: Partial<NonNullable<Pod['spec']>>; deletion?: boolean }): Pod {
  return {
    metadata: { name: 'web-7c5ddbdf54-x2k9p', namespace: 'default', creationTimestamp: rfc3339(NOW - 10 * m), ...(over.deletion ? { deletionTimestamp: rfc3339(NOW) } : {}) },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...over.spec },
    status: over.status,
  };
}
const running = { running: { startedAt: rfc3339(0) } };

describe('printPod', () => {
  it('Running 1/1', () => {
    const r = printPod(pod({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'app', image: 'nginx', imageID: '', ready: true, restartCount: 0, state: running }] } }), NOW);
    expect([r.name, r.ready, r.status, r.restarts, r.age]).toEqual(['web-7c5ddbdf54-x2k9p', '1/1', 'Running', '0', '10m']);
  });

  it('ContainerCreating while pending', () => {
    const r = printPod(pod({ status: { phase: 'Pending', containerStatuses: [{ name: 'app', image: 'nginx', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] } }), NOW);
    expect([r.ready, r.status, r.restarts]).toEqual(['0/1', 'ContainerCreating', '0']);
  });

  it('CrashLoopBackOff with "N (age ago)" restarts', () => {
    const r = printPod(pod({ status: { phase: 'Running', containerStatuses: [{ name: 'app', image: 'nginx', imageID: '', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: rfc3339(NOW - 65 * s) } } }] } }), NOW);
    expect([r.ready, r.status, r.restarts]).toEqual(['0/1', 'CrashLoopBackOff', '4 (65s ago)']);
  });

  it('OOMKilled terminated reason', () => {
    const r = printPod(pod({ status: { phase: 'Running', containerStatuses: [{ name: 'app', image: 'nginx', imageID: '', ready: false, restartCount: 1, state: { terminated: { exitCode: 137, reason: 'OOMKilled' } }, lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: rfc3339(NOW - 5 * m) } } }] } }), NOW);
    expect([r.status, r.restarts]).toEqual(['OOMKilled', '1 (5m ago)']);
  });

  it('Signal:N and ExitCode:N when the reason is empty', () => {
    const sig = printPod(pod({ status: { phase: 'Running', containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 137, signal: 9 } } }] } }), NOW);
    const code = printPod(pod({ status: { phase: 'Running', containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 2 } } }] } }), NOW);
    expect([sig.status, code.status]).toEqual(['Signal:9', 'ExitCode:2']);
  });

  it('Terminating when deletionTimestamp is set on a live pod', () => {
    const r = printPod(pod({ deletion: true, status: { phase: 'Running', containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: true, restartCount: 0, state: running }] } }), NOW);
    expect(r.status).toBe('Terminating');
  });

  it('a Succeeded pod being deleted still reads Completed', () => {
    const r = printPod(pod({ deletion: true, status: { phase: 'Succeeded', containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }] } }), NOW);
    expect(r.status).toBe('Completed');
  });

  it('Unknown only for NodeLost', () => {
    const r = printPod(pod({ deletion: true, status: { phase: 'Running', reason: 'NodeLost' } }), NOW);
    expect(r.status).toBe('Unknown');
  });

  it('Completed → Running while another container runs and Ready=True, NotReady otherwise', () => {
    const spec = { containers: [{ name: 'app', image: 'x' }, { name: 'job', image: 'y' }] };
    const cs = [
      { name: 'app', image: 'x', imageID: '', ready: true, restartCount: 0, state: running },
      { name: 'job', image: 'y', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
    ];
    expect(printPod(pod({ spec, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: cs } }), NOW).status).toBe('Running');
    // Go checks Ready == True, not merely that the condition exists.
    expect(printPod(pod({ spec, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: cs } }), NOW).status).toBe('NotReady');
    expect(printPod(pod({ spec, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: cs } }), NOW).ready).toBe('1/2');
  });

  it('Init:i/N, Init:<reason>, Init:ExitCode:N', () => {
    const spec = { initContainers: [{ name: 'init-a', image: 'b' }, { name: 'init-b', image: 'b' }] };
    const done = { name: 'init-a', image: 'b', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    const runningInit = { name: 'init-b', image: 'b', imageID: '', ready: false, restartCount: 0, state: running };
    expect(printPod(pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, runningInit] } }), NOW).status).toBe('Init:1/2');
    const crash = { ...runningInit, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } };
    expect(printPod(pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, crash] } }), NOW).status).toBe('Init:CrashLoopBackOff');
    const failed = { ...runningInit, state: { terminated: { exitCode: 2 } } };
    expect(printPod(pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, failed] } }), NOW).status).toBe('Init:ExitCode:2');
    const podInit = { ...runningInit, state: { waiting: { reason: 'PodInitializing' } } };
    expect(printPod(pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, podInit] } }), NOW).status).toBe('Init:1/2');
  });

  it('a started sidecar counts in READY', () => {
    const spec = { initContainers: [{ name: 'proxy', image: 'p', restartPolicy: 'Always' }] };
    const r = printPod(pod({ spec, status: {
      phase: 'Running', conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }],
      initContainerStatuses: [{ name: 'proxy', image: 'p', imageID: '', ready: true, started: true, restartCount: 1, state: running, lastState: { terminated: { exitCode: 1, finishedAt: rfc3339(NOW - 30 * s) } } }],
      containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: true, restartCount: 0, state: running }],
    } }), NOW);
    expect([r.ready, r.status, r.restarts]).toEqual(['2/2', 'Running', '1 (30s ago)']);
  });

  it('SchedulingGated from the PodScheduled condition', () => {
    const r = printPod(pod({ status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] } }), NOW);
    expect(r.status).toBe('SchedulingGated');
  });

  it('wide columns default to <none>', () => {
    const r = printPod(pod({ status: { phase: 'Pending' } }), NOW, { wide: true });
    expect([r.ip, r.node, r.nominatedNode, r.readinessGates]).toEqual(['<none>', '<none>', '<none>', '<none>']);
    const r2 = printPod(pod({ spec: { nodeName: 'node-1' }, status: { phase: 'Running', podIPs: [{ ip: '10.244.1.2' }] } }), NOW, { wide: true });
    expect([r2.ip, r2.node]).toEqual(['10.244.1.2', 'node-1']);
  });
});
