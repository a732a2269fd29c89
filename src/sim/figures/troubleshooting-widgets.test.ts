// The troubleshooting chapter's inline widget (image-backoff): its story replays, opens where web runs,
// steps back no further than that, shows the kubelet's pull back-off from its own entry and
// containerd's PullImage calls, and the paragraph beside it quotes the names and times it gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import { BAD_IMAGE, GOOD_IMAGE, imageBackoffWidget, type ImageBackoffDetail } from './image-backoff-widget.ts';
import type { FigureView } from './protocol.ts';
import { expectPressesNeverThrow, expectStepBackForward, expectStoryReplays, expectWellFormedStory } from './replay-check.ts';

const c = compileFigure(imageBackoffWidget);
const live = (): FigureHost => new FigureHost(imageBackoffWidget, c.story);
const at = (step: number): FigureView => live().handle({ op: 'seek', step })!;
const detail = (v: { detail?: unknown }): ImageBackoffDetail => v.detail as ImageBackoffDetail;
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const chapter = readFileSync(new URL('../../../content/troubleshooting.mdx', import.meta.url), 'utf8');

describe('the image-backoff widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 5);
    expectStoryReplays(imageBackoffWidget, c);
  });
  it('opens where web runs 3 pods of nginx:1.27, with no pull on its timeline yet', () => {
    expect(c.story.opening).toBe(c.story.beats[0].step);
    expect(c.first.step).toBe(c.story.opening);
    expect(c.first.beat).toMatch(/^web runs 3 pods of ReplicaSet web-c68c68797: /);
    expect(detail(c.first)).toEqual({ pulls: [], stuck: null });
  });
  it('steps back no further than its opening, and Reset returns there', () => {
    const host = live();
    expect(host.handle({ op: 'back' })!.step).toBe(c.story.opening);
    host.handle({ op: 'seek', step: c.story.end });
    expect(host.handle({ op: 'reset' })!.step).toBe(c.story.opening);
  });
  it('steps back then forward to identical views', () => {
    expectStepBackForward(imageBackoffWidget, c, [1, 2, 4]);
  });
  it('never throws on presses in any order', () => {
    expectPressesNeverThrow(imageBackoffWidget, live);
  });
  it('fails each pull with NotFound, and the kubelet\'s wait doubles from 10 s: 10, 20, then 40', () => {
    const err = at(beatNamed(/shows ErrImagePull/).step);
    const first = detail(err);
    expect(first.pulls).toEqual([expect.objectContaining({ image: BAD_IMAGE, ok: false })]);
    expect(first.stuck).toMatchObject({ status: 'ErrImagePull', backoff: { kind: 'pull', waitS: 10 } });
    const waiting = detail(at(beatNamed(/^STATUS ImagePullBackOff/).step));
    expect(waiting.stuck).toMatchObject({ status: 'ImagePullBackOff', backoff: { waitS: 20 } });
    const third = detail(at(beatNamed(/now 40 s, up to 300 s/).step));
    expect(third.pulls.filter((p) => !p.ok)).toHaveLength(3);
    expect(third.stuck!.backoff!.waitS).toBe(40);
    // Each pull waits at least the back-off before it (the kubelet pulls again at its next sync after that).
    const gaps = third.pulls.slice(1).map((p, i) => p.t - third.pulls[i].t);
    expect(gaps[0]).toBeGreaterThanOrEqual(10_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(20_000);
  });
  it('the fix makes a new pod that pulls the right tag at once and runs; the stuck pod is gone', () => {
    const end = at(c.story.end);
    const pulls = detail(end).pulls;
    expect(pulls[pulls.length - 1]).toMatchObject({ image: GOOD_IMAGE, ok: true });
    expect(detail(end).stuck).toBeNull();
    expect(end.frame.pods.some((p) => p.image === GOOD_IMAGE && p.ready)).toBe(true);
    expect(end.frame.pods.some((p) => p.image === BAD_IMAGE && !p.terminating)).toBe(false);
  });
  it('the action toggles: it breaks web at the opening and fixes it once web has the bad tag', () => {
    expect(c.first.demos.find((d) => d.id === 'image')!.label).toBe(`Upgrade to ${BAD_IMAGE}`);
    const broken = at(beatNamed(/now 40 s/).step);
    expect(broken.demos.find((d) => d.id === 'image')!.label).toBe(`Fix the tag (${GOOD_IMAGE})`);
  });
  it('quotes in its chapter the pod names and times the simulation gives', () => {
    const at0 = chapter.indexOf('<InlineWidget id="image-backoff" />');
    const para = chapter.slice(chapter.lastIndexOf('\n\n', chapter.lastIndexOf('<Figure ', at0) - 3), at0);
    const story = c.story.beats.map((b) => `${b.text} ${JSON.stringify(b.frame)}`).join('\n');
    const quoted = [...para.matchAll(/web-[a-z0-9]{9,10}-[a-z0-9]{5}/g)].map((m) => m[0]);
    expect(quoted).toHaveLength(2);
    for (const name of quoted) expect(story).toContain(name);
    const times = /Pulls failed at 0 s, (\d+) s, (\d+) s/.exec(beatNamed(/now 40 s/).text)!;
    expect(para).toContain(`the next pulls come ${times[1]} and ${times[2]} seconds after the first`);
    const after = /runs, (\d+) s after the fix/.exec(c.story.beats[c.story.beats.length - 1].text)![1];
    expect(para).toContain(`runs ${after} seconds later`);
    const stuck = /^The kubelet on (node-\d) asked containerd to pull .*: (\S+) shows ErrImagePull/.exec(beatNamed(/shows ErrImagePull/).text)!;
    expect(para).toContain(`\`${stuck[2]}\` on ${stuck[1]}`);
  });
});
