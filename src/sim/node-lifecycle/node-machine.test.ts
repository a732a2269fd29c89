import { describe, it, expect } from 'vitest';
import { initialTransition, transition } from 'xstate';
import type { Node } from 'kubernetes-types/core/v1';
import { peek } from '../clock.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { storeList } from '../apiserver/store.ts';
import { statechartOf } from '../view/statechart.ts';
import { nodeHealthOf } from './node-health-view.ts';
import { nodeMachine, type NodeMachineEvent } from './node-machine.ts';

const NODES = ['node-1', 'node-2', 'node-3', 'node-4', 'node-5'];
/** --node-monitor-period: how often the controller reads every node's status. */
const NODE_MONITOR_PERIOD_MS = 5_000;
const readyOf = (n: Node | undefined) => n?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
const taintsOf = (n: Node | undefined) => (n?.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`);

/**
 * Steps the cluster a second at a time and, after each second, holds the node-lifecycle
 * controller's machine for every node against what the API server stores for that node and its
 * pods: the state the diagram lights must be true of the cluster, not just of the chart.
 */
function watchMachines(
  c: Cluster,
  seconds: number,
  seen: Set<string>,
  changed: Map<string, { ready?: string; at: number }>,
): void {
  for (let i = 0; i < seconds; i++) {
    // Event by event, so a state the controller holds for less than a second still counts as seen.
    const until = c.now + 1000;
    for (let e = peek(c.world.state.queue); e && e.at <= until; e = peek(c.world.state.queue)) {
      c.world.next();
      for (const name of NODES) {
        const m = nodeHealthOf(c.world.state, name)?.machine;
        if (m) seen.add(m);
      }
    }
    c.advance(until - c.now);
    const nodes = storeList(c.world.state.store, 'nodes');
    const pods = storeList(c.world.state.store, 'pods');
    for (const name of NODES) {
      const h = nodeHealthOf(c.world.state, name);
      if (!h) continue;
      const node = nodes.find((n) => n.metadata?.name === name);
      const where = `${name} in ${h.machine} at ${c.now} ms`;
      const ready = readyOf(node);
      const last = changed.get(name);
      if (!last || last.ready !== ready) changed.set(name, { ready, at: c.now });
      // The controller's Ready is what is stored, or what was stored until the kubelet changed it
      // less than one monitor period ago (the controller reads node status every 5 s).
      const settled = c.now - changed.get(name)!.at > NODE_MONITOR_PERIOD_MS;
      if (settled) {
        expect(ready, where).toBe(h.ready);
        if (h.machine === 'unknown') expect(ready, where).toBe('Unknown');
        if (h.machine === 'notReady') expect(ready, where).toBe('False');
        if (h.machine === 'healthy') expect(ready, where).toBe('True');
      }
      if (h.machine === 'healthy')
        expect(
          taintsOf(node).filter((t) => t.endsWith(':NoExecute')),
          where,
        ).toEqual([]);
      // The taints go as Ready comes back (the node-update worker, at once), the machine follows at
      // its next monitor pass: the same grace.
      if (h.noExecuteTaint && settled) expect(taintsOf(node), where).toContain(h.noExecuteTaint);
      if (h.noScheduleTaint && settled) expect(taintsOf(node), where).toContain(h.noScheduleTaint);
      if (h.machine === 'tainted' || h.machine === 'evicting') expect(h.noExecuteTaint, where).not.toBeNull();
      // Every eviction it counts is a pod of that node the API server has marked for deletion.
      const deleting = pods.filter((p) => p.spec?.nodeName === name && p.metadata?.deletionTimestamp).length;
      // (A node back Ready finishes them at once: the machine leaves evicting at its next pass.)
      if (h.machine === 'evicting' && settled) expect(deleting, where).toBeGreaterThan(0);
    }
  }
}

describe('node machine, as the node-lifecycle controller runs it in a cluster', () => {
  it('takes nodes through every state of the chart, each state true of the stored Node and its pods', () => {
    const seen = new Set<string>();
    const changed = new Map<string, { ready?: string; at: number }>();
    const c = createCluster({ seed: 5, nodes: 5 });
    c.settle();
    c.request({
      verb: 'create',
      resource: 'deployments',
      namespace: 'default',
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          replicas: 6,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
          },
        },
      },
    });
    watchMachines(c, 30, seen, changed);
    // node-5 loses power: grace running, Unknown, tainted, its pods evicted 300 s later; then it
    // returns (recovered, then healthy once its taints are gone).
    c.node('node-5', 'stop');
    watchMachines(c, 380, seen, changed);
    c.node('node-5', 'start');
    watchMachines(c, 40, seen, changed);
    // Three of five nodes stop: the zone is partially disrupted, and in a cluster this small the
    // controller stops tainting for NoExecute. node-2's kubelet then reports Ready=False itself
    // (as when its container runtime is down): it stays notReady, untainted for NoExecute, until
    // the kubelet's next status report sets it right.
    for (const n of ['node-3', 'node-4', 'node-5']) c.node(n, 'stop');
    watchMachines(c, 70, seen, changed);
    c.request({
      verb: 'patch',
      resource: 'nodes',
      name: 'node-2',
      subresource: 'status',
      options: { patchType: 'strategic' },
      body: {
        status: {
          conditions: [
            { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' },
          ],
        },
      },
    });
    watchMachines(c, 60, seen, changed);
    // Every node stops: the only zone is down, so the controller suspects itself (disrupted).
    for (const n of NODES) c.node(n, 'stop');
    watchMachines(c, 90, seen, changed);
    for (const n of NODES) c.node(n, 'start');
    watchMachines(c, 60, seen, changed);
    expect([...seen].sort().join(' ')).toBe(
      statechartOf(nodeMachine)
        .states.map((s) => s.id)
        .sort()
        .join(' '),
    );
    for (const n of NODES) expect(nodeHealthOf(c.world.state, n)?.machine).toBe('healthy');
  });

  it('the single-node failure story', () => {
    let [s] = initialTransition(nodeMachine);
    const story: NodeMachineEvent[] = [
      { type: 'HEARTBEAT_MISSED' },
      { type: 'GRACE_EXCEEDED' },
      { type: 'NOSCHEDULE_TAINTED' },
      { type: 'NOEXECUTE_TAINTED' },
      { type: 'TOLERATION_EXPIRED', pods: 2 },
    ];
    for (const e of story) [s] = transition(nodeMachine, s, e);
    expect(s.value).toBe('evicting');
    expect(s.context).toEqual({
      ready: 'Unknown',
      noScheduleTaint: 'node.kubernetes.io/unreachable:NoSchedule',
      noExecuteTaint: 'node.kubernetes.io/unreachable:NoExecute',
      evictedPods: 2,
    });
    [s] = transition(nodeMachine, s, { type: 'HEARTBEAT' });
    [s] = transition(nodeMachine, s, { type: 'TAINTS_REMOVED' });
    expect([s.value, s.context.noExecuteTaint, s.context.ready]).toEqual(['healthy', null, 'True']);
  });
});
