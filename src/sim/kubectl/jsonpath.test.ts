import { describe, expect, test } from 'vitest';
import { JsonPathError, renderJsonPath } from './jsonpath.ts';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { runKubectl } from './kubectl.ts';

const list = {
  kind: 'List',
  items: [
    { metadata: { name: 'a', labels: { app: 'web' } }, spec: { nodeName: 'node-1', containers: [{ name: 'c1', image: 'nginx:1.27' }] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
    { metadata: { name: 'b' }, spec: { nodeName: 'node-2', containers: [{ name: 'c1', image: 'busybox' }, { name: 'c2', image: 'redis' }] }, status: { conditions: [{ type: 'Ready', status: 'False' }] } },
  ],
};

describe('jsonpath templates', () => {
  test('fields, indexes, wildcards, quoted keys and recursive descent', () => {
    expect(renderJsonPath('{.items[*].metadata.name}', list)).toBe('a b');
    expect(renderJsonPath('{.items[1].spec.containers[-1].image}', list)).toBe('redis');
    expect(renderJsonPath("{.items[0].metadata.labels['app']}", list)).toBe('web');
    expect(renderJsonPath('{..image}', list)).toBe('nginx:1.27 busybox redis');
    expect(renderJsonPath('{.items[0].metadata.labels}', list)).toBe('{"app":"web"}');
  });
  test('filters, range and literals; missing keys print nothing', () => {
    expect(renderJsonPath('{.items[?(@.status.conditions[0].status=="True")].metadata.name}', list)).toBe('a');
    expect(renderJsonPath('{range .items[*]}{.metadata.name}{"\\t"}{.spec.nodeName}{"\\n"}{end}', list)).toBe('a\tnode-1\nb\tnode-2\n');
    expect(renderJsonPath('names: {.items[*].metadata.nope}.', list)).toBe('names: .');
  });
  test('a broken template is refused; a range left open runs to the end', () => {
    expect(() => renderJsonPath('{.items[}', list)).toThrow(JsonPathError);
    expect(renderJsonPath('{range .items[*]}{.metadata.name}', list)).toBe(renderJsonPath('{range .items[*]}{.metadata.name}{end}', list));
    expect(() => renderJsonPath('{end}', list)).toThrow('not in range');
  });
  test('kubectl get -o jsonpath renders against the List, or the one object named', () => {
    expect(runKubectl(fixtureCluster(), "get pods -o jsonpath='{.items[*].spec.nodeName}'").stdout).toBe('node-1 node-2 node-3');
    expect(runKubectl(fixtureCluster(), "get deploy web -o jsonpath='{.spec.replicas}'").stdout).toBe('3');
    expect(runKubectl(fixtureCluster(), "get pods -o jsonpath='{.items[}'").stderr).toBe('error: error parsing jsonpath {.items[}, unterminated array\n');
  });
});
