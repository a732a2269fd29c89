// The EndpointSlice controller (pkg/controller/endpointslice): for every Service with a selector,
// the ready/serving/terminating endpoints of the pods it selects, in slices of at most 100.
import type { Node, Pod, Service, ServicePort } from 'kubernetes-types/core/v1';
import type { Endpoint, EndpointPort, EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { Ctx, ComponentDef } from '../world.ts';
import {
  informerHandle,
  listAndWatch,
  metaNamespaceKey,
  newInformer,
  type EventHandlers,
  type InformerEvent,
  type InformerState,
  memoHandlers,
} from '../client-go/informer.ts';
import {
  add,
  addAfter,
  addRateLimited,
  done,
  forget,
  get,
  len,
  newWorkQueue,
  syncWithCause,
  workQueueHandle,
  type WorkQueue,
  type WorkQueueAdd,
} from '../client-go/workqueue.ts';
import { deepEqual } from '../util/names.ts';
import { matchesSet } from '../api/labels.ts';
import { desiredCache, endpointJSON } from './endpointslice-controller-cache.ts';

/** --max-endpoints-per-slice default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;
/** The managed-by label value this controller owns slices under. */
const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
/** discovery.LabelServiceName. */
const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
/** discovery.LabelManagedBy. */
const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
/** Requeue delay while the slice cache lags behind this controller's own writes. */
const STALE_CACHE_RETRY_MS = 50;

/** The controller's state (plain data). */
interface EndpointSliceControllerState {
  services: InformerState<Service>;
  pods: InformerState<Pod>;
  slices: InformerState<EndpointSlice>;
  nodes: InformerState<Node>;
  queue: WorkQueue;
  /** endpointSliceTracker: per service, the resourceVersion each slice must reach in the cache ('' = deleted). */
  expected: Record<string, Record<string, string>>;
  /** A worker run is queued. */
  workPending: boolean;
}

type WorkEvent = { type: 'endpointslice-work' } | { type: 'endpointslice-done'; key: string };

/**
 * How long the worker is busy with one Service: 1 ms plus 10 µs per endpoint (a Service with
 * thousands of pods takes the real controller tens of ms). Changes meanwhile coalesce in the work
 * queue into one more sync, as they do behind a running sync in kube-controller-manager.
 */
function syncDurationMs(endpoints: number): number {
  return 1 + Math.floor(endpoints / 100);
}

/** podutil.IsPodReady: the Ready condition is True. */
function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** ShouldPodBeInEndpoints(pod, includeTerminating = true): not terminal and has an IP. */
function shouldPodBeInEndpoints(pod: Pod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  return !!pod.status?.podIP || (pod.status?.podIPs ?? []).length > 0;
}

/** Whether the Service's selector (a plain label map) selects the pod. */
function serviceSelectsPod(svc: Service, pod: Pod): boolean {
  const sel = svc.spec?.selector;
  if (!sel || (svc.metadata?.namespace ?? '') !== (pod.metadata?.namespace ?? '')) return false;
  return matchesSet(sel, pod.metadata?.labels);
}

/** podutil.FindPort: a numeric targetPort as is, a named one looked up among the containers' ports. */
function findPort(pod: Pod, sp: ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? [])
      if (p.name === target && (p.protocol ?? 'TCP') === (sp.protocol ?? 'TCP')) return p.containerPort;
  }
  return undefined;
}

/** getEndpointPorts: the service's ports resolved against one pod (unresolvable ones left out). */
function endpointPorts(svc: Service, pod: Pod): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    const ep: EndpointPort = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
    if (sp.appProtocol) ep.appProtocol = sp.appProtocol;
    out.push(ep);
  }
  return out;
}

/** podToEndpoint: serving = Ready, terminating = deletionTimestamp set, ready = serving && !terminating. */
function podToEndpoint(pod: Pod, svc: Service, node?: Node): Endpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata?.deletionTimestamp;
  // publishNotReadyAddresses publishes every endpoint as ready.
  const ready = !!svc.spec?.publishNotReadyAddresses || (serving && !terminating);
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip).filter((ip): ip is string => !!ip && !ip.includes(':'));
  const ep: Endpoint = {
    addresses: [ips[0] ?? pod.status?.podIP ?? ''],
    conditions: { ready, serving, terminating },
  };
  if (pod.spec?.hostname && pod.spec.subdomain === svc.metadata?.name && svc.spec?.clusterIP === 'None')
    ep.hostname = pod.spec.hostname;
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata?.labels?.['topology.kubernetes.io/zone'];
  if (zone) ep.zone = zone;
  ep.targetRef = { kind: 'Pod', namespace: pod.metadata?.namespace, name: pod.metadata?.name, uid: pod.metadata?.uid };
  return ep;
}

/** setEndpointSliceLabels: the service's own labels, then the service-name and managed-by labels. */
function sliceLabels(svc: Service): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(svc.metadata?.labels ?? {})) {
    if (k === LABEL_SERVICE_NAME || k === LABEL_MANAGED_BY) continue;
    labels[k] = v;
  }
  if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
  labels[LABEL_SERVICE_NAME] = svc.metadata?.name ?? '';
  labels[LABEL_MANAGED_BY] = CONTROLLER_NAME;
  return labels;
}

/** The slice a Service should have, before endpoints are placed in it. */
function newEndpointSlice(svc: Service, ports: EndpointPort[], endpoints: Endpoint[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: `${svc.metadata?.name}-`,
      namespace: svc.metadata?.namespace,
      labels: sliceLabels(svc),
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: svc.metadata?.name ?? '',
          uid: svc.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType: 'IPv4',
    endpoints,
    ports,
  };
}

/** One desired endpoint with the port set it belongs to. */
export interface Desired {
  pod: string;
  portsKey: string;
  ports: EndpointPort[];
  endpoint: Endpoint;
}

function jsonOf(ep: Endpoint): string {
  let j = endpointJSON.get(ep);
  if (j === undefined) endpointJSON.set(ep, (j = JSON.stringify(ep)));
  return j;
}

function desiredOf(pod: Pod, svc: Service, node: Node | undefined): Desired {
  const c = desiredCache.get(pod);
  if (c && c.svc === svc && c.node === node) return c.d;
  const ports = endpointPorts(svc, pod);
  const d: Desired = {
    pod: metaNamespaceKey(pod),
    ports,
    portsKey: JSON.stringify(ports),
    endpoint: podToEndpoint(pod, svc, node),
  };
  desiredCache.set(pod, { svc, node, d });
  return d;
}

function sameEndpoints(slice: EndpointSlice, endpoints: Endpoint[]): boolean {
  const cur = slice.endpoints ?? [];
  if (cur.length !== endpoints.length) return false;
  for (let i = 0; i < cur.length; i++) {
    if (cur[i] !== endpoints[i] && jsonOf(cur[i]) !== jsonOf(endpoints[i]) && !deepEqual(cur[i], endpoints[i]))
      return false;
  }
  return true;
}

/** What to write for one Service: slices to create, to update (full objects) and to delete (names). */
interface SlicePlan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: string[];
}

function podRef(ep: Endpoint): string {
  return `${ep.targetRef?.namespace ?? ''}/${ep.targetRef?.name ?? ''}`;
}

/**
 * The reconciler, reduced: existing slices keep the endpoints they already hold (refreshed, or
 * dropped when the pod left), the rest fill slices that have room, then new slices of ≤ max; a
 * slice left empty is deleted, except that a Service with no endpoints keeps one placeholder.
 * Only slices whose content changes are written.
 */
export function reconcileSlices(
  svc: Service,
  pods: Pod[],
  existing: EndpointSlice[],
  nodes: Record<string, Node> = {},
  maxPerSlice = MAX_ENDPOINTS_PER_SLICE,
): SlicePlan {
  const desired = new Map<string, Desired>();
  const wanted: Desired[] = [];
  for (const pod of pods) {
    if (!serviceSelectsPod(svc, pod) || !shouldPodBeInEndpoints(pod)) continue;
    wanted.push(desiredOf(pod, svc, nodes[pod.spec?.nodeName ?? '']));
  }
  wanted.sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0));
  for (const d of wanted) desired.set(d.pod, d);
  const labels = sliceLabels(svc);
  const plan: SlicePlan = { create: [], update: [], delete: [] };
  const sorted = [...existing].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  // 1. Existing slices keep (refreshed) endpoints of the pods still wanted with the same ports.
  const kept: { slice: EndpointSlice; endpoints: Endpoint[]; portsKey: string }[] = [];
  const placed = new Set<string>();
  for (const slice of sorted) {
    const portsKey = JSON.stringify(slice.ports ?? []);
    const endpoints: Endpoint[] = [];
    for (const ep of slice.endpoints ?? []) {
      const d = desired.get(podRef(ep));
      if (!d || d.portsKey !== portsKey || placed.has(d.pod) || endpoints.length >= maxPerSlice) continue;
      endpoints.push(d.endpoint);
      placed.add(d.pod);
    }
    kept.push({ slice, endpoints, portsKey });
  }
  // 2. The rest go into slices with room and the same ports, then into new slices.
  const fresh: { ports: EndpointPort[]; portsKey: string; endpoints: Endpoint[] }[] = [];
  for (const d of desired.values()) {
    if (placed.has(d.pod)) continue;
    const k = kept.find((x) => x.portsKey === d.portsKey && x.endpoints.length < maxPerSlice && x.endpoints.length > 0);
    if (k) {
      k.endpoints.push(d.endpoint);
      continue;
    }
    let f = fresh.find((x) => x.portsKey === d.portsKey && x.endpoints.length < maxPerSlice);
    if (!f) fresh.push((f = { ports: d.ports, portsKey: d.portsKey, endpoints: [] }));
    f.endpoints.push(d.endpoint);
  }
  // 3. Empty slices go, unless the Service would be left with no slice at all (the placeholder).
  let placeholder: (typeof kept)[number] | undefined;
  if (desired.size === 0) {
    placeholder = kept[0];
    if (placeholder) placeholder.portsKey = '[]';
    else plan.create.push(newEndpointSlice(svc, [], []));
  }
  for (const k of kept) {
    if (k !== placeholder && k.endpoints.length === 0) {
      plan.delete.push(k.slice.metadata?.name ?? '');
      continue;
    }
    const ports = k === placeholder ? [] : (k.slice.ports ?? []);
    const owner = newEndpointSlice(svc, ports, k.endpoints).metadata!.ownerReferences;
    const changed =
      !sameEndpoints(k.slice, k.endpoints) ||
      !deepEqual(k.slice.ports ?? [], ports) ||
      !deepEqual(k.slice.metadata?.labels ?? {}, labels) ||
      !deepEqual(k.slice.metadata?.ownerReferences ?? [], owner);
    if (changed)
      plan.update.push({
        ...k.slice,
        metadata: { ...k.slice.metadata, labels, ownerReferences: owner },
        endpoints: k.endpoints,
        ports,
      });
  }
  for (const f of fresh) plan.create.push(newEndpointSlice(svc, f.ports, f.endpoints));
  // finalize: a create and a delete become an update of the slice that would go (creates taken from the end).
  while (plan.delete.length > 0 && plan.create.length > 0) {
    const name = plan.delete.shift()!;
    const old = sorted.find((sl) => sl.metadata?.name === name)!;
    const sl = plan.create.pop()!;
    plan.update.push({
      ...sl,
      metadata: {
        ...sl.metadata,
        name,
        uid: old.metadata?.uid,
        resourceVersion: old.metadata?.resourceVersion,
        creationTimestamp: old.metadata?.creationTimestamp,
      },
    });
  }
  return plan;
}

function serviceKeyOfSlice(slice: EndpointSlice): string | undefined {
  const name = slice.metadata?.labels?.[LABEL_SERVICE_NAME];
  return name ? `${slice.metadata?.namespace ?? ''}/${name}` : undefined;
}

function kickWork(ctx: Ctx<EndpointSliceControllerState>): void {
  if (ctx.state.workPending || len(ctx.state.queue) === 0) return;
  ctx.state.workPending = true;
  ctx.schedule(0, { type: 'endpointslice-work' } satisfies WorkEvent);
}

// Every enqueue is a handler's: the notification being handled (if any) is the key's cause.
function enqueue(ctx: Ctx<EndpointSliceControllerState>, key: string): void {
  add(ctx.state.queue, key, ctx.notification);
  kickWork(ctx);
}

function handlers(ctx: Ctx<EndpointSliceControllerState>) {
  const s = ctx.state;
  const forPod = (pod: Pod) => {
    // (for…in, not Object.values: no array per notification; the same insertion order)
    const items = s.services.items;
    for (const k in items) {
      const svc = items[k];
      if (serviceSelectsPod(svc, pod)) enqueue(ctx, metaNamespaceKey(svc));
    }
  };
  const svcH: EventHandlers<Service> = {
    add: (svc) => enqueue(ctx, metaNamespaceKey(svc)),
    update: (_o, svc) => enqueue(ctx, metaNamespaceKey(svc)),
    delete: (svc) => enqueue(ctx, metaNamespaceKey(svc)),
  };
  const podH: EventHandlers<Pod> = {
    add: forPod,
    // The old version selects the same Services when a write keeps its labels (and namespace) by reference.
    update: (old, pod) => {
      if (old.metadata?.labels !== pod.metadata?.labels || old.metadata?.namespace !== pod.metadata?.namespace)
        forPod(old);
      forPod(pod);
    },
    delete: forPod,
  };
  // A slice of ours changed by someone else (or deleted) is put back as the Service wants it. The
  // informer sees every slice (kube-controller-manager's shared informer is unfiltered); only ours
  // count, or one whose managed-by label just changed (onEndpointSliceAdd/Update/Delete:
  // ManagedByController, ManagedByChanged).
  const mine = (sl: EndpointSlice) => managedBy(sl) === CONTROLLER_NAME;
  const sliceH: EventHandlers<EndpointSlice> = {
    add: (sl) => {
      const k = mine(sl) ? serviceKeyOfSlice(sl) : undefined;
      if (k) enqueue(ctx, k);
    },
    update: (o, sl) => {
      const k = mine(sl) || managedBy(o) !== managedBy(sl) ? serviceKeyOfSlice(sl) : undefined;
      if (k) enqueue(ctx, k);
    },
    delete: (sl) => {
      const k = mine(sl) ? serviceKeyOfSlice(sl) : undefined;
      if (k) enqueue(ctx, k);
    },
  };
  return { svcH, podH, sliceH };
}

/** A slice's endpointslice.kubernetes.io/managed-by label. */
function managedBy(sl: EndpointSlice): string | undefined {
  return sl.metadata?.labels?.[LABEL_MANAGED_BY];
}

// endpointSliceTracker.StaleSlices: the cache has not yet seen one of our own writes.
function cacheIsStale(s: EndpointSliceControllerState, key: string): boolean {
  const exp = s.expected[key];
  if (!exp) return false;
  for (const [name, rv] of Object.entries(exp)) {
    const cached = s.slices.items[`${key.split('/')[0]}/${name}`];
    if (rv === '') {
      if (cached) return true;
      continue;
    }
    if (!cached || Number(cached.metadata?.resourceVersion ?? 0) < Number(rv)) return true;
  }
  return false;
}

function syncService(ctx: Ctx<EndpointSliceControllerState>, key: string): { ok: boolean; endpoints: number } {
  const s = ctx.state;
  const [ns, name] = key.split('/');
  const svc = s.services.items[key];
  const mine = Object.values(s.slices.items).filter(
    (sl) =>
      sl.metadata?.namespace === ns &&
      sl.metadata?.labels?.[LABEL_SERVICE_NAME] === name &&
      sl.metadata?.labels?.[LABEL_MANAGED_BY] === CONTROLLER_NAME,
  );
  if (cacheIsStale(s, key)) {
    addAfter(ctx, s.queue, key, STALE_CACHE_RETRY_MS);
    return { ok: true, endpoints: 0 };
  }
  delete s.expected[key];
  const exp: Record<string, string> = {};
  let ok = true;
  // A deleted Service's slices are the garbage collector's (they name it as their owner); one without
  // a selector is someone else's to fill.
  if (!svc || !svc.spec?.selector) return { ok, endpoints: 0 };
  const pods = Object.values(s.pods.items).filter((p) => p.metadata?.namespace === ns);
  const plan = reconcileSlices(svc, pods, mine, s.nodes.items);
  for (const sl of plan.create) {
    const r = ctx.api.create('endpointslices', sl, ns);
    if (r.ok) exp[r.object.metadata?.name ?? ''] = r.object.metadata?.resourceVersion ?? '';
    else ok = false;
  }
  for (const sl of plan.update) {
    const r = ctx.api.update('endpointslices', sl);
    if (r.ok) exp[r.object.metadata?.name ?? ''] = r.object.metadata?.resourceVersion ?? '';
    else ok = false;
  }
  for (const n of plan.delete) {
    const r = ctx.api.delete('endpointslices', ns, n);
    if (r.ok || r.code === 404) exp[n] = '';
    else ok = false;
  }
  if (Object.keys(exp).length) s.expected[key] = exp;
  return { ok, endpoints: pods.length };
}

/** The EndpointSlice controller, instance `endpointslice-controller`. */
export const endpointSliceControllerDef: ComponentDef<
  EndpointSliceControllerState,
  InformerEvent | WorkQueueAdd | WorkEvent
> = {
  name: 'endpointslice-controller',
  init(ctx) {
    const s: EndpointSliceControllerState = {
      services: newInformer('services', 'services'),
      pods: newInformer('pods', 'pods'),
      slices: newInformer('endpointslices', 'endpointslices'),
      nodes: newInformer('nodes', 'nodes'),
      queue: newWorkQueue('endpointslice'),
      expected: {},
      workPending: false,
    };
    ctx.state = s;
    const h = handlers(ctx);
    listAndWatch(ctx, s.nodes);
    listAndWatch(ctx, s.slices, h.sliceH);
    listAndWatch(ctx, s.pods, h.podH);
    listAndWatch(ctx, s.services, h.svcH);
    return s;
  },
  handle(event, ctx) {
    const s = ctx.state;
    const h = memoHandlers(ctx, handlers, s);
    if (
      informerHandle(ctx, s.pods, event, h.podH) ||
      informerHandle(ctx, s.services, event, h.svcH) ||
      informerHandle(ctx, s.slices, event, h.sliceH) ||
      informerHandle(ctx, s.nodes, event)
    )
      return;
    if (workQueueHandle(s.queue, event)) {
      kickWork(ctx);
      return;
    }
    if (event?.type === 'endpointslice-work') {
      s.workPending = false;
      // processNextWorkItem, with `done` after the sync's duration: the key stays "processing", so
      // changes arriving meanwhile wait as one dirty entry.
      for (let key = get(s.queue); key !== undefined; key = get(s.queue)) {
        const r = syncWithCause(ctx, s.queue, key, (k) => syncService(ctx, k));
        if (r.ok) forget(s.queue, key);
        else addRateLimited(ctx, s.queue, key);
        ctx.schedule(syncDurationMs(r.endpoints), { type: 'endpointslice-done', key } satisfies WorkEvent);
      }
    } else if (event?.type === 'endpointslice-done') {
      done(s.queue, event.key);
      kickWork(ctx);
    }
  },
};
