// The simulator's kube-proxy rules judged by the real kube-proxy v1.37.2 (issue 27, item 7). Each
// oracle/traces/proxy/<scenario>.json holds, per node, what the real iptables and nftables proxiers
// wrote (run over their own tests' fake iptables and knftables by scripts/oracle/record-proxy.ts) for
// the Services and EndpointSlices the simulated node's kube-proxy held at the end of
// oracle/scenarios/proxy/<scenario>.sim. Two comparisons, line by line, no Go needed:
// - from the recorded input: the simulator's rule writers fed exactly what the real proxiers were
//   fed must print the same lines (chain hashes, probabilities, addresses, all of it);
// - from a replay: the scenario played again in the simulator must print the same lines, addresses
//   and hashed names renumbered by order of appearance (so an unrelated change to how the
//   simulator allocates addresses does not call for a new recording, but a change of behaviour does).
// Only the order in which the real proxier writes a Go map's entries, and what the fakes cannot
// show, is normalised away; every other difference must be listed in EXPLAINED with its reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { createCluster } from '../cluster.ts';
import { runScript, scriptHeader } from '../kubectl/script.ts';
import type { WorldState } from '../world.ts';
import { addonsFromHeader } from './addons.ts';
import type { KubeProxyState } from './kube-proxy.ts';
import { kubeProxyRulesOf, kubeProxyStateOf, type RulesFormat } from './reader.ts';

const ORACLE = resolve(import.meta.dirname, '..', '..', '..', 'oracle');
const SCENARIOS = join(ORACLE, 'scenarios', 'proxy');
const TRACES = join(ORACLE, 'traces', 'proxy');

interface NodeInput {
  name: string;
  ip: string;
  services: Service[];
  endpointSlices: EndpointSlice[];
}
interface RealDump {
  iptablesSaveNat: string;
  iptablesSaveFilter: string;
  iptablesRestore: string;
  nftablesDump: string;
}
interface ProxyTrace {
  scenario: string;
  input: { nodes: NodeInput[]; clusterCIDR: string; serviceCIDRs: string };
  nodes: Record<string, RealDump>;
}

/** One comparison: the simulator's output in a format, and the real proxier's counterpart. */
type Kind = 'iptables-save-nat' | 'iptables-restore' | 'nft-transaction';
const SIM_FORMAT: Record<Kind, RulesFormat> = {
  'iptables-save-nat': 'iptables-save',
  'iptables-restore': 'iptables-restore',
  'nft-transaction': 'nft-transaction',
};
const REAL_TEXT: Record<Kind, (d: RealDump) => string> = {
  'iptables-save-nat': (d) => d.iptablesSaveNat,
  'iptables-restore': (d) => d.iptablesRestore,
  'nft-transaction': (d) => d.nftablesDump,
};

/**
 * A difference the simulator is known to have, and why: `line` matches the differing line (a
 * regular expression), `side` says which side has it. Each entry must still match something.
 */
interface Explained {
  kind: Kind;
  side: 'sim-only' | 'real-only';
  line: RegExp;
  reason: string;
}
const EXPLAINED: Explained[] = [];

// iptables chains whose rules the proxier writes while ranging over a Go map (svcPortMap): their
// order changes from one sync to the next, so both sides are put in the order of their comments.
const MAP_ORDERED_CHAINS = new Set([
  'KUBE-SERVICES',
  'KUBE-NODEPORTS',
  'KUBE-EXTERNAL-SERVICES',
  'KUBE-PROXY-FIREWALL',
]);
const BUILTIN = ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'];

function commentKey(rule: string): string {
  const m = /--comment ("[^"]*"|\S+)/.exec(rule);
  const c = (m?.[1] ?? '').replace(/"/g, '');
  return c.split(/[ :]/)[0];
}

/**
 * The jumps from the built-in chains are made with EnsureRule, whose arguments the fake joins with
 * spaces where iptables-save would quote a comment that has them: quoted here, as a node prints it.
 */
function quoteComment(rule: string): string {
  return rule.replace(/--comment ([^"][^-]*?) (-j|-m) /, (m, c: string, next: string) =>
    c.includes(' ') ? `--comment "${c}" ${next} ` : m,
  );
}

/**
 * iptables-save / iptables-restore text in a canonical order: per table, its chain lines sorted
 * (a built-in chain's policy written as "-": the fake cannot hold one), then each chain's rules
 * in the order written, chains by name; a map-ordered chain's rules by the Service in their comment.
 */
export function canonicalIPTables(text: string): string[] {
  const out: string[] = [];
  let chains: string[] = [];
  let rules = new Map<string, string[]>();
  const flush = (table: string) => {
    const names = [...rules.keys()].sort(
      (a, b) => (BUILTIN.indexOf(a) + 1 || 99) - (BUILTIN.indexOf(b) + 1 || 99) || (a < b ? -1 : a > b ? 1 : 0),
    );
    out.push(table, ...chains.sort());
    for (const n of names) {
      let rs = rules.get(n)!;
      if (MAP_ORDERED_CHAINS.has(n)) {
        const last = rs.filter((r) => r.includes('this must be the last rule'));
        rs = rs
          .filter((r) => !last.includes(r))
          .map((r, i) => [r, i] as const)
          .sort(([a, i], [b, j]) => (commentKey(a) < commentKey(b) ? -1 : commentKey(a) > commentKey(b) ? 1 : i - j))
          .map(([r]) => r)
          .concat(last);
      }
      out.push(...rs);
    }
    out.push('COMMIT');
  };
  let table = '';
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('*')) {
      table = line;
      chains = [];
      rules = new Map();
      continue;
    }
    if (line === 'COMMIT') {
      flush(table);
      continue;
    }
    if (line.startsWith(':')) {
      const [name] = line.slice(1).split(' ');
      chains.push(`:${name} - [0:0]`);
      if (!rules.has(name)) rules.set(name, []);
      continue;
    }
    const chain = line.split(' ')[1];
    if (!rules.has(chain)) rules.set(chain, []);
    rules.get(chain)!.push(BUILTIN.includes(chain) ? quoteComment(line) : line);
  }
  return out;
}

/**
 * A knftables transaction (the fake's Dump, or the simulator's) in a canonical order: every line
 * but the rules sorted; rules grouped by chain (chains by name) in the order written.
 */
export function canonicalNFT(text: string): string[] {
  const lines = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  const other = lines.filter((l) => !l.startsWith('add rule ')).sort();
  const rules = new Map<string, string[]>();
  for (const l of lines.filter((x) => x.startsWith('add rule '))) {
    const chain = l.split(' ')[4];
    if (!rules.has(chain)) rules.set(chain, []);
    rules.get(chain)!.push(l);
  }
  return [...other, ...[...rules.keys()].sort().flatMap((c) => rules.get(c)!)];
}

/**
 * Renumbers by order of first appearance what a replay may allocate differently: IPv4 addresses
 * (with their CIDR suffix), iptables' hashed chain names and nftables' hash prefixes.
 */
export function renumber(lines: string[]): string[] {
  const seen = new Map<string, string>();
  const id = (kind: string, v: string) => {
    const k = `${kind}:${v}`;
    if (!seen.has(k)) seen.set(k, `${kind}${[...seen.keys()].filter((x) => x.startsWith(`${kind}:`)).length + 1}`);
    return seen.get(k)!;
  };
  return lines.map((l) =>
    l
      .replace(/KUBE-(SEP|SVC|SVL|EXT|FW)-[A-Z2-7]{16}/g, (_, t: string) => `KUBE-${t}-${id('H', _)}`)
      .replace(/\b[A-Z2-7]{8}-(?=[a-z0-9-]+\/)/g, (h) => `${id('N', h)}-`)
      .replace(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g, (ip) => id('IP', ip)),
  );
}

/** The lines only one side has, each with its side (a multiset difference: order is compared apart). */
function lineDiffs(sim: string[], real: string[]): { side: 'sim-only' | 'real-only'; line: string }[] {
  const count = new Map<string, number>();
  for (const l of real) count.set(l, (count.get(l) ?? 0) + 1);
  const out: { side: 'sim-only' | 'real-only'; line: string }[] = [];
  for (const l of sim) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else out.push({ side: 'sim-only', line: l });
  }
  for (const [l, n] of count) for (let i = 0; i < n; i++) out.push({ side: 'real-only', line: l });
  return out;
}

/** A world holding one node's kube-proxy that last synced these objects (what the reader reads). */
function worldOf(input: ProxyTrace['input'], node: NodeInput): WorldState {
  const state: Partial<KubeProxyState> = {
    params: { node: node.name, mode: 'iptables', nodeIP: node.ip, clusterCIDR: input.clusterCIDR },
    synced: { at: 0, services: node.services, slices: node.endpointSlices },
  };
  return { components: { [`kube-proxy/${node.name}`]: { type: 'kube-proxy', state } } } as unknown as WorldState;
}

function canonical(kind: Kind, text: string): string[] {
  return kind === 'nft-transaction' ? canonicalNFT(text) : canonicalIPTables(text);
}

const traces: ProxyTrace[] = readdirSync(TRACES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(TRACES, f), 'utf8')) as ProxyTrace);
const KINDS: Kind[] = ['iptables-save-nat', 'iptables-restore', 'nft-transaction'];
const used = new Set<Explained>();

/** The differences EXPLAINED does not cover (and marks the entries that covered one as used). */
function unexplained(kind: Kind, sim: string[], real: string[]): string[] {
  const diffs = lineDiffs(sim, real);
  const left: string[] = [];
  for (const d of diffs) {
    const e = EXPLAINED.find((x) => x.kind === kind && x.side === d.side && x.line.test(d.line));
    if (e) used.add(e);
    else left.push(`${d.side}: ${d.line}`);
  }
  // With no line missing on either side, the order must be the same too.
  if (diffs.length === 0 && sim.join('\n') !== real.join('\n')) left.push('same lines, another order');
  return left;
}

describe("the simulator's kube-proxy rules against the real kube-proxy v1.37.2", () => {
  it('has at least three recorded scenarios, each with every node', () => {
    expect(traces.length).toBeGreaterThanOrEqual(3);
    for (const t of traces) expect(Object.keys(t.nodes).sort()).toEqual(t.input.nodes.map((n) => n.name));
  });

  for (const t of traces) {
    describe(t.scenario, () => {
      for (const kind of KINDS) {
        it(`${kind}: the same lines from the recorded input`, () => {
          for (const node of t.input.nodes) {
            const sim = canonical(kind, kubeProxyRulesOf(worldOf(t.input, node), node.name, SIM_FORMAT[kind])!);
            const real = canonical(kind, REAL_TEXT[kind](t.nodes[node.name]));
            expect(unexplained(kind, sim, real), `${t.scenario} ${node.name}`).toEqual([]);
          }
        });
      }

      it('the same lines when the scenario is played again (addresses and hashes renumbered)', () => {
        const script = readFileSync(join(SCENARIOS, `${t.scenario}.sim`), 'utf8');
        const cluster = createCluster({ seed: 1, nodes: 3, addons: addonsFromHeader(scriptHeader(script)) });
        expect(runScript(cluster, script).exitCode).toBe(0);
        for (const node of t.input.nodes) {
          // A node without power runs no kube-proxy and its kernel holds no rules (the recording fed the
          // real proxier what that node had last synced; the comparison above still judges those lines).
          if (kubeProxyStateOf(cluster.world.state, node.name)?.down) {
            expect(kubeProxyRulesOf(cluster.world.state, node.name)).toBeUndefined();
            continue;
          }
          for (const kind of KINDS) {
            const sim = renumber(canonical(kind, kubeProxyRulesOf(cluster.world.state, node.name, SIM_FORMAT[kind])!));
            const real = renumber(canonical(kind, REAL_TEXT[kind](t.nodes[node.name])));
            expect(unexplained(kind, sim, real), `${t.scenario} ${node.name} ${kind}`).toEqual([]);
          }
        }
      });
    });
  }

  it('lists no explained difference that no longer happens', () => {
    expect(EXPLAINED.filter((e) => !used.has(e)).map((e) => e.reason)).toEqual([]);
  });
});
