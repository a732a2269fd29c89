// kubectl reads the cluster through the API server like every other client: its waits and watches
// are LISTs, WATCHes and GETs in the request log, never a look into the store.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { createCluster, type Cluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';
import { reflectorWatchTimeoutSeconds } from './watch.ts';

const KUBECTL_DIR = fileURLToPath(new URL('..', import.meta.url));

/** kubectl's non-test sources (the test doubles, fixture.ts and test-cluster.ts, build worlds by hand). */
function sources(dir = KUBECTL_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && !['fixture.ts', 'test-cluster.ts'].includes(e.name)
      ? [p]
      : [];
  });
}

/** kubectl's requests since log position `from`, as `VERB path` lines. */
function requests(c: Cluster, from: number): string[] {
  return c.log
    .slice(from)
    .filter((x) => x.component === 'kubectl' && x.kind === 'request')
    .map((x) => `${x.verb} ${x.path}`);
}

describe('kubectl goes through the API server', () => {
  test('no kubectl source reads the store or the world state directly', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(30);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(text, f).not.toMatch(
        /\bstore(Get|List|Key|HistorySince)\b|from '[./]*store\.ts'|world\.state\b|\.state\.store\b|\.queue\b/,
      );
      // Only the watch client touches the world, to run kubectl's own inbox component.
      if (!f.endsWith(join('cmd', 'watch.ts'))) expect(text, f).not.toMatch(/\bworld\.(?!ts\b)/);
    }
  });

  test('wait: a GET, then one streaming-list WATCH with fieldSelector metadata.name (no LIST)', () => {
    const c = createCluster({ seed: 2 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
    const from = c.log.length;
    expect(runKubectl(c, 'wait --for=condition=Available deployment/web').stdout).toBe(
      'deployment.apps/web condition met\n',
    );
    const got = requests(c, from);
    expect(got[0]).toBe('GET /apis/apps/v1/namespaces/default/deployments/web');
    // As real 1.37 kubectl's reflector opens it (WatchListClient): the object comes in the stream.
    expect(got[1]).toMatch(
      /^WATCH \/apis\/apps\/v1\/namespaces\/default\/deployments\?allowWatchBookmarks=true&fieldSelector=metadata\.name%3Dweb&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=\d+&watch=true$/,
    );
    expect(got.length).toBe(2);
    // The notifications reach kubectl as they reach any watcher, and the watch is gone afterwards.
    expect(c.log.slice(from).some((x) => x.component === 'kubectl' && x.kind === 'watch')).toBe(true);
    expect(Object.values(c.world.state.apiServer.watchers).some((w) => w.component === 'kubectl')).toBe(false);
    expect(c.world.state.components.kubectl).toBeUndefined();
  });

  test('rollout status and delete --wait watch; drain polls with GETs every second', () => {
    const c = createCluster({ seed: 2 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=2');
    let from = c.log.length;
    expect(runKubectl(c, 'rollout status deployment/web').stdout).toContain(
      'deployment "web" successfully rolled out\n',
    );
    expect(
      requests(c, from).some((l) =>
        /^WATCH \/apis\/apps\/v1\/namespaces\/default\/deployments\?allowWatchBookmarks=true&fieldSelector=metadata\.name%3Dweb&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=\d+&watch=true$/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(requests(c, from).some((l) => l.startsWith('GET /apis/apps/v1/namespaces/default/deployments?'))).toBe(
      false,
    );

    const pod = runKubectl(c, 'get pods -o name').stdout.split('\n')[0].replace('pod/', '');
    from = c.log.length;
    expect(runKubectl(c, `delete pod ${pod}`).exitCode).toBe(0);
    const del = requests(c, from);
    expect(del[0]).toBe(`DELETE /api/v1/namespaces/default/pods/${pod}`);
    expect(del).toContain(`GET /api/v1/namespaces/default/pods/${pod}`);
    expect(
      del.some((l) =>
        l.startsWith(
          `WATCH /api/v1/namespaces/default/pods?allowWatchBookmarks=true&fieldSelector=metadata.name%3D${pod}&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=`,
        ),
      ),
    ).toBe(true);

    runKubectl(c, 'rollout status deployment/web');
    const node = runKubectl(c, 'get pods -o jsonpath={.items[0].spec.nodeName}').stdout;
    from = c.log.length;
    const t0 = c.now;
    expect(runKubectl(c, `drain ${node} --ignore-daemonsets`).stdout).toContain(`node/${node} drained\n`);
    const polls = c.log
      .slice(from)
      .filter((x) => x.component === 'kubectl' && x.verb === 'GET' && /\/pods\/[^?]+$/.test(x.path));
    expect(polls.length).toBeGreaterThan(1);
    // PollImmediate: the first read at once, then one a second.
    for (const x of polls) expect((x.t - t0) % 1000).toBe(0);
  });

  test("get -w: a WATCH from the list's resourceVersion, with the selectors", () => {
    const c = createCluster({ seed: 2 });
    const from = c.log.length;
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    const r = runKubectl(c, 'get pods -l app=web -w');
    expect(r.stdout).toMatch(/web-/);
    const got = requests(c, from);
    expect(got).toContain('GET /api/v1/namespaces/default/pods?labelSelector=app%3Dweb&limit=500');
    expect(
      got.some((l) =>
        /^WATCH \/api\/v1\/namespaces\/default\/pods\?labelSelector=app%3Dweb&resourceVersion=\d+&watch=true$/.test(l),
      ),
    ).toBe(true);
  });

  test('get TYPE NAME -w: the GET, then a WATCH of that name from resourceVersion 0, whose first event (the object as it is) the skipPrinter holds back', () => {
    const c = createCluster({ seed: 2 });
    runKubectl(c, 'run p --image=nginx');
    c.settle();
    const from = c.log.length;
    const r = runKubectl(c, 'get pod p -w');
    expect(r.exitCode).toBe(0);
    expect(requests(c, from)).toEqual([
      'GET /api/v1/namespaces/default/pods/p',
      'WATCH /api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dp&resourceVersion=0&watch=true',
    ]);
    const rows = r.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^NAME +READY +STATUS/);
    expect(rows.slice(1).filter((l) => l.startsWith('p ')).length).toBe(1);
    expect(runKubectl(c, 'get pod nope -w')).toEqual({
      stdout: '',
      stderr: 'Error from server (NotFound): pods "nope" not found\n',
      exitCode: 1,
    });
  });
});

describe("the reflector's watch timeout", () => {
  test("5 to 10 minutes in whole seconds, the same for the same moment and target, and no draw of the world's chance", () => {
    const all = Array.from({ length: 200 }, (_, i) => reflectorWatchTimeoutSeconds(i * 137, `deployments/default/web`));
    for (const s of all) expect(Number.isInteger(s) && s >= 300 && s < 600).toBe(true);
    expect(new Set(all).size).toBeGreaterThan(50);
    expect(reflectorWatchTimeoutSeconds(4200, 'pods/default/a')).toBe(
      reflectorWatchTimeoutSeconds(4200, 'pods/default/a'),
    );
    // kubectl's watch draws nothing from the generator: a run that only lets the same time pass draws the same.
    const c = createCluster({ seed: 2 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    const t0 = c.now;
    const from = c.log.length;
    runKubectl(c, 'wait --for=condition=Available deployment/web');
    expect(requests(c, from).some((l) => l.includes('timeoutSeconds='))).toBe(true);
    const d = createCluster({ seed: 2 });
    runKubectl(d, 'create deployment web --image=nginx:1.27 --replicas=1');
    d.advance(c.now - t0);
    expect(d.world.state.rng).toEqual(c.world.state.rng);
  });

  test('a rollout status outliving its watch watches again from the last resourceVersion, as the reflector does when the server ends it', () => {
    const c = createCluster({ seed: 2 });
    runKubectl(
      c,
      'apply -f -',
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  progressDeadlineSeconds: 900
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        resources: {requests: {cpu: "64"}}
`,
    );
    const from = c.log.length;
    const t0 = c.now;
    // The pod fits no node, so the rollout runs into its progress deadline (900 s), past the watch's timeout.
    expect(runKubectl(c, 'rollout status deployment/web').stderr).toBe(
      'error: deployment "web" exceeded its progress deadline\n',
    );
    const watches = c.log
      .slice(from)
      .filter((x) => x.component === 'kubectl' && x.kind === 'request' && x.verb === 'WATCH');
    expect(watches.length).toBeGreaterThan(1);
    const first = /timeoutSeconds=(\d+)/.exec(watches[0].path)!;
    expect(watches[0].path).toContain('sendInitialEvents=true');
    // The second opens when the first's time is up (kubectl reads in 100 ms steps), from a resourceVersion, no stream.
    expect(watches[1].t - t0).toBeGreaterThanOrEqual(Number(first[1]) * 1000);
    expect(watches[1].t - t0).toBeLessThan(Number(first[1]) * 1000 + 200);
    expect(watches[1].path).toMatch(
      /^\/apis\/apps\/v1\/namespaces\/default\/deployments\?allowWatchBookmarks=true&fieldSelector=metadata\.name%3Dweb&resourceVersion=\d+&timeoutSeconds=\d+&watch=true$/,
    );
    // By then the history since that resourceVersion is compacted away: 410, and the reflector lists again (a stream).
    const last = watches[watches.length - 1];
    expect(last.path).toContain('sendInitialEvents=true');
    expect(watches.some((w) => w.code === 410)).toBe(true);
    expect(Object.values(c.world.state.apiServer.watchers).some((w) => w.component === 'kubectl')).toBe(false);
  });
});

describe('get -w --output-watch-events', () => {
  const setup = () => {
    const c = createCluster({ seed: 2 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    return c;
  };
  test('refused without --watch or --watch-only', () => {
    expect(runKubectl(setup(), 'get pods --output-watch-events')).toEqual({
      stdout: '',
      stderr: 'error: --output-watch-events option can only be used with --watch or --watch-only\n',
      exitCode: 1,
    });
  });
  test("tables: an EVENT column first, the listed rows ADDED, then each event's type padded to 8", () => {
    const c = setup();
    runKubectl(c, 'scale deployment web --replicas=2');
    const lines = runKubectl(c, 'get pods -w --output-watch-events -A').stdout.split('\n');
    expect(lines[0]).toMatch(/^EVENT +NAMESPACE +NAME +READY +STATUS/);
    expect(lines[1]).toMatch(/^ADDED {6}default +web-/);
    expect(
      lines
        .slice(2)
        .filter(Boolean)
        .every((l) => /^(ADDED|MODIFIED|DELETED) +default +web-/.test(l)),
    ).toBe(true);
    expect(lines.some((l) => l.startsWith('MODIFIED   default'))).toBe(true);
  });
  test("-o json: one WatchEvent a line, type before object, the object's keys sorted", () => {
    const c = setup();
    const out = runKubectl(c, 'get deploy -w --output-watch-events -o json').stdout.trim().split('\n');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^\{"type":"ADDED","object":\{"apiVersion":"apps\/v1","kind":"Deployment","metadata":\{/);
    runKubectl(c, 'scale deployment web --replicas=2');
    const more = runKubectl(c, 'get deploy -w --output-watch-events -o json').stdout.trim().split('\n');
    expect(more.slice(1).every((l) => l.startsWith('{"type":"MODIFIED","object":{'))).toBe(true);
  });
  test('-o yaml: object, then type; documents after the first open with ---; without events the objects alone', () => {
    const c = setup();
    runKubectl(c, 'scale deployment web --replicas=2');
    const y = runKubectl(c, 'get deploy -w --output-watch-events -o yaml').stdout;
    expect(y.startsWith('object:\n  apiVersion: apps/v1\n')).toBe(true);
    expect(y).toMatch(/\ntype: ADDED\n---\nobject:\n/);
    const plain = runKubectl(c, 'get deploy -w -o yaml').stdout;
    expect(plain.startsWith('apiVersion: apps/v1\nkind: Deployment\n')).toBe(true);
  });
  test('-o name: TYPE/NAME for each, wrapped or not', () => {
    expect(runKubectl(setup(), 'get deploy -w -o name --output-watch-events').stdout).toBe('deployment.apps/web\n');
  });
});

describe('--request-timeout', () => {
  test('every request carries ?timeout=; a watch runs that long and ends without a word, exit 0', () => {
    const c = createCluster({ seed: 2 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=1');
    c.settle();
    const t0 = c.now;
    const from = c.log.length;
    const r = runKubectl(c, 'get pods -w --request-timeout=4s');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(c.now - t0).toBeGreaterThanOrEqual(4000);
    const got = requests(c, from);
    expect(got[0]).toBe('GET /api/v1/namespaces/default/pods?limit=500&timeout=4s');
    expect(got[1]).toMatch(/^WATCH \/api\/v1\/namespaces\/default\/pods\?resourceVersion=\d+&timeout=4s&watch=true$/);
    expect(runKubectl(c, 'get pods --request-timeout=x').stderr).toBe(
      'error: Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)\n',
    );
  });
});
