import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runKubectl } from './kubectl.ts';
import { isLess, relaxedJSONPathExpression, sortByField, SortByError } from './sort-by.ts';

describe('RelaxedJSONPathExpression', () => {
  it.each([
    ['lastTimestamp', '{.lastTimestamp}'],
    ['.lastTimestamp', '{.lastTimestamp}'],
    ['{.metadata.name}', '{.metadata.name}'],
    ['{metadata.name}', '{.metadata.name}'],
    ['.status.containerStatuses[0].restartCount', '{.status.containerStatuses[0].restartCount}'],
    ['', ''],
  ])('%s → %s', (input, want) => {
    expect(relaxedJSONPathExpression(input)).toBe(want);
  });

  it('refuses two expressions', () => {
    expect(() => relaxedJSONPathExpression('{.a}{.b}')).toThrow(
      "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  });
});

describe('isLess (values of an unstructured object)', () => {
  it('orders numbers, natural strings, quantities, and nil first', () => {
    expect(isLess(2, 10)).toBe(true);
    expect(isLess(1.5, 0.5)).toBe(false);
    expect(isLess('web-2', 'web-10')).toBe(false); // byte order since v1.31 (no natural order)
    expect(isLess('m', 'web')).toBe(true); // "m" is a quantity (0), "web" is not: byte order
    expect(isLess('m', '1')).toBe(true); // both quantities: 0 < 1
    expect(isLess('100m', '1')).toBe(true); // both quantities
    expect(isLess('2Gi', '1500Mi')).toBe(false);
    expect(isLess('10', '9')).toBe(false); // "10" and "9" parse as quantities
    expect(isLess('2026-01-01T00:00:09Z', '2026-01-01T00:00:10Z')).toBe(true);
    expect(isLess(null, 'a')).toBe(true);
    expect(isLess('a', null)).toBe(false);
    expect(isLess(null, null)).toBe(false);
  });

  it('refuses what kubectl cannot sort', () => {
    expect(() => isLess(1, 1.5)).toThrow(SortByError); // int64 against float64
    expect(() => isLess('a', 1)).toThrow('unsortable interface: interface');
    expect(() => isLess(true, false)).toThrow('unsortable type: bool');
    expect(() => isLess({ a: 1 }, { a: 2 })).toThrow('unsortable type: map[string]interface {}');
  });
});

describe('sortByField', () => {
  it('puts objects without the field first and refuses a field no object has', () => {
    const objs = [{ n: 'b', v: 2 }, { n: 'x' }, { n: 'a', v: 1 }];
    sortByField(objs, '{.v}');
    expect(objs.map((o) => o.n)).toEqual(['x', 'a', 'b']);
    expect(() => sortByField(objs, '{.nope}')).toThrow(
      'couldn\'t find any field with path "{.nope}" in the list of objects',
    );
    const none: unknown[] = [];
    sortByField(none, '{.nope}'); // an empty list is never checked
  });
});

describe('kubectl get --sort-by', () => {
  const cluster = () => {
    const c = createCluster({ seed: 4 });
    runKubectl(c, 'create deployment web --image=nginx:1.27 --replicas=4');
    c.settle();
    return c;
  };

  it('orders the table rows by the field (here the node), in every output', () => {
    const c = cluster();
    const out = runKubectl(c, 'get pods -o wide --sort-by=.spec.nodeName');
    expect(out.exitCode).toBe(0);
    const nodes = out.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s+/)[6]);
    expect(nodes).toEqual([...nodes].sort());
    const names = runKubectl(c, 'get pods --sort-by=.spec.nodeName -o name').stdout.trim().split('\n');
    const byNode = runKubectl(
      c,
      'get pods --sort-by=.spec.nodeName -o jsonpath={.items[*].metadata.name}',
    ).stdout.split(' ');
    expect(names.map((n) => n.replace('pod/', ''))).toEqual(byNode);
    expect(
      runKubectl(c, 'get pods --sort-by=.spec.nodeName --no-headers')
        .stdout.split('\n')
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(byNode);
  });

  it('events by lastTimestamp: the newest last, as the troubleshooting chapter advises', () => {
    const c = cluster();
    runKubectl(c, 'scale deployment web --replicas=2');
    c.settle();
    const out = runKubectl(c, 'get events --sort-by=.lastTimestamp');
    expect(out.exitCode).toBe(0);
    const rows = out.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
    expect(rows.at(-1)).toMatch(/Killing|ScalingReplicaSet|SuccessfulDelete/);
    expect(rows.slice(1).length).toBeGreaterThan(12); // past Go's insertion-sort threshold
  });

  it("gives kubectl's errors for a field nothing has and a path it cannot read", () => {
    const c = cluster();
    expect(runKubectl(c, 'get pods --sort-by=.spec.nope')).toEqual({
      stdout: '',
      stderr: 'error: couldn\'t find any field with path "{.spec.nope}" in the list of objects\n',
      exitCode: 1,
    });
    expect(runKubectl(c, 'get pods --sort-by=.metadata.labels').stderr).toBe(
      'error: Field {.metadata.labels} in [][][]reflect.Value is an unsortable type: interface, err: unsortable type: map[string]interface {}\n',
    );
    expect(runKubectl(c, 'get deployments --sort-by=.spec.replicas').exitCode).toBe(0); // one row: nothing to compare
    expect(runKubectl(c, 'get pods -l app=none --sort-by=.spec.nope').stderr).toBe(
      'No resources found in default namespace.\n',
    );
  });
});
