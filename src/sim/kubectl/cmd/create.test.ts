// kubectl create priorityclass (create_priorityclass.go) and the PriorityClass describer: the
// object the generator builds, its flag errors, the API server's refusals in create's own words.
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';

describe('create priorityclass', () => {
  test('builds the PriorityClass (PreemptLowerPriority by default) and POSTs it', () => {
    const c = createCluster();
    expect(runKubectl(c, 'create priorityclass high --value=1000 --dry-run=client -o yaml').stdout).toBe(
      'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\npreemptionPolicy: PreemptLowerPriority\nvalue: 1000\n',
    );
    const from = c.log.length;
    expect(runKubectl(c, 'create pc high --value=1000 --preemption-policy=Never --description=urgent')).toEqual({
      stdout: 'priorityclass.scheduling.k8s.io/high created\n',
      stderr: '',
      exitCode: 0,
    });
    // (Real kubectl adds ?fieldManager=kubectl-create&fieldValidation=Strict; the simulator's request
    // paths carry no field manager for any command.)
    expect(
      c.log
        .slice(from)
        .filter((x) => x.kind === 'request')
        .map((x) => `${x.verb} ${x.path} ${x.code}`),
    ).toEqual([
      'POST /apis/scheduling.k8s.io/v1/priorityclasses?fieldManager=kubectl-create&fieldValidation=Strict 201',
    ]);
    expect(runKubectl(c, 'describe priorityclass high').stdout).toBe(
      'Name:              high\nValue:             1000\nGlobalDefault:     false\nPreemptionPolicy:  Never\nDescription:       urgent\nAnnotations:       <none>\nEvents:            <none>\n',
    );
  });

  test('flag errors, and the API server refusals wrapped as create does', () => {
    const c = createCluster();
    expect(runKubectl(c, 'create priorityclass').stderr).toBe(
      "error: exactly one NAME is required, got 0\nSee 'kubectl create priorityclass -h' for help and examples\n",
    );
    expect(runKubectl(c, 'create pc x --value=abc').stderr).toBe(
      'error: invalid argument "abc" for "--value" flag: strconv.ParseInt: parsing "abc": invalid syntax\nSee \'kubectl create priorityclass --help\' for usage.\n',
    );
    expect(runKubectl(c, 'create pc huge --value=2000000000').stderr).toBe(
      'error: failed to create priorityclass: PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000\n',
    );
    expect(runKubectl(c, 'create pc d --value=5 --global-default').exitCode).toBe(0);
    expect(runKubectl(c, 'create pc e --value=6 --global-default').stderr).toBe(
      'error: failed to create priorityclass: priorityclasses.scheduling.k8s.io "e" is forbidden: PriorityClass d is already marked as default. Only one default can exist\n',
    );
    expect(runKubectl(c, 'delete pc system-node-critical').stderr).toBe(
      'Error from server (Forbidden): priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted\n',
    );
  });
});

describe('create -f with metadata.generateName', () => {
  const manifest =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: job-\nspec:\n  containers:\n  - name: c\n    image: busybox\n';
  test('prints the name the server generated, and that pod exists', () => {
    const c = createCluster({ seed: 2 });
    const out = runKubectl(c, 'create -f -', manifest);
    expect(out.stdout).toMatch(/^pod\/job-[a-z0-9]{5} created\n$/);
    const name = out.stdout.slice('pod/'.length, out.stdout.indexOf(' '));
    expect(runKubectl(c, `get pod ${name} -o name`).stdout).toBe(`pod/${name}\n`);
    // Two creates, two names.
    expect(runKubectl(c, 'create -f -', manifest).stdout).not.toBe(out.stdout);
  });
  test('a client dry run has no name to print (NamePrinter: <unknown>)', () => {
    expect(runKubectl(createCluster({ seed: 2 }), 'create -f - --dry-run=client', manifest).stdout).toBe(
      'pod/<unknown> created (dry run)\n',
    );
  });
});

describe('create -f: what the server refuses, named by the source (AddSourceToErr)', () => {
  const pod = (meta = '') =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n${meta}spec:\n  containers:\n  - name: c\n    image: busybox\n`;
  test('a resourceVersion on create: storage\'s 500, "error when creating"; create and apply alike', () => {
    const c = createCluster({ seed: 2 });
    const err =
      'Error from server: error when creating "STDIN": resourceVersion should not be set on objects to be created\n';
    expect(runKubectl(c, 'create -f -', pod('  resourceVersion: "12"\n'))).toEqual({
      stdout: '',
      stderr: err,
      exitCode: 1,
    });
    expect(runKubectl(c, 'apply -f -', pod('  resourceVersion: "12"\n'))).toEqual({
      stdout: '',
      stderr: err,
      exitCode: 1,
    });
    expect(runKubectl(c, 'create -f - --dry-run=server', pod('  resourceVersion: "12"\n')).stdout).toBe(
      'pod/p created (server dry run)\n',
    );
  });
  test('AlreadyExists names the source too', () => {
    const c = createCluster({ seed: 2 });
    expect(runKubectl(c, 'create -f -', pod()).exitCode).toBe(0);
    expect(runKubectl(c, 'create -f -', pod()).stderr).toBe(
      'Error from server (AlreadyExists): error when creating "STDIN": pods "p" already exists\n',
    );
  });
  test('an owner reference without uid is Invalid; an update that adds a second controller too', () => {
    const c = createCluster({ seed: 2 });
    expect(
      runKubectl(c, 'create -f -', pod('  ownerReferences:\n  - {apiVersion: v1, kind: Pod, name: x}\n')).stderr,
    ).toBe('The Pod "p" is invalid: metadata.ownerReferences.uid: Invalid value: "": must not be empty\n');
    expect(
      runKubectl(
        c,
        'create -f -',
        pod('  ownerReferences:\n  - {apiVersion: v1, kind: Pod, name: x, uid: "1", controller: true}\n'),
      ).exitCode,
    ).toBe(0);
    const patch =
      '{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"x","uid":"1","controller":true},{"apiVersion":"v1","kind":"Pod","name":"y","uid":"2","controller":true}]}}';
    expect(runKubectl(c, `patch pod p --type=merge -p '${patch}'`).stderr).toMatch(
      /^The Pod "p" is invalid: metadata\.ownerReferences: Invalid value: \[.*\]: Only one reference can have Controller set to true\. Found "true" in references for Pod\/x and Pod\/y\n$/,
    );
  });
});
