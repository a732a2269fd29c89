// The restart-leases widget: ten minutes into an outage the stored Leases still show the stopped
// processes (the scheduler's handed back); on the restart the new scheduler leads at once, the new
// controller manager only after the old holder's 15 s, and no node becomes Unknown.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LEASE_DURATION_MS } from '../client-go/leader-election.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';
import { type RestartDetail, restartLeasesWidget } from './restart-leases-widget.ts';

const compiled = compileFigure(restartLeasesWidget);
const at = (step: number): FigureView =>
  new FigureHost(restartLeasesWidget, compiled.story).handle({ op: 'seek', step });
const restartOf = (v: FigureView): RestartDetail => v.detail!.restart as unknown as RestartDetail;
const beats = compiled.story.beats;

describe('the restart-leases widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(compiled, 4);
    expectStoryReplays(restartLeasesWidget, compiled);
  });
  itStepsAsAWidget(restartLeasesWidget, () => compiled);

  it("opens ten minutes into the outage: the scheduler's Lease handed back, the controller manager's still held, every node Ready", () => {
    const r = restartOf(compiled.first);
    expect(r.up).toBe(false);
    expect(r.locks.find((l) => l.name === 'kube-scheduler')!.holder).toBe('');
    expect(r.locks.find((l) => l.name === 'kube-controller-manager')!.holder).toMatch(/^control-plane_[0-9a-f-]{36}$/);
    expect(r.nodes.map((n) => `${n.name} ${n.ready} ${n.taints.length}`)).toEqual([
      'node-1 True 0',
      'node-2 True 0',
      'node-3 True 0',
    ]);
    expect(compiled.first.beat).toMatch(/^The control plane has been down for 10 minutes\./);
  });

  it("gives the scheduler its Lease at once and the controller manager its own only after the old holder's lease duration", () => {
    const start = beats.findIndex((b) => /new kube-scheduler holds its Lease/.test(b.text));
    const kcm = beats.findIndex((b) => /new kube-controller-manager takes its Lease over/.test(b.text));
    expect(start).toBeGreaterThan(0);
    expect(kcm).toBeGreaterThan(start);
    const waited = Number(/^(\d+) s after the start/.exec(beats[kcm].text)![1]);
    expect(waited * 1000).toBeGreaterThanOrEqual(LEASE_DURATION_MS);
    expect(waited * 1000).toBeLessThan(LEASE_DURATION_MS + 5_000);
    const end = restartOf(at(compiled.story.end));
    expect(end.up).toBe(true);
    for (const l of end.locks) expect(l).toMatchObject({ transitions: 1 });
    expect(end.locks.map((l) => l.holder)).not.toContain(restartOf(compiled.first).locks[1].holder);
    expect(end.nodes.every((n) => n.ready === 'True' && n.taints.length === 0)).toBe(true);
  });

  it('sits in its chapter after the paragraph about the 15-second wait', () => {
    const text = readFileSync(new URL('../../../content/control-plane-outage.mdx', import.meta.url), 'utf8');
    const before = text.slice(0, text.indexOf('<InlineWidget id="restart-leases" />'));
    expect(before.slice(before.lastIndexOf('\n\nThe new controller manager'))).toContain(
      `go ${LEASE_DURATION_MS / 1000} seconds (the lease duration) without a renewal`,
    );
  });
});
