// kubectl apply's traffic on an object that exists: a GET, then a strategic-merge PATCH of what
// changed (the last-applied annotation with it), or no write at all; and the warning for an object
// that was not created declaratively.
import { describe, expect, test } from 'vitest';
import { strategicMergePatch } from '../../api/patch.ts';
import { fixtureCluster } from '../../testing/kubectl-fixture.ts';
import { runKubectl } from '../kubectl.ts';
import { twoWayPatch } from './apply.ts';

const requests = (c: ReturnType<typeof fixtureCluster>, from: number) =>
  c.log
    .slice(from)
    .filter((x) => x.kind === 'request' && x.component === 'kubectl')
    .map((x) => `${x.verb} ${x.path} ${x.code}`);

const manifest = (replicas: number, image = 'nginx:1.27') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: api
        image: ${image}
`;

describe('apply', () => {
  test('create, then PATCH what changed, then nothing when nothing did', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'apply -f -', manifest(2)).stdout).toBe('deployment.apps/api created\n');
    let from = c.log.length;
    expect(runKubectl(c, 'apply -f -', manifest(3))).toEqual({
      stdout: 'deployment.apps/api configured\n',
      stderr: '',
      exitCode: 0,
    });
    expect(requests(c, from)).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/api 200',
      'PATCH /apis/apps/v1/namespaces/default/deployments/api?fieldManager=kubectl-client-side-apply&fieldValidation=Strict 200',
    ]);
    expect(runKubectl(c, "get deploy api -o jsonpath='{.spec.replicas}'").stdout).toBe('3');
    from = c.log.length;
    expect(runKubectl(c, 'apply -f -', manifest(3)).stdout).toBe('deployment.apps/api unchanged\n');
    expect(requests(c, from)).toEqual(['GET /apis/apps/v1/namespaces/default/deployments/api 200']);
  });
  test('an object created imperatively: the warning, and the annotation patched in', () => {
    const c = fixtureCluster();
    runKubectl(c, 'create deployment api --image=nginx:1.27 --replicas=3');
    const r = runKubectl(c, 'apply -f -', manifest(3));
    expect(r.stderr).toBe(
      'Warning: resource deployments/api is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n',
    );
    expect(r.stdout).toBe('deployment.apps/api configured\n');
    expect(runKubectl(c, 'apply -f -', manifest(3))).toEqual({
      stdout: 'deployment.apps/api unchanged\n',
      stderr: '',
      exitCode: 0,
    });
  });
  test('twoWayPatch: changed fields, removals as null, keyed lists item by item', () => {
    const from = {
      a: 1,
      b: { c: 2, d: 3 },
      containers: [
        { name: 'x', image: '1' },
        { name: 'y', image: '1' },
      ],
      args: ['p'],
    };
    const to = {
      a: 1,
      b: { c: 5 },
      containers: [
        { name: 'x', image: '2' },
        { name: 'z', image: '1' },
      ],
      args: ['q'],
    };
    const patch = twoWayPatch(from, to);
    expect(patch).toEqual({
      b: { c: 5, d: null },
      containers: [
        { name: 'x', image: '2' },
        { name: 'z', image: '1' },
        { name: 'y', $patch: 'delete' },
      ],
      args: ['q'],
    });
    expect(strategicMergePatch(from, patch)).toEqual(to);
    expect(twoWayPatch(to, to)).toBeUndefined();
  });
});
