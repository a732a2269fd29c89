import { describe, it, expect } from 'vitest';
import type { Node, Pod, Taint, Toleration } from 'kubernetes-types/core/v1';
import { storeGet, storeList } from '../apiserver/store.ts';
import { storeKey } from '../api/resources.ts';
import { testWorld, pod } from '../testing/world.ts';
import type { World } from '../world.ts';
import { rfc3339 } from '../util/time.ts';
import { taintEvictionControllerDef, type TaintEvictionControllerState } from './taint-eviction-controller.ts';
import { nodeLifecycleApiServer } from '../apiserver/node-admission.ts';

const MAINT: Taint = { key: 'example.com/maintenance', effect: 'NoExecute' };

function world(pods: { name: string; node?: string; tolerations?: Toleration[]; grace?: number }[]): World {
  const w = testWorld({ seed: 3 }, [taintEvictionControllerDef], nodeLifecycleApiServer);
  for (const n of ['node-1', 'node-2'])
    w.kubectl({ verb: 'create', resource: 'nodes', body: { apiVersion: 'v1', kind: 'Node', metadata: { name: n } } });
  for (const p of pods) {
    const body = pod(p.name, { app: 'web' }, p.node ?? 'node-1') as { spec: Record<string, unknown> };
    if (p.tolerations) body.spec.tolerations = p.tolerations;
    if (p.grace !== undefined) body.spec.terminationGracePeriodSeconds = p.grace;
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body });
  }
  w.addComponent('taint-eviction-controller', 'taint-eviction-controller');
  w.advance(1_000);
  return w;
}

const taint = (w: World, node: string, taints: Taint[]) =>
  w.kubectl({
    verb: 'patch',
    resource: 'nodes',
    name: node,
    body: { spec: { taints: taints.length ? taints : null } },
  });
const getPod = (w: World, name: string) =>
  storeGet(w.state.store, 'pods', storeKey('pods', 'default', name)) as Pod | undefined;
const messages = (w: World) =>
  storeList(w.state.store, 'events')
    .filter((e) => e.reason === 'TaintManagerEviction')
    .map((e) => e.message);
const tecReqs = (w: World) =>
  w.state.log.filter(
    (r) =>
      r.component === 'taint-eviction-controller' &&
      r.kind === 'request' &&
      r.verb !== 'WATCH' &&
      !(r.verb === 'GET' && !r.path.includes('/pods/')),
  );

describe('taint-eviction-controller', () => {
  it('a pod that does not tolerate a NoExecute taint is deleted at once, gracefully, with DisruptionTarget', () => {
    const w = world([{ name: 'a' }, { name: 'b', node: 'node-2' }, { name: 'g', grace: 5 }]);
    const t0 = w.now;
    taint(w, 'node-1', [{ ...MAINT, timeAdded: rfc3339(t0) }]);
    w.advance(100);
    const reqs = tecReqs(w).filter((r) => r.t >= t0);
    expect(reqs.map((r) => `${r.verb} ${r.path} ${r.code}`)).toEqual([
      'POST /api/v1/namespaces/default/events 201',
      'GET /api/v1/namespaces/default/pods/a 200',
      'PATCH /api/v1/namespaces/default/pods/a/status 200',
      'DELETE /api/v1/namespaces/default/pods/a 200',
      'POST /api/v1/namespaces/default/events 201',
      'GET /api/v1/namespaces/default/pods/g 200',
      'PATCH /api/v1/namespaces/default/pods/g/status 200',
      'DELETE /api/v1/namespaces/default/pods/g 200',
    ]);
    expect(reqs[0].t - t0).toBeLessThan(10);
    const a = getPod(w, 'a')!;
    expect(a.metadata?.deletionTimestamp).toBeDefined();
    expect(a.metadata?.deletionGracePeriodSeconds).toBe(30);
    expect(getPod(w, 'g')!.metadata?.deletionGracePeriodSeconds).toBe(5);
    expect(a.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toEqual({
      type: 'DisruptionTarget',
      observedGeneration: 1,
      status: 'True',
      lastProbeTime: null,
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
      lastTransitionTime: rfc3339(reqs[0].t),
    });
    expect(getPod(w, 'b')!.metadata?.deletionTimestamp).toBeUndefined();
    expect(messages(w)).toEqual(['Marking for deletion Pod default/a', 'Marking for deletion Pod default/g']);
    const ev = storeList(w.state.store, 'events')[0];
    expect(ev).toMatchObject({
      type: 'Normal',
      involvedObject: { kind: 'Pod', name: 'a', namespace: 'default', uid: a.metadata?.uid },
    });
    // Nothing more happens: the pod stays Terminating (no kubelet confirms).
    w.advance(60_000);
    expect(tecReqs(w).filter((r) => r.t > t0 + 100)).toEqual([]);
    expect(getPod(w, 'a')).toBeDefined();
  });

  it('tolerationSeconds counts from when the controller handled the taint, not from timeAdded', () => {
    const tol: Toleration[] = [
      { key: MAINT.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: 'x', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 90 },
    ];
    const w = world([{ name: 'a', tolerations: tol }]);
    w.advance(99_000); // t = 100 s
    const t0 = w.now;
    taint(w, 'node-1', [{ ...MAINT, timeAdded: rfc3339(0) }]); // stamped long ago
    w.advance(59_000);
    expect(getPod(w, 'a')!.metadata?.deletionTimestamp).toBeUndefined();
    // A second taint with a longer toleration does not move the scheduled deletion.
    taint(w, 'node-1', [
      { ...MAINT, timeAdded: rfc3339(0) },
      { key: 'x', effect: 'NoExecute', timeAdded: rfc3339(w.now) },
    ]);
    w.advance(2_000);
    const del = tecReqs(w).find((r) => r.verb === 'DELETE')!;
    expect(del.t - t0).toBeGreaterThanOrEqual(60_000);
    expect(del.t - t0).toBeLessThan(60_010);
    expect(getPod(w, 'a')!.metadata?.deletionTimestamp).toBeDefined();
  });

  it('the taint going away cancels the pending deletion', () => {
    const w = world([{ name: 'a' }, { name: 'b' }]); // default 300 s tolerations for unreachable
    taint(w, 'node-1', [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: rfc3339(w.now) }]);
    w.advance(100_000);
    const s = w.state.components['taint-eviction-controller'].state as TaintEvictionControllerState;
    expect(Object.keys(s.eviction.workers)).toEqual(['default/a', 'default/b']);
    taint(w, 'node-1', []);
    w.advance(100);
    expect(messages(w)).toEqual(['Cancelling deletion of Pod default/a', 'Cancelling deletion of Pod default/b']);
    w.advance(400_000);
    expect(tecReqs(w).filter((r) => r.verb === 'DELETE' || r.verb === 'PATCH')).toEqual([]);
    // The cancelled timer fired into nothing and no new one is pending.
    expect(
      w.state.queue.heap.filter(
        (e) => e.target === 'taint-eviction-controller' && (e.event as { type?: string }).type === 'evict',
      ),
    ).toEqual([]);
  });

  it("a toleration without seconds keeps the pod forever; a deleted pod's pending work is cancelled", () => {
    const w = world([
      { name: 'forever', tolerations: [{ key: MAINT.key, operator: 'Exists', effect: 'NoExecute' }] },
      {
        name: 'soon',
        tolerations: [{ key: MAINT.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
      },
    ]);
    taint(w, 'node-1', [MAINT]);
    w.advance(10_000);
    w.kubectl({
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: 'soon',
      options: { gracePeriodSeconds: 0 },
    });
    w.advance(600_000);
    expect(getPod(w, 'forever')!.metadata?.deletionTimestamp).toBeUndefined();
    // handlePodUpdate on a pod gone from the lister cancels its work, with the event, as in Kubernetes.
    expect(messages(w)).toEqual(['Cancelling deletion of Pod default/soon']);
    expect(tecReqs(w).filter((r) => r.verb === 'DELETE')).toEqual([]);
  });

  it('a pod bound later to a tainted node is handled on its own', () => {
    const w = world([]);
    taint(w, 'node-2', [MAINT]);
    w.advance(100);
    w.kubectl({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('late', { app: 'web' }, 'node-2') });
    w.advance(100);
    expect(getPod(w, 'late')!.metadata?.deletionTimestamp).toBeDefined();
    expect(messages(w)).toEqual(['Marking for deletion Pod default/late']);
  });

  it('keeps plain-data state and is deterministic', () => {
    const run = () => {
      const w = world([
        { name: 'a' },
        {
          name: 'b',
          tolerations: [{ key: MAINT.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }],
        },
      ]);
      taint(w, 'node-1', [MAINT]);
      w.advance(30_000);
      return w;
    };
    const a = run();
    const b = run();
    expect(a.hash()).toBe(b.hash());
    const s = a.state.components['taint-eviction-controller'].state;
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(getPod(a, 'b')!.metadata?.deletionTimestamp).toBeDefined();
  });
});

void ({} as Node);
