// Tab completion for the figures' terminal, as kubectl's own (cobra's) completion does it: commands,
// subcommands, resource types, flags, and object names read from the cluster. Pure: the names come
// from a callback, so completing never sends a request (a request would be a recorded input).
import { RESOURCE_ALIASES } from './resources.ts';

/** Object names of a resource in a namespace (the namespace is ignored for nodes and namespaces). */
type NamesOf = (resource: string, namespace: string) => string[];

/** What Tab does to a line: the line with the word completed as far as it is unambiguous, and every candidate. */
interface Completion {
  /** The line as typed (the text before the cursor). */
  line: string;
  /** The line after completion (the same line when nothing more is certain). */
  completed: string;
  /** Every candidate for the word under completion, sorted (shown when there are several). */
  candidates: string[];
}

/** What `help` prints in the terminal. */
export const TERMINAL_HELP = `This terminal runs against this figure's own simulated cluster: each command is a change the
figure records, so the timeline moves, Step back undoes it and the request log shows its requests.

  kubectl <command> ...   kubectl's commands (kubectl with no command lists them)
  sim <command> ...       time and faults: sim settle, sim advance 30s, sim node stop node-2 (sim help lists them)
  help                    this text
  clear                   empty the terminal

Tab completes commands, resource types, names and flags; Up and Down walk the history; Escape leaves
the terminal. Type "kubectl apply -f -" (or "kubectl create -f -") to paste a manifest, then apply it
with Ctrl+Enter.
`;

/** The resource types kubectl serves here, with the names it accepts for them (one table: kubectl/resources.ts). */
export const RESOURCE_TYPES: Record<string, string[]> = RESOURCE_ALIASES;

const GLOBAL_FLAGS = [
  '--namespace',
  '-n',
  '--as',
  '--as-group',
  '--kubeconfig',
  '--context',
  '--request-timeout',
  '--help',
  '-h',
];
const OUTPUTS = ['wide', 'name', 'yaml', 'json', 'jsonpath=', 'custom-columns='];

/** One kubectl command: its subcommands, its flags, and what its positional arguments are. */
interface CommandSpec {
  sub?: Record<string, CommandSpec>;
  flags?: string[];
  /** The first positional is a resource type, then names of it (or TYPE/NAME). */
  typed?: boolean;
  /** Positionals are names of this resource. */
  names?: string;
  /** Positionals are TYPE/NAME of these resource types. */
  slash?: string[];
}

const ROLLOUT_SUB = (flags: string[] = []): CommandSpec => ({ flags, slash: ['deployment'] });

/** kubectl's commands as this simulator runs them (kubectl.ts), with their flags. */
export const KUBECTL_COMMANDS: Record<string, CommandSpec> = {
  get: {
    typed: true,
    flags: [
      '--output',
      '-o',
      '--selector',
      '-l',
      '--all-namespaces',
      '-A',
      '--show-labels',
      '--field-selector',
      '--watch',
      '-w',
      '--watch-only',
      '--no-headers',
      '--sort-by',
      '--label-columns',
      '-L',
      '--output-watch-events',
    ],
  },
  describe: { typed: true, flags: ['--selector', '-l', '--all-namespaces', '-A', '--show-events'] },
  apply: { flags: ['--filename', '-f', '--dry-run', '--validate', '--server-side'] },
  create: {
    flags: ['--filename', '-f'],
    sub: {
      deployment: { flags: ['--image', '--replicas', '-r', '--port', '--dry-run', '--output', '-o'] },
      namespace: {},
      priorityclass: {
        flags: ['--value', '--global-default', '--description', '--preemption-policy', '--dry-run', '--output', '-o'],
      },
      poddisruptionbudget: {
        flags: ['--selector', '--min-available', '--max-unavailable', '--dry-run', '--output', '-o'],
      },
      service: {
        sub: { clusterip: { flags: ['--tcp', '--clusterip'] }, nodeport: { flags: ['--tcp', '--node-port'] } },
      },
    },
  },
  run: {
    flags: [
      '--image',
      '--restart',
      '--port',
      '--labels',
      '-l',
      '--command',
      '--pod-running-timeout',
      '--annotations',
      '--env',
      '--overrides',
      '--override-type',
    ],
  },
  expose: { slash: ['deployment'], typed: true, flags: ['--port', '--target-port', '--type', '--name', '--protocol'] },
  delete: {
    typed: true,
    flags: [
      '--selector',
      '-l',
      '--grace-period',
      '--force',
      '--now',
      '--wait',
      '--all',
      '--all-namespaces',
      '-A',
      '--filename',
      '-f',
      '--ignore-not-found',
      '--field-selector',
      '--cascade',
    ],
  },
  scale: { typed: true, flags: ['--replicas', '--current-replicas'] },
  set: {
    sub: {
      image: { slash: ['deployment', 'pod'] },
      env: {
        slash: ['deployment', 'pod'],
        flags: [
          '--containers',
          '-c',
          '--env',
          '-e',
          '--list',
          '--overwrite',
          '--all',
          '--selector',
          '-l',
          '--prefix',
          '--dry-run',
          '--output',
          '-o',
        ],
      },
      resources: {
        slash: ['deployment', 'pod'],
        flags: [
          '--containers',
          '-c',
          '--limits',
          '--requests',
          '--all',
          '--selector',
          '-l',
          '--dry-run',
          '--output',
          '-o',
        ],
      },
    },
  },
  rollout: {
    sub: {
      status: ROLLOUT_SUB(['--watch', '-w', '--timeout']),
      history: ROLLOUT_SUB(['--revision']),
      undo: ROLLOUT_SUB(['--to-revision', '--dry-run', '--output', '-o']),
      pause: ROLLOUT_SUB(),
      resume: ROLLOUT_SUB(),
      restart: ROLLOUT_SUB(),
    },
  },
  label: { typed: true, flags: ['--overwrite', '--selector', '-l', '--all'] },
  annotate: { typed: true, flags: ['--overwrite', '--selector', '-l', '--all'] },
  patch: { typed: true, flags: ['--patch', '-p', '--patch-file', '--type', '--subresource'] },
  logs: {
    names: 'pods',
    flags: [
      '--container',
      '-c',
      '--previous',
      '-p',
      '--tail',
      '--follow',
      '-f',
      '--all-containers',
      '--pod-running-timeout',
    ],
  },
  events: { flags: ['--all-namespaces', '-A', '--for', '--types', '--no-headers', '--watch', '-w', '--output', '-o'] },
  wait: { typed: true, flags: ['--for', '--timeout', '--selector', '-l', '--all'] },
  top: {
    sub: {
      pods: { names: 'pods', flags: ['--all-namespaces', '-A', '--containers', '--selector', '-l', '--sort-by'] },
      nodes: { names: 'nodes' },
    },
  },
  auth: {
    sub: { 'can-i': { flags: ['--all-namespaces', '-A', '--quiet', '-q', '--subresource', '--list', '--no-headers'] } },
  },
  cordon: { names: 'nodes', flags: ['--selector', '-l'] },
  uncordon: { names: 'nodes', flags: ['--selector', '-l'] },
  drain: {
    names: 'nodes',
    flags: [
      '--ignore-daemonsets',
      '--delete-emptydir-data',
      '--force',
      '--grace-period',
      '--timeout',
      '--disable-eviction',
    ],
  },
  taint: { typed: true, flags: ['--overwrite', '--selector', '-l', '--all'] },
  'cluster-info': {},
  'api-resources': { flags: ['--output', '-o', '--namespaced', '--no-headers'] },
  'api-versions': {},
  explain: { typed: true, flags: ['--recursive', '-R', '--api-version', '--max-depth', '--output', '-o'] },
  version: { flags: ['--client', '--output', '-o'] },
};

/** The CLI's `sim …` lines (sim-commands.ts): each word's choices in turn, `@resource` for names. */
const SIM_COMMANDS: Record<string, string[][]> = {
  advance: [['500ms', '30s', '1m', '5m']],
  settle: [],
  node: [['stop', 'start', 'partition', 'heal'], ['@nodes']],
  'control-plane': [
    ['stop', 'start'],
    ['apiserver', 'etcd', 'scheduler', 'controller-manager'],
  ],
  apiserver: [['latency'], ['0', '500ms', '2s']],
  etcd: [['full', 'ok']],
  crash: [['@pods']],
  image: [[], ['missing', 'available']],
  app: [['@pods'], ['crashes', 'leaks', 'unready', 'healthy']],
  time: [],
  log: [],
  rules: [['@nodes']],
  help: [],
};
const SIM_FLAGS: Record<string, string[]> = {
  crash: ['--oom', '--log', '-n', '--namespace'],
  app: ['--log', '-n', '--namespace'],
  log: ['--since', '-o'],
  rules: ['--iptables', '--nftables'],
};

/** The resource a type argument names (`po`, `deployment.apps`), or undefined. */
function resourceOf(type: string): string | undefined {
  const t = type.toLowerCase().replace(/\.(apps|discovery\.k8s\.io|coordination\.k8s\.io|events\.k8s\.io)$/, '');
  for (const [r, aliases] of Object.entries(RESOURCE_TYPES)) if (r === t || aliases.includes(t)) return r;
  return undefined;
}

/** The value of -n/--namespace among the words, or "default". */
function namespaceIn(words: string[]): string {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if ((w === '-n' || w === '--namespace') && words[i + 1]) return words[i + 1];
    if (w.startsWith('--namespace=')) return w.slice('--namespace='.length);
  }
  return 'default';
}

/** Flags that take their value as the next word (so that word is no positional). */
const VALUED =
  /^(-[nolLcfpre]|--(namespace|output|selector|as|as-group|kubeconfig|context|request-timeout|field-selector|sort-by|label-columns|image|replicas|port|target-port|type|name|protocol|grace-period|timeout|for|types|patch|patch-file|subresource|tail|container|revision|to-revision|current-replicas|tcp|node-port|clusterip|restart|labels|cascade|dry-run|validate|chunk-size|since|log|pod-running-timeout|annotations|env|overrides|override-type|limits|requests|containers|prefix))$/;

/** Positional words after the command path (flags and their values left out). */
function positionals(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w.startsWith('-')) {
      if (VALUED.test(w)) i++;
      continue;
    }
    out.push(w);
  }
  return out;
}

/** The candidates for the word being typed in a `kubectl …` line (`done` are the words before it). */
function kubectlCandidates(done: string[], word: string, names: NamesOf): string[] {
  const prev = done[done.length - 1];
  const ns = namespaceIn(done);
  if (prev === '-n' || prev === '--namespace') return names('namespaces', '');
  if (prev === '-o' || prev === '--output') return OUTPUTS;
  if (prev && VALUED.test(prev)) return [];
  // The command path: kubectl's command, then its subcommands (global flags may come first).
  const pos = positionals(done);
  let spec: CommandSpec | undefined;
  let specs: Record<string, CommandSpec> = KUBECTL_COMMANDS;
  let used = 0;
  while (used < pos.length && Object.hasOwn(specs, pos[used])) {
    spec = specs[pos[used++]];
    if (!spec.sub) break;
    specs = spec.sub;
  }
  if (word.startsWith('-'))
    return [...(spec?.flags ?? []), ...GLOBAL_FLAGS]
      .map((f) => (f.startsWith('--') && VALUED.test(f) ? f + '=' : f))
      .filter((f, i, a) => a.indexOf(f) === i);
  if (!spec) return used === 0 && pos.length === 0 ? Object.keys(KUBECTL_COMMANDS) : [];
  const args = pos.slice(used);
  if (spec.sub && args.length === 0 && specs === spec.sub) return Object.keys(spec.sub);
  if (spec.names) return names(spec.names, ns);
  if (spec.slash && (word.includes('/') || !spec.typed)) {
    const slash = word.indexOf('/');
    if (slash < 0) return spec.slash.map((t) => `${t}/`);
    const r = resourceOf(word.slice(0, slash));
    return r ? names(r, ns).map((n) => `${word.slice(0, slash)}/${n}`) : [];
  }
  if (spec.typed) {
    if (args.length === 0) {
      const slash = word.indexOf('/');
      if (slash >= 0) {
        const r = resourceOf(word.slice(0, slash));
        return r ? names(r, ns).map((n) => `${word.slice(0, slash)}/${n}`) : [];
      }
      return Object.keys(RESOURCE_TYPES);
    }
    const r = resourceOf(args[0].split(',')[0]);
    return r && !args[0].includes('/') ? names(r, ns) : [];
  }
  return [];
}

/** The candidates for the word being typed in a `sim …` line. */
function simCandidates(done: string[], word: string, names: NamesOf): string[] {
  const args = done.slice(1);
  if (args.length === 0) return Object.keys(SIM_COMMANDS);
  const cmd = args[0];
  if (!Object.hasOwn(SIM_COMMANDS, cmd)) return [];
  if (word.startsWith('-')) return SIM_FLAGS[cmd] ?? [];
  const slots = SIM_COMMANDS[cmd];
  const at = positionals(args.slice(1)).length;
  const slot = slots[at] ?? [];
  return slot.flatMap((c) => (c.startsWith('@') ? names(c.slice(1), namespaceIn(args)) : [c]));
}

/** The longest prefix all the strings share. */
function commonPrefix(xs: string[]): string {
  if (!xs.length) return '';
  let p = xs[0];
  for (const x of xs) while (!x.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/**
 * Completes the last word of a terminal line (the text before the cursor): one candidate is filled in
 * with a space after it (none after `=` or `/`), several extend the word to what they share.
 */
export function complete(line: string, names: NamesOf): Completion {
  const m = /(\S*)$/.exec(line)!;
  const word = m[1];
  const done = line
    .slice(0, line.length - word.length)
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  let all: string[];
  try {
    if (done.length === 0) all = ['kubectl', 'sim', 'help', 'clear'];
    else if (done[0] === 'kubectl') all = kubectlCandidates(done.slice(1), word, names);
    else if (done[0] === 'sim') all = simCandidates(done, word, names);
    else all = [];
  } catch {
    all = [];
  }
  // `--flag=` completes as a whole; a word already past the `=` is a value, which only -o knows.
  const candidates = [...new Set(all.filter((c) => c.startsWith(word)))].sort();
  const base = line.slice(0, line.length - word.length);
  if (candidates.length === 1) {
    const c = candidates[0];
    return { line, completed: base + c + (/[=/]$/.test(c) ? '' : ' '), candidates };
  }
  const prefix = commonPrefix(candidates);
  return { line, completed: prefix.length > word.length ? base + prefix : line, candidates };
}
