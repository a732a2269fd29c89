// dryRun=All: a write served on a scratch copy of what it touches (staging/src/k8s.io/apiserver's
// dry-run storage does the same at the storage layer).
import type { RngState } from '../rng.ts';
import { appendRecord } from '../request-log.ts';
import type { ApiRequest, ApiResult, KObject } from '../api/request.ts';
import type { Eviction } from 'kubernetes-types/policy/v1';
import { RESOURCES, keyOf } from '../api/resources.ts';
import type { ApiHost } from './server.ts';
import { storeGet, type StoreState } from './store.ts';
import { scratchHosts } from './dry-run-cache.ts';

/** Whether a request is a dry run still to be moved onto a scratch host. */
export function isDryRun(h: ApiHost, req: ApiRequest): boolean {
  // An eviction carries its dry run in the body's deleteOptions (kubectl drain --dry-run=server), not the query.
  const inBody =
    req.subresource === 'eviction' && ((req.body as Eviction | undefined)?.deleteOptions?.dryRun?.length ?? 0) > 0;
  return (!!req.options?.dryRun || inBody) && req.verb !== 'get' && req.verb !== 'list' && !scratchHosts.has(h);
}

/**
 * The whole pipeline (authorization, defaulting, admission, validation, allocation) served by
 * `serve` on a scratch copy, so nothing is stored, no revision is made, no watcher hears of it, no
 * address is taken and the world's generator draws nothing. The log shows the request with
 * `?dryRun=All`; the object comes back as the storage layer's dry run gives it (a created one
 * without a resourceVersion, a changed one with the one it has).
 */
export function dryRunRequest(
  h: ApiHost,
  req: ApiRequest,
  serve: (scratch: ApiHost) => ApiResult<unknown>,
): ApiResult<unknown> {
  const s = h.store;
  const objects: StoreState['objects'] = {};
  for (const r of Object.keys(s.objects)) objects[r] = { ...s.objects[r] };
  const scratch: ApiHost = {
    now: h.now,
    components: h.components,
    rng: [...h.rng] as RngState,
    log: [],
    queue: { heap: [], nextSeq: h.queue.nextSeq, pending: 0 },
    store: {
      ...s,
      objects,
      createRevision: Object.assign(Object.create(null), s.createRevision),
      history: [...s.history],
    },
    apiServer: {
      ...h.apiServer,
      watchers: {},
      watchIndex: {},
      allocatedIPs: { ...h.apiServer.allocatedIPs },
      nameRng: [...h.apiServer.nameRng] as RngState,
      volumeNameRng: [...h.apiServer.volumeNameRng] as RngState,
      allocatedNodePorts: h.apiServer.allocatedNodePorts && { ...h.apiServer.allocatedNodePorts },
      eventLeases: h.apiServer.eventLeases && structuredClone(h.apiServer.eventLeases),
    },
  };
  scratchHosts.add(scratch);
  const res = serve(scratch);
  // (Their paths carry ?dryRun=All: the request's options say so.)
  // An eviction whose dry run was in its body was sent without ?dryRun=All: its record says so too.
  const bodyOnly = !req.options?.dryRun;
  for (const rec of scratch.log) {
    const { revision: _revision, ...kept } = rec;
    if (bodyOnly && kept.path) kept.path = kept.path.replace(/\?dryRun=All$/, '').replace(/([?&])dryRun=All&/, '$1');
    appendRecord(h.log, kept);
  }
  if (!res.ok) return res;
  const obj = res.object as KObject;
  if (!obj?.metadata) return { ok: true, code: res.code, object: obj };
  const live = req.name
    ? storeGet(
        s,
        req.resource,
        keyOf({
          ...req,
          namespace: RESOURCES[req.resource]?.namespaced
            ? (req.namespace ?? (req.body as KObject | undefined)?.metadata?.namespace ?? 'default')
            : undefined,
        }),
      )
    : undefined;
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  return {
    ok: true,
    code: res.code,
    object: { ...obj, metadata: live ? { ...meta, resourceVersion: live.metadata!.resourceVersion } : meta },
  };
}
