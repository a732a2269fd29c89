// kubectl logs (pkg/cmd/logs): a container's output, through the API server from its node's kubelet.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { labelSelectorAsString } from '../../api/labels.ts';
import type { ApiResult, RequestOptions } from '../../api/request.ts';
import { parseDurationMs } from '../../util/parse-duration.ts';
import { parseTime } from '../../util/time.ts';
import { kindInfo } from '../resources.ts';
import { bool, nsOf, parse, str } from './flags.ts';
import { Fail, apiError, kindOrFail, list, type Run, type Stored } from './util.ts';

function isPodReady(p: Pod): boolean {
  return (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** podutils.ByLogging: which of a workload's pods `kubectl logs deploy/NAME` reads (the first). */
function byLogging(a: Pod, b: Pod): number {
  const assigned = (p: Pod) => !!p.spec?.nodeName;
  if (assigned(a) !== assigned(b)) return assigned(a) ? -1 : 1;
  const rank: Record<string, number> = { Running: 0, Unknown: 1, Pending: 2 };
  const ra = rank[a.status?.phase ?? ''] ?? 3;
  const rb = rank[b.status?.phase ?? ''] ?? 3;
  if (ra !== rb) return ra - rb;
  if (isPodReady(a) !== isPodReady(b)) return isPodReady(a) ? -1 : 1;
  const readySince = (p: Pod) =>
    parseTime((p.status?.conditions ?? []).find((c) => c.type === 'Ready')?.lastTransitionTime) ?? Infinity;
  if (isPodReady(a) && readySince(a) !== readySince(b)) return readySince(a) - readySince(b);
  const restarts = (p: Pod) => Math.max(0, ...(p.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  return (
    (parseTime(a.metadata?.creationTimestamp) ?? Infinity) - (parseTime(b.metadata?.creationTimestamp) ?? Infinity)
  );
}

/**
 * consumeWithRetry with --follow (1.36+): a container still being created (or any refusal the API
 * server answers with a Status) is asked again every second, each refusal's message printed, until
 * the log opens or --pod-running-timeout (20 s) has passed since the first try
 * (wait.PollUntilContextTimeout, immediate); then `context deadline exceeded`.
 */
function consumeWithRetry(r: Run, request: () => ApiResult<unknown>, timeoutMs: number): ApiResult<unknown> {
  const deadline = r.now + timeoutMs;
  for (;;) {
    const res = request();
    if (res.ok || res.code === 0) return res;
    r.warn(`${res.status.message}\n`);
    // The deadline comes before the tick that falls on it.
    if (r.now + 1_000 >= deadline) {
      r.cluster.advance(deadline - r.now);
      throw new Fail('error: context deadline exceeded');
    }
    r.cluster.advance(1_000);
  }
}

/** kubectl logs: a container's output, fetched through the API server from the node's kubelet. */
export function cmdLogs(r: Run, argv: string[]): void {
  const p = parse(r, 'logs', argv, {
    container: { kind: 'string', short: 'c' },
    previous: { kind: 'bool', short: 'p' },
    tail: { kind: 'string' },
    follow: { kind: 'bool', short: 'f' },
    'all-containers': { kind: 'bool' },
    'pod-running-timeout': { kind: 'string' },
  });
  const timeoutArg = str(p, 'pod-running-timeout') ?? '20s';
  const podRunningTimeout = parseDurationMs(timeoutArg.replace(/^-/, ''));
  if (podRunningTimeout === undefined)
    throw new Fail(
      `error: invalid argument "${timeoutArg}" for "--pod-running-timeout" flag: time: invalid duration "${timeoutArg}"\nSee 'kubectl logs --help' for usage.`,
    );
  // pflag parses --tail (an int64) before the command runs.
  const tailArg = str(p, 'tail') ?? '-1';
  const tail = Number(tailArg);
  if (!Number.isInteger(tail))
    throw new Fail(
      `error: invalid argument "${tailArg}" for "--tail" flag: strconv.ParseInt: parsing "${tailArg}": invalid syntax\nSee 'kubectl logs --help' for usage.`,
    );
  if (!p.args.length)
    throw new Fail(
      "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples",
    );
  if (timeoutArg.startsWith('-') || podRunningTimeout === 0)
    throw new Fail('error: --pod-running-timeout must be higher than zero');
  const ns = nsOf(p);
  let podName = p.args[0];
  // A workload's pod comes from GetFirstPod's LIST, and LogsForObject reads it from there (no GET).
  let listed: Pod | undefined;
  if (podName.includes('/')) {
    const [type, name] = [podName.slice(0, podName.indexOf('/')), podName.slice(podName.indexOf('/') + 1)];
    const kind = kindOrFail(type, r);
    if (kind.resource === 'pods') podName = name;
    else if (kind.resource === 'deployments' || kind.resource === 'replicasets') {
      const owner = r.must<Deployment | ReplicaSet>({ verb: 'get', resource: kind.resource, namespace: ns, name });
      const pods = list<Stored<Pod>>(r, kindInfo('pods'), ns, labelSelectorAsString(owner.spec?.selector)).sort(
        byLogging,
      );
      if (!pods.length) throw new Fail(`error: timed out waiting for the condition`);
      if (pods.length > 1) r.warn(`Found ${pods.length} pods, using pod/${pods[0].metadata.name}\n`);
      podName = pods[0].metadata.name!;
      listed = pods[0];
    } else
      throw new Fail(
        `error: this simulator's kubectl logs reads pods, deployments and replicasets, not ${kind.resource}`,
      );
  }
  const pod = listed ?? r.must<Pod>({ verb: 'get', resource: 'pods', namespace: ns, name: podName });
  const containers = (pod.spec?.containers ?? []).map((c) => c.name);
  const inits = (pod.spec?.initContainers ?? []).map((c) => c.name);
  let names: string[];
  if (bool(p, 'all-containers')) names = [...inits, ...containers];
  else if (str(p, 'container')) names = [str(p, 'container')!];
  else {
    // The annotated default container, else the first; kubectl says so when there was a choice.
    const annotated = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'];
    const chosen = annotated && containers.includes(annotated) ? annotated : containers[0];
    if (containers.length + inits.length > 1)
      r.warn(
        `Defaulted container "${chosen}" out of: ${[...containers, ...inits.map((n) => `${n} (init)`)].join(', ')}\n`,
      );
    names = [chosen];
  }
  for (const container of names) {
    const options: RequestOptions = { container };
    if (bool(p, 'follow')) options.follow = true;
    if (bool(p, 'previous')) options.previous = true;
    const request = () =>
      r.req({ verb: 'get', resource: 'pods', namespace: ns, name: podName, subresource: 'log', options });
    const res = bool(p, 'follow') ? consumeWithRetry(r, request, podRunningTimeout) : request();
    if (!res.ok) throw new Fail(apiError(res.status));
    let text = String(res.object ?? '');
    if (tail >= 0) {
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      text = lines
        .slice(Math.max(0, lines.length - tail))
        .map((l) => `${l}\n`)
        .join('');
    }
    r.print(text);
  }
}
