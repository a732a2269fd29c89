import { describe, it, expect } from 'vitest';
import {
  newRuntimeState,
  PullImage,
  pullImageDuration,
  RunPodSandbox,
  CreateContainer,
  StartContainer,
  StopContainer,
  containerExited,
  injectOOMKill,
  injectCrash,
  RemovePodSandbox,
  ListContainers,
  normalizeImageRef,
  kubeContainerID,
  ImageStatus,
  imageNotFoundError,
  ContainerStatus,
  ListPodSandbox,
  type RuntimeState,
} from './container-runtime.ts';
import { newPodIPAllocator } from './pod-ip.ts';

/** A tiny deterministic generator for tests (the world's rng.ts plays this part in the core). */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pod = { uid: 'uid-1', name: 'web-1', namespace: 'default' };

function world(): RuntimeState {
  return newRuntimeState('node-1', newPodIPAllocator('10.244.1.0/24'), 12_500_000);
}

describe('containerd model', () => {
  it('normalises image names like containerd', () => {
    expect(normalizeImageRef('nginx:1.27')).toBe('docker.io/library/nginx:1.27');
    expect(normalizeImageRef('nginx')).toBe('docker.io/library/nginx:latest');
    expect(normalizeImageRef('bitnami/redis')).toBe('docker.io/bitnami/redis:latest');
    expect(normalizeImageRef('registry.k8s.io/pause:3.10')).toBe('registry.k8s.io/pause:3.10');
    expect(normalizeImageRef('localhost:5000/app')).toBe('localhost:5000/app:latest');
  });

  it('pull time follows size and bandwidth', () => {
    const s = world();
    expect(pullImageDuration(s, 'nginx:1.27')).toBe(600 + Math.round((72_400_000 / 12_500_000) * 1000));
    expect(pullImageDuration(s, 'busybox:1.36')).toBeLessThan(1000);
  });

  it('PullImage adds the image and logs the CRI call', () => {
    const r = PullImage(world(), 'nginx:1.27', 6392);
    expect(r.error).toBeUndefined();
    expect(ImageStatus(r.state, 'nginx:1.27', 6392).image?.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.record).toMatchObject({
      t: 6392,
      component: 'containerd/node-1',
      kind: 'cri',
      verb: 'PullImage',
      path: '/runtime.v1.ImageService/PullImage',
      code: 'OK',
      node: 'node-1',
    });
  });

  it("a missing image fails with containerd's NotFound text", () => {
    const s = { ...world(), missingImages: ['docker.io/library/nginx:doesnotexist'] };
    const r = PullImage(s, 'nginx:doesnotexist', 600);
    expect(r.error).toBe(
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": docker.io/library/nginx:doesnotexist: not found',
    );
    expect(r.error).toBe(imageNotFoundError('nginx:doesnotexist'));
    expect(r.record.code).toBe('NotFound');
  });

  it('sandbox, create, start, OOM kill, list, remove', () => {
    const rng = lcg(1);
    let s = PullImage(world(), 'nginx:1.27', 0).state;
    const sb = RunPodSandbox(s, pod, 10, rng);
    s = sb.state;
    expect(sb.sandbox?.ip).toBe('10.244.1.2');
    expect(sb.sandbox?.id).toMatch(/^[0-9a-f]{64}$/);
    const c = CreateContainer(
      s,
      { sandboxId: sb.sandbox!.id, name: 'app', image: 'nginx:1.27', restartCount: 0 },
      20,
      rng,
    );
    s = c.state;
    expect(kubeContainerID(c.container!)).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    s = StartContainer(s, c.container!.id, 30).state;
    expect(s.containers[c.container!.id]).toMatchObject({ state: 'CONTAINER_RUNNING', startedAt: 30 });
    s = injectOOMKill(s, c.container!.id, 5000);
    expect(s.containers[c.container!.id]).toMatchObject({
      state: 'CONTAINER_EXITED',
      exitCode: 137,
      reason: 'OOMKilled',
      finishedAt: 5000,
    });
    expect(ListContainers(s, 5001, { sandboxId: sb.sandbox!.id }).containers).toHaveLength(1);
    const removed = RemovePodSandbox(s, sb.sandbox!.id, 6000);
    expect(ListContainers(removed.state, 6001).containers).toHaveLength(0);
    expect(removed.state.ipam.allocated).toEqual({});
    expect(removed.record.verb).toBe('RemovePodSandbox');
  });

  it('crash exit codes map to Error / Completed', () => {
    const rng = lcg(2);
    let s = PullImage(world(), 'busybox:1.36', 0).state;
    const sb = RunPodSandbox(s, pod, 0, rng);
    s = sb.state;
    const c = CreateContainer(
      s,
      { sandboxId: sb.sandbox!.id, name: 'app', image: 'busybox:1.36', restartCount: 0 },
      0,
      rng,
    );
    s = StartContainer(c.state, c.container!.id, 0).state;
    expect(injectCrash(s, c.container!.id, 100).containers[c.container!.id].reason).toBe('Error');
    expect(containerExited(s, c.container!.id, 100, { exitCode: 0 }).containers[c.container!.id].reason).toBe(
      'Completed',
    );
  });

  it('StopContainer: SIGTERM handled exits 0 soon; ignored means SIGKILL (137) at the grace end', () => {
    const rng = lcg(3);
    let s = PullImage(world(), 'nginx:1.27', 0).state;
    const sb = RunPodSandbox(s, pod, 0, rng);
    const c = CreateContainer(
      sb.state,
      { sandboxId: sb.sandbox!.id, name: 'app', image: 'nginx:1.27', restartCount: 0 },
      0,
      rng,
    );
    s = StartContainer(c.state, c.container!.id, 0).state;
    expect(StopContainer(s, c.container!.id, 30, 1000)).toMatchObject({ exitAt: 1100, exitCode: 0 });
    expect(StopContainer(s, c.container!.id, 30, 1000, { handlesSigterm: false, shutdownMs: 0 })).toMatchObject({
      exitAt: 31_000,
      exitCode: 137,
    });
  });

  it('ContainerStatus and ListPodSandbox', () => {
    const rng = lcg(4);
    const sb = RunPodSandbox(world(), pod, 5, rng);
    expect(ListPodSandbox(sb.state, 6).sandboxes.map((x) => x.ip)).toEqual(['10.244.1.2']);
    const miss = ContainerStatus(sb.state, 'f'.repeat(64), 7);
    expect([miss.container, miss.record.code]).toEqual([undefined, 'NotFound']);
  });

  it('is deterministic for a seed', () => {
    const a = RunPodSandbox(world(), pod, 0, lcg(7)).sandbox!.id;
    const b = RunPodSandbox(world(), pod, 0, lcg(7)).sandbox!.id;
    expect(a).toBe(b);
  });

  it('ids are 64 hex digits, two bytes per draw, as the draws write them', () => {
    for (let seed = 1; seed < 50; seed++) {
      const draws = lcg(seed);
      let want = '';
      for (let i = 0; i < 16; i++)
        want += Math.floor(draws() * 0x10000)
          .toString(16)
          .padStart(4, '0');
      expect(RunPodSandbox(world(), pod, 0, lcg(seed)).sandbox!.id).toBe(want);
    }
  });
});
