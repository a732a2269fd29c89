// The pod network as one instance, `pod-network`: the nodes' kernel tables the data path changes
// (conntrack, xt_recent lists, ephemeral ports) and its random stream, as plain data in the world.
// A command that sends traffic injects one event (an input, so replays and step-back send it
// again) and reads the answer its handler left; the handler runs the pure functions of this folder
// over the kubelets' and kube-proxies' state (ctx.components), never over API objects.
import { createRng } from '../rng.ts';
import type { ComponentDef, World } from '../world.ts';
import { connect, type ConnectRequest, type ConnectResult, type NetState, type NetWorld } from './data-path.ts';

/** The instance name. */
export const POD_NETWORK = 'pod-network';

/** What a command asks of the network: connections, or a program (curl, nslookup, sim traffic) run in it. */
export type NetJob =
  { type: 'connect'; requests: ConnectRequest[] } | { type: 'program'; program: string; args: unknown };

/** A program's answer: the text a terminal shows. */
export interface ProgramOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The pod network's state: the kernel tables, and the answer to the last job (read by the command that sent it). */
export interface PodNetworkState extends NetState {
  /** Jobs sent so far (ids the answers carry). */
  jobs: number;
  last?: { id: number; connections?: ConnectResult[]; output?: ProgramOutput };
}

/** A program run inside the network: pure over the world's instances and the network's state. */
export type NetProgram = (w: NetWorld, net: PodNetworkState, args: unknown) => ProgramOutput;

type NetEvent = { type: 'net-job'; job: NetJob };

/** The seed of the network's own stream: traffic moves none of the names the rest of the world draws. */
function netSeed(seed: number): number {
  return (seed ^ 0x6e657477) >>> 0;
}

/** The pod-network instance's behaviour, with the programs it can run by name. */
export function podNetworkDef(programs: Record<string, NetProgram>): ComponentDef<PodNetworkState> {
  return {
    name: POD_NETWORK,
    init(ctx) {
      const seed = (ctx.params as { seed?: number } | undefined)?.seed ?? 1;
      ctx.state = { rng: createRng(netSeed(seed)), nodes: {}, jobs: 0 };
      return ctx.state;
    },
    handle(event, ctx) {
      const ev = event as NetEvent;
      if (ev?.type !== 'net-job' || !ctx.components) return;
      const s = ctx.state;
      const id = ++s.jobs;
      const w: NetWorld = { now: ctx.now, components: ctx.components };
      if (ev.job.type === 'connect') {
        s.last = { id, connections: ev.job.requests.map((r) => connect(w, s, r)) };
      } else {
        const run = programs[ev.job.program];
        s.last = {
          id,
          output: run
            ? run(w, s, ev.job.args)
            : { stdout: '', stderr: `${ev.job.program}: not found\n`, exitCode: 127 },
        };
      }
    },
  };
}

/** The network's state in a world, when the cluster runs it. */
export function podNetworkStateOf(w: Pick<NetWorld, 'components'>): PodNetworkState | undefined {
  const e = w.components[POD_NETWORK];
  return e?.type === POD_NETWORK ? (e.state as PodNetworkState) : undefined;
}

/** What a job needs of the cluster: its world, and a way to run the events due now that records them as steps (a figure's timeline does). */
interface NetHost {
  readonly world: World;
  advance(ms: number): void;
}

/**
 * Send a job to the network and wait for its answer: the job is an input (recorded, replayed), and
 * the cluster runs the events due now, the job's among them (through `advance(0)`, so a figure's
 * timeline records them). Undefined when the cluster has no network.
 */
export function runNetJob(host: NetHost, job: NetJob): PodNetworkState['last'] | undefined {
  if (!podNetworkStateOf(host.world.state)) return undefined;
  // First run what is due now: a figure's timeline then forks at the present, before the input.
  host.advance(0);
  const s = podNetworkStateOf(host.world.state)!;
  // The handler numbers the jobs it runs (in the state, so a replay numbers them alike).
  const id = s.jobs + 1;
  host.world.inject(POD_NETWORK, { type: 'net-job', job } satisfies NetEvent);
  host.advance(0);
  const after = podNetworkStateOf(host.world.state);
  return after?.last?.id === id ? after.last : undefined;
}
