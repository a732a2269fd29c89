// The panel's reader of a Deployment's pods: the kubelet's back-off as it holds it (the wait, the
// seconds left, nothing once the entry expired), and the EndpointSlice's endpoints.
import { describe, expect, it } from 'vitest';
import { appHealth } from '../app-health.ts';
import { storeList } from '../view/stored.ts';
import { createCluster } from '../cluster.ts';
import { kubeletStateOf } from '../kubelet/kubelet.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { getStableKey, hasExpired, imagePullBackOffKey } from '../kubelet/backoff.ts';
import { backoffOf, crashKey, expired, podTroublesOf, pullKey, sliceEndpointsOf } from './pod-trouble.ts';

function crashLooping() {
  const c = createCluster({ seed: 3, nodes: 1 });
  runKubectl(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=1');
  runKubectl(c, 'kubectl expose deployment web --port=80');
  c.advance(10_000);
  const name = podTroublesOf(c, 'web')[0].name;
  c.app('default', name, appHealth('crashes'));
  return { c, name };
}

describe('the back-off keys, as the kubelet has them', () => {
  it('agree with kubelet/backoff.ts', () => {
    expect(crashKey('web-1', 'default', 'u-1', 'nginx')).toBe(
      getStableKey({ name: 'web-1', namespace: 'default', uid: 'u-1' }, 'nginx'),
    );
    expect(pullKey('u-1', 'nginx:1.277')).toBe(imagePullBackOffKey('u-1', 'nginx:1.277'));
    for (const [now, last] of [
      [600_000, 0],
      [600_001, 0],
      [0, 0],
    ])
      expect(expired(now, last, 300_000)).toBe(hasExpired(now, last, 300_000));
  });
});

describe('podTroublesOf', () => {
  it('follows a crash loop: restarts, CrashLoopBackOff with the seconds left of its wait, the last state', () => {
    const { c, name } = crashLooping();
    c.advance(6_000);
    // Exited, restarted at once, exited again: waiting 10 s from the second exit.
    let p = podTroublesOf(c, 'web')[0];
    expect(p).toMatchObject({
      name,
      node: 'node-1',
      state: 'Waiting',
      reason: 'CrashLoopBackOff',
      ready: false,
      restartCount: 1,
      last: { reason: 'Error', exitCode: 1 },
    });
    expect(p.backoff).toMatchObject({ kind: 'restart', waitS: 10 });
    expect(p.backoff!.leftS).toBeGreaterThan(4);
    expect(p.backoff!.leftS).toBeLessThanOrEqual(10);
    c.advance(4_000);
    expect(podTroublesOf(c, 'web')[0].backoff!.leftS).toBe(p.backoff!.leftS! - 4);
    c.app('default', name, appHealth('healthy'));
    c.advance(30_000);
    p = podTroublesOf(c, 'web')[0];
    // Running again: its next exit would wait 20 s …
    expect(p).toMatchObject({
      state: 'Running',
      reason: null,
      restartCount: 2,
      backoff: { kind: 'restart', waitS: 20, leftS: null },
    });
    // … until 10 minutes without a back-off update let the entry expire: then it restarts at once.
    c.advance(600_000);
    expect(podTroublesOf(c, 'web')[0].backoff).toBeNull();
  });

  it('reads nothing from a node that is off', () => {
    const { c } = crashLooping();
    c.advance(3_500);
    const pod = storeList(c.world.state.store, 'pods', 'default')[0];
    c.node('node-1', 'stop');
    c.advance(100);
    expect(backoffOf(kubeletStateOf(c.world, 'node-1'), pod, pod.status?.containerStatuses?.[0], c.now)).toBeNull();
  });
});

describe('sliceEndpointsOf', () => {
  it("lists the Service's endpoints with the ready condition its slice gives each", () => {
    const { c, name } = crashLooping();
    expect(sliceEndpointsOf(c, 'web')).toEqual([expect.objectContaining({ pod: name, node: 'node-1', ready: true })]);
    c.advance(5_000);
    expect(sliceEndpointsOf(c, 'web')).toEqual([expect.objectContaining({ pod: name, ready: false })]);
    expect(sliceEndpointsOf(c, 'nothing')).toEqual([]);
  });
});
