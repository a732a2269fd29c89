// The inline widgets (write-watch, replace-pod, max-surge, node-lease, frozen-endpoints, filter-score): each story replays, opens at its setup's
// end, steps back no further than that, and shows its mechanism with the names and numbers its
// chapter quotes (the paragraph beside each widget is read and checked against the simulation).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import { maxSurgeWidget, parseRolloutDemoId, rolloutDemoId } from './max-surge-widget.ts';
import { nodeLeaseWidget, type LeaseDetail } from './node-lease-widget.ts';
import { frozenEndpointsWidget, type FrozenDetail } from './frozen-endpoints-widget.ts';
import { filterScoreWidget, type FilterScoreDetail } from './filter-score-widget.ts';
import type { CompiledFigure, FigureView } from './protocol.ts';
import { replacePodWidget } from './replace-pod-widget.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget, runDemoSteps } from './replay-check.ts';
import { writeWatchWidget, type WriteFanOut } from './write-watch-widget.ts';
import type { FigureDef } from './demo.ts';

const WIDGETS: FigureDef[] = [
  writeWatchWidget,
  replacePodWidget,
  maxSurgeWidget,
  nodeLeaseWidget,
  frozenEndpointsWidget,
  filterScoreWidget,
];
const compiled: Record<string, CompiledFigure> = Object.fromEntries(WIDGETS.map((d) => [d.id, compileFigure(d)]));
const live = (def: FigureDef): FigureHost => new FigureHost(def, compiled[def.id].story);
const chapter = (slug: string): string =>
  readFileSync(new URL(`../../../content/${slug}.mdx`, import.meta.url), 'utf8');
/** The story's words and the frames at its beats, as one text to find quoted names and numbers in. */
const storyText = (c: CompiledFigure): string =>
  c.story.beats.map((b) => `${b.text} ${JSON.stringify(b.frame)}`).join('\n');

describe.each(WIDGETS.map((d) => [d.id, d] as const))('the %s widget', (_id, def) => {
  const c = () => compiled[def.id];
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c(), 3);
    expectStoryReplays(def, c());
  });
  it('opens where its setup ends (web running, or api placed), not at the empty cluster', () => {
    const first = c().first;
    expect(c().story.opening).toBe(c().story.beats[0].step);
    expect(first.step).toBe(c().story.opening);
    expect(first.beat).toMatch(
      def.id === 'filter-score'
        ? /^api-559fb7b69c-\w{5} is bound to node-3\. /
        : /^web runs \d+ pods of ReplicaSet web-c68c68797: /,
    );
    expect(first.frame.pods.length).toBeGreaterThan(0);
  });
  itStepsAsAWidget(def, c);
});

describe('write-watch', () => {
  const c = compiled['write-watch'];
  const at = (step: number): FigureView => live(writeWatchWidget).handle({ op: 'seek', step });
  it("stores kubectl's scale at the next revision and tells the controller-manager, then lists the writes it set off", () => {
    const end = at(c.story.end);
    const writes = end.detail!.writes as unknown as WriteFanOut[];
    expect(writes[0]).toMatchObject({ component: 'kubectl', verb: 'PATCH', object: 'deployments/default/web' });
    expect(writes[0].notified.map((n) => n.component)).toContain('kube-controller-manager');
    expect(writes[1]).toMatchObject({
      component: 'deployment-controller',
      object: 'replicasets/default/web-c68c68797',
    });
    expect(writes[1].notified.map((n) => n.component).sort()).toEqual(['kube-controller-manager', 'scheduler']);
    const revs = writes.map((w) => w.revision);
    expect(revs).toEqual([...revs].sort((a, b) => a - b));
    expect(new Set(revs).size).toBe(revs.length);
  });
  it('quotes in its chapter the revisions the simulation gives', () => {
    const writes = at(c.story.end).detail!.writes as unknown as WriteFanOut[];
    const text = chapter('control-plane');
    expect(text).toContain(`etcd stores at revision ${writes[0].revision};`);
    expect(text).toContain(`writes the ReplicaSet at revision ${writes[1].revision},`);
    expect(text).toContain(`<InlineWidget id="write-watch" />`);
  });
});

describe('replace-pod', () => {
  const c = compiled['replace-pod'];
  it('replaces the deleted pod under a new name, and the old one is gone', () => {
    const end = live(replacePodWidget).handle({ op: 'seek', step: c.story.end });
    const names = end.frame.pods.map((p) => p.name);
    expect(names).not.toContain('web-c68c68797-nzjqm');
    expect(names).toContain('web-c68c68797-lkdzk');
    expect(end.frame.pods.filter((p) => p.ready)).toHaveLength(3);
  });
  it('quotes in its chapter the pod names the simulation makes', () => {
    const text = chapter('reconcile-loop');
    const para = text.slice(
      text.indexOf('Here is the loop at work'),
      text.indexOf('<InlineWidget id="replace-pod" />'),
    );
    const quoted = [...para.matchAll(/web-c68c68797-[a-z0-9]{5}/g)].map((m) => m[0]);
    expect(quoted.length).toBeGreaterThanOrEqual(4);
    for (const name of quoted) expect(storyText(c)).toContain(name);
  });
});

describe('max-surge', () => {
  const c = compiled['max-surge'];
  type Arithmetic = {
    surge: number;
    unavailable: number;
    repaired: boolean;
    mostPods: number;
    fewestAvailable: number;
    firstNew: number;
    firstOld: number;
  };
  const arithmetic = (v: FigureView): Arithmetic => v.detail!.arithmetic as unknown as Arithmetic;
  it("reads demo ids back into the reader's numbers, and refuses others", () => {
    expect(parseRolloutDemoId(rolloutDemoId({ replicas: 4, maxSurge: '25%', maxUnavailable: 1 }))).toEqual({
      replicas: 4,
      maxSurge: '25%',
      maxUnavailable: 1,
    });
    expect(parseRolloutDemoId('rollout:11:1:1')).toBeNull();
    expect(parseRolloutDemoId('rollout:3:7%:1')).toBeNull();
    expect(parseRolloutDemoId('delete-pod')).toBeNull();
  });
  it('resolves the defaults on 3 replicas as the chapter says: surge 1 up, unavailable 0 down, first step one new pod', () => {
    const a = arithmetic(c.first);
    expect(a).toMatchObject({
      surge: 1,
      unavailable: 0,
      mostPods: 4,
      fewestAvailable: 3,
      firstNew: 1,
      firstOld: 3,
      repaired: false,
    });
    const text = chapter('rolling-updates');
    expect(storyText(c)).toContain('web-c47498c66');
    expect(text).toContain(
      'the first step adds one pod of the new ReplicaSet `web-c47498c66` and removes none: 4 pods, 3 of them ready.',
    );
    expect(
      c.story.beats.some((b) =>
        b.text.includes('new ReplicaSet web-c47498c66 scaled up to 1. 4 pods exist, 3 of them ready.'),
      ),
    ).toBe(true);
  });
  it("runs a real rollout on the reader's numbers: 5 replicas, maxSurge 0, maxUnavailable 20%-like 25% rounds to 1", () => {
    const host = live(maxSurgeWidget);
    host.handle({ op: 'seek', step: c.story.end });
    let v = host.handle({ op: 'demo', demo: rolloutDemoId({ replicas: 5, maxSurge: '0', maxUnavailable: '25%' }) });
    expect(arithmetic(v)).toMatchObject({
      surge: 0,
      unavailable: 1,
      mostPods: 5,
      fewestAvailable: 4,
      firstNew: 0,
      firstOld: 4,
    });
    let most = 0;
    for (let n = 0; v.demoRunning !== null; n++) {
      if (n > 20_000) throw new Error('the rollout never finished');
      v = host.handle({ op: 'step' })!;
      const web = v.frame.deployments.find((d) => d.name === 'web')!;
      most = Math.max(
        most,
        web.replicaSets.reduce((s, rs) => s + rs.replicas, 0),
      );
    }
    expect(most).toBeLessThanOrEqual(5);
    expect(v.beat).toMatch(/^Rollout complete: 5 pods run nginx:1\.27/);
  });
  it('is refused by validation when both limits are 0, and the repair applies when they round to 0', () => {
    const host = live(maxSurgeWidget);
    host.handle({ op: 'seek', step: c.story.end });
    const refused = host.handle({
      op: 'demo',
      demo: rolloutDemoId({ replicas: 3, maxSurge: '0', maxUnavailable: '0' }),
    });
    expect(refused.beat).toMatch(/validation refuses it/);
    expect(arithmetic(refused)).toMatchObject({ surge: 1, unavailable: 0 });
    const repaired = host.handle({
      op: 'demo',
      demo: rolloutDemoId({ replicas: 3, maxSurge: '0', maxUnavailable: '25%' }),
    });
    expect(arithmetic(repaired)).toMatchObject({ surge: 0, unavailable: 1, repaired: true });
  });
});

describe('node-lease', () => {
  const c = compiled['node-lease'];
  const lease = (v: FigureView): LeaseDetail => v.detail!.lease as unknown as LeaseDetail;
  const beatAt = (re: RegExp) => {
    const b = c.story.beats.find((x) => re.test(x.text))!;
    return { ...b, frame: b.frame! };
  };
  it("renews node-2's Lease every 10 s while the machine runs: its renewTime never gets 10 s old", () => {
    expect(lease(c.first)).toMatchObject({
      node: 'node-2',
      holderIdentity: 'node-2',
      leaseDurationSeconds: 40,
      renewEveryS: 10,
      graceS: 50,
      ready: 'True',
      taints: [],
      expired: false,
    });
    // A host that follows no story: the reader's own setup, then the cluster left alone for 30 s.
    const host = new FigureHost(nodeLeaseWidget, { ...c.story, beats: [], opening: undefined });
    runDemoSteps(host, 'setup');
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const v = host.handle({ op: 'advance', ms: 5_000 });
      expect(lease(v).ageS).toBeLessThan(10);
      seen.add(lease(v).renewTime!);
    }
    expect(seen.size).toBeGreaterThanOrEqual(3);
  });
  it('after the power is cut, sets Ready Unknown 50–55 s after the last renewal, then adds both unreachable taints', () => {
    const cut = beatAt(/loses power/);
    const unknown = beatAt(/Ready condition to Unknown/);
    const tainted = beatAt(/now carries/);
    const renewed = cut.frame.t - cut.frame.nodes.find((n) => n.name === 'node-2')!.leaseAgeMs!;
    const after = (unknown.frame.t - renewed) / 1000;
    expect(after).toBeGreaterThan(50);
    expect(after).toBeLessThanOrEqual(55);
    expect(unknown.text).toContain(`${after.toFixed(1)} s after the last renewal`);
    const n = tainted.frame.nodes.find((x) => x.name === 'node-2')!;
    expect(n.ready).toBe('Unknown');
    expect(
      n.taints
        .filter((t) => t.key === 'node.kubernetes.io/unreachable')
        .map((t) => t.effect)
        .sort(),
    ).toEqual(['NoExecute', 'NoSchedule']);
    // The pod web runs there is marked not ready, as the caption says.
    const pod = unknown.frame.pods.find((p) => p.node === 'node-2')!;
    expect(pod.ready).toBe(false);
    expect(unknown.text).toContain(pod.name);
    const end = lease(live(nodeLeaseWidget).handle({ op: 'seek', step: c.story.end }));
    expect(end).toMatchObject({ powered: false, ready: 'Unknown', taints: ['NoSchedule', 'NoExecute'], expired: true });
    expect(lease(live(nodeLeaseWidget).handle({ op: 'seek', step: cut.step })).expired).toBe(false);
  });
  it('powers node-2 on again: Ready True and the taints lifted', () => {
    const host = live(nodeLeaseWidget);
    host.handle({ op: 'seek', step: c.story.end });
    expect(host.view().demos.find((d) => d.id === 'power')!.label).toBe('Power node-2 on');
    const v = runDemoSteps(host, 'power');
    expect(lease(v)).toMatchObject({ powered: true, ready: 'True', taints: [] });
    expect(lease(v).ageS!).toBeLessThan(10);
  });
  it("is placed in its chapter beside a paragraph that quotes the simulation's numbers", () => {
    const text = chapter('node-failure');
    const para = text.slice(
      text.indexOf('Try it on `node-2` below.'),
      text.indexOf('<InlineWidget id="node-lease" />'),
    );
    expect(para).toContain('the renewal due 10 seconds later never comes');
    expect(para).toContain('50 seconds after that last `renewTime`, it sets `Ready` to `Unknown`');
    expect(para).toContain('`node.kubernetes.io/unreachable`');
    expect(lease(c.first)).toMatchObject({ renewEveryS: 10, graceS: 50 });
  });
});

describe('frozen-endpoints', () => {
  const c = compiled['frozen-endpoints'];
  const frozen = (v: FigureView): FrozenDetail => v.detail!.frozen as unknown as FrozenDetail;
  const at = (step: number): FrozenDetail => frozen(live(frozenEndpointsWidget).handle({ op: 'seek', step }));
  const beatAt = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
  it("opens with web's 3 endpoints in etcd's slice and in node-1's rules, the client answered, kube-proxy watching", () => {
    const d = frozen(c.first);
    expect(d).toMatchObject({ controlPlane: true, watching: true });
    expect(d.endpoints).toHaveLength(3);
    expect(d.endpoints.every((e) => e.inSlice && e.inRules)).toBe(true);
    expect(d.latest[d.latest.length - 1].ok).toBe(true);
  });
  it('answers every request through the frozen rules while the control plane is down, from all three pods', () => {
    const before = frozen(c.first);
    const outage = beatAt(/into the outage/);
    const d = at(outage.step);
    expect(d).toMatchObject({ controlPlane: false, watching: false, syncedAt: before.syncedAt, failed: before.failed });
    expect(d.endpoints).toEqual(before.endpoints);
    expect(d.ok - before.ok).toBeGreaterThanOrEqual(20);
    const pods = new Set(d.latest.map((r) => r.pod));
    expect([...pods].sort()).toEqual(before.endpoints.map((e) => e.pod).sort());
    expect(outage.text).toMatch(
      /the client has had \d+ requests answered and none failed, from web-c68c68797-\w{5}, web-c68c68797-\w{5} and web-c68c68797-\w{5}, through node-1's rules as kube-proxy synced them \d+ s before the outage\.$/,
    );
  });
  it('after the restart kube-proxy watches again and rewrites nothing; no request failed', () => {
    const back = beatAt(/after the restart/);
    const d = at(back.step);
    expect(d).toMatchObject({
      controlPlane: true,
      watching: true,
      syncedAt: frozen(c.first).syncedAt,
      failed: frozen(c.first).failed,
    });
    expect(back.text).toContain('nothing changed, so it has no rule to rewrite');
  });
  it('is placed in its chapter beside a paragraph that says what the simulation shows', () => {
    const text = chapter('control-plane-outage');
    const para = text.slice(
      text.indexOf('Below, a client on `node-1`'),
      text.indexOf('<InlineWidget id="frozen-endpoints" />'),
    );
    expect(para).toContain('answered by the same three pods');
    expect(para).toContain('finds nothing new, and has no rule to rewrite');
    expect(frozen(c.first).endpoints).toHaveLength(3);
  });
});

describe('filter-score', () => {
  const c = compiled['filter-score'];
  const arithmetic = (v: { detail?: unknown }): FilterScoreDetail =>
    (v.detail as { arithmetic: FilterScoreDetail }).arithmetic;
  const row = (a: FilterScoreDetail, node: string) => a.nodes.find((n) => n.node === node)!;
  const resource = (a: FilterScoreDetail, node: string) => row(a, node).scores.map((s) => s.weighted);
  it("runs the chapter's worked example: 38 + 72, 39 + 78, 53 + 72, the others alike, node-3 chosen", () => {
    const a = arithmetic(c.first);
    expect(a).toMatchObject({ pod: 'api-559fb7b69c-pjhzg', cpu: '1000m', memory: '1Gi', chosen: 'node-3' });
    expect(a.nodes.every((n) => n.passed)).toBe(true);
    expect(resource(a, 'node-1')).toEqual([38, 72]);
    expect(resource(a, 'node-2')).toEqual([39, 78]);
    expect(resource(a, 'node-3')).toEqual([53, 72]);
    expect(new Set(a.nodes.map((n) => n.others))).toEqual(new Set([500]));
    for (const n of a.nodes) expect(n.total).toBe(n.others + n.scores.reduce((s, x) => s + x.weighted, 0));
    expect(a.nodes.every((n) => n.scores.every((s) => s.weight === 1))).toBe(true);
  });
  it('with node-3 cordoned the replacement is filtered off it by NodeUnschedulable and lands on node-2 with 117', () => {
    const beat = c.story.beats.find((b) => /filtered out by NodeUnschedulable/.test(b.text))!;
    const a = arithmetic(live(filterScoreWidget).handle({ op: 'seek', step: beat.step }));
    expect(a.chosen).toBe('node-2');
    expect(row(a, 'node-3')).toMatchObject({ passed: false, filter: 'NodeUnschedulable' });
    expect(resource(a, 'node-2')).toEqual([39, 78]);
    expect(beat.text).toContain('node-1 38 + 72 = 110 and node-2 39 + 78 = 117');
  });
  it('quotes in its chapter the names and scores the simulation gives', () => {
    const text = chapter('scheduler');
    const para = text.slice(
      text.indexOf('The same scene runs below'),
      text.indexOf('<InlineWidget id="filter-score" />'),
    );
    const a = arithmetic(c.first);
    for (const node of ['node-1', 'node-2', 'node-3']) {
      const [fit, bal] = resource(a, node);
      expect(para).toContain(`${fit} + ${bal} = ${fit + bal} for \`${node}\``);
      expect(text).toContain(`${node}  cpu`);
    }
    expect(para).toContain(`add the same ${row(a, 'node-1').others} to every node`);
    expect(text).toContain(`default/${a.pod} to node-3`);
    expect(text).toContain('53 + 72 = 125 for node-3');
  });
});
