// The kubelet-alone widget: its story replays, opens where web runs, steps back no further than that;
// with the control plane stopped node-1's kubelet restarts a crashed container by itself (at once, then
// after its 10 s back-off) while the API server keeps restartCount 0 and every status sync is refused;
// once the control plane is back the kubelet's status write lands. The chapter's paragraph quotes it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import { kubeletAloneWidget, type KubeletAloneDetail } from './kubelet-alone-widget.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget, runDemoSteps } from './replay-check.ts';

const c = compileFigure(kubeletAloneWidget);
const live = (): FigureHost => new FigureHost(kubeletAloneWidget, c.story);
const alone = (v: { detail?: unknown }): KubeletAloneDetail => (v.detail as { alone: KubeletAloneDetail }).alone;
const at = (step: number): FigureView => live().handle({ op: 'seek', step });
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const chapter = readFileSync(new URL('../../../content/control-plane-outage.mdx', import.meta.url), 'utf8');

describe('the kubelet-alone widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 5);
    expectStoryReplays(kubeletAloneWidget, c);
  });
  it('opens where web runs 3 pods, web-c68c68797-vc5xc on node-1 with no restart, its status written', () => {
    expect(c.story.opening).toBe(c.story.beats[0].step);
    expect(c.first.step).toBe(c.story.opening);
    expect(c.first.beat).toMatch(/^web runs 3 pods of ReplicaSet web-c68c68797: /);
    expect(alone(c.first)).toMatchObject({
      controlPlane: true,
      pod: 'web-c68c68797-vc5xc',
      kubeletRestarts: 0,
      apiRestarts: 0,
      container: 'running',
      refused: 0,
    });
    expect(alone(c.first).landed).not.toBeNull();
  });
  itStepsAsAWidget(kubeletAloneWidget, () => c, [1, 2, 4]);
  it('with the control plane stopped, restarts the container at once, then after a 10 s back-off, while the API server keeps 0', () => {
    const first = alone(at(beatNamed(/started it again at once/).step));
    expect(first).toMatchObject({ controlPlane: false, kubeletRestarts: 1, apiRestarts: 0 });
    expect(first.refused).toBeGreaterThanOrEqual(1);
    const waiting = beatNamed(/waits \d+ s before the next start/);
    expect(waiting.text).toContain('waits 10 s before the next start (CrashLoopBackOff)');
    expect(alone(at(waiting.step))).toMatchObject({ backoffLeftS: 10, apiRestarts: 0, apiState: 'Running' });
    const up = beatNamed(/a third time/);
    const d = alone(at(up.step));
    expect(d).toMatchObject({ controlPlane: false, kubeletRestarts: 2, apiRestarts: 0, container: 'running' });
    expect(up.frame!.t - waiting.frame!.t).toBeGreaterThanOrEqual(9_000);
    // No status write landed during the outage: the last one is from before it.
    expect(d.landed).toEqual(alone(c.first).landed);
    expect(d.refused).toBeGreaterThan(first.refused);
  });
  it("after the restart the kubelet's status update lands with restartCount 2, and the count stays", () => {
    const end = at(c.story.end);
    const d = alone(end);
    expect(d).toMatchObject({ controlPlane: true, kubeletRestarts: 2, apiRestarts: 2, container: 'running' });
    expect(d.landed!.t).toBeGreaterThan(beatNamed(/a third time/).frame!.t);
    expect(end.frame.pods.find((p) => p.name === 'web-c68c68797-vc5xc')).toMatchObject({ restarts: 2, ready: true });
    expect(c.story.beats[c.story.beats.length - 1].text).toMatch(
      /^1 s after the restart the kubelet's status update lands: the API server now has restartCount 2 for web-c68c68797-vc5xc/,
    );
  });
  it('with the control plane running, a crash is reported at once: nothing is refused', () => {
    const host = live();
    expect(alone(runDemoSteps(host, 'crash'))).toMatchObject({ controlPlane: true, kubeletRestarts: 2, refused: 0 });
    // The status manager writes within its next sync, a second or so behind the kubelet.
    expect(alone(host.handle({ op: 'advance', ms: 3_000 }))).toMatchObject({ apiRestarts: 2, refused: 0 });
  });
  it("is placed in its chapter beside a paragraph that quotes the simulation's names and numbers", () => {
    const para = chapter.slice(
      chapter.indexOf('Try it below on `node-1`.'),
      chapter.indexOf('<InlineWidget id="kubelet-alone" />'),
    );
    expect(para).toContain('crash the nginx container of `web-c68c68797-vc5xc`');
    expect(para).toContain('waits out a 10-second back-off before the third start');
    expect(para).toContain('The kubelet counts restartCount 2 by itself, while the API server still holds 0');
    expect(para).toContain("a second later the kubelet's status update lands: restartCount 2.");
    expect(alone(at(beatNamed(/a third time/).step))).toMatchObject({ kubeletRestarts: 2, apiRestarts: 0 });
  });
});
