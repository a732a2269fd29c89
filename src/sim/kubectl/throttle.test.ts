import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { throttleLogLine } from './throttle.ts';
import { runKubectl } from './kubectl.ts';

describe('kubectl client-side throttling (its clientset: QPS 5, burst 10)', () => {
  it("klog's line for a long wait, as rest/request.go logs it at -v=0", () => {
    expect(
      throttleLogLine(26_212, 1200, {
        verb: 'create',
        resource: 'pods',
        namespace: 'default',
        name: 'web-1',
        subresource: 'eviction',
      }),
    ).toBe(
      'I0101 00:00:26.212000    4242 request.go:754] "Waited before sending request" delay="1.2s" reason="client-side throttling, not priority and fairness" verb="POST" URL="https://127.0.0.1:6443/api/v1/namespaces/default/pods/web-1/eviction"\n',
    );
  });

  it('drain of a node with 30 pods: evictions after the burst go 5 a second, and one wait over 1 s is logged', () => {
    const c = createCluster({ seed: 1, nodes: 2 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=60');
    c.settle();
    const from = c.log.length;
    const r = runKubectl(c, 'drain node-1 --ignore-daemonsets');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('node/node-1 drained');
    const ev = c.log.slice(from).filter((x) => x.component === 'kubectl' && x.path.endsWith('/eviction'));
    expect(ev).toHaveLength(30);
    // The cordon PATCH and the pod LIST take two of the ten tokens; the other 22 evictions wait 200 ms each.
    expect(ev.filter((x) => x.t === ev[0].t)).toHaveLength(8);
    expect(ev.at(-1)!.t - ev[0].t).toBe(((30 + 2 - 10) / 5) * 1000);
    const lines = r.stderr.split('\n').filter((l) => l.includes('Waited before sending request'));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toContain('delay="1.2s" reason="client-side throttling, not priority and fairness" verb="POST"');
  });

  it('a drain within the burst waits for nothing and logs nothing', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    c.settle();
    const r = runKubectl(c, 'drain node-1 --ignore-daemonsets');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain('Waited');
  });
});
