// The networking chapter's inline widgets (ready-endpoints, proxy-pick): each story replays, opens
// where web runs behind its Service, steps back no further than that, and shows its mechanism with
// the names and numbers the paragraph beside it quotes (read from the chapter and checked here).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import type { FigureDef } from './demo.ts';
import { FigureHost } from './host.ts';
import type { CompiledFigure, FigureView } from './protocol.ts';
import { parseScaleDemoId, proxyPickWidget, scaleDemoId } from './proxy-pick-widget.ts';
import { readyEndpointsWidget } from './ready-endpoints-widget.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget, runDemoSteps } from './replay-check.ts';
import { picksOf, type ServiceWebDetail } from './service-web.ts';

const WIDGETS: FigureDef[] = [readyEndpointsWidget, proxyPickWidget];
const compiled: Record<string, CompiledFigure> = Object.fromEntries(WIDGETS.map((d) => [d.id, compileFigure(d)]));
const live = (def: FigureDef): FigureHost => new FigureHost(def, compiled[def.id].story);
const detail = (v: { detail?: unknown }): ServiceWebDetail => v.detail as ServiceWebDetail;
const chapter = readFileSync(new URL('../../../content/networking.mdx', import.meta.url), 'utf8');
/** The chapter's paragraph just above a widget (from the blank line before it to the widget's Figure). */
function paragraphBefore(id: string): string {
  const at = chapter.indexOf(`<InlineWidget id="${id}" />`);
  const fig = chapter.lastIndexOf('<Figure ', at);
  return chapter.slice(chapter.lastIndexOf('\n\n', fig - 3), fig);
}

describe.each(WIDGETS.map((d) => [d.id, d] as const))('the %s widget', (_id, def) => {
  const c = () => compiled[def.id];
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c(), 3);
    expectStoryReplays(def, c());
  });
  it("opens where web runs behind its Service, every pod a ready endpoint in node-1's rules", () => {
    const first = c().first;
    expect(c().story.opening).toBe(c().story.beats[0].step);
    expect(first.step).toBe(c().story.opening);
    expect(first.beat).toMatch(/^web runs 3 pods behind the Service web: /);
    const d = detail(first);
    expect(d.endpoints).toHaveLength(3);
    expect(d.endpoints.every((e) => e.ready && e.serving && !e.terminating)).toBe(true);
    expect(d.picks.map((p) => p.endpoint.replace(/:80$/, '')).sort()).toEqual(d.endpoints.map((e) => e.ip).sort());
  });
  itStepsAsAWidget(def, c);
});

describe('picksOf', () => {
  it("reads the KUBE-SVC chain's endpoint rules in order, and each share is what the rules before it left times its probability", () => {
    const rules = [
      '-A KUBE-SVC-X -m comment --comment "default/web cluster IP" -m tcp -p tcp -d 10.96.0.5 --dport 80 ! -s 10.244.0.0/16 -j KUBE-MARK-MASQ',
      '-A KUBE-SVC-X -m comment --comment "default/web -> 10.244.1.2:80" -m statistic --mode random --probability 0.3333333333 -j KUBE-SEP-A',
      '-A KUBE-SVC-X -m comment --comment "default/web -> 10.244.2.2:80" -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-B',
      '-A KUBE-SVC-X -m comment --comment "default/web -> 10.244.3.2:80" -j KUBE-SEP-C',
      '-A KUBE-SEP-A -m comment --comment default/web -m tcp -p tcp -j DNAT --to-destination 10.244.1.2:80',
    ];
    const p = picksOf(rules);
    expect(p.map((x) => [x.endpoint, x.chain, x.probability])).toEqual([
      ['10.244.1.2:80', 'KUBE-SEP-A', '0.3333333333'],
      ['10.244.2.2:80', 'KUBE-SEP-B', '0.5000000000'],
      ['10.244.3.2:80', 'KUBE-SEP-C', null],
    ]);
    for (const x of p) expect(x.share).toBeCloseTo(1 / 3, 8);
  });
});

describe('ready-endpoints', () => {
  const c = compiled['ready-endpoints'];
  const at = (step: number): FigureView => live(readyEndpointsWidget).handle({ op: 'seek', step });
  const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
  it("marks the failing pod's endpoint not ready and not serving (not terminating) before kube-proxy drops it, and the pod never restarts", () => {
    const marked = at(beatNamed(/copied it into the slice/).step);
    const e = detail(marked).endpoints.find((x) => x.pod === 'web-6fbdc9d7d8-vc5xc')!;
    expect(e).toMatchObject({ ip: '10.244.2.2', ready: false, serving: false, terminating: false });
    expect(marked.frame.pods.find((p) => p.name === e.pod)).toMatchObject({
      ready: false,
      phase: 'Running',
      restarts: 0,
    });
    const dropped = at(beatNamed(/rewrote its rules/).step);
    expect(dropped.step).toBeGreaterThan(marked.step);
    expect(detail(dropped).picks.map((p) => p.endpoint)).not.toContain('10.244.2.2:80');
    expect(detail(dropped).picks.map((p) => p.probability)).toEqual(['0.5000000000', null]);
    expect(detail(dropped).endpoints).toHaveLength(3);
  });
  it('brings it back at the same address once a probe passes', () => {
    const end = at(c.story.end);
    expect(detail(end).picks.map((p) => p.endpoint)).toContain('10.244.2.2:80');
    expect(detail(end).endpoints.every((x) => x.ready && x.serving)).toBe(true);
  });
  it('quotes in its chapter the pod names, addresses and timing the simulation gives', () => {
    const para = paragraphBefore('ready-endpoints');
    const quoted = [...para.matchAll(/web-[a-z0-9]{10}-[a-z0-9]{5}/g)].map((m) => m[0]);
    expect(quoted.length).toBeGreaterThanOrEqual(4);
    const story = c.story.beats.map((b) => `${b.text} ${JSON.stringify(b.frame)}`).join('\n');
    for (const name of quoted) expect(story).toContain(name);
    for (const p of c.first.frame.pods) expect(para).toContain(`\`${p.name}\` at \`${p.ip}\` on ${p.node}`);
    const seconds = /^(\d+) s later the probe had failed 3 times/.exec(beatNamed(/copied it into the slice/).text)![1];
    expect(para).toContain(`${seconds} seconds later its third failure`);
    expect(para).toContain('`ready: false`, `serving: false`, `terminating: false`');
  });
});

describe('proxy-pick', () => {
  const c = compiled['proxy-pick'];
  it('reads demo ids back into replica counts, and refuses others', () => {
    expect(parseScaleDemoId(scaleDemoId(5))).toBe(5);
    expect(parseScaleDemoId('scale:0')).toBeNull();
    expect(parseScaleDemoId('scale:7')).toBeNull();
    expect(parseScaleDemoId('readiness')).toBeNull();
  });
  it('opens on 1/3, 1/2 and the rest, as kube-proxy writes them for three endpoints', () => {
    expect(detail(c.first).picks.map((p) => p.probability)).toEqual(['0.3333333333', '0.5000000000', null]);
  });
  it("writes 1/n … 1/2 and a last rule without a match for the reader's replica count, each endpoint 1 in n", () => {
    for (const n of [1, 2, 5, 6]) {
      const host = live(proxyPickWidget);
      host.handle({ op: 'seek', step: c.story.opening! });
      const v = runDemoSteps(host, scaleDemoId(n));
      const picks = detail(v).picks;
      expect(picks.map((p) => p.probability)).toEqual([
        ...Array.from({ length: n - 1 }, (_, i) => (1 / (n - i)).toFixed(10)),
        null,
      ]);
      for (const p of picks) expect(p.share).toBeCloseTo(1 / n, 8);
      expect(new Set(picks.map((p) => p.endpoint)).size).toBe(n);
      expect(v.beat).toContain(
        n === 1 ? 'its one endpoint takes every new connection' : `each endpoint gets 1 in ${n} new connections`,
      );
    }
  });
  it("quotes in its chapter the probabilities of the story's scale to 4", () => {
    const end = live(proxyPickWidget).handle({ op: 'seek', step: c.story.end });
    const probs = detail(end).picks.map((p) => p.probability);
    expect(probs).toEqual(['0.2500000000', '0.3333333333', '0.5000000000', null]);
    expect(paragraphBefore('proxy-pick')).toContain(
      `Scaled to 4, node-1's rules match with probability ${probs
        .slice(0, 3)
        .map((p) => `\`${p}\``)
        .join(', ')
        .replace(/, (?=[^,]*$)/, ' and ')}, and the fourth rule takes what is left`,
    );
  });
});
