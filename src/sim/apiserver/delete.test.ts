// The Service the API server keeps: default/kubernetes, deleted, comes back at the bootstrap
// controller's next pass (every 10 s from the API server's start).
import { describe, expect, test } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';

describe('default/kubernetes is made again after a delete', () => {
  test('at the next 10 s tick, with a new uid and the same address; one POST by the API server', () => {
    const c = createCluster({ seed: 4 });
    c.advance(12_345);
    const before = JSON.parse(runKubectl(c, 'get svc kubernetes -o json').stdout);
    const from = c.log.length;
    expect(runKubectl(c, 'delete svc kubernetes').stdout).toBe('service "kubernetes" deleted from default namespace\n');
    expect(runKubectl(c, 'get svc kubernetes').stderr).toBe(
      'Error from server (NotFound): services "kubernetes" not found\n',
    );
    c.advance(20_000 - c.now - 1);
    expect(runKubectl(c, 'get svc kubernetes').exitCode).toBe(1);
    c.advance(2);
    const after = JSON.parse(runKubectl(c, 'get svc kubernetes -o json').stdout);
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.spec).toEqual(before.spec);
    expect(after.metadata.labels).toEqual(before.metadata.labels);
    const posts = c.log
      .slice(from)
      .filter((x) => x.kind === 'request' && x.verb === 'POST' && x.path === '/api/v1/namespaces/default/services');
    expect(posts.map((x) => [x.t, x.component, x.code])).toEqual([[20_000, 'kube-apiserver', 201]]);
  });
  test('another Service deleted stays deleted; a kubernetes Service made again by hand is left alone', () => {
    const c = createCluster({ seed: 4 });
    runKubectl(c, 'create service clusterip db --tcp=5432:5432');
    runKubectl(c, 'delete svc db');
    runKubectl(c, 'delete svc kubernetes');
    runKubectl(c, 'create service clusterip kubernetes --tcp=443:6443');
    const mine = JSON.parse(runKubectl(c, 'get svc kubernetes -o json').stdout).metadata.uid;
    c.advance(30_000);
    expect(runKubectl(c, 'get svc db').exitCode).toBe(1);
    expect(JSON.parse(runKubectl(c, 'get svc kubernetes -o json').stdout).metadata.uid).toBe(mine);
  });
});
