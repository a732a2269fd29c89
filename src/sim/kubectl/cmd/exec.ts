// kubectl exec (pkg/cmd/exec): a command run in a pod's container, here one of the network
// programs the pod network answers (curl, wget, nslookup, cat /etc/resolv.conf). kubectl reads
// the pod through the API server, which opens the stream to the node's kubelet.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { labelSelectorAsString } from '../../api/labels.ts';
import { parseTime } from '../../util/time.ts';
import { kindInfo } from '../resources.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import { Fail, kindOrFail, list, type Run, type Stored } from './util.ts';

const USAGE =
  "error: expected 'exec (POD | TYPE/NAME) -- COMMAND [args...]'.\nPOD or TYPE/NAME is a required argument for the exec command\nSee 'kubectl exec -h' for help and examples";

function readySince(p: Pod): number | undefined {
  const c = (p.status?.conditions ?? []).find((x) => x.type === 'Ready');
  return c?.status === 'True' ? parseTime(c.lastTransitionTime) : undefined;
}

/**
 * podutils.ActivePods' Less, reversed (GetFirstPod's order): assigned before unassigned, Running
 * before Unknown before Pending, ready before not, ready longer first, fewer restarts, older first.
 */
function mostActiveFirst(a: Pod, b: Pod): number {
  const assigned = (p: Pod) => (p.spec?.nodeName ? 1 : 0);
  if (assigned(a) !== assigned(b)) return assigned(b) - assigned(a);
  const phase: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
  const pa = phase[a.status?.phase ?? ''] ?? 0;
  const pb = phase[b.status?.phase ?? ''] ?? 0;
  if (pa !== pb) return pb - pa;
  const ra = readySince(a);
  const rb = readySince(b);
  if ((ra !== undefined) !== (rb !== undefined)) return ra !== undefined ? -1 : 1;
  if (ra !== undefined && rb !== undefined && ra !== rb) return ra - rb;
  const restarts = (p: Pod) => Math.max(0, ...(p.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
  if (restarts(a) !== restarts(b)) return restarts(a) - restarts(b);
  return (
    (parseTime(a.metadata?.creationTimestamp) ?? Infinity) - (parseTime(b.metadata?.creationTimestamp) ?? Infinity)
  );
}

/** kubectl exec POD [-c CONTAINER] [-i] [-t] [-q] -- COMMAND [args...]. */
export function cmdExec(r: Run, argv: string[]): void {
  const dash = argv.indexOf('--');
  const mine = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  const p = parse(r, 'exec', mine, {
    container: { kind: 'string', short: 'c' },
    stdin: { kind: 'bool', short: 'i' },
    tty: { kind: 'bool', short: 't' },
    quiet: { kind: 'bool', short: 'q' },
  });
  if (!p.args.length) throw new Fail(USAGE);
  if (p.args.length > 1)
    throw new Fail(
      "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl exec -h' for help and examples",
    );
  if (!command.length)
    throw new Fail(
      "error: you must specify at least one command for the container\nSee 'kubectl exec -h' for help and examples",
    );
  let name = p.args[0];
  const ns = nsOf(p);
  if (name.includes('/')) {
    // AttachablePodForObject: a workload's most active pod (GetFirstPod), without a word about which.
    const [type, rest] = [name.slice(0, name.indexOf('/')), name.slice(name.indexOf('/') + 1)];
    const kind = kindOrFail(type, r);
    if (kind.resource === 'pods') name = rest;
    else if (kind.resource === 'deployments' || kind.resource === 'replicasets') {
      const owner = r.must<Deployment | ReplicaSet>({
        verb: 'get',
        resource: kind.resource,
        namespace: ns,
        name: rest,
      });
      const pods = list<Stored<Pod>>(r, kindInfo('pods'), ns, labelSelectorAsString(owner.spec?.selector)).sort(
        mostActiveFirst,
      );
      if (!pods.length) throw new Fail('error: timed out waiting for the condition');
      name = pods[0].metadata.name!;
    } else
      throw new Fail(
        `error: this simulator's kubectl exec takes a pod, a deployment or a replicaset, not ${kind.resource}`,
      );
  }
  const pod = r.must<Pod>({ verb: 'get', resource: 'pods', namespace: ns, name });
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed')
    throw new Fail(`error: cannot exec into a container in a completed pod; current phase is ${phase}`);
  const containers = (pod.spec?.containers ?? []).map((c) => c.name);
  let container = str(p, 'container');
  if (container === undefined) {
    container = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] ?? containers[0];
    if (containers.length > 1 && !bool(p, 'quiet'))
      r.warn(`Defaulted container "${container}" out of: ${containers.join(', ')}\n`);
  } else if (!containers.includes(container))
    throw new Fail(`Error from server (BadRequest): container ${container} is not valid for pod ${name}`);
  if (!pod.spec?.nodeName) throw new Fail(`Error from server (BadRequest): pod ${name} does not have a host assigned`);
  const net = r.cluster.addons?.find((a) => a.net)?.net;
  if (!net) throw new Fail('error: this cluster runs no pod network');
  const res = net.exec(r.cluster, {
    namespace: ns,
    pod: name,
    container,
    node: pod.spec.nodeName,
    argv: command,
  });
  r.print(res.stdout);
  r.warn(res.stderr);
  if (res.exitCode !== 0) {
    // A command that ran and failed: kubectl passes its exit code on (kubectl's own errors are 1).
    if (!res.stderr.startsWith('error: ') && !res.stderr.startsWith('Error from server'))
      r.warn(`command terminated with exit code ${res.exitCode}\n`);
    r.failed = true;
    r.exitCode = res.exitCode;
  }
}
