// kube-proxy on one node (cmd/kube-proxy, pkg/proxy): informers on Services and EndpointSlices,
// and the BoundedFrequencyRunner that turns their changes into a sync of the node's rules at most
// once per minSyncPeriod. It writes no API object; what it last wrote is its state, read through
// reader.ts. A cluster runs it only when its options carry kubeProxyAddon(…): it is not part of
// the default cluster, so the worker and every figure without it never load this folder.
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { R, type Identity } from '../api/identity.ts';
import {
  informerHandle,
  isInformerEvent,
  listAndWatch,
  newInformer,
  type EventHandlers,
  type InformerEvent,
  type InformerState,
} from '../client-go/informer.ts';
import type { ClusterAddon } from '../cluster-types.ts';
import type { KubeletParams } from '../kubelet/node-status.ts';
import { nodeAddress } from '../util/node-address.ts';
import type { AddComponentOptions, ComponentDef, Ctx } from '../world.ts';
import { POD_NETWORK, podNetworkAddonParts } from '../net/index.ts';
import { kubeProxyRulesOf, kubeProxyStateOf } from './reader.ts';
import { servicePortsOf } from './service-port.ts';

/** The proxier a node runs (--proxy-mode). */
type ProxyMode = 'iptables' | 'nftables';

/** --iptables-min-sync-period / minSyncPeriod default (pkg/proxy/apis/config/v1alpha1/defaults.go): 1 s. */
export const DEFAULT_MIN_SYNC_PERIOD_MS = 1_000;
/** proxyutil.FullSyncPeriod: the runner's longest interval between two syncs, 1 h. */
const FULL_SYNC_PERIOD_MS = 3_600_000;
/** The label selector of both informers (cmd/kube-proxy/app/server.go): no headless Service, no other proxy's. */
const PROXY_LABEL_SELECTOR = '!service.kubernetes.io/headless,!service.kubernetes.io/service-proxy-name';
/** The identity kube-proxy authenticates as, and the rules of system:node-proxier it is bound to. */
const KUBE_PROXY_IDENTITY: Identity = {
  user: 'system:kube-proxy',
  rules: [
    R(['list', 'watch'], ['services', 'endpointslices']),
    R(['get', 'list', 'watch'], ['nodes']),
    R(['create', 'patch', 'update'], ['events']),
  ],
};

/** What one node's kube-proxy is started with. */
interface KubeProxyParams {
  node: string;
  mode: ProxyMode;
  /** The node's InternalIP. */
  nodeIP?: string;
  /** --cluster-cidr (kubeadm's podSubnet): the local-traffic detector. */
  clusterCIDR?: string;
  minSyncPeriodMs?: number;
}

/** What a sync wrote: the Services and EndpointSlices the rules were computed from, and when. */
export interface SyncedRules {
  at: number;
  services: Service[];
  slices: EndpointSlice[];
}

/** One node's kube-proxy (plain data). */
export interface KubeProxyState {
  params: KubeProxyParams;
  services: InformerState<Service>;
  slices: InformerState<EndpointSlice>;
  /** Both informers have synced: syncs may run (isInitialized). */
  initialized: boolean;
  /** When the runner last ran a sync (undefined: never through the runner). */
  lastRun?: number;
  /** A runner sync is queued. */
  pending: boolean;
  /** Syncs so far. */
  syncs: number;
  /** The rules of the last sync; undefined until the first, and after its node lost power (the kernel's tables went with it). */
  synced?: SyncedRules;
  /** Its node is powered off: the process is gone, and nothing it was waiting for happens. */
  down?: true;
  /** Which start of the process its timers belong to (a power cycle starts a new one). */
  gen?: number;
}

type ProxyEvent =
  | { type: 'kube-proxy-sync'; gen?: number }
  | { type: 'kube-proxy-full-sync' }
  | { type: 'power-off' }
  | { type: 'power-on' };

/** What of a Service the proxier keeps (ServiceChangeTracker drops a change that keeps it equal). */
function serviceKey(svc: Service | undefined): string {
  return svc ? JSON.stringify(servicePortsOf(svc)) : '';
}

/** What of an EndpointSlice the proxier keeps (EndpointSliceCache: its ports and endpoints). */
function sliceKey(s: EndpointSlice | undefined): string {
  return s
    ? JSON.stringify([
        s.addressType,
        s.metadata?.labels?.['kubernetes.io/service-name'],
        s.ports,
        s.endpoints?.map((e) => [e.addresses?.[0], e.conditions, e.nodeName]),
      ])
    : '';
}

/** BoundedFrequencyRunner.Run: sync now if minSyncPeriod has passed since the last run, else when it has. */
function requestSync(ctx: Ctx<KubeProxyState>): void {
  const s = ctx.state;
  if (!s.initialized || s.pending) return;
  const min = s.params.minSyncPeriodMs ?? DEFAULT_MIN_SYNC_PERIOD_MS;
  const due = s.lastRun === undefined ? ctx.now : Math.max(ctx.now, s.lastRun + min);
  s.pending = true;
  ctx.schedule(
    due - ctx.now,
    (s.gen ? { type: 'kube-proxy-sync', gen: s.gen } : { type: 'kube-proxy-sync' }) satisfies ProxyEvent,
  );
}

/** syncProxyRules: take the informers' caches as the rules now in the kernel. */
function syncProxyRules(ctx: Ctx<KubeProxyState>): void {
  const s = ctx.state;
  if (!s.initialized) return;
  s.synced = { at: ctx.now, services: Object.values(s.services.items), slices: Object.values(s.slices.items) };
  s.syncs++;
}

function handlers(ctx: Ctx<KubeProxyState>): { svc: EventHandlers<Service>; slice: EventHandlers<EndpointSlice> } {
  return {
    svc: {
      add: (o) => {
        if (serviceKey(o)) requestSync(ctx);
      },
      update: (old, o) => {
        if (serviceKey(old) !== serviceKey(o)) requestSync(ctx);
      },
      delete: (o) => {
        if (serviceKey(o)) requestSync(ctx);
      },
    },
    slice: {
      add: () => requestSync(ctx),
      update: (old, o) => {
        if (sliceKey(old) !== sliceKey(o)) requestSync(ctx);
      },
      delete: () => requestSync(ctx),
    },
  };
}

/** OnServiceSynced / OnEndpointSlicesSynced: once both caches are full, one unconditional sync. */
function checkInitialized(ctx: Ctx<KubeProxyState>): void {
  const s = ctx.state;
  if (s.initialized || !s.services.hasSynced || !s.slices.hasSynced) return;
  s.initialized = true;
  syncProxyRules(ctx);
}

/** The process starts: both informers list and watch; the first sync follows once both have synced. */
function start(ctx: Ctx<KubeProxyState>): void {
  const s = ctx.state;
  s.services = newInformer('services', 'services', { labelSelector: PROXY_LABEL_SELECTOR });
  s.slices = newInformer('endpointslices', 'endpointslices', { labelSelector: PROXY_LABEL_SELECTOR });
  const h = handlers(ctx);
  listAndWatch(ctx, s.services, h.svc);
  listAndWatch(ctx, s.slices, h.slice);
}

/** Its node loses power: the watches end, the caches and the kernel's rules are gone; power-on starts it again (its DaemonSet pod restarts with the node). */
function powerCycle(ctx: Ctx<KubeProxyState>, on: boolean): void {
  const s = ctx.state;
  if (!on && !s.down) {
    for (const inf of [s.services, s.slices]) if (inf.watchId) ctx.stopWatch(inf.watchId);
    Object.assign(s, { down: true, initialized: false, pending: false, gen: (s.gen ?? 0) + 1 });
    delete s.synced;
    delete s.lastRun;
  } else if (on && s.down) {
    delete s.down;
    start(ctx);
  }
}

/** kube-proxy, instance `kube-proxy/<node>`. */
const kubeProxyDef: ComponentDef<KubeProxyState, InformerEvent | ProxyEvent> = {
  name: 'kube-proxy',
  identity: () => 'kube-proxy',
  nodeOf: (params) => (params as KubeProxyParams).node,
  init(ctx) {
    const s: KubeProxyState = {
      params: ctx.params as KubeProxyParams,
      services: newInformer('services', 'services', { labelSelector: PROXY_LABEL_SELECTOR }),
      slices: newInformer('endpointslices', 'endpointslices', { labelSelector: PROXY_LABEL_SELECTOR }),
      initialized: false,
      pending: false,
      syncs: 0,
    };
    ctx.state = s;
    start(ctx);
    // The runner's longest interval: a full sync every hour, changes or not.
    ctx.schedule(FULL_SYNC_PERIOD_MS, { type: 'kube-proxy-full-sync' } satisfies ProxyEvent, { recurring: true });
    return s;
  },
  handle(event, ctx) {
    const s = ctx.state;
    const type = event?.type;
    if (type === 'power-off' || type === 'power-on') return powerCycle(ctx, type === 'power-on');
    if (s.down) return; // powered off: nothing runs
    if (isInformerEvent(event)) {
      const h = handlers(ctx);
      if (informerHandle(ctx, s.services, event, h.svc) || informerHandle(ctx, s.slices, event, h.slice))
        checkInitialized(ctx);
      return;
    }
    if (event?.type === 'kube-proxy-sync' && (event.gen ?? 0) === (s.gen ?? 0)) {
      s.pending = false;
      s.lastRun = ctx.now;
      syncProxyRules(ctx);
    } else if (event?.type === 'kube-proxy-full-sync') {
      requestSync(ctx);
    }
  },
};

/** The instance name of a node's kube-proxy. */
function kubeProxyName(node: string): string {
  return `kube-proxy/${node}`;
}

/** The add-on's settings: the proxy mode (iptables by default), the pod network, minSyncPeriod. */
interface KubeProxyAddonOptions {
  mode?: ProxyMode;
  clusterCIDR?: string;
  minSyncPeriodMs?: number;
}

/**
 * kube-proxy as a cluster add-on: its behaviour and identity, and one instance per node (as its
 * DaemonSet runs) with the node's InternalIP, started once the nodes are there. Pod IPs come from
 * kubeadm's 10.244.0.0/16.
 */
export function kubeProxyAddon(opts: KubeProxyAddonOptions = {}): ClusterAddon {
  const mode = opts.mode ?? 'iptables';
  const net = podNetworkAddonParts();
  return {
    name: 'kube-proxy',
    // The pod network (net/) comes with it: the data path walks the rules kube-proxy writes.
    defs: [kubeProxyDef, ...net.defs],
    identities: { 'kube-proxy': KUBE_PROXY_IDENTITY },
    instances: (w) => [
      ...Object.entries(w.components)
        .filter(([, e]) => e.type === 'kubelet')
        .map(([instance, e]): [string, string, AddComponentOptions] => {
          const { node: name, internalIP } = nodeAddress(instance, e.params as KubeletParams);
          const params: KubeProxyParams = {
            node: name,
            mode,
            nodeIP: internalIP,
            clusterCIDR: opts.clusterCIDR ?? '10.244.0.0/16',
          };
          if (opts.minSyncPeriodMs !== undefined) params.minSyncPeriodMs = opts.minSyncPeriodMs;
          return [kubeProxyName(name), 'kube-proxy', { params }];
        }),
      [POD_NETWORK, POD_NETWORK, { params: { seed: w.seed } }],
    ],
    net: net.commands,
    rules: ({ state: w }, node, as) => {
      if (!w.components[`kubelet/${node}`]) return { error: `node "${node}" not found` };
      if (!kubeProxyStateOf(w, node)) return undefined;
      const text = kubeProxyRulesOf(
        w,
        node,
        as === 'nftables' ? 'nft-list' : as === 'iptables' ? 'iptables-save' : undefined,
      );
      return text === undefined ? {} : { text };
    },
  };
}
