// GET and LIST, with the shared informer factory's one LIST per process.
import { type ApiServerConfig, kubectlExtras } from './config.ts';
import type { ApiRequest, ApiResult, ObjectList } from '../api/request.ts';
import { RESOURCES, apiVersionOf, keyOf } from '../api/resources.ts';
import { fail, logRequest } from './respond.ts';
import { toScale } from './scale.ts';
import { matchesLabels, parseLabelSelector } from '../api/labels.ts';
import { matchesFields, parseFieldSelector } from './selectors.ts';
import type { ApiHost } from './server.ts';
import { notFound, statusError } from '../api/status.ts';
import { fieldSelectorFromEventsV1 } from './events-v1.ts';
import { storeGet, storeList } from './store.ts';
import { processLists } from './get-cache.ts';

export function doGet(h: ApiHost, config: ApiServerConfig, component: string, req: ApiRequest): ApiResult<unknown> {
  if (req.resource === 'pods' && req.subresource === 'log')
    return kubectlExtras(config).doPodLog(h, config, component, req);
  const o = storeGet(h.store, req.resource, keyOf(req));
  if (!o) return fail(h, component, req, notFound(req.resource, req.name ?? ''), 'storage');
  logRequest(h, component, req, 200);
  return { ok: true, code: 200, object: req.subresource === 'scale' ? toScale(req.resource, o) : o };
}

export function doList(h: ApiHost, config: ApiServerConfig, component: string, req: ApiRequest): ApiResult<unknown> {
  const process = h.components[component]?.process;
  if (!process) return doListUncached(h, config, component, req);
  let lists = processLists.get(h.store);
  if (!lists) processLists.set(h.store, (lists = new Map()));
  const key = `${process}|${req.group ?? ''}${req.resource}|${req.namespace ?? ''}|${req.options?.labelSelector ?? ''}|${req.options?.fieldSelector ?? ''}`;
  const hit = lists.get(key);
  if (hit && hit.revision === h.store.revision) return hit.result;
  const result = doListUncached(h, config, component, req);
  lists.set(key, { revision: h.store.revision, result });
  return result;
}

function doListUncached(h: ApiHost, config: ApiServerConfig, component: string, req: ApiRequest): ApiResult<unknown> {
  // Without kubectl's part only selectors that parse reach here (see selector-errors.ts).
  const badSelector = config.kubectlExtras?.selectors(
    req.resource,
    req.options?.labelSelector,
    req.group ? undefined : req.options?.fieldSelector,
  );
  if (badSelector) return fail(h, component, req, badSelector, 'validation');
  const labels = parseLabelSelector(req.options?.labelSelector);
  let fieldSelector = req.options?.fieldSelector;
  if (req.group && fieldSelector) {
    // The group's field labels, in the stored Event's names (the request keeps its own).
    const mapped = fieldSelectorFromEventsV1(fieldSelector);
    if ('unsupported' in mapped)
      return fail(
        h,
        component,
        req,
        statusError(400, 'BadRequest', `field label not supported: ${mapped.unsupported}`),
        'validation',
      );
    fieldSelector = mapped.selector;
  }
  const fields = parseFieldSelector(fieldSelector);
  const items = storeList(h.store, req.resource, req.namespace).filter(
    (o) => matchesLabels(labels, o.metadata?.labels as Record<string, string>) && matchesFields(fields, o),
  );
  logRequest(h, component, req, 200);
  const list: ObjectList = {
    apiVersion: apiVersionOf(req.resource),
    kind: RESOURCES[req.resource].kind + 'List',
    metadata: { resourceVersion: String(h.store.revision) },
    items,
  };
  return { ok: true, code: 200, object: list };
}
