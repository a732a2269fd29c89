import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { goSprint, parseCustomColumns } from './custom-columns.ts';
import { runKubectl } from './kubectl.ts';

describe('custom-columns spec', () => {
  it('splits HEADER:path pairs and relaxes the paths', () => {
    expect(parseCustomColumns('NAME:.metadata.name,NODE:spec.nodeName,IP:{.status.podIP}')).toEqual([
      { header: 'NAME', field: '{.metadata.name}' },
      { header: 'NODE', field: '{.spec.nodeName}' },
      { header: 'IP', field: '{.status.podIP}' },
    ]);
    expect(parseCustomColumns('TAINT:.spec.taints[*].key')).toEqual([
      { header: 'TAINT', field: '{.spec.taints[*].key}' },
    ]);
  });

  it.each([
    ['', 'custom-columns format specified but no custom columns given'],
    ['NAME', 'unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>'],
    [
      'NAME:.metadata.name,.spec.nodeName',
      'unexpected custom-columns spec: .spec.nodeName, expected <header>:<json-path-expr>',
    ],
  ])('refuses %j', (spec, message) => {
    expect(() => parseCustomColumns(spec)).toThrow(message);
  });
});

describe('goSprint (fmt.Sprint of unstructured values)', () => {
  it.each([
    ['web', 'web'],
    [3, '3'],
    [0.5, '0.5'],
    [0.00001, '1e-05'],
    [1e21, '1e+21'],
    [true, 'true'],
    [null, '<nil>'],
    [['a', 'b'], '[a b]'],
    [{ b: 1, a: 'x' }, 'map[a:x b:1]'],
  ] as const)('%j → %s', (v, want) => {
    expect(goSprint(v)).toBe(want);
  });
});

describe('kubectl get -o custom-columns', () => {
  const c = createCluster({ seed: 4 });
  runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=3');
  c.settle();

  it('prints the headers as written, then one row per object, aligned as get aligns', () => {
    const out = runKubectl(
      c,
      'get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,READY:.status.containerStatuses[0].ready,NOPE:.spec.nope --sort-by=.metadata.name',
    );
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME {3,}NODE {3,}READY {3,}NOPE$/);
    expect(lines).toHaveLength(4);
    for (const l of lines.slice(1)) expect(l).toMatch(/^web-c68c68797-\w{5} {3,}node-\d {3,}true {3,}<none>$/);
    const names = lines.slice(1).map((l) => l.split(/\s+/)[0]);
    expect(names).toEqual([...names].sort());
  });

  it('joins every value a path finds with commas; --no-headers drops the header line', () => {
    const out = runKubectl(
      c,
      'get nodes --no-headers -o custom-columns=NAME:.metadata.name,TYPES:.status.conditions[*].type',
    );
    expect(out.stdout.split('\n')[0]).toMatch(/^node-1 {3,}MemoryPressure,DiskPressure,PIDPressure,Ready$/);
  });

  it('a single named object, and the refusals kubectl prints', () => {
    expect(
      runKubectl(c, 'get deployment web -o custom-columns=NAME:.metadata.name,REPLICAS:.spec.replicas').stdout,
    ).toBe('NAME   REPLICAS\nweb    3\n');
    expect(runKubectl(c, 'get pods -o custom-columns=NAME')).toEqual({
      stdout: '',
      stderr: 'error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>\n',
      exitCode: 1,
    });
    expect(runKubectl(c, 'get pods -o custom-columns').stderr).toBe(
      'error: custom-columns format specified but no custom columns given\n',
    );
    // Only the human-readable printers say "No resources found"; this one prints its header.
    expect(runKubectl(c, 'get pods -l app=none -o custom-columns=NAME:.metadata.name')).toEqual({
      stdout: 'NAME\n',
      stderr: '',
      exitCode: 0,
    });
  });
});
