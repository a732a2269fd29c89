// Run one golden case through a real kubectl binary, pointed at a dead server (a kubeconfig of its
// own, so the caller's never counts), and keep what it printed. Used by the capture script and by
// the golden test when KUBECTL_JUDGE names a binary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GoldenCase } from './kubectl-golden-cases.ts';

/** What a command line printed and its exit code. */
export interface GoldenResult { stdout: string; stderr: string; exitCode: number }

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- cluster: {server: "https://127.0.0.1:1"}
  name: dead
contexts:
- context: {cluster: dead, user: judge, namespace: default}
  name: dead
current-context: dead
users:
- name: judge
  user: {token: judge}
`;

/** Run `bin args…` with the case's stdin and a dead server's kubeconfig. */
export function runJudge(bin: string, c: GoldenCase): GoldenResult {
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-judge-'));
  try {
    const kubeconfig = join(dir, 'config');
    writeFileSync(kubeconfig, KUBECONFIG);
    const r = spawnSync(bin, c.args, {
      input: c.stdin ?? '', encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: kubeconfig, LANG: 'C' },
    });
    if (r.error) throw r.error;
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
  } finally { rmSync(dir, { recursive: true, force: true }); }
}
