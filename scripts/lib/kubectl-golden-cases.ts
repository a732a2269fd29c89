// The command lines the golden test holds the simulator to: each one is answered by kubectl itself,
// before it talks to a server (unknown commands and flags, missing arguments, output formats,
// JSONPath, the objects a client dry run prints), so the real binary, pointed at a dead server,
// gives the answer the simulator must give. scripts/kubectl-golden.ts captures them from a real
// kubectl v1.37.2 (the oracle's binary: `oracle/bin/oracle kubectl`) into
// src/sim/kubectl/golden/kubectl-1.37.json, which src/sim/kubectl/golden/golden.test.ts holds the
// simulator to.

/** One command line (argv after `kubectl`), with its standard input when it reads one. */
export interface GoldenCase {
  args: string[];
  stdin?: string;
  /** The real kubectl needs the server's discovery to map the kind (the judge serves it on loopback). */
  discovery?: boolean;
  /** Why the simulator, on purpose, prints something else (the test checks that it still does). */
  differs?: string;
}

const dep = ['create', 'deployment', 'web', '--image=nginx', '--dry-run=client'];

/** The table, in the fixture's order. */
export const GOLDEN_CASES: GoldenCase[] = [
  // Unknown commands, with cobra's suggestions (Levenshtein distance ≤ 2, or a prefix).
  ...['foo', 'gett', 'ge', 'crate', 'delet', 'a', 'c', 'roll', 'lgs', 'applyy', 'xyzzy', 'Get', 'scal', 'desc', 'wiat', 'evnts', 'lable', 'unc'].map((c) => ({ args: [c] })),
  { args: ['foo', 'pods'] },
  // Unknown flags.
  { args: ['get', 'pods', '--foo'] },
  { args: ['get', 'pods', '-x'] },
  { args: ['get', 'pods', '--foo=bar'] },
  { args: ['describe', 'pods', '--bogus'] },
  { args: ['scale', 'deploy', 'web', '--replicas=2', '--foo'] },
  { args: ['apply', '-q'] },
  { args: ['get', 'pods', '-o'] },
  { args: ['get', 'pods', '--selector'] },
  { args: ['logs', '-z'] },
  { args: ['get', 'pods', '--watch=maybe'] },
  // Missing arguments.
  { args: ['get'] },
  { args: ['describe'] },
  { args: ['scale', 'deploy', 'web'] },
  { args: ['scale', '--replicas=3'] },
  { args: ['scale', 'deploy', 'web', '--replicas=x'] },
  { args: ['scale', 'deploy', 'web', '--replicas=-1'] },
  { args: ['create', 'deployment'] },
  { args: ['create', 'deployment', 'web'] },
  { args: ['create', 'namespace'] },
  { args: ['create', 'namespace', 'a', 'b'] },
  { args: ['run'] },
  { args: ['run', 'web'] },
  { args: ['cordon'] },
  { args: ['drain'] },
  { args: ['apply'] },
  { args: ['rollout'] },
  { args: ['expose'] },
  { args: ['label'] },
  { args: ['taint'] },
  { args: ['delete'] },
  { args: ['logs'] },
  { args: ['set', 'image'] },
  { args: ['patch'] },
  { args: ['patch', 'deploy', 'web'] },
  { args: ['annotate'] },
  { args: ['wait'] },
  { args: ['wait', 'deploy/web'] },
  { args: ['create'] },
  { args: ['create', 'service', 'clusterip'] },
  { args: ['create', 'service', 'clusterip', 'web', '--tcp=x'] },
  { args: ['rollout', 'status'] },
  { args: ['rollout', 'foo'] },
  { args: ['rollout', 'stauts', 'deploy/web'] },
  { args: ['create', 'foo'] },
  { args: ['create', 'deploymnt', 'web'] },
  { args: ['create', '-x'] },
  { args: ['set', 'foo'] },
  { args: ['auth', 'foo'] },
  { args: ['create', 'service', 'foo'] },
  { args: ['top', 'foo'] },
  { args: ['rollout', 'undo'] },
  { args: ['uncordon'] },
  { args: ['auth', 'can-i'] },
  { args: ['label', 'pods'] },
  { args: ['label', 'pods', 'a'] },
  { args: ['taint', 'nodes'] },
  { args: ['taint', 'nodes', 'a'] },
  { args: ['events', '--types=Loud'] },
  // Flags that need a value, or a value of their kind.
  { args: ['get', 'pods', '-L'] },
  { args: ['get', 'pods', '--sort-by'] },
  { args: ['describe', '-x'] },
  { args: ['cordon', 'a', '--foo'] },
  { args: ['create', 'deployment', 'web', '--image=nginx', '--replicas=x'] },
  { args: ['create', 'deployment', 'web', '--image=nginx', '--dry-run=client', '-o', 'yaml', '-n'] },
  { args: ['apply', '-f'] },
  { args: ['run', 'web', '--image=nginx', '--port=x', '--dry-run=client'] },
  { args: ['delete', 'pods', '--grace-period=x'] },
  { args: ['logs', '--tail=x'] },
  { args: ['version', '--foo'] },
  { args: ['api-resources', '--foo'] },
  { args: ['-n'] },
  { args: ['--foo', 'get', 'pods'] },
  // Output formats.
  { args: [...dep, '-o', 'foo'] },
  { args: ['run', 'web', '--image=nginx', '--dry-run=client', '-o', 'table'] },
  { args: ['create', 'namespace', 'demo', '--dry-run=client', '-o', 'wide'] },
  // kubectl get, with the server's discovery to map the types (nothing past it is asked).
  ...[['get', 'pods', '-o', 'foo'], ['get', 'pods', '-o', 'jsonpath={.x'], ['get', 'pods', '-o', 'custom-columns='], ['get', 'pods', '-o', 'custom-columns=NAME'],
    ['get', 'foo'], ['get', 'pods,foo'], ['get', 'deploy/web', 'pods'], ['get', 'pods', 'deploy/web'], 
    ['describe', 'foo'], ['get', 'pods', ''], ['delete', 'pods'], ['label', 'foo', 'a', 'x=y']].map((args) => ({ args, discovery: true })),
  // JSONPath: parse errors, and what it prints for maps, lists and scalars.
  { args: [...dep, '-o', 'jsonpath={.x'] },
  { args: [...dep, '-o', 'jsonpath={.metadata.labels}'] },
  { args: [...dep, '-o', 'jsonpath={.spec.template.spec.containers}'] },
  { args: [...dep, '-o', 'jsonpath={.spec.replicas}'] },
  { args: [...dep, '-o', 'jsonpath={.metadata.name}{"\\n"}'] },
  { args: [...dep, '-o', 'jsonpath={.spec.template.spec.containers[0].image}'] },
  { args: [...dep, '-o', 'jsonpath={.spec.template.spec.containers[*].name}'] },
  { args: [...dep, '-o', 'jsonpath={.status}'] },
  { args: [...dep, '-o', 'jsonpath={.nope}'] },
  { args: [...dep, '-o', 'jsonpath={range .spec.template.spec.containers[*]}{.name}={.image}{end}'] },
  { args: [...dep, '-o', 'jsonpath={.metadata.labels.app}'] },
  { args: [...dep, '-o', 'jsonpath={]'] },
  { args: [...dep, '-o', 'jsonpath={.spec.template.spec.containers[}'] },
  { args: [...dep, '-o', 'jsonpath={range .x}'] },
  // Client dry runs: the object kubectl's generators build (kubectl run's asks the server's discovery
  // for the Pod's mapping first: the judge serves it).
  { args: [...dep, '-o', 'yaml'] },
  { args: [...dep, '-o', 'json'] },
  { args: [...dep, '-o', 'name'] },
  { args: [...dep] },
  { args: ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3', '--port=80', '--dry-run=client', '-o', 'yaml'] },
  { args: ['create', 'deployment', 'web', '--image=nginx', '-n', 'demo', '--dry-run=client', '-o', 'yaml'] },
  { args: ['create', 'namespace', 'demo', '--dry-run=client', '-o', 'yaml'] },
  { args: ['create', 'namespace', 'demo', '--dry-run=client', '-o', 'json'] },
  { args: ['create', 'namespace', 'demo', '--dry-run=client'] },
  { args: ['create', 'service', 'clusterip', 'web', '--tcp=80:8080', '--dry-run=client', '-o', 'yaml'] },
  { args: ['create', 'service', 'nodeport', 'web', '--tcp=80:8080', '--dry-run=client', '-o', 'yaml'] },
  { args: ['create', 'service', 'clusterip', 'web', '--dry-run=client', '-o', 'yaml'] },
  { args: ['create', 'service', 'nodeport', 'web', '--tcp=80:8080', '--dry-run=client', '-o', 'json'] },
  { args: ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3', '--port=80', '--dry-run=client', '-o', 'json'] },
  { args: [...dep, '-o', 'go-template={{.metadata.name}}'], differs: 'Go templates are not simulated: the simulator says so' },
  { args: ['run', 'web', '--image=nginx', '--dry-run=client', '-o', 'yaml'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '--dry-run=client', '-o', 'json'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '--port=80', '--labels=app=web,tier=fe', '--dry-run=client', '-o', 'yaml'], discovery: true },
  { args: ['run', 'web', '--image=busybox', '--restart=Never', '--dry-run=client', '-o', 'yaml', '--', 'sleep', '3600'], discovery: true },
  { args: ['run', 'web', '--image=busybox', '--command', '--dry-run=client', '-o', 'yaml', '--', 'sh', '-c', 'echo hi'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '--dry-run=client'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '-n', 'demo', '--dry-run=client', '-o', 'yaml'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '--restart=Sometimes', '--dry-run=client'] },
  { args: [...dep.slice(0, 4), '--dry-run=maybe'] },
  { args: [...dep.slice(0, 4), '--dry-run', '-o', 'name'] },
  // Version (the oracle's binary carries real-cluster.ts's version ldflags; -o yaml|json would also
  // print its gitCommit and buildDate, which a build from modules cannot know, so they are not judged).
  { args: ['version', '--client'] },
  { args: ['version', '--client', '-o', 'foo'] },
  // PriorityClasses, which the simulator serves since the scheduler preempts.
  { args: ['create', 'priorityclass', 'high', '--value=1000', '--dry-run=client', '-o', 'yaml'], discovery: true },
  { args: ['create', 'priorityclass', 'high', '--value=1000', '--global-default', '--preemption-policy=Never', '--description=batch', '--dry-run=client', '-o', 'json'], discovery: true },
  { args: ['create', 'priorityclass', 'high', '--value=1000', '--dry-run=client'], discovery: true },
  { args: ['create', 'priorityclass', '--value=1000'] },
  { args: ['create', 'priorityclass', 'high', '--value=x'] },
  // What 1.36 and 1.37 changed, answered before a server is asked.
  // alpha has no commands (hidden, but it answers); kuberc is a command of its own.
  { args: ['alpha'] },
  { args: ['alpha', 'foo'] },
  { args: ['kub'] },
  { args: ['kubrc'] },
  // describe's --show-events: its help, and its value.
  { args: ['describe', '--help'] },
  { args: ['describe', 'pods', '-h'] },
  { args: ['describe', 'pods', '--show-events=maybe'] },
  // wait: --for several times.
  { args: ['wait', '--for=x', '--for=y'] },
  { args: ['wait', '--for='] },
  { args: ['wait', 'deploy/web', '--for=condition=Available', '--for=bogus'] },
  // run: Complete's checks, then Validate's.
  { args: ['run', '--image=nginx'] },
  { args: ['run', 'web', '--image=nginx', '--labels=x', '--restart=y'] },
  { args: ['run', 'web', '--image=nginx', '--port=x', '--restart=Never', '--labels=bad'] },
  { args: ['run', 'web', '--image=nginx', '--labels==a', '--dry-run=client'] },
  { args: ['run', 'web', '--image=nginx', '--pod-running-timeout=0s', '--dry-run=client'] },
  { args: ['run', 'web', '--image=NGINX', '--dry-run=client'] },
  { args: ['run', 'web', '--image=', '--dry-run=client'] },
  { args: ['run', 'web', '--image=registry.example.com:5000/acme/api:1.2@sha256:0123456789abcdef0123456789abcdef', '--dry-run=client', '-o', 'name'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '--labels=app=web,tier=', '--dry-run=client', '-o', 'yaml'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '--port=8080', '--restart=OnFailure', '--dry-run=client', '-o', 'json'], discovery: true },
  // logs: --pod-running-timeout, which -f waits up to for a container being created.
  { args: ['logs', 'x', '--pod-running-timeout=0s'] },
  { args: ['logs', 'x', '--pod-running-timeout=x'] },
  { args: ['logs', '-f', 'x', '--pod-running-timeout=-1s'] },
  // rollout: the int64 flags.
  { args: ['rollout', 'undo', 'deploy/web', '--to-revision=x'] },
  { args: ['rollout', 'history', 'deploy/web', '--revision=x'] },
  // set env: Complete's and Validate's checks, then ParseEnv's, before the builder asks the server.
  { args: ['set', 'env', 'deploy/web', 'A=1', 'deploy/x'] },
  { args: ['set', 'env', 'A=1'] },
  { args: ['set', 'env', 'deployments', '--all', '-l', 'app=web', 'A=1'] },
  { args: ['set', 'env', 'deploy/web', '--list', '-o', 'yaml'] },
  { args: ['set', 'env', 'deploy/web', '1A=1'] },
  { args: ['set', 'env', 'deploy/web', 'A=1', 'A-'] },
  { args: ['set', 'env', 'deploy/web', 'A=1', '--dry-run=maybe'] },
  // run: --annotations, --env and --overrides.
  { args: ['run', 'web', '--image=nginx', '--annotations=bad', '--annotations==x'] },
  { args: ['run', 'web', '--image=nginx', '--env=1A=1'] },
  { args: ['run', 'web', '--image=nginx', '--overrides={bad', '--dry-run=client'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '--override-type=yaml', '--overrides={}', '--dry-run=client'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '--annotations=team=blue', '--annotations=note=a=b', '--env=A=1', '--overrides={"metadata":{"labels":{"tier":"edge"}},"spec":{"restartPolicy":"Never","foo":1}}', '--dry-run=client', '-o', 'yaml'], discovery: true },
  { args: ['run', 'web', '--image=nginx', '--override-type=strategic', '--overrides={"spec":{"containers":[{"name":"web","args":["x"]}]}}', '--dry-run=client', '-o', 'json'], discovery: true },
  // get: --output-watch-events needs a watch; --request-timeout's value.
  { args: ['get', 'pods', '--output-watch-events'] },
  { args: ['get', 'pods', '--request-timeout=x'] },
  // create service externalname: its required flag, its name check, its own flag only, and the object a client dry run prints.
  { args: ['create', 'service', 'externalname', 'ext'] },
  { args: ['create', 'service', 'externalname', 'ext', '--external-name', 'Bad_Name'] },
  { args: ['create', 'service', 'clusterip', 'c1', '--tcp=80', '--external-name', 'x'] },
  { args: ['create', 'service', 'externalname', 'ext', '--external-name', 'example.com', '--dry-run=client', '-o', 'yaml'] },
];
