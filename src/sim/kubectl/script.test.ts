import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../testing/kubectl-fixture.ts';
import { parseScript, runScript, scriptHeader } from './script.ts';

describe('scripts', () => {
  test('comments, blank lines and here-documents', () => {
    expect(parseScript('# c\n\nkubectl get pods\nkubectl apply -f - <<EOF\na: 1\n  b: 2\nEOF\nsim time\n')).toEqual([
      { line: 3, command: 'kubectl get pods' },
      { line: 4, command: 'kubectl apply -f -', stdin: 'a: 1\n  b: 2\n' },
      { line: 8, command: 'sim time' },
    ]);
    expect(parseScript("kubectl apply -f - <<'END'\nx: 1\n")[0].error).toBe(
      "error: here-document at line 1 delimited by end-of-file (wanted `END')",
    );
  });
  test('carries on after a failure and exits 1', () => {
    const out: string[] = [];
    const r = runScript(fixtureCluster(), 'kubectl get deploy nope\nhelm install x\nsim time\n', {}, (s) =>
      out.push(s.stdout + s.stderr),
    );
    expect(out).toEqual([
      'Error from server (NotFound): deployments.apps "nope" not found\n',
      'error: unknown command "helm": script lines start with kubectl or sim\n',
      't=10m0.000s\n',
    ]);
    expect(r.exitCode).toBe(1);
  });
  test('apply -f FILE reads through the host', () => {
    const files: Record<string, string> = { 'ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n' };
    const r = runScript(fixtureCluster(), 'kubectl apply -f ns.yaml\nkubectl apply -f missing.yaml\n', {
      readFile: (p) => files[p],
    });
    expect(r.steps.map((s) => s.stdout + s.stderr)).toEqual([
      'namespace/shop created\n',
      'error: the path "missing.yaml" does not exist\n',
    ]);
  });
  test('a # nodes: header sizes every worker, and a malformed one is refused', () => {
    expect(scriptHeader('# Preemption.\n# nodes: cpu=1 memory=3840Mi\nkubectl get pods\n').nodes).toEqual({
      cpu: '1',
      memory: '3840Mi',
    });
    expect(scriptHeader('kubectl get pods\n# nodes: cpu=1 memory=1Gi\n').nodes).toBeUndefined();
    expect(() => scriptHeader('# nodes: cpu=1\n')).toThrow('bad "# nodes:" header "cpu=1"');
    expect(() => scriptHeader('# nodes: cpu=1 memory=1Gi disk=9\n')).toThrow('want: cpu=<quantity> memory=<quantity>');
  });
});
