// A packet's walk through the table `ip kube-proxy` the nftables proxier wrote (nftables-rules.ts),
// as the kernel walks it for the first packet of a connection: the base chains in hook and priority
// order (filter pre-DNAT, nat, then filter input, forward or output), verdict maps looked up by the
// packet's address, protocol and port, `numgen random mod N` drawn as the kernel draws it, affinity
// sets with their timeout. Only the expressions the proxier writes are understood; a rule with any
// other expression never matches.
import { cidrContains } from '../kube-proxy/iptables-rules.ts';
import type { NFTSet, NFTTable } from '../kube-proxy/nftables-rules.ts';
import { nextUint32 } from '../rng.ts';
import type { Packet, Verdict, WalkEnv, WalkResult } from './iptables-walk.ts';

type Flow = Verdict | { kind: 'return' } | undefined;

/** nft_numgen's random mode: reciprocal_scale of 32 random bits into [0, n). */
export function numgenRandom(env: WalkEnv, n: number): number {
  return Math.floor((nextUint32(env.rng) * n) / 4294967296);
}

/** The value of one selector for this packet (`ip daddr`, `meta l4proto`, `th dport`). */
function selector(tokens: string[], i: number, p: Packet): [string, number] | undefined {
  const [a, b] = [tokens[i], tokens[i + 1]];
  if (a === 'ip' && b === 'daddr') return [p.dstIP, i + 2];
  if (a === 'ip' && b === 'saddr') return [p.srcIP, i + 2];
  if (a === 'meta' && b === 'l4proto') return [p.protocol.toLowerCase(), i + 2];
  if (a === 'th' && b === 'dport') return [String(p.dstPort), i + 2];
  return undefined;
}

function setOf(t: NFTTable, ref: string): NFTSet | undefined {
  return t.sets.find((s) => s.name === ref.replace(/^@/, ''));
}

/** A set's timeout in ms ("10800s"). */
function timeoutMs(s: NFTSet): number {
  return s.timeout ? Number(s.timeout.replace(/s$/, '')) * 1000 : Infinity;
}

/** Whether a value is in a named set (a dynamic set's entries live in env.recent until they time out). */
function inSet(t: NFTTable, ref: string, value: string, env: WalkEnv): boolean {
  const s = setOf(t, ref);
  if (!s) return false;
  if (s.flags?.includes('dynamic')) {
    const seen = env.recent[s.name]?.[value];
    return seen !== undefined && env.now - seen < timeoutMs(s);
  }
  return s.elements.some((e) => e.key === value || (e.key.includes('/') && cidrContains(e.key, value)));
}

/** Whether an address matches `{ a, b/16 }` or a single address or CIDR. */
function inList(items: string[], ip: string): boolean {
  return items.some((x) => (x.includes('/') ? cidrContains(x, ip) : x === ip));
}

/** Read `{ x , y }` starting at tokens[i] === '{': the items and the index after `}`. */
function braces(tokens: string[], i: number): [string[], number] {
  const items: string[] = [];
  let j = i + 1;
  for (; j < tokens.length && tokens[j] !== '}'; j++) if (tokens[j] !== ',') items.push(tokens[j].replace(/,$/, ''));
  return [items, j + 1];
}

/** A verdict word at tokens[i]: jump/goto a chain, or a terminal one. */
function verdictAt(
  tokens: string[],
  i: number,
): { kind: 'jump' | 'goto'; chain: string } | Verdict | { kind: 'return' } | undefined {
  const w = tokens[i];
  if (w === 'jump' || w === 'goto') return { kind: w, chain: tokens[i + 1] };
  if (w === 'reject') return { kind: 'reject' };
  if (w === 'drop') return { kind: 'drop' };
  if (w === 'accept') return { kind: 'accept' };
  if (w === 'return') return { kind: 'return' };
  return undefined;
}

type RuleOutcome = { kind: 'jump' | 'goto'; chain: string } | Verdict | { kind: 'return' } | undefined;

/** Evaluate one rule: undefined when it does not match or decides nothing; otherwise its verdict. */
function evalRule(t: NFTTable, rule: string, p: Packet, env: WalkEnv, trace: string[], chainName: string): RuleOutcome {
  const tk = rule.split(/\s+/);
  let i = 0;
  while (i < tk.length) {
    const w = tk[i];
    if (w === 'ct' && tk[i + 1] === 'state') {
      if (!tk[i + 2].split(',').includes('new')) return undefined;
      i += 3;
      continue;
    }
    if (w === 'fib') {
      const local = tk[i + 1] === 'saddr' ? p.srcLocal : p.dstLocal;
      if (tk[i + 2] !== 'type' || tk[i + 3] !== 'local' || !local) return undefined;
      i += 4;
      continue;
    }
    if (w === 'numgen' && tk[i + 1] === 'random' && tk[i + 2] === 'mod' && tk[i + 4] === 'vmap') {
      const n = Number(tk[i + 3]);
      const [items] = braces(tk, i + 5);
      const pick = String(numgenRandom(env, n));
      // Items read "0 : goto endpoint-…" as words: key, ':', verb, chain.
      for (let k = 0; k + 3 < items.length + 1; k += 4)
        if (items[k] === pick) {
          trace.push(`${chainName}: ${rule}`);
          return verdictAt(items, k + 2);
        }
      return { kind: 'drop' };
    }
    if (w === 'update' && tk[i + 1]?.startsWith('@')) {
      const s = setOf(t, tk[i + 1]);
      if (s) (env.recent[s.name] ??= {})[p.srcIP] = env.now;
      i += 6; // update @set { ip saddr }
      continue;
    }
    if (w === 'dnat' && tk[i + 1] === 'to') {
      trace.push(`${chainName}: ${rule}`);
      return { kind: 'dnat', to: tk[i + 2] };
    }
    // dnat ip addr . port to numgen random mod N map { 0 : 10.244.1.2 . 80 , … }: the service
    // chain picks an endpoint and DNATs to it in one rule (no endpoint chain without affinity).
    if (
      w === 'dnat' &&
      tk.slice(i + 1, i + 9).join(' ') === 'ip addr . port to numgen random mod' &&
      tk[i + 10] === 'map'
    ) {
      const n = Number(tk[i + 9]);
      const [items] = braces(tk, i + 11);
      const pick = String(numgenRandom(env, n));
      trace.push(`${chainName}: ${rule}`);
      // Items read "0 : 10.244.1.2 . 80" as words: key, ':', address, '.', port.
      for (let k = 0; k + 4 < items.length; k += 5)
        if (items[k] === pick) return { kind: 'dnat', to: `${items[k + 2]}:${items[k + 4]}` };
      return { kind: 'drop' };
    }
    if (w === 'mark' || w === 'masquerade' || w === 'counter') return undefined; // marking and SNAT decide nothing here
    if ((w === 'tcp' || w === 'udp' || w === 'sctp') && tk[i + 1] === 'dport') {
      if (p.protocol.toLowerCase() !== w || String(p.dstPort) !== tk[i + 2]) return undefined;
      i += 3;
      continue;
    }
    const sel = selector(tk, i, p);
    if (sel) {
      let [value, j] = sel;
      if (tk[j] === '.') {
        // A concatenation looked up in a verdict map: ip daddr . meta l4proto . th dport vmap @m.
        const parts = [value];
        while (tk[j] === '.') {
          const s2 = selector(tk, j + 1, p);
          if (!s2) return undefined;
          parts.push(s2[0]);
          j = s2[1];
        }
        value = parts.join(' . ');
      }
      // meta l4proto tcp: the packet's protocol.
      if (w === 'meta' && tk[i + 1] === 'l4proto' && j === i + 2 && tk[j] !== 'vmap') {
        if (tk[j] !== value) return undefined;
        i = j + 1;
        continue;
      }
      if (tk[j] === 'vmap') {
        const m = setOf(t, tk[j + 1]);
        const el = m?.elements.find((e) => e.key === value);
        if (!el?.value) return undefined;
        trace.push(`${chainName}: ${rule} -> ${el.key} : ${el.value}`);
        return verdictAt(el.value.split(' '), 0);
      }
      const neg = tk[j] === '!=';
      if (neg) j++;
      let ok: boolean;
      if (tk[j]?.startsWith('@')) {
        ok = inSet(t, tk[j], value, env);
        j++;
      } else if (tk[j] === '{') {
        const [items, k] = braces(tk, j);
        ok = inList(items, value);
        j = k;
      } else {
        ok = inList([tk[j]], value);
        j++;
      }
      if (ok === neg) return undefined;
      i = j;
      continue;
    }
    const v = verdictAt(tk, i);
    if (v) {
      // A jump to mark-for-masquerade only marks the packet: not a step worth lighting.
      if (!('chain' in v && v.chain === 'mark-for-masquerade')) trace.push(`${chainName}: ${rule}`);
      return v;
    }
    return undefined; // an expression this walk does not know never matches
  }
  return undefined;
}

/** Walk a chain: a verdict, a return, or undefined when it falls off its end. */
function walkNftChain(t: NFTTable, name: string, p: Packet, env: WalkEnv, trace: string[], depth = 0): Flow {
  if (depth > 16) return { kind: 'drop' };
  const c = t.chains.find((x) => x.name === name);
  for (const r of c?.rules ?? []) {
    // The base chains' jumps into kube-proxy's own are plumbing, as iptables' PREROUTING jump is: not traced.
    const o = evalRule(t, r.rule, p, env, c!.hook ? [] : trace, name);
    if (!o) continue;
    if ('chain' in o) {
      // goto does not come back here; jump does, when the chain returns or falls off its end.
      if (o.kind === 'goto') return walkNftChain(t, o.chain, p, env, trace, depth + 1);
      const v = walkNftChain(t, o.chain, p, env, trace, depth + 1);
      if (v && v.kind !== 'return') return v;
      continue;
    }
    return o;
  }
  return undefined;
}

/**
 * The first packet of a connection through the node's table: the base chains on its path, each to
 * its verdict (accept or falling off goes on to the next; drop, reject or dnat ends the walk).
 */
export function walkNFTables(t: NFTTable, p: Packet, env: WalkEnv, fromHost: boolean): WalkResult {
  const trace: string[] = [];
  const path = fromHost
    ? ['filter-output-pre-dnat', 'nat-output', 'filter-output', ...(p.dstLocal ? ['filter-input'] : [])]
    : ['filter-prerouting-pre-dnat', 'nat-prerouting', p.dstLocal ? 'filter-input' : 'filter-forward'];
  for (const base of path) {
    const v = walkNftChain(t, base, p, env, trace);
    if (v && v.kind !== 'return' && v.kind !== 'accept') return { verdict: v, trace };
  }
  return { verdict: { kind: 'accept' }, trace };
}
