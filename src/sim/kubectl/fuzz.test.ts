// Property tests: arbitrary command lines never throw, and always end in output on stdout or a
// kubectl-style error on stderr; -o json always parses, with apiVersion and kind on every item.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { runKubectl } from './kubectl.ts';
import { runSimCommand } from './sim-commands.ts';
import { runs } from '../../test/fc.ts';

const cluster = fixtureCluster();
const snap = cluster.world.snapshot();

const WORDS = [
  'get',
  'describe',
  'apply',
  'create',
  'deployment',
  'scale',
  'set',
  'image',
  'rollout',
  'status',
  'history',
  'undo',
  'pause',
  'resume',
  'restart',
  'delete',
  'cordon',
  'uncordon',
  'drain',
  'taint',
  'label',
  'expose',
  'cluster-info',
  'version',
  'pods',
  'po',
  'deploy',
  'rs',
  'nodes',
  'no',
  'ev',
  'svc',
  'ns',
  'leases',
  'endpointslices',
  'web',
  'node-1',
  'deploy/web',
  'pod/web-7c5ddbdf54-2xkqz',
  'web-7c5ddbdf54-2xkqz',
  '-o',
  'json',
  'yaml',
  'wide',
  'name',
  '-l',
  'app=web',
  '-n',
  'kube-system',
  '-A',
  '--show-labels',
  '--replicas=2',
  '--replicas=-3',
  '--image=nginx:1.28',
  'web=nginx:1.28',
  '--port=80',
  '--force',
  '--grace-period=0',
  '--to-revision=1',
  'k=v:NoSchedule',
  'k-',
  '--ignore-daemonsets',
  '-f',
  '-',
  '"',
  "'",
  '\\',
  '--x',
  '-z',
  'deploy,rs,pods',
  '--wait=false',
  'x=y',
  'events',
  'logs',
  'wait',
  '--for=condition=Available',
  '--for=delete',
  '--for=jsonpath={.status.phase}=Running',
  '--timeout=1s',
  '--cascade=orphan',
  '--cascade',
  '--cascade=foreground',
  '--types=Warning',
  '--for',
  '-p',
  '-c',
  'nginx',
  '--tail=1',
  '--all-containers',
  'run',
  'patch',
  'annotate',
  'top',
  '--image=nginx:1.27',
  '--restart=Never',
  '{"spec":{"replicas":2}}',
  '--type=merge',
  'a=b',
  'a-',
  '--overwrite',
  '--',
  '-o=jsonpath={.items[*].metadata.name}',
  'jsonpath={range .items[*]}{.kind}{end}',
  '-o=jsonpath={.x[}',
  'api-resources',
  '--namespaced=true',
  '--type=json',
  '--type',
  'json',
  '[{"op":"replace","path":"/spec/replicas","value":2}]',
  '[{"op":"test","path":"/spec/replicas","value":9}]',
  '[{"op":"remove","path":"/x/0"}]',
  '--subresource=status',
  '--subresource=scale',
  'auth',
  'can-i',
  'list',
  '--as',
  'jane',
  '--as=system:kube-scheduler',
  '--as-group=system:masters',
  '/healthz',
  '-q',
  '--list',
  '*',
  '-w',
  '--watch-only',
  '--sort-by=.metadata.name',
  '--sort-by=.spec.replicas',
  '--sort-by=.metadata.labels',
  '--sort-by',
  '-L',
  'app',
  '--no-headers',
  '-o=custom-columns=N:.metadata.name,R:.spec.replicas',
  'custom-columns=A',
  'namespace',
  'service',
  'clusterip',
  'nodeport',
  '--tcp=80:8080',
  '--tcp=x',
  'api-versions',
  'exec',
  'configmap',
  '--revision=1',
  '--revision=x',
  '--all',
];

const line = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 12 })), { maxLength: 7 })
  .map((ws) => ws.join(' '));
// (A simulated watch also ends with its own note on stderr: a real one runs until Ctrl-C.)
const errorLine =
  /^(error: |Error from server|Error: flags cannot be placed before plugin name|The connection to the server|The [A-Z][A-Za-z]+ ".*" is invalid|The request is invalid|Warning: |warning: |No resources found|No events found|You must specify|There are pending|\(watch ended: |\nTo further debug)/;

describe('fuzz', () => {
  test('kubectl lines never throw and end in output or a kubectl-style error', () => {
    fc.assert(
      fc.property(line, fc.option(fc.string({ maxLength: 200 })), (l, stdin) => {
        cluster.world.restore(snap);
        const r = runKubectl(cluster, l, stdin ?? undefined);
        expect(typeof r.stdout).toBe('string');
        // kubectl auth can-i answers "no" with exit code 1 and nothing on stderr (nothing at all with -q).
        const canIDenied = /\bcan-i\b/.test(l) && /^(no\n)?$/.test(r.stdout);
        // A command group without its subcommand (`kubectl rollout`) prints its help on stdout and exits 1.
        const groupHelp = r.stderr === '' && r.stdout.includes('\nUsage:\n');
        if (r.exitCode !== 0 && !canIDenied && !groupHelp) expect(r.stderr).toMatch(errorLine);
        // An empty log, a wait for an object already gone, a template over missing fields or can-i -q prints nothing, as kubectl does.
        else if (!/^\s*(logs|wait)\b/.test(l) && !l.includes('jsonpath') && !/\bcan-i\b/.test(l))
          expect(r.stdout.length + r.stderr.length).toBeGreaterThan(0);
        if (r.stderr) expect(r.stderr).toMatch(errorLine);
      }),
      { numRuns: runs(1) },
    );
  });
  test('-o json parses and every item has apiVersion and kind', () => {
    const kinds = fc.constantFrom(
      'pods',
      'deploy',
      'rs',
      'nodes',
      'ev',
      'ns',
      'svc',
      'deploy,rs,pods',
      'pod web-7c5ddbdf54-2xkqz',
      'deploy web',
    );
    fc.assert(
      fc.property(kinds, fc.boolean(), (k, all) => {
        cluster.world.restore(snap);
        const r = runKubectl(cluster, `get ${k} -o json${all ? ' -A' : ''}`);
        expect(r.exitCode).toBe(0);
        const v = JSON.parse(r.stdout);
        const items = v.kind === 'List' ? v.items : [v];
        for (const it of items) {
          expect(typeof it.apiVersion).toBe('string');
          expect(typeof it.kind).toBe('string');
        }
      }),
      { numRuns: runs(0.1) },
    );
  });
  test('sim lines never throw', () => {
    const simWords = fc.constantFrom(
      'advance',
      'settle',
      'node',
      'stop',
      'start',
      'partition',
      'heal',
      'control-plane',
      'apiserver',
      'latency',
      'etcd',
      'full',
      'ok',
      'crash',
      '--oom',
      'image',
      'missing',
      'available',
      'time',
      'log',
      '--since',
      '-o',
      'json',
      '5s',
      '1h2m',
      '500ms',
      'node-1',
      'x',
      '-3',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(simWords, fc.string({ maxLength: 6 })), { maxLength: 5 }), (ws) => {
        cluster.world.restore(snap);
        const r = runSimCommand(cluster, ['sim', ...ws]);
        if (r.exitCode !== 0) expect(r.stderr).toMatch(/^error: /);
      }),
      { numRuns: runs(1) },
    );
  });
});
