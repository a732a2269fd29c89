// The toleration-countdown widget: its story replays, opens where web runs six pods, steps back no
// further than that; after node-2's power is cut the taint-eviction controller schedules each of its
// pods' deletion 300 s after the NoExecute taint, "Next event" goes there in one press, and the
// replacements start elsewhere; the chapter's paragraph quotes the names and seconds it gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';
import { tolerationCountdownWidget, type CountdownDetail } from './toleration-countdown-widget.ts';

const c = compileFigure(tolerationCountdownWidget);
const live = (): FigureHost => new FigureHost(tolerationCountdownWidget, c.story);
const countdown = (v: { detail?: unknown }): CountdownDetail => (v.detail as { countdown: CountdownDetail }).countdown;
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const at = (step: number): FigureView => live().handle({ op: 'seek', step });
const chapter = readFileSync(new URL('../../../content/node-failure.mdx', import.meta.url), 'utf8');
const ON_NODE_2 = ['web-c68c68797-nzjqm', 'web-c68c68797-pjhzg'];

describe('the toleration-countdown widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 4);
    expectStoryReplays(tolerationCountdownWidget, c);
  });
  it('opens where web runs 6 pods, two on node-2, each tolerating unreachable:NoExecute for 300 s with no countdown yet', () => {
    expect(c.story.opening).toBe(c.story.beats[0].step);
    expect(c.first.step).toBe(c.story.opening);
    expect(c.first.beat).toMatch(/^web runs 6 pods of ReplicaSet web-c68c68797: /);
    const d = countdown(c.first);
    expect(d).toMatchObject({ node: 'node-2', powered: true, ready: 'True', taints: [] });
    expect(d.pods.map((p) => p.name)).toEqual(ON_NODE_2);
    for (const p of d.pods)
      expect(p).toMatchObject({ tolerationSeconds: 300, evictAt: null, remainingS: null, terminating: false });
  });
  itStepsAsAWidget(tolerationCountdownWidget, () => c, [1, 2, 3]);
  it('schedules each deletion 300 s after it handles the NoExecute taint, counts it down, and deletes both when it runs out', () => {
    const tainted = beatNamed(/is tainted node\.kubernetes\.io\/unreachable:NoExecute\. /);
    const d = countdown(at(tainted.step));
    expect(d).toMatchObject({ powered: false, ready: 'Unknown', taints: ['NoSchedule', 'NoExecute'] });
    for (const p of d.pods) {
      expect(p.evictAt! - p.scheduledAt!).toBe(300_000);
      expect(p.remainingS).toBe(300);
    }
    // Halfway through the wait, the countdown is the controller's: 150 s of simulated time later, 150 s left.
    const host = live();
    host.handle({ op: 'seek', step: tainted.step });
    const mid = countdown(host.handle({ op: 'advance', ms: 150_000 }));
    for (const p of mid.pods) expect(p).toMatchObject({ remainingS: 150, terminating: false });
    const evicted = beatNamed(/the 300 s are up/);
    const e = at(evicted.step);
    expect(e.frame.t - tainted.frame!.t).toBe(300_000);
    for (const p of countdown(e).pods) expect(p).toMatchObject({ terminating: true, remainingS: null });
  });
  it('"Next event" goes from the taint to the deletion in one press, over five quiet minutes', () => {
    const host = live();
    host.handle({ op: 'seek', step: beatNamed(/is tainted node\.kubernetes\.io\/unreachable:NoExecute\. /).step });
    const v = host.handle({ op: 'next' });
    expect(v.step).toBe(beatNamed(/the 300 s are up/).step);
    expect(v.skipped).toMatch(/^5 min later/);
  });
  it('replaces the deleted pods on node-1 and node-3, and the old ones stay Terminating', () => {
    const end = at(c.story.end);
    const fresh = end.frame.pods.filter((p) => !c.first.frame.pods.some((q) => q.name === p.name));
    expect(fresh.map((p) => `${p.name} ${p.node}`).sort()).toEqual([
      'web-c68c68797-lsm28 node-3',
      'web-c68c68797-rzs7n node-1',
    ]);
    expect(
      end.frame.pods
        .filter((p) => p.terminating)
        .map((p) => p.name)
        .sort(),
    ).toEqual(ON_NODE_2);
  });
  it('powers node-2 on again: Ready, untainted and empty', () => {
    const host = live();
    host.handle({ op: 'seek', step: c.story.end });
    let v = host.handle({ op: 'demo', demo: 'power' });
    for (let n = 0; v.demoRunning !== null; n++) {
      if (n > 20_000) throw new Error('node-2 never came back');
      v = host.handle({ op: 'step' })!;
    }
    expect(countdown(v)).toMatchObject({ powered: true, ready: 'True', taints: [], pods: [] });
  });
  it("is placed in its chapter beside a paragraph that quotes the simulation's names and seconds", () => {
    const para = chapter.slice(
      chapter.indexOf('Watch the bet being kept below.'),
      chapter.indexOf('<InlineWidget id="toleration-countdown" />'),
    );
    const tainted = beatNamed(/is tainted node\.kubernetes\.io\/unreachable:NoExecute\. /);
    const evicted = beatNamed(/the 300 s are up/);
    const cut = Number(/^(\d+) s after the power went/.exec(tainted.text)![1]);
    const renewedAgo = c.first.frame.nodes.find((n) => n.name === 'node-2')!.leaseAgeMs!;
    expect(para).toContain('`web-c68c68797-nzjqm` and `web-c68c68797-pjhzg`, on `node-2`');
    expect(para).toContain(
      `Cut the power: ${cut} seconds later (${Math.floor((cut * 1000 + renewedAgo) / 1000)} after the last Lease renewal)`,
    );
    expect(evicted.text).toMatch(/^342 s after the power went/);
    expect(para).toContain('to the deletion at 342 seconds');
    expect(para).toContain('`web-c68c68797-lsm28` on `node-3` and `web-c68c68797-rzs7n` on `node-1`');
  });
});
