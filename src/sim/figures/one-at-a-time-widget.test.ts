// The one-at-a-time widget: its story replays, opens once web's 3 pods are bound one per node, steps
// back no further; each cycle reads a cache that already counts the pod before it, so the pods spread;
// scaling web to 6 places 3 more the same way; the chapter quotes the order of bindings it gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import { cycleSentence, oneAtATimeWidget, type OneAtATimeDetail } from './one-at-a-time-widget.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget, runDemoSteps } from './replay-check.ts';

const c = compileFigure(oneAtATimeWidget);
const live = (): FigureHost => new FigureHost(oneAtATimeWidget, c.story);
const placing = (v: { detail?: unknown }): OneAtATimeDetail => (v.detail as { placing: OneAtATimeDetail }).placing;
const chapter = readFileSync(new URL('../../../content/scheduler.mdx', import.meta.url), 'utf8');

describe('the one-at-a-time widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 3);
    expectStoryReplays(oneAtATimeWidget, c);
  });
  it("opens with web's 3 pods bound one at a time, one per node, each cycle scoring the last pod's node lower", () => {
    expect(c.story.opening).toBe(c.story.beats[0].step);
    expect(c.first.step).toBe(c.story.opening);
    const d = placing(c.first);
    expect(d.queue).toEqual([]);
    expect(d.cycles.map((x) => [x.pod, x.node])).toEqual([
      ['web-79ffc7f8bc-pjhzg', 'node-3'],
      ['web-79ffc7f8bc-nzjqm', 'node-2'],
      ['web-79ffc7f8bc-vc5xc', 'node-1'],
    ]);
    expect(d.cycles.map((x) => x.scores.map((s) => s.total))).toEqual([
      [652, 652, 652],
      [652, 652, 534],
      [652, 534, 534],
    ]);
    // What falls on a node with one pod of 1000m: LeastAllocated's share and the spread plugin's.
    expect(d.cycles[1].scores[2]).toMatchObject({ fit: 62, spread: 100 });
    expect(d.cycles[1].scores[0]).toMatchObject({ fit: 81, spread: 200 });
    expect(d.cycles.map((x) => x.t)).toEqual([...d.cycles.map((x) => x.t)].sort((a, b) => a - b));
    expect(d.nodes).toEqual(
      ['node-1', 'node-2', 'node-3'].map((node) => ({ node, pods: 1, cpu: 1000, memory: 2 ** 30 })),
    );
    expect(c.first.beat).toBe(
      "The scheduler took web's 3 pods one at a time, each cycle counting the pods before it: web-79ffc7f8bc-pjhzg to node-3 (all 652, a tie), web-79ffc7f8bc-nzjqm to node-2 (node-3 down to 534) and web-79ffc7f8bc-vc5xc to node-1 (node-2 down to 534).",
    );
  });
  itStepsAsAWidget(oneAtATimeWidget, () => c);
  it('scaled to 6, places the 3 new pods one per node, one cycle and one binding each, in the order they left the queue', () => {
    const seen = new Set<string>();
    let most = 0;
    const host = live();
    const end = runDemoSteps(host, 'scale', (v) => {
      const d = placing(v);
      most = Math.max(most, d.queue.length);
      for (const q of d.queue) seen.add(q);
    });
    const d = placing(end);
    const fresh = d.cycles.slice(3);
    expect(fresh).toHaveLength(3);
    expect(new Set(fresh.map((x) => x.node)).size).toBe(3);
    expect(d.nodes.map((n) => [n.node, n.pods, n.cpu])).toEqual([
      ['node-1', 2, 2000],
      ['node-2', 2, 2000],
      ['node-3', 2, 2000],
    ]);
    // The pods waited in the queue together, and left it in the order their cycles ran.
    expect(most).toBeGreaterThanOrEqual(2);
    expect(fresh.every((x) => seen.has(x.pod))).toBe(true);
    // Each cycle saw the one before it: the last pod's node scores lower than the nodes with fewer pods.
    for (let i = 1; i < fresh.length; i++) {
      const prev = fresh[i - 1].node!;
      const score = (n: string) => fresh[i].scores.find((s) => s.node === n)!.total;
      expect(
        fresh[i].scores
          .filter((s) => s.node !== prev && !fresh.slice(0, i).some((x) => x.node === s.node))
          .every((s) => s.total > score(prev)),
      ).toBe(true);
    }
  });
  it("says each cycle from the scheduler's record and queue: scores, a tie picked at random, who waits", () => {
    const beats = c.story.beats.filter((b) => /'s cycle/.test(b.text));
    expect(beats).toHaveLength(3);
    expect(beats[0].text).toMatch(
      /, from a cache that already counts web-79ffc7f8bc-vc5xc on node-1: node-1 634, node-2 634, node-3 634\. All tie; picked at random: node-\d\./,
    );
    const sentence = cycleSentence(
      {
        pod: 'b',
        t: 2,
        node: 'node-2',
        scores: [
          { node: 'node-1', total: 5, fit: 0, spread: 0 },
          { node: 'node-2', total: 5, fit: 0, spread: 0 },
          { node: 'node-3', total: 4, fit: 0, spread: 0 },
        ],
      },
      { pod: 'a', t: 1, node: 'node-3', scores: [] },
      ['c'],
    );
    expect(sentence).toBe(
      "b's cycle, from a cache that already counts a on node-3: node-1 5, node-2 5, node-3 4. node-1 and node-2 tie; picked at random: node-2. One Binding POST. c waits in the queue.",
    );
  });
  it('sits after the paragraph that quotes the order of bindings the simulation gives', () => {
    const at = chapter.indexOf('<InlineWidget id="one-at-a-time" />');
    const para = chapter.slice(chapter.indexOf('## One pod at a time'), at);
    expect(at).toBeLessThan(chapter.indexOf('## Filter, then score'));
    expect(para.trimEnd()).toMatch(/in the scheduler's configuration\.\n\n<Figure id="scheduler-one-at-a-time"[^>]*>$/);
    const order = placing(c.first).cycles.map((x) => [x.pod, x.node]);
    expect(para).toContain(
      `\`${order[0][0]}\` goes to ${order[0][1]}, then \`${order[1][0]}\` to ${order[1][1]}, then \`${order[2][0]}\` to ${order[2][1]}.`,
    );
    expect(para).toContain('Three `web` pods requesting 1000m CPU and 1Gi each, on three empty nodes');
  });
});
