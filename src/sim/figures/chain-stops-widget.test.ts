// The chain-stops widget: web's one pod goes through the chapter's twelve steps to traffic; a mistyped
// tag stops a new pod at step 7 (ErrImagePull, then ImagePullBackOff) while the old pod serves; with
// the scheduler stopped, a new pod stops at step 5, Pending, and the Service has no ready endpoint.
// The chapter's paragraph quotes those steps and STATUS values.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BAD_IMAGE, type ChainDetail, chainStopsWidget } from './chain-stops-widget.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { FigureView } from './protocol.ts';
import { expectStoryReplays, expectWellFormedStory, itStepsAsAWidget, runDemoSteps } from './replay-check.ts';

const compiled = compileFigure(chainStopsWidget);
const at = (step: number): FigureView => new FigureHost(chainStopsWidget, compiled.story).handle({ op: 'seek', step });
const chainOf = (v: FigureView): ChainDetail => v.detail!.chain as unknown as ChainDetail;
/** The story's beat whose text matches, as the view at its step. */
const beatView = (re: RegExp): FigureView => at(compiled.story.beats.find((b) => re.test(b.text))!.step);
const podIn = (v: FigureView, name: string) => [...v.frame.pods, ...v.frame.pending].find((p) => p.name === name);

describe('the chain-stops widget', () => {
  it('has a well-formed story that replays to the same worlds, frames and words', () => {
    expectWellFormedStory(compiled, 6);
    expectStoryReplays(chainStopsWidget, compiled);
  });

  it("opens with web's pod through all twelve steps, read from the store and node-1's rules", () => {
    expect(compiled.first.step).toBe(compiled.story.opening);
    const c = chainOf(compiled.first);
    expect(c).toMatchObject({ replicaSet: 'web-6fbdc9d7d8', pod: 'web-6fbdc9d7d8-vc5xc', stop: null });
    expect(c.steps.map((s) => s.value)).toEqual([
      'sent',
      'gen 1',
      'ReplicaSet',
      'Pod',
      'node-1',
      '10.244.1.2',
      'pulled',
      'running',
      'passing',
      'True',
      'ready',
      'node-1',
    ]);
    expect(compiled.first.beat).toMatch(
      /^web-6fbdc9d7d8-vc5xc went through all 12 steps in \d+ s: bound to node-1, .* kubectl get pods: READY 1\/1, STATUS Running, RESTARTS 0\.$/,
    );
  });
  itStepsAsAWidget(chainStopsWidget, () => compiled);

  it('stops a new pod at step 7 on the mistyped tag, ErrImagePull then ImagePullBackOff, while the old pod serves', () => {
    const v = beatView(/^The chain stops at step 7/);
    const c = chainOf(v);
    expect(c.stop).toBe(7);
    expect(c.steps.slice(0, 6).every((s) => s.done)).toBe(true);
    expect(c.steps[6].value).toBe('ErrImagePull');
    expect(c.steps.slice(7).some((s) => s.done)).toBe(false);
    expect(podIn(v, c.pod!)).toMatchObject({ image: BAD_IMAGE, status: 'ErrImagePull', readyText: '0/1' });
    expect(v.frame.pods.filter((p) => p.ready && !p.terminating).map((p) => [p.image, p.status])).toEqual([
      ['nginx:1.27', 'Running'],
    ]);
    const w = beatView(/waits in ImagePullBackOff/);
    expect(chainOf(w).steps[6].value).toBe('ImagePullBackOff');
    expect(podIn(w, c.pod!)?.status).toBe('ImagePullBackOff');
  });

  it("stops the stuck pod's replacement at step 5, Pending, with the scheduler stopped, while the old pod serves", () => {
    const v = beatView(/^The chain stops at step 5/);
    const c = chainOf(v);
    expect(v.frame.controlPlane.scheduler).toBe(false);
    expect(c.stop).toBe(5);
    expect(c.steps.slice(0, 4).every((s) => s.done)).toBe(true);
    expect(c.steps[4].value).toBe('no node');
    expect(podIn(v, c.pod!)).toMatchObject({ node: null, status: 'Pending', readyText: '0/1', image: BAD_IMAGE });
    expect(v.beat).toMatch(/web-6fbdc9d7d8-\w{5} still serves\.$/);
  });

  it('from the opening, a stopped scheduler leaves the Service without a ready endpoint, and starting it ends the chain', () => {
    const host = new FigureHost(chainStopsWidget, compiled.story);
    let stopped: FigureView | null = null;
    runDemoSteps(host, 'scheduler', (v) => {
      if (v.beat?.startsWith('The chain stops at step 5')) stopped = v;
    });
    expect(stopped!.beat).toMatch(
      /No pod is ready: the Service has no ready endpoint, and a connection to it is refused\.$/,
    );
    expect(stopped!.frame.pods.some((p) => p.ready && !p.terminating)).toBe(false);
    const pod = chainOf(stopped!).pod;
    const end = runDemoSteps(host, 'scheduler');
    expect(end.frame.controlPlane.scheduler).toBe(true);
    expect(chainOf(end)).toMatchObject({ pod, stop: null });
    expect(end.beat).toMatch(
      /went through all 12 steps, and the Service has a ready endpoint again\. kubectl get pods: READY 1\/1, STATUS Running, RESTARTS 0\.$/,
    );
  });

  it('quotes in its chapter the steps and STATUS values the simulation gives', () => {
    const text = readFileSync(new URL('../../../content/troubleshooting.mdx', import.meta.url), 'utf8');
    const para = text.slice(text.indexOf('Steps 3, 4, 5 and 11'), text.indexOf('<InlineWidget id="chain-stops" />'));
    const pull = chainOf(beatView(/^The chain stops at step 7/));
    const sched = chainOf(beatView(/^The chain stops at step 5/));
    expect(para).toContain(`stops web's new pod at step ${pull.stop}, \`${pull.steps[6].value}\``);
    const pending = podIn(beatView(/^The chain stops at step 5/), sched.pod!)!.status;
    expect(para).toContain(`a new pod stays at step ${sched.stop}, \`${pending}\``);
  });
});
