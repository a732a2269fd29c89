// POST pods/NAME/binding: the scheduler's write of spec.nodeName.
import { rfc3339 } from '../util/names.ts';
import type { Identity } from '../api/identity.ts';
import type { ApiRequest, ApiResult, MetaObject } from '../api/request.ts';
import type { Binding } from 'kubernetes-types/core/v1';
import type { Unstructured } from '../api/unstructured.ts';
import { keyOf } from '../api/resources.ts';
import { fail, logRequest } from './respond.ts';
import type { ApiHost } from './server.ts';
import { invalid, notFound, statusError } from '../api/status.ts';
import { storeGet } from './store.ts';
import { putOwn } from './update.ts';
import { notifyWatchers } from './watch.ts';

export function doBinding(h: ApiHost, component: string, id: Identity, req: ApiRequest): ApiResult<unknown> {
  const key = keyOf(req);
  const cur = storeGet(h.store, 'pods', key) as MetaObject | undefined;
  if (!cur) return fail(h, component, req, notFound('pods', req.name ?? ''), 'storage');
  const node = (req.body as Binding | undefined)?.target?.name;
  if (!node)
    return fail(
      h,
      component,
      req,
      invalid('pods', req.name ?? '', [{ type: 'Required', field: 'target.name' }]),
      'validation',
    );
  if (cur.spec?.nodeName) {
    return fail(
      h,
      component,
      req,
      statusError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on pods/binding "${req.name}": pod ${req.name} is already assigned to node "${cur.spec.nodeName}"`,
      ),
      'storage',
    );
  }
  if (cur.metadata.deletionTimestamp) {
    return fail(
      h,
      component,
      req,
      statusError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on pods/binding "${req.name}": pod ${req.name} is being deleted, cannot be assigned to a host`,
      ),
      'storage',
    );
  }
  void id;
  const cs = cur.status as Unstructured | undefined;
  const conds = ((cs?.conditions ?? []) as Unstructured[]).filter((c) => c.type !== 'PodScheduled');
  conds.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(h.now) });
  const status: Unstructured = { ...cs, conditions: conds };
  // ClearingNominatedNodeNameAfterBinding (beta, on since 1.35): the nomination hint goes.
  delete status.nominatedNodeName;
  const next = { ...cur, spec: { ...cur.spec, nodeName: node }, status };
  const ev = putOwn(h, 'pods', key, next);
  logRequest(h, component, req, 201, { revision: ev.revision, node });
  notifyWatchers(h, ev);
  return {
    ok: true,
    code: 201,
    object: { kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201, metadata: {} },
    revision: ev.revision,
  };
}
