// The data path: one TCP connection from a node or a pod to an IP and port, through the rules
// kube-proxy last wrote on the client's node (not the live API objects: rules frozen during a
// control-plane outage keep routing), then across the pod network to the pod that holds the
// address. Pure over plain data: it reads the world's state and changes only the NetState given
// (conntrack, xt_recent lists, the random stream, the next ephemeral port).
import type { Pod } from 'kubernetes-types/core/v1';
import { cidrContains } from '../kube-proxy/iptables-rules.ts';
import { kubeProxyIPTablesOf, kubeProxyNFTablesOf, kubeProxyStateOf } from '../kube-proxy/reader.ts';
import type { KubeletState } from '../kubelet/kubelet-state.ts';
import type { RngState } from '../rng.ts';
import type { WorldState } from '../world.ts';
import { walkRules, type Packet, type RecentLists, type WalkEnv, type WalkResult } from './iptables-walk.ts';
import { walkNFTables } from './nft-walk.ts';

/** What the data path reads of the world: the clock and the instances' state (kubelets, kube-proxies). */
export type NetWorld = Pick<WorldState, 'now' | 'components'>;

/** kubeadm's default --service-cidr: a ClusterIP no rule matched goes nowhere. */
const SERVICE_CIDR = '10.96.0.0/12';
/** net.ipv4.ip_local_port_range's default first port: where a client's source ports start. */
const EPHEMERAL_PORT_MIN = 32768;
/** …and its last. */
const EPHEMERAL_PORT_MAX = 60999;
/** nf_conntrack_tcp_timeout_time_wait: how long a closed connection's entry stays (120 s). */
const CONNTRACK_TIME_WAIT_MS = 120_000;
/** nf_conntrack_tcp_timeout_established: an open connection's entry (5 days). */
const CONNTRACK_ESTABLISHED_MS = 432_000_000;
/** How long connect() takes to fail when no SYN is answered: tcp_syn_retries 6, RTO 1 s doubling (1+2+…+64 s). */
export const SYN_TIMEOUT_MS = 127_000;
/** How long connect() takes to fail with EHOSTUNREACH when no neighbour answers ARP (3 probes, 1 s apart). */
const ARP_FAILURE_MS = 3_000;

/** One conntrack entry: where the connection's packets go (its DNAT target, or its own destination). */
interface ConntrackEntry {
  to: string;
  expires: number;
}

/** The kernel state of one node that the data path reads and writes. */
interface NodeNetState {
  /** "TCP 10.244.1.2:32768 10.96.0.20:80" → the entry. */
  conntrack: Record<string, ConntrackEntry>;
  recent: RecentLists;
  /** The next ephemeral source port a client on this node gets (sequential here; Linux spreads them). */
  nextPort: number;
}

/** The pod network's state: every node's kernel tables and the random stream of their statistic matches. */
export interface NetState {
  rng: RngState;
  nodes: Record<string, NodeNetState>;
}

/** Who sends: a node's own network namespace, or a pod (namespace/name). */
interface Client {
  node?: string;
  pod?: { namespace: string; name: string };
}

/** One connection to make. */
export interface ConnectRequest {
  from: Client;
  dstIP: string;
  dstPort: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  /** An established connection's source port: its conntrack entry, when live, decides the endpoint. */
  srcPort?: number;
  /** Keep the connection open (its conntrack entry lives as ESTABLISHED), as a keep-alive client does. */
  keepAlive?: boolean;
}

/** Why a connection failed, as the client's connect() sees it. */
export type ConnectError = 'refused' | 'timeout' | 'unreachable';

/** Where the connection landed. */
interface Served {
  namespace: string;
  pod: string;
  node: string;
  container: string;
}

/** What a connection came to: where it went, through which rules, and how long connect() took. */
export interface ConnectResult {
  ok: boolean;
  error?: ConnectError;
  /** Why, in a sentence for the reader (not the client's words). */
  reason: string;
  /** The node whose rules the packet walked first (the client's). */
  node: string;
  srcIP: string;
  srcPort: number;
  /** The DNAT target the rules or conntrack chose ("10.244.2.3:80"). */
  endpoint?: string;
  served?: Served;
  /** The rules that jumped or decided, `-A …` lines of the nat and filter tables, or the conntrack hit. */
  trace: string[];
  /** How long connect() took to succeed or fail (the call itself moves no simulated time). */
  elapsedMs: number;
}

function kubelets(w: NetWorld): [string, KubeletState][] {
  const out: [string, KubeletState][] = [];
  for (const [name, e] of Object.entries(w.components))
    if (e.type === 'kubelet') out.push([name.slice('kubelet/'.length), e.state as KubeletState]);
  return out;
}

/** A node's kubelet state, when the node exists. */
export function kubeletOf(w: NetWorld, node: string): KubeletState | undefined {
  const e = w.components[`kubelet/${node}`];
  return e?.type === 'kubelet' ? (e.state as KubeletState) : undefined;
}

/** A fresh node's kernel tables. */
function newNodeNetState(): NodeNetState {
  return { conntrack: {}, recent: {}, nextPort: EPHEMERAL_PORT_MIN };
}

/** Where a pod runs and its IP, as its node's kubelet and runtime know them (no API read). */
export function podAddress(w: NetWorld, namespace: string, name: string): { node: string; ip: string } | undefined {
  const key = `${namespace}/${name}`;
  for (const [node, st] of kubelets(w)) {
    const sid = st.workers[key]?.sandboxId;
    const sb = sid ? st.runtime.sandboxes[sid] : undefined;
    if (sb && sb.state === 'SANDBOX_READY') return { node, ip: sb.ip };
  }
  return undefined;
}

/**
 * Deliver a connection to a pod IP and port over the pod network (simplified: every node routes
 * every podCIDR; no CNI, no encapsulation): it reaches the node that owns the address's podCIDR,
 * then the sandbox holding it, then a running container that listens on the port.
 */
function deliverToPod(
  w: NetWorld,
  ip: string,
  port: number,
  protocol: string,
): { ok: true; served: Served } | { ok: false; error: ConnectError; reason: string } {
  const owner = kubelets(w).find(([, st]) => cidrContains(st.cfg.podCIDR, ip));
  if (!owner) return { ok: false, error: 'timeout', reason: `no node's podCIDR holds ${ip}: the packet is lost` };
  const [node, st] = owner;
  if (!st.up) return { ok: false, error: 'timeout', reason: `${node} is down: nothing answers for ${ip}` };
  const sid = st.runtime.ipam.allocated[ip];
  const sandbox = sid ? st.runtime.sandboxes[sid] : undefined;
  if (!sandbox || sandbox.state !== 'SANDBOX_READY')
    return {
      ok: false,
      error: 'unreachable',
      reason: `no pod on ${node} holds ${ip} any more: its ARP request goes unanswered`,
    };
  const worker = Object.values(st.workers).find((p) => p.sandboxId === sid);
  const pod: Pod | undefined = worker ? st.pods.items[worker.key] : undefined;
  const running = Object.values(st.runtime.containers).filter(
    (c) => c.sandboxId === sid && c.state === 'CONTAINER_RUNNING',
  );
  const specs = pod?.spec?.containers ?? [];
  const declares = specs.some((c) => (c.ports ?? []).length > 0);
  const listens = (name: string) => {
    if (!declares) return true;
    const c = specs.find((s) => s.name === name);
    return (c?.ports ?? []).some((p) => p.containerPort === port && (p.protocol ?? 'TCP') === protocol);
  };
  const c = running.find((r) => listens(r.name));
  const who = `${sandbox.namespace}/${sandbox.podName}`;
  if (!c) {
    const reason =
      running.length === 0
        ? `no container of ${who} is running: nothing listens on port ${port}`
        : `no running container of ${who} listens on port ${port}`;
    return { ok: false, error: 'refused', reason };
  }
  return { ok: true, served: { namespace: sandbox.namespace, pod: sandbox.podName, node, container: c.name } };
}

function nodeState(net: NetState, node: string): NodeNetState {
  return (net.nodes[node] ??= newNodeNetState());
}

/** Drop a node's expired conntrack entries (so the state stays small; the recent lists hold one stamp per client address). */
function expire(ns: NodeNetState, now: number): void {
  for (const [k, e] of Object.entries(ns.conntrack)) if (e.expires <= now) delete ns.conntrack[k];
}

/** The next ephemeral port of a node, wrapping round the range. */
function ephemeralPort(ns: NodeNetState): number {
  const p = ns.nextPort;
  ns.nextPort = p >= EPHEMERAL_PORT_MAX ? EPHEMERAL_PORT_MIN : p + 1;
  return p;
}

/**
 * One connection, as the kernel makes it: an established connection (a live conntrack entry for
 * its source port) keeps its endpoint; a new one walks the client node's rules (the statistic
 * draws from net.rng, affinity reads and sets the node's recent lists), is DNATed to an endpoint
 * or rejected or dropped, then crosses to the endpoint's node. A packet no rule took goes to its
 * own destination: another node (whose rules then see it arrive, as for a NodePort), a pod IP, or
 * nowhere (an unused ClusterIP). Changes only `net`.
 */
export function connect(w: NetWorld, net: NetState, req: ConnectRequest): ConnectResult {
  const protocol = req.protocol ?? 'TCP';
  let node: string;
  let srcIP: string;
  let srcLocal: boolean;
  if (req.from.pod) {
    const addr = podAddress(w, req.from.pod.namespace, req.from.pod.name);
    if (!addr)
      return fail(
        '',
        '',
        0,
        'unreachable',
        `pod ${req.from.pod.namespace}/${req.from.pod.name} has no running sandbox to send from`,
        [],
        0,
      );
    ({ node, ip: srcIP } = addr);
    srcLocal = false;
  } else {
    node = req.from.node ?? '';
    const st = kubeletOf(w, node);
    if (!st) return fail(node, '', 0, 'unreachable', `node "${node}" not found`, [], 0);
    srcIP = st.cfg.internalIP;
    srcLocal = true;
  }
  const client = kubeletOf(w, node)!;
  if (!client.up) return fail(node, srcIP, 0, 'unreachable', `${node} is down: nothing can send from it`, [], 0);
  const ns = nodeState(net, node);
  expire(ns, w.now);
  const srcPort = req.srcPort ?? ephemeralPort(ns);
  const key = `${protocol} ${srcIP}:${srcPort} ${req.dstIP}:${req.dstPort}`;
  const tracked = ns.conntrack[key];
  if (tracked) {
    const [ip, port] = splitHostPort(tracked.to);
    return finish(w, ns, key, req, node, srcIP, srcPort, tracked.to, ip, port, protocol, [
      `conntrack: ESTABLISHED ${key} -> ${tracked.to}`,
    ]);
  }
  const isNodeIP = (ip: string) => kubelets(w).find(([, st]) => st.cfg.internalIP === ip);
  const dstLocal = req.dstIP === client.cfg.internalIP || cidrContains('127.0.0.0/8', req.dstIP);
  const packet: Packet = { protocol, srcIP, srcPort, dstIP: req.dstIP, dstPort: req.dstPort, srcLocal, dstLocal };
  let walk = walkNode(w, node, packet, { now: w.now, recent: ns.recent, rng: net.rng }, srcLocal);
  const trace = [...walk.trace];
  // A packet for another node's address crosses to it and walks that node's rules on arrival (a NodePort).
  const remote = walk.verdict.kind === 'accept' && !dstLocal ? isNodeIP(req.dstIP) : undefined;
  if (remote) {
    const [rnode, rst] = remote;
    if (!rst.up)
      return fail(
        node,
        srcIP,
        srcPort,
        'timeout',
        `${rnode} is down: its address does not answer`,
        trace,
        SYN_TIMEOUT_MS,
      );
    const arriving: Packet = { ...packet, srcLocal: false, dstLocal: true };
    walk = walkNode(w, rnode, arriving, { now: w.now, recent: nodeState(net, rnode).recent, rng: net.rng }, false);
    trace.push(...walk.trace);
  }
  const v = walk.verdict;
  if (v.kind === 'reject')
    return fail(
      node,
      srcIP,
      srcPort,
      'refused',
      `the rules REJECT ${req.dstIP}:${req.dstPort} (a Service with no endpoints, or a port the ClusterIP does not serve)`,
      trace,
      0,
    );
  if (v.kind === 'drop')
    return fail(
      node,
      srcIP,
      srcPort,
      'timeout',
      `the rules DROP ${req.dstIP}:${req.dstPort} (no endpoint this node may use, or an unallocated ClusterIP)`,
      trace,
      SYN_TIMEOUT_MS,
    );
  if (v.kind === 'dnat') {
    const [ip, port] = splitHostPort(v.to);
    return finish(w, ns, key, req, node, srcIP, srcPort, v.to, ip, port, protocol, trace);
  }
  // Nothing rewrote the destination.
  if (dstLocal || remote)
    return fail(node, srcIP, srcPort, 'refused', `nothing listens on ${req.dstIP}:${req.dstPort}`, trace, 0);
  if (cidrContains(SERVICE_CIDR, req.dstIP))
    return fail(
      node,
      srcIP,
      srcPort,
      'timeout',
      `no rule on ${node} matches ${req.dstIP}:${req.dstPort}: the packet leaves by the default route and is lost`,
      trace,
      SYN_TIMEOUT_MS,
    );
  return finish(w, ns, key, req, node, srcIP, srcPort, undefined, req.dstIP, req.dstPort, protocol, trace);
}

/** Walk a node's rules in its kube-proxy's mode (none synced yet: nothing intercepts the packet). */
function walkNode(w: NetWorld, node: string, p: Packet, env: WalkEnv, fromHost: boolean): WalkResult {
  if (kubeProxyStateOf(w, node)?.params.mode === 'nftables') {
    const t = kubeProxyNFTablesOf(w, node);
    return t ? walkNFTables(t, p, env, fromHost) : { verdict: { kind: 'accept' }, trace: [] };
  }
  const rules = kubeProxyIPTablesOf(w, node);
  return rules ? walkRules(rules, p, env, fromHost) : { verdict: { kind: 'accept' }, trace: [] };
}

function splitHostPort(s: string): [string, number] {
  const i = s.lastIndexOf(':');
  return [s.slice(0, i), Number(s.slice(i + 1))];
}

function fail(
  node: string,
  srcIP: string,
  srcPort: number,
  error: ConnectError,
  reason: string,
  trace: string[],
  elapsedMs: number,
): ConnectResult {
  return { ok: false, error, reason, node, srcIP, srcPort, trace, elapsedMs };
}

/** Cross to the chosen pod; a connection that is answered keeps a conntrack entry. */
function finish(
  w: NetWorld,
  ns: NodeNetState,
  key: string,
  req: ConnectRequest,
  node: string,
  srcIP: string,
  srcPort: number,
  endpoint: string | undefined,
  ip: string,
  port: number,
  protocol: string,
  trace: string[],
): ConnectResult {
  const d = deliverToPod(w, ip, port, protocol);
  const base = { node, srcIP, srcPort, trace, ...(endpoint ? { endpoint } : {}) };
  if (!d.ok)
    return {
      ...base,
      ok: false,
      error: d.error,
      reason: d.reason,
      elapsedMs: d.error === 'timeout' ? SYN_TIMEOUT_MS : d.error === 'unreachable' ? ARP_FAILURE_MS : 0,
    };
  ns.conntrack[key] = {
    to: endpoint ?? `${ip}:${port}`,
    expires: w.now + (req.keepAlive ? CONNTRACK_ESTABLISHED_MS : CONNTRACK_TIME_WAIT_MS),
  };
  return {
    ...base,
    ok: true,
    reason: `served by ${d.served.namespace}/${d.served.pod} on ${d.served.node}`,
    served: d.served,
    elapsedMs: 0,
  };
}
