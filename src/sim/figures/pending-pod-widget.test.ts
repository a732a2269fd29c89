// The pending-pod widget: report's pod fits on no node and stays Pending with the scheduler's own
// FailedScheduling message; deleting load-2 frees node-2, and the scheduler binds the parked pod
// there unasked. The chapter quotes the pod's name, the nodes' free CPU and the message.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import { type PendingDetail, pendingPodWidget } from './pending-pod-widget.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';

const compiled = compileFigure(pendingPodWidget);
const at = (step: number): FigureView => new FigureHost(pendingPodWidget, compiled.story).handle({ op: 'seek', step });
const pendingOf = (v: FigureView): PendingDetail => v.detail!.pending as unknown as PendingDetail;
const MESSAGE =
  '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';

describe('the pending-pod widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(compiled, 3);
    expectStoryReplays(pendingPodWidget, compiled);
  });
  it("opens with report's pod Pending, every node short of its 3400m, and the scheduler's message", () => {
    expect(compiled.first.step).toBe(compiled.story.opening);
    const p = pendingOf(compiled.first);
    expect(p).toMatchObject({ pod: 'report-6d98ddd556-vc5xc', node: null, cpu: 3400, message: MESSAGE });
    expect(p.nodes.map((n) => [n.node, n.requested, n.free])).toEqual([
      ['node-1', 2400, 1600],
      ['node-2', 800, 3200],
      ['node-3', 2200, 1800],
    ]);
    expect(p.nodes.every((n) => n.free < p.cpu)).toBe(true);
  });
  itStepsAsAWidget(pendingPodWidget, () => compiled);

  it('binds the pod to node-2 once load-2 is gone, and the message goes with the Pending state', () => {
    const end = at(compiled.story.end);
    const p = pendingOf(end);
    expect(p).toMatchObject({ pod: 'report-6d98ddd556-vc5xc', node: 'node-2', message: null });
    expect(p.nodes.find((n) => n.node === 'node-2')).toMatchObject({ requested: 3400, free: 600 });
    expect(end.frame.pods.some((x) => x.name === 'load-2')).toBe(false);
    expect(end.frame.pods.find((x) => x.name === 'report-6d98ddd556-vc5xc')).toMatchObject({
      ready: true,
      node: 'node-2',
    });
  });
  it('quotes in its chapter the pod, the free CPU and the message the simulation gives', () => {
    const text = readFileSync(new URL('../../../content/scheduler.mdx', import.meta.url), 'utf8');
    const p = pendingOf(compiled.first);
    const para = text.slice(
      text.indexOf('## Pending and FailedScheduling'),
      text.indexOf('<InlineWidget id="pending-pod" />'),
    );
    expect(para).toContain(`Say a pod \`${p.pod}\` requests \`cpu: 3400m\``);
    expect(para).toContain(
      `\`${p.pod}\` asks for 3400m, the nodes have ${p.nodes
        .map((n) => `${n.free}m`)
        .join(', ')
        .replace(/, (?=[^,]*$)/, ' and ')} free`,
    );
    expect(para).toContain(`default-scheduler  ${MESSAGE}`);
  });
});
