// The cascade-delete widget: kubectl deletes the Deployment alone, and the garbage collector deletes
// the ReplicaSet whose ownerReference named it, then the pods whose owner that was; the chapter's
// paragraph names the objects the simulation makes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type OwnersDetail, cascadeDeleteWidget } from './cascade-delete-widget.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';

const compiled = compileFigure(cascadeDeleteWidget);
const at = (step: number): FigureView =>
  new FigureHost(cascadeDeleteWidget, compiled.story).handle({ op: 'seek', step });
const ownersOf = (v: FigureView): OwnersDetail => v.detail!.owners as unknown as OwnersDetail;
const beat = (i: number) => compiled.story.beats[i];

describe('the cascade-delete widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(compiled, 3);
    expectStoryReplays(cascadeDeleteWidget, compiled);
  });
  it("opens on web's chain, each object owned by the one above it by uid", () => {
    expect(compiled.first.step).toBe(compiled.story.opening);
    const objects = ownersOf(compiled.first).objects;
    const [d, rs, ...pods] = objects;
    expect(d).toMatchObject({ kind: 'Deployment', name: 'web', owner: null });
    expect(rs).toMatchObject({
      kind: 'ReplicaSet',
      name: 'web-c68c68797',
      owner: { kind: 'Deployment', name: 'web', uid: d.uid },
    });
    expect(pods.map((p) => p.name)).toEqual(['web-c68c68797-nzjqm', 'web-c68c68797-pjhzg', 'web-c68c68797-vc5xc']);
    for (const p of pods) expect(p.owner).toEqual({ kind: 'ReplicaSet', name: 'web-c68c68797', uid: rs.uid });
  });
  itStepsAsAWidget(cascadeDeleteWidget, () => compiled);

  it('deletes the Deployment alone, then the collector deletes the ReplicaSet, then the pods, never the other way round', () => {
    const press = ownersOf(at(beat(1).step));
    expect(press.deletes).toEqual([{ component: 'kubectl', kind: 'Deployment', name: 'web' }]);
    expect(press.objects.map((o) => o.kind)).toEqual(['ReplicaSet', 'Pod', 'Pod', 'Pod']);
    const rsGone = ownersOf(at(beat(2).step));
    expect(rsGone.deletes.map((d) => `${d.component} ${d.kind}`)).toEqual([
      'kubectl Deployment',
      'garbage-collector ReplicaSet',
    ]);
    expect(rsGone.objects.every((o) => o.kind === 'Pod' && !o.deleting)).toBe(true);
    const podsGoing = ownersOf(at(beat(3).step));
    expect(podsGoing.deletes.slice(2).map((d) => `${d.component} ${d.kind}`)).toEqual(
      Array(3).fill('garbage-collector Pod'),
    );
    const end = ownersOf(at(compiled.story.end));
    expect(end.objects).toEqual([]);
    expect(at(compiled.story.end).demos.find((d) => d.id === 'delete-web')).toMatchObject({ enabled: false });
  });
  it('names in its chapter the objects the simulation makes', () => {
    const text = readFileSync(new URL('../../../content/reconcile-loop.mdx', import.meta.url), 'utf8');
    const para = text.slice(
      text.indexOf('The deleting is done by'),
      text.indexOf('<InlineWidget id="cascade-delete" />'),
    );
    const names = ownersOf(compiled.first)
      .objects.map((o) => o.name)
      .filter((n) => n !== 'web');
    for (const n of names) expect(para).toContain(`\`${n}\``);
    expect(para).toContain('propagationPolicy: Background');
  });
});
