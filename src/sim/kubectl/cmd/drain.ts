// kubectl cordon, uncordon and drain (pkg/cmd/drain): unschedulable, then every pod evicted and waited for.
import { goDuration } from '../../util/duration.ts';
import { parseDurationMs } from '../../util/parse-duration.ts';
import { kindInfo } from '../resources.ts';
import { bool, parse, str } from './flags.ts';
import type { Parsed } from '../args.ts';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { Fail, apiError, listAt, type Run, type Stored } from './util.ts';
import { WRITE_FLAGS, dryRunStrategy, dryRunSuffix, writeOptions, type DryRun } from './dryrun.ts';
import { newClientset, reserveAt, sendAt } from '../throttle.ts';
import { MAX_LINE_MS } from '../sim-commands.ts';

// Returns whether it sent the PATCH. `listed`: the node as a selector's LIST returned it (no GET).
function setUnschedulable(r: Run, name: string, on: boolean, dry: DryRun = 'none', listed?: Node): boolean {
  const n = listed ?? r.must<Node>({ verb: 'get', resource: 'nodes', name });
  const word = on ? 'cordoned' : 'uncordoned';
  if (!!n.spec?.unschedulable === on) {
    r.print(`node/${name} already ${word}${dryRunSuffix(dry)}\n`);
    return false;
  }
  if (dry !== 'client')
    r.must({
      verb: 'patch',
      resource: 'nodes',
      name,
      body: { spec: { unschedulable: on ? true : null } },
      options: writeOptions(dry, { patchType: 'merge' }),
    });
  r.print(`node/${name} ${word}${dryRunSuffix(dry)}\n`);
  return dry !== 'client';
}

/** One node drain's builder found: by name (fetched when cordoned) or as the selector's LIST gave it. */
interface NodeInfo {
  name: string;
  object?: Node;
}

/**
 * DrainCmdOptions.Complete's nodes: the names given (ResourceNames("nodes", …)), or every node the
 * --selector matches (one LIST, in chunks of 500); not both, and not neither.
 */
function nodeInfos(r: Run, cmd: string, p: Parsed): NodeInfo[] {
  const sel = str(p, 'selector');
  if (!p.args.length && sel === undefined)
    throw new Fail(`error: USAGE: ${cmd} NODE [flags]\nSee 'kubectl ${cmd} -h' for help and examples`);
  if (p.args.length && sel)
    throw new Fail(
      `error: cannot specify both a node name and a --selector option\nSee 'kubectl ${cmd} -h' for help and examples`,
    );
  if (sel !== undefined)
    return listAt<Stored<Node>>(r, kindInfo('nodes'), undefined, sel, undefined, 500).items.map((o) => ({
      name: o.metadata.name!,
      object: o,
    }));
  // Complete visits the builder's result before anything is written: every node's GET comes first.
  return p.args
    .map((a) => a.replace(/^(node|nodes|no)\//, ''))
    .map((name) => ({ name, object: r.must<Node>({ verb: 'get', resource: 'nodes', name }) }));
}

/** kubectl cordon / uncordon NODE… | -l SELECTOR: mark nodes unschedulable (on) or schedulable again. */
export function cmdCordon(r: Run, argv: string[], on: boolean): void {
  const cmd = on ? 'cordon' : 'uncordon';
  const p = parse(r, cmd, argv, { selector: { kind: 'string', short: 'l' }, 'dry-run': WRITE_FLAGS['dry-run'] });
  const dry = dryRunStrategy(r, p);
  for (const n of nodeInfos(r, cmd, p)) setUnschedulable(r, n.name, on, dry, n.object);
}

/** How often drain's waitForDelete reads each evicted pod (kubectl's 1 s). */
const DRAIN_POLL_MS = 1000;

/**
 * A node drain could not finish: its errors (an Aggregate: one, or `[a, b]` as text), and what
 * deleteOrEvictPodsSimple printed before it.
 */
class DrainError {
  readonly errs: string[];
  readonly printed: string;
  constructor(errs: string[], printed = '') {
    this.errs = errs;
    this.printed = printed;
  }
  /** The Aggregate's Error(). */
  get err(): string {
    return this.errs.length > 1 ? `[${this.errs.join(', ')}]` : this.errs[0];
  }
}

/**
 * kubectl drain NODE… | -l SELECTOR: cordon every node first, then for each evict its pods and wait
 * until they are gone (a client dry run lists them, a server dry run sends the evictions as dry runs).
 */
export function cmdDrain(r: Run, argv: string[]): void {
  const p = parse(r, 'drain', argv, {
    'ignore-daemonsets': { kind: 'bool' },
    'delete-emptydir-data': { kind: 'bool' },
    force: { kind: 'bool' },
    'grace-period': { kind: 'string' },
    timeout: { kind: 'string' },
    'disable-eviction': { kind: 'bool' },
    selector: { kind: 'string', short: 'l' },
    'dry-run': WRITE_FLAGS['dry-run'],
  });
  const dry = dryRunStrategy(r, p);
  const nodes = nodeInfos(r, 'drain', p);
  // The drainer's clientset (QPS 5, burst 10) sends the cordon PATCH, the pod list, the evictions and
  // the polls; the Node's GET goes through the builder's own client.
  const cs = newClientset(r);
  // RunDrain: RunCordonOrUncordon(true) over every node, then each node's pods.
  for (const n of nodes) if (setUnschedulable(r, n.name, true, dry, n.object)) reserveAt(r, cs);
  const fatal: DrainError[] = [];
  const remaining: string[] = [];
  for (const n of nodes) {
    const e = drainNode(r, p, cs, n.name, dry);
    if (!e) {
      r.print(`node/${n.name} drained${dryRunSuffix(dry)}\n`);
      continue;
    }
    r.warn(`${e.printed}error: unable to drain node "${n.name}" due to error: ${e.err}, continuing command...\n`);
    fatal.push(e);
    remaining.push(n.name);
  }
  if (remaining.length) {
    r.warn(`There are pending nodes to be drained:\n${remaining.map((n) => ` ${n}\n`).join('')}`);
    // CheckErr unwraps an aggregate of one, and prints an aggregate's errors a line each, with no
    // "error: " before them (MultipleErrors).
    throw new Fail((fatal.length === 1 ? fatal[0].errs : fatal.map((e) => e.err)).join('\n'));
  }
}

/** GetPodsForDeletion's filters: the pods drain deletes, and its errors and warnings about the others. */
function podsForDeletion(p: Parsed, pods: Stored<Pod>[]): { evict: Stored<Pod>[]; errs: string[]; warnings: string[] } {
  const ds: string[] = [];
  const unmanaged: string[] = [];
  const evict: Stored<Pod>[] = [];
  for (const pod of pods) {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (pod.metadata?.annotations?.['kubernetes.io/config.mirror']) continue;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') {
      evict.push(pod);
      continue;
    }
    const owner = (pod.metadata?.ownerReferences ?? []).find((o) => o.controller);
    if (owner?.kind === 'DaemonSet') {
      ds.push(key);
      continue;
    }
    if (!owner) unmanaged.push(key);
    if (!owner && !bool(p, 'force')) continue;
    evict.push(pod);
  }
  const errs: string[] = [];
  if (ds.length && !bool(p, 'ignore-daemonsets'))
    errs.push(`cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ${ds.join(', ')}`);
  if (unmanaged.length && !bool(p, 'force'))
    errs.push(`cannot delete Pods that declare no controller (use --force to override): ${unmanaged.join(', ')}`);
  // PodDeleteList.Warnings: one message per filter, joined by "; " (kubectl's order comes from a Go
  // map and varies from run to run; here the filters' order).
  const warnings = [
    ...(ds.length ? [`ignoring DaemonSet-managed Pods: ${ds.join(', ')}`] : []),
    ...(unmanaged.length ? [`deleting Pods that declare no controller: ${unmanaged.join(', ')}`] : []),
  ];
  return { evict, errs, warnings };
}

/** The drainer's EvictErrorRetryDelay: a refused eviction (429) is tried again 5 s later. */
const EVICT_ERROR_RETRY_DELAY_MS = 5000;

/** deleteOrEvictPodsSimple for one node: undefined when its pods are gone (or, in a dry run, listed). */
function drainNode(
  r: Run,
  p: Parsed,
  cs: ReturnType<typeof newClientset>,
  node: string,
  dry: DryRun,
): DrainError | undefined {
  reserveAt(r, cs);
  // GetPodsForDeletion: every namespace's pods on the node, in chunks of --chunk-size (500).
  const listPods = () =>
    listAt<Stored<Pod>>(r, kindInfo('pods'), undefined, undefined, `spec.nodeName=${node}`, 500).items;
  const { evict, errs, warnings } = podsForDeletion(p, listPods());
  if (errs.length) return new DrainError(errs);
  if (warnings.length) r.warn(`Warning: ${warnings.join('; ')}\n`);
  if (dry === 'client') {
    for (const pod of evict) r.print(`evicting pod ${pod.metadata.namespace}/${pod.metadata.name} (dry run)\n`);
    return undefined;
  }
  const failed = evictPods(r, p, cs, evict, dry);
  if (!failed.length) return undefined;
  // The pods still there, as a second GetPodsForDeletion finds them.
  const err = new DrainError(failed);
  reserveAt(r, cs);
  const pending = podsForDeletion(p, listPods()).evict;
  const printed = pending.length
    ? `There are pending pods in node "${node}" when an error occurred: ${err.err}\n${pending.map((x) => `pod/${x.metadata.name}\n`).join('')}`
    : '';
  return new DrainError(failed, printed);
}

/** One pod's goroutine in evictPods: evicting (again at `at`), waiting for its deletion, or finished. */
interface Eviction {
  pod: Stored<Pod>;
  state: 'evict' | 'wait' | 'done';
  at: number;
}

/**
 * evictPods: one goroutine per pod, all under one --timeout (none: no limit). Each evicts its pod,
 * and on a 429 (a disruption budget refused) prints the error and tries again 5 s later with the pod
 * read afresh; once granted (or the pod is gone) it waits for the deletion, reading the pod every
 * second. Returns the errors of the pods that did not make it.
 */
function evictPods(r: Run, p: Parsed, cs: ReturnType<typeof newClientset>, pods: Stored<Pod>[], dry: DryRun): string[] {
  const grace = str(p, 'grace-period') === undefined ? undefined : Number(str(p, 'grace-period'));
  const timeoutMs = str(p, 'timeout') ? (parseDurationMs(str(p, 'timeout')!) ?? 0) : 0;
  const start = r.now;
  const errors: string[] = [];
  const evictions: Eviction[] = pods.map((pod) => ({ pod, state: 'evict', at: start }));
  const evictOne = (e: Eviction, reservedAt: number, at: number) => {
    const pod = e.pod;
    const ref = `pods/"${pod.metadata.name}" -n "${pod.metadata.namespace}"`;
    r.print(
      `evicting pod ${pod.metadata.namespace}/${pod.metadata.name}${dry === 'server' ? ' (server dry run)' : ''}\n`,
    );
    if (timeoutMs > 0 && r.now - start >= timeoutMs) {
      errors.push(`error when evicting ${ref}: global timeout reached: ${goDuration(timeoutMs)}`);
      e.state = 'done';
      return;
    }
    const res = sendAt(
      r,
      cs,
      {
        verb: 'create',
        resource: 'pods',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
        subresource: 'eviction',
        body: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace },
          ...((grace !== undefined && grace >= 0) || dry === 'server'
            ? {
                deleteOptions: {
                  ...(grace !== undefined && grace >= 0 && { gracePeriodSeconds: grace }),
                  ...(dry === 'server' && { dryRun: ['All'] }),
                },
              }
            : {}),
        },
      },
      reservedAt,
      at,
    );
    // A pod already gone ends its goroutine at once: nothing to wait for, no "evicted" line.
    if (res.code === 404) {
      e.state = 'done';
      return;
    }
    if (res.ok) {
      e.state = dry === 'server' ? 'done' : 'wait';
      e.at = r.now;
      return;
    }
    if (res.code === 429) {
      r.warn(
        `error when evicting ${ref} (will retry after ${goDuration(EVICT_ERROR_RETRY_DELAY_MS)}): ${res.status.message}\n`,
      );
      e.at = r.now + EVICT_ERROR_RETRY_DELAY_MS;
      return;
    }
    if (res.code === 0) throw new Fail(apiError(res.status));
    errors.push(`error when evicting ${ref}: ${res.status.message}`);
    e.state = 'done';
  };
  // All goroutines enter the limiter's Wait at once: the k-th eviction goes (k − tokens)/QPS later.
  const evictAt = evictions.map(() => reserveAt(r, cs));
  for (const [i, e] of evictions.entries()) evictOne(e, start, evictAt[i]);
  // waitForDelete's cap: --timeout, or (none given) five minutes here.
  const cap = timeoutMs > 0 ? timeoutMs : 5 * 60_000;
  let nextPoll = r.now;
  for (;;) {
    // The retries due: the pod read again (getPodFn), then evicted again.
    for (const e of evictions) {
      if (e.state !== 'evict' || e.at > r.now) continue;
      const fresh = sendAt(
        r,
        cs,
        { verb: 'get', resource: 'pods', namespace: e.pod.metadata.namespace, name: e.pod.metadata.name },
        r.now,
        reserveAt(r, cs),
      );
      if (fresh.ok) e.pod = fresh.object as Stored<Pod>;
      evictOne(e, r.now, reserveAt(r, cs));
    }
    // waitForDelete: a GET of each pod not yet gone, every second (wait.PollImmediate, 1 s interval),
    // until it is not found or a new pod has its name.
    const waiting = evictions.filter((e) => e.state === 'wait');
    if (waiting.length && r.now >= nextPoll) {
      const pollStart = r.now;
      const pollAt = waiting.map(() => reserveAt(r, cs));
      waiting.forEach((e, k) => {
        const pod = e.pod;
        const cur = sendAt(
          r,
          cs,
          { verb: 'get', resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name },
          pollStart,
          pollAt[k],
        );
        if (!cur.ok && cur.code !== 404) throw new Fail(apiError(cur.status));
        if (!cur.ok || (cur.object as Pod).metadata?.uid !== pod.metadata.uid) {
          r.print(`pod/${pod.metadata.name} evicted\n`);
          e.state = 'done';
        }
      });
      nextPoll = r.now + DRAIN_POLL_MS;
      const still = evictions.filter((e) => e.state === 'wait');
      if (still.length && r.now - start >= cap) {
        for (const e of still) {
          errors.push(
            `error when waiting for pod "${e.pod.metadata.name}" in namespace "${e.pod.metadata.namespace}" to terminate: global timeout reached: ${goDuration(cap)}`,
          );
          e.state = 'done';
        }
      }
    }
    const left = evictions.filter((e) => e.state !== 'done');
    if (!left.length) return errors;
    // A --timeout past a day would hold the page's worker for minutes: the line gives up there.
    if (r.now - start >= MAX_LINE_MS)
      throw new Fail(
        `error: stopped waiting for ${left.map((x) => `pod/${x.pod.metadata.name}`).join(', ')} to ${left.some((x) => x.state === 'evict') ? 'be evicted' : 'terminate'} after 24h of simulated time (the most one line runs); run the drain again to wait longer`,
      );
    const next = Math.min(...left.map((e) => (e.state === 'evict' ? e.at : nextPoll)));
    if (next > r.now) r.cluster.advance(next - r.now);
  }
}
