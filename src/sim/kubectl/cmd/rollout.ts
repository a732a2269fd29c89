// kubectl rollout (pkg/cmd/rollout) of a Deployment: status, history, undo, pause, resume, restart.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { fromUnstructured } from '../../api/unstructured.ts';
import { RESOURCES } from '../../api/resources.ts';
import { labelSelectorAsString } from '../../api/labels.ts';
import { rfc3339 } from '../../util/time.ts';
import { podTemplateText, sameTemplate } from '../describe.ts';
import { ROLLOUT_HELP } from '../help/rollout.ts';
import { kindInfo } from '../resources.ts';
import { DESCRIBE_TABS, tabwrite } from '../tabwriter.ts';
import { nsOf, parse, str } from './flags.ts';
import { Fail, list, targets, type Run, unknownSubcommand, withKind } from './util.ts';
import { untilWithSync } from './watch.ts';
import { WRITE_FLAGS, checkOutput, dryRunStrategy, printWritten, writeOptions, type DryRun } from './dryrun.ts';

function rolloutTarget(r: Run, args: string[], sub: string): { name: string } {
  const t = targets(args, r);
  if (!t.names.length) throw new Fail('error: required resource not specified');
  const { kind, name } = t.names[0];
  if (kind.resource !== 'deployments')
    throw new Fail(
      `error: no ${sub === 'status' ? 'status viewer' : sub === 'history' ? 'history viewer' : 'rollbacker'} has been implemented for {"${RESOURCES[kind.resource].group}" "${RESOURCES[kind.resource].kind}"}`,
    );
  return { name };
}

/** The line `kubectl rollout status` prints for a Deployment's state, and whether it is final. */
function rolloutStatusLine(d: Deployment): { line: string; done: boolean; error?: boolean } {
  const name = d.metadata?.name;
  const st = d.status ?? {};
  if ((d.metadata?.generation ?? 0) > (st.observedGeneration ?? 0))
    return { line: 'Waiting for deployment spec update to be observed...', done: false };
  const prog = (st.conditions ?? []).find((c) => c.type === 'Progressing');
  if (prog?.reason === 'ProgressDeadlineExceeded')
    return { line: `error: deployment "${name}" exceeded its progress deadline`, done: true, error: true };
  const spec = d.spec?.replicas ?? 1;
  const updated = st.updatedReplicas ?? 0;
  if (updated < spec)
    return {
      line: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${spec} new replicas have been updated...`,
      done: false,
    };
  if ((st.replicas ?? 0) > updated)
    return {
      line: `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - updated} old replicas are pending termination...`,
      done: false,
    };
  if ((st.availableReplicas ?? 0) < updated)
    return {
      line: `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${updated} updated replicas are available...`,
      done: false,
    };
  return { line: `deployment "${name}" successfully rolled out`, done: true };
}

function ownedReplicaSets(r: Run, d: Deployment): ReplicaSet[] {
  // A stored Deployment has metadata.
  const meta = d.metadata!;
  return list<ReplicaSet>(r, kindInfo('replicasets'), meta.namespace, labelSelectorAsString(d.spec?.selector)).filter(
    (rs) => (rs.metadata?.ownerReferences ?? []).some((ref) => ref.uid === meta.uid),
  );
}

const revisionOf = (o: { metadata?: ObjectMeta }) =>
  Number(o.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);

/** The annotation client-side apply keeps the applied manifest in. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** warningRollbackApplyManagedResource (rollout_undo.go), for info.ObjectName() (`deployments/web`). */
export function rollbackApplyManagedWarning(objectName: string): string {
  return `Warning: resource ${objectName} was previously managed with 'kubectl apply'. Rolling back will not update the ${LAST_APPLIED} annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.\n`;
}

/** Annotations a rollback keeps from the Deployment and never copies from the ReplicaSet (rollback.go annotationsToSkip). */
const ANNOTATIONS_TO_SKIP = [
  LAST_APPLIED,
  'deployment.kubernetes.io/revision',
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
];

/** deploymentRevision: the ReplicaSet of revision toRevision, or (0) the second newest. */
function deploymentRevision(rss: ReplicaSet[], name: string, toRevision: number): ReplicaSet {
  let latest: ReplicaSet | undefined;
  let latestRevision = -1;
  let previous: ReplicaSet | undefined;
  let previousRevision = -1;
  for (const rs of rss) {
    const raw = rs.metadata?.annotations?.['deployment.kubernetes.io/revision'];
    if (raw === undefined || !/^\d+$/.test(raw)) continue;
    const v = Number(raw);
    if (toRevision === 0) {
      if (latestRevision < v) {
        previousRevision = latestRevision;
        previous = latest;
        latestRevision = v;
        latest = rs;
      } else if (previousRevision < v) {
        previousRevision = v;
        previous = rs;
      }
    } else if (toRevision === v) return rs;
  }
  if (toRevision > 0) throw new Fail(`error: unable to find specified revision ${toRevision} in history`);
  if (!previous) throw new Fail(`error: no rollout history found for deployment "${name}"`);
  return previous;
}

/**
 * DeploymentRollbacker.Rollback: its own GET of the Deployment (deployment), the ReplicaSets, then
 * a JSON patch that replaces spec.template with the revision's (without pod-template-hash) and
 * metadata.annotations with the Deployment's skipped ones plus the ReplicaSet's others (its
 * change-cause among them). Returns what the printer says after the name.
 */
function rollback(r: Run, deployment: Deployment, toRevision: number, dry: DryRun = 'none'): string {
  // A stored Deployment has a name, and a ReplicaSet of it a template.
  const meta = deployment.metadata!;
  const name = meta.name!;
  if (toRevision < 0) throw new Fail(`error: unable to find specified revision ${toRevision} in history`);
  const target = deploymentRevision(ownedReplicaSets(r, deployment), name, toRevision);
  // A client dry run says what it would roll back to: the revision's template (printTemplate), before
  // the paused and already-matching checks.
  if (dry === 'client') return podTemplateText(target.spec?.template ?? {});
  if (deployment.spec?.paused)
    throw new Fail(
      "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again",
    );
  // The revision printed is the one asked for (0 when none was).
  if (sameTemplate(target.spec!.template, deployment.spec!.template))
    return `skipped rollback (current template already matches revision ${toRevision})`;
  const template = structuredClone(target.spec!.template!);
  if (template.metadata?.labels) delete template.metadata.labels['pod-template-hash'];
  const annotations: Record<string, string> = {};
  for (const k of ANNOTATIONS_TO_SKIP) {
    const v = meta.annotations?.[k];
    if (v !== undefined) annotations[k] = v;
  }
  for (const [k, v] of Object.entries(target.metadata?.annotations ?? {}))
    if (!ANNOTATIONS_TO_SKIP.includes(k)) annotations[k] = v;
  const patch = [
    { op: 'replace', path: '/spec/template', value: template },
    { op: 'replace', path: '/metadata/annotations', value: annotations },
  ];
  const res = r.req({
    verb: 'patch',
    resource: 'deployments',
    namespace: meta.namespace,
    name,
    body: patch,
    options: writeOptions(dry, { patchType: 'json' }),
  });
  if (!res.ok) throw new Fail(`error: failed restoring revision ${toRevision}: ${res.status.message}`);
  return 'rolled back';
}

/** kubectl rollout status|history|undo|pause|resume|restart of a Deployment. */
export function cmdRollout(r: Run, argv: string[]): void {
  const sub = argv[0];
  const subs = ['status', 'history', 'undo', 'pause', 'resume', 'restart'];
  if (!sub) {
    r.print(ROLLOUT_HELP);
    r.failed = true;
    return;
  }
  if (!subs.includes(sub)) throw new Fail(unknownSubcommand('rollout', argv));
  const p = parse(
    r,
    `rollout ${sub}`,
    argv.slice(1),
    sub === 'undo'
      ? { 'to-revision': { kind: 'string' }, ...WRITE_FLAGS }
      : sub === 'status'
        ? { watch: { kind: 'bool', short: 'w' }, timeout: { kind: 'string' } }
        : sub === 'history'
          ? { revision: { kind: 'string' } }
          : {},
  );
  // pflag parses the int64 flags before the command runs.
  for (const flag of ['to-revision', 'revision']) {
    const v = str(p, flag);
    if (v !== undefined && !/^[+-]?\d+$/.test(v))
      throw new Fail(
        `error: invalid argument "${v}" for "--${flag}" flag: strconv.ParseInt: parsing "${v}": invalid syntax\nSee 'kubectl rollout ${sub} --help' for usage.`,
      );
  }
  const { name } = rolloutTarget(r, p.args, sub);
  const ns = nsOf(p);
  const get = () => r.must<Deployment>({ verb: 'get', resource: 'deployments', namespace: ns, name });
  const d = get();
  const qualified = `deployment.apps/${name}`;
  switch (sub) {
    case 'status': {
      // The GET above is the resource builder's; then kubectl lists and watches the Deployment
      // (fieldSelector metadata.name=NAME) and prints the status of the list's object and of each
      // notification (the same line again when a change leaves it reading the same, as the real
      // one does), until the rollout finishes; here simulated time runs meanwhile, up to the
      // progress deadline (plus slack). --watch=false prints the status once.
      const deadline = r.now + ((d.spec?.progressDeadlineSeconds ?? 600) + 60) * 1000;
      const done = untilWithSync(r, kindInfo('deployments'), ns, name, deadline, (o) => {
        if (!o) throw new Fail('error: object has been deleted');
        const s = rolloutStatusLine(fromUnstructured<Deployment>(o));
        if (s.error) throw new Fail(s.line);
        r.print(s.line + '\n');
        return s.done || p.flags.watch === false;
      });
      if (!done) throw new Fail('error: timed out waiting for the condition');
      return;
    }
    case 'history': {
      // The GET above is the resource builder's; the history viewer's getDeploymentReplicaSets GETs
      // the Deployment again before it lists the ReplicaSets, as the real one's trace shows.
      const rss = ownedReplicaSets(r, get()).sort((a, b) => revisionOf(a) - revisionOf(b));
      const revision = str(p, 'revision') === undefined ? 0 : Number(str(p, 'revision'));
      if (revision < 0) throw new Fail(`error: revision must be a positive integer: ${revision}`);
      if (revision > 0) {
        // ViewHistory with a revision: that ReplicaSet's pod template, printed by printTemplate.
        const rs = rss.find((x) => revisionOf(x) === revision);
        if (!rs) throw new Fail(`error: unable to find the specified revision`);
        // ViewHistory copies the ReplicaSet's change-cause into the template's annotations first.
        const cause = rs.metadata?.annotations?.['kubernetes.io/change-cause'];
        const tpl: PodTemplateSpec = rs.spec?.template ?? {};
        const shown = cause
          ? {
              ...tpl,
              metadata: {
                ...tpl.metadata,
                annotations: { ...tpl.metadata?.annotations, 'kubernetes.io/change-cause': cause },
              },
            }
          : tpl;
        r.print(`${qualified} with revision #${revision}\n${podTemplateText(shown)}\n`);
        return;
      }
      if (!rss.length) {
        r.print('No rollout history found.\n');
        return;
      }
      let t = 'REVISION\tCHANGE-CAUSE\n';
      for (const rs of rss)
        t += `${revisionOf(rs)}\t${rs.metadata?.annotations?.['kubernetes.io/change-cause'] ?? '<none>'}\n`;
      r.print(`${qualified} \n${tabwrite(t, DESCRIBE_TABS)}\n`);
      return;
    }
    case 'undo': {
      // 1.36+ (kubernetes#137064): before the rollback, a word about client-side apply's annotation, which it leaves as it was.
      if (d.metadata?.annotations?.[LAST_APPLIED] !== undefined)
        r.warn(rollbackApplyManagedWarning(`deployments/${name}`));
      const dry = dryRunStrategy(r, p);
      const result = rollback(r, get(), Number(str(p, 'to-revision') ?? 0), dry);
      // The printer is made after the rollback (an -o it cannot match fails only then), and prints
      // the Deployment as the builder read it, before the rollback.
      checkOutput(p);
      printWritten(r, p, dry, qualified, result, withKind(kindInfo('deployments'), d));
      return;
    }
    case 'pause':
      if (d.spec?.paused) throw new Fail(`error: deployments.apps "${name}" is already paused`);
      r.must({
        verb: 'patch',
        resource: 'deployments',
        namespace: ns,
        name,
        body: { spec: { paused: true } },
        options: { fieldManager: 'kubectl-rollout' },
      });
      r.print(`${qualified} paused\n`);
      return;
    case 'resume':
      if (!d.spec?.paused) throw new Fail(`error: deployments.apps "${name}" is not paused`);
      r.must({
        verb: 'patch',
        resource: 'deployments',
        namespace: ns,
        name,
        body: { spec: { paused: null } },
        options: { patchType: 'merge', fieldManager: 'kubectl-rollout' },
      });
      r.print(`${qualified} resumed\n`);
      return;
    case 'restart':
      if (d.spec?.paused)
        throw new Fail(`error: deployments.apps "${name}" can't restart paused deployment (run rollout resume first)`);
      r.must({
        verb: 'patch',
        resource: 'deployments',
        namespace: ns,
        name,
        body: {
          spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': rfc3339(r.now) } } } },
        },
        options: { fieldManager: 'kubectl-rollout' },
      });
      r.print(`${qualified} restarted\n`);
      return;
  }
}
