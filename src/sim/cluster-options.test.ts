import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';
import { permalinkOf } from './permalink.ts';
import { Timeline } from './time-travel.ts';
import { frameOf } from './view/frame.ts';

describe('ClusterOptions.nodeCapacity', () => {
  it('sizes the listed workers and leaves the rest at 4 CPU, 8 GiB', () => {
    const c = createCluster({
      seed: 1,
      nodes: 3,
      nodeCapacity: [
        { cpu: '2', memory: '4Gi' },
        { cpu: '8', memory: '16Gi' },
      ],
    });
    c.settle();
    const nodes = frameOf(c).nodes;
    expect(nodes.map((n) => n.cpuMilli)).toEqual([2000, 8000, 4000]);
    // allocatable = capacity − the 100 Mi hard eviction threshold
    expect(nodes.map((n) => n.memoryBytes)).toEqual([4, 16, 8].map((g) => g * 2 ** 30 - 100 * 2 ** 20));
  });

  it('changes nothing when absent (the same world, byte for byte, as before the option)', () => {
    const a = createCluster({ seed: 1, nodes: 3 });
    const b = createCluster({ seed: 1, nodes: 3, nodeCapacity: [] });
    a.settle();
    b.settle();
    expect(b.world.hash()).toBe(a.world.hash());
    expect(b.world.state.inputs).toEqual(a.world.state.inputs);
  });

  it('replays to the same world (the sizes are in the recorded construction)', () => {
    const opts = { seed: 3, nodes: 2, nodeCapacity: [{ cpu: '1', memory: '2Gi' }] };
    const a = createCluster(opts);
    a.advance(30_000);
    const tl = new Timeline(createCluster(opts));
    tl.advance(30_000);
    expect(tl.cluster.world.hash()).toBe(a.world.hash());
  });

  it('refuses a link it could not rebuild', () => {
    const tl = new Timeline(createCluster({ nodes: 2, nodeCapacity: [{ cpu: '1', memory: '2Gi' }] }));
    const r = permalinkOf(tl);
    expect(r.ok).toBe(false);
  });
});
