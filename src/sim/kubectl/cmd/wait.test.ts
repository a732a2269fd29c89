// kubectl wait against a running cluster (in its own file: a Cluster registers the cluster's
// admission plugins module-wide, which the fixture-based goldens must not see).
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';

describe('wait', () => {
  test('kubectl wait: simulated time runs until the condition holds, or the timeout', () => {
    const c = createCluster({ seed: 2 }); // a running cluster: the fixture's objects have no controllers behind them
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=4');
    const t0 = c.now;
    expect(runKubectl(c, 'wait --for=condition=Available=True deployment/web')).toEqual({
      stdout: 'deployment.apps/web condition met\n',
      stderr: '',
      exitCode: 0,
    });
    expect(runKubectl(c, "wait --for=jsonpath='{.status.readyReplicas}'=4 deploy/web").stdout).toBe(
      'deployment.apps/web condition met\n',
    );
    expect(c.now).toBeGreaterThan(t0);
    const before = c.now;
    expect(runKubectl(c, 'wait --for=condition=Available=False deploy/web --timeout=3s').stderr).toBe(
      'error: timed out waiting for the condition on deployments/web\n',
    );
    expect(c.now - before).toBe(3000);
    expect(runKubectl(c, 'wait --for=delete pod/gone')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(runKubectl(c, 'wait --for=condition=Ready pod/gone').stderr).toBe(
      'Error from server (NotFound): pods "gone" not found\n',
    );
    expect(runKubectl(c, 'wait --for=ready pod/x').stderr).toBe('error: unrecognized condition: "ready"\n');
    // kubectl's "wait a week" (a negative timeout) stops after an hour of simulated time, and says so.
    const t1 = c.now;
    expect(runKubectl(c, 'wait --for=condition=Available=False deploy/web --timeout=-1s').stderr).toBe(
      'error: the simulator waits at most 1h0m0s, and the condition is not met yet on deployments/web\n',
    );
    expect(c.now - t1).toBe(3_600_000);
  });
  test('--timeout=0: one more GET and one check, no watch', () => {
    const c = createCluster({ seed: 2 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    runKubectl(c, 'rollout status deployment/web');
    const from = c.log.length;
    const t0 = c.now;
    expect(runKubectl(c, 'wait --for=condition=Available=False deploy/web --timeout=0')).toEqual({
      stdout: '',
      stderr: 'error: condition not met for deployments/web\n',
      exitCode: 1,
    });
    expect(runKubectl(c, 'wait --for=condition=Available deploy/web --timeout=0s').stdout).toBe(
      'deployment.apps/web condition met\n',
    );
    expect(runKubectl(c, 'wait --for=delete deploy/web --timeout=0').stderr).toBe(
      'error: condition not met for deployments/web\n',
    );
    expect(c.now).toBe(t0);
    expect(
      c.log
        .slice(from)
        .filter((x) => x.component === 'kubectl')
        .map((x) => x.verb),
    ).toEqual(['GET', 'GET', 'GET', 'GET', 'GET', 'GET']);
  });
  test('several --for (1.36+): each met in turn, one line each; none given names the empty list', () => {
    const c = createCluster({ seed: 2 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
    expect(
      runKubectl(
        c,
        "wait --for=create --for=condition=Available --for=jsonpath='{.status.readyReplicas}'=2 deploy/web",
      ),
    ).toEqual({ stdout: 'deployment.apps/web condition met\n'.repeat(3), stderr: '', exitCode: 0 });
    // The second is never met: the first's line, then the timeout.
    expect(
      runKubectl(c, 'wait --for=condition=Available --for=condition=Available=False deploy/web --timeout=2s'),
    ).toEqual({
      stdout: 'deployment.apps/web condition met\n',
      stderr: 'error: timed out waiting for the condition on deployments/web\n',
      exitCode: 1,
    });
    expect(runKubectl(c, 'wait deploy/web').stderr).toBe('error: unrecognized condition: []\n');
    expect(runKubectl(c, 'wait --for=condition=Available --for=bogus deploy/web').stderr).toBe(
      'error: unrecognized condition: "bogus"\n',
    );
  });
  test('rollout status: a line for the streamed object and one for each notification after it, repeated lines and all', () => {
    const c = createCluster({ seed: 2 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    runKubectl(c, 'rollout status deployment/web');
    runKubectl(c, 'set image deploy/web nginx=nginx:1.28');
    const from = c.log.length;
    const lines = runKubectl(c, 'rollout status deployment/web').stdout.trimEnd().split('\n');
    const notes = c.log.slice(from).filter((x) => x.kind === 'watch' && x.component === 'kubectl').length;
    // The stream's first two notifications, the object and its initial-events-end bookmark, make one line.
    expect(lines.length).toBe(notes - 1);
    expect(new Set(lines).size).toBeLessThan(lines.length);
    expect(lines.at(-1)).toBe('deployment "web" successfully rolled out');
  });
});
