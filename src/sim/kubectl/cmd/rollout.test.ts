// kubectl rollout undo's warning (1.36+, kubernetes#137064) for a Deployment client-side apply
// manages: printed on stderr before the rollback, which leaves last-applied-configuration as it was.
// (Its own file: a Cluster registers the cluster's admission plugins module-wide.)
import type { Deployment } from 'kubernetes-types/apps/v1';
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';
import { rollbackApplyManagedWarning } from './rollout.ts';

const manifest = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: ${image}
`;

const lastApplied = (c: ReturnType<typeof createCluster>): string =>
  (JSON.parse(runKubectl(c, 'get deploy web -o json').stdout) as Deployment).metadata!.annotations![
    'kubectl.kubernetes.io/last-applied-configuration'
  ];

const WARNING =
  "Warning: resource deployments/web was previously managed with 'kubectl apply'. Rolling back will not update the kubectl.kubernetes.io/last-applied-configuration annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.\n";

describe('rollout undo', () => {
  test("the warning text is rollout_undo.go's", () => {
    expect(rollbackApplyManagedWarning('deployments/web')).toBe(WARNING);
  });

  test('a Deployment created by apply: the warning, then the rollback; the annotation stays', () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'apply -f -', manifest('nginx:1.27'));
    c.settle();
    runKubectl(c, 'apply -f -', manifest('nginx:1.28'));
    c.settle();
    const before = lastApplied(c);
    expect(before).toContain('nginx:1.28');
    expect(runKubectl(c, 'rollout undo deployment/web')).toEqual({
      stdout: 'deployment.apps/web rolled back\n',
      stderr: WARNING,
      exitCode: 0,
    });
    expect(runKubectl(c, 'get deploy web -o jsonpath={.spec.template.spec.containers[0].image}').stdout).toBe(
      'nginx:1.27',
    );
    expect(lastApplied(c)).toBe(before);
    // Also when there is nothing to roll back to: the warning comes first.
    c.settle();
    expect(runKubectl(c, 'rollout undo deployment/web --to-revision=2').stderr).toBe(WARNING);
  });

  test('a Deployment made by create: no warning', () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    runKubectl(c, 'set image deployment/web nginx=nginx:1.28');
    c.settle();
    expect(runKubectl(c, 'rollout undo deployment/web')).toEqual({
      stdout: 'deployment.apps/web rolled back\n',
      stderr: '',
      exitCode: 0,
    });
  });

  test("the rollback is a JSON patch of spec.template and metadata.annotations: the revision's change-cause comes back, other annotations go", () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    runKubectl(c, 'annotate deployment web kubernetes.io/change-cause=first');
    c.settle();
    runKubectl(c, 'set image deployment/web nginx=nginx:1.28');
    runKubectl(c, 'annotate deployment web kubernetes.io/change-cause=second team=web --overwrite');
    c.settle();
    const from = c.log.length;
    expect(runKubectl(c, 'rollout undo deployment/web').stdout).toBe('deployment.apps/web rolled back\n');
    expect(
      c.log
        .slice(from)
        .filter((x) => x.kind === 'request' && x.component === 'kubectl')
        .map((x) => `${x.verb} ${x.path} ${x.code}`),
    ).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/web 200',
      'GET /apis/apps/v1/namespaces/default/deployments/web 200',
      'GET /apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Dweb 200',
      'PATCH /apis/apps/v1/namespaces/default/deployments/web 200',
    ]);
    const annotations = (JSON.parse(runKubectl(c, 'get deploy web -o json').stdout) as Deployment).metadata!
      .annotations!;
    expect(annotations['kubernetes.io/change-cause']).toBe('first');
    expect(annotations.team).toBeUndefined();
    expect(annotations['deployment.kubernetes.io/revision']).toBe('2');
  });
});

describe('rollout undo --dry-run', () => {
  test("client: the revision's template as printTemplate prints it, then (dry run); nothing sent but reads", () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    runKubectl(c, 'set image deployment/web nginx=nginx:1.28');
    c.settle();
    const from = c.log.length;
    const out = runKubectl(c, 'rollout undo deployment/web --dry-run=client');
    expect(out.stdout).toMatch(
      /^deployment\.apps\/web Pod Template:\n {2}Labels:\tapp=web\n\tpod-template-hash=\w+\n {2}Containers:\n {3}nginx:\n {4}Image:\tnginx:1\.27\n[^]*\n {2}Tolerations:\t<none>\n \(dry run\)\n$/,
    );
    expect(
      c.log.slice(from).filter((x) => x.kind === 'request' && x.component === 'kubectl' && x.verb !== 'GET'),
    ).toEqual([]);
    expect(runKubectl(c, 'get deploy web -o jsonpath={.spec.template.spec.containers[0].image}').stdout).toBe(
      'nginx:1.28',
    );
  });
  test('server: the JSON patch sent as a dry run, "rolled back (server dry run)", nothing changed', () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    runKubectl(c, 'set image deployment/web nginx=nginx:1.28');
    c.settle();
    expect(runKubectl(c, 'rollout undo deployment/web --dry-run=server')).toEqual({
      stdout: 'deployment.apps/web rolled back (server dry run)\n',
      stderr: '',
      exitCode: 0,
    });
    expect(
      c.log.some(
        (x) =>
          x.kind === 'request' &&
          x.verb === 'PATCH' &&
          x.path === '/apis/apps/v1/namespaces/default/deployments/web?dryRun=All',
      ),
    ).toBe(true);
    expect(runKubectl(c, 'get deploy web -o jsonpath={.spec.template.spec.containers[0].image}').stdout).toBe(
      'nginx:1.28',
    );
  });
  test('-o prints the Deployment as the builder read it, before the rollback; an -o it cannot match fails after the rollback', () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    runKubectl(c, 'set image deployment/web nginx=nginx:1.28');
    c.settle();
    expect(
      runKubectl(
        c,
        'rollout undo deployment/web --dry-run=server -o jsonpath={.spec.template.spec.containers[0].image}',
      ).stdout,
    ).toBe('nginx:1.28');
    expect(runKubectl(c, 'rollout undo deployment/web --dry-run=client -o name').stdout).toBe('deployment.apps/web\n');
    expect(runKubectl(c, 'rollout undo deployment/web -o bogus').stderr).toMatch(
      /^error: unable to match a printer suitable for the output format "bogus"/,
    );
    expect(runKubectl(c, 'get deploy web -o jsonpath={.spec.template.spec.containers[0].image}').stdout).toBe(
      'nginx:1.27',
    );
  });
});

describe('rollout history', () => {
  test('GETs the Deployment twice (the builder, then the history viewer) before it lists the ReplicaSets, as the real trace shows', () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    for (const args of ['rollout history deployment/web', 'rollout history deployment/web --revision=1']) {
      const from = c.log.length;
      expect(runKubectl(c, args).exitCode).toBe(0);
      expect(
        c.log
          .slice(from)
          .filter((x) => x.kind === 'request' && x.component === 'kubectl')
          .map((x) => `${x.verb} ${x.path} ${x.code}`),
      ).toEqual([
        'GET /apis/apps/v1/namespaces/default/deployments/web 200',
        'GET /apis/apps/v1/namespaces/default/deployments/web 200',
        'GET /apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Dweb 200',
      ]);
    }
  });
});
