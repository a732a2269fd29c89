// The rollout-undo widget: its story replays, opens once web has rolled to nginx:1.28, steps back no
// further than that, and `kubectl rollout undo` scales the kept ReplicaSet back up under the next
// revision within the Deployment's limits; the chapter's paragraph quotes the names and numbers it gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget, runDemoSteps } from './replay-check.ts';
import { rolloutUndoWidget, type UndoDetail } from './rollout-undo-widget.ts';

const c = compileFigure(rolloutUndoWidget);
const live = (): FigureHost => new FigureHost(rolloutUndoWidget, c.story);
const undo = (v: { detail?: unknown }): UndoDetail => (v.detail as { undo: UndoDetail }).undo;
const rs = (d: UndoDetail, name: string) => d.replicaSets.find((x) => x.name === name)!;
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const chapter = readFileSync(new URL('../../../content/rolling-updates.mdx', import.meta.url), 'utf8');

describe('the rollout-undo widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 3);
    expectStoryReplays(rolloutUndoWidget, c);
  });
  it('opens once web has rolled to nginx:1.28: web-c47498c66 at revision 2 runs 3 pods, web-c68c68797 kept at 0 as revision 1', () => {
    expect(c.story.opening).toBe(c.story.beats[0].step);
    expect(c.first.step).toBe(c.story.opening);
    expect(c.first.beat).toMatch(/^web runs 3 pods of nginx:1\.28 from ReplicaSet web-c47498c66 \(revision 2\)/);
    const d = undo(c.first);
    expect(d).toMatchObject({ deploymentRevision: 2, image: 'nginx:1.28' });
    expect(d.replicaSets).toEqual([
      { name: 'web-c47498c66', image: 'nginx:1.28', replicas: 3, ready: 3, revision: 2, history: null },
      { name: 'web-c68c68797', image: 'nginx:1.27', replicas: 0, ready: 0, revision: 1, history: null },
    ]);
  });
  itStepsAsAWidget(rolloutUndoWidget, () => c);
  it('scales web-c68c68797 back up as revision 3 (1 in its revision-history) and web-c47498c66 down, never past 4 pods or under 3 ready', () => {
    const host = live();
    let most = 0;
    let fewest = Infinity;
    const end = runDemoSteps(host, 'undo', (v: FigureView) => {
      const web = v.frame.deployments.find((x) => x.name === 'web')!;
      most = Math.max(
        most,
        web.replicaSets.reduce((s, x) => s + x.replicas, 0),
      );
      fewest = Math.min(
        fewest,
        web.replicaSets.reduce((s, x) => s + x.readyReplicas, 0),
      );
    });
    expect(most).toBe(4);
    expect(fewest).toBeGreaterThanOrEqual(3);
    const d = undo(end);
    expect(d).toMatchObject({ deploymentRevision: 3, image: 'nginx:1.27' });
    expect(rs(d, 'web-c68c68797')).toMatchObject({ replicas: 3, ready: 3, revision: 3, history: '1' });
    expect(rs(d, 'web-c47498c66')).toMatchObject({ replicas: 0, revision: 2 });
    // Fresh pods under new names: none of those web-c68c68797 had before the rollout to nginx:1.28.
    const before = new Set<string>();
    runDemoSteps(new FigureHost(rolloutUndoWidget, { ...c.story, beats: [], opening: undefined }), 'setup', (v) => {
      for (const p of v.frame.pods) before.add(p.name);
    });
    expect([...before].filter((n) => n.startsWith('web-c68c68797-'))).toHaveLength(3);
    const after = end.frame.pods.filter((p) => !p.terminating).map((p) => p.name);
    expect(after).toHaveLength(3);
    expect(after.every((n) => n.startsWith('web-c68c68797-') && !before.has(n))).toBe(true);
  });
  it("its first move is the forward rollout's: the reused ReplicaSet 0 → 1 beside 3 old pods", () => {
    const first = beatNamed(/creates no ReplicaSet/);
    expect(first.text).toContain(
      'it scales web-c68c68797 up, now revision 3 (its old number, 1, moves to its revision-history annotation). web-c68c68797 (revision 3) at 1, web-c47498c66 (revision 2) at 3; 4 pods, 3 ready.',
    );
    expect(beatNamed(/^Rolled back/).text).toContain(
      'web-c68c68797 (revision 3) at 3, web-c47498c66 (revision 2) at 0.',
    );
  });
  it('undone twice, returns to nginx:1.28 under revision 4, and web-c68c68797 keeps revision 3', () => {
    const host = live();
    host.handle({ op: 'seek', step: c.story.end });
    const d = undo(runDemoSteps(host, 'undo'));
    expect(d).toMatchObject({ deploymentRevision: 4, image: 'nginx:1.28' });
    expect(rs(d, 'web-c47498c66')).toMatchObject({ replicas: 3, revision: 4, history: '2' });
    expect(rs(d, 'web-c68c68797')).toMatchObject({ replicas: 0, revision: 3 });
  });
  it("is placed in its chapter beside a paragraph that quotes the simulation's names and numbers", () => {
    const at = chapter.indexOf('<InlineWidget id="rollout-undo" />');
    const para = chapter.slice(chapter.indexOf('Run the undo yourself below.'), at);
    expect(at).toBeGreaterThan(chapter.indexOf('## History and undo'));
    expect(para).toContain(
      '`web-c47498c66` (revision 2) runs the three pods, and `web-c68c68797` (revision 1) waits at 0 replicas',
    );
    expect(para).toContain('scales `web-c68c68797` from 0 to 1 and gives it revision 3');
    expect(para).toContain('4 pods, 3 of them ready');
    expect(beatNamed(/creates no ReplicaSet/).text).toContain('4 pods, 3 ready');
  });
});
