// `node scripts/oracle/record-dns.ts [scenario…]` (by hand; needs Go, not run by npm test): plays
// each oracle/scenarios/dns/<scenario>.sim, and each oracle/scenarios/proxy/<scenario>.sim with
// CoreDNS added to its add-ons, in the simulator to its end; hands the Namespaces, and the Services
// and EndpointSlices the simulated CoreDNS's informers hold, with the queries made from them
// (src/sim/testing/dns-queries.ts), to oracle/dns, which runs CoreDNS v1.14.6's real kubernetes
// plugin under kubeadm's Corefile over a fake of its informers; and writes its answers to
// oracle/traces/dns/<scenario>.json. src/sim/net/real-dns.test.ts compares the simulator's answers
// with these files. `resolv-conf` (also run when no scenario is named) records the real kubelet's
// DNS config for a pod of each dnsPolicy (oracle/cmd/poddns, -tags poddns) to
// oracle/traces/dns/kubelet/resolv-conf.json, which the same test holds podResolvConf to.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Namespace, Pod } from 'kubernetes-types/core/v1';
import { createCluster, loadAddonsFromHeader } from '../../src/sim/index.ts';
import { runScript, scriptHeader } from '../../src/sim/kubectl/index.ts';
import { CLUSTER_DOMAIN, KUBE_DNS_IP, type CorednsState } from '../../src/sim/net/coredns.ts';
import { dnsLookups, dnsQueries, type DnsWorld } from '../../src/sim/testing/dns-queries.ts';

const ORACLE = resolve(import.meta.dirname, '..', '..', 'oracle');
const MODULE = join(ORACLE, 'dns');
const TRACES = join(ORACLE, 'traces', 'dns');
const DIRS = [join(ORACLE, 'scenarios', 'dns'), join(ORACLE, 'scenarios', 'proxy')];

function listOf<T>(items: unknown): T[] {
  return ((items as { items?: T[] }).items ?? []);
}

/** Plays a scenario (CoreDNS added when its header lacks it) and reads what the plugin would hold. */
async function worldOf(script: string): Promise<DnsWorld> {
  const header = scriptHeader(script);
  if (!header.addons.includes('coredns')) header.addons.push('coredns');
  const cluster = createCluster({ seed: 1, nodes: 3, addons: (await loadAddonsFromHeader())(header) });
  const { exitCode, steps } = runScript(cluster, script);
  if (exitCode !== 0) throw new Error(`scenario failed:\n${steps.map((s) => s.stderr).join('')}`);
  const s = cluster.world.state.components.coredns?.state as CorednsState | undefined;
  if (!s) throw new Error('no coredns instance');
  const list = (resource: string) => {
    const r = cluster.request({ verb: 'list', resource });
    if (!r.ok) throw new Error(`list ${resource}: ${r.code}`);
    return listOf(r.object);
  };
  return {
    namespaces: list('namespaces').map((n) => (n as Namespace).metadata!.name!),
    services: Object.values(s.services.items),
    slices: Object.values(s.slices.items),
    pods: list('pods') as Pod[],
  };
}

function build(): string {
  const bin = join(mkdtempSync(join(tmpdir(), 'dns-judge-')), 'dns');
  execFileSync('nice', ['-n', '19', 'go', 'build', '-o', bin, '.'], { cwd: MODULE, stdio: 'inherit' });
  return bin;
}

/** kubeadm's kubelet settings (clusterDNS, clusterDomain) and a node resolv.conf without search domains, as the simulated nodes have. */
const KUBELET = { clusterDNS: [KUBE_DNS_IP], clusterDomain: CLUSTER_DOMAIN, hostResolvConf: 'nameserver 10.0.0.1\n', nodeIP: '10.0.0.11' };

/** A pod of each dnsPolicy, with hostNetwork or not, as the API server stores it (dnsPolicy defaulted). */
function dnsPolicyPods(): Pod[] {
  const pod = (namespace: string, name: string, dnsPolicy: string, hostNetwork = false): Pod => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name },
    spec: { dnsPolicy, ...(hostNetwork ? { hostNetwork } : {}), containers: [{ name: 'c', image: 'nginx:1.27' }] },
  });
  return [
    pod('default', 'cluster-first', 'ClusterFirst'), pod('shop', 'cluster-first', 'ClusterFirst'),
    pod('default', 'cluster-first-host-net', 'ClusterFirst', true), pod('default', 'with-host-net', 'ClusterFirstWithHostNet', true),
    pod('default', 'with-host-net-pod-net', 'ClusterFirstWithHostNet'), pod('default', 'default', 'Default'), pod('default', 'none', 'None'),
  ];
}

/** Runs the real kubelet's Configurer.GetPodDNS (oracle/cmd/poddns) for each pod and writes oracle/traces/dns/kubelet/resolv-conf.json. */
function recordPodDNS(): void {
  const bin = join(mkdtempSync(join(tmpdir(), 'poddns-')), 'poddns');
  if (process.env.PODDNS_BIN && existsSync(process.env.PODDNS_BIN)) execFileSync('cp', [process.env.PODDNS_BIN, bin]);
  else execFileSync('nice', ['-n', '19', 'go', 'build', '-tags', 'poddns', '-o', bin, './cmd/poddns'], { cwd: ORACLE, stdio: 'inherit' });
  const input = { ...KUBELET, pods: dnsPolicyPods() };
  const out = execFileSync(bin, { input: JSON.stringify(input), encoding: 'utf8' });
  mkdirSync(join(TRACES, 'kubelet'), { recursive: true });
  const trace = {
    about: 'Recorded by scripts/oracle/record-dns.ts: the real kubelet v1.37.2\'s Configurer.GetPodDNS (pkg/kubelet/network/dns, oracle/cmd/poddns) for a pod of each dnsPolicy, with kubeadm\'s clusterDNS and clusterDomain and a node resolv.conf without search domains.',
    kubelet: 'v1.37.2',
    input,
    configs: JSON.parse(out),
  };
  writeFileSync(join(TRACES, 'kubelet', 'resolv-conf.json'), JSON.stringify(trace, null, 1) + '\n');
  process.stdout.write(`resolv-conf: ${input.pods.length} pods\n`);
}

const wanted = process.argv.slice(2);
const scenarios = DIRS.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.sim')).map((f) => join(d, f)))
  .filter((p) => !wanted.length || wanted.includes(basename(p, '.sim')));
if (!wanted.length || wanted.includes('resolv-conf')) recordPodDNS();
const bin = scenarios.length === 0 ? '' : process.env.DNS_JUDGE_BIN && existsSync(process.env.DNS_JUDGE_BIN) ? process.env.DNS_JUDGE_BIN : build();
mkdirSync(TRACES, { recursive: true });
for (const path of scenarios) {
  const name = basename(path, '.sim');
  const w = await worldOf(readFileSync(path, 'utf8'));
  const lookups = dnsLookups(w);
  const queries = dnsQueries(w, lookups).map((q) => ({ name: q, type: 'A' }));
  const input = {
    namespaces: w.namespaces.map((n) => ({ metadata: { name: n } })),
    services: w.services,
    endpointSlices: w.slices,
  };
  const out = execFileSync(bin, { input: JSON.stringify({ ...input, queries }), encoding: 'utf8', maxBuffer: 64 << 20 });
  const trace = {
    about: 'Recorded by scripts/oracle/record-dns.ts: CoreDNS v1.14.6\'s real kubernetes plugin under kubeadm v1.37.2\'s Corefile (oracle/dns), over a fake of its informers holding the Namespaces, and the Services and EndpointSlices the simulated CoreDNS held at the end of the scenario; the next plugin (forward) and an ExternalName\'s upstream answer NXDOMAIN.',
    scenario: name,
    from: basename(resolve(path, '..')),
    coredns: 'v1.14.6',
    input,
    lookups,
    answers: JSON.parse(out),
  };
  writeFileSync(join(TRACES, `${name}.json`), JSON.stringify(trace, null, 1) + '\n');
  process.stdout.write(`${name}: ${queries.length} queries, ${lookups.length} lookups\n`);
}
