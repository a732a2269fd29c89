// kubectl run's --annotations, --env and --overrides as run.go completes and applies them: pairs
// parsed by ParsePairs, the generated Pod's JSON merged with the override (merge by default,
// strategic or json with --override-type) and decoded back into a Pod.
import type { Pod, PodSpec } from 'kubernetes-types/core/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { describe, expect, test } from 'vitest';
import { createCluster } from '../../cluster.ts';
import { runKubectl } from '../kubectl.ts';
import { applyOverrides, parsePairs } from './run.ts';

const pod = (c: ReturnType<typeof createCluster>, name: string) =>
  JSON.parse(runKubectl(c, `get pod ${name} -o json`).stdout) as Pod & { metadata: ObjectMeta; spec: PodSpec };

describe('run --annotations', () => {
  test("each k=v an annotation (split at the first =), keys in Go's map order", () => {
    const c = createCluster({ seed: 3 });
    expect(runKubectl(c, 'run a --image=nginx:1.27 --annotations=team=blue --annotations=note=a=b').stdout).toBe(
      'pod/a created\n',
    );
    expect(pod(c, 'a').metadata.annotations).toEqual({ note: 'a=b', team: 'blue' });
    expect(runKubectl(c, 'run b --image=nginx:1.27 --annotations=x=1 --dry-run=client -o yaml').stdout).toMatch(
      /^metadata:\n {2}annotations:\n {4}x: "1"\n {2}labels:/m,
    );
  });
  test('pairs without = or starting with it are refused together', () => {
    expect(() => parsePairs(['ok=1', 'bad', '=x'], 'annotations')).toThrow(
      'error: invalid annotations format: bad, =x',
    );
    expect(runKubectl(createCluster({ seed: 3 }), 'run b --image=nginx:1.27 --annotations=bad')).toEqual({
      stdout: '',
      stderr: 'error: invalid annotations format: bad\n',
      exitCode: 1,
    });
  });
});

describe('run --env', () => {
  test("the container's env in order; a bad name refused", () => {
    const c = createCluster({ seed: 3 });
    runKubectl(c, 'run e --image=nginx:1.27 --env=A=1 --env=B=x=y');
    expect(pod(c, 'e').spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'x=y' },
    ]);
    expect(runKubectl(c, 'run f --image=nginx:1.27 --env=1A=1').stderr).toBe('error: invalid env: 1A=1\n');
  });
});

describe('run --overrides', () => {
  test('a merge patch of the generated Pod: maps merge, lists are replaced, unknown fields dropped', () => {
    const c = createCluster({ seed: 3 });
    expect(
      runKubectl(
        c,
        `run o --image=nginx:1.27 --overrides='{"metadata":{"labels":{"tier":"edge"}},"spec":{"nodeSelector":{"kubernetes.io/hostname":"node-3"},"foo":1,"containers":[{"name":"o","image":"nginx:1.28"}]}}'`,
      ).stdout,
    ).toBe('pod/o created\n');
    c.settle();
    const p = pod(c, 'o');
    expect(p.metadata.labels).toEqual({ run: 'o', tier: 'edge' });
    expect(p.spec.nodeName).toBe('node-3');
    expect(p.spec).not.toHaveProperty('foo');
    expect(p.spec.containers.map((x) => x.image)).toEqual(['nginx:1.28']);
  });
  test('strategic merges the containers by name; json applies operations', () => {
    const gen: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 's' },
      spec: { containers: [{ name: 's', image: 'a', resources: {} }] },
    };
    expect(
      applyOverrides(gen, '{"spec":{"containers":[{"name":"s","args":["x"]}]}}', 'strategic').spec!.containers,
    ).toEqual([{ name: 's', image: 'a', resources: {}, args: ['x'] }]);
    expect(
      applyOverrides(gen, '[{"op":"replace","path":"/spec/containers/0/image","value":"b"}]', 'json').spec!
        .containers[0].image,
    ).toBe('b');
  });
  test('the errors: no JSON, a field of the wrong type, an unknown --override-type', () => {
    const c = createCluster({ seed: 3 });
    expect(runKubectl(c, 'run x --image=nginx:1.27 --overrides={bad').stderr).toBe('error: Invalid JSON Patch\n');
    expect(runKubectl(c, `run x --image=nginx:1.27 --overrides='{"spec":{"containers":"x"}}'`).stderr).toBe(
      'error: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container\n',
    );
    expect(runKubectl(c, `run x --image=nginx:1.27 --override-type=yaml --overrides='{}'`).stderr).toBe(
      'error: invalid override type: yaml\n',
    );
    expect(c.log.filter((x) => x.kind === 'request' && x.component === 'kubectl' && x.verb === 'POST')).toEqual([]);
  });
});
