// kubectl scale's traffic: the resource builder's GET, then the scaler's write of /scale (a merge
// patch, or with preconditions a GET of the Scale and a PUT), and the precondition errors.
import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../../testing/kubectl-fixture.ts';
import { runKubectl } from '../kubectl.ts';

const requests = (c: ReturnType<typeof fixtureCluster>, from: number) =>
  c.log
    .slice(from)
    .filter((x) => x.kind === 'request' && x.component === 'kubectl')
    .map((x) => `${x.verb} ${x.path} ${x.code}`);

const rv2 = (c: ReturnType<typeof fixtureCluster>) =>
  runKubectl(c, "get deploy web -o jsonpath='{.metadata.resourceVersion}'").stdout;

describe('scale', () => {
  test('GETs the object, then merge-patches its scale subresource', () => {
    const c = fixtureCluster();
    const from = c.log.length;
    expect(runKubectl(c, 'scale deploy web --replicas=5').stdout).toBe('deployment.apps/web scaled\n');
    expect(requests(c, from)).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/web 200',
      'PATCH /apis/apps/v1/namespaces/default/deployments/web/scale 200',
    ]);
  });
  test('--current-replicas and --resource-version: a GET of the Scale, checked, then a PUT', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'scale deploy web --replicas=5 --current-replicas=2')).toEqual({
      stdout: '',
      stderr: 'error: Expected replicas to be 2, was 3\n',
      exitCode: 1,
    });
    const from = c.log.length;
    expect(runKubectl(c, 'scale deploy web --replicas=5 --current-replicas=3').stdout).toBe(
      'deployment.apps/web scaled\n',
    );
    expect(requests(c, from)).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/web 200',
      'GET /apis/apps/v1/namespaces/default/deployments/web/scale 200',
      'PUT /apis/apps/v1/namespaces/default/deployments/web/scale 200',
    ]);
    const rv = runKubectl(c, "get deploy web -o jsonpath='{.metadata.resourceVersion}'").stdout;
    expect(runKubectl(c, 'scale deploy web --replicas=4 --resource-version=1').stderr).toBe(
      `error: Expected resource version to be 1, was ${rv}\n`,
    );
    expect(runKubectl(c, `scale deploy web --replicas=4 --resource-version=${rv}`).stdout).toBe(
      'deployment.apps/web scaled\n',
    );
    expect(runKubectl(c, "get deploy web -o jsonpath='{.spec.replicas}'").stdout).toBe('4');
    const rs = runKubectl(c, "get rs -o jsonpath='{.items[0].metadata.name}'").stdout;
    expect(runKubectl(c, `scale deploy/web rs/${rs} --replicas=4 --resource-version=1`).stderr).toBe(
      'error: cannot use --resource-version with multiple resources\n',
    );
    // Counted among the objects found: a missing one ends the command when its turn comes.
    expect(runKubectl(c, 'scale deploy/web rs/x --replicas=4 --resource-version=1').stderr).toBe(
      `error: Expected resource version to be 1, was ${rv2(c)}\n`,
    );
    expect(runKubectl(c, 'scale rs/x deploy/web --replicas=4').stderr).toBe(
      'Error from server (NotFound): replicasets.apps "x" not found\n',
    );
  });
});
