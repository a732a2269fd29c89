// The kubelet's node events after registration: its condition setters record a transition when the
// node comes back from Unknown, and recordNodeSchedulableEvent follows kubectl cordon/uncordon.
import { describe, expect, it } from 'vitest';
import type { Event as CoreEvent } from 'kubernetes-types/core/v1';
import { createCluster, type Cluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { rfc3339 } from '../util/names.ts';
import { healthyConditions, nodeConditionEvents } from './node-status.ts';
import { kubeletStateOf } from './kubelet.ts';

/** The kubelet's events on a node (last written at or after `since`, an RFC 3339 time), oldest first, as `reason` (xCOUNT when repeated). */
function nodeEvents(c: Cluster, node: string, since = ''): string[] {
  return (Object.values(c.world.state.store.objects.events ?? {}) as unknown as CoreEvent[])
    .filter(
      (e) =>
        e.involvedObject.kind === 'Node' &&
        e.involvedObject.name === node &&
        e.source?.component === 'kubelet' &&
        (e.lastTimestamp ?? '') >= since,
    )
    .sort(
      (a, b) =>
        (a.lastTimestamp ?? '').localeCompare(b.lastTimestamp ?? '') ||
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    )
    .map((e) => `${e.reason}${(e.count ?? 1) > 1 ? ` x${e.count}` : ''}`);
}

function newReasons(c: Cluster, node: string, before: string[]): string[] {
  return nodeEvents(c, node).filter((r) => !before.includes(r));
}

const status = (types: Record<string, string>) => ({
  conditions: Object.entries(types).map(([type, s]) => ({ type, status: s })),
});

describe('nodeConditionEvents (the setters MemoryPressure … Ready)', () => {
  it.each([
    [
      'a new node: the three pressure events, no Ready event (the condition is new)',
      undefined,
      'healthy',
      ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID'],
    ],
    [
      'back from Unknown (marked by the node-lifecycle controller)',
      status({ MemoryPressure: 'Unknown', DiskPressure: 'Unknown', PIDPressure: 'Unknown', Ready: 'Unknown' }),
      'healthy',
      ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady'],
    ],
    ['nothing changed', 'healthy', 'healthy', []],
    [
      'Ready went False',
      'healthy',
      status({ MemoryPressure: 'False', DiskPressure: 'False', PIDPressure: 'False', Ready: 'False' }),
      ['NodeNotReady'],
    ],
    [
      'memory and disk pressure',
      'healthy',
      status({ MemoryPressure: 'True', DiskPressure: 'True', PIDPressure: 'False', Ready: 'True' }),
      ['NodeHasInsufficientMemory', 'NodeHasDiskPressure'],
    ],
    [
      'PID pressure',
      'healthy',
      status({ MemoryPressure: 'False', DiskPressure: 'False', PIDPressure: 'True', Ready: 'True' }),
      ['NodeHasInsufficientPID'],
    ],
  ] as const)('%s', (_name, prev, next, want) => {
    const healthy = { conditions: healthyConditions() };
    expect(nodeConditionEvents(prev === 'healthy' ? healthy : prev, next === 'healthy' ? healthy : next)).toEqual(want);
  });
});

describe('kubelet node events', () => {
  it('a new node records Starting, the three pressure events twice (getNodeAnyWay, then registration), NodeAllocatableEnforced and NodeReady', () => {
    const c = createCluster({ seed: 1 });
    c.advance(5_000);
    expect(nodeEvents(c, 'node-2')).toEqual([
      'Starting',
      'NodeHasSufficientMemory x2',
      'NodeHasNoDiskPressure x2',
      'NodeHasSufficientPID x2',
      'NodeAllocatableEnforced',
      'NodeReady',
    ]);
    c.advance(120_000);
    expect(nodeEvents(c, 'node-2')).toHaveLength(6); // a healthy node records nothing more
  });

  it('a node powered on after it went Unknown posts the events the real v1.37.2 kubelet posts (node-failure trace)', () => {
    const c = createCluster({ seed: 1 });
    c.advance(5_000);
    c.node('node-2', 'stop');
    c.advance(90_000); // past the 50 s grace: the node-lifecycle controller marks every condition Unknown
    expect(runKubectl(c, 'get node node-2').stdout).toMatch(/node-2\s+NotReady/);
    const bootedAt = rfc3339(c.now);
    const on = c.now;
    c.node('node-2', 'start');
    c.advance(5_000);
    // The new process has a new event recorder: new Event objects, not counts on the old ones. The
    // informer has the stale Node (Ready=Unknown) before the kubelet registers, so getNodeAnyWay
    // records nothing; fastStatusUpdateOnce's try at 0.1 s runs the setters on it before the
    // runtime's first status check (NodeHas*, NodeNotReady) and gives up; registration's initialNode
    // (NodeHas*), the sync's update from the stale lister (NodeHas*, NodeReady) and the try that waited
    // for it, again from the stale lister (NodeHas*, NodeReady): 4, 1 and 2, as the trace counts.
    expect(nodeEvents(c, 'node-2', bootedAt)).toEqual([
      'Starting',
      'NodeHasSufficientMemory x4',
      'NodeHasNoDiskPressure x4',
      'NodeHasSufficientPID x4',
      'NodeNotReady',
      'Rebooted',
      'NodeReady x2',
    ]);
    // The node watch at once, the POST (409) 0.2 s later, then the two status PATCHes back to back.
    const reqs = c.log.filter(
      (r) =>
        r.t >= on &&
        r.component === 'kubelet/node-2' &&
        r.kind === 'request' &&
        !r.path.includes('/events') &&
        !r.path.includes('/leases') &&
        !r.path.includes('/pods'),
    );
    expect(reqs.slice(0, 5).map((r) => `${r.t - on} ${r.verb} ${r.path.replace(/\?.*/, '')} ${r.code}`)).toEqual([
      '0 WATCH /api/v1/nodes 200',
      '200 POST /api/v1/nodes 409',
      '200 GET /api/v1/nodes/node-2 200',
      '200 PATCH /api/v1/nodes/node-2/status 200',
      '200 PATCH /api/v1/nodes/node-2/status 200',
    ]);
    expect(reqs.slice(5).filter((r) => r.verb === 'PATCH' && r.t < on + 5_000)).toEqual([]); // the fast loop has ended
    const described = runKubectl(c, 'describe node node-2').stdout;
    expect(described.match(/kubelet\s+Node node-2 status is now: NodeReady/g)).toHaveLength(2);
    expect(described).toMatch(/Warning\s+Rebooted\s/);
  });

  it('a node restarted within the grace period (still Ready): the fast loop ends at its first look, only initialNode records', () => {
    const c = createCluster({ seed: 1 });
    c.advance(5_000);
    c.node('node-2', 'stop');
    c.advance(10_000);
    const bootedAt = rfc3339(c.now);
    c.node('node-2', 'start');
    c.advance(5_000);
    // Ready=True in the lister: no try runs the setters, and the sync's update finds no condition
    // moving; only registration's initialNode (conditions from nothing) records NodeHas*, once.
    expect(nodeEvents(c, 'node-2', bootedAt)).toEqual([
      'Starting',
      'NodeHasSufficientMemory',
      'NodeHasNoDiskPressure',
      'NodeHasSufficientPID',
      'Rebooted',
    ]);
  });

  it('a kubelet that never reads its Node gives the fast loop up after nodeReadyGracePeriod (120 s)', () => {
    const c = createCluster({ seed: 1 });
    c.advance(5_000);
    c.node('node-3', 'stop');
    c.node('node-3', 'partition');
    c.node('node-3', 'start');
    const st = () => kubeletStateOf(c.world, 'node-3')!;
    c.advance(119_000);
    expect(st().fastStatusAt).toBeDefined();
    c.advance(2_000);
    expect(st().fastStatusAt).toBeUndefined();
  });

  it('a node cut off for longer than the grace period records the transitions once it is reachable again (no Rebooted)', () => {
    const c = createCluster({ seed: 1 });
    c.advance(5_000);
    const before = nodeEvents(c, 'node-3');
    c.node('node-3', 'partition');
    c.advance(90_000);
    c.node('node-3', 'heal');
    // The node informer's watch comes back (reflector backoff, ~20 s here), delivering the Unknown
    // conditions; the next (jittered) 10 s status tick reads them from that cache and corrects them.
    c.advance(11_000);
    expect(nodeEvents(c, 'node-3').filter((r) => !before.includes(r))).toEqual([]);
    c.advance(20_000);
    const added = nodeEvents(c, 'node-3').filter((r) => !before.includes(r));
    // (the same process: counts on its start-up events, which are at 2 already)
    expect(added).toEqual([
      'NodeHasSufficientMemory x3',
      'NodeHasNoDiskPressure x3',
      'NodeHasSufficientPID x3',
      'NodeReady x2',
    ]);
  });

  it('kubectl cordon: NodeNotSchedulable at the next status tick; uncordon: NodeSchedulable', () => {
    const c = createCluster({ seed: 1 });
    c.advance(5_000);
    const before = nodeEvents(c, 'node-1');
    expect(runKubectl(c, 'cordon node-1').stdout).toBe('node/node-1 cordoned\n');
    c.advance(10_000);
    expect(newReasons(c, 'node-1', before)).toEqual(['NodeNotSchedulable']);
    c.advance(60_000);
    expect(newReasons(c, 'node-1', before)).toEqual(['NodeNotSchedulable']); // once per change, not per tick
    runKubectl(c, 'uncordon node-1');
    c.advance(10_000);
    expect(newReasons(c, 'node-1', before)).toEqual(['NodeNotSchedulable', 'NodeSchedulable']);
    const described = runKubectl(c, 'describe node node-1').stdout;
    expect(described).toMatch(
      /Normal\s+NodeNotSchedulable\s+\S+\s+kubelet\s+Node node-1 status is now: NodeNotSchedulable/,
    );
  });

  it('a cordoned node that reboots records NodeNotSchedulable again (the new process starts from schedulable)', () => {
    const c = createCluster({ seed: 1 });
    c.advance(5_000);
    runKubectl(c, 'cordon node-1');
    c.advance(10_000);
    c.node('node-1', 'stop');
    c.advance(20_000);
    c.node('node-1', 'start');
    c.advance(15_000);
    expect(nodeEvents(c, 'node-1').filter((r) => r === 'NodeNotSchedulable')).toHaveLength(2);
  });
});
