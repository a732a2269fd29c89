// The troubleshooting chapter's inline widgets (image-backoff, crash-loop): each story replays, opens
// where web runs, steps back no further than that, shows the kubelet's back-off from its own entry and
// containerd's calls, and the paragraph beside each quotes the names and times it gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { crashLoopWidget, type CrashLoopDetail } from './crash-loop-widget.ts';
import { FigureHost } from './host.ts';
import { BAD_IMAGE, GOOD_IMAGE, imageBackoffWidget, type ImageBackoffDetail } from './image-backoff-widget.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';

const c = compileFigure(imageBackoffWidget);
const live = (): FigureHost => new FigureHost(imageBackoffWidget, c.story);
const at = (step: number): FigureView => live().handle({ op: 'seek', step });
const detail = (v: { detail?: unknown }): ImageBackoffDetail => v.detail as ImageBackoffDetail;
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const chapter = readFileSync(new URL('../../../content/troubleshooting.mdx', import.meta.url), 'utf8');
/** The chapter's paragraph just above a widget. */
function paragraphBefore(id: string): string {
  const at0 = chapter.indexOf(`<InlineWidget id="${id}" />`);
  return chapter.slice(chapter.lastIndexOf('\n\n', chapter.lastIndexOf('<Figure ', at0) - 3), at0);
}

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
  itStepsAsAWidget(imageBackoffWidget, () => c, [1, 2, 4]);
  it("fails each pull with NotFound, and the kubelet's wait doubles from 10 s: 10, 20, then 40", () => {
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
    const para = paragraphBefore('image-backoff');
    const story = c.story.beats.map((b) => `${b.text} ${JSON.stringify(b.frame)}`).join('\n');
    const quoted = [...para.matchAll(/web-[a-z0-9]{9,10}-[a-z0-9]{5}/g)].map((m) => m[0]);
    expect(quoted).toHaveLength(2);
    for (const name of quoted) expect(story).toContain(name);
    const times = /Pulls failed at 0 s, (\d+) s, (\d+) s/.exec(beatNamed(/now 40 s/).text)!;
    expect(para).toContain(`the next pulls come ${times[1]} and ${times[2]} seconds after the first`);
    const after = /runs, (\d+) s after the fix/.exec(c.story.beats[c.story.beats.length - 1].text)![1];
    expect(para).toContain(`runs ${after} seconds later`);
    const stuck = /^The kubelet on (node-\d) asked containerd to pull .*: (\S+) shows ErrImagePull/.exec(
      beatNamed(/shows ErrImagePull/).text,
    )!;
    expect(para).toContain(`\`${stuck[2]}\` on ${stuck[1]}`);
  });
});

describe('the crash-loop widget', () => {
  const k = compileFigure(crashLoopWidget);
  const host = (): FigureHost => new FigureHost(crashLoopWidget, k.story);
  const kAt = (step: number): FigureView => host().handle({ op: 'seek', step });
  const kBeat = (re: RegExp) => k.story.beats.find((b) => re.test(b.text))!;
  const cd = (v: { detail?: unknown }): CrashLoopDetail => v.detail as CrashLoopDetail;
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(k, 5);
    expectStoryReplays(crashLoopWidget, k);
  });
  it('opens where web runs 3 pods, none restarted', () => {
    expect(k.first.step).toBe(k.story.opening);
    expect(k.first.beat).toMatch(/^web runs 3 pods of ReplicaSet web-c68c68797: /);
    expect(cd(k.first).looping).toBeNull();
    expect(cd(k.first).pods.map((p) => p.restartCount)).toEqual([0, 0, 0]);
  });
  itStepsAsAWidget(crashLoopWidget, () => k, [1, 3]);
  it("restarts at once the first time, then waits 10, 20, 40 s: the kubelet's entry and the starts agree", () => {
    const first = cd(kAt(kBeat(/started it again at once/).step));
    expect(first.pods.find((p) => p.name === first.looping)).toMatchObject({
      restartCount: 1,
      last: { reason: 'Error', exitCode: 1 },
    });
    const loop = cd(kAt(kBeat(/now 40 s, up to 300 s/).step));
    const p = loop.pods.find((x) => x.name === loop.looping)!;
    expect(p).toMatchObject({ reason: 'CrashLoopBackOff', restartCount: 3, backoff: { kind: 'restart', waitS: 40 } });
    const restarts = loop.starts.slice(1);
    const gaps = restarts.slice(1).map((t, i) => t - restarts[i]);
    // Each gap is the 1 s run, then the wait (10 s, then 20 s), plus the kubelet's sync after it ends.
    expect(gaps[0]).toBeGreaterThanOrEqual(11_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(21_000);
    expect(gaps[1]).toBeLessThan(2 * gaps[0] + 2_000);
  });
  it('the fix is noticed only when the wait is over; the restart count stays', () => {
    const fixAt = kBeat(/^The configuration is fixed/);
    const end = kAt(k.story.end);
    const p = cd(end).pods.find((x) => x.name === 'web-c68c68797-vc5xc')!;
    expect(p).toMatchObject({ ready: true, state: 'Running', restartCount: 4 });
    expect(end.frame.t - fixAt.t).toBeGreaterThanOrEqual(39_000);
  });
  it('the action toggles: it crashes a container at the opening and fixes it while it loops', () => {
    expect(k.first.demos.find((d) => d.id === 'crash')!.label).toBe('Crash a container');
    expect(kAt(kBeat(/now 40 s/).step).demos.find((d) => d.id === 'crash')!.label).toBe('Fix the configuration');
  });
  it('quotes in its chapter the pod, the gaps, the wait and the restart count the simulation gives', () => {
    const para = paragraphBefore('crash-loop');
    const loop = kBeat(/now 40 s, up to 300 s/).text;
    const gaps = /the restarts (\d+) s, (\d+) s apart/.exec(loop)!;
    expect(para).toContain(`the next ones follow ${gaps[1]} and ${gaps[2]} seconds apart`);
    const end = /^(\S+) started (\d+) s after the fix, .* RESTARTS (\d+)\./.exec(
      k.story.beats[k.story.beats.length - 1].text,
    )!;
    expect(para).toContain(`\`${end[1]}\` on node-1`);
    expect(para).toContain(`it starts ${end[2]} seconds after the fix, with ${end[3]} restarts counted`);
    expect(kAt(k.story.opening!).frame.pods.find((p) => p.name === end[1])!.node).toBe('node-1');
  });
});
