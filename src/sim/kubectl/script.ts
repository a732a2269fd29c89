// A script of `kubectl …` and `sim …` lines, run in order against one cluster: the engine of the
// headless CLI (scripts/sim.ts), pure so the browser terminal can run the same scripts.
import type { NodeCapacity, SimCluster } from '../cluster-types.ts';
import { runKubectl, type KubectlHost, type KubectlResult } from './kubectl.ts';
import { runSimCommand } from './sim-commands.ts';
import { errorLine } from './plain-error.ts';

/** One executed line: where it was, what it was, what it printed. */
interface ScriptStep extends KubectlResult {
  line: number;
  command: string;
}

/** Split a script into commands: `#` comments and blank lines dropped, `<<EOF … EOF` bodies attached. */
export function parseScript(text: string): { line: number; command: string; stdin?: string; error?: string }[] {
  const lines = text.split(/\r?\n/);
  const out: { line: number; command: string; stdin?: string; error?: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    let command = lines[i].trim();
    if (!command || command.startsWith('#')) continue;
    const at = i + 1;
    const here = /<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1\s*$/.exec(command);
    if (!here) {
      out.push({ line: at, command });
      continue;
    }
    command = command.slice(0, here.index).trim();
    const body: string[] = [];
    let closed = false;
    for (i++; i < lines.length; i++) {
      if (lines[i].trim() === here[2]) {
        closed = true;
        break;
      }
      body.push(lines[i]);
    }
    out.push({
      line: at,
      command,
      stdin: body.join('\n') + '\n',
      ...(closed
        ? {}
        : { error: `error: here-document at line ${at} delimited by end-of-file (wanted \`${here[2]}')` }),
    });
  }
  return out;
}

/**
 * What a script's header asks of its cluster: `# addons: kube-proxy` (or `kube-proxy=nftables`), and
 * `# nodes: cpu=1 memory=3840Mi`, the size of every worker (the oracle's hollow nodes' size).
 */
export interface ScriptHeader {
  addons: string[];
  nodes?: NodeCapacity;
}

/**
 * The header of a script: `# key: value` lines among the comments before its first command. Only
 * `addons` (a comma-separated list) and `nodes` are read; other comments are the script's prose.
 * A `nodes` line that does not give both cpu and memory (and nothing else) throws.
 */
export function scriptHeader(text: string): ScriptHeader {
  const header: ScriptHeader = { addons: [] };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (!line.startsWith('#')) break;
    const m = /^#\s*addons:\s*(.*)$/.exec(line);
    if (m)
      header.addons.push(
        ...m[1]
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
      );
    const n = /^#\s*nodes:\s*(.*)$/.exec(line);
    if (n) header.nodes = nodeSize(n[1]);
  }
  return header;
}

/** `cpu=1 memory=3840Mi` as a node size; throws on a missing, repeated or unknown key. */
function nodeSize(text: string): NodeCapacity {
  const size: Partial<NodeCapacity> = {};
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const [key, value] = word.split('=', 2);
    if ((key !== 'cpu' && key !== 'memory') || !value || size[key] !== undefined)
      throw new Error(`bad "# nodes:" header "${text}" (want: cpu=<quantity> memory=<quantity>)`);
    size[key] = value;
  }
  if (size.cpu === undefined || size.memory === undefined)
    throw new Error(`bad "# nodes:" header "${text}" (want: cpu=<quantity> memory=<quantity>)`);
  return { cpu: size.cpu, memory: size.memory };
}

/** Run one script line (kubectl or sim); anything else is an error, never an exception. */
export function runLine(cluster: SimCluster, command: string, stdin?: string, host: KubectlHost = {}): KubectlResult {
  try {
    if (/^kubectl(\s|$)/.test(command)) return runKubectl(cluster, command, stdin, host);
    if (/^sim(\s|$)/.test(command)) return runSimCommand(cluster, command);
    return {
      stdout: '',
      stderr: `error: unknown command "${command.split(/\s+/)[0]}": script lines start with kubectl or sim\n`,
      exitCode: 1,
    };
  } catch (e) {
    return { stdout: '', stderr: `${errorLine(e)}\n`, exitCode: 1 };
  }
}

/** Run a whole script; `onStep` sees each result as it is produced. Exit code 1 if any line failed. */
export function runScript(
  cluster: SimCluster,
  text: string,
  host: KubectlHost = {},
  onStep?: (s: ScriptStep) => void,
): { steps: ScriptStep[]; exitCode: number } {
  const steps: ScriptStep[] = [];
  for (const c of parseScript(text)) {
    let res = runLine(cluster, c.command, c.stdin, host);
    if (c.error) res = { ...res, stderr: c.error + '\n' + res.stderr, exitCode: 1 };
    const step = { line: c.line, command: c.command, ...res };
    steps.push(step);
    onStep?.(step);
  }
  return { steps, exitCode: steps.some((s) => s.exitCode !== 0) ? 1 : 0 };
}
