// NamespaceLifecycle: the immortal namespaces are refused a DELETE before the registry reads them.
import { describe, expect, test } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runKubectl } from '../kubectl/kubectl.ts';
import { IMMORTAL_NAMESPACES } from './admission.ts';

describe('NamespaceLifecycle: immortal namespaces', () => {
  test('default, kube-system and kube-public: 403 Forbidden at admission, and they stay', () => {
    const c = createCluster({ seed: 1 });
    expect(IMMORTAL_NAMESPACES).toEqual(['default', 'kube-system', 'kube-public']);
    for (const ns of IMMORTAL_NAMESPACES) {
      const from = c.log.length;
      expect(runKubectl(c, `delete namespace ${ns}`)).toEqual({
        stdout: '',
        stderr: `Error from server (Forbidden): namespaces "${ns}" is forbidden: this namespace may not be deleted\n`,
        exitCode: 1,
      });
      const rec = c.log.slice(from).find((x) => x.kind === 'request' && x.verb === 'DELETE');
      expect(rec && rec.kind === 'request' && [rec.code, rec.stage]).toEqual([403, 'admission']);
      expect(runKubectl(c, `get namespace ${ns} -o name`).stdout).toBe(`namespace/${ns}\n`);
    }
    // Also a server-side dry run, and a name that does not exist is still NotFound.
    expect(runKubectl(c, 'delete ns default --dry-run=server').stderr).toBe(
      'Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted\n',
    );
    expect(runKubectl(c, 'delete ns nope').stderr).toBe('Error from server (NotFound): namespaces "nope" not found\n');
  });
  test('another namespace, kube-node-lease included, can be deleted', () => {
    const c = createCluster({ seed: 1 });
    runKubectl(c, 'create namespace dev');
    expect(runKubectl(c, 'delete namespace dev').stdout).toBe('namespace "dev" deleted\n');
    expect(runKubectl(c, 'delete namespace kube-node-lease').exitCode).toBe(0);
  });
});
