// The terminal's pure helpers on the page: the line limits (the worker checks them again), the
// history a shell keeps, when a line wants a manifest on stdin, and how output is kept plain text.

/** The longest line and manifest the page sends (figures/terminal.ts TERMINAL_LIMITS; terminal-line.test.ts checks they agree). */
export const LINE_MAX = 4096;
export const STDIN_MAX = 256 * 1024;
/** Transcript entries the terminal keeps on the page (older ones scroll away). */
export const ENTRIES_MAX = 200;

/** `kubectl apply -f -` or `kubectl create -f -` (any flags around it): the line reads a manifest from stdin. */
export function wantsStdin(line: string): boolean {
  const w = line.trim().split(/\s+/);
  if (w[0] !== 'kubectl' || !w.some((x) => x === 'apply' || x === 'create')) return false;
  for (let i = 1; i < w.length; i++) {
    if ((w[i] === '-f' || w[i] === '--filename') && w[i + 1] === '-') return true;
    if (w[i] === '-f=-' || w[i] === '--filename=-') return true;
  }
  return false;
}

/** Why the page will not send a line or a manifest (too long, as the terminal says it), or null. */
export function tooLong(line: string, stdin?: string): string | null {
  if (line.length > LINE_MAX)
    return `error: the command is ${line.length} characters long; this terminal takes lines of at most ${LINE_MAX}`;
  if (stdin !== undefined && stdin.length > STDIN_MAX)
    return `error: the manifest is ${stdin.length} characters long; this terminal takes at most ${STDIN_MAX} (kubectl itself applies at most 64 KiB)`;
  return null;
}

/** Control characters (but newline and tab) drawn as U+FFFD, so output stays readable text. */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd'); // eslint-disable-line no-control-regex
}

/** A shell's history for the page session: newest last, no repeats in a row, walked with ↑ and ↓. */
export class History {
  private lines: string[] = [];
  private at = 0;
  private draft = '';
  /** Adds a line that was run (an empty line or a repeat of the last is not kept). */
  push(line: string): void {
    if (line.trim() && this.lines[this.lines.length - 1] !== line) this.lines.push(line);
    if (this.lines.length > 500) this.lines.shift();
    this.at = this.lines.length;
    this.draft = '';
  }
  /** ↑: the line before (the line being typed is kept as the draft), or null at the oldest. */
  up(current: string): string | null {
    if (this.at === 0) return null;
    if (this.at === this.lines.length) this.draft = current;
    return this.lines[--this.at];
  }
  /** ↓: the line after, the draft past the newest, or null when already there. */
  down(): string | null {
    if (this.at >= this.lines.length) return null;
    this.at++;
    return this.at === this.lines.length ? this.draft : this.lines[this.at];
  }
}

/** What the terminal says after a change made while the clock is paused (one line, with a way to run on). */
export const PAUSED_NOTE =
  'The clock is paused: nothing has acted on this yet. Press Play, or type `sim settle` to run until the cluster settles.';

/** kubectl's verbs that write to the cluster (rollout only with its writing subcommands). */
const WRITES = new Set([
  'create',
  'apply',
  'delete',
  'scale',
  'set',
  'patch',
  'label',
  'annotate',
  'taint',
  'cordon',
  'uncordon',
  'drain',
  'expose',
  'run',
  'replace',
  'edit',
  'autoscale',
]);
const ROLLOUT_WRITES = new Set(['undo', 'pause', 'resume', 'restart']);
/** `sim` lines that change the cluster (advance and settle move the clock themselves; time and log only read). */
const SIM_WRITES = new Set(['node', 'control-plane', 'crash', 'image', 'etcd', 'apiserver']);
/** kubectl flags whose value is the next word. */
const FLAG_VALUES = new Set([
  '-n',
  '--namespace',
  '--as',
  '--kubeconfig',
  '--context',
  '-l',
  '--selector',
  '-o',
  '--output',
  '-f',
  '--filename',
]);

/**
 * Whether a line that succeeded changed the cluster, so that with the clock paused nothing has acted
 * on it yet: a kubectl write (not a dry run) or a `sim` fault.
 */
export function changesCluster(line: string, exitCode: number): boolean {
  if (exitCode !== 0) return false;
  const w = line.trim().split(/\s+/);
  if (w[0] === 'sim') return SIM_WRITES.has(w[1] ?? '');
  if (w[0] !== 'kubectl' || w.some((x) => x === '--dry-run' || (x.startsWith('--dry-run=') && x !== '--dry-run=none')))
    return false;
  const words: string[] = [];
  for (let i = 1; i < w.length; i++) {
    if (FLAG_VALUES.has(w[i])) i++;
    else if (!w[i].startsWith('-')) words.push(w[i]);
  }
  if (words[0] === 'rollout') return ROLLOUT_WRITES.has(words[1] ?? '');
  return WRITES.has(words[0] ?? '');
}
