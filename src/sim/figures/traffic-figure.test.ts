// The traffic figure: its story replays to the compiled hashes, step back and forward agree (the
// client's requests included), a link replays the client's requests, and each demo shows what the
// data path does: requests spread over every pod, a deleted pod leaving node-1's rules before its
// container stops, requests to a dead node's pod timing out until its endpoint leaves the rules,
// and the client answered through a control-plane outage by the frozen rules.
import { describe, expect, it } from 'vitest';
import { runOnFigure } from './terminal.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { CompiledFigure, FigureView } from './protocol.ts';
import { expectPressesNeverThrow, expectStoryReplays, runDemoSteps } from './replay-check.ts';
import { createFigureServer } from './serve.ts';
import { FIGURES } from '../testing/figures.ts';
import { serviceRuleLines, trafficFigure as def, type TrafficDetail } from './traffic-figure.ts';

const compiled: CompiledFigure = compileFigure(def);
const fresh = () => new FigureHost(def, { ...compiled.story, inputs: [], beats: [], end: 0 });
const detail = (v: FigureView) => v.detail as unknown as TrafficDetail;
const answered = (d: TrafficDetail) => d.counts.reduce((n, c) => n + c.ok, 0);
const failed = (d: TrafficDetail, k: 'refused' | 'timeout' | 'unreachable') => d.counts.reduce((n, c) => n + c[k], 0);
const failures = (d: TrafficDetail) => failed(d, 'refused') + failed(d, 'timeout') + failed(d, 'unreachable');
const targets = (d: TrafficDetail) =>
  d.rules
    .map((l) => l.match(/--to-destination (\S+)$/)?.[1])
    .filter(Boolean)
    .map((x) => x!.split(':')[0])
    .sort();

/** Presses a demo and steps one step at a time to its last beat, calling `each` at every view. */
const runDemo = runDemoSteps;

describe('serviceRuleLines', () => {
  const text = [
    ':KUBE-SEP-AAA - [0:0]',
    ':KUBE-SEP-OTHER - [0:0]',
    ':KUBE-SVC-WEB - [0:0]',
    ':KUBE-SVC-DNS - [0:0]',
    '-A KUBE-SERVICES -m comment --comment "default/web cluster IP" -m tcp -p tcp -d 10.96.5.5 --dport 80 -j KUBE-SVC-WEB',
    '-A KUBE-SERVICES -m comment --comment "kube-system/kube-dns:dns cluster IP" -m udp -p udp -d 10.96.0.10 --dport 53 -j KUBE-SVC-DNS',
    '-A KUBE-SEP-AAA -m comment --comment default/web -m tcp -p tcp -j DNAT --to-destination 10.244.1.3:80',
    '-A KUBE-SEP-OTHER -m comment --comment kube-system/kube-dns:dns -m udp -p udp -j DNAT --to-destination 10.244.1.2:53',
    '-A KUBE-SVC-WEB -m comment --comment "default/web -> 10.244.1.3:80" -j KUBE-SEP-AAA',
    '-A KUBE-SVC-DNS -m comment --comment "kube-system/kube-dns:dns -> 10.244.1.2:53" -j KUBE-SEP-OTHER',
    'COMMIT',
  ].join('\n');
  it("keeps the Service's chains and rules only, declarations first", () => {
    expect(serviceRuleLines(text, 'default', 'web')).toEqual([
      ':KUBE-SVC-WEB - [0:0]',
      ':KUBE-SEP-AAA - [0:0]',
      '-A KUBE-SERVICES -m comment --comment "default/web cluster IP" -m tcp -p tcp -d 10.96.5.5 --dport 80 -j KUBE-SVC-WEB',
      '-A KUBE-SEP-AAA -m comment --comment default/web -m tcp -p tcp -j DNAT --to-destination 10.244.1.3:80',
      '-A KUBE-SVC-WEB -m comment --comment "default/web -> 10.244.1.3:80" -j KUBE-SEP-AAA',
    ]);
    expect(serviceRuleLines(text, 'default', 'nope')).toEqual([]);
  });
});

describe('the traffic figure, compiled', () => {
  it('has beats with text in step order, a note, and is plain JSON', () => {
    const b = compiled.story.beats;
    expect(b.length).toBeGreaterThanOrEqual(8);
    for (const x of b) expect(x.text).toMatch(/[.)]$/);
    expect(b.map((x) => x.step)).toEqual([...b.map((x) => x.step)].sort((p, q) => p - q));
    expect(JSON.parse(JSON.stringify(compiled))).toEqual(compiled);
    expect(compiled.leavesOut.length).toBeGreaterThanOrEqual(3);
  });

  it('replays in a fresh host to the same world, frame and beat text at every beat', () => {
    expectStoryReplays(def, compiled);
  });

  it("gives the identical view (the client's counts included) after a step back and a step forward", () => {
    const host = new FigureHost(def, compiled.story);
    for (const i of [2, 5, compiled.story.beats.length - 1]) {
      host.handle({ op: 'seek', step: compiled.story.beats[i].step + 3 });
      const here = host.view();
      host.handle({ op: 'back' });
      expect(host.handle({ op: 'step' })).toEqual(here);
    }
  });

  it("a link replays the client's requests: the same counts at the same step", async () => {
    const serve = createFigureServer(FIGURES)('x');
    await serve.open('traffic', compiled.story);
    const beat = compiled.story.beats[compiled.story.beats.length - 1];
    const at = await serve.seek(beat.step);
    const r = await serve.link();
    const link = r.ok ? r.value : '';
    expect(link).not.toBe('');
    const opened = await createFigureServer(FIGURES)('r').restore('traffic', compiled.story, link);
    expect(opened.step).toBe(beat.step);
    expect(opened.detail).toEqual(at.detail);
    expect(answered(detail(opened))).toBeGreaterThan(30);
  });

  it('never throws whatever the reader presses, in any order', () => {
    expectPressesNeverThrow(def, fresh);
  }, 120_000);
});

describe("the traffic figure's demos", () => {
  it("web over three nodes: node-1's rules name the three ready pods with probabilities 1/3 and 1/2; every pod answers, none fails", () => {
    const host = fresh();
    const v = runDemo(host, 'apply');
    const d = detail(v);
    expect(targets(d)).toEqual(
      v.frame.pods
        .filter((p) => p.owner?.startsWith('ReplicaSet/web-'))
        .map((p) => p.ip)
        .sort(),
    );
    expect(d.rules.filter((l) => l.includes('--probability')).map((l) => l.match(/--probability (\S+)/)![1])).toEqual([
      '0.3333333333',
      '0.5000000000',
    ]);
    expect(d.counts.filter((c) => c.ok > 0)).toHaveLength(3);
    // Before the first endpoint was ready, the Service's REJECT rule refused the client's connections, at no endpoint.
    expect(d.counts.find((c) => c.endpoint === '')!.refused).toBeGreaterThan(0);
    expect(d.counts.filter((c) => c.endpoint !== '').every((c) => c.refused + c.timeout + c.unreachable === 0)).toBe(
      true,
    );
    expect(failed(d, 'timeout') + failed(d, 'unreachable')).toBe(0);
    expect(d.latest.length).toBeGreaterThan(0);
    expect(compiled.story.beats[1].text).toMatch(/rules rejected the client's first \d+ connections/);
  });

  it("before web has a ready endpoint, the panel shows the filter table's REJECT rule that refused the client, and the nftables lines that would", () => {
    const host = fresh();
    let v = host.handle({ op: 'demo', demo: 'apply' });
    for (let i = 0; i < 400 && !detail(v).latest.length; i++) v = host.handle({ op: 'step' })!;
    const d = detail(v);
    expect(d.latest.at(-1)).toMatchObject({ endpoint: null, ok: false, error: 'refused' });
    expect(d.table).toBe('filter');
    expect(d.rules).toEqual([
      expect.stringMatching(
        /^-A KUBE-SERVICES -m comment --comment "default\/web has no endpoints" .*-d 10\.\d+\.\d+\.\d+ --dport 80 -j REJECT$/,
      ),
    ]);
    expect(d.path!.hops.map((h) => `${h.label}: ${h.detail}`)).toEqual([
      expect.stringMatching(/^client on node-1: connects to 10\.[\d.]+:80$/),
      'KUBE-SERVICES (filter): no endpoints: REJECT',
      'the client: connection refused',
    ]);
    expect(d.path!.lit).toEqual([0]);
    expect(d.legend).toEqual([
      '✓ 0 answered',
      expect.stringMatching(
        /^✗ \d+ refused while web had no ready endpoint: the rules reject a connection to a Service with none$/,
      ),
    ]);
    expect(d.nftSentence).toMatch(
      /with no ready endpoint, web's element in @no-endpoint-services sends a connection to reject-chain\. The lines that would decide the last request are marked\.$/,
    );
    expect(d.nft.filter((_, i) => d.nftLit.includes(i)).map((l) => l.trim())).toEqual([
      expect.stringMatching(/^elements = \{ 10\.[\d.]+ \. tcp \. 80 comment "default\/web" : goto reject-chain \}$/),
      'reject',
      'ip daddr . meta l4proto . th dport vmap @no-endpoint-services',
    ]);
  });

  it("in nftables mode the same sync is one numgen map: node-1's excerpt for web, and the lines that would decide the last request", () => {
    const d = detail(runDemo(fresh(), 'apply'));
    expect(d.table).toBe('nat');
    const ips = targets(d);
    expect(d.nft[0]).toBe('table ip kube-proxy {');
    expect(d.nft.at(-1)).toBe('}');
    expect(
      d.nft.filter((l) => /^\t(map|chain) /.test(l)).map((l) => l.trim().replace(/-[A-Z0-9]{8}-/, '-HASH-')),
    ).toEqual(['map service-ips {', 'chain service-HASH-default/web/tcp/ {', 'chain services {']);
    const dnat = d.nft.find((l) => l.includes('numgen'))!;
    expect(dnat).toMatch(
      /^\t\tmeta l4proto tcp dnat ip addr \. port to numgen random mod 3 map \{ 0 : [\d.]+ \. 80 , 1 : [\d.]+ \. 80 , 2 : [\d.]+ \. 80 \}$/,
    );
    expect([...dnat.matchAll(/: ([\d.]+) \. 80/g)].map((m) => m[1]).sort()).toEqual(ips);
    expect(d.nftLit.map((i) => d.nft[i].trim().split(' ')[0])).toEqual(['elements', 'meta', 'ip']);
    expect(d.nftSentence).toContain(
      'one numgen draw picks among 3 endpoints, where iptables tries its KUBE-SEP chains in turn',
    );
    // The legend counts the strip's requests: those before web had an endpoint were refused, every later one answered.
    const refusedEarly = d.latest.filter((r) => !r.endpoint).length;
    expect(d.legend).toEqual([
      `✓ ${d.latest.length - refusedEarly} answered`,
      ...(refusedEarly
        ? [expect.stringMatching(new RegExp(`^✗ ${refusedEarly} refused while web had no ready endpoint`))]
        : []),
    ]);
  });

  it('scale to 5 and back: the rules follow the ready pods, and no request fails', () => {
    const host = fresh();
    const f0 = failures(detail(runDemo(host, 'apply')));
    let v = runDemo(host, 'scale');
    expect(targets(detail(v))).toHaveLength(5);
    expect(
      detail(v)
        .rules.filter((l) => l.includes('--probability'))
        .map((l) => l.match(/--probability (\S+)/)![1]),
    ).toEqual(['0.2000000000', '0.2500000000', '0.3333333333', '0.5000000000']);
    v = runDemo(host, 'scale');
    expect(targets(detail(v))).toHaveLength(3);
    expect(failures(detail(v))).toBe(f0);
  });

  it("a deleted pod leaves the rules while it terminates (no request fails); a rollout replaces every pod, failing only at the old pods' addresses, as its beat says", () => {
    const host = fresh();
    const f0 = failures(detail(runDemo(host, 'apply')));
    let sawTerminatingOut = false;
    runDemo(host, 'delete', (x) => {
      const term = x.frame.pods.find((p) => p.terminating && p.owner?.startsWith('ReplicaSet/web-'));
      if (term && !targets(detail(x)).includes(term.ip!)) sawTerminatingOut = true;
    });
    expect(sawTerminatingOut).toBe(true);
    expect(failures(detail(host.view()))).toBe(f0);
    const old = new Set(host.view().frame.pods.map((p) => p.ip));
    let last = '';
    const v = runDemo(host, 'rollout', (x) => {
      if (x.beat) last = x.beat;
    });
    expect(
      v.frame.pods.filter((p) => p.owner?.startsWith('ReplicaSet/web-')).every((p) => p.image === 'nginx:1.28'),
    ).toBe(true);
    // A connection can fail only at an old pod's address, and the beat says how many did.
    const bad = detail(v).counts.filter((c) => c.endpoint !== '' && c.refused + c.timeout + c.unreachable > 0);
    for (const c of bad) expect(old.has(c.endpoint.split(':')[0])).toBe(true);
    const n = failures(detail(v)) - f0;
    expect(last).toMatch(n ? new RegExp(`${n} unreachable.*preStop`) : /none failed/);
  });

  it('a failed readiness probe takes the pod out of the rules without restarting it (no request fails); a passing one brings it back at the same address', () => {
    const host = fresh();
    const f0 = failures(detail(runDemo(host, 'apply')));
    const before = host.view().frame.pods.filter((p) => p.owner?.startsWith('ReplicaSet/web-'));
    const beats: string[] = [];
    let out: { ip: string; t: number; restarts: number } | null = null;
    const v = runDemo(host, 'readiness', (x) => {
      if (x.beat) beats.push(x.beat);
      const pod = x.frame.pods.find((p) => p.node === 'node-2' && p.owner?.startsWith('ReplicaSet/web-'));
      if (!out && pod && !pod.ready && !targets(detail(x)).includes(pod.ip!))
        out = { ip: pod.ip!, t: x.frame.t, restarts: pod.restarts };
    });
    expect(out).not.toBeNull();
    const after = v.frame.pods.filter((p) => p.owner?.startsWith('ReplicaSet/web-'));
    // The same pods: readiness takes a pod out of the Service; nothing replaces or restarts it.
    expect(after.map((p) => p.name).sort()).toEqual(before.map((p) => p.name).sort());
    expect(after.every((p) => p.ready && p.restarts === 0)).toBe(true);
    expect(targets(detail(v))).toContain(out!.ip);
    expect(failures(detail(v))).toBe(f0);
    expect(beats[0]).toMatch(/^sim app web-\S+ unready: /);
    expect(beats[1]).toMatch(/^\d+ s later the probe had failed 3 times in a row .* still runs, with no restart/);
    expect(beats[1]).toMatch(/none failed/);
    expect(beats.at(-1)).toMatch(/Ready again: back in the EndpointSlice and in the rules/);
  });

  it('node-3 stops: requests to its pod time out until its endpoint leaves the rules; during a control-plane outage the frozen rules still answer', () => {
    const host = fresh();
    runDemo(host, 'apply');
    const before = host.view();
    const ip = before.frame.pods.find((p) => p.node === 'node-3' && p.owner?.startsWith('ReplicaSet/web-'))!.ip!;
    let v = runDemo(host, 'node');
    const d = detail(v);
    expect(d.counts.find((c) => c.endpoint.startsWith(`${ip}:`))!.timeout).toBeGreaterThan(0);
    expect(targets(d)).not.toContain(ip);
    // Each other node's kube-proxy keeps its own copy, synced on its own time: node-2's drops the pod
    // too (a few seconds later at most); powered-off node-3 holds none.
    v = host.handle({ op: 'advance', ms: 5_000 })!;
    const later = detail(v);
    const other = (n: string) => later.others.find((o) => o.node === n)!;
    expect(later.others.map((o) => o.node)).toEqual(['node-2', 'node-3']);
    expect(other('node-2').rules).toEqual(later.rules);
    expect(other('node-2').nftSentence).toMatch(/one numgen draw picks among 2 endpoints.*turn\.$/);
    expect(other('node-3')).toMatchObject({ off: true, rules: [], nft: [] });
    const rules = later.rules;
    const ok = answered(later);
    const timeouts = failed(later, 'timeout');
    v = runDemo(host, 'control-plane');
    expect(v.frame.controlPlane.apiserver).toBe(false);
    expect(detail(v).rules).toEqual(rules);
    expect(answered(detail(v)) - ok).toBeGreaterThanOrEqual(30);
    expect(failed(detail(v), 'timeout')).toBe(timeouts);
  });

  it("the terminal reaches the same network: sim rules prints the panel's lines, nslookup asks CoreDNS, curl reaches a pod, and the client goes on", () => {
    const host = fresh();
    const v = runDemo(host, 'apply');
    const rules = runOnFigure(host, 'sim rules node-1');
    for (const line of detail(v).rules) expect(rules.stdout).toContain(line);
    expect(runOnFigure(host, 'kubectl exec deploy/web -- nslookup web').stdout).toMatch(
      /Name:\s+web\.default\.svc\.cluster\.local\nAddress: 10\./,
    );
    expect(runOnFigure(host, 'kubectl exec deploy/web -- curl -sS http://web').stdout).toMatch(
      /web-[a-z0-9]+-[a-z0-9]{5}/,
    );
    const sent = detail(host.view()).sent;
    host.handle({ op: 'advance', ms: 10_000 });
    expect(detail(host.view()).sent).toBe(sent + 10);
  });
});
