// The dns-lookup widget: client's resolv.conf names kube-dns, CoreDNS answers web's name with its
// ClusterIP, and a connection to it reaches a web pod; the Service made again gets a new ClusterIP,
// CoreDNS answers it before kube-proxy has rules for it, and the old address leads nowhere. The
// chapter quotes the addresses and names the simulation gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { CLIENT, type DnsDetail, dnsLookupWidget, QNAME } from './dns-lookup-widget.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { connect } from '../net/data-path.ts';
import { podNetworkStateOf } from '../net/pod-network.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';

const compiled = compileFigure(dnsLookupWidget);
const host = (step: number): FigureHost => {
  const h = new FigureHost(dnsLookupWidget, compiled.story);
  h.handle({ op: 'seek', step });
  return h;
};
const at = (step: number): FigureView => host(step).handle({ op: 'seek', step });
const dnsOf = (v: FigureView): DnsDetail => v.detail!.dns as unknown as DnsDetail;

describe('the dns-lookup widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(compiled, 3);
    expectStoryReplays(dnsLookupWidget, compiled);
  });
  it('opens with client resolving web through kube-dns to its ClusterIP, and connecting', () => {
    expect(compiled.first.step).toBe(compiled.story.opening);
    const d = dnsOf(compiled.first);
    expect(d).toMatchObject({
      node: 'node-3',
      nameserver: '10.96.0.10',
      rcode: 'NOERROR',
      address: d.clusterIP,
      connect: { ok: true, error: null },
    });
    expect(d.servers).toHaveLength(2);
    expect(d.servers.every((s) => s.ready && s.pod.startsWith('coredns-'))).toBe(true);
    expect(d.servers.map((s) => s.pod)).toContain(d.answeredBy);
    expect(d.connect!.pod).toMatch(/^web-/);
  });
  itStepsAsAWidget(dnsLookupWidget, () => compiled);

  it("answers the new ClusterIP before the client's node has rules for it, then connects; the old address is lost", () => {
    const [, , early, late] = compiled.story.beats;
    const old = dnsOf(compiled.first).address!;
    const e = dnsOf(at(early.step));
    expect(e.rcode).toBe('NOERROR');
    expect(e.address).not.toBe(old);
    expect(e.address).toBe(e.clusterIP);
    expect(e.connect).toMatchObject({ ok: false, error: 'timeout' });
    const h = host(late.step);
    const l = dnsOf(h.handle({ op: 'seek', step: late.step }));
    expect(l).toMatchObject({ address: e.address, connect: { ok: true } });
    const w = h.cluster.world.state;
    const c = connect(w, structuredClone(podNetworkStateOf(w)!), {
      from: { pod: { namespace: 'default', name: CLIENT } },
      dstIP: old,
      dstPort: 80,
    });
    expect(c).toMatchObject({ ok: false, error: 'timeout' });
  });
  it('answers NXDOMAIN while CoreDNS has seen the delete and not yet the new Service', () => {
    const [, start, early] = compiled.story.beats;
    const h = host(start.step);
    const codes = new Set<string | null>();
    for (let s = start.step; s <= early.step; s++) codes.add(dnsOf(h.handle({ op: 'seek', step: s })).rcode);
    expect([...codes]).toContain('NXDOMAIN');
  });
  it('quotes in its chapter the addresses and pods the simulation gives', () => {
    const text = readFileSync(new URL('../../../content/networking.mdx', import.meta.url), 'utf8');
    const para = text.slice(
      text.indexOf('The DNS query is itself a request to a Service'),
      text.indexOf('<InlineWidget id="dns-lookup" />'),
    );
    const first = dnsOf(compiled.first);
    const [, , early, late] = compiled.story.beats;
    const e = dnsOf(at(early.step));
    expect(para).toContain(`\`${QNAME}\``);
    expect(para).toContain(`\`${first.address}\``);
    expect(para).toContain(`\`${e.address}\``);
    expect(late.text).toMatch(/^2\.0 s after the delete/);
    expect(para).toContain('two seconds');
  });
});
