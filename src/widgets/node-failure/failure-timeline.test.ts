import { describe, expect, it } from 'vitest';
import type { LeaseClock, PodCountdown } from '../../sim/index.ts';
import { failureTimeline } from './failure-timeline.ts';

const clock = (over: Partial<LeaseClock> = {}): LeaseClock => ({
  node: 'node-2',
  powered: true,
  partitioned: false,
  ready: 'True',
  leaseAgeS: 3,
  renewEveryS: 10,
  graceS: 50,
  quietS: 3,
  ...over,
});
const pod = (over: Partial<PodCountdown> = {}): PodCountdown => ({
  name: 'web-1',
  terminating: false,
  tolerationSeconds: 300,
  evictAt: null,
  remainingS: null,
  container: 'running',
  ...over,
});
const now = (c: LeaseClock, pods: PodCountdown[]) => failureTimeline(c, pods).find((s) => s.at === 'now')!;

describe('the node-failure timeline', () => {
  it('stands at the renewals while the kubelet renews its Lease', () => {
    const stages = failureTimeline(clock(), [pod()]);
    expect(stages.map((s) => s.at)).toEqual(['now', 'later', 'later', 'later', 'later']);
    expect(stages[0].detail).toBe('every 10 s by the kubelet; last 3 s ago');
  });

  it('counts the grace period once a renewal is missed, with how much of it is used', () => {
    const s = now(clock({ powered: false, leaseAgeS: 37, quietS: 37 }), [pod()]);
    expect(s.id).toBe('grace');
    expect(s.detail).toBe('37 s of 50 s without a renewal');
    expect(s.progress).toBeCloseTo(0.74);
  });

  it('marks the node Unknown and tainted, then runs down the least time left among its pods', () => {
    expect(now(clock({ ready: 'Unknown', quietS: 52 }), [pod()]).id).toBe('tainted');
    const s = now(clock({ ready: 'Unknown', quietS: 120 }), [
      pod({ remainingS: 230 }),
      pod({ name: 'web-2', remainingS: 229 }),
    ]);
    expect(s.id).toBe('toleration');
    expect(s.detail).toBe('229 s of 300 s left (2 pods)');
    expect(s.progress).toBeCloseTo(71 / 300);
  });

  it('ends at the eviction, counting the pods deleted, every stage before it done', () => {
    const stages = failureTimeline(clock({ ready: 'Unknown', quietS: 400 }), [
      pod({ terminating: true }),
      pod({ name: 'web-2', terminating: true }),
    ]);
    expect(stages.map((s) => s.at)).toEqual(['done', 'done', 'done', 'done', 'now']);
    expect(stages[4].detail).toBe('2 pods deleted (Terminating); replacements go elsewhere');
    expect(stages[1].detail).toBe('over: 50 s without a renewal');
  });

  it('says the grace period is not counted while the controller is not running', () => {
    expect(failureTimeline(clock({ graceS: null, quietS: null }), [])[1].detail).toBe(
      'not counted: the controller is not running',
    );
  });
});
