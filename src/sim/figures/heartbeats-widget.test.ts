// The heartbeats widget: its story replays and opens 30 s into the cluster with every kubelet at 3
// Lease renewals and 1 status update; powering node-2 off stops its renewals while node-1 and node-3
// keep renewing, and the story stops before the 50 s grace period; powering it on renews at once;
// the chapter's paragraph quotes the numbers the simulation gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';
import { heartbeatsWidget, type HeartbeatsDetail, type NodeHeartbeats } from './heartbeats-widget.ts';

const c = compileFigure(heartbeatsWidget);
const live = (): FigureHost => new FigureHost(heartbeatsWidget, c.story);
const detail = (v: { detail?: unknown }): HeartbeatsDetail => (v.detail as { heartbeats: HeartbeatsDetail }).heartbeats;
const nodeIn = (v: { detail?: unknown }, n: string): NodeHeartbeats => detail(v).nodes.find((x) => x.node === n)!;
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const at = (step: number): FigureView => live().handle({ op: 'seek', step });
const chapter = readFileSync(new URL('../../../content/node-failure.mdx', import.meta.url), 'utf8');
const NODES = ['node-1', 'node-2', 'node-3'];

describe('the heartbeats widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 5);
    expectStoryReplays(heartbeatsWidget, c);
  });
  it('opens 30 s in, with every kubelet at 3 Lease renewals and 1 status update', () => {
    expect(c.first.step).toBe(c.story.opening);
    expect(c.first.beat).toBe(
      '30 s since the kubelets started: Lease renewals node-1 3, node-2 3 and node-3 3; status updates node-1 1, node-2 1 and node-3 1. The Lease is renewed every 10 s; the status is sent only when it changes, or after 5 minutes.',
    );
    const d = detail(c.first);
    expect(d.nodes.map((n) => n.node)).toEqual(NODES);
    for (const n of d.nodes) {
      expect(n).toMatchObject({ powered: true, renewals: 3, statusUpdates: 1, leaseAgeS: 0, heartbeatAgeS: 20 });
      expect(n.renewTime).toMatch(/^2026-01-01T00:00:30\.\d{6}Z$/);
      expect(n.lastHeartbeatTime).toBe('2026-01-01T00:00:10Z');
    }
  });
  itStepsAsAWidget(heartbeatsWidget, () => c, [1, 2, 3]);
  it('counts what the store and the log hold: each renewal moves renewTime, a status update moves lastHeartbeatTime', () => {
    // 12 s after the opening: node-1 and node-3 renewed once more, with the status untouched.
    const v = at(beatNamed(/^node-2's renewal, due 10 s after its last, never came/).step);
    expect(v.t - c.first.t).toBeGreaterThan(10_000);
    for (const n of ['node-1', 'node-3']) {
      expect(nodeIn(v, n)).toMatchObject({ renewals: 4, statusUpdates: 1 });
      expect(nodeIn(v, n).renewTime! > nodeIn(c.first, n).renewTime!).toBe(true);
      expect(nodeIn(v, n).lastHeartbeatTime).toBe(nodeIn(c.first, n).lastHeartbeatTime);
    }
    expect(nodeIn(v, 'node-2')).toMatchObject({
      renewals: 3,
      renewTime: nodeIn(c.first, 'node-2').renewTime,
      powered: false,
    });
  });
  it('powering node-2 off stops its renewals while node-1 and node-3 keep renewing, and stops before the grace period', () => {
    const missed = beatNamed(/^node-2's renewal, due 10 s after its last, never came/);
    expect(missed.text).toBe(
      "node-2's renewal, due 10 s after its last, never came: its renewTime is 11 s old. Since the power went, node-1 has made 1 renewal and node-3 1.",
    );
    const quiet = beatNamed(/^node-2's Lease is \d+ s old/);
    expect(quiet.text).toBe(
      "node-2's Lease is 35 s old, still at 3 renewals; node-1 has made 3 renewals and node-3 3. No node has sent its status meanwhile (status updates in all: node-1 1, node-2 1 and node-3 1): the silence shows on the Lease. Whether node-2 is gone is the node-lifecycle controller's call, further down.",
    );
    const v = at(quiet.step);
    expect(nodeIn(v, 'node-2')).toMatchObject({ powered: false, renewals: 3, leaseAgeS: 35 });
    for (const n of ['node-1', 'node-3'])
      expect(nodeIn(v, n)).toMatchObject({ powered: true, renewals: 6, statusUpdates: 1 });
    // The node-lifecycle controller has judged nothing yet: node-2 is still Ready, untainted.
    expect(v.frame.nodes.find((n) => n.name === 'node-2')).toMatchObject({ ready: 'True', taints: [] });
  });
  it('powering node-2 on renews its Lease at once and sends its status', () => {
    const back = beatNamed(/renewed its Lease as it booted/);
    const off = beatNamed(/^node-2's Lease is \d+ s old/);
    const v = at(back.step);
    // The kubelet registers, renews and reports once its runtime is up, 0.2 s after the power-on.
    expect(v.t).toBe(off.t + 200);
    expect(nodeIn(v, 'node-2')).toMatchObject({
      powered: true,
      leaseAgeS: 0,
      heartbeatAgeS: 0,
      renewals: 4,
      statusUpdates: 2,
    });
  });
  it("is placed in its chapter after the paragraph on the two heartbeats, which quotes the simulation's counts", () => {
    const para = chapter.slice(
      chapter.indexOf('Before Leases, the status update was the heartbeat'),
      chapter.indexOf('<InlineWidget id="heartbeats" />'),
    );
    const d = detail(c.first);
    expect(d.nodes.every((n) => n.statusUpdates === 1)).toBe(true);
    expect(para).toContain(
      `Below, at ${Math.floor(d.t / 1000)} seconds each kubelet has renewed its Lease ${d.nodes[0].renewals} times and sent its status once.`,
    );
    expect(para).not.toContain('\n## ');
  });
});
