// The `sim …` commands of the headless CLI and the browser terminal: time, faults and the request
// log. Pure: they act on a SimCluster and return text, like runKubectl.
import type { AppBehaviour, ControlPlaneComponent, NodeAction, SimCluster } from '../cluster-types.ts';
import { formatRecord } from '../view/format-record.ts';
import { parseDurationMs } from '../util/parse-duration.ts';
import { appHealth } from '../app-health.ts';
import type { KubectlResult } from './kubectl.ts';
import { TokenizeError, tokenize } from './tokenize.ts';
import { errorLine } from './plain-error.ts';

/** Simulated time as the CLI prints it: `1m30.250s`, `2h0m5.000s`, `0.000s`. */
export function formatSimTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = ((ms % 60_000) / 1000).toFixed(3);
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}

/** Usage text of the sim commands. */
const SIM_USAGE = `sim commands:
  sim advance <duration>                          run simulated time forward (500ms, 30s, 5m, 1h2m)
  sim settle [<max>]                              run until only recurring timers remain (default 60s)
  sim node stop|start|partition|heal <node>       power a node off/on, cut it off from the control plane or heal the cut
  sim control-plane stop|start [apiserver|etcd|scheduler|controller-manager]
  sim apiserver latency <duration>                add latency to every watch delivery (0 removes it)
  sim etcd full|ok                                fill etcd (writes refused) or free it
  sim crash <pod> [--oom] [--log <text>] [-n <namespace>]
                                                  crash a pod's first container (--log: its last words, for kubectl logs -p)
  sim image <image> missing|available             make an image unpullable, or pullable again
  sim app <pod> crashes|leaks|unready|healthy [--log <text>] [-n <namespace>]
                                                  a pod's app: exits 1, or is OOM-killed, after each start; fails its readiness probe; runs
  sim time                                        print the simulated time
  sim log [--since <revision>] [-o json]          print the request log
  sim rules <node> [--iptables|--nftables]        print the rules the node's kube-proxy last wrote (iptables-save -t nat, or nft list table ip kube-proxy)
  sim traffic <service> <n> [--from <node>] [-n <namespace>]
                                                  send n requests from a node to a Service through its rules; count them per endpoint
`;

const COMPONENTS: ControlPlaneComponent[] = ['apiserver', 'etcd', 'scheduler', 'controller-manager'];
const NODE_ACTIONS: NodeAction[] = ['stop', 'start', 'partition', 'heal'];
const APP_BEHAVIOURS: AppBehaviour[] = ['crashes', 'leaks', 'unready', 'healthy'];
const APP_USAGE = 'error: usage: sim app <pod> crashes|leaks|unready|healthy [--log <text>] [-n <namespace>]';

class SimError extends Error {}

/**
 * The most simulated time one line may run (`sim advance`, `sim settle <max>`, a drain's --timeout):
 * an idle 3-node cluster takes about 0.15 s a simulated hour in `npm run sim`, so a day is a few
 * seconds there; a longer run would hold the page's worker for minutes and its recording would grow.
 */
export const MAX_LINE_MS = 24 * 3_600_000;

/** The one-line refusal of a run longer than MAX_LINE_MS. */
function tooLong(what: string, asked: string): string {
  return `error: ${what} runs at most 24h of simulated time per line (asked for ${asked}); run it again to go further`;
}

function duration(s: string | undefined, what: string): number {
  if (s === undefined) throw new SimError(`error: ${what} needs a duration (500ms, 30s, 5m, 1h2m)`);
  const ms = parseDurationMs(s);
  if (ms === undefined) throw new SimError(`error: invalid duration "${s}" (use 500ms, 30s, 5m, 1h2m)`);
  return ms;
}

/** The words of `sim crash` and `sim app`: positionals, -n/--namespace, --log TEXT and (crash only) --oom. */
function podLine(rest: string[], oomFlag: boolean): { pos: string[]; ns: string; log?: string; oom: boolean } {
  let ns = 'default';
  let oom = false;
  let log: string | undefined;
  const pos: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (oomFlag && rest[i] === '--oom') oom = true;
    else if (rest[i] === '--log' || rest[i].startsWith('--log=')) {
      log = rest[i] === '--log' ? rest[++i] : rest[i].slice('--log='.length);
      if (log === undefined) throw new SimError('error: --log needs the text the app writes as it crashes');
    } else if (rest[i] === '-n' || rest[i] === '--namespace') {
      ns = rest[++i] ?? '';
      if (!ns) throw new SimError('error: -n needs a namespace');
    } else if (rest[i].startsWith('-')) throw new SimError(`error: unknown flag: ${rest[i]}`);
    else pos.push(rest[i]);
  }
  return { pos, ns, log, oom };
}

/** A pod named `ns/name`, or `name` in the -n namespace. */
function podOf(word: string, ns: string): [string, string] {
  return word.includes('/') ? (word.split('/', 2) as [string, string]) : [ns, word];
}

/** Run one `sim …` line (the `sim` word is optional). */
export function runSimCommand(cluster: SimCluster, argv: string | string[]): KubectlResult {
  let out = '';
  try {
    let a: string[];
    try {
      a = typeof argv === 'string' ? tokenize(argv) : [...argv];
    } catch (e) {
      if (e instanceof TokenizeError) throw new SimError(`error: ${e.message}`);
      throw e;
    }
    if (a[0] === 'sim') a.shift();
    const [cmd, ...rest] = a;
    switch (cmd) {
      case 'advance': {
        if (rest.length !== 1) throw new SimError('error: usage: sim advance <duration>');
        const ms = duration(rest[0], 'sim advance');
        if (ms > MAX_LINE_MS) throw new SimError(tooLong('sim advance', rest[0]));
        cluster.advance(ms);
        break;
      }
      case 'settle': {
        if (rest.length > 1) throw new SimError('error: usage: sim settle [<max>]');
        const max = rest.length ? duration(rest[0], 'sim settle') : undefined;
        if (max !== undefined && max > MAX_LINE_MS) throw new SimError(tooLong('sim settle', rest[0]));
        // A running cluster always has work queued (heartbeats, status loops): settling up to max is the point.
        cluster.settle(max);
        break;
      }
      case 'node': {
        const [action, name] = rest;
        if (!NODE_ACTIONS.includes(action as NodeAction) || !name || rest.length !== 2)
          throw new SimError('error: usage: sim node stop|start|partition|heal <node>');
        cluster.node(name, action as NodeAction);
        break;
      }
      case 'control-plane': {
        const [action, comp] = rest;
        if ((action !== 'stop' && action !== 'start') || rest.length > 2)
          throw new SimError(
            'error: usage: sim control-plane stop|start [apiserver|etcd|scheduler|controller-manager]',
          );
        if (comp !== undefined && !COMPONENTS.includes(comp as ControlPlaneComponent))
          throw new SimError(
            `error: unknown control-plane component "${comp}" (apiserver, etcd, scheduler, controller-manager)`,
          );
        cluster.controlPlane(action, comp as ControlPlaneComponent | undefined);
        break;
      }
      case 'apiserver': {
        if (rest[0] !== 'latency' || rest.length !== 2)
          throw new SimError('error: usage: sim apiserver latency <duration>');
        cluster.apiserverLatency(duration(rest[1], 'sim apiserver latency'));
        break;
      }
      case 'etcd': {
        if ((rest[0] !== 'full' && rest[0] !== 'ok') || rest.length !== 1)
          throw new SimError('error: usage: sim etcd full|ok');
        cluster.etcd(rest[0]);
        break;
      }
      case 'crash': {
        const { pos, ns, log, oom } = podLine(rest, true);
        if (pos.length !== 1)
          throw new SimError('error: usage: sim crash <pod> [--oom] [--log <text>] [-n <namespace>]');
        const [pns, pname] = podOf(pos[0], ns);
        const opts =
          oom || log !== undefined
            ? { ...(oom ? { oom: true } : {}), ...(log !== undefined ? { log } : {}) }
            : undefined;
        if (!cluster.crash(pns, pname, opts))
          throw new SimError(`error: pod "${pname}" has no running container to crash in namespace "${pns}"`);
        break;
      }
      case 'app': {
        const { pos, ns, log } = podLine(rest, false);
        if (pos.length !== 2 || !APP_BEHAVIOURS.includes(pos[1] as AppBehaviour)) throw new SimError(APP_USAGE);
        if (log !== undefined && pos[1] !== 'crashes')
          throw new SimError('error: --log is the last words of an app that crashes');
        const [pns, pname] = podOf(pos[0], ns);
        if (!cluster.app(pns, pname, appHealth(pos[1] as AppBehaviour, log)))
          throw new SimError(`error: pod "${pname}" runs on no node in namespace "${pns}"`);
        break;
      }
      case 'image': {
        if (rest.length !== 2 || (rest[1] !== 'missing' && rest[1] !== 'available'))
          throw new SimError('error: usage: sim image <image> missing|available');
        cluster.image(rest[0], rest[1]);
        break;
      }
      case 'time':
        if (rest.length) throw new SimError('error: usage: sim time');
        out += `t=${formatSimTime(cluster.now)}\n`;
        break;
      case 'log': {
        let since: number | undefined;
        let json = false;
        for (let i = 0; i < rest.length; i++) {
          if (rest[i] === '--since') {
            const v = rest[++i];
            if (v === undefined || !/^\d+$/.test(v)) throw new SimError('error: --since needs a revision number');
            since = Number(v);
          } else if (rest[i] === '-o' || rest[i] === '--output') {
            if (rest[++i] !== 'json') throw new SimError('error: sim log supports only -o json');
            json = true;
          } else if (rest[i] === '-ojson' || rest[i] === '--output=json' || rest[i] === '-o=json') json = true;
          else throw new SimError(`error: unknown argument "${rest[i]}" for "sim log"`);
        }
        let recs = cluster.log;
        if (since !== undefined) {
          // Everything after the first record that moved the store past the revision.
          const i = recs.findIndex((r) => r.revision !== undefined && r.revision > since);
          recs = i < 0 ? [] : recs.slice(i);
        }
        for (const r of recs) out += (json ? JSON.stringify(r) : formatRecord(r)) + '\n';
        break;
      }
      case 'rules': {
        const flags = rest.filter((r) => r.startsWith('-'));
        const pos = rest.filter((r) => !r.startsWith('-'));
        const bad = flags.find((f) => f !== '--nftables' && f !== '--iptables');
        if (bad) throw new SimError(`error: unknown flag: ${bad}`);
        if (pos.length !== 1 || flags.length > 1)
          throw new SimError('error: usage: sim rules <node> [--iptables|--nftables]');
        const node = pos[0];
        // The rules come from the add-on's own reader: a cluster without kube-proxy never loads its code.
        const mode = flags[0] === '--nftables' ? 'nftables' : flags[0] === '--iptables' ? 'iptables' : undefined;
        const rules = cluster.addons?.find((a) => a.rules)?.rules?.(cluster.world, node, mode);
        if (rules?.error) throw new SimError(`error: ${rules.error}`);
        if (!rules)
          throw new SimError(
            `error: kube-proxy does not run on node "${node}" (a script turns it on with the header line "# addons: kube-proxy")`,
          );
        if (rules.text === undefined)
          throw new SimError(`error: kube-proxy on node "${node}" has not synced its rules yet`);
        out += rules.text;
        break;
      }
      case 'traffic': {
        // The pod network comes with kube-proxy's add-on: a cluster without it never loads its code.
        const net = cluster.addons?.find((a) => a.net)?.net;
        if (!net)
          throw new SimError(
            'error: this cluster runs no pod network (a script turns it on with the header line "# addons: kube-proxy")',
          );
        const res = net.traffic(cluster, rest);
        if (res.exitCode !== 0) throw new SimError(res.stderr.replace(/\n$/, ''));
        out += res.stdout;
        break;
      }
      case undefined:
      case 'help':
        out += SIM_USAGE;
        break;
      default:
        throw new SimError(`error: unknown command "${cmd}" for "sim"\n${SIM_USAGE}`);
    }
    return { stdout: out, stderr: '', exitCode: 0 };
  } catch (e) {
    const msg = e instanceof SimError ? e.message : errorLine(e);
    return { stdout: out, stderr: msg.endsWith('\n') ? msg : msg + '\n', exitCode: 1 };
  }
}
