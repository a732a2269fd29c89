import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { runScript } from '../kubectl/index.ts';
import { runOnFigure, TERMINAL_LIMITS } from './terminal.ts';
import { decodeMoment, installKubectlExtras, restoreMoment } from '../permalink.ts';
import { FIGURES } from '../testing/figures.ts';
import { clusterFigure } from './cluster-figure.ts';
import { compileFigure } from './compile.ts';
import { FigureHost } from './host.ts';
import type { CompiledFigure } from './protocol.ts';
import { createFigureServer } from './serve.ts';
import { runs } from '../../test/fc.ts';

const compiled: CompiledFigure = compileFigure(clusterFigure);
const story = (): FigureHost => new FigureHost(clusterFigure, compiled.story);

const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2
  selector:
    matchLabels: { app: api }
  template:
    metadata:
      labels: { app: api }
    spec:
      containers:
      - name: api
        image: nginx:1.27
`;

/** Lines as a reader would type them, each with its manifest when it reads one. */
const SESSION: { line: string; stdin?: string }[] = [
  { line: 'kubectl create deployment web --image=nginx:1.27 --replicas=3' },
  { line: 'sim settle' },
  { line: 'kubectl get pods -o wide' },
  { line: 'kubectl apply -f -', stdin: MANIFEST },
  { line: 'sim advance 30s' },
  { line: 'kubectl get deployments' },
  { line: 'kubectl scale deployment web --replicas=1' },
  { line: 'sim node stop node-3' },
  { line: 'sim advance 1m' },
  { line: 'kubectl get nodes' },
  { line: 'kubectl describe deployment web' },
  { line: 'kubectl frobnicate' },
  { line: 'kubectl get pods --bogus' },
  { line: 'sim time' },
  { line: 'sim log --since 40' },
];

/** The same lines as a script for `npm run sim` (heredocs carry the manifests). */
const SCRIPT = SESSION.map((s) => (s.stdin === undefined ? s.line : `${s.line} <<EOF\n${s.stdin}EOF`)).join('\n');

describe('the figure terminal', () => {
  it('prints, line by line, what npm run sim prints for the same lines, and leaves the same world', () => {
    const host = story();
    const got = SESSION.map((s) => runOnFigure(host, s.line, s.stdin));
    const cli = createCluster({ seed: 1, nodes: 3 });
    const { steps } = runScript(cli, SCRIPT);
    expect(got.map((o) => [o.stdout, o.stderr, o.exitCode])).toEqual(
      steps.map((s) => [s.stdout, s.stderr, s.exitCode]),
    );
    expect(host.cluster.world.hash()).toBe(cli.world.hash());
    expect(got.map((o) => o.n)).toEqual(SESSION.map((_, i) => i + 1));
  });

  it('is a reader change: the story forks away in its middle, the timeline grows, the request log shows kubectl', () => {
    const host = story();
    host.handle({ op: 'seek', step: 5 });
    const before = host.view();
    runOnFigure(host, 'sim time');
    expect(host.view().story.diverged).toBe(false); // a line that changes nothing leaves the story alone
    runOnFigure(host, 'kubectl scale deployment web --replicas=5');
    const v = host.view();
    expect(v.story.diverged).toBe(true);
    expect(v.step).toBeGreaterThan(before.step);
    expect(v.beat).toBe('$ kubectl scale deployment web --replicas=5');
    expect(v.log.some((r) => r.from === 'kubectl')).toBe(true);
  });

  it('steps back over a command and forward again to the same bytes', () => {
    const host = story();
    host.handle({ op: 'seek', step: compiled.story.end });
    runOnFigure(host, 'kubectl scale deployment web --replicas=1');
    runOnFigure(host, 'sim advance 20s');
    host.handle({ op: 'step' });
    const at = host.view().step;
    const hash = host.cluster.world.hash();
    for (let i = 0; i < 6; i++) host.handle({ op: 'back' });
    expect(host.view().step).toBe(at - 6);
    host.handle({ op: 'seek', step: at });
    expect(host.cluster.world.hash()).toBe(hash);
  });

  it('replays deterministically: the recorded inputs rebuild the same world at the same step', () => {
    const host = story();
    for (const s of SESSION.slice(0, 9)) runOnFigure(host, s.line, s.stdin);
    host.handle({ op: 'step' });
    const step = host.view().step;
    const inputs = host.timeline.data.inputs.slice(baseInputs());
    expect(inputs.length).toBeGreaterThan(3);
    // As the worker replays a link: kubectl's part of the API server first (kubectl's create and apply ask for strict field validation).
    const again = new FigureHost(clusterFigure, compiled.story, { inputs, step, install: installKubectlExtras });
    expect(again.cluster.world.hash()).toBe(host.cluster.world.hash());
  });

  it('a link whose commands only kubectl sends (JSON patch, server dry run, access review, logs) opens on a server that never loaded kubectl', async () => {
    const serve = createFigureServer(FIGURES)('a');
    await serve.open('cluster', compiled.story);
    for (const line of [
      'kubectl create deployment web --image=nginx:1.27 --replicas=1',
      `kubectl patch deployment web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":2}]'`,
      'kubectl scale deployment web --replicas=3 --dry-run=server',
      'kubectl auth can-i list pods',
      'sim settle',
      'kubectl logs deployment/web',
    ]) {
      const r = await serve.terminal(line);
      expect(r.terminal.exitCode, line).toBe(0);
    }
    const here = await serve.step();
    const made = await serve.link();
    const value = made.ok ? made.value : '';
    expect(value).not.toBe('');
    // Another figure server (another page): kubectl never ran there; the replay brings kubectl's part of the API server.
    const restored = await createFigureServer(FIGURES)('b').restore('cluster', compiled.story, value);
    expect(restored.notice).toMatch(/^Opened from a link at step /);
    expect({ step: restored.step, frame: restored.frame }).toEqual({ step: here.step, frame: here.frame });
  });

  it('gives a link that opens on the same frame, and refuses one with its reason when it could not', async () => {
    const server = createFigureServer(FIGURES);
    const serve = server('a');
    await serve.open('cluster', compiled.story);
    await serve.terminal('kubectl create deployment web --image=nginx:1.27 --replicas=2');
    await serve.terminal('sim settle');
    const here = await serve.step();
    const made = await serve.link();
    expect(made.ok).toBe(true);
    const value = made.ok ? made.value : '';
    const d = decodeMoment(value);
    expect(d.ok).toBe(true);
    const back = d.ok ? restoreMoment(d.moment) : null;
    expect(back?.ok && back.warning).toBeFalsy();
    const restored = await server('b').restore('cluster', compiled.story, value);
    expect(restored.frame).toEqual(here.frame);
    // The clock run on past the last recorded step (silently, between steps): the link carries how far,
    // and opens there, clock and all.
    const ran = await serve.terminal('sim advance 45s');
    const idle = await serve.link();
    expect(idle.ok).toBe(true);
    const past = idle.ok ? idle.value : '';
    const dm = decodeMoment(past);
    expect(dm.ok && dm.moment.beyond).toBeTruthy();
    const there = await server('c').restore('cluster', compiled.story, past);
    expect({ t: there.t, step: there.step, frame: there.frame }).toEqual({
      t: ran.t,
      step: ran.step,
      frame: ran.frame,
    });
    // Stepping on from the restored moment goes where the original goes.
    const a = await serve.step();
    const c = await server('c').step();
    expect(c.frame).toEqual(a.frame);
  });

  it("carries kubectl's reads and watches in a link: get (a LIST with limit), rollout status and delete (watches)", async () => {
    const serve = createFigureServer(FIGURES);
    await serve('a').open('cluster', compiled.story);
    let here = await serve('a').view();
    for (const line of [
      'kubectl create deployment web --image=nginx:1.27 --replicas=2',
      'kubectl get deployments',
      'kubectl rollout status deployment/web',
      'kubectl get pods -l app=web',
      'kubectl delete deployment web',
    ]) {
      here = await serve('a').terminal(line);
    }
    const made = await serve('a').link();
    expect(made.ok ? 'ok' : made.error).toBe('ok');
    const value = made.ok ? made.value : '';
    const restored = await serve('b').restore('cluster', compiled.story, value);
    expect(restored.notice).toMatch(/^Opened from a link at step /);
    expect({ step: restored.step, frame: restored.frame }).toEqual({ step: here.step, frame: here.frame });
  });

  it("answers bad input with kubectl's or the terminal's message and never breaks the figure", () => {
    const host = story();
    const bomb = `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n`;
    const cases: [string, string | undefined, RegExp][] = [
      ['kubectl frobnicate', undefined, /unknown command "frobnicate"/],
      ['kubectl get pods --no-such-flag', undefined, /unknown flag/],
      ['kubectl apply -f -', bomb, /alias|error/i],
      ['kubectl apply -f -', 'x'.repeat(1024 * 1024), /at most 262144/],
      ['kubectl apply -f -', 'kind: Deployment\n' + '# pad\n'.repeat(20_000), /error/],
      ['kubectl get ' + 'p'.repeat(TERMINAL_LIMITS.maxLine), undefined, /at most 4096/],
      ['kubectl get pods \u0000\u001b[31m\u0007', undefined, /./],
      ['rm -rf /', undefined, /unknown command "rm"/],
      ['sim node explode node-1', undefined, /usage: sim node/],
      ['kubectl get pods "unterminated', undefined, /error/],
    ];
    for (const [line, stdin, want] of cases) {
      const o = runOnFigure(host, line, stdin);
      expect(o.exitCode, line.slice(0, 40)).not.toBe(0);
      expect(o.stderr + o.stdout, line.slice(0, 40)).toMatch(want);
    }
    expect(host.view().frame.nodes).toHaveLength(3);
    expect(runOnFigure(host, 'kubectl get nodes').exitCode).toBe(0);
  });

  it('survives fuzzed lines of any characters (never a throw, the view still answers)', () => {
    const host = story();
    const words = fc.constantFrom(
      'kubectl',
      'sim',
      'get',
      'pods',
      'delete',
      'advance',
      '-n',
      '--',
      '-o',
      'yaml',
      'node',
      'stop',
      'node-2',
      'apply',
      '-f',
      '-',
      '"',
      "'",
      '\\',
      '\u0000',
      '\u001b',
      '10s',
      '=',
      'deploy/web',
    );
    const line = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.array(words, { maxLength: 8 }).map((w) => w.join(' ')),
    );
    fc.assert(
      fc.property(line, (l) => {
        const o = runOnFigure(host, l);
        return typeof o.stdout === 'string' && typeof o.stderr === 'string' && host.view().figure === 'cluster';
      }),
      { numRuns: Math.min(runs(0.4), 60) },
    );
  });
});

/** Inputs a fresh cluster records while it is built (a moment carries those after them). */
function baseInputs(): number {
  return createCluster({ seed: clusterFigure.options.seed, nodes: clusterFigure.options.nodes }).world.state.inputs
    .length;
}

describe('kubectl explain in the terminal', () => {
  it("runs in a figure's terminal (its chunk loaded in the line's turn) and changes nothing there", async () => {
    const serve = createFigureServer(FIGURES, { pause: () => Promise.resolve() })('a');
    const opened = await serve.open('cluster', compileFigure(clusterFigure).story);
    const r = await serve.terminal('kubectl explain pc.preemptionPolicy');
    expect(r.terminal).toMatchObject({ exitCode: 0, stderr: '' });
    // explain reads no object: the story is where it was, at the same step and time.
    expect([r.step, r.last, r.t]).toEqual([opened.step, opened.last, opened.t]);
    expect(r.terminal.stdout).toMatch(/^GROUP: {6}scheduling\.k8s\.io\nKIND: {7}PriorityClass\n/);
  });
});
