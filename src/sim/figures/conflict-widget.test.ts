// The conflict widget: two writes from one resourceVersion, the second refused with the API server's
// own 409 Conflict and retried on a fresh read; the chapter quotes the revisions the simulation gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { conflictWidget, type ConflictDetail } from './conflict-widget.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';

const compiled = compileFigure(conflictWidget);
const live = (): FigureHost => new FigureHost(conflictWidget, compiled.story);
const raceOf = (v: FigureView): ConflictDetail => v.detail!.race as unknown as ConflictDetail;
const CONFLICT =
  'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again';

describe('the conflict widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(compiled, 3);
    expectStoryReplays(conflictWidget, compiled);
  });
  it('opens with web running 3 pods, at its resourceVersion, and no write yet', () => {
    expect(compiled.first.step).toBe(compiled.story.opening);
    expect(compiled.first.beat).toMatch(/^web runs 3 pods of ReplicaSet web-c68c68797: /);
    expect(raceOf(compiled.first)).toEqual({ replicas: 3, resourceVersion: '106', attempts: [] });
  });
  itStepsAsAWidget(conflictWidget, () => compiled);

  it('stores the first write, refuses the second with 409 Conflict, and stores the retry sent with the newer resourceVersion', () => {
    const end = live().handle({ op: 'seek', step: compiled.story.end });
    const [alice, bob, again] = raceOf(end).attempts;
    expect(alice).toMatchObject({
      client: 'alice',
      sentVersion: '106',
      replicas: 4,
      code: 200,
      revision: 107,
      message: null,
    });
    expect(bob).toMatchObject({
      client: 'bob',
      sentVersion: '106',
      replicas: 4,
      code: 409,
      revision: null,
      message: CONFLICT,
    });
    expect(again).toMatchObject({ client: 'bob', replicas: 5, code: 200 });
    expect(Number(again.sentVersion)).toBeGreaterThanOrEqual(107);
    expect(again.revision).toBeGreaterThan(Number(again.sentVersion));
    expect(raceOf(end)).toMatchObject({ replicas: 5, resourceVersion: expect.any(String) });
    expect(end.frame.pods.filter((p) => p.ready)).toHaveLength(5);
  });
  it('is pressed again to take both replicas away, through the same race', () => {
    const host = live();
    host.handle({ op: 'seek', step: compiled.story.end });
    let v = host.handle({ op: 'demo', demo: 'race' });
    expect(v.beat).toMatch(
      /^alice and bob both read web \(5 replicas\) and each write back 4\. .* 409 Conflict: Operation cannot be fulfilled/,
    );
    for (let n = 0; v.demoRunning !== null; n++) {
      if (n > 5_000) throw new Error('the race never settled');
      v = host.handle({ op: 'step' })!;
    }
    expect(raceOf(v).attempts.map((a) => [a.client, a.replicas, a.code])).toEqual([
      ['alice', 4, 200],
      ['bob', 4, 409],
      ['bob', 3, 200],
    ]);
    expect(raceOf(v).replicas).toBe(3);
  });
  it('quotes in its chapter the resourceVersions and revisions the simulation gives', () => {
    const [alice, , again] = raceOf(live().handle({ op: 'seek', step: compiled.story.end })).attempts;
    const text = readFileSync(new URL('../../../content/control-plane.mdx', import.meta.url), 'utf8');
    const para = text.slice(
      text.indexOf('Handing it back is also how'),
      text.indexOf('<InlineWidget id="conflict" />'),
    );
    expect(para).toContain(CONFLICT);
    expect(para).toContain(`alice and bob both read web at resourceVersion \`"${alice.sentVersion}"\``);
    expect(para).toContain(`alice's write is stored at revision ${alice.revision}.`);
    expect(para).toContain(
      `now at \`"${again.sentVersion}"\`, and his write is stored at revision ${again.revision} with ${again.replicas} replicas.`,
    );
  });
});
