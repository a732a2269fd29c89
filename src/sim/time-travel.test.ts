import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from './cluster.ts';
import { Timeline } from './time-travel.ts';

/** A three-replica nginx Deployment as kubectl create would send it. */
function webDeployment(replicas = 3): unknown {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  };
}

function createWeb(c: Cluster, replicas = 3): void {
  c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: webDeployment(replicas) });
}

function scaleWeb(c: Cluster, replicas: number): void {
  c.request({
    verb: 'patch',
    resource: 'deployments',
    namespace: 'default',
    name: 'web',
    body: { spec: { replicas } },
  });
}

/** A 200-step run with inputs on the way; returns the hash at every step. */
function record200(tl: Timeline): string[] {
  const hashes = [tl.cluster.world.hash()];
  for (let i = 1; i <= 200; i++) {
    if (i === 1) tl.apply((c) => createWeb(c));
    else if (i === 60) tl.apply((c) => scaleWeb(c, 5));
    else if (i === 120) tl.apply((c) => c.node('node-2', 'stop'));
    else if (i === 150) tl.apply((c) => c.apiserverLatency(50));
    else expect(tl.step()).toBe(true);
    expect(tl.at().step).toBe(i);
    hashes.push(tl.cluster.world.hash());
  }
  return hashes;
}

describe('Timeline', () => {
  it('back() after every step of a 200-step run hash-equals the run at that step', () => {
    const tl = new Timeline(createCluster({ seed: 3 }), { everyEvents: 16 });
    const hashes = record200(tl);
    expect(tl.length).toBe(201);
    for (let i = 199; i >= 0; i--) {
      expect(tl.back()).toBe(true);
      expect(tl.at().step).toBe(i);
      expect(tl.cluster.world.hash()).toBe(hashes[i]);
    }
    expect(tl.back()).toBe(false);
    // and forward again through the recording
    for (let i = 1; i <= 200; i++) {
      expect(tl.step()).toBe(true);
      expect(tl.cluster.world.hash()).toBe(hashes[i]);
    }
  });

  it('back() right after each step while recording equals the previous step', () => {
    const tl = new Timeline(createCluster({ seed: 5 }), { everyEvents: 32 });
    tl.apply((c) => createWeb(c));
    let prev = tl.cluster.world.hash();
    for (let i = 0; i < 120; i++) {
      tl.step();
      const now = tl.cluster.world.hash();
      tl.back();
      expect(tl.cluster.world.hash()).toBe(prev);
      tl.step();
      expect(tl.cluster.world.hash()).toBe(now);
      prev = now;
    }
  });

  it('seek to random steps equals a straight run', () => {
    const tl = new Timeline(createCluster({ seed: 9 }), { everyEvents: 20 });
    const hashes = record200(tl);
    let x = 12345;
    for (let n = 0; n < 40; n++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const k = x % 201;
      expect(tl.seek(k).step).toBe(k);
      expect(tl.cluster.world.hash()).toBe(hashes[k]);
    }
    // a straight, uninterrupted replay of the same inputs gives the same final state
    const straight = new Timeline(createCluster({ seed: 9 }));
    straight.load(tl.data.inputs.slice(tl.data.bounds.inputs[0]));
    straight.seek(200);
    expect(straight.cluster.world.hash()).toBe(hashes[200]);
  });

  it('seekTime goes to the last step at or before t, and runs on past the end', () => {
    const tl = new Timeline(createCluster({ seed: 2 }));
    tl.apply((c) => createWeb(c));
    tl.advance(20_000);
    const end = tl.at();
    expect(end.t).toBe(20_000);
    const p = tl.seekTime(5_000);
    expect(p.t).toBeLessThanOrEqual(5_000);
    expect(tl.timeOf(p.step + 1)).toBeGreaterThan(5_000);
    const q = tl.seekTime(30_000);
    expect(q.t).toBe(30_000);
    expect(q.atEnd).toBe(true);
  });

  it('a new input after going back discards the future (fork)', () => {
    const tl = new Timeline(createCluster({ seed: 4 }));
    tl.apply((c) => createWeb(c));
    tl.advance(15_000);
    const fullLength = tl.length;
    tl.seekTime(3_000);
    const at = tl.at();
    expect(at.atEnd).toBe(false);
    tl.apply((c) => scaleWeb(c, 1));
    expect(tl.length).toBe(at.step + 2);
    expect(tl.at().atEnd).toBe(true);
    expect(tl.kindOf(at.step + 1)).toBe('input');
    expect(tl.length).toBeLessThan(fullLength);
    // inputs made directly on the cluster (not through apply) are picked up the same way
    tl.back();
    tl.back();
    const mid = tl.at().step;
    tl.cluster.request({ verb: 'delete', resource: 'deployments', namespace: 'default', name: 'web' });
    expect(tl.at()).toMatchObject({ step: mid + 1, last: mid + 1, atEnd: true });
    // an explicit fork() just cuts the future
    tl.advance(2_000);
    tl.seek(mid);
    tl.fork();
    expect(tl.length).toBe(mid + 1);
  });

  it('keeps memory bounded: snapshots thin out to every 2^n-th as they age', () => {
    const tl = new Timeline(createCluster({ seed: 1 }), { everyEvents: 8, everyMs: 1e12, dense: 4 });
    tl.apply((c) => createWeb(c));
    const counts: number[] = [];
    for (let i = 0; i < 8; i++) {
      tl.advance(60_000);
      counts.push(tl.snapshotCount);
    }
    const slots = tl.data.slots.length;
    expect(slots).toBeGreaterThan(75); // an idle cluster's steps: lease renewals (no Node GETs since the kubelets' node informers)
    // dense + dense per power of two of the distance, plus the start: O(dense · log slots)
    const bound = 4 * (Math.ceil(Math.log2(slots / 4)) + 2) + 1;
    expect(tl.snapshotCount).toBeLessThanOrEqual(bound);
    expect(counts[7] - counts[3]).toBeLessThanOrEqual(8);
    // far back still works (replays from a sparse snapshot) and refills snapshots near the cursor
    const hashAt = (k: number) => {
      tl.seek(k);
      return tl.cluster.world.hash();
    };
    const h = hashAt(50);
    const fresh = new Timeline(createCluster({ seed: 1 }));
    fresh.load(tl.data.inputs.slice(tl.data.bounds.inputs[0]));
    fresh.seek(50);
    expect(fresh.cluster.world.hash()).toBe(h);
    expect(tl.snapshotCount).toBeLessThanOrEqual(2 * bound);
  });

  it('is deterministic: two recordings of the same actions agree step by step', () => {
    const a = new Timeline(createCluster({ seed: 11 }));
    const b = new Timeline(createCluster({ seed: 11 }));
    for (const tl of [a, b]) {
      record200(tl);
    }
    expect(a.data.bounds).toEqual(b.data.bounds);
    expect(a.cluster.world.hash()).toBe(b.cluster.world.hash());
  });
});

describe('Timeline.limitEvents', () => {
  it('stops a run at its budget, and lifted, the run goes on to the bytes of one never limited', () => {
    const free = new Timeline(createCluster({ seed: 4 }));
    free.apply((x) => createWeb(x));
    free.advance(60_000);
    const limited = new Timeline(createCluster({ seed: 4 }), { maxEvents: 50 });
    limited.apply((x) => createWeb(x));
    limited.advance(60_000);
    expect(limited.at().events).toBeLessThanOrEqual(50);
    expect(free.at().events).toBeGreaterThan(50);
    limited.limitEvents(Infinity);
    limited.advance(60_000 - limited.at().t + free.timeOf(0));
    expect(limited.cluster.world.hash()).toBe(free.cluster.world.hash());
  });
});

describe('Timeline.settle', () => {
  it('stops where World.settle stops, with the steps on the way recorded', () => {
    for (const max of [120_000, 3_000]) {
      const plain = createCluster({ seed: 4 });
      createWeb(plain);
      const settledPlain = plain.settle(max);
      const c = createCluster({ seed: 4 });
      const tl = new Timeline(c);
      tl.apply((x) => createWeb(x));
      expect(tl.settle(max)).toBe(settledPlain);
      expect(c.world.hash()).toBe(plain.world.hash());
      expect(c.now).toBe(plain.now);
      expect(tl.at().step).toBeGreaterThan(10);
    }
  });

  it('drops the future first, and steps back and forward over what it recorded to the same bytes', () => {
    const c = createCluster({ seed: 4 });
    const tl = new Timeline(c);
    tl.apply((x) => createWeb(x));
    for (let i = 0; i < 40; i++) tl.step();
    tl.seek(5);
    tl.settle(60_000);
    const end = tl.at().step;
    expect(tl.length - 1).toBe(end);
    tl.step();
    const hash = c.world.hash();
    const at = tl.at().step;
    tl.seek(2);
    tl.seek(at);
    expect(c.world.hash()).toBe(hash);
  });
});
