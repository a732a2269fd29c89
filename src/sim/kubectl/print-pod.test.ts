import { describe, it, expect } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import { printPod, translateTimestampSince } from './print-pod.ts';
import { rfc3339 } from '../util/time.ts';

const s = 1000,
  m = 60 * s;

describe('translateTimestampSince', () => {
  it('is <unknown> for a missing timestamp', () => expect(translateTimestampSince(undefined, 0)).toBe('<unknown>'));
  it('ages from creationTimestamp', () => expect(translateTimestampSince(rfc3339(0), 150 * s)).toBe('2m30s'));
});

const NOW = 3600 * s;

function pod(over: { status?: Pod['status']; spec?: Partial<NonNullable<Pod['spec']>>; deletion?: boolean }): Pod {
  return {
    metadata: {
      name: 'web-7c5ddbdf54-x2k9p',
      namespace: 'default',
      creationTimestamp: rfc3339(NOW - 10 * m),
      ...(over.deletion ? { deletionTimestamp: rfc3339(NOW) } : {}),
    },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...over.spec },
    status: over.status,
  };
}
const running = { running: { startedAt: rfc3339(0) } };

describe('printPod', () => {
  it('Running 1/1', () => {
    const r = printPod(
      pod({
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [
            { name: 'app', image: 'nginx', imageID: '', ready: true, restartCount: 0, state: running },
          ],
        },
      }),
      NOW,
    );
    expect([r.name, r.ready, r.status, r.restarts, r.age]).toEqual([
      'web-7c5ddbdf54-x2k9p',
      '1/1',
      'Running',
      '0',
      '10m',
    ]);
  });

  it('ContainerCreating while pending', () => {
    const r = printPod(
      pod({
        status: {
          phase: 'Pending',
          containerStatuses: [
            {
              name: 'app',
              image: 'nginx',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'ContainerCreating' } },
            },
          ],
        },
      }),
      NOW,
    );
    expect([r.ready, r.status, r.restarts]).toEqual(['0/1', 'ContainerCreating', '0']);
  });

  it('CrashLoopBackOff with "N (age ago)" restarts', () => {
    const r = printPod(
      pod({
        status: {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'app',
              image: 'nginx',
              imageID: '',
              ready: false,
              restartCount: 4,
              state: { waiting: { reason: 'CrashLoopBackOff' } },
              lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: rfc3339(NOW - 65 * s) } },
            },
          ],
        },
      }),
      NOW,
    );
    expect([r.ready, r.status, r.restarts]).toEqual(['0/1', 'CrashLoopBackOff', '4 (65s ago)']);
  });

  it('OOMKilled terminated reason', () => {
    const r = printPod(
      pod({
        status: {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'app',
              image: 'nginx',
              imageID: '',
              ready: false,
              restartCount: 1,
              state: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
              lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: rfc3339(NOW - 5 * m) } },
            },
          ],
        },
      }),
      NOW,
    );
    expect([r.status, r.restarts]).toEqual(['OOMKilled', '1 (5m ago)']);
  });

  it('Signal:N and ExitCode:N when the reason is empty', () => {
    const sig = printPod(
      pod({
        status: {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'app',
              image: 'x',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 137, signal: 9 } },
            },
          ],
        },
      }),
      NOW,
    );
    const code = printPod(
      pod({
        status: {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'app',
              image: 'x',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 2 } },
            },
          ],
        },
      }),
      NOW,
    );
    expect([sig.status, code.status]).toEqual(['Signal:9', 'ExitCode:2']);
  });

  it('Terminating when deletionTimestamp is set on a live pod', () => {
    const r = printPod(
      pod({
        deletion: true,
        status: {
          phase: 'Running',
          containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: true, restartCount: 0, state: running }],
        },
      }),
      NOW,
    );
    expect(r.status).toBe('Terminating');
  });

  it('a Succeeded pod being deleted still reads Completed', () => {
    const r = printPod(
      pod({
        deletion: true,
        status: {
          phase: 'Succeeded',
          containerStatuses: [
            {
              name: 'app',
              image: 'x',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 0, reason: 'Completed' } },
            },
          ],
        },
      }),
      NOW,
    );
    expect(r.status).toBe('Completed');
  });

  it('Unknown only for NodeLost', () => {
    const r = printPod(pod({ deletion: true, status: { phase: 'Running', reason: 'NodeLost' } }), NOW);
    expect(r.status).toBe('Unknown');
  });

  it('Completed → Running while another container runs and Ready=True, NotReady otherwise', () => {
    const spec = {
      containers: [
        { name: 'app', image: 'x' },
        { name: 'job', image: 'y' },
      ],
    };
    const cs = [
      { name: 'app', image: 'x', imageID: '', ready: true, restartCount: 0, state: running },
      {
        name: 'job',
        image: 'y',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: { terminated: { exitCode: 0, reason: 'Completed' } },
      },
    ];
    expect(
      printPod(
        pod({
          spec,
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: cs },
        }),
        NOW,
      ).status,
    ).toBe('Running');
    // Go checks Ready == True, not merely that the condition exists.
    expect(
      printPod(
        pod({
          spec,
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: cs },
        }),
        NOW,
      ).status,
    ).toBe('NotReady');
    expect(
      printPod(
        pod({
          spec,
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: cs },
        }),
        NOW,
      ).ready,
    ).toBe('1/2');
  });

  it('Init:i/N, Init:<reason>, Init:ExitCode:N', () => {
    const spec = {
      initContainers: [
        { name: 'init-a', image: 'b' },
        { name: 'init-b', image: 'b' },
      ],
    };
    const done = {
      name: 'init-a',
      image: 'b',
      imageID: '',
      ready: false,
      restartCount: 0,
      state: { terminated: { exitCode: 0, reason: 'Completed' } },
    };
    const runningInit = { name: 'init-b', image: 'b', imageID: '', ready: false, restartCount: 0, state: running };
    expect(
      printPod(pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, runningInit] } }), NOW).status,
    ).toBe('Init:1/2');
    const crash = { ...runningInit, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } };
    expect(
      printPod(pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, crash] } }), NOW).status,
    ).toBe('Init:CrashLoopBackOff');
    const failed = { ...runningInit, state: { terminated: { exitCode: 2 } } };
    expect(
      printPod(pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, failed] } }), NOW).status,
    ).toBe('Init:ExitCode:2');
    const podInit = { ...runningInit, state: { waiting: { reason: 'PodInitializing' } } };
    expect(
      printPod(pod({ spec, status: { phase: 'Pending', initContainerStatuses: [done, podInit] } }), NOW).status,
    ).toBe('Init:1/2');
  });

  it('a started sidecar counts in READY', () => {
    const spec = { initContainers: [{ name: 'proxy', image: 'p', restartPolicy: 'Always' }] };
    const r = printPod(
      pod({
        spec,
        status: {
          phase: 'Running',
          conditions: [
            { type: 'Initialized', status: 'True' },
            { type: 'Ready', status: 'True' },
          ],
          initContainerStatuses: [
            {
              name: 'proxy',
              image: 'p',
              imageID: '',
              ready: true,
              started: true,
              restartCount: 1,
              state: running,
              lastState: { terminated: { exitCode: 1, finishedAt: rfc3339(NOW - 30 * s) } },
            },
          ],
          containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: true, restartCount: 0, state: running }],
        },
      }),
      NOW,
    );
    expect([r.ready, r.status, r.restarts]).toEqual(['2/2', 'Running', '1 (30s ago)']);
  });

  it('SchedulingGated from the PodScheduled condition', () => {
    const r = printPod(
      pod({
        status: {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
        },
      }),
      NOW,
    );
    expect(r.status).toBe('SchedulingGated');
  });

  it('wide columns default to <none>', () => {
    const r = printPod(pod({ status: { phase: 'Pending' } }), NOW, { wide: true });
    expect([r.ip, r.node, r.nominatedNode, r.readinessGates]).toEqual(['<none>', '<none>', '<none>', '<none>']);
    const r2 = printPod(
      pod({ spec: { nodeName: 'node-1' }, status: { phase: 'Running', podIPs: [{ ip: '10.244.1.2' }] } }),
      NOW,
      { wide: true },
    );
    expect([r2.ip, r2.node]).toEqual(['10.244.1.2', 'node-1']);
  });
});
