// DELETE and eviction: graceful deletion, preconditions, finalizers and propagation policies.
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../api/meta.ts';
import { push } from '../clock.ts';
import { rfc3339 } from '../util/names.ts';
import { detachKey } from './event-ttl.ts';
import type { ApiRequest, ApiResult, MetaObject, RequestOptions, Verb } from '../api/request.ts';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { systemPriorityClassDeleteError } from './priority-class.ts';
import { keyOf } from '../api/resources.ts';
import { fail, logRequest } from './respond.ts';
import { API_SERVER, type ApiHost, type ApiServerTimer, KUBERNETES_SERVICE_INTERVAL_MS } from './server.ts';
import { conflict, notFound } from '../api/status.ts';
import { storeDelete, storeGet, storePut } from './store.ts';
import { notifyWatchers } from './watch.ts';

/** The store key of default/kubernetes, the Service the API server keeps. */
const KUBERNETES_SERVICE_KEY = keyOf({
  resource: 'services',
  namespace: 'default',
  name: 'kubernetes',
});

export function doDelete(h: ApiHost, component: string, req: ApiRequest, eviction: boolean): ApiResult<unknown> {
  const key = keyOf(req);
  const cur = storeGet(h.store, req.resource, key) as MetaObject | undefined;
  if (!cur)
    return fail(
      h,
      component,
      { ...req, subresource: eviction ? 'eviction' : undefined, verb: eviction ? 'create' : 'delete' },
      notFound(req.resource, req.name ?? ''),
      'storage',
    );
  const logReq = eviction ? { ...req, verb: 'create' as Verb, subresource: 'eviction' } : req;
  const systemClass = req.resource === 'priorityclasses' ? systemPriorityClassDeleteError(req.name ?? '') : undefined;
  if (systemClass) return fail(h, component, logReq, systemClass, 'storage');
  const pre = req.options?.preconditions;
  if (pre?.uid && pre.uid !== cur.metadata.uid) {
    return fail(
      h,
      component,
      logReq,
      conflict(
        req.resource,
        req.name ?? '',
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${cur.metadata.uid}`,
      ),
      'storage',
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== cur.metadata.resourceVersion) {
    return fail(
      h,
      component,
      logReq,
      conflict(
        req.resource,
        req.name ?? '',
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${cur.metadata.resourceVersion}`,
      ),
      'storage',
    );
  }
  const okCode = eviction ? 201 : 200;
  // deletionFinalizersForGarbageCollection: Orphan and Foreground ask the garbage collector to deal
  // with the dependents first, through a finalizer it removes when done.
  const finalizers = finalizersForDeletion(cur.metadata.finalizers, req.options?.propagationPolicy);
  const finalizersChanged = !sameStrings(finalizers, cur.metadata.finalizers ?? []);
  if (
    cur.metadata.deletionTimestamp &&
    req.resource !== 'pods' &&
    (req.resource !== 'namespaces' || finalizers.length)
  ) {
    // Already being deleted (waiting for its finalizers): only a change of policy is written.
    if (!finalizersChanged) {
      logRequest(h, component, logReq, okCode);
      return { ok: true, code: okCode, object: cur };
    }
    return markForDeletion(
      h,
      component,
      logReq,
      okCode,
      key,
      cur,
      cur.metadata.deletionTimestamp,
      cur.metadata.deletionGracePeriodSeconds ?? 0,
      finalizers,
    );
  }
  if (req.resource === 'pods') {
    // Graceful deletion: an unscheduled pod goes at once; otherwise the kubelet finishes it with grace 0.
    const pod = cur as Pod;
    let grace = req.options?.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    if (!pod.spec?.nodeName) grace = 0;
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') grace = 0;
    if (grace > 0) {
      const existing = cur.metadata.deletionGracePeriodSeconds;
      if (existing !== undefined && existing <= grace && !finalizersChanged) {
        logRequest(h, component, logReq, okCode, { node: pod.spec?.nodeName });
        return { ok: true, code: okCode, object: cur };
      }
      const next: MetaObject = {
        ...cur,
        metadata: {
          ...cur.metadata,
          deletionTimestamp: rfc3339(h.now + grace * 1000),
          deletionGracePeriodSeconds: grace,
        },
      };
      if (!cur.metadata.deletionTimestamp) bumpGeneration(next.metadata);
      if (finalizersChanged) setFinalizers(next.metadata, finalizers);
      if (eviction) {
        const conds: PodCondition[] = (pod.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget');
        conds.push({
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'EvictionByEvictionAPI',
          message: 'Eviction API: evicting',
          lastTransitionTime: rfc3339(h.now),
        });
        next.status = { ...pod.status, conditions: conds };
      }
      const ev = storePut(h.store, 'pods', key, next);
      logRequest(h, component, logReq, okCode, { revision: ev.revision, node: pod.spec?.nodeName });
      notifyWatchers(h, ev);
      return { ok: true, code: okCode, object: ev.object, revision: ev.revision };
    }
  }
  if (finalizers.length) {
    // Finalizers left (the collector's, or anyone's): marked now, removed when the last one goes.
    return markForDeletion(
      h,
      component,
      logReq,
      okCode,
      key,
      cur,
      cur.metadata.deletionTimestamp ?? rfc3339(h.now),
      0,
      finalizers,
    );
  }
  const ev = storeDelete(h.store, req.resource, key)!;
  if (req.resource === 'events' && h.apiServer.eventLeases) detachKey(h.apiServer.eventLeases, key);
  // The bootstrap controller's next pass (on its 10 s grid) finds default/kubernetes gone and makes it again.
  if (req.resource === 'services' && key === KUBERNETES_SERVICE_KEY) {
    push(
      h.queue,
      (Math.floor(h.now / KUBERNETES_SERVICE_INTERVAL_MS) + 1) * KUBERNETES_SERVICE_INTERVAL_MS,
      API_SERVER,
      { type: 'kubernetes-service' } satisfies ApiServerTimer,
      true,
    );
  }
  logRequest(h, component, logReq, okCode, { revision: ev.revision, node: cur.spec?.nodeName as string | undefined });
  notifyWatchers(h, ev);
  return { ok: true, code: okCode, object: ev.object, revision: ev.revision };
}

/** The object's finalizers with the garbage collector's two replaced by what `policy` asks for. */
export function finalizersForDeletion(
  current: string[] | undefined,
  policy: RequestOptions['propagationPolicy'],
): string[] {
  const out = (current ?? []).filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (policy === 'Orphan') out.push(FINALIZER_ORPHAN);
  if (policy === 'Foreground') out.push(FINALIZER_FOREGROUND);
  // A policy that was not given keeps a finalizer an earlier DELETE asked for.
  if (policy === undefined)
    for (const f of current ?? [])
      if ((f === FINALIZER_ORPHAN || f === FINALIZER_FOREGROUND) && !out.includes(f)) out.push(f);
  return out;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** metadata.finalizers set, or dropped when none are left (omitempty). */
export function setFinalizers(meta: MetaObject['metadata'], finalizers: string[]): void {
  if (finalizers.length) meta.finalizers = finalizers;
  else delete meta.finalizers;
}

/**
 * BeforeDelete: the first deletionTimestamp changes what the object's controllers may do, so the
 * generation (where the resource keeps one) goes up.
 */
function bumpGeneration(meta: MetaObject['metadata']): void {
  if (typeof meta.generation === 'number' && meta.generation > 0) meta.generation++;
}

/** The object stays, with deletionTimestamp and the finalizers that must go before it does. */
function markForDeletion(
  h: ApiHost,
  component: string,
  req: ApiRequest,
  code: number,
  key: string,
  cur: MetaObject,
  deletionTimestamp: string,
  grace: number,
  finalizers: string[],
): ApiResult<unknown> {
  const next: MetaObject = {
    ...cur,
    metadata: { ...cur.metadata, deletionTimestamp, deletionGracePeriodSeconds: grace },
  };
  if (!cur.metadata.deletionTimestamp) bumpGeneration(next.metadata);
  setFinalizers(next.metadata, finalizers);
  const ev = storePut(h.store, req.resource, key, next);
  logRequest(h, component, req, code, { revision: ev.revision, node: cur.spec?.nodeName as string | undefined });
  notifyWatchers(h, ev);
  return { ok: true, code, object: ev.object, revision: ev.revision };
}

/** ShouldDeleteDuringUpdate: marked for deletion and no finalizer left (a pod: also its grace period over). */
export function shouldDeleteDuringUpdate(resource: string, next: Partial<MetaObject>): boolean {
  const m = next.metadata;
  if (!m?.deletionTimestamp || m.finalizers?.length) return false;
  // ShouldDeleteNamespaceDuringUpdate: a namespace also waits for its spec's finalizers (the namespace controller's `kubernetes`).
  if (resource === 'namespaces') return !(next.spec?.finalizers as string[] | undefined)?.length;
  return resource !== 'pods' || m.deletionGracePeriodSeconds === 0;
}
