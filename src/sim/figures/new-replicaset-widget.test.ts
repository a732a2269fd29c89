// The new-replicaset widget: its story replays, opens on web's one ReplicaSet, steps back no further,
// and `kubectl set image` makes the controller create web-c47498c66 under revision 2 and keep
// web-c68c68797 at 0; the chapter's paragraph quotes the names and revisions the simulation gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import { newReplicaSetWidget, type NewReplicaSetDetail } from './new-replicaset-widget.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget, runDemoSteps } from './replay-check.ts';

const c = compileFigure(newReplicaSetWidget);
const live = (): FigureHost => new FigureHost(newReplicaSetWidget, c.story);
const rsOf = (v: { detail?: unknown }): NewReplicaSetDetail => (v.detail as { rs: NewReplicaSetDetail }).rs;
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const chapter = readFileSync(new URL('../../../content/rolling-updates.mdx', import.meta.url), 'utf8');

describe('the new-replicaset widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 3);
    expectStoryReplays(newReplicaSetWidget, c);
  });
  it('opens on web running 3 pods of nginx:1.27 from web-c68c68797, revision 1', () => {
    expect(c.story.opening).toBe(c.story.beats[0].step);
    expect(c.first.step).toBe(c.story.opening);
    expect(c.first.beat).toMatch(
      /^web runs 3 pods of ReplicaSet web-c68c68797: web-c68c68797-nzjqm on node-\d, web-c68c68797-pjhzg on node-\d and web-c68c68797-vc5xc on node-\d\.$/,
    );
    expect(rsOf(c.first)).toEqual({
      image: 'nginx:1.27',
      revision: 1,
      replicaSets: [
        { name: 'web-c68c68797', hash: 'c68c68797', image: 'nginx:1.27', revision: 1, replicas: 3, ready: 3 },
      ],
    });
  });
  itStepsAsAWidget(newReplicaSetWidget, () => c);
  it('creates web-c47498c66 (its hash, revision 2) at 1 beside 3 old pods, and keeps web-c68c68797 at 0 with revision 1', () => {
    expect(beatNamed(/^The controller finds/).text).toBe(
      "The controller finds no ReplicaSet whose pod template matches the new one, so it creates web-c47498c66, named after the template's hash c47498c66, with revision 2; web-c68c68797 keeps revision 1. web-c47498c66 at 1, web-c68c68797 at 3: 4 pods, 3 ready.",
    );
    expect(beatNamed(/down to 2/).text).toContain(
      'the controller scales web-c68c68797 down to 2. web-c47498c66 at 1, web-c68c68797 at 2.',
    );
    const end = live().handle({ op: 'seek', step: c.story.end });
    expect(rsOf(end)).toEqual({
      image: 'nginx:1.28',
      revision: 2,
      replicaSets: [
        { name: 'web-c68c68797', hash: 'c68c68797', image: 'nginx:1.27', revision: 1, replicas: 0, ready: 0 },
        { name: 'web-c47498c66', hash: 'c47498c66', image: 'nginx:1.28', revision: 2, replicas: 3, ready: 3 },
      ],
    });
    expect(c.story.beats.at(-1)!.text).toBe(
      'Rollout complete: web-c47498c66 at 3, web-c68c68797 at 0. web-c68c68797 is kept, scaled to zero, with its template and revision 1, for kubectl rollout undo.',
    );
  });
  it('pressed again, sets nginx:1.27 back: the controller finds web-c68c68797 by its pod template and creates no ReplicaSet', () => {
    const host = live();
    host.handle({ op: 'seek', step: c.story.end });
    const end = runDemoSteps(host, 'set-image');
    const d = rsOf(end);
    expect(d).toMatchObject({ image: 'nginx:1.27', revision: 3 });
    expect(d.replicaSets.map((rs) => [rs.name, rs.revision, rs.replicas])).toEqual([
      ['web-c47498c66', 2, 0],
      ['web-c68c68797', 3, 3],
    ]);
  });
  it('sits after the paragraph that names the ReplicaSets and revisions the simulation gives', () => {
    const at = chapter.indexOf('<InlineWidget id="new-replicaset" />');
    const section = chapter.slice(chapter.indexOf('## A new template makes a new ReplicaSet'), at);
    expect(at).toBeLessThan(chapter.indexOf('## The arithmetic of maxSurge'));
    expect(section.trimEnd()).toMatch(
      /The old ReplicaSet keeps revision 1\.\n\n<Figure id="rolling-updates-new-replicaset"[^>]*>$/,
    );
    const pods = c.first.frame.pods.map((p) => `\`${p.name}\``).sort();
    expect(section).toContain(
      `Its ReplicaSet is \`web-c68c68797\`, owning the three <Term id="pod">pods</Term> ${pods[0]}, ${pods[1]} and ${pods[2]}.`,
    );
    expect(section).toContain(
      'finds no ReplicaSet whose template matches, and creates one named after the template\'s hash: `web-c47498c66`, annotated `deployment.kubernetes.io/revision: "2"`. The old ReplicaSet keeps revision 1.',
    );
    expect(beatNamed(/^The controller finds/).text).toContain(
      "so it creates web-c47498c66, named after the template's hash c47498c66, with revision 2; web-c68c68797 keeps revision 1.",
    );
  });
});
