// A namespace's end on the API server's side: the namespace registry's Delete and NamespaceLifecycle's
// refusal of new content in a terminating namespace. In kubectl's lazy chunk, with the namespace
// controller that finishes the job: only kubectl deletes a namespace, so a world kubectl never ran
// in has no terminating namespace.
import { push } from '../clock.ts';
import { rfc3339 } from '../util/names.ts';
import { namespaceLifecycle } from './admission.ts';
import type { AdmissionPlugin } from './config.ts';
import type { ApiServerConfig } from './config.ts';
import { finalizersForDeletion, setFinalizers } from './delete.ts';
import type { ApiRequest, ApiResult, MetaObject } from '../api/request.ts';
import type { NamespaceStatus } from 'kubernetes-types/core/v1';
import { RESOURCES, keyOf, namesOf, qualifiedResource } from '../api/resources.ts';
import { logRequest } from './respond.ts';
import { API_SERVER, type ApiHost, type ApiServerTimer } from './server.ts';
import { type Status, statusError } from '../api/status.ts';
import { storeGet, storePut } from './store.ts';
import { notifyWatchers } from './watch.ts';

/**
 * The namespace registry's Delete: the first DELETE only marks the namespace (deletionTimestamp,
 * phase Terminating) and wakes the namespace controller, which empties it and takes off the
 * `kubernetes` finalizer in spec; until that finalizer is gone a DELETE changes nothing. Undefined:
 * no such namespace, or no spec finalizers left, so the generic delete goes on.
 */
export function namespaceDelete(h: ApiHost, component: string, req: ApiRequest): ApiResult<unknown> | undefined {
  const key = keyOf(req);
  const cur = storeGet(h.store, 'namespaces', key) as MetaObject | undefined;
  if (!cur) return undefined;
  // Any DELETE of a namespace queues the controller's start (a running one stays as it is), so one
  // lost with a controller-manager restart comes back.
  const wake = () =>
    push(h.queue, h.now, API_SERVER, { type: 'start', name: 'namespace-controller' } satisfies ApiServerTimer);
  if (!cur.metadata.deletionTimestamp) {
    const next: MetaObject = {
      ...cur,
      metadata: { ...cur.metadata, deletionTimestamp: rfc3339(h.now) },
      status: { ...(cur.status as NamespaceStatus | undefined), phase: 'Terminating' },
    };
    setFinalizers(next.metadata, finalizersForDeletion(cur.metadata.finalizers, req.options?.propagationPolicy));
    const ev = storePut(h.store, 'namespaces', key, next);
    wake();
    logRequest(h, component, req, 200, { revision: ev.revision });
    notifyWatchers(h, ev);
    return { ok: true, code: 200, object: ev.object, revision: ev.revision };
  }
  if (!(cur.spec?.finalizers as string[] | undefined)?.length) return undefined;
  wake();
  logRequest(h, component, req, 200);
  return { ok: true, code: 200, object: cur };
}

/**
 * NamespaceLifecycle's refusal of a create in a terminating namespace: admission.NewForbidden
 * (errors.NewForbidden: no quoted name when the object has none yet) with the NamespaceTerminating cause.
 */
function terminating(a: Parameters<AdmissionPlugin['admit']>[0], h: ApiHost): Status | undefined {
  if (a.operation !== 'CREATE' || !RESOURCES[a.resource]?.namespaced || a.subresource) return undefined;
  const ns = a.namespace ?? 'default';
  const got = storeGet(h.store, 'namespaces', namesOf('namespaces', undefined, ns).key);
  if ((got?.status as { phase?: string } | undefined)?.phase !== 'Terminating') return undefined;
  const n = a.name ? ` "${a.name}"` : '';
  return statusError(
    403,
    'Forbidden',
    `${qualifiedResource(a.resource)}${n} is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
    {
      name: a.name ?? '',
      group: RESOURCES[a.resource].group,
      kind: a.resource,
      causes: [
        { reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' },
      ],
    },
  );
}

/** NamespaceLifecycle as a cluster kubectl has run in has it: the core plugin, then the terminating check. */
const NAMESPACE_LIFECYCLE: AdmissionPlugin = {
  name: namespaceLifecycle.name,
  admit: (a, h) => namespaceLifecycle.admit(a, h) ?? terminating(a, h),
};

/** Puts NAMESPACE_LIFECYCLE in the core plugin's place in one API server's chain (again is a no-op). */
export function withNamespaceLifecycle(config: ApiServerConfig): void {
  const i = config.admission.indexOf(namespaceLifecycle);
  if (i >= 0) config.admission[i] = NAMESPACE_LIFECYCLE;
}
