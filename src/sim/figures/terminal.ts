// The figures' terminal in the worker: a line of kubectl or sim run on a figure's own cluster as
// the reader's change. The worker's second lazy entry (serve.ts imports it when a reader first uses
// a terminal), which brings kubectl with it: one chunk, kubectl's, so the figures' shared chunk
// carries none of it. The arrow runs figures -> kubectl only: kubectl knows no figure. Every change goes through the
// figure's Timeline: a command's requests and faults are recorded inputs and its simulated time
// recorded steps, so step back, replay and links hold.
import { SETTLE_MAX_MS, type Cluster } from '../cluster.ts';
import type { SimCluster } from '../cluster-types.ts';
import type { FigureHost } from './host.ts';
import type { TerminalCompletion, TerminalOutput } from './protocol.ts';
import type { Timeline } from '../time-travel.ts';
import { complete, TERMINAL_HELP } from '../kubectl/complete.ts';
import { runLine } from '../kubectl/script.ts';
import { prepareLine } from '../kubectl/cmd/explain.ts';
import { MAX_LINE_MS } from '../kubectl/sim-commands.ts';
import { errorLine } from '../kubectl/plain-error.ts';
import { tokenize } from '../kubectl/tokenize.ts';
import { parseDurationMs } from '../util/parse-duration.ts';

/** The longest line a reader may run, the longest manifest on stdin (kubectl then applies its own 64 KiB limit), the most output the page is sent. */
export const TERMINAL_LIMITS = { maxLine: 4096, maxStdin: 256 * 1024, maxOutput: 64 * 1024 } as const;

/** Why a line is refused before it runs (too long, not text), as the terminal prints it; null when it may run. */
export function refusalOf(line: unknown, stdin: unknown): string | null {
  if (typeof line !== 'string') return 'error: the command is not text\n';
  if (line.length > TERMINAL_LIMITS.maxLine)
    return `error: the command is ${line.length} characters long; this terminal takes lines of at most ${TERMINAL_LIMITS.maxLine}\n`;
  if (stdin !== undefined && typeof stdin !== 'string') return 'error: the manifest is not text\n';
  if (typeof stdin === 'string' && stdin.length > TERMINAL_LIMITS.maxStdin)
    return `error: the manifest is ${stdin.length} characters long; this terminal takes at most ${TERMINAL_LIMITS.maxStdin} (kubectl itself applies at most 64 KiB)\n`;
  return null;
}

/** The line as the figure's notes say it. */
const said = (line: string): string => `$ ${line.length > 120 ? line.slice(0, 119) + '…' : line}`;

/** Output cut to what the page is sent, and how much was left out. */
function clip(text: string): { text: string; cut: number } {
  const max = TERMINAL_LIMITS.maxOutput;
  return text.length <= max ? { text, cut: 0 } : { text: text.slice(0, max), cut: text.length - max };
}

/**
 * The cluster as kubectl and `sim` lines see it, with every change made through the timeline:
 * requests and faults are recorded inputs, `advance` and `settle` record the steps they run.
 * `change` is called before the first of them (the host forks the story away there).
 */
export function timelineCluster(tl: Timeline, change: () => void): SimCluster {
  const c: Cluster = tl.cluster;
  const act = <R>(f: (x: Cluster) => R): R => {
    change();
    return tl.apply(f);
  };
  return {
    get world() {
      return c.world;
    },
    get now() {
      return c.now;
    },
    get log() {
      return c.log;
    },
    get addons() {
      return c.addons;
    },
    request: (req) => act((x) => x.request(req)),
    advance: (ms) => {
      change();
      tl.advance(ms);
    },
    settle: (maxMs) => {
      change();
      return tl.settle(maxMs ?? SETTLE_MAX_MS);
    },
    node: (name, action) => act((x) => x.node(name, action)),
    controlPlane: (action, component) => act((x) => x.controlPlane(action, component)),
    apiserverLatency: (ms) => act((x) => x.apiserverLatency(ms)),
    etcd: (state) => act((x) => x.etcd(state)),
    crash: (ns, pod, opts) => act((x) => x.crash(ns, pod, opts)),
    image: (image, state) => act((x) => x.image(image, state)),
    app: (ns, pod, health) => act((x) => x.app(ns, pod, health)),
  };
}

/**
 * Runs one terminal line on a figure's cluster as the reader's change, like a demo's actions: its
 * first request, fault or run of time forks the story away at the cursor (a line that changes
 * nothing, like `sim time` or `help`, leaves the figure where it is), and the line is said at the
 * step it ends on. The output is what `npm run sim` prints for the same line (script.ts runLine).
 */
export function runOnFigure(host: FigureHost, line: string, stdin?: string): TerminalOutput {
  const n = ++host.commands;
  const refused = refusalOf(line, stdin);
  const shown = typeof line === 'string' ? line.slice(0, 200) : '';
  if (refused) return { n, line: shown, stdout: '', stderr: refused, exitCode: 1 };
  if (line.trim() === 'help') return { n, line: shown, stdout: TERMINAL_HELP, stderr: '', exitCode: 0 };
  let changed = false;
  const change = (): void => {
    if (changed) return;
    changed = true;
    host.readerChange();
    host.terminalUsed = true;
    host.timeline.fork();
  };
  let res;
  try {
    res = runLine(timelineCluster(host.timeline, change), line, stdin);
  } catch (e) {
    // runLine never throws; anything that does is still the reader's line failing, not the figure.
    res = { stdout: '', stderr: `${errorLine(e)}\n`, exitCode: 1 };
  }
  if (changed) host.say(host.timeline.at().step, said(line));
  const out = clip(res.stdout);
  const err = clip(res.stderr);
  const o: TerminalOutput = { n, line: shown, stdout: out.text, stderr: err.text, exitCode: res.exitCode };
  if (stdin !== undefined) o.stdin = stdin.length > 4096 ? stdin.slice(0, 4096) + '\n…\n' : stdin;
  if (out.cut + err.cut) o.truncated = out.cut + err.cut;
  return o;
}

/** Simulated time a long `sim advance` or `sim settle` runs between two pauses of the worker (other figures' turns). */
export const SLICE_MS = 10 * 60_000;

/** A `sim advance` or `sim settle` line long enough to run in slices, and how long it asks for; undefined for any other line. */
export function longRun(line: string): { kind: 'advance' | 'settle'; ms: number } | undefined {
  if (!/^sim\s/.test(line)) return undefined;
  let a: string[];
  try {
    a = tokenize(line);
  } catch {
    return undefined;
  }
  const ms =
    a[1] === 'advance' && a.length === 3
      ? parseDurationMs(a[2])
      : a[1] === 'settle' && a.length === 3
        ? parseDurationMs(a[2])
        : a[1] === 'settle' && a.length === 2
          ? SETTLE_MAX_MS
          : undefined;
  return ms !== undefined && ms > SLICE_MS && ms <= MAX_LINE_MS
    ? { kind: a[1] as 'advance' | 'settle', ms }
    : undefined;
}

/**
 * runOnFigure for a worker that serves other figures too: a long `sim advance` or `sim settle` runs
 * SLICE_MS at a time with `pause()` between slices (the worker answers other figures then) and
 * stops early when `stop()` says the figure has gone. A run in slices leaves the same world and
 * recording as one in a piece (World.advance and settle stop at a deadline and carry on from it), and
 * prints what runLine prints for it: nothing. It loads kubectl explain's chunk before a line that
 * names explain (runOnFigure, synchronous, expects it loaded).
 */
export async function runOnFigureInSlices(
  host: FigureHost,
  line: string,
  stdin: string | undefined,
  pause: () => Promise<void>,
  stop: () => boolean = () => false,
): Promise<TerminalOutput> {
  // A line that may run explain loads its chunk first, in the line's turn (a failure is what explain then prints).
  const loading = prepareLine(line);
  if (loading) await loading;
  const run =
    typeof line === 'string' && stdin === undefined && refusalOf(line, stdin) === null ? longRun(line) : undefined;
  if (!run) return runOnFigure(host, line, stdin);
  const n = ++host.commands;
  host.readerChange();
  host.terminalUsed = true;
  host.timeline.fork();
  const tl = host.timeline;
  let stopped = false;
  for (let done = 0; done < run.ms;) {
    const slice = Math.min(SLICE_MS, run.ms - done);
    done += slice;
    if (run.kind === 'advance') tl.advance(slice);
    else if (tl.settle(slice)) break;
    if (done < run.ms) {
      await pause();
      if (stop()) {
        stopped = true;
        break;
      }
    }
  }
  host.say(tl.at().step, said(line));
  // Interrupted (Ctrl+C, or the figure closed): what ran stays, as after ^C in a shell, with its exit status.
  if (stopped) return { n, line: line.slice(0, 200), stdout: '', stderr: '^C\n', exitCode: 130 };
  return { n, line: line.slice(0, 200), stdout: '', stderr: '', exitCode: 0 };
}

/** Tab on a figure's terminal: the line completed from kubectl's commands and the cluster's objects. */
export function completeOnFigure(host: FigureHost, line: unknown): TerminalCompletion {
  return complete(typeof line === 'string' ? line.slice(0, TERMINAL_LIMITS.maxLine) : '', (resource, ns) =>
    host.objectNames(resource, ns),
  );
}
