// kubectl get with selectors the API server refuses: its 400, named by cli-runtime's EnhanceListError.
import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../../testing/kubectl-fixture.ts';
import { runKubectl } from '../kubectl.ts';

describe('get: a refused selector is an error, not "No resources found"', () => {
  test.each([
    [
      "get pods -l 'app in ('",
      'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "app in (", field selector "": unable to parse requirement: found \'\', expected: \',\', \')\' or identifier\n',
    ],
    [
      'get pods --field-selector=spec.bogus=x',
      'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", field selector "spec.bogus=x": field label not supported: spec.bogus\n',
    ],
    [
      'get deploy --field-selector=spec.replicas=3',
      'Error from server (BadRequest): Unable to find "apps/v1, Resource=deployments" that match label selector "", field selector "spec.replicas=3": "spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"\n',
    ],
    [
      'get pods -l app=web,',
      'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "app=web,", field selector "": found \'\', expected: identifier after \',\'\n',
    ],
  ])('%s', (cmd, stderr) => {
    const c = fixtureCluster();
    const from = c.log.length;
    expect(runKubectl(c, cmd)).toEqual({ stdout: '', stderr, exitCode: 1 });
    const rec = c.log.slice(from).find((x) => x.kind === 'request' && x.component === 'kubectl');
    expect(rec && rec.kind === 'request' && rec.code).toBe(400);
  });
  test('selectors the server takes still select', () => {
    const c = fixtureCluster();
    expect(
      runKubectl(c, 'get pods -l app=web --field-selector=status.phase=Running -o name').stdout.trim().split('\n'),
    ).toHaveLength(3);
    expect(runKubectl(c, "get pods -l 'app notin (web)'").stderr).toBe('No resources found in default namespace.\n');
    expect(runKubectl(c, 'get pods -l app=web -w --request-timeout=1s').exitCode).toBe(0);
  });
  test('label -l with a bad selector: the same error from its LIST', () => {
    expect(runKubectl(fixtureCluster(), "label pods -l 'app in (' x=y").stderr).toMatch(
      /^Error from server \(BadRequest\): Unable to find "\/v1, Resource=pods" that match label selector "app in \(", field selector "": unable to parse requirement: /,
    );
  });
});

describe('an ambiguous short name warns as the shortcut expander does (oracle/traces/short-names.json)', () => {
  const W = 'Warning: short name "ev" could also match lower priority resource events.events.k8s.io\n';
  test('each mapping of `ev` warns once; the long names and `event` do not', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'get ev/nothing-here').stderr).toBe(
      `${W}Error from server (NotFound): events "nothing-here" not found\n`,
    );
    expect(runKubectl(c, 'get po,ev --field-selector=metadata.name=nothing-here').stderr).toBe(
      `${W}No resources found in default namespace.\n`,
    );
    // describe's fallback (DescribeMatchingResources) maps TYPE again.
    expect(runKubectl(c, 'describe ev nothing-here').stderr).toBe(
      `${W}${W}Error from server (NotFound): events "nothing-here" not found\n`,
    );
    for (const cmd of ['get events/nothing-here', 'get event/nothing-here', 'describe events nothing-here'])
      expect(runKubectl(c, cmd).stderr).not.toContain('Warning');
  });
});
