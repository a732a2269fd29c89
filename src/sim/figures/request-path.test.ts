import { describe, expect, it } from 'vitest';
import { nftRequestLit, requestPath } from './request-path.ts';

// node-1's lines for default/web as the traffic figure prints them (two endpoints).
const RULES = [
  ':KUBE-SEP-AAAA - [0:0]',
  '-A KUBE-SERVICES -m comment --comment "default/web cluster IP" -m tcp -p tcp -d 10.109.48.121 --dport 80 -j KUBE-SVC-LOLE4ISW44XBNF3G',
  '-A KUBE-SEP-AAAA -m comment --comment default/web -s 10.244.1.3 -j KUBE-MARK-MASQ',
  '-A KUBE-SEP-AAAA -m comment --comment default/web -m tcp -p tcp -j DNAT --to-destination 10.244.1.3:80',
  '-A KUBE-SEP-BBBB -m comment --comment default/web -m tcp -p tcp -j DNAT --to-destination 10.244.2.3:80',
  '-A KUBE-SVC-LOLE4ISW44XBNF3G -m comment --comment "default/web -> 10.244.1.3:80" -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-AAAA',
  '-A KUBE-SVC-LOLE4ISW44XBNF3G -m comment --comment "default/web -> 10.244.2.3:80" -j KUBE-SEP-BBBB',
];
const COUNTS = [
  { endpoint: '10.244.2.3:80', pod: 'web-x-2pdpp', node: 'node-2', ok: 1, refused: 0, timeout: 0, unreachable: 0 },
];

describe('requestPath', () => {
  it('lights the Service rule, the statistic rule that chose the endpoint and its DNAT, and names the pod', () => {
    const p = requestPath(
      RULES,
      { t: 1, endpoint: '10.244.2.3:80', pod: 'web-x-2pdpp', ok: true, error: null },
      COUNTS,
    )!;
    expect(p.lit).toEqual([1, 4, 6]);
    expect(p.hops.map((h) => h.label)).toEqual([
      'client on node-1',
      'KUBE-SERVICES',
      'KUBE-SVC-LOLE4ISW44XBNF3G',
      'KUBE-SEP-BBBB',
      'web-x-2pdpp on node-2',
    ]);
    expect(p.hops[1].detail).toBe('matches 10.109.48.121:80');
    expect(p.hops[2].detail).toBe('the last rule: the rest');
    expect(p.ok).toBe(true);
  });
  it('says the probability of a statistic match, and a timeout as the client sees it', () => {
    const p = requestPath(RULES, { t: 1, endpoint: '10.244.1.3:80', pod: null, ok: false, error: 'timeout' }, [])!;
    expect(p.lit).toEqual([1, 3, 5]);
    expect(p.hops[2].detail).toBe('statistic match, probability 0.5000000000');
    expect(p.hops.at(-1)).toEqual({ label: '10.244.1.3:80', detail: 'no answer: timed out' });
  });
  it('stops at KUBE-SERVICES when no endpoint took the request, and answers null without a Service rule', () => {
    expect(
      requestPath(RULES, { t: 1, endpoint: null, pod: null, ok: false, error: 'refused' }, [])!.hops.at(-1),
    ).toEqual({ label: 'no endpoint', detail: 'refused' });
    expect(requestPath([], { t: 1, endpoint: null, pod: null, ok: false, error: 'refused' }, [])).toBeNull();
  });

  it("reads the filter table's REJECT rule of a Service with no endpoint as a refused connection", () => {
    const reject =
      '-A KUBE-SERVICES -m comment --comment "default/web has no endpoints" -m tcp -p tcp -d 10.109.48.121 --dport 80 -j REJECT';
    const p = requestPath([reject], { t: 1, endpoint: null, pod: null, ok: false, error: 'refused' }, [])!;
    expect(p).toEqual({
      hops: [
        { label: 'client on node-1', detail: 'connects to 10.109.48.121:80' },
        { label: 'KUBE-SERVICES (filter)', detail: 'no endpoints: REJECT' },
        { label: 'the client', detail: 'connection refused' },
      ],
      lit: [0],
      ok: false,
    });
    expect(
      requestPath([reject], { t: 1, endpoint: '10.244.1.3:80', pod: null, ok: false, error: 'refused' }, []),
    ).toBeNull();
  });
});

describe('nftRequestLit', () => {
  const NFT = [
    'table ip kube-proxy {',
    '\tmap service-ips {',
    '\t\telements = { 10.109.48.121 . tcp . 80 : goto service-ABCDEFGH-default/web/tcp/ }',
    '\t}',
    '\tchain service-ABCDEFGH-default/web/tcp/ {',
    '\t\tmeta l4proto tcp dnat ip addr . port to numgen random mod 2 map { 0 : 10.244.1.3 . 80 , 1 : 10.244.2.3 . 80 }',
    '\t}',
    '\tchain services {',
    '\t\tip daddr . meta l4proto . th dport vmap @service-ips',
    '\t}',
    '}',
  ];
  it("lights the lookup, the Service's element and its numgen DNAT for a request an endpoint took", () => {
    expect(nftRequestLit(NFT, { t: 1, endpoint: '10.244.2.3:80', pod: null, ok: true, error: null })).toEqual([
      2, 5, 8,
    ]);
  });
  it('lights nothing that is not there: no reject-chain in a Service with endpoints', () => {
    expect(nftRequestLit(NFT, { t: 1, endpoint: null, pod: null, ok: false, error: 'refused' })).toEqual([]);
  });
});
