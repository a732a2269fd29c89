// kubectl label and annotate visit what the builder gives them: a selector's LIST items as they are
// (one LIST, then one PATCH each), a name through one GET; and label says what it did not find.
import { describe, expect, test } from 'vitest';
import { fixtureCluster } from '../../testing/kubectl-fixture.ts';
import { runKubectl } from '../kubectl.ts';

/** The verbs and paths kubectl sent from log index `from` on. */
function sent(c: ReturnType<typeof fixtureCluster>, from: number): string[] {
  return c.log
    .slice(from)
    .filter((x) => x.kind === 'request' && x.component === 'kubectl')
    .map((x) => `${x.verb} ${x.path.replace(/\?.*/, '')}`);
}

describe('label/annotate -l: one LIST, then a PATCH per object, no GET', () => {
  for (const cmd of [
    'label pods -l app=web tier=front',
    'annotate pods -l app=web note=x',
    'label pods --all tier=front',
  ]) {
    test(cmd, () => {
      const c = fixtureCluster();
      const from = c.log.length;
      const out = runKubectl(c, cmd);
      expect(out.exitCode).toBe(0);
      expect(out.stdout.trim().split('\n')).toHaveLength(3);
      const reqs = sent(c, from);
      expect(reqs[0]).toBe('GET /api/v1/namespaces/default/pods'); // the LIST
      expect(reqs.slice(1)).toEqual(
        ['web-7c5ddbdf54-2xkqz', 'web-7c5ddbdf54-8mfvt', 'web-7c5ddbdf54-tn4hw'].map(
          (n) => `PATCH /api/v1/namespaces/default/pods/${n}`,
        ),
      );
    });
  }
  test('by name: one GET, then the PATCH', () => {
    const c = fixtureCluster();
    const from = c.log.length;
    expect(runKubectl(c, 'label deployment web tier=front').stdout).toBe('deployment.apps/web labeled\n');
    expect(sent(c, from)).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/web',
      'PATCH /apis/apps/v1/namespaces/default/deployments/web',
    ]);
  });
});

describe('label: what changed (updateDataChangeMsg) and labels not found', () => {
  test('a label added and one removed: modified', () => {
    const c = fixtureCluster();
    expect(runKubectl(c, 'label deployment web tier=front').stdout).toBe('deployment.apps/web labeled\n');
    expect(runKubectl(c, 'label deployment web tier- env=prod').stdout).toBe('deployment.apps/web modified\n');
  });
  test('removing a label that is not there: "label \\"x\\" not found." and not labeled', () => {
    const c = fixtureCluster();
    const from = c.log.length;
    expect(runKubectl(c, 'label deployment web nope-')).toEqual({
      stdout: 'label "nope" not found.\ndeployment.apps/web not labeled\n',
      stderr: '',
      exitCode: 0,
    });
    expect(sent(c, from)).toEqual(['GET /apis/apps/v1/namespaces/default/deployments/web']);
    // A client dry run does not say it.
    expect(runKubectl(c, 'label deployment web nope- --dry-run=client').stdout).toBe(
      'deployment.apps/web not labeled (dry run)\n',
    );
  });
});
