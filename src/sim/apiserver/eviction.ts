// The eviction subresource's PodDisruptionBudget checks (pkg/registry/core/pod/storage/eviction.go,
// v1.37.2) and the PDB registry's create strategy. In kubectl's lazy chunk: only kubectl evicts
// (drain) and creates a PDB, so a world kubectl never ran in has neither.
// Simplified: the granted eviction's pod write and delete stay the generic DELETE's (delete.ts: one
// write with the DisruptionTarget condition), without the resourceVersion precondition the real one
// adds for an unready pod; there is no concurrency inside one request, so the PDB's conflict retry
// loop (EvictionsRetry) never turns.
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { push } from '../clock.ts';
import { rfc3339 } from '../util/names.ts';
import { DISRUPTION_CONTROLLER } from '../controllers/names.ts';
import { selects, updateDisruptionAllowedCondition } from '../api/poddisruptionbudget.ts';
import { isPodReady } from '../controllers/replicaset-util.ts';
import type { AdmissionPlugin } from './config.ts';
import type { ApiServerConfig } from './config.ts';
import { doDelete } from './delete.ts';
import { handleRequest } from './handler.ts';
import type { ApiRequest, ApiResult, RequestOptions } from '../api/request.ts';
import type { Unstructured } from '../api/unstructured.ts';
import { keyOf } from '../api/resources.ts';
import { fail } from './respond.ts';
import { API_SERVER, type ApiHost, type ApiServerTimer } from './server.ts';
import { type Status, statusError } from '../api/status.ts';
import { storeGet } from './store.ts';

/** MaxDisruptedPodSize: more evictions than this not yet seen by the controller are refused. */
const MAX_DISRUPTED_POD_SIZE = 2000;

/** The message of every 429 the eviction API answers for a PDB. */
const EVICTION_REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";

/** The component the API server's own loopback requests are logged under (system:apiserver). */
const LOOPBACK = 'kube-apiserver';

/** Starts the disruption controller in the controller manager's process, if it is not running (World.startController). */
function wakeDisruptionController(h: ApiHost): void {
  push(h.queue, h.now, API_SERVER, { type: 'start', name: DISRUPTION_CONTROLLER } satisfies ApiServerTimer);
}

/** errors.NewTooManyRequests with the DisruptionBudget cause. */
function tooManyRequests(retryAfterSeconds: number, cause: string): Status {
  const st = statusError(429, 'TooManyRequests', EVICTION_REFUSED, {
    causes: [{ reason: 'DisruptionBudget', message: cause } as { reason: string; message: string; field: string }],
  });
  if (retryAfterSeconds) (st.details as Unstructured).retryAfterSeconds = retryAfterSeconds;
  return st;
}

/** errors.NewForbidden on poddisruptionbudget.policy with the DisruptionBudget cause. */
function forbidden(name: string, err: string, cause: string): Status {
  return statusError(403, 'Forbidden', `poddisruptionbudget.policy "${name}" is forbidden: ${err}`, {
    name,
    group: 'policy',
    kind: 'poddisruptionbudget',
    causes: [{ reason: 'DisruptionBudget', message: cause } as { reason: string; message: string; field: string }],
  });
}

/** canIgnorePDB: a pod that is terminal, Pending or already being deleted is deleted without asking its budget. */
function canIgnorePDB(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp;
}

/**
 * checkAndDecrement's refusals, or undefined when the budget allows one more disruption: a status
 * the controller has not caught up with (429, retry after 10 s), a negative or overfull budget
 * (403), no disruption left (429, with the reason the condition or the counts give).
 */
export function budgetRefusal(pdb: PodDisruptionBudget): Status | undefined {
  const name = pdb.metadata?.name ?? '';
  const st = pdb.status;
  if ((st?.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0))
    return tooManyRequests(10, `The disruption budget ${name} is still being processed by the server.`);
  const allowed = st?.disruptionsAllowed ?? 0;
  if (allowed < 0)
    return forbidden(
      name,
      'pdb disruptions allowed is negative',
      `The disruption budget ${name} does not allow evicting pods currently: pdb disruptions allowed is negative`,
    );
  if (Object.keys(st?.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    return forbidden(
      name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
      `The disruption budget ${name} does not allow evicting pods currently: too many pending evictions not confirmed by PDB controller`,
    );
  }
  if (allowed > 0) return undefined;
  const cond = st?.conditions?.find((c) => c.type === 'DisruptionAllowed');
  const current = st?.currentHealthy ?? 0;
  const desired = st?.desiredHealthy ?? 0;
  const msg =
    cond?.status === 'False' && cond.message && cond.reason === 'SyncFailed'
      ? `The disruption budget ${name} does not allow evicting pods currently because it failed sync: ${cond.message}`
      : current <= desired
        ? `The disruption budget ${name} needs ${desired} healthy pods and has ${current} currently`
        : cond?.status === 'False' && cond.message
          ? `The disruption budget ${name} does not allow evicting pods currently (${cond.reason}): ${cond.message}`
          : `The disruption budget ${name} does not allow evicting pods currently`;
  return tooManyRequests(0, msg);
}

/**
 * EvictionREST.Create's budget check, before the pod is deleted: undefined lets the eviction go on
 * to the delete (no budget covers the pod, the pod can ignore it, or the budget allowed it and was
 * decremented), otherwise the answer. The PDBs are listed and the decremented status written with
 * the API server's own client, as the real registry does (they are logged as kube-apiserver's).
 */
function evictionCheck(
  h: ApiHost,
  config: ApiServerConfig,
  component: string,
  req: ApiRequest,
): ApiResult<unknown> | undefined {
  const pod = storeGet(h.store, 'pods', keyOf(req)) as Pod | undefined;
  if (!pod || canIgnorePDB(pod)) return undefined;
  const ns = pod.metadata?.namespace;
  const listed = handleRequest(h, config, LOOPBACK, { verb: 'list', resource: 'poddisruptionbudgets', namespace: ns });
  const logReq: ApiRequest = { ...req, verb: 'create', subresource: 'eviction' };
  if (!listed.ok) return fail(h, component, logReq, listed.status, 'storage');
  const pdbs = ((listed.object as Unstructured).items as PodDisruptionBudget[]).filter((p) =>
    selects(p.spec?.selector, pod.metadata?.labels),
  );
  // A budget read here needs the controller that keeps its status: started again if it stopped with
  // its process (a restart of the controller manager), where the real one restarts with the process.
  if (pdbs.length) wakeDisruptionController(h);
  // More than one: a Status the registry returns as its result (not an error), with code 500.
  if (pdbs.length > 1)
    return fail(
      h,
      component,
      logReq,
      statusError(
        500,
        '',
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      ),
      'storage',
    );
  const pdb = pdbs[0];
  if (!pdb) return undefined;
  // An unready pod does not count as healthy: evicting it costs the budget nothing if the budget
  // says so (AlwaysAllow) or is met without it.
  if (!isPodReady(pod)) {
    if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return undefined;
    const st = pdb.status;
    if ((st?.currentHealthy ?? 0) >= (st?.desiredHealthy ?? 0) && (st?.desiredHealthy ?? 0) > 0) return undefined;
  }
  const refused = budgetRefusal(pdb);
  if (refused) return fail(h, component, logReq, refused, 'storage');
  const status = { ...pdb.status!, disruptionsAllowed: pdb.status!.disruptionsAllowed - 1 };
  const next = status.disruptionsAllowed === 0 ? updateDisruptionAllowedCondition(status, rfc3339(h.now)) : status;
  // A dry run decrements nothing it keeps.
  const dr: unknown = req.options?.dryRun;
  if (Array.isArray(dr) ? dr.length : dr) return undefined;
  // The controller is told which pod is about to go, so it stops counting it as available.
  next.disruptedPods = { ...next.disruptedPods, [pod.metadata!.name!]: rfc3339(h.now) };
  const wrote = handleRequest(h, config, LOOPBACK, {
    verb: 'update',
    resource: 'poddisruptionbudgets',
    namespace: ns,
    name: pdb.metadata?.name,
    subresource: 'status',
    body: { ...pdb, status: next },
  });
  if (!wrote.ok) return fail(h, component, logReq, wrote.status, 'storage');
  return undefined;
}

/**
 * POST pods/NAME/eviction (EvictionREST.Create): the Eviction's deleteOptions are the delete's; the
 * budgets' check, then the pod's graceful delete with the DisruptionTarget condition (delete.ts).
 */
export function evict(h: ApiHost, config: ApiServerConfig, component: string, req: ApiRequest): ApiResult<unknown> {
  const e: ApiRequest = {
    ...req,
    verb: 'delete',
    options: {
      ...req.options,
      ...((req.body as Unstructured | undefined)?.deleteOptions as RequestOptions | undefined),
    },
  };
  return evictionCheck(h, config, component, e) ?? doDelete(h, component, e, true);
}

/**
 * The PDB registry's PrepareForCreate (the status a new budget starts with: all counts zero) and the
 * start of the disruption controller that fills it in, as an admission step of kubectl's part.
 */
export const PDB_CREATE: AdmissionPlugin = {
  name: 'PodDisruptionBudgetCreate',
  admit(a, h) {
    if (a.resource !== 'poddisruptionbudgets' || a.operation !== 'CREATE' || a.subresource) return undefined;
    wakeDisruptionController(h);
    return { ...a.object!, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } };
  },
};
