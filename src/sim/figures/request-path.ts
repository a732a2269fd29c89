// One request of the traffic figure's client, hop by hop, read from the rules its node holds: the
// KUBE-SERVICES rule that matched the Service's address, the KUBE-SVC rule whose statistic match
// chose the endpoint, the KUBE-SEP chain that rewrote the destination, then the pod and its node.
// The rules are those of the frame: the client sends once a second, so they are the ones that took
// the request unless kube-proxy has rewritten them since, and then a hop it cannot find is left out.
// The same request is also read against the nftables lines the same sync writes in nftables mode
// (`nftLit`): which of those lines would have decided it.
import type { ClientHit, EndpointCount } from './traffic-client.ts';

/** A hop of the request's path: what it is, and what it did. */
interface Hop {
  label: string;
  detail: string;
}

/** The path of one request: its hops and the indexes of the rules (in the lines given) that decided it. */
export interface RequestPath {
  hops: Hop[];
  lit: number[];
  ok: boolean;
}

const jumpOf = (l: string): string | undefined => / -j (KUBE-[A-Z]+-[A-Z0-9]+)$/.exec(l)?.[1];
const addressOf = (l: string): string | undefined => {
  const a = / -d (\S+?)(?:\/32)? .*--dport (\d+)/.exec(l);
  return a ? `${a[1]}:${a[2]}` : undefined;
};

/** The path `hit` took through `rules` (node-1's lines for the Service), or null when no rule explains it. */
export function requestPath(
  rules: readonly string[],
  hit: ClientHit,
  counts: readonly EndpointCount[],
  from = 'node-1',
): RequestPath | null {
  const svc = rules.findIndex((l) => l.startsWith('-A KUBE-SERVICES ') && jumpOf(l)?.startsWith('KUBE-SVC-'));
  if (svc < 0) {
    // A Service with no ready endpoint has no KUBE-SVC chain: the filter table's KUBE-SERVICES
    // rejects its connections (ICMP port unreachable, which the client reads as connection refused).
    const reject = rules.findIndex((l) => l.startsWith('-A KUBE-SERVICES ') && l.endsWith(' -j REJECT'));
    if (reject < 0 || hit.endpoint) return null;
    const target = addressOf(rules[reject]) ?? 'the Service';
    return {
      hops: [
        { label: `client on ${from}`, detail: `connects to ${target}` },
        { label: 'KUBE-SERVICES (filter)', detail: 'no endpoints: REJECT' },
        { label: 'the client', detail: 'connection refused' },
      ],
      lit: [reject],
      ok: false,
    };
  }
  const target = addressOf(rules[svc]) ?? 'the Service';
  const hops: Hop[] = [
    { label: `client on ${from}`, detail: `connects to ${target}` },
    { label: 'KUBE-SERVICES', detail: `matches ${target}` },
  ];
  const lit = [svc];
  if (!hit.endpoint) {
    hops.push({ label: 'no endpoint', detail: hit.error ?? 'refused' });
    return { hops, lit, ok: false };
  }
  const dnat = rules.findIndex((l) => l.startsWith('-A KUBE-SEP-') && l.endsWith(`--to-destination ${hit.endpoint}`));
  const sep = dnat >= 0 ? rules[dnat].split(' ')[1] : undefined;
  const pick = sep ? rules.findIndex((l) => l.startsWith('-A KUBE-SVC-') && jumpOf(l) === sep) : -1;
  if (pick >= 0) {
    const p = / --probability (\S+)/.exec(rules[pick])?.[1];
    hops.push({
      label: rules[pick].split(' ')[1],
      detail: p ? `statistic match, probability ${p}` : 'the last rule: the rest',
    });
    lit.push(pick);
  }
  if (dnat >= 0) {
    hops.push({ label: sep!, detail: `DNAT to ${hit.endpoint}` });
    lit.push(dnat);
  }
  const c = counts.find((x) => x.endpoint === hit.endpoint);
  hops.push({
    label: c ? `${c.pod} on ${c.node}` : hit.endpoint,
    detail: hit.ok ? 'answers' : hit.error === 'timeout' ? 'no answer: timed out' : (hit.error ?? 'failed'),
  });
  return { hops, lit: lit.sort((a, b) => a - b), ok: hit.ok };
}

/**
 * The lines of an nftables excerpt (`serviceNftLines`) that would decide `hit` in nftables mode:
 * the `services` chain's lookup in @service-ips, the Service's element there and its chain's
 * numgen DNAT (and an endpoint chain's DNAT to the chosen address, where there is one); or, with no
 * endpoint, the filter hook's lookup in @no-endpoint-services, the element and reject-chain.
 */
export function nftRequestLit(lines: readonly string[], hit: ClientHit): number[] {
  const at = (pred: (l: string) => boolean) => lines.findIndex(pred);
  const lit = hit.endpoint
    ? [
        at((l) => l.includes('vmap @service-ips')),
        at((l) => l.includes(' : goto service-')),
        at((l) => / dnat /.test(l) && l.includes('numgen')),
        at((l) => / dnat /.test(l) && l.includes(`to ${hit.endpoint}`)),
      ]
    : [
        at((l) => l.includes('vmap @no-endpoint-services')),
        at((l) => l.includes(': goto reject-chain')),
        at((l) => l.trim() === 'reject'),
      ];
  return [...new Set(lit.filter((i) => i >= 0))].sort((a, b) => a - b);
}
