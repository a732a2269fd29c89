import { describe, it, expect } from 'vitest';
import type { ContainerStatus, Pod, PodCondition } from 'kubernetes-types/core/v1';
import {
  generateAPIPodStatus,
  generateContainersReadyCondition,
  generatePodReadyToStartContainersCondition,
  getPhase,
  convertContainerStatus,
  getPodQOS,
  type ContainerView,
} from './pod-status.ts';
import type { ContainerRecord, SandboxRecord } from './container-runtime.ts';
import { printPod } from '../kubectl/print-pod.ts';

const ID = 'a'.repeat(64);
const pod = (restartPolicy: 'Always' | 'Never' | 'OnFailure' = 'Always'): Pod => ({
  metadata: { name: 'web-1', namespace: 'default', uid: 'u1', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { nodeName: 'node-1', restartPolicy, containers: [{ name: 'app', image: 'nginx:1.27' }] },
  status: {
    phase: 'Pending',
    conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
  },
});
const sandbox: SandboxRecord = {
  id: 'b'.repeat(64),
  podUID: 'u1',
  podName: 'web-1',
  namespace: 'default',
  attempt: 0,
  state: 'SANDBOX_READY',
  ip: '10.244.1.2',
  createdAt: 100,
};
const rec = (over: Partial<ContainerRecord>): ContainerRecord => ({
  id: ID,
  sandboxId: sandbox.id,
  name: 'app',
  image: 'docker.io/library/nginx:1.27',
  imageRef: 'sha256:' + 'c'.repeat(64),
  state: 'CONTAINER_RUNNING',
  restartCount: 0,
  createdAt: 1000,
  startedAt: 1000,
  ...over,
});
const view = (over: Partial<ContainerView>): ContainerView => ({
  name: 'app',
  image: 'nginx:1.27',
  ready: false,
  started: false,
  ...over,
});

describe('generateAPIPodStatus', () => {
  it('an unchanged condition is the previous object only when its keys are the same, in the same order', () => {
    const first = generateAPIPodStatus({ pod: pod(), sandbox, containers: [view({})], hostIP: '172.18.0.3', now: 200 });
    const again = generateAPIPodStatus({
      pod: pod(),
      status: first,
      sandbox,
      containers: [view({})],
      hostIP: '172.18.0.3',
      now: 300,
    });
    again.conditions!.forEach((c, i) => expect(c).toBe(first.conditions![i]));
    // The IP lists too, unless they differ or carry another key.
    expect([again.hostIPs, again.podIPs]).toEqual([first.hostIPs, first.podIPs]);
    expect(again.hostIPs).toBe(first.hostIPs);
    expect(again.podIPs).toBe(first.podIPs);
    const other = generateAPIPodStatus({
      pod: pod(),
      status: { ...first, hostIPs: [{ ip: '172.18.0.9' }], podIPs: [{ ip: sandbox.ip, x: 1 } as { ip: string }] },
      sandbox,
      containers: [view({})],
      hostIP: '172.18.0.3',
      now: 300,
    });
    expect([other.hostIPs, other.podIPs]).toEqual([[{ ip: '172.18.0.3' }], [{ ip: sandbox.ip }]]);
    // Reordered keys, an extra key, a missing key: equal in value but not the same JSON, so a new object.
    type Edit = (c: PodCondition) => PodCondition;
    const reorder: Edit = (c) => Object.fromEntries(Object.entries(c).reverse()) as unknown as PodCondition;
    const edits: Edit[] = [
      reorder,
      (c) => ({ ...c, lastProbeTime: null as unknown as string }),
      (c) => {
        const { reason: _r, ...rest } = c;
        return rest;
      },
    ];
    for (const edit of edits) {
      const prev = { ...first, conditions: first.conditions!.map(edit) };
      const next = generateAPIPodStatus({
        pod: pod(),
        status: prev,
        sandbox,
        containers: [view({})],
        hostIP: '172.18.0.3',
        now: 300,
      });
      next.conditions!.forEach((c, i) => {
        const p = prev.conditions[i];
        const sameJSON = JSON.stringify(p) === JSON.stringify(c);
        expect(c === p).toBe(sameJSON);
        expect(c.lastTransitionTime).toBe(
          p.status === c.status && p.lastTransitionTime ? p.lastTransitionTime : '1970-01-01T00:00:00Z',
        );
      });
    }
  });

  it('ContainerCreating: Pending, sandbox ready, containers not ready', () => {
    const st = generateAPIPodStatus({ pod: pod(), sandbox, containers: [view({})], hostIP: '172.18.0.3', now: 200 });
    expect(st.phase).toBe('Pending');
    expect(st.conditions!.map((c) => [c.type, c.status, c.reason ?? '', c.message ?? ''])).toEqual([
      ['PodReadyToStartContainers', 'True', '', ''],
      ['Initialized', 'True', '', ''],
      ['Ready', 'False', 'ContainersNotReady', 'containers with unready status: [app]'],
      ['ContainersReady', 'False', 'ContainersNotReady', 'containers with unready status: [app]'],
      ['PodScheduled', 'True', '', ''],
    ]);
    expect(st.containerStatuses![0].state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect([st.podIP, st.hostIP, st.startTime, st.qosClass]).toEqual([
      '10.244.1.2',
      '172.18.0.3',
      '2026-01-01T00:00:00Z',
      'BestEffort',
    ]);
  });

  it('Running and ready', () => {
    const st = generateAPIPodStatus({
      pod: pod(),
      sandbox,
      containers: [view({ current: rec({}), ready: true, started: true })],
      hostIP: '172.18.0.3',
      now: 5000,
    });
    expect(st.phase).toBe('Running');
    expect(st.conditions!.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      lastTransitionTime: '2026-01-01T00:00:05Z',
    });
    expect(st.containerStatuses![0]).toMatchObject({
      ready: true,
      started: true,
      restartCount: 0,
      containerID: `containerd://${ID}`,
      imageID: 'docker.io/library/nginx@sha256:' + 'c'.repeat(64),
      state: { running: { startedAt: '2026-01-01T00:00:01Z' } },
    });
  });

  it('CrashLoopBackOff: phase stays Running, lastState is the exit', () => {
    const exited = rec({
      state: 'CONTAINER_EXITED',
      restartCount: 3,
      exitCode: 1,
      reason: 'Error',
      finishedAt: 61_000,
    });
    const st = generateAPIPodStatus({
      pod: pod(),
      sandbox,
      containers: [
        view({
          current: exited,
          waiting: {
            reason: 'CrashLoopBackOff',
            message: 'back-off 40s restarting failed container=app pod=web-1_default(u1)',
          },
        }),
      ],
      hostIP: 'h',
      now: 62_000,
    });
    expect(st.phase).toBe('Running');
    expect(st.containerStatuses![0]).toMatchObject({
      restartCount: 3,
      ready: false,
      state: {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: 'back-off 40s restarting failed container=app pod=web-1_default(u1)',
        },
      },
      lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2026-01-01T00:01:01Z' } },
    });
    expect(printPod({ ...pod(), status: st }, 120_000)).toMatchObject({
      status: 'CrashLoopBackOff',
      restarts: '3 (59s ago)',
      ready: '0/1',
    });
  });

  it('ImagePullBackOff keeps the pod Pending', () => {
    const st = generateAPIPodStatus({
      pod: pod(),
      sandbox,
      containers: [view({ waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:nope"' } })],
      hostIP: 'h',
      now: 1,
    });
    expect(st.phase).toBe('Pending');
    expect(printPod({ ...pod(), status: st }, 1).status).toBe('ImagePullBackOff');
  });

  it('restartPolicy Never: exit 0 → Succeeded (PodCompleted), exit 1 → Failed', () => {
    const done = generateAPIPodStatus({
      pod: pod('Never'),
      sandbox,
      containers: [
        view({ current: rec({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed', finishedAt: 9000 }) }),
      ],
      hostIP: 'h',
      now: 9000,
    });
    expect(done.phase).toBe('Succeeded');
    expect(done.conditions!.find((c) => c.type === 'Ready')?.reason).toBe('PodCompleted');
    const failed = generateAPIPodStatus({
      pod: pod('Never'),
      sandbox,
      containers: [
        view({ current: rec({ state: 'CONTAINER_EXITED', exitCode: 1, reason: 'Error', finishedAt: 9000 }) }),
      ],
      hostIP: 'h',
      now: 9000,
    });
    expect(failed.phase).toBe('Failed');
    expect(printPod({ ...pod('Never'), status: failed }, 9000).status).toBe('Error');
  });

  it('keeps lastTransitionTime when nothing changed', () => {
    const p = pod();
    const first = generateAPIPodStatus({
      pod: p,
      sandbox,
      containers: [view({ current: rec({}), ready: true, started: true })],
      hostIP: 'h',
      now: 5000,
    });
    const second = generateAPIPodStatus({
      pod: { ...p, status: first },
      sandbox,
      containers: [view({ current: rec({}), ready: true, started: true })],
      hostIP: 'h',
      now: 99_000,
    });
    expect(second.conditions!.find((c) => c.type === 'Ready')?.lastTransitionTime).toBe('2026-01-01T00:00:05Z');
  });

  it('OOMKilled lastState after a restart', () => {
    const prev = rec({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'OOMKilled', finishedAt: 3000 });
    const cur = rec({ id: 'd'.repeat(64), restartCount: 1, startedAt: 3100, createdAt: 3050 });
    const cs = convertContainerStatus(view({ current: cur, previous: prev, ready: true, started: true }));
    expect(cs.lastState).toMatchObject({ terminated: { exitCode: 137, reason: 'OOMKilled' } });
    expect(cs.restartCount).toBe(1);
  });
});

describe('getPhase / QOS', () => {
  it('OnFailure with a failed container is Running (restarting)', () => {
    expect(
      getPhase(pod('OnFailure'), [
        { name: 'app', image: '', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 1 } } },
      ]),
    ).toBe('Running');
  });
  it('QOS classes', () => {
    expect(
      getPodQOS([
        {
          name: 'a',
          resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } },
        },
      ]),
    ).toBe('Guaranteed');
    expect(getPodQOS([{ name: 'a', resources: { requests: { cpu: '100m' } } }])).toBe('Burstable');
  });
});

describe('conditions from status/generate.go', () => {
  const withInit = (): Pod => ({
    ...pod(),
    spec: { ...pod().spec!, initContainers: [{ name: 'migrate', image: 'busybox' }] },
  });

  it('init container running: Initialized False, ContainersNotInitialized', () => {
    const st = generateAPIPodStatus({
      pod: withInit(),
      sandbox,
      hostIP: 'h',
      now: 1,
      initContainers: [view({ name: 'migrate', image: 'busybox', current: rec({ name: 'migrate' }) })],
      containers: [view({})],
    });
    expect(st.phase).toBe('Pending');
    expect(st.conditions!.find((c) => c.type === 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [migrate]',
    });
    expect(printPod({ ...withInit(), status: st }, 1).status).toBe('Init:0/1');
  });

  it('Succeeded pod: Initialized True with reason PodCompleted', () => {
    const p = { ...withInit(), spec: { ...withInit().spec!, restartPolicy: 'Never' as const } };
    const done = rec({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed', finishedAt: 2000 });
    const st = generateAPIPodStatus({
      pod: p,
      sandbox,
      hostIP: 'h',
      now: 3000,
      initContainers: [view({ name: 'migrate', image: 'busybox', current: { ...done, name: 'migrate' } })],
      containers: [view({ current: done })],
    });
    expect(st.phase).toBe('Succeeded');
    expect(st.conditions!.find((c) => c.type === 'Initialized')).toMatchObject({
      status: 'True',
      reason: 'PodCompleted',
    });
    expect(st.conditions!.find((c) => c.type === 'ContainersReady')).toMatchObject({
      status: 'False',
      reason: 'PodCompleted',
    });
  });

  it('readiness gates and non-kubelet conditions (DisruptionTarget) first', () => {
    const base = pod();
    const p: Pod = {
      ...base,
      spec: { ...base.spec!, readinessGates: [{ conditionType: 'example.com/lb' }] },
      status: {
        ...base.status,
        conditions: [
          ...base.status!.conditions!,
          { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' },
        ],
      },
    };
    const st = generateAPIPodStatus({
      pod: p,
      sandbox,
      containers: [view({ current: rec({}), ready: true, started: true })],
      hostIP: 'h',
      now: 1,
    });
    expect(st.conditions!.map((c) => c.type)).toEqual([
      'DisruptionTarget',
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ]);
    expect(st.conditions!.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message: 'corresponding condition of pod readiness gate "example.com/lb" does not exist.',
    });
  });

  it('Never + failed init container → Failed', () => {
    const p = { ...withInit(), spec: { ...withInit().spec!, restartPolicy: 'Never' as const } };
    const st = generateAPIPodStatus({
      pod: p,
      sandbox,
      hostIP: 'h',
      now: 3000,
      initContainers: [
        view({
          name: 'migrate',
          image: 'busybox',
          current: rec({ name: 'migrate', state: 'CONTAINER_EXITED', exitCode: 1, reason: 'Error', finishedAt: 2000 }),
        }),
      ],
      containers: [view({})],
    });
    expect(st.phase).toBe('Failed');
    expect(printPod({ ...p, status: st }, 3000).status).toBe('Init:Error');
  });
});

describe("generatePodReadyToStartContainersCondition (1.37: PodSandboxChanged's reason as the message)", () => {
  it('True with a ready sandbox, False with PodSandboxNotReady and why otherwise', () => {
    expect(generatePodReadyToStartContainersCondition(sandbox)).toEqual({
      type: 'PodReadyToStartContainers',
      status: 'True',
    });
    expect(generatePodReadyToStartContainersCondition(undefined)).toEqual({
      type: 'PodReadyToStartContainers',
      status: 'False',
      reason: 'PodSandboxNotReady',
      message: 'no pod sandbox exists',
    });
    expect(generatePodReadyToStartContainersCondition({ ...sandbox, state: 'SANDBOX_NOTREADY' })).toEqual({
      type: 'PodReadyToStartContainers',
      status: 'False',
      reason: 'PodSandboxNotReady',
      message: 'pod sandbox is not ready',
    });
  });
});

describe('generateContainersReadyCondition', () => {
  // The plain Go transcription: the fast paths must give exactly this.
  function reference(pod: Pod, statuses: ContainerStatus[], phase: string): PodCondition {
    const unknown: string[] = [];
    const unready: string[] = [];
    const check = (name: string) => {
      const st = statuses.find((x) => x.name === name);
      if (!st) unknown.push(name);
      else if (!st.ready) unready.push(name);
    };
    for (const c of pod.spec?.initContainers ?? []) if (c.restartPolicy === 'Always') check(c.name);
    for (const c of pod.spec?.containers ?? []) check(c.name);
    if (phase === 'Succeeded' && unknown.length === 0)
      return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
    if (phase === 'Failed') return { type: 'ContainersReady', status: 'False', reason: 'PodFailed' };
    const msgs: string[] = [];
    if (unknown.length) msgs.push(`containers with unknown status: [${unknown.join(' ')}]`);
    if (unready.length) msgs.push(`containers with unready status: [${unready.join(' ')}]`);
    if (msgs.length)
      return { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: msgs.join(', ') };
    return { type: 'ContainersReady', status: 'True' };
  }

  it('agrees with the plain transcription on every small pod', () => {
    const names = ['app', 'side'];
    let cases = 0;
    for (const phase of ['Pending', 'Running', 'Succeeded', 'Failed']) {
      for (const n of [0, 1, 2]) {
        for (const init of [undefined, 'Always', 'OnFailure'] as const) {
          // per container: 0 no status, 1 unready, 2 ready
          for (let mask = 0; mask < 3 ** (n + 1); mask++) {
            const p: Pod = {
              spec: {
                containers: names.slice(0, n).map((name) => ({ name })),
                ...(init
                  ? { initContainers: [{ name: 'init', restartPolicy: init === 'Always' ? 'Always' : undefined }] }
                  : {}),
              },
            };
            const statuses: ContainerStatus[] = [];
            [...names.slice(0, n), 'init'].forEach((name, i) => {
              const v = Math.floor(mask / 3 ** i) % 3;
              if (v) statuses.push({ name, ready: v === 2, image: '', imageID: '', restartCount: 0 });
            });
            expect(generateContainersReadyCondition(p, statuses, phase)).toEqual(reference(p, statuses, phase));
            cases++;
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(100);
  });
});

describe('status resources (InPlacePodVerticalScaling and its pod-level form)', () => {
  const withContainers = (
    containers: NonNullable<Pod['spec']>['containers'],
    initContainers?: NonNullable<Pod['spec']>['initContainers'],
  ): Pod => ({ ...pod(), spec: { ...pod().spec!, containers, initContainers } });
  type Levels = { allocatedResources?: Record<string, string>; resources?: unknown };
  it('a pod asking for nothing has resources: {} and no allocatedResources, and so does each started container', () => {
    const s = generateAPIPodStatus({
      pod: pod(),
      sandbox,
      containers: [view({ current: rec({}) })],
      hostIP: '172.18.0.3',
      now: 200,
    }) as Levels & { containerStatuses: (ContainerStatus & Levels)[] };
    expect([s.resources, s.allocatedResources]).toEqual([{}, undefined]);
    expect([s.containerStatuses[0].resources, s.containerStatuses[0].allocatedResources]).toEqual([{}, undefined]);
    // A container the runtime does not have yet reports neither (the kubelet sets them from a runtime status).
    const waiting = generateAPIPodStatus({
      pod: pod(),
      sandbox,
      containers: [view({})],
      hostIP: '172.18.0.3',
      now: 200,
    }) as { containerStatuses: Levels[] };
    expect(Object.keys(waiting.containerStatuses[0])).not.toContain('resources');
  });
  it('sums the containers (PodRequests, PodLimits), keeps the larger init container, and writes sums as Go prints them', () => {
    const app = {
      name: 'app',
      image: 'nginx:1.27',
      resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { memory: '128Mi' } },
    };
    const side = { name: 'side', image: 'busybox:1.37', resources: { requests: { cpu: '750m', memory: '64Mi' } } };
    const init = { name: 'init', image: 'busybox:1.37', resources: { requests: { cpu: '2', memory: '1Mi' } } };
    const p = withContainers([app, side], [init]);
    const s = generateAPIPodStatus({
      pod: p,
      sandbox,
      containers: [
        view({ current: rec({}), resources: app.resources }),
        view({ name: 'side', resources: side.resources }),
      ],
      hostIP: '172.18.0.3',
      now: 200,
    }) as Levels & { containerStatuses: (ContainerStatus & Levels)[] };
    // cpu: max(250m + 750m, 2) = 2 (the init container's string, kept); memory: 64Mi + 64Mi = 128Mi.
    expect(s.allocatedResources).toEqual({ cpu: '2', memory: '128Mi' });
    expect(s.resources).toEqual({ limits: { memory: '128Mi' }, requests: { cpu: '2', memory: '128Mi' } });
    expect(s.containerStatuses[0].allocatedResources).toEqual({ cpu: '250m', memory: '64Mi' });
    expect(s.containerStatuses[0].resources).toEqual({
      limits: { memory: '128Mi' },
      requests: { cpu: '250m', memory: '64Mi' },
    });
    // In the field order the kubelet's JSON has: containerID, allocatedResources, resources, volumeMounts.
    expect(Object.keys(s.containerStatuses[0]).slice(-3)).toEqual(['containerID', 'allocatedResources', 'resources']);
    const sum = generateAPIPodStatus({
      pod: withContainers([app, side]),
      sandbox,
      containers: [view({})],
      hostIP: '172.18.0.3',
      now: 200,
    }) as Levels;
    expect(sum.allocatedResources).toEqual({ cpu: '1', memory: '128Mi' });
  });
});
