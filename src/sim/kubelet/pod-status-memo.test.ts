// updatePodStatus skips generating a status whose inputs it has seen produce exactly its base. With
// the check on, every skip also runs the full generation and throws if it would have written.
import type { Deployment } from 'kubernetes-types/apps/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster.ts';
import { frameOf } from '../view/frame.ts';
import { setVerifyUnchangedStatus } from './pod-worker.ts';
import { appDeployment } from '../testing/world.ts';

const deployment = appDeployment;

function apply(c: Cluster, d: Deployment): void {
  const r = c.request({ verb: 'create', resource: 'deployments', namespace: 'default', body: d });
  if (!r.ok) throw new Error(r.status.message);
}

const running = (c: Cluster) => frameOf(c).pods.filter((p) => p.phase === 'Running').length;

describe('unchanged-status shortcut', () => {
  beforeAll(() => setVerifyUnchangedStatus(true));
  afterAll(() => setVerifyUnchangedStatus(false));

  it('agrees with the full generation through create, roll-out, crash, probes, node and control-plane outages', () => {
    const c = createCluster({ seed: 3, nodes: 3 });
    apply(c, deployment('web', 4));
    apply(
      c,
      deployment('probed', 2, 'nginx:1.27', { readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 2 } }),
    );
    c.settle();
    expect(running(c)).toBe(6);
    c.request({
      verb: 'patch',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } },
    });
    c.settle();
    const pod = Object.values(c.world.state.store.objects.pods ?? {})[0] as {
      metadata: { name: string };
      spec: { nodeName: string };
    };
    c.world.inject(`kubelet/${pod.spec.nodeName}`, {
      type: 'crash',
      namespace: 'default',
      pod: pod.metadata.name,
      container: 'app',
    });
    c.advance(60_000);
    c.image('nginx:9.9', 'missing');
    apply(c, deployment('broken', 1, 'nginx:9.9'));
    c.advance(60_000);
    c.image('nginx:9.9', 'available');
    c.controlPlane('stop');
    c.advance(60_000);
    c.controlPlane('start');
    c.node('node-2', 'stop');
    c.advance(7 * 60_000);
    c.node('node-2', 'start');
    c.advance(2 * 60_000);
    expect(running(c)).toBeGreaterThanOrEqual(7);
  });
});
