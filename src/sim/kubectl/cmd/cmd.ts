// The root command (pkg/cmd/cmd.go): global flags before the command, the command table, the real
// commands this simulator leaves out, and runKubectl, the entry every caller uses.
import type { SimCluster } from '../../cluster-types.ts';
import { installKubectlExtras } from '../../kubectl-extras.ts';
import { TokenizeError, tokenize } from '../tokenize.ts';
import { errorLine } from '../plain-error.ts';
import { cmdAnnotate } from './annotate.ts';
import { cmdApiResources, cmdApiVersions } from './apiresources.ts';
import { cmdApply } from './apply.ts';
import { cmdAuth } from './auth.ts';
import { cmdClusterInfo } from './clusterinfo.ts';
import { cmdCreate } from './create.ts';
import { cmdDelete } from './delete.ts';
import { cmdDescribe } from './describe.ts';
import { cmdCordon, cmdDrain } from './drain.ts';
import { cmdEvents } from './events.ts';
import { cmdExec } from './exec.ts';
import { cmdExplain } from './explain.ts';
import { cmdExpose } from './expose.ts';
import { GLOBAL_BOOL, GLOBAL_VALUED } from './flags.ts';
import { cmdGet } from './get.ts';
import { KUBECTL_HELP } from '../help/kubectl.ts';
import { cmdLabel } from './label.ts';
import { cmdLogs } from './logs.ts';
import { cmdPatch } from './patch.ts';
import { cmdRollout } from './rollout.ts';
import { cmdRun } from './run.ts';
import { cmdScale } from './scale.ts';
import { cmdSet } from './set.ts';
import { cmdTaint } from './taint.ts';
import { cmdTop } from './top.ts';
import { Fail, Run, type KubectlHost, type KubectlResult } from './util.ts';
import { cmdVersion } from './version.ts';
import { cmdWait } from './wait.ts';

const COMMANDS: Record<string, (r: Run, argv: string[]) => void> = {
  get: cmdGet,
  describe: cmdDescribe,
  apply: cmdApply,
  create: cmdCreate,
  scale: cmdScale,
  set: cmdSet,
  rollout: cmdRollout,
  delete: cmdDelete,
  cordon: (r, a) => cmdCordon(r, a, true),
  uncordon: (r, a) => cmdCordon(r, a, false),
  drain: cmdDrain,
  taint: cmdTaint,
  label: cmdLabel,
  expose: cmdExpose,
  exec: cmdExec,
  'cluster-info': cmdClusterInfo,
  version: cmdVersion,
  events: cmdEvents,
  wait: cmdWait,
  logs: cmdLogs,
  run: cmdRun,
  annotate: cmdAnnotate,
  patch: cmdPatch,
  top: cmdTop,
  'api-resources': cmdApiResources,
  'api-versions': cmdApiVersions,
  auth: cmdAuth,
  explain: cmdExplain,
};

/**
 * Real kubectl commands the simulator leaves out, with why: a reader who types one learns it exists
 * and what to use here instead, rather than being told there is no such command.
 */
const NOT_SIMULATED: Record<string, string> = {
  exec: 'the simulated containers run no processes to start a shell or a command in (kubectl logs and describe pod show what they do)',
  attach: 'the simulated containers have no terminal to attach to (kubectl logs shows their output)',
  'port-forward': 'there is no network between your machine and the simulated pods',
  proxy: 'there is no network between your machine and the simulated API server',
  cp: 'the simulated containers have no file systems',
  debug: 'the simulated containers run no processes to add a debugging container beside',
  edit: 'there is no editor here; use kubectl patch, kubectl set image or kubectl apply -f - instead',
  replace: 'use kubectl apply -f - instead',
  autoscale: 'the cluster runs no metrics-server and no HorizontalPodAutoscaler controller',
  certificate: 'the simulated cluster has no certificate signing',
  config: 'the simulator has one cluster and one user (kubernetes-admin); there is no kubeconfig to change',
  plugin: 'the simulator has no plugins',
  kustomize: 'apply a manifest with kubectl apply -f - instead',
  diff: "real kubectl diff runs your machine's diff program over two temporary directories, and there is no machine here; kubectl apply --dry-run=server -o yaml shows what applying would leave",
  kuberc: 'the simulator reads no preferences file (kuberc): type the flags out',
};

/**
 * kubectl's root commands in the order cmd.go adds them (its help groups, then config, plugin,
 * version, api-versions, api-resources, options, kuberc): cobra suggests from this list, in this
 * order. alpha is added too, but without subcommands (none in 1.37) it is no available command,
 * which cobra never suggests.
 */
const ROOT_COMMANDS = [
  'create',
  'expose',
  'run',
  'set',
  'explain',
  'get',
  'edit',
  'delete',
  'rollout',
  'scale',
  'autoscale',
  'certificate',
  'cluster-info',
  'top',
  'cordon',
  'uncordon',
  'drain',
  'taint',
  'describe',
  'logs',
  'attach',
  'exec',
  'port-forward',
  'proxy',
  'cp',
  'auth',
  'debug',
  'events',
  'diff',
  'apply',
  'patch',
  'replace',
  'wait',
  'kustomize',
  'label',
  'annotate',
  'completion',
  'config',
  'plugin',
  'version',
  'api-versions',
  'api-resources',
  'options',
  'kuberc',
];

/** What `kubectl alpha` (any arguments) says when the build has no alpha commands (alpha.go). */
const NO_ALPHA = 'No alpha commands are available in this version of kubectl\n';

/** cobra's ld: Levenshtein distance, here with case ignored as SuggestionsFor asks. */
function levenshtein(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** cobra's SuggestionsFor: commands within distance 2 (SuggestionsMinimumDistance) or starting with what was typed. */
function suggestionsFor(typed: string): string[] {
  return ROOT_COMMANDS.filter((c) => levenshtein(typed, c) <= 2 || c.startsWith(typed.toLowerCase()));
}

/** cobra's unknown-command error, with its "Did you mean this?" list. */
function unknownCommand(cmd: string): string {
  const s = suggestionsFor(cmd);
  return (
    `error: unknown command "${cmd}" for "kubectl"` +
    (s.length ? `\n\nDid you mean this?\n${s.map((x) => `\t${x}\n`).join('')}` : '')
  );
}

/** Run one kubectl command line against the cluster (the `kubectl` word is optional). */
export function runKubectl(
  cluster: SimCluster,
  argv: string | string[],
  stdin?: string,
  host: KubectlHost = {},
): KubectlResult {
  // What only kubectl sends (dry runs, access reviews, JSON patches) is served by code that lives with kubectl.
  installKubectlExtras(cluster);
  const r = new Run(cluster, stdin, host);
  try {
    let args: string[];
    try {
      args = typeof argv === 'string' ? tokenize(argv) : [...argv];
    } catch (e) {
      if (e instanceof TokenizeError) throw new Fail(`error: ${e.message}`);
      throw e;
    }
    if (args[0] === 'kubectl') args.shift();
    // Global flags may come before the command (`kubectl -n kube-system get pods`).
    const pre: string[] = [];
    while (args.length && args[0].startsWith('-')) {
      const a = args.shift()!;
      const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
      // kubectl's plugin handler reads the first word that is no flag it knows as a command name.
      if (!GLOBAL_VALUED.has(name) && !GLOBAL_BOOL.has(name) && !/^-n./.test(a))
        throw new Fail(`Error: flags cannot be placed before plugin name: ${a}`);
      pre.push(a);
      if (GLOBAL_VALUED.has(a)) {
        if (!args.length)
          throw new Fail(
            `error: flag needs an argument: ${a.startsWith('--') ? a : `'${a.slice(1)}' in ${a}`}\nSee 'kubectl --help' for usage.`,
          );
        pre.push(args.shift()!);
      }
    }
    const cmd = args.shift();
    if (cmd === undefined) {
      r.print(KUBECTL_HELP);
      return { stdout: r.out, stderr: r.err, exitCode: 0 };
    }
    // alpha has no subcommands in 1.37: hidden, it still answers (on stderr, as cobra's Println does).
    if (cmd === 'alpha') {
      r.warn(NO_ALPHA);
      return { stdout: r.out, stderr: r.err, exitCode: 0 };
    }
    // exec runs the network's programs, so only where a pod network runs (kube-proxy's add-on brings it).
    const fn =
      Object.hasOwn(COMMANDS, cmd) && (cmd !== 'exec' || cluster.addons?.some((a) => a.net))
        ? COMMANDS[cmd]
        : undefined;
    if (!fn && Object.hasOwn(NOT_SIMULATED, cmd))
      throw new Fail(`error: kubectl ${cmd} is a real command that this simulator does not run: ${NOT_SIMULATED[cmd]}`);
    if (!fn) throw new Fail(unknownCommand(cmd));
    // After `--` everything is the command's (kubectl exec): global flags typed before go first.
    fn(r, pre.length && args.includes('--') ? [...pre, ...args] : [...args, ...pre]);
  } catch (e) {
    if (e instanceof Fail) r.error(e.message);
    else r.error(errorLine(e));
  }
  return { stdout: r.out, stderr: r.err, exitCode: r.exitCode ?? (r.failed ? 1 : 0) };
}
