// The API server's connection to a node's kubelet (port 10250) and the pods/log subresource it serves.
import type { ApiServerConfig } from './config.ts';
import type { ApiRequest, ApiResult } from '../api/request.ts';
import type { Pod } from 'kubernetes-types/core/v1';
import { keyOf } from '../api/resources.ts';
import { fail, logRequest } from './respond.ts';
import type { ApiHost } from './server.ts';
import { notFound, statusError } from '../api/status.ts';
import { storeGet } from './store.ts';

/** GET pods/NAME/log: the container is chosen and checked here, the output comes from the node's kubelet. */
export function doPodLog(h: ApiHost, config: ApiServerConfig, component: string, req: ApiRequest): ApiResult<unknown> {
  const pod = storeGet(h.store, 'pods', keyOf(req)) as Pod | undefined;
  if (!pod) return fail(h, component, req, notFound('pods', req.name ?? ''), 'storage');
  const name = req.name ?? '';
  const names = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
  let container = req.options?.container;
  if (!container) {
    const main = pod.spec?.containers ?? [];
    if (main.length !== 1)
      return fail(
        h,
        component,
        req,
        statusError(
          400,
          'BadRequest',
          `a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`,
        ),
        'storage',
      );
    container = main[0].name;
  } else if (!names.includes(container)) {
    return fail(
      h,
      component,
      req,
      statusError(400, 'BadRequest', `container ${container} is not valid for pod ${name}`),
      'storage',
    );
  }
  const node = pod.spec?.nodeName;
  if (!node)
    return fail(
      h,
      component,
      req,
      statusError(400, 'BadRequest', `pod ${name} does not have a host assigned`),
      'storage',
    );
  const conn = config.kubelets?.(node);
  if (!conn || !conn.reachable) {
    const url = `https://${conn?.ip ?? node}:10250/containerLogs/${req.namespace}/${name}/${container}`;
    return fail(
      h,
      component,
      req,
      statusError(500, '', `Get "${url}": dial tcp ${conn?.ip ?? node}:10250: connect: no route to host`),
      'storage',
    );
  }
  const r = conn.containerLogs(req.namespace ?? 'default', name, container, !!req.options?.previous);
  if (!r.ok) return fail(h, component, req, statusError(400, 'BadRequest', r.message), 'storage');
  logRequest(h, component, req, 200, { node });
  return { ok: true, code: 200, object: r.text };
}
