import { describe, expect, test } from 'vitest';
import { JsonPathError, JsonPathExecError, goSharpV, jsonPathResults, renderJsonPath } from './jsonpath.ts';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { runKubectl } from './kubectl.ts';

const list = {
  kind: 'List',
  items: [
    {
      metadata: { name: 'a', labels: { app: 'web' } },
      spec: { nodeName: 'node-1', containers: [{ name: 'c1', image: 'nginx:1.27' }] },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    },
    {
      metadata: { name: 'b' },
      spec: {
        nodeName: 'node-2',
        containers: [
          { name: 'c1', image: 'busybox' },
          { name: 'c2', image: 'redis' },
        ],
      },
      status: { conditions: [{ type: 'Ready', status: 'False' }] },
    },
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
    expect(renderJsonPath('{range .items[*]}{.metadata.name}{"\\t"}{.spec.nodeName}{"\\n"}{end}', list)).toBe(
      'a\tnode-1\nb\tnode-2\n',
    );
    expect(renderJsonPath('names: {.items[*].metadata.nope}.', list)).toBe('names: .');
  });
  test('a broken template is refused; a range left open runs to the end', () => {
    expect(() => renderJsonPath('{.items[}', list)).toThrow(JsonPathError);
    expect(renderJsonPath('{range .items[*]}{.metadata.name}', list)).toBe(
      renderJsonPath('{range .items[*]}{.metadata.name}{end}', list),
    );
    expect(() => renderJsonPath('{end}', list)).toThrow('not in range');
  });
  test('kubectl get -o jsonpath renders against the List, or the one object named', () => {
    expect(runKubectl(fixtureCluster(), "get pods -o jsonpath='{.items[*].spec.nodeName}'").stdout).toBe(
      'node-1 node-2 node-3',
    );
    expect(runKubectl(fixtureCluster(), "get deploy web -o jsonpath='{.spec.replicas}'").stdout).toBe('3');
    expect(runKubectl(fixtureCluster(), "get pods -o jsonpath='{.items[}'").stderr).toBe(
      'error: error parsing jsonpath {.items[}, unterminated array\n',
    );
  });
});

describe('a template that fails on the data (evalArray: index out of bounds)', () => {
  test("{.items[0]} on an empty list: kubectl get fails with JSONPathPrinter's whole message, printing nothing", () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'get pods -l app=none -o jsonpath={.items[0]}')).toEqual({
      stdout: '',
      stderr:
        'error: error executing jsonpath "{.items[0]}": Error executing template: array index out of bounds: index 0, length 0. Printing more information for debugging the template:\n' +
        '\ttemplate was:\n\t\t{.items[0]}\n\tobject given to jsonpath engine was:\n\t\tmap[string]interface {}{"apiVersion":"v1", "items":[]interface {}{}, "kind":"List", "metadata":map[string]interface {}{"resourceVersion":""}}\n\n\n',
      exitCode: 1,
    });
    // A negative index is counted from the end first; an index inside the array still prints.
    expect(runKubectl(c, 'get pods -o jsonpath={.items[-9].metadata.name}').stderr).toMatch(
      /^error: error executing jsonpath "\{\.items\[-9\]\.metadata\.name\}": Error executing template: array index out of bounds: index -6, length 3\. /,
    );
    expect(runKubectl(c, 'get pods -o jsonpath={.items[-1].metadata.name}')).toEqual({
      stdout: 'web-7c5ddbdf54-tn4hw',
      stderr: '',
      exitCode: 0,
    });
    // Missing keys are still allowed (nothing printed, no error).
    expect(runKubectl(c, 'get pods -o jsonpath={.items[0].nope}')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
  test("goSharpV prints decoded JSON as fmt's %#v does", () => {
    expect(goSharpV({ b: [1, 2.5, true, null], a: 'x"\ty\u0001' })).toBe(
      'map[string]interface {}{"a":"x\\"\\ty\\x01", "b":[]interface {}{1, 2.5, true, interface {}(nil)}}',
    );
  });
  test("renderJsonPath throws JsonPathExecError; sort-by's results do not", () => {
    expect(() => renderJsonPath('{.a[3]}', { a: [1] })).toThrow(JsonPathExecError);
    expect(jsonPathResults('{.a[3]}', { a: [1] })).toEqual([[]]);
  });
});
