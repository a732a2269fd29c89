// The pod network's one way in: what kube-proxy's add-on registers (the pod-network instance and
// the commands it answers). Nothing else in the core imports this folder, so a later change can
// load it lazily with kube-proxy.
import type { CommandOutput, NetCommands, SimCluster } from '../cluster-types.ts';
import type { AnyComponentDef } from '../world.ts';
import { execInPod, type ExecArgs } from './exec.ts';
import { podNetworkDef, runNetJob, type NetProgram } from './pod-network.ts';
import { MAX_TRAFFIC, sendTraffic, type TrafficArgs } from './traffic.ts';

export { POD_NETWORK } from './pod-network.ts';
export { corednsAddon } from './coredns.ts';

/** The programs the network runs by name. */
const PROGRAMS: Record<string, NetProgram> = {
  exec: (w, net, args) => execInPod(w, net, args as ExecArgs),
  traffic: (w, net, args) => sendTraffic(w, net, args as TrafficArgs),
};

const fail = (msg: string): CommandOutput => ({ stdout: '', stderr: `${msg}\n`, exitCode: 1 });

/** Run a program in the network and return its words. */
function run(cluster: SimCluster, program: string, args: unknown): CommandOutput {
  const last = runNetJob(cluster, { type: 'program', program, args });
  return (
    last?.output ??
    fail('error: this cluster runs no pod network (a script turns it on with the header line "# addons: kube-proxy")')
  );
}

/** Parse `sim traffic`'s arguments: `<service> <n> [--from <node>] [-n <namespace>]`. */
function parseTrafficArgs(cluster: SimCluster, argv: string[]): TrafficArgs | string {
  const usage = 'error: usage: sim traffic <service> <n> [--from <node>] [-n <namespace>]';
  let namespace = 'default';
  let from: string | undefined;
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i];
    if (x === '--from' || x === '-n' || x === '--namespace') {
      const v = argv[++i];
      if (!v) return `error: ${x} needs a value`;
      if (x === '--from') from = v;
      else namespace = v;
    } else if (x.startsWith('--from=')) from = x.slice('--from='.length);
    else if (x.startsWith('-')) return `error: unknown flag: ${x}`;
    else pos.push(x);
  }
  if (pos.length !== 2) return usage;
  if (!/^\d+$/.test(pos[1]) || Number(pos[1]) < 1 || Number(pos[1]) > MAX_TRAFFIC)
    return `error: the number of requests must be between 1 and ${MAX_TRAFFIC}, not "${pos[1]}"`;
  // By default from the first worker node (the control-plane node, when there is one, sorts first otherwise).
  const nodes = Object.keys(cluster.world.state.components)
    .filter((k) => k.startsWith('kubelet/'))
    .map((k) => k.slice('kubelet/'.length))
    .sort();
  return {
    namespace,
    service: pos[0],
    n: Number(pos[1]),
    from: from ?? nodes.find((n) => n !== 'control-plane') ?? nodes[0] ?? '',
  };
}

/** What kube-proxy's add-on brings for the network: its instance's behaviour and the commands. */
export function podNetworkAddonParts(): { defs: AnyComponentDef[]; commands: NetCommands } {
  return {
    defs: [podNetworkDef(PROGRAMS)],
    commands: {
      exec: (cluster, target) => run(cluster, 'exec', target satisfies ExecArgs),
      traffic: (cluster, argv) => {
        const a = parseTrafficArgs(cluster, argv);
        return typeof a === 'string' ? fail(a) : run(cluster, 'traffic', a);
      },
    },
  };
}
