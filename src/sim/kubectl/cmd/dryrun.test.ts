// Dry runs write nothing: --dry-run=client sends no write at all, --dry-run=server sends it with
// dryRun=All and the API server runs it (admission, validation, defaulting) but stores nothing,
// makes no revision, takes no address and draws nothing from the world's generator.
import { describe, expect, test } from 'vitest';
import { createCluster, type Cluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function cluster(): Cluster {
  const c = createCluster({ seed: 4 });
  runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
  runKubectl(c, 'expose deployment web --port=80');
  c.settle();
  return c;
}

/** The parts of the world a write would touch. */
function state(c: Cluster): string {
  const w = c.world.state;
  return JSON.stringify([
    w.store.revision,
    w.store.objects,
    w.rng,
    w.apiServer.allocatedIPs,
    w.apiServer.allocatedNodePorts ?? null,
  ]);
}

const COMMANDS: [string, string][] = [
  ['create deployment api --image=nginx:1.27', 'deployment.apps/api created'],
  ['create namespace dev', 'namespace/dev created'],
  ['create service nodeport np --tcp=80:8080', 'service/np created'],
  ['run one --image=busybox', 'pod/one created'],
  ['scale deployment web --replicas=5', 'deployment.apps/web scaled'],
  ['set image deployment/web nginx=nginx:1.28', 'deployment.apps/web image updated'],
  ['delete deployment web', 'deployment.apps "web" deleted from default namespace'],
  ['label deployment web tier=front', 'deployment.apps/web labeled'],
  ['annotate deployment web note=x', 'deployment.apps/web annotated'],
  [`patch deployment web -p '{"spec":{"replicas":4}}'`, 'deployment.apps/web patched'],
  ['expose deployment web --port=81 --name=web2', 'service/web2 exposed'],
  ['taint nodes node-1 dedicated=x:NoSchedule', 'node/node-1 tainted'],
  ['cordon node-2', 'node/node-2 cordoned'],
  ['apply -f -', 'deployment.apps/applied created'],
];

const MANIFEST =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: applied\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: applied}\n  template:\n    metadata:\n      labels: {app: applied}\n    spec:\n      containers:\n      - {name: app, image: nginx:1.27}\n';

describe('dry runs', () => {
  test.each(COMMANDS)('kubectl %s --dry-run=client|server stores nothing', (cmd, line) => {
    const c = cluster();
    const before = state(c);
    for (const [mode, suffix] of [
      ['client', ' (dry run)'],
      ['server', ' (server dry run)'],
    ] as const) {
      const from = c.log.length;
      const r = runKubectl(c, `${cmd} --dry-run=${mode}`, MANIFEST);
      expect(r, `${cmd} --dry-run=${mode}`).toEqual({ stdout: `${line}${suffix}\n`, stderr: '', exitCode: 0 });
      const writes = c.log.slice(from).filter((x) => x.component === 'kubectl' && WRITES.has(x.verb));
      if (mode === 'client') expect(writes).toEqual([]);
      else {
        expect(writes.length).toBeGreaterThan(0);
        for (const x of writes) {
          expect(x.path).toMatch(/\?dryRun=All(&fieldManager=kubectl-[a-z-]+)?(&fieldValidation=Strict)?$/);
          expect(x.revision).toBeUndefined();
        }
      }
      expect(state(c), `${cmd} --dry-run=${mode}`).toBe(before);
    }
    // Without a dry run the same command does write.
    expect(runKubectl(c, cmd, MANIFEST).stdout).toBe(`${line}\n`);
    expect(state(c)).not.toBe(before);
  });

  test("-o yaml prints the object: the generator's for a client dry run, the server's answer for a server one", () => {
    const c = cluster();
    expect(runKubectl(c, 'create deployment api --image=nginx:1.27 --dry-run=client -o yaml').stdout).toBe(
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  labels:',
        '    app: api',
        '  name: api',
        'spec:',
        '  replicas: 1',
        '  selector:',
        '    matchLabels:',
        '      app: api',
        '  strategy: {}',
        '  template:',
        '    metadata:',
        '      labels:',
        '        app: api',
        '    spec:',
        '      containers:',
        '      - image: nginx:1.27',
        '        name: nginx',
        '        resources: {}',
        'status: {}',
        '',
      ].join('\n'),
    );
    const server = runKubectl(c, 'create deployment api --image=nginx:1.27 --dry-run=server -o yaml').stdout;
    // Defaulted and given a uid by the API server, but never stored: no resourceVersion.
    expect(server).toContain('  uid: ');
    expect(server).toContain('  progressDeadlineSeconds: 600');
    expect(server).not.toContain('resourceVersion');
    expect(runKubectl(c, 'get deployment api').stderr).toBe(
      'Error from server (NotFound): deployments.apps "api" not found\n',
    );
    expect(runKubectl(c, 'create namespace dev --dry-run=client -o name').stdout).toBe('namespace/dev\n');
  });

  test('a server dry run is validated and admitted; a refusal stores nothing either', () => {
    const c = cluster();
    const before = state(c);
    expect(runKubectl(c, 'create deployment web --image=nginx:1.27 --dry-run=server').stderr).toContain(
      'already exists',
    );
    expect(runKubectl(c, 'scale deployment web --replicas=2 --dry-run=server').stdout).toBe(
      'deployment.apps/web scaled (server dry run)\n',
    );
    expect(runKubectl(c, `patch deployment web -p '{"spec":{"replicas":2}}' --dry-run=server`).stdout).toBe(
      'deployment.apps/web patched (no change) (server dry run)\n',
    );
    expect(runKubectl(c, `patch deployment web -p '{"spec":{"replicas":-1}}' --dry-run=server`).stderr).toContain(
      'spec.replicas',
    );
    expect(state(c)).toBe(before);
  });

  test('the dry-run values kubectl accepts, and the one it refuses', () => {
    const c = cluster();
    expect(runKubectl(c, 'create namespace a --dry-run=bogus').stderr).toBe(
      'error: Invalid dry-run value (bogus). Must be "none", "server", or "client".\n',
    );
    expect(runKubectl(c, 'create namespace a --dry-run')).toEqual({
      stdout: 'namespace/a created (dry run)\n',
      stderr: '--dry-run is deprecated and can be replaced with --dry-run=client.\n',
      exitCode: 0,
    });
    expect(runKubectl(c, 'create namespace a --dry-run=none').stdout).toBe('namespace/a created\n');
  });
});
