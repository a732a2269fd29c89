// kubectl set env and set resources as pkg/cmd/set runs them: the builder's GET (or LIST for -l and
// --all), one strategic-merge PATCH with fieldManager=kubectl-set when the template changes and none
// when it does not, the messages and the errors; a Deployment's changed template rolls out.
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { PodList } from 'kubernetes-types/core/v1';
import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../../testing/kubectl-fixture.ts';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';
import { parseEnv, selectString, updateEnv } from './set.ts';

const sent = (c: { log: { kind: string; component?: string; verb?: string; path?: string }[] }, from: number) =>
  c.log
    .slice(from)
    .filter((x) => x.kind === 'request' && x.component === 'kubectl')
    .map((x) => `${x.verb} ${x.path}`);
const container = (c: ReturnType<typeof fixtureCluster>) =>
  (JSON.parse(runKubectl(c, 'get deploy web -o json').stdout) as Deployment).spec!.template.spec!.containers[0];

describe('set env', () => {
  test('KEY=VALUE: a GET, then one PATCH with fieldManager=kubectl-set; again: nothing sent after the GET, nothing printed', () => {
    const c = fixtureCluster();
    let from = c.log.length;
    expect(runKubectl(c, 'set env deployment/web FOO=bar BAZ=qux')).toEqual({
      stdout: 'deployment.apps/web env updated\n',
      stderr: '',
      exitCode: 0,
    });
    expect(sent(c, from)).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/web',
      'PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-set',
    ]);
    expect(container(c).env).toEqual([
      { name: 'FOO', value: 'bar' },
      { name: 'BAZ', value: 'qux' },
    ]);
    from = c.log.length;
    expect(runKubectl(c, 'set env deployment/web FOO=bar')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(sent(c, from)).toEqual(['GET /apis/apps/v1/namespaces/default/deployments/web']);
  });

  test('KEY- removes; a changed value stays in place; the last one removed leaves no env', () => {
    const c = fixtureCluster();
    runKubectl(c, 'set env deploy/web A=1 B=2 C=3');
    runKubectl(c, 'set env deploy/web B=two A-');
    expect(container(c).env).toEqual([
      { name: 'B', value: 'two' },
      { name: 'C', value: '3' },
    ]);
    runKubectl(c, 'set env deploy/web B- C-');
    expect(container(c).env).toBeUndefined();
  });

  test("--list prints each container's variables and sends no write", () => {
    const c = fixtureCluster();
    runKubectl(c, 'set env deploy/web A=1');
    const from = c.log.length;
    expect(runKubectl(c, 'set env deploy/web --list B=2').stdout).toBe('# Deployment web, container web\nA=1\nB=2\n');
    expect(sent(c, from)).toEqual(['GET /apis/apps/v1/namespaces/default/deployments/web']);
    expect(runKubectl(c, 'set env deploy/web --list -o yaml').stderr).toBe(
      'error: --list and --output may not be specified together\n',
    );
  });

  test('--dry-run=client sends no PATCH and prints the changed object; server sends dryRun=All', () => {
    const c = fixtureCluster();
    let from = c.log.length;
    expect(
      runKubectl(c, 'set env deploy/web A=1 --dry-run=client -o jsonpath={.spec.template.spec.containers[0].env}')
        .stdout,
    ).toBe('[{"name":"A","value":"1"}]');
    expect(sent(c, from)).toEqual(['GET /apis/apps/v1/namespaces/default/deployments/web']);
    from = c.log.length;
    expect(runKubectl(c, 'set env deploy/web A=1 --dry-run=server').stdout).toBe(
      'deployment.apps/web env updated (server dry run)\n',
    );
    expect(sent(c, from)[1]).toBe(
      'PATCH /apis/apps/v1/namespaces/default/deployments/web?dryRun=All&fieldManager=kubectl-set',
    );
    expect(container(c).env).toBeUndefined();
  });

  test('--all and -l: one LIST, no GET; not both', () => {
    const c = fixtureCluster();
    const from = c.log.length;
    expect(runKubectl(c, 'set env deployments -l app=web A=1 -o name').stdout).toBe('deployment.apps/web\n');
    expect(sent(c, from)[0]).toBe('GET /apis/apps/v1/namespaces/default/deployments?labelSelector=app%3Dweb');
    expect(runKubectl(c, 'set env deployments --all -l app=web A=1').stderr).toBe(
      'error: cannot set --all and --selector at the same time\n',
    );
  });

  test('the errors as set_env.go words them', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'set env deploy/web A=1 --overwrite=false')).toMatchObject({ exitCode: 0 });
    expect(runKubectl(c, 'set env deploy/web A=2 --overwrite=false')).toEqual({
      stdout: '',
      stderr: "error: deployments/web 'A' already has a value (1), and --overwrite is false\n",
      exitCode: 1,
    });
    expect(runKubectl(c, 'set env deploy/web A=1 deploy/x').stderr).toBe(
      'error: all resources must be specified before environment changes: deploy/web A=1 deploy/x\n',
    );
    expect(runKubectl(c, 'set env A=1').stderr).toBe(
      'error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n',
    );
    expect(runKubectl(c, 'set env deploy/web 1A=1').stderr).toMatch(
      /^error: "1A" is not a valid key name: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit \(e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex/,
    );
    expect(runKubectl(c, 'set env deploy/web A=1 A-').stderr).toBe(
      'error: can not both modify and remove the same environment variable in the same command\n',
    );
    expect(runKubectl(c, 'set env deploy/nope A=1')).toEqual({
      stdout: '',
      stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n',
      exitCode: 1,
    });
    expect(runKubectl(c, 'set env deploy/web -c side A=1')).toEqual({
      stdout: '',
      stderr: 'Warning: Deployment/web does not have any containers matching "side"\n',
      exitCode: 0,
    });
  });

  test('a Pod: the API server refuses the change, and kubectl says it failed to patch', () => {
    const c = fixtureCluster();
    const r = runKubectl(c, 'set env pod/web-7c5ddbdf54-2xkqz A=1');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^error: failed to patch env update to pod template: Pod "web-7c5ddbdf54-2xkqz" is invalid: spec: Forbidden: pod updates may not change fields other than/,
    );
  });

  test("a Deployment's changed environment rolls out a new ReplicaSet", () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
    c.settle();
    runKubectl(c, 'set env deployment/web MODE=blue');
    c.settle();
    expect(runKubectl(c, 'rollout history deployment/web').stdout).toMatch(/^2 +<none>$/m);
    const pods = (JSON.parse(runKubectl(c, 'get pods -o json').stdout) as PodList).items;
    expect(pods.map((p) => p.spec!.containers[0].env)).toEqual([
      [{ name: 'MODE', value: 'blue' }],
      [{ name: 'MODE', value: 'blue' }],
    ]);
  });

  test("helpers: updateEnv keeps order; parseEnv reads stdin lines; selectString's wildcards", () => {
    expect(
      updateEnv(
        [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        [
          { name: 'C', value: '3' },
          { name: 'A', value: 'x' },
        ],
        ['B'],
      ),
    ).toEqual([
      { name: 'A', value: 'x' },
      { name: 'C', value: '3' },
    ]);
    expect(parseEnv(['-'], 'X=1 # c\n# only\nY=2\n').env).toEqual([
      { name: 'X', value: '1 ' },
      { name: 'Y', value: '2' },
    ]);
    expect([
      selectString('web', '*'),
      selectString('web', 'w*'),
      selectString('web', '*b'),
      selectString('web', 'x*'),
    ]).toEqual([true, true, true, false]);
  });
});

describe('set resources', () => {
  test('--limits and --requests: a GET, one PATCH; unchanged again: no PATCH, nothing printed', () => {
    const c = fixtureCluster();
    let from = c.log.length;
    expect(
      runKubectl(c, 'set resources deployment web --limits=cpu=200m,memory=256Mi --requests=cpu=100m').stdout,
    ).toBe('deployment.apps/web resource requirements updated\n');
    expect(sent(c, from)).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/web',
      'PATCH /apis/apps/v1/namespaces/default/deployments/web?fieldManager=kubectl-set',
    ]);
    expect(container(c).resources).toEqual({ limits: { cpu: '200m', memory: '256Mi' }, requests: { cpu: '100m' } });
    from = c.log.length;
    expect(runKubectl(c, 'set resources deployment web --requests=cpu=100m')).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 0,
    });
    expect(sent(c, from)).toHaveLength(1);
  });

  test('the builder runs before Validate: a GET, then the missing update refused', () => {
    const c = fixtureCluster();
    const from = c.log.length;
    expect(runKubectl(c, 'set resources deploy/web').stderr).toBe(
      'error: you must specify an update to requests or limits (in the form of --requests/--limits)\n',
    );
    expect(sent(c, from)).toEqual(['GET /apis/apps/v1/namespaces/default/deployments/web']);
    expect(runKubectl(c, 'set resources deploy/web --limits=cpu').stderr).toBe(
      'error: invalid argument syntax cpu, expected <resource>=<value>\n',
    );
    expect(runKubectl(c, 'set resources deploy/web --limits=cpu=lots').stderr).toMatch(
      /^error: quantities must match the regular expression/,
    );
    expect(runKubectl(c, 'set resources deploy/web -c side --limits=cpu=1')).toEqual({
      stdout: '',
      stderr: 'error: unable to find container named side\n',
      exitCode: 1,
    });
    expect(runKubectl(c, 'set resources deployments --limits=cpu=1').stderr).toBe(
      'error: resource(s) were provided, but no name was specified\n',
    );
  });

  test('--dry-run=client -o yaml prints the changed object; -l lists', () => {
    const c = fixtureCluster();
    expect(
      runKubectl(
        c,
        'set resources deploy/web --requests=memory=64Mi --dry-run=client -o jsonpath={.spec.template.spec.containers[0].resources}',
      ).stdout,
    ).toBe('{"requests":{"memory":"64Mi"}}');
    expect(runKubectl(c, 'set resources deployments -l app=web --requests=memory=64Mi --dry-run=server').stdout).toBe(
      'deployment.apps/web resource requirements updated (server dry run)\n',
    );
    expect(container(c).resources).toEqual({});
  });
});
