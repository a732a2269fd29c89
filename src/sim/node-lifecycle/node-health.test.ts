import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import { rfc3339, rfc3339Micro } from '../util/time.ts';
import {
  monitorNodeHealth,
  doNoExecuteTaintingPass,
  newNodeLifecycleState,
  tryUpdateNodeHealth,
  markPodNotReady,
  getNodeCondition,
  isMarkedReachable,
  processTaintBaseEviction,
  type NodeLeaseLister,
  type NodeLifecycleState,
  type TaintAction,
  type ControllerEvent,
} from './node-health.ts';
import { newZonesState, queueAdd, queueTry, addPodEvictorForNewZone, type ZonesState } from './zones.ts';
import { applyNoScheduleTaints, swapNodeControllerTaint } from './taints.ts';
import {
  handleNodeUpdate,
  fireDueWork,
  newTaintEvictionState,
  type TaintEvictionState,
  type TaintManagerEvent,
} from './taint-eviction.ts';
import { mutate } from '../apiserver/default-toleration-seconds.ts';

const S = 1000;

function readyNode(name: string, heartbeat: number): Node {
  const t = rfc3339(heartbeat);
  const cond = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: t,
    lastTransitionTime: rfc3339(-3600 * S),
  });
  return {
    metadata: {
      name,
      uid: `uid-${name}`,
      creationTimestamp: rfc3339(-3600 * S),
      labels: { 'kubernetes.io/hostname': name },
    },
    spec: { podCIDR: `10.244.${name.slice(-1)}.0/24` },
    status: {
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
    },
  };
}

function lease(name: string, renew: number): Lease {
  return {
    metadata: { name, namespace: 'kube-node-lease' },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: rfc3339Micro(renew) },
  };
}

function webPod(name: string, node: string): Pod {
  return mutate({
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { nodeName: node, containers: [{ name: 'app', image: 'nginx:1.27' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(-600 * S) }],
    },
  });
}

interface Timeline {
  readyUnknown: Record<string, number>;
  noSchedule: Record<string, number>;
  noExecute: Record<string, number>;
  podNotReady: Record<string, number>;
  podDeleted: Record<string, number>;
  nodeEvents: ControllerEvent[];
  taintEvents: (TaintManagerEvent & { t: number })[];
  logs: string[];
  pods: Pod[];
  nodes: Node[];
}

/**
 * The core's loop, reduced to these components: kubelets renew leases every 10 s, the controller's
 * monitor pass runs every 5 s, the taint queue every 100 ms, the taint eviction controller reacts to node
 * changes, and pods are deleted gracefully (they stay, Terminating, because their kubelet is gone).
 */
function simulate(opts: {
  nodes: number;
  podsPerNode: number;
  kubeletDown: Record<string, [number, number]>;
  until: number;
  lister?: boolean;
}): Timeline {
  const names = Array.from({ length: opts.nodes }, (_, i) => `node-${i + 1}`);
  let nodes = names.map((n) => readyNode(n, -300 * S));
  let leases = names.map((n) => lease(n, -123 * S));
  let pods = names.flatMap((n) =>
    Array.from({ length: opts.podsPerNode }, (_, i) => webPod(`web-${n.slice(-1)}${i}`, n)),
  );
  let ctrl: NodeLifecycleState = newNodeLifecycleState();
  let te: TaintEvictionState = newTaintEvictionState();
  const tl: Timeline = {
    readyUnknown: {},
    noSchedule: {},
    noExecute: {},
    podNotReady: {},
    podDeleted: {},
    nodeEvents: [],
    taintEvents: [],
    logs: [],
    pods: [],
    nodes: [],
  };
  const down = (n: string, t: number) => {
    const w = opts.kubeletDown[n];
    return !!w && t >= w[0] && t < w[1];
  };

  const nodeChanged = (node: Node, t: number) => {
    const name = node.metadata!.name!;
    const r = handleNodeUpdate(
      te,
      node,
      pods.filter((p) => p.spec?.nodeName === name && !p.metadata?.deletionTimestamp),
      t,
    );
    te = r.state;
    tl.taintEvents.push(...r.events.map((e) => ({ ...e, t })));
    const ready = getNodeCondition(node.status, 'Ready')?.status;
    if (ready === 'Unknown') tl.readyUnknown[name] ??= t;
    if ((node.spec?.taints ?? []).some((x) => x.key === 'node.kubernetes.io/unreachable' && x.effect === 'NoSchedule'))
      tl.noSchedule[name] ??= t;
    if ((node.spec?.taints ?? []).some((x) => x.key === 'node.kubernetes.io/unreachable' && x.effect === 'NoExecute'))
      tl.noExecute[name] ??= t;
  };
  const putNode = (node: Node, t: number) => {
    // The controller's NoSchedule pass runs on every node update.
    const withNoSchedule = applyNoScheduleTaints(node, t);
    nodes = nodes.map((n) => (n.metadata!.name === node.metadata!.name ? withNoSchedule : n));
    nodeChanged(withNoSchedule, t);
  };
  const applyTaints = (actions: readonly TaintAction[], t: number) => {
    for (const a of actions) {
      const n = nodes.find((x) => x.metadata!.name === a.node)!;
      putNode(swapNodeControllerTaint(n, a.add, a.remove, t), t);
    }
  };

  for (let t = -120 * S; t <= opts.until; t += 100) {
    for (const n of names) {
      const wasDown = opts.kubeletDown[n] && t === opts.kubeletDown[n][1];
      if (wasDown) {
        // The kubelet is back: it posts Ready=True (a transition) at once.
        const node = nodes.find((x) => x.metadata!.name === n)!;
        const conditions = node.status!.conditions!.map((c) => ({
          ...c,
          status: c.type === 'Ready' ? 'True' : 'False',
          reason: c.type === 'Ready' ? 'KubeletReady' : c.reason,
          message: c.type === 'Ready' ? 'kubelet is posting ready status' : c.message,
          lastHeartbeatTime: rfc3339(t),
          lastTransitionTime: rfc3339(t),
        }));
        putNode({ ...node, status: { ...node.status, conditions } }, t);
      }
      // Lease renewals every 10 s, offset so the last one before t=0 is at −3 s.
      if (!down(n, t) && (t + 3 * S) % (10 * S) === 0)
        leases = leases.map((l) => (l.metadata!.name === n ? lease(n, t) : l));
    }
    if (t % (5 * S) === 0) {
      // The controller passes a lister (a lookup by name) instead of the list.
      const byName: NodeLeaseLister = (name) => leases.find((l) => l.metadata!.name === name);
      const r = monitorNodeHealth(ctrl, nodes, opts.lister ? byName : leases, t);
      ctrl = r.state;
      tl.logs.push(...r.logs);
      tl.nodeEvents.push(...r.events);
      for (const u of r.statusUpdates) putNode(u, t);
      applyTaints(r.taintActions, t);
      for (const nodeName of r.markPodsNotReady) {
        pods = pods.map((p) => {
          const m = markPodNotReady(p, nodeName, t);
          if (!m) return p;
          tl.podNotReady[p.metadata!.name!] = t;
          return m.pod;
        });
      }
    }
    const pass = doNoExecuteTaintingPass(ctrl.zones, nodes, t);
    ctrl = { ...ctrl, zones: pass.zones };
    applyTaints(pass.actions, t);
    const fired = fireDueWork(te, t);
    te = fired.state;
    for (const a of fired.actions) {
      tl.taintEvents.push({ ...a.event, t });
      tl.podDeleted[a.name] = t;
      pods = pods.map((p) =>
        p.metadata!.name === a.name
          ? {
              ...p,
              metadata: { ...p.metadata, deletionTimestamp: rfc3339(t + 30 * S), deletionGracePeriodSeconds: 30 },
              status: { ...p.status, conditions: [...(p.status?.conditions ?? []), a.condition] },
            }
          : p,
      );
    }
  }
  tl.pods = pods;
  tl.nodes = nodes;
  return tl;
}

describe('single-node failure timeline (k8s-facts §1)', () => {
  const tl = simulate({ nodes: 3, podsPerNode: 2, kubeletDown: { 'node-1': [0, Infinity] }, until: 420 * S });

  it('Ready=Unknown 55 s after the kubelet dies (grace 50 s, seen on the 5 s monitor tick)', () => {
    expect(tl.readyUnknown).toEqual({ 'node-1': 55 * S });
    const ready = getNodeCondition(tl.nodes[0].status, 'Ready');
    expect(ready).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastTransitionTime: rfc3339(55 * S),
    });
    // The last heartbeat is kept: it is when the kubelet last posted.
    expect(ready?.lastHeartbeatTime).toBe(rfc3339(-300 * S));
    expect(getNodeCondition(tl.nodes[0].status, 'MemoryPressure')?.status).toBe('Unknown');
  });

  it('pods marked not ready and the NodeNotReady event at the same pass', () => {
    expect(tl.podNotReady).toEqual({ 'web-10': 55 * S, 'web-11': 55 * S });
    expect(tl.nodeEvents.filter((e) => e.reason === 'NodeNotReady')).toEqual([
      {
        involvedObject: { kind: 'Node', name: 'node-1' },
        type: 'Normal',
        reason: 'NodeNotReady',
        message: 'Node node-1 status is now: NodeNotReady',
      },
    ]);
  });

  it('unreachable:NoSchedule and, from the tainting queue right after that pass (1.37), unreachable:NoExecute', () => {
    expect(tl.noSchedule).toEqual({ 'node-1': 55 * S });
    expect(tl.noExecute).toEqual({ 'node-1': 55 * S });
    expect(tl.nodes[0].spec?.taints?.map((t) => `${t.key}:${t.effect}@${t.timeAdded}`)).toEqual([
      `node.kubernetes.io/unreachable:NoSchedule@${rfc3339(55 * S)}`,
      `node.kubernetes.io/unreachable:NoExecute@${rfc3339(55 * S)}`,
    ]);
  });

  it('pods evicted 300 s after the NoExecute taint, and stay Terminating', () => {
    expect(tl.podDeleted).toEqual({ 'web-10': 355 * S, 'web-11': 355 * S });
    expect(tl.taintEvents.map((e) => [e.t / S, e.message])).toEqual([
      [355, 'Marking for deletion Pod default/web-10'],
      [355, 'Marking for deletion Pod default/web-11'],
    ]);
    const p = tl.pods.find((x) => x.metadata?.name === 'web-10')!;
    expect(p.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    });
    expect(p.metadata?.deletionTimestamp).toBeDefined();
  });

  it('other nodes are untouched', () => {
    expect(tl.nodes.slice(1).every((n) => !(n.spec?.taints ?? []).length)).toBe(true);
  });
});

describe('leases from a lister', () => {
  it('give the same timeline as the list', () => {
    const opts = {
      nodes: 3,
      podsPerNode: 1,
      kubeletDown: { 'node-1': [0, 200 * S] as [number, number], 'node-2': [30 * S, Infinity] as [number, number] },
      until: 420 * S,
    };
    expect(simulate({ ...opts, lister: true })).toEqual(simulate(opts));
  });
});

describe('two of three nodes down: zone stays Normal, taints paced at 0.1/s', () => {
  it('second NoExecute taint 10 s after the first', () => {
    const tl = simulate({
      nodes: 3,
      podsPerNode: 1,
      kubeletDown: { 'node-1': [0, Infinity], 'node-2': [0, Infinity] },
      until: 120 * S,
    });
    expect(tl.noExecute).toEqual({ 'node-1': 55 * S, 'node-2': 65 * S });
  });
});

describe('all nodes down: master disruption mode', () => {
  const tl = simulate({
    nodes: 3,
    podsPerNode: 1,
    kubeletDown: { 'node-1': [0, 200 * S], 'node-2': [0, Infinity], 'node-3': [0, Infinity] },
    until: 560 * S,
  });

  it('enters and leaves the mode', () => {
    expect(tl.logs).toContain('Controller detected that all Nodes are not-Ready. Entering master disruption mode.');
    expect(tl.logs).toContain('Controller detected that some Nodes are Ready. Exiting master disruption mode.');
  });

  it('no NoExecute taint while every node is down; they come after node-1 returns, paced', () => {
    expect(tl.noSchedule).toEqual({ 'node-1': 55 * S, 'node-2': 55 * S, 'node-3': 55 * S });
    // The new limiter starts drained because the stopped one had no token (SwapLimiter).
    expect(tl.noExecute).toEqual({ 'node-2': 210 * S, 'node-3': 220 * S });
    expect(Object.keys(tl.podDeleted).sort()).toEqual(['web-20', 'web-30']);
    expect(tl.podDeleted['web-20']).toBe(510 * S);
  });

  it('node-1 lost its NoSchedule taint when Ready again', () => {
    expect(tl.nodes[0].spec?.taints ?? []).toEqual([]);
  });
});

describe('tryUpdateNodeHealth', () => {
  it('a node that never posted gets the 60 s startup grace and NodeStatusNeverUpdated', () => {
    const node: Node = { metadata: { name: 'node-9', creationTimestamp: rfc3339(0) }, status: {} };
    const at60 = tryUpdateNodeHealth(node, undefined, undefined, 60 * S);
    expect(at60.updatedNode).toBeUndefined();
    const at61 = tryUpdateNodeHealth(node, undefined, at60.health, 61 * S);
    expect(at61.gracePeriodMs).toBe(60 * S);
    expect(at61.updatedNode?.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['Ready', 'Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.'],
      ['MemoryPressure', 'Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.'],
      ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.'],
      ['PIDPressure', 'Unknown', 'NodeStatusNeverUpdated', 'Kubelet never posted node status.'],
    ]);
  });

  it('a restarted controller gives a fresh grace period from now', () => {
    const node = readyNode('node-1', -300 * S);
    const r = tryUpdateNodeHealth(node, lease('node-1', -1000 * S), undefined, 1000 * S);
    expect(r.logs).toEqual(['Missing timestamp for Node node-1. Assuming now as a timestamp.']);
    expect(r.updatedNode).toBeUndefined();
    // The lease is "new" to it as well, so probeTimestamp = now either way.
    expect(r.health.probeTimestamp).toBe(1000 * S);
    expect(tryUpdateNodeHealth(node, lease('node-1', -1000 * S), r.health, 1050 * S).updatedNode).toBeUndefined();
    expect(tryUpdateNodeHealth(node, lease('node-1', -1000 * S), r.health, 1050 * S + 1).updatedNode).toBeDefined();
  });

  it('a renewed Lease keeps the node healthy although NodeStatus is old', () => {
    const node = readyNode('node-1', -300 * S);
    let h = tryUpdateNodeHealth(node, lease('node-1', 0), undefined, 0).health;
    for (let t = 5 * S; t <= 200 * S; t += 5 * S) {
      const r = tryUpdateNodeHealth(node, lease('node-1', Math.floor(t / 10_000) * 10_000), h, t);
      expect(r.updatedNode).toBeUndefined();
      h = r.health;
    }
  });

  it('markPodNotReady only flips a True Ready and records the pod event', () => {
    const p = webPod('web-a', 'node-1');
    const r = markPodNotReady(p, 'node-1', 55 * S)!;
    expect(r.pod.status?.conditions?.[0]).toMatchObject({
      type: 'Ready',
      status: 'False',
      lastTransitionTime: rfc3339(55 * S),
    });
    expect(r.event).toMatchObject({ type: 'Warning', reason: 'NodeNotReady', message: 'Node is not ready' });
    expect(markPodNotReady(r.pod, 'node-1', 60 * S)).toBeUndefined();
    expect(markPodNotReady(p, 'node-2', 60 * S)).toBeUndefined();
  });
});

describe('isMarkedReachable (a healthy pass skips processTaintBaseEviction)', () => {
  const taintArb = fc.subarray([
    { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
    { key: 'example.com/other', effect: 'NoExecute' },
  ] as const);
  it('holds exactly when processTaintBaseEviction of a Ready node would keep the zones and do nothing', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('node-1', 'node-2'),
        taintArb,
        fc.subarray(['node-1', 'node-2']),
        fc.boolean(),
        fc.boolean(),
        (name, taints, queued, popped, zoned) => {
          const node: Node = { ...readyNode(name, 0), spec: { taints: [...taints] } };
          if (zoned) node.metadata = { ...node.metadata, labels: { 'topology.kubernetes.io/zone': 'a' } };
          // Queued nodes, the first of them perhaps already processed (out of the queue, still in the set).
          let zones: ZonesState = addPodEvictorForNewZone(newZonesState(), node, 0);
          const zone = Object.keys(zones.zoneNoExecuteTainter)[0];
          let q = zones.zoneNoExecuteTainter[zone];
          for (const n of queued) q = queueAdd(q, n, `uid-${n}`, 0).queue;
          if (popped) q = queueTry(q, 0, () => [true, 0]);
          zones = { ...zones, zoneNoExecuteTainter: { [zone]: q } };
          const r = processTaintBaseEviction(zones, node, getNodeCondition(node.status, 'Ready')!, 5 * S);
          const nothing = r.zones === zones && r.actions.length === 0 && r.logs.length === 0;
          expect(isMarkedReachable(zones, node)).toBe(nothing);
        },
      ),
    );
  });
});
