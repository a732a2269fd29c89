// kubectl taint as TaintOptions completes and validates it: resources before taint changes, nodes by
// name (a GET each), by --selector or --all (one LIST, no GET), and its argument errors.
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';

const sent = (c: ReturnType<typeof createCluster>, from: number) =>
  c.log
    .slice(from)
    .filter((x) => x.kind === 'request' && x.component === 'kubectl')
    .map((x) => `${x.verb} ${x.path}`);

describe('taint nodes --all / -l', () => {
  test('--all: every node, from one LIST; removing likewise', () => {
    const c = createCluster({ seed: 3 });
    const from = c.log.length;
    expect(runKubectl(c, 'taint nodes --all k=v:NoSchedule')).toEqual({
      stdout: 'node/node-1 tainted\nnode/node-2 tainted\nnode/node-3 tainted\n',
      stderr: '',
      exitCode: 0,
    });
    expect(sent(c, from)).toEqual([
      'GET /api/v1/nodes',
      'PATCH /api/v1/nodes/node-1?fieldManager=kubectl-taint&fieldValidation=Strict',
      'PATCH /api/v1/nodes/node-2?fieldManager=kubectl-taint&fieldValidation=Strict',
      'PATCH /api/v1/nodes/node-3?fieldManager=kubectl-taint&fieldValidation=Strict',
    ]);
    expect(runKubectl(c, 'taint nodes --all k-').stdout).toBe(
      'node/node-1 untainted\nnode/node-2 untainted\nnode/node-3 untainted\n',
    );
  });
  test('-l: the matching nodes only; names still work, several at once', () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'label node node-1 pool=a');
    expect(runKubectl(c, 'taint nodes -l pool=a k=v:NoSchedule').stdout).toBe('node/node-1 tainted\n');
    expect(runKubectl(c, 'taint nodes node-2 node-3 z=1:NoExecute').stdout).toBe(
      'node/node-2 tainted\nnode/node-3 tainted\n',
    );
    expect(runKubectl(c, 'get nodes -o jsonpath={.items[*].spec.taints[*].key}').stdout).toBe('k z z');
  });
  test.each([
    [
      'taint nodes k=v:NoSchedule',
      "error: at least one resource name must be specified since 'all' parameter is not set",
    ],
    [
      'taint nodes --all -l pool=a k=v:NoSchedule',
      "error: setting 'all' parameter with a non empty selector is prohibited",
    ],
    ['taint nodes node-1 k=v:NoSchedule node-2', 'error: all resources must be specified before taint changes: node-2'],
    [
      'taint nodes node-1 k=v:NoSchedule k-',
      'error: can not both modify and remove the following taint(s) in the same command: k=',
    ],
    ['taint po x k=v:NoSchedule', 'error: invalid resource type po, only node types are supported'],
    ['taint node/node-1 k=v:NoSchedule', 'error: the server doesn\'t have a resource type "node/node-1"'],
  ])('%s', (cmd, err) => {
    expect(runKubectl(createCluster({ seed: 3 }), cmd)).toEqual({ stdout: '', stderr: `${err}\n`, exitCode: 1 });
  });
});
