// kubectl cordon, uncordon and drain (pkg/cmd/drain): unschedulable, then every pod evicted and waited for.
import { goDuration, parseDurationMs } from '../../util/duration.ts';
import { kindInfo } from '../resources.ts';
import { bool, parse, str } from './flags.ts';
import { Fail, apiError, list, type Obj, type Run } from './util.ts';
import { WRITE_FLAGS, dryRunStrategy, dryRunSuffix, writeOptions, type DryRun } from './dryrun.ts';
import { newClientset, reserveAt, sendAt } from '../throttle.ts';
import { MAX_LINE_MS } from '../sim-commands.ts';

// Returns whether it sent the PATCH.
function setUnschedulable(r: Run, name: string, on: boolean, dry: DryRun = 'none'): boolean {
  const n = r.must({ verb: 'get', resource: 'nodes', name });
  const word = on ? 'cordoned' : 'uncordoned';
  if (!!n.spec?.unschedulable === on) { r.print(`node/${name} already ${word}${dryRunSuffix(dry)}\n`); return false; }
  if (dry !== 'client') r.must({ verb: 'patch', resource: 'nodes', name, body: { spec: { unschedulable: on ? true : null } }, options: writeOptions(dry, { patchType: 'merge' }) });
  r.print(`node/${name} ${word}${dryRunSuffix(dry)}\n`);
  return dry !== 'client';
}

/** kubectl cordon / uncordon NODE…: mark nodes unschedulable (on) or schedulable again. */
export function cmdCordon(r: Run, argv: string[], on: boolean): void {
  const cmd = on ? 'cordon' : 'uncordon';
  const p = parse(r, cmd, argv, { selector: { kind: 'string', short: 'l' }, 'dry-run': WRITE_FLAGS['dry-run'] });
  const dry = dryRunStrategy(r, p);
  if (!p.args.length) throw new Fail(`error: USAGE: ${cmd} NODE [flags]\nSee 'kubectl ${cmd} -h' for help and examples`);
  for (const n of p.args) setUnschedulable(r, n.replace(/^(node|nodes|no)\//, ''), on, dry);
}

/** How often drain's waitForDelete reads each evicted pod (kubectl's 1 s). */
const DRAIN_POLL_MS = 1000;

/** kubectl drain NODE: cordon it, evict its pods and wait until they are gone. */
export function cmdDrain(r: Run, argv: string[]): void {
  const p = parse(r, 'drain', argv, { 'ignore-daemonsets': { kind: 'bool' }, 'delete-emptydir-data': { kind: 'bool' }, force: { kind: 'bool' }, 'grace-period': { kind: 'string' }, timeout: { kind: 'string' }, 'disable-eviction': { kind: 'bool' } });
  if (p.args.length !== 1) throw new Fail('error: USAGE: drain NODE [flags]\nSee \'kubectl drain -h\' for help and examples');
  const node = p.args[0].replace(/^(node|nodes|no)\//, '');
  // The drainer's clientset (QPS 5, burst 10) sends the cordon PATCH, the pod list, the evictions and
  // the polls; the Node's GET goes through the builder's own client.
  const cs = newClientset(r);
  if (setUnschedulable(r, node, true)) reserveAt(r, cs);
  reserveAt(r, cs);
  const pods = list(r, kindInfo('pods'), undefined, undefined, `spec.nodeName=${node}`);
  const ds: string[] = [];
  const unmanaged: string[] = [];
  const evict: Obj[] = [];
  for (const pod of pods) {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (pod.metadata?.annotations?.['kubernetes.io/config.mirror']) continue;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') { evict.push(pod); continue; }
    const owner = (pod.metadata?.ownerReferences ?? []).find((o: Obj) => o.controller);
    if (owner?.kind === 'DaemonSet') { ds.push(key); continue; }
    if (!owner) unmanaged.push(key);
    if (!owner && !bool(p, 'force')) continue;
    evict.push(pod);
  }
  const errs: string[] = [];
  if (ds.length && !bool(p, 'ignore-daemonsets')) errs.push(`cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ${ds.join(', ')}`);
  if (unmanaged.length && !bool(p, 'force')) errs.push(`cannot delete Pods that declare no controller (use --force to override): ${unmanaged.join(', ')}`);
  if (errs.length) {
    const agg = errs.length > 1 ? `[${errs.join(', ')}]` : errs[0];
    throw new Fail(`error: unable to drain node "${node}" due to error: ${agg}, continuing command...\nThere are pending nodes to be drained:\n ${node}\nerror: ${agg}`);
  }
  // PodDeleteList.Warnings: one message per filter, joined by "; " (kubectl's order comes from a Go
  // map and varies from run to run; here the filters' order).
  const warnings = [...(ds.length ? [`ignoring DaemonSet-managed Pods: ${ds.join(', ')}`] : []), ...(unmanaged.length ? [`deleting Pods that declare no controller: ${unmanaged.join(', ')}`] : [])];
  if (warnings.length) r.warn(`Warning: ${warnings.join('; ')}\n`);
  const grace = str(p, 'grace-period') === undefined ? undefined : Number(str(p, 'grace-period'));
  // One goroutine per pod, all in the limiter's Wait at once: the k-th eviction goes (k − tokens)/QPS later.
  const evictStart = r.now;
  const evictAt = evict.map(() => reserveAt(r, cs));
  for (const [i, pod] of evict.entries()) {
    r.print(`evicting pod ${pod.metadata.namespace}/${pod.metadata.name}\n`);
    const res = sendAt(r, cs, { verb: 'create', resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name, subresource: 'eviction', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace }, ...(grace !== undefined && grace >= 0 ? { deleteOptions: { gracePeriodSeconds: grace } } : {}) } }, evictStart, evictAt[i]);
    if (!res.ok && res.code !== 404) throw new Fail(apiError(res.status));
  }
  const timeoutMs = str(p, 'timeout') ? parseDurationMs(str(p, 'timeout')!) ?? 0 : 0;
  const cap = timeoutMs > 0 ? timeoutMs : 5 * 60_000;
  const start = r.now;
  const pending = [...evict];
  // waitForDelete: a GET of each pod not yet gone, every second (wait.PollImmediate, 1 s interval),
  // until it is not found or a new pod has its name.
  for (;;) {
    const pollStart = r.now;
    const pollAt = pending.map(() => reserveAt(r, cs));
    for (let i = 0, k = 0; i < pending.length; i++, k++) {
      const pod = pending[i];
      const cur = sendAt(r, cs, { verb: 'get', resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name }, pollStart, pollAt[k]);
      if (!cur.ok && cur.code !== 404) throw new Fail(apiError(cur.status));
      if (!cur.ok || (cur.object as Obj).metadata?.uid !== pod.metadata.uid) { r.print(`pod/${pod.metadata.name} evicted\n`); pending.splice(i--, 1); }
    }
    if (!pending.length) break;
    if (r.now - start >= cap) {
      const pod = pending[0];
      const err = `error when waiting for pod "${pod.metadata.name}" in namespace "${pod.metadata.namespace}" to terminate: global timeout reached: ${goDuration(cap)}`;
      throw new Fail(`There are pending pods in node "${node}" when an error occurred: ${err}\n${pending.map((x) => `pod/${x.metadata.name}`).join('\n')}\nerror: unable to drain node "${node}" due to error: ${err}, continuing command...\nThere are pending nodes to be drained:\n ${node}\nerror: ${err}`);
    }
    // A --timeout past a day would hold the page's worker for minutes: the line gives up there.
    if (r.now - start >= MAX_LINE_MS) throw new Fail(`error: stopped waiting for ${pending.map((x) => `pod/${x.metadata.name}`).join(', ')} to terminate after 24h of simulated time (the most one line runs); run the drain again to wait longer`);
    r.cluster.advance(DRAIN_POLL_MS);
  }
  r.print(`node/${node} drained\n`);
}

