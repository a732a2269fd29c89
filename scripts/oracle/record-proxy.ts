// `node scripts/oracle/record-proxy.ts [scenario…]` (by hand; needs Go, not run by npm test): plays
// each oracle/scenarios/proxy/<scenario>.sim in the simulator to its end, hands each node's
// kube-proxy input at that moment (the Services and EndpointSlices of its last sync, its node's IP,
// the cluster CIDR) to oracle/cmd/proxyrules, which runs the real kube-proxy v1.37.2 proxiers over
// the fake iptables and nftables of Kubernetes' own proxier tests, and writes what they wrote to
// oracle/traces/proxy/<scenario>.json. Network namespaces are not available on these machines, so
// this is the fallback issue 27 allows: the real proxier code, not the real kernel tables.
// src/sim/kube-proxy/real-rules.test.ts compares the simulator's rules with these files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { createCluster, loadAddonsFromHeader } from '../../src/sim/index.ts';
import { runScript, scriptHeader } from '../../src/sim/kubectl/index.ts';

const MODULE = resolve(import.meta.dirname, '..', '..', 'oracle');
const SCENARIOS = join(MODULE, 'scenarios', 'proxy');
const TRACES = join(MODULE, 'traces', 'proxy');
/** The service range the simulated API server allocates from (kubeadm's default --service-cidr). */
const SERVICE_CIDR = '10.96.0.0/12';

/** What one node's kube-proxy is handed: what the Go program reads for it. */
interface ProxyNodeInput { name: string; ip: string; services: Service[]; endpointSlices: EndpointSlice[] }

/** Plays a scenario to its end and reads each node's kube-proxy input from the world's state. */
async function proxyInputOf(script: string): Promise<{ nodes: ProxyNodeInput[]; clusterCIDR: string; serviceCIDRs: string }> {
  const addons = (await loadAddonsFromHeader())(scriptHeader(script));
  const cluster = createCluster({ seed: 1, nodes: 3, addons });
  const { exitCode, steps } = runScript(cluster, script);
  if (exitCode !== 0) throw new Error(`scenario failed:\n${steps.map((s) => s.stderr).join('')}`);
  const nodes: ProxyNodeInput[] = [];
  let clusterCIDR = '';
  for (const [instance, e] of Object.entries(cluster.world.state.components)) {
    if (e.type !== 'kube-proxy') continue;
    const s = e.state as { params: { node: string; nodeIP: string; clusterCIDR: string }; synced?: { services: Service[]; slices: EndpointSlice[] }; down?: true };
    if (s.down) continue; // a node without power holds no rules
    if (!s.synced) throw new Error(`${instance} has not synced`);
    clusterCIDR = s.params.clusterCIDR;
    nodes.push({ name: s.params.node, ip: s.params.nodeIP, services: s.synced.services, endpointSlices: s.synced.slices });
  }
  nodes.sort((a, b) => (a.name < b.name ? -1 : 1));
  return { nodes, clusterCIDR, serviceCIDRs: SERVICE_CIDR };
}

/**
 * Builds oracle/cmd/proxyrules. Its packages ./upstream/iptables and ./upstream/nftables exist only
 * in the overlay: each non-test file of the real pkg/proxy/{iptables,nftables} at v1.37.2, read from
 * the module cache unchanged, plus overlay/<pkg>_oracle.go.txt (the tests' NewFakeProxier).
 */
function buildProxyRules(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proxyrules-'));
  const k8s = execFileSync('go', ['list', '-m', '-f', '{{.Dir}}', 'k8s.io/kubernetes'], { cwd: MODULE, encoding: 'utf8' }).trim();
  const replace: Record<string, string> = {};
  for (const pkg of ['iptables', 'nftables']) {
    const from = join(k8s, 'pkg', 'proxy', pkg);
    const to = join(MODULE, 'cmd', 'proxyrules', 'upstream', pkg);
    for (const f of readdirSync(from).filter((x) => x.endsWith('.go') && !x.endsWith('_test.go'))) replace[join(to, f)] = join(from, f);
    replace[join(to, 'zz_oracle_proxier.go')] = join(MODULE, 'cmd', 'proxyrules', 'overlay', `${pkg}_oracle.go.txt`);
  }
  writeFileSync(join(dir, 'overlay.json'), JSON.stringify({ Replace: replace }));
  const bin = join(dir, 'proxyrules');
  execFileSync('nice', ['-n', '19', 'go', 'build', '-tags', 'proxyrules', '-overlay', join(dir, 'overlay.json'), '-o', bin, './cmd/proxyrules'], { cwd: MODULE, stdio: 'inherit' });
  return bin;
}

const wanted = process.argv.slice(2);
const names = readdirSync(SCENARIOS).filter((f) => f.endsWith('.sim')).map((f) => basename(f, '.sim')).filter((n) => !wanted.length || wanted.includes(n));
const bin = buildProxyRules();
mkdirSync(TRACES, { recursive: true });
for (const name of names) {
  const input = await proxyInputOf(readFileSync(join(SCENARIOS, `${name}.sim`), 'utf8'));
  const out = execFileSync(bin, { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 << 20 });
  const trace = {
    about: 'Recorded by scripts/oracle/record-proxy.ts: the real kube-proxy v1.37.2 proxiers (pkg/proxy/iptables, pkg/proxy/nftables) run over the fake iptables and knftables of their own tests, fed each node\'s Services and EndpointSlices as the simulator\'s kube-proxy held them at the end of the scenario.',
    scenario: name,
    kubeProxy: 'v1.37.2',
    input,
    nodes: JSON.parse(out),
  };
  writeFileSync(join(TRACES, `${name}.json`), JSON.stringify(trace, null, 1) + '\n');
  process.stdout.write(`${name}: ${input.nodes.length} nodes\n`);
}
