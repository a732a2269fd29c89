import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Node, NodeCondition } from 'kubernetes-types/core/v1';
import {
  nextTryAt,
  computeZoneState,
  reducedQPSFunc,
  healthyQPSFunc,
  zoneEvictionQPS,
  newTokenBucket,
  tryAccept,
  nextTokenAt,
  newRateLimitedTimedQueue,
  queueAdd,
  queueTry,
  queueRemove,
  swapLimiter,
  getZoneKey,
  handleDisruption,
  newZonesState,
  addPodEvictorForNewZone,
  zoneStatesUnchanged,
  type ZoneState,
  type ZonesState,
} from './zones.ts';
import { runs } from '../../test/fc.ts';

const c = (status: string): NodeCondition => ({ type: 'Ready', status });
const conds = (ready: number, notReady: number, unknown = 0) => [
  ...Array(ready).fill(c('True')),
  ...Array(notReady).fill(c('False')),
  ...Array(unknown).fill(undefined),
];

describe('ComputeZoneState', () => {
  it.each<[number, number, number, ZoneState, number]>([
    [3, 0, 0, 'Normal', 0],
    [2, 1, 0, 'Normal', 1],
    [1, 2, 0, 'Normal', 2], // only 2 not ready: needs > 2
    [0, 3, 0, 'FullDisruption', 3],
    [0, 1, 0, 'FullDisruption', 1],
    [0, 0, 2, 'FullDisruption', 2], // no Ready condition counts as not ready
    [2, 3, 0, 'PartialDisruption', 3], // 0.6 ≥ 0.55
    [3, 3, 0, 'Normal', 3], // 0.5
    [9, 11, 0, 'PartialDisruption', 11], // exactly 0.55
    [10, 10, 0, 'Normal', 10],
    [1, 0, 0, 'Normal', 0],
    [0, 0, 0, 'Normal', 0],
  ])('%d ready, %d not ready, %d without condition → %s', (r, n, u, state, notReady) => {
    expect(computeZoneState(conds(r, n, u))).toEqual({ state, notReady });
  });
});

describe('eviction rates', () => {
  it('Normal 0.1/s; Partial 0.01/s above 50 nodes, else stopped; Full uses the healthy rate', () => {
    expect(healthyQPSFunc(3)).toBe(0.1);
    expect(reducedQPSFunc(50)).toBe(0);
    expect(reducedQPSFunc(51)).toBe(0.01);
    expect(zoneEvictionQPS('Normal', 3)).toBe(0.1);
    expect(zoneEvictionQPS('PartialDisruption', 10)).toBe(0);
    expect(zoneEvictionQPS('FullDisruption', 10)).toBe(0.1);
  });
});

describe('token bucket', () => {
  it('burst 1 at 0.1/s: one now, then one every 10 s', () => {
    let b = newTokenBucket(0.1, 1, 0);
    const accepted: number[] = [];
    for (let t = 0; t <= 60_000; t += 100) {
      const r = tryAccept(b, t);
      b = r.bucket;
      if (r.ok) accepted.push(t / 1000);
    }
    expect(accepted).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it('nextTokenAt', () => {
    const b = tryAccept(newTokenBucket(0.1, 1, 0), 0).bucket;
    expect(nextTokenAt(b, 4000)).toBe(10_000);
    expect(nextTokenAt({ ...b, qps: 0 }, 0)).toBe(Infinity);
  });

  it('never accepts more than burst + qps × elapsed', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30_000 }), { maxLength: 100 }), (gaps) => {
        let b = newTokenBucket(0.1, 1, 0);
        let t = 0;
        let n = 0;
        for (const g of gaps) {
          t += g;
          const r = tryAccept(b, t);
          b = r.bucket;
          if (r.ok) n++;
        }
        return n <= 1 + Math.floor((t / 1000) * 0.1 + 1e-6);
      }),
      { seed: 20260101 },
    ); // fixed seed: runs are reproducible like the rest of the core
  });
});

describe('RateLimitedTimedQueue', () => {
  it('drains one node per 10 s when tried every 100 ms (NodeEvictionPeriod)', () => {
    let q = newRateLimitedTimedQueue(0.1, 0);
    for (const n of ['node-1', 'node-2', 'node-3']) q = queueAdd(q, n, `uid-${n}`, 0).queue;
    const done: [string, number][] = [];
    for (let t = 0; t <= 30_000; t += 100)
      q = queueTry(q, t, (v) => {
        done.push([v.value, t / 1000]);
        return [true, 0];
      });
    expect(done).toEqual([
      ['node-1', 0],
      ['node-2', 10],
      ['node-3', 20],
    ]);
    // Processed values stay in the set until Remove, so a second Add is refused.
    expect(queueAdd(q, 'node-1', 'uid', 31_000).added).toBe(false);
    expect(queueAdd(queueRemove(q, 'node-1').queue, 'node-1', 'uid', 31_000).added).toBe(true);
  });

  it('nextTryAt lets the core skip idle 100 ms ticks', () => {
    let q = newRateLimitedTimedQueue(0.1, 0);
    expect(nextTryAt(q, 0)).toBe(Infinity);
    q = queueAdd(q, 'node-1', 'u', 50).queue;
    expect(nextTryAt(q, 50)).toBe(100);
    q = queueTry(q, 100, () => [true, 0]);
    q = queueAdd(q, 'node-2', 'u', 3000).queue;
    expect(nextTryAt(q, 3000)).toBe(10_100);
    expect(nextTryAt(swapLimiter(q, 0, 3000), 3000)).toBe(Infinity);
  });

  it('a stopped limiter (qps 0) processes nothing', () => {
    let q = swapLimiter(newRateLimitedTimedQueue(0.1, 0), 0, 0);
    q = queueAdd(q, 'node-1', 'u', 0).queue;
    let n = 0;
    for (let t = 0; t < 100_000; t += 100)
      q = queueTry(q, t, () => {
        n++;
        return [true, 0];
      });
    expect(n).toBe(0);
  });

  it('a failed fn is retried after its wait', () => {
    let q = queueAdd(newRateLimitedTimedQueue(10, 0, 1), 'node-1', 'u', 0).queue;
    const at: number[] = [];
    for (let t = 0; t <= 2000; t += 100)
      q = queueTry(q, t, () => {
        at.push(t);
        return [at.length > 1, 500];
      });
    expect(at).toEqual([0, 600]);
  });
});

describe('zones and disruption', () => {
  const node = (labels: Record<string, string> = {}): Node => ({ metadata: { name: 'n', labels } });
  it('GetZoneKey', () => {
    expect(getZoneKey(node())).toBe('');
    expect(getZoneKey(node({ 'topology.kubernetes.io/region': 'eu', 'topology.kubernetes.io/zone': 'eu-1a' }))).toBe(
      'eu:\x00:eu-1a',
    );
  });

  it('Normal → Partial → Normal swaps the limiter; small zones stop', () => {
    let z = addPodEvictorForNewZone(newZonesState(), node(), 0);
    let d = handleDisruption(z, { '': conds(10, 0) }, 0);
    expect(d.zones.zoneStates['']).toBe('Normal');
    d = handleDisruption(d.zones, { '': conds(4, 6) }, 5000);
    expect(d.logs).toEqual(['Controller detected that zone  is now in state PartialDisruption.']);
    expect(d.zones.zoneNoExecuteTainter[''].limiter.qps).toBe(0);
    d = handleDisruption(d.zones, { '': conds(10, 0) }, 10_000);
    expect(d.zones.zoneNoExecuteTainter[''].limiter.qps).toBe(0.1);
    z = d.zones;
    expect(z.zoneStates['']).toBe('Normal');
  });

  it('one zone down among healthy ones keeps the healthy rate there', () => {
    let z = addPodEvictorForNewZone(newZonesState(), node({ 'topology.kubernetes.io/zone': 'a' }), 0);
    z = addPodEvictorForNewZone(z, node({ 'topology.kubernetes.io/zone': 'b' }), 0);
    let d = handleDisruption(z, { ':\x00:a': conds(3, 0), ':\x00:b': conds(3, 0) }, 0);
    d = handleDisruption(d.zones, { ':\x00:a': conds(0, 3), ':\x00:b': conds(3, 0) }, 5000);
    expect(d.zones.zoneStates[':\x00:a']).toBe('FullDisruption');
    expect(d.zones.zoneNoExecuteTainter[':\x00:a'].limiter.qps).toBe(0.1);
    expect(d.markAllNodesReachable).toBe(false);
  });

  it('all zones down: enter master disruption mode once, exit with fresh grace', () => {
    let z = addPodEvictorForNewZone(newZonesState(), node(), 0);
    let d = handleDisruption(z, { '': conds(3, 0) }, 0);
    d = handleDisruption(d.zones, { '': conds(0, 3) }, 5000);
    expect([d.markAllNodesReachable, d.zones.zoneNoExecuteTainter[''].limiter.qps]).toEqual([true, 0]);
    d = handleDisruption(d.zones, { '': conds(0, 3) }, 10_000);
    expect([d.markAllNodesReachable, d.logs]).toEqual([false, []]);
    d = handleDisruption(d.zones, { '': conds(1, 2) }, 15_000);
    expect([d.resetHealthTimestamps, d.zones.zoneStates[''], d.zones.zoneNoExecuteTainter[''].limiter.qps]).toEqual([
      true,
      'Normal',
      0.1,
    ]);
    z = d.zones;
    expect(z.zoneStates['']).toBe('Normal');
  });
});

describe('zoneStatesUnchanged (a steady pass skips handleDisruption)', () => {
  const zoneKey = fc.constantFrom('', 'r:\x00:a', 'r:\x00:b');
  const zoneState = fc.constantFrom<ZoneState>('Initial', 'Normal', 'PartialDisruption', 'FullDisruption');
  const readyCond = fc.option(fc.constantFrom('True', 'False', 'Unknown').map(c), { nil: undefined });
  it('whenever it holds, handleDisruption changes nothing, logs nothing and sets no flag', () => {
    let held = 0;
    fc.assert(
      fc.property(
        fc.dictionary(zoneKey, fc.array(readyCond, { minLength: 1, maxLength: 7 })),
        fc.dictionary(zoneKey, zoneState),
        fc.boolean(),
        (zoneToNodeConditions, states, agree) => {
          // Half the cases start from the states the zones compute to, so that the predicate often holds.
          const zoneStates = agree
            ? Object.fromEntries(Object.entries(zoneToNodeConditions).map(([k, cs]) => [k, computeZoneState(cs).state]))
            : states;
          const z: ZonesState = {
            zoneStates,
            zoneNoExecuteTainter: Object.fromEntries(
              Object.keys(zoneStates).map((k) => [k, newRateLimitedTimedQueue(0.1, 0)]),
            ),
          };
          if (!zoneStatesUnchanged(z, zoneToNodeConditions)) return;
          held++;
          expect(handleDisruption(z, zoneToNodeConditions, 5000)).toEqual({
            zones: z,
            markAllNodesReachable: false,
            resetHealthTimestamps: false,
            logs: [],
          });
        },
      ),
      { numRuns: runs(0.5) },
    );
    expect(held).toBeGreaterThan(runs(0.5) / 5);
  });

  it('does not hold for a new zone, a gone zone or a changed state', () => {
    const z: ZonesState = { zoneStates: { '': 'Normal' }, zoneNoExecuteTainter: {} };
    expect(zoneStatesUnchanged(z, { '': conds(3, 0) })).toBe(true);
    expect(zoneStatesUnchanged(z, { '': conds(3, 0), 'r:\x00:a': conds(1, 0) })).toBe(false);
    expect(zoneStatesUnchanged(z, {})).toBe(false);
    expect(zoneStatesUnchanged(z, { '': conds(0, 3) })).toBe(false);
    expect(zoneStatesUnchanged({ zoneStates: { '': 'Initial' }, zoneNoExecuteTainter: {} }, { '': conds(3, 0) })).toBe(
      false,
    );
  });
});
