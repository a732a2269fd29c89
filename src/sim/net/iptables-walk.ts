// A packet's walk through the rules kube-proxy wrote (iptables-restore lines, as iptables-rules.ts
// makes them), as netfilter walks them for the first packet of a connection: the nat table's
// KUBE-SERVICES chain and the chains it jumps to, then, when nothing rewrote the destination, the
// filter chains kube-proxy hooks into OUTPUT, FORWARD or INPUT. Only the matches kube-proxy writes
// are understood; a rule with any other match never matches, so a gap shows as a miss, not a guess.
import { cidrContains, type TableData } from '../kube-proxy/iptables-rules.ts';
import { nextUint32, type RngState } from '../rng.ts';
import { setOf } from '../util/table.ts';
import { parsed } from './iptables-walk-cache.ts';

/** The first packet of a connection, as the node's netfilter sees it. */
export interface Packet {
  protocol: 'TCP' | 'UDP' | 'SCTP';
  srcIP: string;
  srcPort: number;
  dstIP: string;
  dstPort: number;
  /** The source is one of this node's own addresses (a host-network client): addrtype --src-type LOCAL. */
  srcLocal: boolean;
  /** The destination is one of this node's own addresses: addrtype --dst-type LOCAL. */
  dstLocal: boolean;
}

/** xt_recent's lists on one node: list name → source IP → when it was last set (ms). */
export type RecentLists = Record<string, Record<string, number>>;

/** What the walk may read and change besides the packet: the node's recent lists, the clock, the random stream. */
export interface WalkEnv {
  now: number;
  recent: RecentLists;
  rng: RngState;
}

/** Where a walk ended. */
export type Verdict =
  | { kind: 'dnat'; to: string }
  | { kind: 'reject' }
  | { kind: 'drop' }
  /** No rule decided: the packet goes on to its own destination. */
  | { kind: 'accept' };

/** A walk's verdict and the rules that jumped or decided on the way, in order (the lit rules of a figure). */
export interface WalkResult {
  verdict: Verdict;
  trace: string[];
}

/** One rule split into its words, a quoted comment kept as one word. */
export function ruleWords(rule: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(rule); m; m = re.exec(rule)) out.push(m[1] !== undefined ? m[1] : m[2]);
  return out;
}

/** A parsed rule: the chain it belongs to, its match function's inputs and its target. */
export interface Rule {
  line: string;
  chain: string;
  matches: { kind: string; neg: boolean; args: string[] }[];
  target?: string;
  toDestination?: string;
  recentSet?: string;
  unknown: boolean;
}

/** Parse one `-A CHAIN …` line into its matches and target. */
function parseRule(line: string): Rule {
  const w = ruleWords(line);
  const rule: Rule = { line, chain: w[1], matches: [], unknown: false };
  let neg = false;
  for (let i = 2; i < w.length; i++) {
    const a = w[i];
    if (a === '!') {
      neg = true;
      continue;
    }
    switch (a) {
      case '-m': {
        const mod = w[++i];
        if (mod === 'comment')
          i += 2; // --comment <text>
        else if (mod === 'statistic') {
          rule.matches.push({ kind: 'statistic', neg, args: [w[i + 4]] });
          i += 4;
        } // --mode random --probability p
        else if (mod === 'recent') {
          // --name N --rcheck --seconds S --reap | --name N --set
          const name = w[i + 2];
          if (w[i + 3] === '--set') {
            rule.recentSet = name;
            i += 3;
          } else if (w[i + 3] === '--rcheck') {
            rule.matches.push({ kind: 'recent', neg, args: [name, w[i + 5]] });
            i += w[i + 6] === '--reap' ? 6 : 5;
          } else rule.unknown = true;
        } else if (mod === 'addrtype') {
          rule.matches.push({ kind: w[i + 1], neg, args: [w[i + 2]] });
          i += 2;
        } // --dst-type / --src-type LOCAL
        else if (mod === 'nfacct')
          i += 2; // a counter: always matches
        else if (mod === 'conntrack' || mod === 'mark') {
          // `-m conntrack ! --ctstate …`: the negation stands after the module's name.
          const n = w[i + 1] === '!';
          if (n) i++;
          rule.matches.push({ kind: mod === 'mark' ? 'mark' : 'ctstate', neg: n, args: [w[i + 2]] });
          i += 2;
        } else if (mod !== 'tcp' && mod !== 'udp' && mod !== 'sctp') rule.unknown = true;
        break;
      }
      case '-p':
        rule.matches.push({ kind: 'proto', neg, args: [w[++i]] });
        break;
      case '-d':
        rule.matches.push({ kind: 'dst', neg, args: [w[++i]] });
        break;
      case '-s':
        rule.matches.push({ kind: 'src', neg, args: [w[++i]] });
        break;
      case '--dport':
        rule.matches.push({ kind: 'dport', neg, args: [w[++i]] });
        break;
      case '-j':
        rule.target = w[++i];
        break;
      case '--to-destination':
        rule.toDestination = w[++i];
        break;
      // Target options that change no routing decision here.
      case '--or-mark':
      case '--xor-mark':
      case '--random-fully':
        i += a === '--random-fully' ? 0 : 1;
        break;
      default:
        rule.unknown = true;
    }
    neg = false;
  }
  return rule;
}

/** The table's rules grouped by chain, in order (parsed once per table). */
function chainsOf(table: TableData): Map<string, Rule[]> {
  let m = parsed.get(table);
  if (!m) {
    m = new Map();
    for (const c of table.chains) m.set(c.slice(1, c.indexOf(' ')), []);
    for (const line of table.rules) {
      const r = parseRule(line);
      if (!m.has(r.chain)) m.set(r.chain, []);
      m.get(r.chain)!.push(r);
    }
    parsed.set(table, m);
  }
  return m;
}

/** An address or CIDR match. */
function addrMatches(spec: string, ip: string): boolean {
  return spec.includes('/') ? cidrContains(spec, ip) : spec === ip;
}

/**
 * xt_statistic in random mode: the kernel compares 31 random bits with the probability iptables
 * stored as lround(0x80000000 × p).
 */
export function statisticMatches(rng: RngState, probability: number): boolean {
  return (nextUint32(rng) & 0x7fffffff) >>> 0 < Math.round(0x80000000 * probability);
}

function matches(r: Rule, p: Packet, env: WalkEnv): boolean {
  if (r.unknown) return false;
  for (const m of r.matches) {
    let ok: boolean;
    switch (m.kind) {
      case 'proto':
        ok = m.args[0].toUpperCase() === p.protocol;
        break;
      case 'dst':
        ok = addrMatches(m.args[0], p.dstIP);
        break;
      case 'src':
        ok = addrMatches(m.args[0], p.srcIP);
        break;
      case 'dport':
        ok = Number(m.args[0]) === p.dstPort;
        break;
      case '--dst-type':
        ok = m.args[0] === 'LOCAL' && p.dstLocal;
        break;
      case '--src-type':
        ok = m.args[0] === 'LOCAL' && p.srcLocal;
        break;
      // The first packet of a connection: NEW, never RELATED, ESTABLISHED or INVALID.
      case 'ctstate':
        ok = m.args[0].split(',').includes('NEW');
        break;
      // No packet arrives with kube-proxy's masquerade mark already set.
      case 'mark':
        ok = false;
        break;
      case 'recent': {
        const seen = env.recent[m.args[0]]?.[p.srcIP];
        ok = seen !== undefined && env.now - seen <= Number(m.args[1]) * 1000;
        break;
      }
      case 'statistic':
        ok = statisticMatches(env.rng, Number(m.args[0]));
        break;
      default:
        ok = false;
    }
    if (ok === m.neg) return false;
  }
  return true;
}

/** Targets that end the walk of a table. */
const TERMINAL = setOf(['DNAT', 'REJECT', 'DROP', 'ACCEPT']);

/** Walk one chain and what it jumps to; undefined when the packet falls off its end. */
function walkChain(
  chains: Map<string, Rule[]>,
  chain: string,
  p: Packet,
  env: WalkEnv,
  trace: string[],
  depth = 0,
): Verdict | 'return' | undefined {
  if (depth > 16) return { kind: 'drop' }; // a loop would be a bug in the rules; the kernel refuses those too
  for (const r of chains.get(chain) ?? []) {
    if (!r.target || !matches(r, p, env)) continue;
    if (r.recentSet) (env.recent[r.recentSet] ??= {})[p.srcIP] = env.now;
    if (r.target === 'RETURN') return 'return';
    if (r.target === 'MARK' || r.target === 'MASQUERADE') continue;
    if (TERMINAL.has(r.target)) {
      trace.push(r.line);
      if (r.target === 'DNAT') return { kind: 'dnat', to: r.toDestination ?? '' };
      return r.target === 'REJECT' ? { kind: 'reject' } : r.target === 'DROP' ? { kind: 'drop' } : { kind: 'accept' };
    }
    if (!chains.has(r.target)) continue;
    // KUBE-MARK-MASQ only marks the packet for SNAT: the walk goes on.
    if (r.target !== 'KUBE-MARK-MASQ') trace.push(r.line);
    const v = walkChain(chains, r.target, p, env, trace, depth + 1);
    if (v !== undefined && v !== 'return') return v;
  }
  return undefined;
}

/** The filter chains kube-proxy hooks in, by the path the packet takes (iptablesJumpChains). */
function filterChainsFor(p: Packet, fromHost: boolean): string[] {
  const out = fromHost ? ['KUBE-SERVICES'] : [];
  if (p.dstLocal) out.push('KUBE-EXTERNAL-SERVICES', 'KUBE-NODEPORTS', 'KUBE-PROXY-FIREWALL');
  else if (!fromHost) out.push('KUBE-EXTERNAL-SERVICES', 'KUBE-SERVICES', 'KUBE-FORWARD');
  return out;
}

/**
 * The first packet of a connection through a node's kube-proxy rules: nat PREROUTING (from a pod)
 * or OUTPUT (from the host itself) into KUBE-SERVICES; then, when nothing DNATed it, the filter
 * chains on its way (where a Service with no endpoints REJECTs). Changes env.recent and draws from
 * env.rng as the kernel would.
 */
export function walkRules(
  rules: { nat: TableData; filter: TableData },
  p: Packet,
  env: WalkEnv,
  fromHost: boolean,
): WalkResult {
  const trace: string[] = [];
  const nat = walkChain(chainsOf(rules.nat), 'KUBE-SERVICES', p, env, trace);
  if (nat && nat !== 'return' && nat.kind === 'dnat') return { verdict: nat, trace };
  const filter = chainsOf(rules.filter);
  for (const chain of filterChainsFor(p, fromHost)) {
    const v = walkChain(filter, chain, p, env, trace);
    if (v && v !== 'return' && v.kind !== 'accept') return { verdict: v, trace };
    if (v && v !== 'return') break;
  }
  return { verdict: { kind: 'accept' }, trace };
}
