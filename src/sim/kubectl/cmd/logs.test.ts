// kubectl logs against a running cluster: apiserver → the node's kubelet → containerd's record.
import { describe, expect, test } from 'vitest';
import { createCluster, type Cluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';

function podNamed(c: Cluster, prefix: string): string {
  return Object.keys(c.world.state.store.objects.pods ?? {})
    .map((k) => k.split('/').pop()!)
    .find((n) => n.startsWith(prefix))!;
}

describe('logs', () => {
  test('a running container that wrote nothing; no previous instance yet', () => {
    const c = createCluster({ seed: 4 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    const pod = podNamed(c, 'web-');
    expect(runKubectl(c, `logs ${pod}`)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(runKubectl(c, `logs ${pod} --previous`).stderr).toBe(
      `Error from server (BadRequest): previous terminated container "nginx" in pod "${pod}" not found\n`,
    );
    // The request went to the API server's pods/log subresource, which asked the node's kubelet.
    expect(
      c.log
        .filter((r) => r.component === 'kubectl' && r.path.includes('/log'))
        .map((r) => `${r.verb} ${r.path} ${r.code}`),
    ).toEqual([
      `GET /api/v1/namespaces/default/pods/${pod}/log?container=nginx 200`,
      `GET /api/v1/namespaces/default/pods/${pod}/log?container=nginx&previous=true 400`,
    ]);
  });

  test("logs POD: the builder's GET of the pod, then its log; logs deploy/NAME: the Deployment, the LIST of its pods, then the log (LogsForObject reads the listed pod, no GET of it)", () => {
    const c = createCluster({ seed: 4 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    const pod = podNamed(c, 'web-');
    const sent = (args: string) => {
      const from = c.log.length;
      expect(runKubectl(c, args).exitCode).toBe(0);
      return c.log
        .slice(from)
        .filter((r) => r.component === 'kubectl' && r.kind === 'request')
        .map((r) => `${r.verb} ${r.path}`);
    };
    expect(sent(`logs ${pod}`)).toEqual([
      `GET /api/v1/namespaces/default/pods/${pod}`,
      `GET /api/v1/namespaces/default/pods/${pod}/log?container=nginx`,
    ]);
    expect(sent('logs deploy/web')).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/web',
      'GET /api/v1/namespaces/default/pods?labelSelector=app%3Dweb',
      `GET /api/v1/namespaces/default/pods/${pod}/log?container=nginx`,
    ]);
  });

  test('a crashed container’s last words are in --previous; the restarted one starts empty', () => {
    const c = createCluster({ seed: 4 });
    runKubectl(c, 'create deployment report --image=nginx:1.27 --replicas=1');
    c.settle();
    const pod = podNamed(c, 'report-');
    expect(c.crash('default', pod, { log: 'Error: required environment variable DATABASE_URL is not set' })).toBe(true);
    c.advance(3_000);
    expect(runKubectl(c, `logs ${pod} --previous`).stdout).toBe(
      'Error: required environment variable DATABASE_URL is not set\n',
    );
    expect(runKubectl(c, `logs ${pod}`).stdout).toBe('');
    expect(runKubectl(c, 'logs deploy/report -p --tail=1').stdout).toBe(
      'Error: required environment variable DATABASE_URL is not set\n',
    );
  });

  test('a container that never started: the kubelet says why', () => {
    const c = createCluster({ seed: 4 });
    c.image('nginx:9.9', 'missing');
    runKubectl(c, 'create deployment worker --image=nginx:9.9 --replicas=1');
    c.advance(40_000);
    const pod = podNamed(c, 'worker-');
    expect(runKubectl(c, `logs ${pod}`).stderr).toBe(
      `Error from server (BadRequest): container "nginx" in pod "${pod}" is waiting to start: trying and failing to pull image\n`,
    );
  });

  test('an unscheduled pod, an unknown container, a node that does not answer', () => {
    const c = createCluster({ seed: 4 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    const pod = podNamed(c, 'web-');
    expect(runKubectl(c, `logs ${pod} -c sidecar`).stderr).toBe(
      `Error from server (BadRequest): container sidecar is not valid for pod ${pod}\n`,
    );
    const node = (c.world.state.store.objects.pods as Record<string, { spec: { nodeName: string } }>)[
      `/registry/pods/default/${pod}`
    ].spec.nodeName;
    c.node(node, 'stop');
    c.advance(1_000);
    expect(runKubectl(c, `logs ${pod}`).stderr).toMatch(
      new RegExp(
        `^Error from server: Get "https://10\\.0\\.0\\.1\\d:10250/containerLogs/default/${pod}/nginx": dial tcp 10\\.0\\.0\\.1\\d:10250: connect: no route to host\\n$`,
      ),
    );
    c.controlPlane('stop', 'scheduler');
    runKubectl(c, 'create deployment lonely --image=nginx:1.27 --replicas=1');
    c.advance(2_000);
    const pending = podNamed(c, 'lonely-');
    expect(runKubectl(c, `logs ${pending}`).stderr).toBe(
      `Error from server (BadRequest): pod ${pending} does not have a host assigned\n`,
    );
    expect(runKubectl(c, 'logs').stderr).toMatch(
      /^error: expected 'logs \[-f\] \[-p\] \(POD \| TYPE\/NAME\) \[-c CONTAINER\]'\./,
    );
  });

  test('-f waits for a container still being created, asking every second (1.36+)', () => {
    const c = createCluster({ seed: 4 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    let pod: string | undefined;
    for (let i = 0; i < 50 && !pod; i++) {
      c.advance(100);
      const p = podNamed(c, 'web-');
      if (p && runKubectl(c, `logs ${p}`).stderr.includes('is waiting to start: ContainerCreating')) pod = p;
    }
    expect(pod).toBeDefined();
    const from = c.log.length;
    const t0 = c.now;
    const r = runKubectl(c, `logs -f ${pod}`);
    expect(r.exitCode).toBe(0);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toBe(`container "nginx" in pod "${pod}" is waiting to start: ContainerCreating`);
    // One try at once, then one a second, until the container runs.
    const tries = c.log.slice(from).filter((x) => x.component === 'kubectl' && x.path.includes('/log'));
    expect(tries.map((x) => `${x.verb} ${x.path}`)).toEqual(
      tries.map(() => `GET /api/v1/namespaces/default/pods/${pod}/log?container=nginx&follow=true`),
    );
    expect(tries.map((x) => x.code)).toEqual([...lines.map(() => 400), 200]);
    expect(tries.map((x) => x.t - t0)).toEqual(tries.map((_, i) => i * 1000));
    // Without -f, one answer.
    runKubectl(c, 'create deployment other --image=nginx:1.27 --replicas=1');
    c.advance(1_500);
    const other = podNamed(c, 'other-');
    expect(runKubectl(c, `logs ${other}`).stderr).toMatch(
      /^Error from server \(BadRequest\): container "nginx" in pod "other-.*" is waiting to start: /,
    );
  });

  test('-f gives up after --pod-running-timeout', () => {
    const c = createCluster({ seed: 4 });
    c.image('nginx:9.9', 'missing');
    runKubectl(c, 'create deployment worker --image=nginx:9.9 --replicas=1');
    c.advance(40_000);
    const pod = podNamed(c, 'worker-');
    const t0 = c.now;
    const r = runKubectl(c, `logs -f ${pod} --pod-running-timeout=5s`);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines.at(-1)).toBe('error: context deadline exceeded');
    expect(lines.slice(0, -1)).toHaveLength(5);
    for (const l of lines.slice(0, -1))
      expect(l).toMatch(new RegExp(`^container "nginx" in pod "${pod}" is waiting to start: `));
    expect(r.exitCode).toBe(1);
    expect(c.now - t0).toBe(5_000);
    expect(runKubectl(c, `logs -f ${pod} --pod-running-timeout=0s`).stderr).toBe(
      'error: --pod-running-timeout must be higher than zero\n',
    );
    expect(runKubectl(c, `logs -f ${pod} --pod-running-timeout=x`).stderr).toBe(
      'error: invalid argument "x" for "--pod-running-timeout" flag: time: invalid duration "x"\nSee \'kubectl logs --help\' for usage.\n',
    );
  });
});
