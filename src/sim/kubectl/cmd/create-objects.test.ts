// kubectl create configmap, serviceaccount and token as create_configmap.go, create_serviceaccount.go
// and create_token.go run them (judged by the oracle's create-objects scenario): what they send,
// print and refuse before sending.
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';

const sent = (c: ReturnType<typeof createCluster>, from: number) =>
  c.log
    .slice(from)
    .filter((x) => x.kind === 'request' && x.component === 'kubectl')
    .map((x) => `${x.verb} ${x.path}`);

describe('create configmap', () => {
  test('--from-literal splits at the first "=", keeps the order of keys as Go maps print them, and POSTs once', () => {
    const c = createCluster({ seed: 2 });
    const from = c.log.length;
    expect(runKubectl(c, 'create configmap app --from-literal=b=2 --from-literal=a=x=y')).toEqual({
      stdout: 'configmap/app created\n',
      stderr: '',
      exitCode: 0,
    });
    expect(sent(c, from)).toEqual([
      'POST /api/v1/namespaces/default/configmaps?fieldManager=kubectl-create&fieldValidation=Strict',
    ]);
    expect(runKubectl(c, 'get cm app -o jsonpath={.data}').stdout).toBe('{"a":"x=y","b":"2"}');
    expect(runKubectl(c, 'get cm').stdout).toMatch(
      /^NAME {15}DATA {3}AGE\napp {16}2 {6}\d+s\nkube-root-ca.crt {3}1 {6}\d+s\n$/,
    );
  });
  test('bad sources are refused before anything is sent', () => {
    const c = createCluster({ seed: 2 });
    const from = c.log.length;
    expect(runKubectl(c, 'create cm x --from-literal=a=1 --from-literal=a=2').stderr).toBe(
      'error: cannot add key "a", another key by that name already exists in Data for ConfigMap "x"\n',
    );
    expect(runKubectl(c, 'create cm x --from-literal=novalue').stderr).toBe(
      'error: invalid literal source novalue, expected key=value\n',
    );
    expect(runKubectl(c, 'create cm x --from-literal=..a=1').stderr).toBe(
      'error: "..a" is not a valid key name for a ConfigMap: must not start with \'..\'\n',
    );
    expect(runKubectl(c, 'create cm x --from-file=app.properties').stderr).toMatch(
      /^error: kubectl create configmap --from-file reads files on your machine/,
    );
    expect(runKubectl(c, 'create cm').stderr).toBe(
      "error: exactly one NAME is required, got 0\nSee 'kubectl create configmap -h' for help and examples\n",
    );
    expect(sent(c, from)).toEqual([]);
  });
  test('--dry-run=client prints the object without a status or, without -n, a namespace', () => {
    const c = createCluster({ seed: 2 });
    expect(runKubectl(c, 'create configmap app --from-literal=k=v --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  name: app\n',
    );
    expect(runKubectl(c, 'create serviceaccount robot -n kube-system --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: robot\n  namespace: kube-system\n',
    );
  });
});

describe('create serviceaccount and token', () => {
  test('a new account can run pods; a token for it comes from the TokenRequest API', () => {
    const c = createCluster({ seed: 2 });
    expect(runKubectl(c, 'create sa robot').stdout).toBe('serviceaccount/robot created\n');
    expect(runKubectl(c, 'create sa robot').stderr).toBe(
      'error: failed to create serviceaccount: serviceaccounts "robot" already exists\n',
    );
    const from = c.log.length;
    const token = runKubectl(c, 'create token robot --duration=10m --audience=api');
    expect(token.exitCode).toBe(0);
    expect(token.stdout).toMatch(/^\S+\n$/);
    expect(sent(c, from)).toEqual(['POST /api/v1/namespaces/default/serviceaccounts/robot/token']);
    const tr: unknown = JSON.parse(runKubectl(c, 'create token robot --duration=1h -o json').stdout);
    expect(tr).toMatchObject({ kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
    expect(runKubectl(c, `run p --image=nginx:1.27 --overrides='{"spec":{"serviceAccountName":"robot"}}'`).stdout).toBe(
      'pod/p created\n',
    );
  });
  test("create token refuses what create_token.go's Validate refuses, and an unknown account with the server's 404", () => {
    const c = createCluster({ seed: 2 });
    expect(runKubectl(c, 'create token default --duration=-1s').stderr).toBe(
      'error: --duration must be greater than or equal to 0\n',
    );
    expect(runKubectl(c, 'create token default --duration=1500ms').stderr).toBe(
      'error: --duration cannot be expressed in units less than seconds\n',
    );
    expect(runKubectl(c, 'create token default --bound-object-name=x').stderr).toBe(
      'error: --bound-object-name can only be set if --bound-object-kind is provided\n',
    );
    expect(runKubectl(c, 'create token default --bound-object-kind=Deployment --bound-object-name=x').stderr).toBe(
      'error: supported --bound-object-kind values are Node, Pod, Secret\n',
    );
    expect(runKubectl(c, 'create token ghost').stderr).toBe(
      'error: failed to create token: serviceaccounts "ghost" not found\n',
    );
  });
});
