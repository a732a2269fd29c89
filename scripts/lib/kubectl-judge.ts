// Run one golden case through a real kubectl binary and keep what it printed. Its kubeconfig is its
// own (the caller's never counts) and names a dead server, or, for a case that needs the server's
// discovery to map its kind (`kubectl run --dry-run=client`), a loopback server that answers
// discovery and nothing else. Used by the capture script and by the golden test when KUBECTL_JUDGE
// names a binary or a command (`KUBECTL_JUDGE='oracle/bin/oracle kubectl'`).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellWords } from '../oracle/shell-words.ts';
import type { GoldenCase } from './kubectl-golden-cases.ts';

/** What a command line printed and its exit code. */
export interface GoldenResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

const kubeconfig = (server: string) => `apiVersion: v1
kind: Config
clusters:
- cluster: {server: "${server}"}
  name: judge
contexts:
- context: {cluster: judge, user: judge, namespace: default}
  name: judge
current-context: judge
users:
- name: judge
  user: {token: judge}
`;

const verbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const resource = (name: string, singularName: string, kind: string, namespaced: boolean, shortNames: string[]) => ({
  name,
  singularName,
  namespaced,
  kind,
  verbs,
  shortNames,
});

/** Legacy discovery (kubectl falls back to it from the aggregated form) for the kinds the cases use. */
const DISCOVERY: Record<string, unknown> = {
  '/api': {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
  },
  '/apis': {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [
      {
        name: 'apps',
        versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
        preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
      },
    ],
  },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      resource('pods', 'pod', 'Pod', true, ['po']),
      resource('namespaces', 'namespace', 'Namespace', false, ['ns']),
      resource('services', 'service', 'Service', true, ['svc']),
      resource('nodes', 'node', 'Node', false, ['no']),
    ],
  },
  '/apis/apps/v1': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'apps/v1',
    resources: [
      resource('deployments', 'deployment', 'Deployment', true, ['deploy']),
      resource('replicasets', 'replicaset', 'ReplicaSet', true, ['rs']),
    ],
  },
};

/** A loopback server that answers discovery (and 404 to anything else), on a port of the system's choosing. */
async function discoveryServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const doc = DISCOVERY[(req.url ?? '').split('?')[0]];
    res.writeHead(doc ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify(
        doc ?? {
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: 'the server could not find the requested resource',
          reason: 'NotFound',
          code: 404,
        },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * Run `judge args…` with the case's stdin, against a dead server or (c.discovery) the discovery one.
 * judge is a command line split as a shell would: a kubectl binary's path, or the oracle's
 * `oracle/bin/oracle kubectl` (one binary, kubectl its first argument).
 */
export async function runJudge(judge: string, c: GoldenCase): Promise<GoldenResult> {
  const [bin, ...pre] = shellWords(judge);
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-judge-'));
  const server = c.discovery ? await discoveryServer() : undefined;
  try {
    const config = join(dir, 'config');
    writeFileSync(
      config,
      kubeconfig(server ? `http://127.0.0.1:${(server.address() as AddressInfo).port}` : 'https://127.0.0.1:1'),
    );
    const child = spawn(bin, [...pre, ...c.args], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: config, LANG: 'C' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdin.end(c.stdin ?? '');
    const exitCode = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve(code ?? -1));
    });
    return { stdout, stderr, exitCode };
  } finally {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
