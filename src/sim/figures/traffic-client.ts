// The traffic figure's client: a process on one node that opens a new connection to a Service's
// ClusterIP once a second, as `sim traffic SERVICE 1 --from NODE` would, and keeps count of where
// each went and how it failed. It is an instance of the world (its ticks are the world's own
// events), so stepping back, replays and links send exactly the same requests again. Each request
// is a job sent to the pod network, which walks the node's rules as kube-proxy last wrote them, so
// during a control-plane outage the client goes by the frozen rules.
import type { ClusterAddon } from '../cluster-types.ts';
import { kubeProxyStateOf } from '../kube-proxy/reader.ts';
import type { ConnectError } from '../net/data-path.ts';
import { POD_NETWORK, podNetworkStateOf, type NetJob } from '../net/pod-network.ts';
import type { ComponentDef, WorldState } from '../world.ts';

/** The instance (and type) name. */
const TRAFFIC_CLIENT = 'traffic-client';
/** One request a second. */
const CLIENT_EVERY_MS = 1000;
/** How many of the latest requests the client keeps. */
const CLIENT_LATEST = 12;

/** Where the client sends from and to. */
interface TrafficClientParams {
  node: string;
  namespace: string;
  service: string;
}

/** One request: when, the endpoint the rules chose (none when no rule matched one), and how it ended. */
export interface ClientHit {
  t: number;
  endpoint: string | null;
  pod: string | null;
  ok: boolean;
  error: ConnectError | null;
}

/** Counts for one endpoint (or, under the key "", for requests no endpoint took). */
export interface EndpointCount {
  endpoint: string;
  pod: string;
  node: string;
  ok: number;
  refused: number;
  timeout: number;
  unreachable: number;
}

/** The client's state: counts since it started, the latest requests, the job it waits on. */
interface TrafficClientState {
  params: TrafficClientParams;
  sent: number;
  counts: Record<string, EndpointCount>;
  latest: ClientHit[];
  /** The pod network's job id of the request in flight, and when it was sent. */
  waiting?: { id: number; t: number };
}

type ClientEvent = { type: 'tick' } | { type: 'answer' };

/** The Service's ClusterIP and first port as the client node's kube-proxy last synced it, or null. */
function serviceTargetOf(
  w: Pick<WorldState, 'components'>,
  p: TrafficClientParams,
): { ip: string; port: number; protocol: 'TCP' | 'UDP' | 'SCTP' } | null {
  const svc = kubeProxyStateOf(w, p.node)?.synced?.services.find(
    (s) => s.metadata?.namespace === p.namespace && s.metadata?.name === p.service,
  );
  const ip = svc?.spec?.clusterIP;
  const port = svc?.spec?.ports?.[0];
  if (!ip || ip === 'None' || !port) return null;
  return { ip, port: port.port, protocol: (port.protocol ?? 'TCP') as 'TCP' | 'UDP' | 'SCTP' };
}

/** Which pod and node hold an endpoint ("10.244.3.3:80"), as the EndpointSlices of the node's last sync say (a dead node's pod included). */
function ownerOf(w: Pick<WorldState, 'components'>, node: string, endpoint: string): { pod: string; node: string } {
  const ip = endpoint.slice(0, endpoint.lastIndexOf(':'));
  for (const sl of kubeProxyStateOf(w, node)?.synced?.slices ?? [])
    for (const ep of sl.endpoints ?? []) {
      if (ep.addresses?.includes(ip)) return { pod: ep.targetRef?.name ?? '', node: ep.nodeName ?? '' };
    }
  return { pod: '', node: '' };
}

/** The client's behaviour. Its timers are recurring (a heartbeat), so a settled cluster is one where only they remain. */
const trafficClientDef: ComponentDef<TrafficClientState> = {
  name: TRAFFIC_CLIENT,
  init(ctx) {
    ctx.state = { params: ctx.params as TrafficClientParams, sent: 0, counts: {}, latest: [] };
    ctx.schedule(CLIENT_EVERY_MS, { type: 'tick' } satisfies ClientEvent, { recurring: true });
    return ctx.state;
  },
  handle(event, ctx) {
    const ev = event as ClientEvent;
    const s = ctx.state;
    const w = { components: ctx.components ?? {} };
    if (ev.type === 'tick') {
      ctx.schedule(CLIENT_EVERY_MS, { type: 'tick' } satisfies ClientEvent, { recurring: true });
      const net = podNetworkStateOf(w);
      const to = serviceTargetOf(w, s.params);
      // No pod network, or the node's kube-proxy has no rules for the Service yet: nothing to send.
      if (!net || !to) return;
      const job: NetJob = {
        type: 'connect',
        requests: [{ from: { node: s.params.node }, dstIP: to.ip, dstPort: to.port, protocol: to.protocol }],
      };
      s.waiting = { id: net.jobs + 1, t: ctx.now };
      // Both due now, in this order: the network answers, then the client reads the answer.
      ctx.schedule(0, { type: 'net-job', job }, { recurring: true, target: POD_NETWORK });
      ctx.schedule(0, { type: 'answer' } satisfies ClientEvent, { recurring: true });
    } else if (ev.type === 'answer' && s.waiting) {
      const last = podNetworkStateOf(w)?.last;
      const c = last?.id === s.waiting.id ? last.connections?.[0] : undefined;
      const t = s.waiting.t;
      delete s.waiting;
      if (!c) return;
      s.sent++;
      const key = c.endpoint ?? '';
      const row = (s.counts[key] ??= {
        endpoint: key,
        pod: c.served?.pod ?? '',
        node: c.served?.node ?? '',
        ok: 0,
        refused: 0,
        timeout: 0,
        unreachable: 0,
      });
      if (c.served) {
        row.pod = c.served.pod;
        row.node = c.served.node;
      } else if (c.endpoint && !row.pod) Object.assign(row, ownerOf(w, s.params.node, c.endpoint));
      if (c.ok) row.ok++;
      else if (c.error) row[c.error]++;
      s.latest.push({
        t,
        endpoint: c.endpoint ?? null,
        pod: c.served?.pod ?? (row.pod || null),
        ok: c.ok,
        error: c.ok ? null : (c.error ?? null),
      });
      if (s.latest.length > CLIENT_LATEST) s.latest.splice(0, s.latest.length - CLIENT_LATEST);
    }
  },
};

/** The client as an add-on: one instance, started after kube-proxy's (the addons' order). */
export function trafficClientAddon(params: TrafficClientParams): ClusterAddon {
  return {
    name: TRAFFIC_CLIENT,
    defs: [trafficClientDef],
    instances: () => [[TRAFFIC_CLIENT, TRAFFIC_CLIENT, { params }]],
  };
}

/** The client's state in a world, when it runs. */
export function trafficClientStateOf(w: Pick<WorldState, 'components'>): TrafficClientState | undefined {
  const e = w.components[TRAFFIC_CLIENT];
  return e?.type === TRAFFIC_CLIENT ? (e.state as TrafficClientState) : undefined;
}
