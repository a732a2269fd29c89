// One request of the traffic figure's client, hop by hop, read from the rules its node holds: the
// KUBE-SERVICES rule that matched the Service's address, the KUBE-SVC rule whose statistic match
// chose the endpoint, the KUBE-SEP chain that rewrote the destination, then the pod and its node.
// The rules are those of the frame: the client sends once a second, so they are the ones that took
// the request unless kube-proxy has rewritten them since, and then a hop it cannot find is left out.
import type { ClientHit, EndpointCount } from './traffic-client.ts';

/** A hop of the request's path: what it is, and what it did. */
export interface Hop { label: string; detail: string }

/** The path of one request: its hops and the indexes of the rules (in the lines given) that decided it. */
export interface RequestPath { hops: Hop[]; lit: number[]; ok: boolean }

const jumpOf = (l: string): string | undefined => / -j (KUBE-[A-Z]+-[A-Z0-9]+)$/.exec(l)?.[1];

/** The path `hit` took through `rules` (node-1's nat lines for the Service), or null when no rule explains it. */
export function requestPath(rules: readonly string[], hit: ClientHit, counts: readonly EndpointCount[], from = 'node-1'): RequestPath | null {
  const svc = rules.findIndex((l) => l.startsWith('-A KUBE-SERVICES ') && jumpOf(l)?.startsWith('KUBE-SVC-'));
  if (svc < 0) return null;
  const address = / -d (\S+?)(?:\/32)? .*--dport (\d+)/.exec(rules[svc]);
  const target = address ? `${address[1]}:${address[2]}` : 'the Service';
  const hops: Hop[] = [{ label: `client on ${from}`, detail: `connects to ${target}` }, { label: 'KUBE-SERVICES', detail: `matches ${target}` }];
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
    hops.push({ label: rules[pick].split(' ')[1], detail: p ? `statistic match, probability ${p}` : 'the last rule: the rest' });
    lit.push(pick);
  }
  if (dnat >= 0) {
    hops.push({ label: sep!, detail: `DNAT to ${hit.endpoint}` });
    lit.push(dnat);
  }
  const c = counts.find((x) => x.endpoint === hit.endpoint);
  hops.push({ label: c ? `${c.pod} on ${c.node}` : hit.endpoint, detail: hit.ok ? 'answers' : hit.error === 'timeout' ? 'no answer: timed out' : hit.error ?? 'failed' });
  return { hops, lit: lit.sort((a, b) => a - b), ok: hit.ok };
}
