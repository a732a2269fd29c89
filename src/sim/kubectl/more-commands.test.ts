// kubectl run, patch, annotate and top against a running cluster (in their own file: a Cluster
// registers the cluster's admission plugins module-wide, which the fixture-based goldens must not see).
import { describe, expect, test } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import { createCluster } from '../cluster.ts';
import { camelcaseSplit, smartLabelFor } from './describe.ts';
import { runKubectl } from './kubectl.ts';

function cluster() {
  const c = createCluster({ seed: 5 });
  runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
  c.settle();
  return c;
}

describe('run, patch, annotate, top', () => {
  test('kubectl run makes one bare pod, labelled run=NAME, that the kubelet starts', () => {
    const c = cluster();
    expect(runKubectl(c, 'run probe --image=nginx:1.27 --restart=Never --port=8080 -- sleep 3600')).toEqual({
      stdout: 'pod/probe created\n',
      stderr: '',
      exitCode: 0,
    });
    c.advance(10_000);
    const pod = (c.world.state.store.objects.pods as Record<string, Pod>)['/registry/pods/default/probe'];
    expect(pod.metadata?.labels).toEqual({ run: 'probe' });
    expect(pod.metadata?.ownerReferences).toBeUndefined();
    expect(pod.spec?.restartPolicy).toBe('Never');
    expect(pod.spec?.containers[0]).toMatchObject({
      name: 'probe',
      image: 'nginx:1.27',
      args: ['sleep', '3600'],
      ports: [{ containerPort: 8080 }],
    });
    expect(pod.status?.phase).toBe('Running');
    expect(runKubectl(c, 'run nameless').stderr).toBe('error: required flag(s) "image" not set\n');
  });

  test('kubectl patch: strategic by default, merge on request; a patch that changes nothing says so', () => {
    const c = cluster();
    expect(runKubectl(c, `patch deployment web -p '{"spec":{"replicas":3}}'`).stdout).toBe(
      'deployment.apps/web patched\n',
    );
    expect(runKubectl(c, `patch deployment web -p '{"spec":{"replicas":3}}'`).stdout).toBe(
      'deployment.apps/web patched (no change)\n',
    );
    expect(runKubectl(c, `patch deploy web --type merge -p '{"metadata":{"labels":{"tier":"front"}}}'`).stdout).toBe(
      'deployment.apps/web patched\n',
    );
    c.advance(10_000);
    expect(runKubectl(c, 'get deploy web --show-labels').stdout).toMatch(/web\s+3\/3.*tier=front/);
    expect(runKubectl(c, "patch deploy web -p '{oops'").stderr).toMatch(/^error: unable to parse "\{oops": /);
    expect(runKubectl(c, 'patch deploy web').stderr).toBe(
      'error: must specify --patch or --patch-file containing the contents of the patch\n',
    );
  });

  test("kubectl patch --type json: RFC 6902 operations, refused ones as kubectl prints the server's answer", () => {
    const c = cluster();
    const ok = (stdout: string) => ({ stdout, stderr: '', exitCode: 0 });
    expect(
      runKubectl(c, `patch deployment web --type json -p '[{"op":"replace","path":"/spec/replicas","value":3}]'`),
    ).toEqual(ok('deployment.apps/web patched\n'));
    expect(
      runKubectl(
        c,
        `patch deployment web --type=json -p='[{"op":"test","path":"/spec/replicas","value":3},{"op":"replace","path":"/spec/replicas","value":3}]'`,
      ),
    ).toEqual(ok('deployment.apps/web patched (no change)\n'));
    expect(
      runKubectl(c, `patch deploy/web --type JSON -p '[{"op":"add","path":"/metadata/labels/tier","value":"front"}]'`),
    ).toEqual(ok('deployment.apps/web patched\n'));
    // YAML is accepted too (kubectl converts it to JSON before sending).
    expect(runKubectl(c, `patch deploy web --type json -p '- {op: remove, path: /metadata/labels/tier}'`)).toEqual(
      ok('deployment.apps/web patched\n'),
    );
    // NewGenericServerResponse's 422 carries no kind, name or causes: checkErr adds the fixed message.
    const failed = {
      stdout: '',
      stderr: 'The request is invalid: the server rejected our request due to an error in our request\n',
      exitCode: 1,
    };
    expect(
      runKubectl(c, `patch deploy web --type json -p '[{"op":"test","path":"/spec/replicas","value":5}]'`),
    ).toEqual(failed);
    expect(runKubectl(c, `patch deploy web --type json -p '[{"op":"remove","path":"/spec/nothing"}]'`)).toEqual(failed);
    expect(
      runKubectl(
        c,
        `patch deploy web --type json -p '[{"op":"replace","path":"/spec/template/spec/containers/3/image","value":"x"}]'`,
      ),
    ).toEqual(failed);
    // kubectl sends a patch that is not a list as it is; the server's strict decoding refuses it.
    expect(runKubectl(c, `patch deploy web --type json -p '{"op":"add","path":"/a","value":1}'`)).toEqual({
      stdout: '',
      stderr:
        'Error from server (BadRequest): error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp\n',
      exitCode: 1,
    });
    expect(
      runKubectl(c, `patch deploy web --type json -p '[{"op":"replace","path":"/spec/replicas","value":-1}]'`).stderr,
    ).toBe('The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n');
    expect(runKubectl(c, `patch deploy nope --type json -p '[]'`).stderr).toBe(
      'Error from server (NotFound): deployments.apps "nope" not found\n',
    );
    expect(runKubectl(c, `patch deploy web --type json -p '[{oops'`).stderr).toMatch(
      /^error: unable to parse "\[\{oops": /,
    );
    expect(runKubectl(c, `patch deploy web --type jsonpatch -p '[]'`).stderr).toBe(
      'error: --type must be one of [json merge strategic], not "jsonpatch"\n',
    );
    c.advance(10_000);
    expect(runKubectl(c, 'get deploy web').stdout).toMatch(/web\s+3\/3/);
  });

  test('kubectl patch --patch-file, and --subresource status|scale with a JSON patch', () => {
    const c = cluster();
    const files: Record<string, string> = {
      'scale.json': '[{"op":"replace","path":"/spec/replicas","value":4}]',
      'status.yaml': '- op: replace\n  path: /status/observedGeneration\n  value: 42\n',
    };
    const host = { readFile: (f: string) => files[f] };
    expect(
      runKubectl(c, 'patch deploy web --type json --subresource scale --patch-file scale.json', undefined, host),
    ).toEqual({ stdout: 'deployment.apps/web patched\n', stderr: '', exitCode: 0 });
    const d = () =>
      (
        c.world.state.store.objects.deployments as Record<
          string,
          { spec: { replicas: number }; status: { observedGeneration?: number } }
        >
      )['/registry/deployments/default/web'];
    expect(d().spec.replicas).toBe(4);
    expect(
      runKubectl(c, 'patch deploy web --type json --subresource status --patch-file status.yaml', undefined, host)
        .stdout,
    ).toBe('deployment.apps/web patched\n');
    expect(d().status.observedGeneration).toBe(42);
    // The status subresource keeps only the status: a spec operation through it changes nothing.
    expect(
      runKubectl(
        c,
        `patch deploy web --type json --subresource status -p '[{"op":"replace","path":"/spec/replicas","value":9}]'`,
      ).stdout,
    ).toBe('deployment.apps/web patched (no change)\n');
    expect(runKubectl(c, 'patch deploy web --type json --patch-file missing.json', undefined, host).stderr).toBe(
      'error: unable to read patch file: open missing.json: no such file or directory\n',
    );
    expect(runKubectl(c, `patch deploy web --type json -p '[]' --patch-file scale.json`, undefined, host).stderr).toBe(
      'error: cannot specify --patch and --patch-file together\n',
    );
  });

  test('kubectl annotate: an existing value needs --overwrite; k- removes', () => {
    const c = cluster();
    expect(runKubectl(c, 'annotate deployment web team=blue').stdout).toBe('deployment.apps/web annotated\n');
    expect(runKubectl(c, 'annotate deployment web team=red').stderr).toBe(
      "error: --overwrite is false but found the following declared annotation(s): 'team' already has a value (blue)\n",
    );
    runKubectl(c, 'annotate deployment web team=red --overwrite');
    const annotations = () =>
      (
        c.world.state.store.objects.deployments as Record<
          string,
          { metadata: { annotations?: Record<string, string> } }
        >
      )['/registry/deployments/default/web'].metadata.annotations ?? {};
    expect(annotations().team).toBe('red');
    runKubectl(c, 'annotate deployment web team-');
    expect('team' in annotations()).toBe(false);
  });

  test('kubectl get all: pods, services, deployments and replicasets, each table with kind prefixes', () => {
    const c = cluster();
    const out = runKubectl(c, 'get all')
      .stdout.split('\n\n')
      .map((t) => t.split('\n')[1]?.split(/\s+/)[0]);
    expect(out).toEqual([
      expect.stringMatching(/^pod\/web-/),
      'service/kubernetes',
      'deployment.apps/web',
      expect.stringMatching(/^replicaset\.apps\/web-/),
    ]);
    // A fresh cluster's default namespace holds the API server's own Service, as a real one does.
    expect(runKubectl(createCluster({ seed: 5 }), 'get all').stdout).toBe(
      `NAME                 TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE
service/kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   0s
`,
    );
  });

  test("kubectl describe service: its fields in kubectl's order, Endpoints from its EndpointSlices", () => {
    const c = cluster();
    runKubectl(c, 'expose deployment web --port=80 --target-port=8080');
    c.advance(5_000);
    const out = runKubectl(c, 'describe svc web').stdout.split('\n');
    expect(out.slice(0, 6)).toEqual([
      'Name:                     web',
      'Namespace:                default',
      'Labels:                   app=web',
      'Annotations:              <none>',
      'Selector:                 app=web',
      'Type:                     ClusterIP',
    ]);
    expect(out).toContain('Port:                     <unset>  80/TCP');
    expect(out).toContain('TargetPort:               8080/TCP');
    expect(out.find((l) => l.startsWith('Endpoints:'))).toMatch(
      /^Endpoints: {16}10\.244\.\d+\.\d+:8080,10\.244\.\d+\.\d+:8080$/,
    );
    expect(runKubectl(c, 'describe svc kubernetes').stdout).toContain(
      'Port:                     https  443/TCP\nTargetPort:               6443/TCP\n',
    );
  });

  test('kubectl top: no metrics-server in this cluster, as on a fresh kubeadm cluster', () => {
    const c = cluster();
    expect(runKubectl(c, 'top pods')).toEqual({
      stdout: '',
      stderr: 'error: Metrics API not available\n',
      exitCode: 1,
    });
    expect(runKubectl(c, 'top node').stderr).toBe('error: Metrics API not available\n');
  });
});

describe('real commands the simulator leaves out', () => {
  test('say so and point to what works here, instead of "unknown command"', () => {
    const c = cluster();
    const exec = runKubectl(c, 'exec -it web -- sh');
    expect(exec).toEqual({
      stdout: '',
      stderr:
        'error: kubectl exec is a real command that this simulator does not run: the simulated containers run no processes to start a shell or a command in (kubectl logs and describe pod show what they do)\n',
      exitCode: 1,
    });
    for (const cmd of [
      'attach',
      'port-forward',
      'proxy',
      'cp',
      'debug',
      'edit',
      'replace',
      'autoscale',
      'config',
      'diff',
    ]) {
      const r = runKubectl(c, `${cmd} x`);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(`^error: kubectl ${cmd} is a real command that this simulator does not run: .+\\n$`),
      );
    }
    expect(runKubectl(c, 'frobnicate').stderr).toBe('error: unknown command "frobnicate" for "kubectl"\n');
  });
});

describe('get -L, create namespace and service, api-versions', () => {
  test('-L adds one column per label key (its last segment, in capitals); repeated or comma-separated', () => {
    const c = cluster();
    runKubectl(c, 'label pods --selector app=web tier=front');
    const out = runKubectl(c, 'get pods -L app -L example.com/tier,tier').stdout.split('\n');
    expect(out[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+APP\s+TIER\s+TIER$/);
    expect(out[1]).toMatch(/\s+web\s+front$/); // the missing example.com/tier label is an empty cell
  });

  test('create namespace, and AlreadyExists the second time', () => {
    const c = cluster();
    expect(runKubectl(c, 'create namespace dev')).toEqual({
      stdout: 'namespace/dev created\n',
      stderr: '',
      exitCode: 0,
    });
    expect(runKubectl(c, 'create ns dev').stderr).toBe(
      'Error from server (AlreadyExists): namespaces "dev" already exists\n',
    );
    expect(runKubectl(c, 'get ns dev --show-labels').stdout).toMatch(
      /dev\s+Active\s+0s\s+kubernetes.io\/metadata.name=dev/,
    );
  });

  test('create service clusterip/nodeport: selector and label app=NAME, ports named from --tcp, a NodePort from the upper band', () => {
    const c = cluster();
    expect(runKubectl(c, 'create service clusterip db --tcp=5432:5432,8080:http')).toEqual({
      stdout: 'service/db created\n',
      stderr: '',
      exitCode: 0,
    });
    const db = JSON.parse(runKubectl(c, 'get svc db -o json').stdout);
    expect(db.metadata.labels).toEqual({ app: 'db' });
    expect(db.spec.selector).toEqual({ app: 'db' });
    expect(db.spec.ports).toEqual([
      { name: '5432-5432', port: 5432, protocol: 'TCP', targetPort: 5432 },
      { name: '8080-http', port: 8080, protocol: 'TCP', targetPort: 'http' },
    ]);
    expect(runKubectl(c, 'create service nodeport web --tcp=80:80')).toEqual({
      stdout: 'service/web created\n',
      stderr: '',
      exitCode: 0,
    });
    const web = JSON.parse(runKubectl(c, 'get svc web -o json').stdout);
    const nodePort = web.spec.ports[0].nodePort;
    expect(nodePort).toBeGreaterThanOrEqual(30086);
    expect(nodePort).toBeLessThanOrEqual(32767);
    expect(runKubectl(c, 'get svc web').stdout).toMatch(
      new RegExp(`web\\s+NodePort\\s+10\\.\\d+\\.\\d+\\.\\d+\\s+<none>\\s+80:${nodePort}/TCP`),
    );
    expect(runKubectl(c, 'create service nodeport fixed --tcp=80 --node-port=30080').exitCode).toBe(0);
    expect(JSON.parse(runKubectl(c, 'get svc fixed -o json').stdout).spec.ports[0]).toMatchObject({
      name: '80',
      port: 80,
      targetPort: 80,
      nodePort: 30080,
    });
    expect(runKubectl(c, 'create service clusterip x').stderr).toBe(
      'error: at least one tcp port specifier must be provided\n',
    );
    expect(runKubectl(c, 'create service clusterip db --tcp=80').stderr).toBe(
      'error: failed to create ClusterIP service: services "db" already exists\n',
    );
    expect(runKubectl(c, 'create service clusterip x --tcp=http').stderr).toBe(
      'error: strconv.ParseUint: parsing "http": invalid syntax\n',
    );
    expect(runKubectl(c, 'create service clusterip x --tcp=80:Web--1').stderr).toBe(
      'error: must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-),must not contain consecutive hyphens\n',
    );
    expect(runKubectl(c, 'create deployment web --image=nginx:1.27').stderr).toBe(
      'error: failed to create deployment: deployments.apps "web" already exists\n',
    );
    expect(runKubectl(c, 'create service loadbalancer x --tcp=80').stderr).toMatch(
      /^error: kubectl create service loadbalancer is a real command that this simulator does not run/,
    );
    expect(runKubectl(c, 'create secret generic s --from-literal=a=b').stderr).toBe(
      'error: kubectl create secret is a real command that this simulator does not run: the simulated cluster has no Secrets\n',
    );
  });

  test('create service externalname: no address, no IP families, its name in EXTERNAL-IP, and CoreDNS answers with it', () => {
    const c = cluster();
    expect(runKubectl(c, 'create service externalname ext --external-name example.com')).toEqual({
      stdout: 'service/ext created\n',
      stderr: '',
      exitCode: 0,
    });
    const ext = JSON.parse(runKubectl(c, 'get svc ext -o json').stdout);
    // SetDefaults_Service and initIPFamilyFields leave an ExternalName Service without these.
    expect(ext.spec).toEqual({
      externalName: 'example.com',
      selector: { app: 'ext' },
      sessionAffinity: 'None',
      type: 'ExternalName',
    });
    expect(runKubectl(c, 'get svc ext').stdout).toMatch(
      /^ext\s+ExternalName\s+<none>\s+example\.com\s+<none>\s+\d+s$/m,
    );
    expect(runKubectl(c, 'create service externalname x').stderr).toBe(
      'error: required flag(s) "external-name" not set\n',
    );
    expect(runKubectl(c, 'create service externalname x --external-name Bad_Name').stderr).toBe(
      'error: invalid service external name Bad_Name\n',
    );
  });

  test('api-versions lists what api-resources serves', () => {
    const c = cluster();
    const versions = runKubectl(c, 'api-versions').stdout.trim().split('\n');
    expect(versions).toContain('v1');
    expect(versions).toContain('apps/v1');
    expect(versions).toEqual([...versions].sort());
    const fromResources = new Set(
      runKubectl(c, 'api-resources --no-headers')
        .stdout.trim()
        .split('\n')
        .map((l) => l.split(/\s+/).find((w) => /^(v1|[a-z0-9.]+\/v\d\w*)$/.test(w))),
    );
    expect(new Set(versions)).toEqual(fromResources);
  });
});

describe('rollout history --revision', () => {
  test("prints that revision's pod template (printTemplate: raw tabs), or kubectl's error", () => {
    const c = cluster();
    runKubectl(c, 'set image deployment/web nginx=nginx:1.28');
    c.settle();
    const out = runKubectl(c, 'rollout history deployment/web --revision=1');
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(
      /^deployment\.apps\/web with revision #1\nPod Template:\n {2}Labels:\tapp=web\n\tpod-template-hash=\w+\n {2}Containers:\n {3}nginx:\n {4}Image:\tnginx:1\.27\n/,
    );
    expect(out.stdout.endsWith('  Tolerations:\t<none>\n\n')).toBe(true);
    expect(runKubectl(c, 'rollout history deployment/web --revision=2').stdout).toContain('Image:\tnginx:1.28\n');
    expect(runKubectl(c, 'rollout history deployment/web --revision=9').stderr).toBe(
      'error: unable to find the specified revision\n',
    );
  });
  test("a revision with a change-cause shows it among the template's annotations (ViewHistory copies it there)", () => {
    const c = cluster();
    runKubectl(c, 'set image deployment/web nginx=nginx:1.28');
    runKubectl(c, 'annotate deployment/web kubernetes.io/change-cause="to 1.28" node.example/a=1');
    c.settle();
    const out = runKubectl(c, 'rollout history deployment/web --revision=2').stdout;
    expect(out).toMatch(
      /\n {2}Labels:\tapp=web\n\tpod-template-hash=\w+\n {2}Annotations:\tkubernetes.io\/change-cause: to 1.28\n {2}Containers:\n/,
    );
    // describe's own Pod Template (through the tabwriter) is as it was: the template has no annotations.
    expect(runKubectl(c, 'describe deployment web').stdout).toMatch(
      /\nPod Template:\n {2}Labels: {2}app=web\n {2}Containers:/,
    );
  });
});

describe('label --all', () => {
  test('labels every object of the type in the namespace', () => {
    const c = cluster();
    const out = runKubectl(c, 'label pods --all env=prod');
    expect(out.exitCode).toBe(0);
    expect(out.stdout.trim().split('\n')).toHaveLength(2);
    for (const l of out.stdout.trim().split('\n')) expect(l).toMatch(/^pod\/web-\w+-\w+ labeled$/);
    expect(runKubectl(c, 'get pods -l env=prod -o name').stdout.trim().split('\n')).toHaveLength(2);
  });
});

describe('get -w', () => {
  test('one row per watch event, each flushed alone; the header comes with the first row; simulated time runs until quiet', () => {
    const c = createCluster({ seed: 5 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    const t0 = c.now;
    const out = runKubectl(c, 'get pods -w');
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('NAME                  READY   STATUS    RESTARTS   AGE');
    expect(lines[1]).toMatch(/^web-\w+-\w+ {3}0\/1 {5}Pending {3}0 {10}0s$/); // aligned with the header
    expect(lines[2]).toMatch(/^web-\w+-\w+ {3}0\/1 {3}Pending {3}0 {5}0s$/); // alone: as wide as its cells
    expect(lines.some((l) => / {3}ContainerCreating {3}/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/ {3}1\/1 {3}Running {3}0 {5}\d+s$/);
    expect(out.stderr).toBe(
      '(watch ended: nothing is left to happen; a real kubectl get -w keeps waiting until Ctrl-C)\n',
    );
    expect(c.now).toBeGreaterThan(t0);
    // Pods of another app are not in a -l app=web watch; a rollout shows new pods and the old ones going.
    runKubectl(c, 'run other --image=nginx:1.27');
    runKubectl(c, 'set image deployment/web nginx=nginx:1.28');
    const roll = runKubectl(c, 'get pods -l app=web -w --no-headers').stdout;
    expect(roll).not.toContain('other');
    expect(roll).not.toContain('NAME');
    expect(roll).toMatch(/ {3}Terminating {3}/);
    expect(runKubectl(c, 'get pods,svc -w').stderr).toBe('error: you may only specify a single resource type\n');
    // --watch-only: no first table; the header comes with the first change.
    runKubectl(c, 'scale deployment web --replicas=2');
    const only = runKubectl(c, 'get pods -l app=web --watch-only').stdout.split('\n');
    expect(only[0]).toMatch(/^NAME {3,}READY {3}STATUS {4}RESTARTS {3}AGE$/);
    expect(only[1]).toMatch(/ {3}Pending {3}/);
  });
});

describe('describe: the generic describer (Lease, Event) and EndpointSlice', () => {
  test('camelcase.Split and smartLabelFor as kubectl labels unstructured fields', () => {
    const split: [string, string[]][] = [
      ['lowercase', ['lowercase']],
      ['Class', ['Class']],
      ['MyClass', ['My', 'Class']],
      ['MyC', ['My', 'C']],
      ['HTML', ['HTML']],
      ['PDFLoader', ['PDF', 'Loader']],
      ['AString', ['A', 'String']],
      ['SimpleXMLParser', ['Simple', 'XML', 'Parser']],
      ['vimRPCPlugin', ['vim', 'RPC', 'Plugin']],
      ['GL11Version', ['GL', '11', 'Version']],
      ['99Bottles', ['99', 'Bottles']],
      ['May5', ['May', '5']],
      ['BFG9000', ['BFG', '9000']],
      ['BöseÜberraschung', ['Böse', 'Überraschung']],
      ['Two  spaces', ['Two', '  ', 'spaces']],
    ];
    for (const [s, want] of split) expect(camelcaseSplit(s)).toEqual(want);
    expect(
      [
        'leaseDurationSeconds',
        'apiVersion',
        'uid',
        'podIPs',
        'resourceVersion',
        'service-name',
        'kubernetes.io/name',
        'x_y',
      ].map(smartLabelFor),
    ).toEqual([
      'Lease Duration Seconds',
      'API Version',
      'UID',
      'Pod I Ps',
      'Resource Version',
      'Service - Name',
      'kubernetes.io/name',
      'x_y',
    ]);
  });

  test('describe lease prints every field with smart labels, the metadata it shows elsewhere left out', () => {
    const c = cluster();
    const out = runKubectl(c, 'describe lease node-1 -n kube-node-lease').stdout;
    expect(out).toMatch(
      /^Name: {9}node-1\nNamespace: {4}kube-node-lease\nLabels: {7}<none>\nAnnotations: {2}<none>\nAPI Version: {2}coordination\.k8s\.io\/v1\nKind: {9}Lease\nMetadata:\n {2}Creation Timestamp: {2}\S+\n {2}Owner References:\n {4}API Version: {5}v1\n {4}Kind: {12}Node\n {4}Name: {12}node-1\n {4}UID: {13}[0-9a-f-]{36}\n {2}Resource Version: {2}\d+\n {2}UID: {15}[0-9a-f-]{36}\nSpec:\n {2}Holder Identity: {9}node-1\n {2}Lease Duration Seconds: {2}40\n {2}Renew Time: {14}\S+\nEvents: {20}<none>\n$/,
    );
    const event = runKubectl(c, 'get events -o name').stdout.split('\n')[0].replace('event/', '');
    const ev = runKubectl(c, `describe event ${event}`).stdout;
    expect(ev).toMatch(/\nInvolved Object:\n {2}API Version: +v1\n {2}Kind: +Node\n/);
    expect(ev).toMatch(/\nReporting Component: +kubelet\n/);
    expect(ev).toMatch(/\nEvent Time: +<nil>\n/); // the recorder's zero MicroTime, JSON null
    expect(ev).not.toMatch(/Namespace: +<nil>/); // a Node's event names no namespace: no such field
    expect(runKubectl(c, `get event ${event} -o yaml`).stdout).toMatch(/\neventTime: null\n/);
  });

  test('describe endpointslice as describeEndpointSliceV1 prints it', () => {
    const c = cluster();
    expect(runKubectl(c, 'describe endpointslice kubernetes').stdout).toBe(
      [
        'Name:         kubernetes',
        'Namespace:    default',
        'Labels:       kubernetes.io/service-name=kubernetes',
        'Annotations:  <none>',
        'AddressType:  IPv4',
        'Ports:',
        '  Name   Port  Protocol',
        '  ----   ----  --------',
        '  https  6443  TCP',
        'Endpoints:',
        '  - Addresses:  10.0.0.10',
        '    Conditions:',
        '      Ready:   true',
        '    Hostname:  <unset>',
        '    NodeName:  <unset>',
        '    Zone:      <unset>',
        'Events:        <none>',
        '',
      ].join('\n'),
    );
  });
});
