// kube-controller-manager's controllers read one watch per resource (client-go's shared informers):
// one notification per change for the process, handed to every controller in turn.
import { describe, expect, test } from 'vitest';
import { openWatch, watchSubscribers } from '../apiserver/watch.ts';
import type { Watcher } from '../apiserver/server.ts';
import { CONTROLLER_MANAGER, KUBE_CONTROLLER_MANAGER, createCluster, type Cluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';

const watchersOf = (c: Cluster, resource: string, process: string): Watcher[] =>
  Object.values(c.world.state.apiServer.watchers).filter((w) => w.resource === resource && w.process === process);

describe('shared watches of kube-controller-manager', () => {
  test('one pods watch for the seven controllers, one notification per change, every controller acts', () => {
    const c = createCluster({ seed: 1 });
    const [pods] = watchersOf(c, 'pods', KUBE_CONTROLLER_MANAGER);
    expect(watchersOf(c, 'pods', KUBE_CONTROLLER_MANAGER)).toHaveLength(1);
    expect(watchSubscribers(pods)).toEqual([
      'deployment-controller',
      'replicaset-controller',
      'endpointslice-controller',
      'node-lifecycle-controller',
      'taint-eviction-controller',
      'garbage-collector',
      'pod-garbage-collector',
    ]);
    // One streaming-list WATCH, the process's (its shared informer factory's, as the audit log names
    // it), and no LIST; the controllers share it.
    const kcm = (verb: string, prefix: string) =>
      c.log.filter(
        (r) =>
          r.kind === 'request' &&
          r.verb === verb &&
          r.path.startsWith(prefix) &&
          (r.component === KUBE_CONTROLLER_MANAGER || CONTROLLER_MANAGER.includes(r.component as never)),
      );
    expect(kcm('WATCH', '/api/v1/pods?').map((r) => r.component)).toEqual([KUBE_CONTROLLER_MANAGER]);
    expect(kcm('WATCH', '/api/v1/nodes?')).toHaveLength(1);
    expect(kcm('GET', '/api/v1/pods')).toHaveLength(0);

    runKubectl(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=3');
    c.settle();
    const podRevisions = c.world.state.store.history.filter((e) => e.resource === 'pods').map((e) => e.revision);
    const notes = c.log.filter(
      (r) => r.kind === 'watch' && r.event !== 'BOOKMARK' && r.object?.startsWith('pods/') && r.watcher === pods.id,
    );
    expect(notes.map((r) => r.revision)).toEqual(podRevisions);
    expect(new Set(notes.map((r) => r.component))).toEqual(new Set([KUBE_CONTROLLER_MANAGER]));
    expect(c.log.some((r) => r.kind === 'watch' && CONTROLLER_MANAGER.includes(r.component as never))).toBe(false);
    // The ReplicaSet controller made the pods from the shared notifications; the Deployment is available.
    expect(runKubectl(c, 'kubectl get deploy web').stdout).toMatch(/web\s+3\/3\s+3\s+3/);
  });

  test('a partitioned controller leaves the shared watch; the others keep it; healed, it watches again', () => {
    const c = createCluster({ seed: 1 });
    const [pods] = watchersOf(c, 'pods', KUBE_CONTROLLER_MANAGER);
    c.world.fault({ type: 'partition', component: 'replicaset-controller' });
    expect(c.world.state.apiServer.watchers[pods.id]).toBeDefined();
    expect(watchSubscribers(pods)).not.toContain('replicaset-controller');
    expect(watchSubscribers(pods)).toHaveLength(6);
    c.world.fault({ type: 'heal', component: 'replicaset-controller' });
    runKubectl(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=2');
    c.advance(30_000);
    // It relisted and reads a pods watch of its own again (the shared one has handed out notifications).
    const readers = watchersOf(c, 'pods', KUBE_CONTROLLER_MANAGER).flatMap((w) => watchSubscribers(w));
    expect(readers.filter((r) => r === 'replicaset-controller')).toHaveLength(1);
    expect(runKubectl(c, 'kubectl get deploy web').stdout).toMatch(/web\s+2\/2/);
  });

  test('the controller-manager stops: its watches close; it starts: one shared watch again', () => {
    const c = createCluster({ seed: 1 });
    c.controlPlane('stop', 'controller-manager');
    expect(watchersOf(c, 'pods', KUBE_CONTROLLER_MANAGER)).toHaveLength(0);
    c.advance(5_000);
    c.controlPlane('start', 'controller-manager');
    // The new process leads (and starts its controllers) once the old one's Lease has gone 15 s unrenewed.
    expect(watchersOf(c, 'pods', KUBE_CONTROLLER_MANAGER)).toHaveLength(0);
    c.advance(20_000);
    const again = watchersOf(c, 'pods', KUBE_CONTROLLER_MANAGER);
    expect(again).toHaveLength(1);
    expect(watchSubscribers(again[0])).toHaveLength(CONTROLLER_MANAGER.length);
  });

  test('a reader joins only an equivalent watch: same selectors, nothing handed out yet, no change in between', () => {
    const c = createCluster({ seed: 1 });
    const w = c.world.state;
    w.components['probe-a'] = { type: 'none', state: {}, process: 'p' };
    w.components['probe-b'] = { type: 'none', state: {}, process: 'p' };
    w.components['probe-c'] = { type: 'none', state: {}, process: 'p' };
    const rv = String(w.store.revision);
    const a = openWatch(w, c.world.apiConfig, 'probe-a', 'nodes', { resourceVersion: rv }, 'kubectl');
    const b = openWatch(w, c.world.apiConfig, 'probe-b', 'nodes', { resourceVersion: rv }, 'kubectl');
    const other = openWatch(
      w,
      c.world.apiConfig,
      'probe-c',
      'nodes',
      { resourceVersion: rv, labelSelector: 'x=y' },
      'kubectl',
    );
    expect(a.ok && b.ok && other.ok).toBe(true);
    if (!a.ok || !b.ok || !other.ok) return;
    expect(b.object.watchId).toBe(a.object.watchId);
    expect(other.object.watchId).not.toBe(a.object.watchId);
    // A node write in between: a watch from the older revision would deliver it, the newer would not.
    runKubectl(c, 'kubectl label node node-1 tier=web');
    const late = openWatch(
      w,
      c.world.apiConfig,
      'probe-c',
      'nodes',
      { resourceVersion: String(w.store.revision) },
      'kubectl',
    );
    expect(late.ok && late.object.watchId).not.toBe(a.object.watchId);
  });
});
