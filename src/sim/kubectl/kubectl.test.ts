// Golden tests: command in, exact text out, against the fixture cluster. The expected text is what
// kubectl v1.37 prints for the same objects (written by hand from kubectl's printers/describers).
import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { runKubectl } from './kubectl.ts';
import { tokenize } from './tokenize.ts';
import { tabwrite, GET_TABS } from './tabwriter.ts';

const WEB_DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: api
        image: nginx:1.27
`;

function run(cmd: string, stdin?: string) {
  const c = fixtureCluster();
  return runKubectl(c, cmd, stdin);
}

describe('tokenize', () => {
  test('quotes and escapes', () => {
    expect(tokenize(`kubectl label pod x 'a=b c' "d=\\"e\\"" f\\ g`)).toEqual([
      'kubectl',
      'label',
      'pod',
      'x',
      'a=b c',
      'd="e"',
      'f g',
    ]);
  });
  test('unterminated quote is an error', () => {
    expect(runKubectl(fixtureCluster(), `get pods 'x`)).toEqual({
      stdout: '',
      stderr: 'error: unterminated quoted string\n',
      exitCode: 1,
    });
  });
});

describe('tabwriter', () => {
  test('minwidth 6, padding 3, last cell unpadded', () => {
    expect(tabwrite('A\tBB\tC\nxxxxxxxx\ty\tz\n', GET_TABS)).toBe('A          BB    C\nxxxxxxxx   y     z\n');
  });
});

describe('get', () => {
  test('pods', () => {
    expect(run('kubectl get pods')).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: `NAME                   READY   STATUS    RESTARTS   AGE
web-7c5ddbdf54-2xkqz   1/1     Running   0          9m55s
web-7c5ddbdf54-8mfvt   1/1     Running   0          9m55s
web-7c5ddbdf54-tn4hw   1/1     Running   0          9m55s
`,
    });
  });
  test('pods -o wide', () => {
    expect(run('get po -o wide').stdout).toBe(
      `NAME                   READY   STATUS    RESTARTS   AGE     IP           NODE     NOMINATED NODE   READINESS GATES
web-7c5ddbdf54-2xkqz   1/1     Running   0          9m55s   10.244.1.2   node-1   <none>           <none>
web-7c5ddbdf54-8mfvt   1/1     Running   0          9m55s   10.244.2.2   node-2   <none>           <none>
web-7c5ddbdf54-tn4hw   1/1     Running   0          9m55s   10.244.3.2   node-3   <none>           <none>
`,
    );
  });
  test('several kinds: kind.group/name and a blank line between tables', () => {
    expect(run('get deploy,rs,pods').stdout).toBe(
      `NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
deployment.apps/web   3/3     3            3           9m55s

NAME                             DESIRED   CURRENT   READY   AGE
replicaset.apps/web-7c5ddbdf54   3         3         3       9m55s

NAME                       READY   STATUS    RESTARTS   AGE
pod/web-7c5ddbdf54-2xkqz   1/1     Running   0          9m55s
pod/web-7c5ddbdf54-8mfvt   1/1     Running   0          9m55s
pod/web-7c5ddbdf54-tn4hw   1/1     Running   0          9m55s
`,
    );
  });
  test('deployments -o wide', () => {
    expect(run('get deployments -o wide').stdout).toBe(
      `NAME   READY   UP-TO-DATE   AVAILABLE   AGE     CONTAINERS   IMAGES       SELECTOR
web    3/3     3            3           9m55s   web          nginx:1.27   app=web
`,
    );
  });
  test('nodes, cordoned and NotReady', () => {
    const c = fixtureCluster();
    runKubectl(c, 'cordon node-2');
    const n3 = c.world.kubectl({ verb: 'get', resource: 'nodes', name: 'node-3' });
    const node = structuredClone((n3 as any).object);
    node.status.conditions[0].status = 'Unknown';
    c.world.kubectl({ verb: 'update', resource: 'nodes', name: 'node-3', subresource: 'status', body: node });
    expect(runKubectl(c, 'get nodes').stdout).toBe(
      `NAME     STATUS                     ROLES    AGE   VERSION
node-1   Ready                      <none>   10m   v1.37.2
node-2   Ready,SchedulingDisabled   <none>   10m   v1.37.2
node-3   NotReady                   <none>   10m   v1.37.2
`,
    );
  });
  test('-A adds NAMESPACE, --show-labels adds LABELS', () => {
    expect(run('get pods -A --show-labels -l app=web').stdout).toBe(
      `NAMESPACE   NAME                   READY   STATUS    RESTARTS   AGE     LABELS
default     web-7c5ddbdf54-2xkqz   1/1     Running   0          9m55s   app=web,pod-template-hash=7c5ddbdf54
default     web-7c5ddbdf54-8mfvt   1/1     Running   0          9m55s   app=web,pod-template-hash=7c5ddbdf54
default     web-7c5ddbdf54-tn4hw   1/1     Running   0          9m55s   app=web,pod-template-hash=7c5ddbdf54
`,
    );
  });
  test('one pod by name', () => {
    expect(run('get pod web-7c5ddbdf54-8mfvt').stdout).toBe(
      `NAME                   READY   STATUS    RESTARTS   AGE
web-7c5ddbdf54-8mfvt   1/1     Running   0          9m55s
`,
    );
  });
  test('-o name', () => {
    expect(run('get deploy,rs -o name').stdout).toBe('deployment.apps/web\nreplicaset.apps/web-7c5ddbdf54\n');
  });
  test('namespaces', () => {
    expect(run('get ns').stdout).toBe(
      `NAME              STATUS   AGE
default           Active   10m
kube-node-lease   Active   10m
kube-public       Active   10m
kube-system       Active   10m
`,
    );
  });
  test('events', () => {
    expect(run('get events').stdout).toBe(
      `LAST SEEN   TYPE     REASON              OBJECT                     MESSAGE
9m55s       Normal   Scheduled           pod/web-7c5ddbdf54-2xkqz   Successfully assigned default/web-7c5ddbdf54-2xkqz to node-1
9m55s       Normal   Pulled              pod/web-7c5ddbdf54-2xkqz   Container image "nginx:1.27" already present on machine
9m55s       Normal   ScalingReplicaSet   deployment/web             Scaled up replica set web-7c5ddbdf54 from 0 to 3
`,
    );
  });
  test('kubectl events: Kind/name objects, oldest first, --for and --types filter', () => {
    expect(run('events').stdout).toBe(
      `LAST SEEN   TYPE     REASON              OBJECT                     MESSAGE
9m55s       Normal   Scheduled           Pod/web-7c5ddbdf54-2xkqz   Successfully assigned default/web-7c5ddbdf54-2xkqz to node-1
9m55s       Normal   Pulled              Pod/web-7c5ddbdf54-2xkqz   Container image "nginx:1.27" already present on machine
9m55s       Normal   ScalingReplicaSet   Deployment/web             Scaled up replica set web-7c5ddbdf54 from 0 to 3
`,
    );
    const c = fixtureCluster();
    const r = runKubectl(c, 'events --for deploy/web -A');
    expect(r.stdout).toBe(
      `NAMESPACE   LAST SEEN   TYPE     REASON              OBJECT           MESSAGE
default     9m55s       Normal   ScalingReplicaSet   Deployment/web   Scaled up replica set web-7c5ddbdf54 from 0 to 3
`,
    );
    // One LIST of every namespace's Events (the API applied the involvedObject field selector).
    expect(c.log.at(-1)).toMatchObject({
      component: 'kubectl',
      verb: 'GET',
      path: '/api/v1/events?fieldSelector=involvedObject.kind%3DDeployment%2CinvolvedObject.name%3Dweb&limit=500',
      code: 200,
    });
    expect(run('events --types=Warning')).toEqual({
      stdout: '',
      stderr: 'No events found in default namespace.\n',
      exitCode: 0,
    });
    expect(run('events --types=Loud').stderr).toBe('error: valid --types are Normal or Warning\n');
    expect(run('events --for web').stderr).toBe('error: --for must be in resource/name form\n');
    expect(run('events --for pod/a/b').stderr).toBe(
      'error: arguments in resource/name form may not have more than one slash\n',
    );
  });
  test('kubectl api-resources: what this API server serves (the command the get errors point to)', () => {
    expect(run('api-resources --namespaced=false').stdout).toBe(
      `NAME              SHORTNAMES   APIVERSION             NAMESPACED   KIND
namespaces        ns           v1                     false        Namespace
nodes             no           v1                     false        Node
priorityclasses   pc           scheduling.k8s.io/v1   false        PriorityClass
`,
    );
    expect(run('api-resources -o name').stdout.split('\n')).toContain('deployments.apps');
    // Events are served in two groups (the scheduler writes events.k8s.io/v1's), core's first.
    expect(
      run('api-resources --no-headers')
        .stdout.split('\n')
        .filter((l) => l.startsWith('events ')),
    ).toEqual([
      expect.stringMatching(/^events\s+ev\s+v1\s+true\s+Event$/),
      expect.stringMatching(/^events\s+ev\s+events\.k8s\.io\/v1\s+true\s+Event$/),
    ]);
  });
  test("the default namespace holds the API server's own Service, as in every cluster", () => {
    expect(run('get svc').stdout).toBe(
      `NAME         TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE
kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   10m
`,
    );
  });
  test('nothing found goes to stderr', () => {
    expect(run('get svc -n kube-system')).toEqual({
      stdout: '',
      stderr: 'No resources found in kube-system namespace.\n',
      exitCode: 0,
    });
    expect(run('get leases -n kube-node-lease')).toEqual({
      stdout: '',
      stderr: 'No resources found in kube-node-lease namespace.\n',
      exitCode: 0,
    });
    expect(run('get pods -A -l app=none')).toEqual({ stdout: '', stderr: 'No resources found\n', exitCode: 0 });
  });
  test('-o json of a list is a v1 List with apiVersion and kind on every item', () => {
    const out = run('get pods -o json').stdout;
    const v = JSON.parse(out);
    expect(v.kind).toBe('List');
    expect(v.apiVersion).toBe('v1');
    expect(v.metadata).toEqual({ resourceVersion: '' });
    expect(v.items).toHaveLength(3);
    for (const it of v.items) {
      expect(it.apiVersion).toBe('v1');
      expect(it.kind).toBe('Pod');
    }
    expect(
      out.startsWith(
        '{\n    "apiVersion": "v1",\n    "items": [\n        {\n            "apiVersion": "v1",\n            "kind": "Pod",',
      ),
    ).toBe(true);
    expect(
      out.endsWith('    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n'),
    ).toBe(true);
  });
  test('-o yaml of one object', () => {
    const out = run('get ns default -o yaml').stdout;
    expect(out).toMatch(
      /^apiVersion: v1\nkind: Namespace\nmetadata:\n  creationTimestamp: "2026-01-01T00:00:00Z"\n  labels:\n    kubernetes.io\/metadata.name: default\n  name: default\n  resourceVersion: "\d+"\n  uid: [0-9a-f-]+\nspec:\n  finalizers:\n  - kubernetes\nstatus:\n  phase: Active\n$/,
    );
  });
  test('describe namespace', () => {
    expect(run('describe ns kube-system').stdout).toBe(
      `Name:         kube-system
Labels:       kubernetes.io/metadata.name=kube-system
Annotations:  <none>
Status:       Active

No resource quota.

No LimitRange resource.
`,
    );
  });
});

describe('errors', () => {
  test.each([
    ['get deployment x', 'Error from server (NotFound): deployments.apps "x" not found\n'],
    ['frobnicate', 'error: unknown command "frobnicate" for "kubectl"\n'],
    ['get widgets', 'error: the server doesn\'t have a resource type "widgets"\n'],
    ['get pods --x', "error: unknown flag: --x\nSee 'kubectl get --help' for usage.\n"],
    ['get pods -z', "error: unknown shorthand flag: 'z' in -z\nSee 'kubectl get --help' for usage.\n"],
    ['scale deploy web', 'error: required flag(s) "replicas" not set\n'],
    [
      'scale deploy web --replicas=-1',
      'error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n',
    ],
    ['create deployment x', 'error: required flag(s) "image" not set\n'],
    ['rollout undo deploy/web --to-revision=7', 'error: unable to find specified revision 7 in history\n'],
  ])('%s', (cmd, stderr) => {
    expect(run(cmd)).toEqual({ stdout: '', stderr, exitCode: 1 });
  });
  test('control plane down', () => {
    const c = fixtureCluster();
    c.controlPlane('stop');
    expect(runKubectl(c, 'get pods')).toEqual({
      stdout: '',
      stderr: 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n',
      exitCode: 1,
    });
    expect(runKubectl(c, 'version')).toEqual({
      stdout: 'Client Version: v1.37.2\nKustomize Version: v5.8.1\n',
      stderr: 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n',
      exitCode: 1,
    });
  });
  test('validation error from apply', () => {
    const r = run('apply -f -', WEB_DEPLOY.replace('replicas: 2', 'replicas: -1'));
    expect(r).toEqual({
      stdout: '',
      stderr: 'The Deployment "api" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n',
      exitCode: 1,
    });
  });
});

describe('mutations', () => {
  test('apply: created, unchanged, configured', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'apply -f -', WEB_DEPLOY)).toEqual({
      stdout: 'deployment.apps/api created\n',
      stderr: '',
      exitCode: 0,
    });
    expect(runKubectl(c, 'kubectl apply -f -', WEB_DEPLOY).stdout).toBe('deployment.apps/api unchanged\n');
    expect(runKubectl(c, 'apply -f -', WEB_DEPLOY.replace('replicas: 2', 'replicas: 4')).stdout).toBe(
      'deployment.apps/api configured\n',
    );
    expect(runKubectl(c, 'get deploy api -o json').stdout).toContain('"replicas": 4');
  });
  test('apply: several documents, JSON too', () => {
    const svc =
      '{"apiVersion":"v1","kind":"Service","metadata":{"name":"api"},"spec":{"selector":{"app":"api"},"ports":[{"port":80}]}}';
    expect(run('apply -f -', `${WEB_DEPLOY}---\n${svc}\n`).stdout).toBe(
      'deployment.apps/api created\nservice/api created\n',
    );
  });
  test('apply: limits', () => {
    expect(run('apply -f -', 'a: 1\n'.repeat(14000)).stderr).toMatch(
      /^error: STDIN: manifest is \d+ bytes, more than the 64 KiB this simulator accepts\n$/,
    );
    expect(
      run(
        'apply -f -',
        Array.from({ length: 21 }, () => 'kind: Namespace\napiVersion: v1\nmetadata: {name: x}\n').join('---\n'),
      ).stderr,
    ).toBe('error: STDIN: 21 documents, more than the 20 this simulator accepts\n');
    const bomb =
      'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';
    const r = run('apply -f -', bomb);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      'error: error parsing STDIN: error converting YAML to JSON: yaml: document contains excessive aliasing\n',
    );
    // The builder quotes its source (%q): "STDIN", as real kubectl prints it; apply, create -f and delete -f alike.
    const mapping =
      'error: resource mapping not found for name: "w" namespace: "" from "STDIN": no matches for kind "Widget" in version "v1"\nensure CRDs are installed first\n';
    expect(run('apply -f -', 'apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n').stderr).toBe(mapping);
    expect(run('create -f -', 'apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n').stderr).toBe(mapping);
    expect(run('delete -f -', 'apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n')).toEqual({
      stdout: '',
      stderr: mapping,
      exitCode: 1,
    });
    // A known kind in a version the server does not serve it in, with the object's namespace.
    expect(run('delete -f -', 'apiVersion: v1\nkind: Deployment\nmetadata: {name: d, namespace: dev}\n').stderr).toBe(
      'error: resource mapping not found for name: "d" namespace: "dev" from "STDIN": no matches for kind "Deployment" in version "v1"\nensure CRDs are installed first\n',
    );
  });
  test('apply, create -f, delete -f: several errors print one a line without "error: " (MultipleErrors); the good objects still go through', () => {
    const c = fixtureCluster();
    const two = (kind: string) =>
      `apiVersion: v1\nkind: ${kind}\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ${kind}\nmetadata: {name: b}\n`;
    const lines = (names: string[]) =>
      names
        .map(
          (n) =>
            `resource mapping not found for name: "${n}" namespace: "" from "STDIN": no matches for kind "Widget" in version "v1"\nensure CRDs are installed first\n`,
        )
        .join('');
    const svc =
      'apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  selector: {app: s}\n  ports: [{port: 80}]\n';
    const applied = runKubectl(c, 'apply -f -', `${two('Widget')}---\n${svc}`);
    expect(applied).toEqual({ stdout: 'service/s created\n', stderr: lines(['a', 'b']), exitCode: 1 });
    expect(runKubectl(c, 'create -f -', two('Widget')).stderr).toBe(lines(['a', 'b']));
    // delete: the error is returned before any wait; the Service was deleted all the same.
    const from = c.log.length;
    const deleted = runKubectl(c, 'delete -f -', `${two('Widget')}---\n${svc}`);
    expect(deleted).toEqual({
      stdout: 'service "s" deleted from default namespace\n',
      stderr: lines(['a', 'b']),
      exitCode: 1,
    });
    expect(
      c.log
        .slice(from)
        .filter((x) => x.component === 'kubectl' && x.kind === 'request')
        .map((x) => x.verb),
    ).toEqual(['DELETE']);
  });
  test('create deployment, scale, set image, label, expose', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'create deployment api --image=nginx:1.27 --replicas=2 --port=80').stdout).toBe(
      'deployment.apps/api created\n',
    );
    expect(runKubectl(c, 'scale deployment/api --replicas=5').stdout).toBe('deployment.apps/api scaled\n');
    expect(runKubectl(c, 'set image deployment/api nginx=nginx:1.28').stdout).toBe(
      'deployment.apps/api image updated\n',
    );
    expect(runKubectl(c, 'set image deployment/api nope=nginx:1.28').stderr).toBe(
      'error: unable to find container named "nope"\n',
    );
    expect(runKubectl(c, 'label deployment api tier=backend').stdout).toBe('deployment.apps/api labeled\n');
    expect(runKubectl(c, 'label deployment api tier=frontend').stderr).toBe(
      "error: 'tier' already has a value (backend), and --overwrite is false\n",
    );
    expect(runKubectl(c, 'label deployment api tier-').stdout).toBe('deployment.apps/api unlabeled\n');
    expect(runKubectl(c, 'expose deployment api --port=80 --target-port=8080').stdout).toBe('service/api exposed\n');
    expect(runKubectl(c, 'get deploy api -o wide').stdout).toBe(
      `NAME   READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES       SELECTOR
api    0/5     0            0           0s    nginx        nginx:1.28   app=api
`,
    );
    const svc = runKubectl(c, 'get svc api').stdout.split('\n');
    expect(svc[0]).toBe(
      'NAME   TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)   AGE'.replace(
        'CLUSTER-IP      ',
        'CLUSTER-IP' + ' '.repeat(svc[0].indexOf('EXTERNAL-IP') - svc[0].indexOf('CLUSTER-IP') - 10),
      ),
    );
    expect(svc[1]).toMatch(/^api    ClusterIP   10\.\d+\.\d+\.\d+ +<none>        80\/TCP    0s$/);
  });
  test('delete, force delete', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'delete deployment web')).toEqual({
      stdout: 'deployment.apps "web" deleted from default namespace\n',
      stderr: '',
      exitCode: 0,
    });
    expect(runKubectl(c, 'delete pod web-7c5ddbdf54-2xkqz --grace-period=0 --force')).toEqual({
      stdout: 'pod "web-7c5ddbdf54-2xkqz" force deleted from default namespace\n',
      stderr:
        'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
      exitCode: 0,
    });
    expect(runKubectl(c, 'delete pod web-7c5ddbdf54-2xkqz').stderr).toBe(
      'Error from server (NotFound): pods "web-7c5ddbdf54-2xkqz" not found\n',
    );
    expect(runKubectl(c, 'delete pods -l app=web --wait=false').stdout).toBe(
      'pod "web-7c5ddbdf54-8mfvt" deleted from default namespace\npod "web-7c5ddbdf54-tn4hw" deleted from default namespace\n',
    );
    expect(runKubectl(c, 'delete node node-3').stdout).toBe('node "node-3" deleted\n');
  });
  test('rollout: history, pause, resume, restart, undo', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'rollout history deployment/web').stdout).toBe(
      'deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n\n',
    );
    expect(runKubectl(c, 'rollout undo deployment/web').stderr).toBe(
      'error: no rollout history found for deployment "web"\n',
    );
    expect(runKubectl(c, 'rollout undo deployment/web --to-revision=1').stdout).toBe(
      'deployment.apps/web skipped rollback (current template already matches revision 1)\n',
    );
    expect(runKubectl(c, 'rollout pause deployment/web').stdout).toBe('deployment.apps/web paused\n');
    expect(runKubectl(c, 'rollout pause deployment/web').stderr).toBe(
      'error: deployments.apps "web" is already paused\n',
    );
    // rollback.go finds the revision first, then refuses a paused Deployment.
    expect(runKubectl(c, 'rollout undo deployment/web').stderr).toBe(
      'error: no rollout history found for deployment "web"\n',
    );
    expect(runKubectl(c, 'rollout undo deployment/web --to-revision=1').stderr).toBe(
      "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again\n",
    );
    expect(runKubectl(c, 'rollout undo deployment/web --to-revision=-1').stderr).toBe(
      'error: unable to find specified revision -1 in history\n',
    );
    expect(runKubectl(c, 'rollout resume deployment/web').stdout).toBe('deployment.apps/web resumed\n');
    expect(runKubectl(c, 'rollout restart deployment/web').stdout).toBe('deployment.apps/web restarted\n');
    expect(runKubectl(c, 'get deploy web -o json').stdout).toContain(
      '"kubectl.kubernetes.io/restartedAt": "2026-01-01T00:10:00Z"',
    );
    expect(runKubectl(c, 'rollout undo deployment/web --to-revision=1').stdout).toBe(
      'deployment.apps/web rolled back\n',
    );
    expect(runKubectl(c, 'get deploy web -o json').stdout).not.toContain('restartedAt');
  });
  test('rollout status: done at once, or waits on the spec update', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'rollout status deployment/web').stdout).toBe('deployment "web" successfully rolled out\n');
    runKubectl(c, 'scale deploy web --replicas=4');
    const r = runKubectl(c, 'rollout status deploy/web');
    expect(r.stdout).toBe('Waiting for deployment spec update to be observed...\n');
    expect(r.stderr).toBe('error: timed out waiting for the condition\n');
  });
  test('cordon, uncordon, taint', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'cordon node-1').stdout).toBe('node/node-1 cordoned\n');
    expect(runKubectl(c, 'cordon node-1').stdout).toBe('node/node-1 already cordoned\n');
    expect(runKubectl(c, 'uncordon node-1').stdout).toBe('node/node-1 uncordoned\n');
    expect(runKubectl(c, 'taint nodes node-1 dedicated=gpu:NoSchedule').stdout).toBe('node/node-1 tainted\n');
    expect(runKubectl(c, 'taint nodes node-1 dedicated=gpu:NoSchedule').stderr).toBe(
      'error: node node-1 already has dedicated taint(s) with same effect(s) and --overwrite is false\n',
    );
    expect(runKubectl(c, 'taint nodes node-1 dedicated:NoSchedule-').stdout).toBe('node/node-1 untainted\n');
    expect(runKubectl(c, 'taint nodes node-1 dedicated=gpu:Sometimes').stderr).toBe(
      'error: invalid taint effect: Sometimes, unsupported taint effect\n',
    );
  });
  test('drain evicts through the eviction subresource', () => {
    const c = fixtureCluster();
    const r = runKubectl(c, 'drain node-1 --ignore-daemonsets');
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([
      'node/node-1 cordoned',
      'evicting pod default/web-7c5ddbdf54-2xkqz',
    ]);
    expect(
      c.log.some(
        (x) =>
          x.verb === 'POST' &&
          x.path === '/api/v1/namespaces/default/pods/web-7c5ddbdf54-2xkqz/eviction' &&
          x.code === 201,
      ),
    ).toBe(true);
  });
  test('drain refuses bare pods without --force', () => {
    const c = fixtureCluster();
    c.create('pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bare' },
      spec: { nodeName: 'node-2', containers: [{ name: 'c', image: 'busybox' }] },
    });
    expect(runKubectl(c, 'drain node-2 --ignore-daemonsets')).toEqual({
      stdout: 'node/node-2 cordoned\n',
      stderr:
        'error: unable to drain node "node-2" due to error: cannot delete Pods that declare no controller (use --force to override): default/bare, continuing command...\nThere are pending nodes to be drained:\n node-2\ncannot delete Pods that declare no controller (use --force to override): default/bare\n',
      exitCode: 1,
    });
    // With --force they go, with a warning, and drain waits for them with GETs (this fixture has no
    // kubelet to finish the deletions, so it waits until its timeout).
    const from = c.log.length;
    const r = runKubectl(c, 'drain node-2 --ignore-daemonsets --force --timeout=3s');
    expect(r.stderr.split('\n')[0]).toBe('Warning: deleting Pods that declare no controller: default/bare');
    expect(r.stdout).toContain('evicting pod default/bare\n');
    expect(c.log.slice(from).some((x) => x.verb === 'GET' && x.path === '/api/v1/namespaces/default/pods/bare')).toBe(
      true,
    );
  });
  test('cluster-info, version', () => {
    expect(run('cluster-info').stdout).toBe(
      "Kubernetes control plane is running at https://127.0.0.1:6443\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n",
    );
    expect(run('version').stdout).toBe('Client Version: v1.37.2\nKustomize Version: v5.8.1\nServer Version: v1.37.2\n');
  });
});

describe('describe', () => {
  test('deployment', () => {
    expect(run('describe deployment web').stdout).toBe(
      `Name:                   web
Namespace:              default
CreationTimestamp:      Thu, 01 Jan 2026 00:00:05 +0000
Labels:                 app=web
Annotations:            <none>
Selector:               app=web
Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        0
RollingUpdateStrategy:  25% max unavailable, 25% max surge
Pod Template:
  Labels:  app=web
  Containers:
   web:
    Image:         nginx:1.27
    Port:          80/TCP
    Host Port:     0/TCP
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Conditions:
  Type           Status  Reason
  ----           ------  ------
  Available      True    MinimumReplicasAvailable
  Progressing    True    NewReplicaSetAvailable
OldReplicaSets:  <none>
NewReplicaSet:   web-7c5ddbdf54 (3/3 replicas created)
Events:
  Type    Reason             Age    From                   Message
  ----    ------             ----   ----                   -------
  Normal  ScalingReplicaSet  9m55s  deployment-controller  Scaled up replica set web-7c5ddbdf54 from 0 to 3
`,
    );
  });
  test('pod', () => {
    expect(run('describe pod web-7c5ddbdf54-2xkqz').stdout).toBe(
      `Name:             web-7c5ddbdf54-2xkqz
Namespace:        default
Priority:         0
Service Account:  default
Node:             node-1/10.0.0.11
Start Time:       Thu, 01 Jan 2026 00:00:05 +0000
Labels:           app=web
                  pod-template-hash=7c5ddbdf54
Annotations:      <none>
Status:           Running
IP:               10.244.1.2
IPs:
  IP:           10.244.1.2
Controlled By:  ReplicaSet/web-7c5ddbdf54
Containers:
  web:
    Container ID:   containerd://111111111111
    Image:          nginx:1.27
    Image ID:       docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31
    Port:           80/TCP
    Host Port:      0/TCP
    State:          Running
      Started:      Thu, 01 Jan 2026 00:00:05 +0000
    Ready:          True
    Restart Count:  0
    Environment:    <none>
    Mounts:
      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-sx97q (ro)
Conditions:
  Type                        Status
  PodReadyToStartContainers   True 
  Initialized                 True 
  Ready                       True 
  ContainersReady             True 
  PodScheduled                True 
Volumes:
  kube-api-access-sx97q:
    Type:                    Projected (a volume that contains injected data from multiple sources)
    TokenExpirationSeconds:  3607
    ConfigMapName:           kube-root-ca.crt
    Optional:                false
    DownwardAPI:             true
QoS Class:                   BestEffort
Node-Selectors:              <none>
Tolerations:                 <none>
Events:
  Type    Reason     Age    From               Message
  ----    ------     ----   ----               -------
  Normal  Scheduled  9m55s  default-scheduler  Successfully assigned default/web-7c5ddbdf54-2xkqz to node-1
  Normal  Pulled     9m55s  kubelet            Container image "nginx:1.27" already present on machine
`,
    );
  });
  test('node (head)', () => {
    expect(run('describe node node-1').stdout.split('\n').slice(0, 9).join('\n')).toBe(
      `Name:               node-1
Roles:              <none>
Labels:             kubernetes.io/arch=amd64
                    kubernetes.io/hostname=node-1
                    kubernetes.io/os=linux
Annotations:        <none>
CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
Taints:             <none>
Unschedulable:      false`,
    );
  });
});

describe('empty words (found by the fuzz test)', () => {
  test('a trailing backslash continues the line; an empty type or name is refused as kubectl does', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'kubectl get \\').stderr).toMatch(/^You must specify the type of resource to get/);
    expect(runKubectl(c, 'kubectl get ""')).toMatchObject({
      exitCode: 1,
      stderr: 'error: the server doesn\'t have a resource type ""\n',
    });
    expect(runKubectl(c, 'kubectl get pods,')).toMatchObject({
      exitCode: 1,
      stderr: 'error: the server doesn\'t have a resource type ""\n',
    });
    expect(runKubectl(c, 'kubectl get pods ""')).toMatchObject({
      exitCode: 1,
      stderr: 'error: resource name may not be empty\n',
    });
    expect(runKubectl(c, 'kubectl get pods,pods').exitCode).toBe(0);
  });
});
