// The force-delete widget: its story replays and opens with node-2 cut off the network, its two web
// pods Terminating in the API server (deleted by the taint-eviction controller) while node-2's
// machine still runs their containers, and six pods running elsewhere; a forced delete sends
// gracePeriodSeconds 0, prints kubectl's warning, and removes the object at once while the container
// runs on; the reconnect lets node-2's kubelet stop it; the chapter quotes the names and seconds.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget } from './replay-check.ts';
import { forceDeleteWidget, type ForceDeleteDetail } from './force-delete-widget.ts';
import { FORCE_WARNING } from './echo.ts';

const c = compileFigure(forceDeleteWidget);
const live = (): FigureHost => new FigureHost(forceDeleteWidget, c.story);
const force = (v: { detail?: unknown }): ForceDeleteDetail => (v.detail as { force: ForceDeleteDetail }).force;
const beatNamed = (re: RegExp) => c.story.beats.find((b) => re.test(b.text))!;
const at = (step: number): FigureView => live().handle({ op: 'seek', step });
const chapter = readFileSync(new URL('../../../content/node-failure.mdx', import.meta.url), 'utf8');
const ON_NODE_2 = ['web-c68c68797-nzjqm', 'web-c68c68797-pjhzg'];

describe('the force-delete widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(c, 4);
    expectStoryReplays(forceDeleteWidget, c);
  });
  it('opens with node-2 cut off, its two pods Terminating in the API server and running on its machine, and six pods running elsewhere', () => {
    expect(c.first.step).toBe(c.story.opening);
    expect(c.first.beat).toBe(
      '343 s after the cut: web-c68c68797-nzjqm and web-c68c68797-pjhzg are Terminating in the API server, deleted when their 300 s ran out; web-c68c68797-lsm28 and web-c68c68797-rzs7n replace them, 6 running. node-2, cut off, still runs their 2 containers.',
    );
    const d = force(c.first);
    expect(d).toMatchObject({ node: 'node-2', partitioned: true, ready: 'Unknown' });
    expect(d.api.map((p) => p.name)).toEqual(ON_NODE_2);
    for (const p of d.api)
      expect(p).toMatchObject({
        status: 'Terminating',
        disruption: 'DeletionByTaintManager',
        deletionTimestamp: '2026-01-01T00:06:20Z',
      });
    expect(d.machine).toEqual(ON_NODE_2.map((pod) => ({ pod, container: 'nginx', state: 'running', inApi: true })));
    expect(d.running.map((p) => `${p.name} ${p.node}`)).toEqual([
      'web-c68c68797-2pdpp node-3',
      'web-c68c68797-lkdzk node-1',
      'web-c68c68797-lsm28 node-3',
      'web-c68c68797-rzs7n node-1',
      'web-c68c68797-ss969 node-3',
      'web-c68c68797-vc5xc node-1',
    ]);
    const button = c.first.demos.find((b) => b.id === 'force')!;
    expect(button).toMatchObject({
      label: 'Force-delete a pod',
      command: 'kubectl delete pod web-c68c68797-nzjqm --grace-period=0 --force',
      enabled: true,
    });
  });
  itStepsAsAWidget(forceDeleteWidget, () => c, [1, 2, 3]);
  it("force deletion sends gracePeriodSeconds 0, echoes kubectl's warning, and removes the object at once while node-2 runs the container on", () => {
    const host = live();
    const v = host.handle({ op: 'demo', demo: 'force' });
    expect(v.ran).toEqual([
      {
        command: 'kubectl delete pod web-c68c68797-nzjqm --grace-period=0 --force',
        output: `${FORCE_WARNING}\npod "web-c68c68797-nzjqm" force deleted from default namespace`,
        error: false,
      },
    ]);
    expect(v.beat).toMatch(
      /web-c68c68797-nzjqm is gone from the API server at once, confirmed by no kubelet, while node-2's machine, still cut off, runs its container on\. web-c68c68797-pjhzg stays Terminating\.$/,
    );
    const d = force(v);
    expect(d.api.map((p) => p.name)).toEqual(['web-c68c68797-pjhzg']);
    expect(d.machine.find((x) => x.pod === 'web-c68c68797-nzjqm')).toMatchObject({ state: 'running', inApi: false });
    // The request as kubectl sends it: a DELETE with gracePeriodSeconds 0, and no kubelet request about the pod after it.
    const input = host.cluster.world.state.inputs.at(-1) as unknown as { action?: unknown };
    expect(JSON.stringify(input)).toContain('"gracePeriodSeconds":0');
    expect(v.t).toBe(c.first.t);
  });
  it("after the reconnect node-2's kubelet stops the orphaned container, then finishes the other pod and confirms it", () => {
    const stopped = beatNamed(
      /node-2's kubelet has found web-c68c68797-nzjqm gone from the API server and stopped its container/,
    );
    expect(stopped.text).toBe(
      "7 s after the reconnect, node-2's kubelet has found web-c68c68797-nzjqm gone from the API server and stopped its container: it ran on until now.",
    );
    expect(force(at(stopped.step)).machine.some((x) => x.pod === 'web-c68c68797-nzjqm' && x.state === 'running')).toBe(
      false,
    );
    const end = at(c.story.end);
    expect(end.beat).toBe(
      "It stopped web-c68c68797-pjhzg's container too and confirmed the deletion: the object is gone, 8 s after the reconnect. node-2 runs no web pod; 6 pods run on node-1 and node-3.",
    );
    expect(force(end)).toMatchObject({ partitioned: false, ready: 'True', api: [], machine: [] });
  });
  it("is placed in its chapter after the paragraph on the warning, which quotes the simulation's names and seconds", () => {
    const para = chapter.slice(
      chapter.indexOf('The warning is literal'),
      chapter.indexOf('<InlineWidget id="force-delete" />'),
    );
    const cut = Number(/^(\d+) s after the cut/.exec(c.first.beat!)![1]);
    const stopped = beatNamed(/node-2's kubelet has found .* gone from the API server/);
    const after = Number(/^(\d+) s after the reconnect/.exec(stopped.text)![1]);
    const victim = /^kubectl delete pod (\S+) /.exec(c.first.demos.find((b) => b.id === 'force')!.command)![1];
    expect(para).toContain(
      `cut off for ${cut} seconds, \`node-2\` runs the container of \`${victim}\` until ${after} seconds after it reconnects.`,
    );
    // The command the chapter prints names the pod the widget deletes.
    expect(chapter).toContain(
      `$ kubectl delete pod ${victim} --grace-period=0 --force\n${FORCE_WARNING}\npod "${victim}" force deleted from default namespace`,
    );
  });
});
