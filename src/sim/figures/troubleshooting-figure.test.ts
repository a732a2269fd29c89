// The troubleshooting figure: its story replays to the compiled hashes, step back and forward agree,
// and each break shows what the kubelet really does: the pull and restart back-offs 10, 20, 40 … s
// (read from the panel's detail at every step), OOMKilled with exit code 137, a pod that never gets
// Ready and its address not ready in the EndpointSlice; and what a reader types at a beat in the
// terminal prints what kubectl prints.
import { describe, expect, it } from 'vitest';
import { appHealth } from '../app-health.ts';
import { runOnFigure } from './terminal.ts';
import type { FigureAction } from './actions.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { CompiledFigure, FigureView } from './protocol.ts';
import {
  expectStepBackForward,
  expectPressesNeverThrow,
  expectStoryReplays,
  expectWellFormedStory,
  runDemoSteps,
} from './replay-check.ts';
import {
  BAD_IMAGE,
  CRASH_LOG,
  troubleshootingFigure as def,
  type TroubleshootingDetail,
} from './troubleshooting-figure.ts';

const compiled: CompiledFigure = compileFigure(def);
const fresh = () => new FigureHost(def, { ...compiled.story, inputs: [], beats: [], end: 0 });
const detail = (v: FigureView) => v.detail as unknown as TroubleshootingDetail;

/** Presses a demo and steps one step at a time to its last beat, calling `each` at every view. */
const runDemo = (host: FigureHost, demo: string, each?: (v: FigureView) => void): FigureView =>
  runDemoSteps(host, demo, each, 5000);

/** The distinct values `pick` gives along the way, in order. */
function distinct<T>(into: T[], x: T | undefined): void {
  if (x !== undefined && into[into.length - 1] !== x) into.push(x);
}

/** A host following the story, standing at the first beat whose text matches. */
function atBeat(text: RegExp): FigureHost {
  const beat = compiled.story.beats.find((b) => text.test(b.text));
  if (!beat) throw new Error(`no beat ${text}`);
  const host = new FigureHost(def, compiled.story);
  host.handle({ op: 'seek', step: beat.step });
  return host;
}

describe('the troubleshooting figure, compiled', () => {
  it('has beats with text in step order, a note, and is plain JSON', () => {
    expectWellFormedStory(compiled, 20);
  });

  it('replays in a fresh host to the same world, frame and beat text at every beat', () => {
    expectStoryReplays(def, compiled);
  });

  it('gives the identical view (detail included) after a step back and a step forward', () => {
    expectStepBackForward(def, compiled, [3, 9, compiled.story.beats.length - 3]);
  });

  it('never throws whatever the reader presses, in any order', () => {
    const actions: FigureAction[] = [
      { type: 'scale', name: 'web', replicas: 1 },
      { type: 'node', node: 'node-2', action: 'stop' },
      { type: 'app', pod: 'web-x', behaviour: 'crashes', health: appHealth('crashes') },
      { type: 'rollout', name: 'web', verb: 'undo' },
      { type: 'get', resource: 'pods' },
    ];
    expectPressesNeverThrow(
      def,
      fresh,
      actions.map((action) => ({ op: 'action' as const, action })),
    );
  }, 120_000);
});

describe("the troubleshooting figure's demos", () => {
  it("a settled cluster: web's three pods Ready on three nodes, three ready endpoints; the breaks wait for it", () => {
    const host = fresh();
    expect(host.view().demos.find((d) => d.id === 'crash')!.why).toBe('Create web first.');
    const v = runDemo(host, 'apply');
    expect(new Set(v.frame.pods.map((p) => p.node))).toEqual(new Set(['node-1', 'node-2', 'node-3']));
    expect(detail(v).endpoints.filter((e) => e.ready)).toHaveLength(3);
    expect(detail(v).pods.every((p) => p.state === 'Running' && p.ready && p.backoff === null)).toBe(true);
    expect(v.demos.filter((d) => d.enabled).map((d) => d.id)).toEqual(['image', 'crash', 'oom', 'unready']);
  });

  it('a mistyped tag: ErrImagePull, then ImagePullBackOff, the pull back-off 10, 20, 40, 80 s; undone, web runs as before', () => {
    const host = fresh();
    runDemo(host, 'apply');
    const reasons: string[] = [];
    const waits: number[] = [];
    let during = 0;
    const v = runDemo(host, 'image', (x) => {
      const p = detail(x).pods.find((q) => x.frame.pods.some((f) => f.name === q.name && f.image === BAD_IMAGE));
      if (p?.reason !== 'ContainerCreating') distinct(reasons, p?.reason ?? undefined);
      if (p?.backoff) {
        expect(p.backoff.kind).toBe('pull');
        distinct(waits, p.backoff.waitS);
      }
      if (p && x.frame.pods.filter((f) => f.ready).length === 3) during++;
    });
    expect(reasons.slice(0, 3)).toEqual(['ErrImagePull', 'ImagePullBackOff', 'ErrImagePull']);
    expect(waits).toEqual([10, 20, 40, 80]);
    expect(during).toBeGreaterThan(0);
    expect(v.frame.pods.map((p) => p.image)).toEqual(['nginx:1.27', 'nginx:1.27', 'nginx:1.27']);
    expect(v.frame.pods.every((p) => p.ready && p.restarts === 0)).toBe(true);
  });

  it("a crash loop: restarted at once, then waits of 10, 20, 40, 80 s (the next would be 160 s); the previous log has the app's last words", () => {
    const host = fresh();
    runDemo(host, 'apply');
    const waits: number[] = [];
    const left: number[] = [];
    let name = '';
    runDemo(host, 'crash', (x) => {
      const p = detail(x).pods.find((q) => q.restartCount > 0);
      if (!p) return;
      name = p.name;
      if (p.backoff) distinct(waits, p.backoff.waitS);
      if (p.reason === 'CrashLoopBackOff' && p.backoff?.leftS != null) left.push(p.backoff.leftS);
    });
    // Running again after the 80 s wait, its next exit would wait 160 s (until 10 minutes pass without one).
    expect(waits).toEqual([10, 20, 40, 80, 160]);
    // The seconds left count down within each wait, never past it.
    expect(Math.max(...left)).toBeLessThanOrEqual(80);
    expect(left.some((s, i) => i > 0 && s < left[i - 1])).toBe(true);
    const logs = runOnFigure(host, `kubectl logs ${name} --previous`);
    expect(logs.stdout).toBe(`${CRASH_LOG}\n`);
  });

  it('a leak: OOMKilled with exit code 137 in the last state, then CrashLoopBackOff; fixed, Ready again', () => {
    const host = fresh();
    runDemo(host, 'apply');
    let seen: TroubleshootingDetail['pods'][number] | undefined;
    let loop = false;
    const v = runDemo(host, 'oom', (x) => {
      const p = detail(x).pods.find((q) => q.restartCount > 0);
      if (p?.last && !seen) seen = p;
      if (p?.reason === 'CrashLoopBackOff') loop = true;
    });
    expect(seen!.last).toEqual({ reason: 'OOMKilled', exitCode: 137 });
    expect(loop).toBe(true);
    expect(v.frame.pods.every((p) => p.ready)).toBe(true);
    const out = runOnFigure(
      host,
      `kubectl get pod ${seen!.name} -o jsonpath={.status.containerStatuses[0].lastState.terminated.reason}`,
    );
    expect(out.stdout).toBe('OOMKilled');
  });

  it('a pod that never gets Ready: READY 0/1, RESTARTS 0, its address ready: false in the EndpointSlice; scaled back, it is the one deleted', () => {
    const host = atBeat(/ runs but is not Ready/);
    const v = host.view();
    const name = /(web-\S+) runs but is not Ready/.exec(v.beat!)![1];
    const p = v.frame.pods.find((x) => x.name === name)!;
    expect(p).toMatchObject({ ready: false, readyText: '0/1', status: 'Running', restarts: 0 });
    expect(
      detail(v)
        .endpoints.map((e) => [e.pod, e.ready])
        .filter(([, r]) => !r),
    ).toEqual([[name, false]]);
    expect(detail(v).endpoints).toHaveLength(4);
    const slices = runOnFigure(
      host,
      'kubectl get endpointslices -l kubernetes.io/service-name=web -o jsonpath=\'{range .items[*].endpoints[*]}{.targetRef.name}={.conditions.ready}{"\\n"}{end}\'',
    );
    expect(slices.stderr).toBe('');
    expect(slices.stdout.split('\n').filter(Boolean).sort()).toContain(`${name}=false`);
    const events = runOnFigure(host, `kubectl describe pod ${name}`);
    expect(events.stdout).toMatch(
      /Warning {2}Unhealthy .*Readiness probe failed: HTTP probe failed with statuscode: 500/,
    );
    const end = compiled.story.beats[compiled.story.beats.length - 1];
    expect(end.frame!.pods.map((x) => x.name)).not.toContain(name);
    expect(end.frame!.pods).toHaveLength(3);
  });

  it("at the ErrImagePull beat, kubectl describe pod prints the kubelet's Failed events", () => {
    const host = atBeat(/^The kubelet on/);
    const name = host.view().frame.pods.find((p) => p.image === BAD_IMAGE)!.name;
    const out = runOnFigure(host, `kubectl describe pod ${name}`).stdout;
    expect(out).toContain(
      `Failed to pull image "${BAD_IMAGE}": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/${BAD_IMAGE}"`,
    );
    expect(out).toContain('Error: ErrImagePull');
    expect(out).toMatch(/Limits:\n\s+memory:\s+128Mi/);
    expect(out).toMatch(/Readiness:\s+http-get http:\/\/:80\/ delay=0s timeout=1s period=10s #success=1 #failure=3/);
  });
});
