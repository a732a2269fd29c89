// The level-triggered widget: its story replays, opens where web runs, steps back no further than
// that; with kube-controller-manager stopped two pods are deleted and none of the writes reach it;
// when it starts again its pod watch lists what exists (one pod, then a BOOKMARK, no DELETED), and the
// ReplicaSet controller creates both replacements in one sync. The chapter's paragraph quotes it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import { levelTriggeredWidget, type LevelDetail } from './level-triggered-widget.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget, runDemoSteps } from './replay-check.ts';

const c = compileFigure(levelTriggeredWidget);
const live = (): FigureHost => new FigureHost(levelTriggeredWidget, c.story);
const level = (v: { detail?: unknown }): LevelDetail => (v.detail as { level: LevelDetail }).level;
const at = (step: number): FigureView => live().handle({ op: 'seek', step });
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const chapter = readFileSync(new URL('../../../content/reconcile-loop.mdx', import.meta.url), 'utf8');

describe('the level-triggered widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 6);
    expectStoryReplays(levelTriggeredWidget, c);
  });
  it('opens where web runs 3 pods, the controller-manager running and nothing missed', () => {
    expect(c.story.opening).toBe(c.story.beats[0].step);
    expect(c.first.step).toBe(c.story.opening);
    expect(c.first.beat).toMatch(/^web runs 3 pods of ReplicaSet web-c68c68797: /);
    expect(level(c.first)).toEqual({ controllerManager: true, missed: [], relist: null, sync: null });
  });
  itStepsAsAWidget(levelTriggeredWidget, () => c, [1, 2, 3]);
  it("while it is stopped, every write that removes the two pods is missed: kubectl's DELETEs and the kubelets' final ones", () => {
    const gone = beatNamed(/remove both pods from the API server/);
    const d = level(at(gone.step));
    expect(d.controllerManager).toBe(false);
    const deletes = d.missed
      .filter((x) => x.verb === 'DELETE')
      .map((x) => `${x.component} ${x.pod}`)
      .sort();
    expect(deletes).toEqual([
      'kubectl web-c68c68797-nzjqm',
      'kubectl web-c68c68797-pjhzg',
      'kubelet/node-2 web-c68c68797-nzjqm',
      'kubelet/node-3 web-c68c68797-pjhzg',
    ]);
    expect(gone.frame!.pods.map((p) => p.name)).toEqual(['web-c68c68797-vc5xc']);
    // Started again but not yet leading: still nothing heard, nothing listed.
    const started = level(at(gone.step + 1));
    expect(started).toMatchObject({ controllerManager: true, relist: null, sync: null });
    expect(started.missed).toEqual(d.missed);
  });
  it('relists what exists (one pod, then a BOOKMARK), replays no DELETED, and fixes both in one sync', () => {
    const listed = level(at(beatNamed(/its informers list what exists/).step));
    expect(listed.relist).toMatchObject({ pods: ['web-c68c68797-vc5xc'] });
    expect(listed.relist!.bookmark).toBeGreaterThan(Math.max(...listed.missed.map((x) => x.revision)));
    const end = at(c.story.end);
    const d = level(end);
    expect(d.sync).toMatchObject({ active: 1, created: ['web-c68c68797-lkdzk', 'web-c68c68797-ss969'] });
    // The missed writes stay missed: the relist did not deliver them after the fact.
    expect(d.missed).toEqual(listed.missed);
    expect(
      end.frame.pods
        .filter((p) => p.ready)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['web-c68c68797-lkdzk', 'web-c68c68797-ss969', 'web-c68c68797-vc5xc']);
  });
  it('with the controller-manager running, a deletion is heard at once and nothing is missed', () => {
    const d = level(runDemoSteps(live(), 'delete-pods'));
    expect(d).toMatchObject({ controllerManager: true, missed: [], relist: null, sync: null });
  });
  it('quotes in its chapter the names, revisions and counts the simulation gives', () => {
    const d = level(at(c.story.end));
    const revs = d.missed.map((x) => x.revision);
    const para = chapter.slice(
      chapter.indexOf('Because the loop reads state'),
      chapter.indexOf('<InlineWidget id="level-triggered" />'),
    );
    expect(para).toContain(
      `the ${d.missed.length} writes that remove them (revisions ${Math.min(...revs)} to ${Math.max(...revs)})`,
    );
    expect(para).toContain(`\`${d.relist!.pods[0]}\`, then a BOOKMARK at revision ${d.relist!.bookmark} `);
    expect(para).toContain(`creates \`${d.sync!.created[0]}\` and \`${d.sync!.created[1]}\``);
    expect(para).toContain('delete `web-c68c68797-nzjqm` and `web-c68c68797-pjhzg`');
  });
});
