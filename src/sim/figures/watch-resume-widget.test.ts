// The watch-resume widget: its story replays, opens where web runs, steps back no further than that;
// with node-1 cut off a pod is bound there unseen; once it is back, node-1's kubelet watches from the
// last revision it saw and is sent exactly the change it missed, nothing older. The chapter quotes it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget, runDemoSteps } from './replay-check.ts';
import { watchResumeWidget, type ResumeDetail } from './watch-resume-widget.ts';
import { contradictions } from '../testing/figure-texts.ts';

const c = compileFigure(watchResumeWidget);
const live = (): FigureHost => new FigureHost(watchResumeWidget, c.story);
const resume = (v: { detail?: unknown }): ResumeDetail => (v.detail as { resume: ResumeDetail }).resume;
const at = (step: number): FigureView => live().handle({ op: 'seek', step });
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const chapter = readFileSync(new URL('../../../content/control-plane.mdx', import.meta.url), 'utf8');

describe('the watch-resume widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 6);
    expectStoryReplays(watchResumeWidget, c);
  });
  it("opens where web runs 3 pods, node-1 connected, its kubelet's watch never resumed", () => {
    expect(c.story.opening).toBe(c.story.beats[0].step);
    expect(c.first.step).toBe(c.story.opening);
    expect(c.first.beat).toMatch(/^web runs 3 pods of ReplicaSet web-c68c68797: /);
    expect(resume(c.first)).toMatchObject({ cutOff: false, resumed: null, replayed: [] });
    expect(resume(c.first).lastSeen).toBeGreaterThan(0);
  });
  itStepsAsAWidget(watchResumeWidget, () => c, [1, 2, 3]);
  it('while node-1 is cut off, a pod bound to it reaches no watch of its kubelet', () => {
    const bound = beatNamed(/has heard of none of what changed there/);
    const d = resume(at(bound.step));
    expect(d).toMatchObject({ cutOff: true, lastSeen: resume(c.first).lastSeen, resumed: null });
    expect(bound.frame!.pods.filter((p) => p.node === 'node-1').map((p) => p.name)).toContain('web-c68c68797-ss969');
  });
  it('says a replayed pod is gone when the reader scaled web back while node-1 was cut off: it names no pod the stage lacks', () => {
    // figure-texts' property found it (seed -1188595912): the replay named a pod the frame no longer had.
    const host = live();
    const views = [host.handle({ op: 'seek', step: 124 })];
    for (const m of [
      { op: 'demo', demo: 'scale' },
      { op: 'demo', demo: 'link' },
      { op: 'advance', ms: 1140 },
      { op: 'demo', demo: 'setup' },
    ] as const)
      // A disabled demo cannot be pressed (setup, with web there): the page sends nothing.
      if (m.op !== 'demo' || host.view().demos.find((d) => d.id === m.demo)?.enabled) views.push(host.handle(m));
    const replay = views.find((v) => /replays from its history/.test(v.beat ?? ''));
    expect(replay?.beat).toMatch(/, though web-c68c68797-\w+ is gone from the API server by now\. /);
    for (const v of views) expect(contradictions(v)).toEqual([]);
  });
  it('on reconnecting, watches from the last revision it saw and is sent exactly the change since, nothing older', () => {
    const d = resume(at(beatNamed(/replays from its history exactly what changed since/).step));
    expect(d.resumed!.from).toBe(d.lastSeen);
    expect(d.replayed).toEqual([{ event: 'ADDED', pod: 'web-c68c68797-ss969', revision: d.replayed[0].revision }]);
    expect(d.replayed[0].revision).toBeGreaterThan(d.resumed!.from);
    const end = at(c.story.end);
    expect(end.frame.pods.find((p) => p.name === 'web-c68c68797-ss969')).toMatchObject({ node: 'node-1', ready: true });
  });
  it('connected all along, the kubelet never resumes: the scale reaches it live', () => {
    expect(resume(runDemoSteps(live(), 'scale'))).toMatchObject({ cutOff: false, resumed: null, replayed: [] });
  });
  it('quotes in its chapter the revisions and names the simulation gives', () => {
    const d = resume(at(c.story.end));
    const para = chapter.slice(
      chapter.indexOf('Below, node-1 is cut off'),
      chapter.indexOf('<InlineWidget id="watch-resume" />'),
    );
    expect(para).toContain(`its kubelet's pod watch has last delivered revision ${d.lastSeen}.`);
    expect(para).toContain(`\`${d.replayed[0].pod}\` is bound to node-1 at revision ${d.replayed[0].revision}, unseen`);
    expect(para).toContain(`watches again with \`resourceVersion=${d.resumed!.from}\``);
    expect(para).toContain(`\`ADDED ${d.replayed[0].pod}\` at revision ${d.replayed[0].revision}:`);
  });
});
