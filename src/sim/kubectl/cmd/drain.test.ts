// kubectl cordon, uncordon and drain as DrainCmdOptions runs them: nodes by name (a GET each) or by
// --selector (one LIST), every node cordoned before any is drained, and both dry runs.
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';

function cluster() {
  const c = createCluster({ seed: 3 });
  runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
  c.settle();
  runKubectl(c, 'label node node-1 node-2 pool=a');
  return c;
}
const sent = (c: ReturnType<typeof cluster>, from: number) =>
  c.log
    .slice(from)
    .filter((x) => x.kind === 'request' && x.component === 'kubectl')
    .map((x) => `${x.verb} ${x.path}`);
const podsOn = (c: ReturnType<typeof cluster>, node: string) =>
  runKubectl(c, `get pods --field-selector=spec.nodeName=${node} -o name`).stdout.trim().split('\n').filter(Boolean);

describe('cordon / uncordon -l', () => {
  test('one LIST of the matching nodes (chunked), then a PATCH each; no GET', () => {
    const c = cluster();
    const from = c.log.length;
    expect(runKubectl(c, 'cordon -l pool=a')).toEqual({
      stdout: 'node/node-1 cordoned\nnode/node-2 cordoned\n',
      stderr: '',
      exitCode: 0,
    });
    expect(sent(c, from)).toEqual([
      'GET /api/v1/nodes?labelSelector=pool%3Da&limit=500',
      'PATCH /api/v1/nodes/node-1',
      'PATCH /api/v1/nodes/node-2',
    ]);
    expect(runKubectl(c, 'uncordon -l pool=a --dry-run=client').stdout).toBe(
      'node/node-1 uncordoned (dry run)\nnode/node-2 uncordoned (dry run)\n',
    );
    expect(runKubectl(c, 'uncordon -l pool=a').stdout).toBe('node/node-1 uncordoned\nnode/node-2 uncordoned\n');
    expect(runKubectl(c, 'cordon -l pool=none')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
  test('a name and a selector together, or neither: the usage errors', () => {
    const c = cluster();
    expect(runKubectl(c, 'cordon node-1 -l pool=a').stderr).toBe(
      "error: cannot specify both a node name and a --selector option\nSee 'kubectl cordon -h' for help and examples\n",
    );
    expect(runKubectl(c, 'drain').stderr).toBe(
      "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n",
    );
  });
});

describe('drain', () => {
  test('-l: every node cordoned first, then each drained', () => {
    const c = cluster();
    const out = runKubectl(c, 'drain -l pool=a');
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['node/node-1 cordoned', 'node/node-2 cordoned']);
    expect(lines.filter((l) => l.endsWith(' drained'))).toEqual(['node/node-1 drained', 'node/node-2 drained']);
    expect(lines.findIndex((l) => l.startsWith('evicting pod'))).toBe(2);
    expect(lines.indexOf('node/node-1 drained')).toBeLessThan(lines.indexOf('node/node-2 drained'));
    expect(podsOn(c, 'node-1')).toEqual([]);
    expect(podsOn(c, 'node-2')).toEqual([]);
  });
  test('--dry-run=client: the cordon and the pods it would evict, nothing sent but reads', () => {
    const c = cluster();
    const before = podsOn(c, 'node-2');
    const from = c.log.length;
    const out = runKubectl(c, 'drain node-2 --dry-run=client');
    expect(out.stdout).toBe(
      `node/node-2 cordoned (dry run)\n${before.map((p) => `evicting pod default/${p.slice('pod/'.length)} (dry run)\n`).join('')}node/node-2 drained (dry run)\n`,
    );
    expect(sent(c, from).every((x) => x.startsWith('GET '))).toBe(true);
    expect(podsOn(c, 'node-2')).toEqual(before);
    expect(runKubectl(c, 'get node node-2 -o jsonpath={.spec.unschedulable}').stdout).toBe('');
  });
  test('--dry-run=server: the cordon and evictions sent as dry runs (the cordon with ?dryRun=All, each eviction with it in its deleteOptions), no waiting, nothing changed', () => {
    const c = cluster();
    const before = podsOn(c, 'node-2');
    const from = c.log.length;
    const out = runKubectl(c, 'drain node-2 --dry-run=server');
    expect(out.stdout).toBe(
      `node/node-2 cordoned (server dry run)\n${before.map((p) => `evicting pod default/${p.slice('pod/'.length)} (server dry run)\n`).join('')}node/node-2 drained (server dry run)\n`,
    );
    expect(
      sent(c, from)
        .filter((x) => x.startsWith('PATCH'))
        .every((x) => x.endsWith('?dryRun=All')),
    ).toBe(true);
    expect(
      sent(c, from)
        .filter((x) => x.startsWith('POST'))
        .every((x) => x.endsWith('/eviction')),
    ).toBe(true);
    c.advance(30_000);
    expect(podsOn(c, 'node-2')).toEqual(before);
  });
  test('a node that cannot be drained: the others still are; the pending ones listed; exit 1', () => {
    const c = cluster();
    runKubectl(
      c,
      'apply -f -',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  nodeName: node-1\n  containers:\n  - name: c\n    image: nginx:1.27\n',
    );
    c.advance(5_000);
    const out = runKubectl(c, 'drain -l pool=a');
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toContain('node/node-2 drained\n');
    expect(out.stdout).not.toContain('node/node-1 drained');
    const agg = 'cannot delete Pods that declare no controller (use --force to override): default/solo';
    // CheckErr prints an aggregate's errors a line each, without "error: " (oracle/traces/pdb.json).
    expect(out.stderr).toBe(
      `error: unable to drain node "node-1" due to error: ${agg}, continuing command...\nThere are pending nodes to be drained:\n node-1\n${agg}\n`,
    );
  });
});

describe("drain's requests", () => {
  test("the pods on the node are listed from every namespace in chunks of 500 (GetPodsForDeletion's Limit: --chunk-size)", () => {
    const c = cluster();
    const from = c.log.length;
    expect(runKubectl(c, 'drain node-2').exitCode).toBe(0);
    expect(sent(c, from).filter((x) => x.includes('/pods?'))).toEqual([
      'GET /api/v1/pods?fieldSelector=spec.nodeName%3Dnode-2&limit=500',
    ]);
  });
});

describe('drain --dry-run=server', () => {
  test("the evictions carry dryRun in the Eviction's deleteOptions, not the query; nothing is evicted", async () => {
    const { createCluster } = await import('../../cluster.ts');
    const { runKubectl } = await import('../kubectl.ts');
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
    c.settle();
    const from = c.log.length;
    expect(runKubectl(c, 'drain node-2 --ignore-daemonsets --dry-run=server').exitCode).toBe(0);
    const evictions = c.log
      .slice(from)
      .filter((x) => x.kind === 'request' && x.component === 'kubectl' && x.path?.includes('/eviction'));
    expect(evictions.length).toBeGreaterThan(0);
    for (const e of evictions) expect(e.path).not.toContain('dryRun');
    expect(runKubectl(c, 'get pods').stdout).not.toMatch(/Terminating/);
  });
});

describe('drain: a refused pod that another client deletes', () => {
  test('the retry finds it gone (404): its goroutine ends with no "evicted" line and the drain succeeds', () => {
    const c = cluster();
    runKubectl(c, 'create pdb web --selector=app=web --min-available=3');
    c.settle();
    const victim = podsOn(c, 'node-1')[0].replace('pod/', '');
    expect(victim).toBeTruthy();
    // Between drain's 5 s retries another client deletes the pod at once (grace 0).
    const advance = c.advance.bind(c);
    let deleted = false;
    c.advance = (ms: number) => {
      advance(ms);
      if (!deleted) {
        deleted = true;
        c.request({
          verb: 'delete',
          resource: 'pods',
          namespace: 'default',
          name: victim,
          options: { gracePeriodSeconds: 0 },
        });
      }
    };
    const from = c.log.length;
    const out = runKubectl(c, 'drain node-1 --timeout=30s');
    expect(out.stderr).toContain(
      `error when evicting pods/"${victim}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
    );
    expect(out.stdout).not.toContain(`pod/${victim} evicted`);
    expect(out.stdout).toContain('node/node-1 drained');
    expect(out.exitCode).toBe(0);
    const evictions = c.log
      .slice(from)
      .filter((x) => x.kind === 'request' && x.component === 'kubectl' && x.path?.endsWith(`/pods/${victim}/eviction`));
    expect(evictions.map((x) => x.kind === 'request' && x.code)).toEqual([429, 404]);
  });
});
