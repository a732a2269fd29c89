// The nftables proxier's syncProxyRules (pkg/proxy/nftables/proxier.go) as a pure function: the
// table `ip kube-proxy` it writes, as a knftables transaction and as `nft list table` prints it.
// It follows pkg/proxy/nftables/proxier.go at v1.37.2 (checked against the real proxier by
// real-rules.test.ts): ClusterIP masquerading in the services chain, hairpin traffic masqueraded
// through the hairpin-connections set, and the service chain DNATing straight to its endpoints
// (one numgen map) unless session affinity needs one chain per endpoint.
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { hashString } from './chain-names.ts';
import { cidrContains, endpointsOf, proxyStateOf } from './iptables-rules.ts';
import {
  categorizeEndpoints,
  endpointString,
  externallyAccessible,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type EndpointInfo,
  type ServicePortInfo,
} from './service-port.ts';

/** The nftables proxier's settings that change what it writes. */
export interface NFTProxierConfig {
  nodeName: string;
  nodeIP?: string;
  /** detect-local-mode ClusterCIDR's range; none = no local-traffic detector. */
  clusterCIDR?: string;
  /** The service CIDRs (traffic to an unallocated ClusterIP in them is dropped). */
  serviceCIDRs?: string;
  /** --nodeport-addresses resolved to this node's IPs; none = every local address. */
  nodePortIPs?: string[];
  masqueradeAll?: boolean;
  /** --nftables-masquerade-bit... the mark (default 0x4000). */
  masqueradeMark?: string;
}

/** The proxier's masqueradeRule: the statement that marks a packet for masquerading. */
function masqueradeRule(config: NFTProxierConfig): string {
  return `mark set mark or ${config.masqueradeMark ?? '0x4000'}`;
}

/** A chain of the table: a base chain has a type, hook and priority. */
interface NFTChain {
  name: string;
  type?: string;
  hook?: string;
  priority?: number;
  comment?: string;
  rules: { rule: string; comment?: string }[];
}
/** A set or a map of the table, and its elements. */
export interface NFTSet {
  kind: 'set' | 'map';
  name: string;
  type: string;
  comment?: string;
  flags?: string[];
  timeout?: string;
  elements: { key: string; value?: string; comment?: string }[];
}
/** The table `ip kube-proxy` after a sync. */
export interface NFTTable {
  chains: NFTChain[];
  sets: NFTSet[];
}

const CLUSTER_IPS = 'cluster-ips';
const NODEPORT_IPS = 'nodeport-ips';
const SERVICE_IPS = 'service-ips';
const SERVICE_NODEPORTS = 'service-nodeports';
const FIREWALL_IPS = 'firewall-ips';
const NO_ENDPOINT_SERVICES = 'no-endpoint-services';
const NO_ENDPOINT_NODEPORTS = 'no-endpoint-nodeports';
const HAIRPIN_CONNECTIONS = 'hairpin-connections';
const REJECT_CHAIN = 'reject-chain';
/** knftables.NameLengthMax − chainNamePrefixLengthMax. */
const CHAIN_NAME_BASE_LENGTH_MAX = 256 - 16;

/** hashAndTruncate: 8 characters of the name's hash, a dash, the name (cut to fit). */
export function hashAndTruncate(name: string): string {
  const out = `${hashString(name).slice(0, 8)}-${name}`;
  return out.length > CHAIN_NAME_BASE_LENGTH_MAX ? `${out.slice(0, CHAIN_NAME_BASE_LENGTH_MAX - 3)}...` : out;
}

/** servicePortChainNameBase: "ULMVA6XW-ns1/svc1/tcp/p80". */
function servicePortChainNameBase(sp: ServicePortInfo): string {
  return hashAndTruncate(`${sp.namespace}/${sp.service}/${sp.protocol.toLowerCase()}/${sp.port}`);
}

/** servicePortEndpointChainNameBase: "5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80". */
function servicePortEndpointChainNameBase(sp: ServicePortInfo, ep: EndpointInfo): string {
  return hashAndTruncate(`${sp.namespace}/${sp.service}/${sp.protocol.toLowerCase()}/${sp.port}__${ep.ip}/${ep.port}`);
}

function chain(table: NFTTable, name: string, extra: Partial<NFTChain> = {}): NFTChain {
  let c = table.chains.find((x) => x.name === name);
  if (!c) table.chains.push((c = { name, rules: [], ...extra }));
  return c;
}

function set(table: NFTTable, s: Omit<NFTSet, 'elements'>): NFTSet {
  const out: NFTSet = { ...s, elements: [] };
  table.sets.push(out);
  return out;
}

/** setupNFTables: the table's fixed chains, sets and maps, with their rules. */
function baseTable(config: NFTProxierConfig): NFTTable {
  const mark = config.masqueradeMark ?? '0x4000';
  const t: NFTTable = { chains: [], sets: [] };
  set(t, { kind: 'set', name: CLUSTER_IPS, type: 'ipv4_addr', comment: 'Active ClusterIPs' });
  if (config.nodePortIPs)
    set(t, {
      kind: 'set',
      name: NODEPORT_IPS,
      type: 'ipv4_addr',
      comment: 'IPs that accept NodePort traffic',
    }).elements.push(...config.nodePortIPs.map((key) => ({ key })));
  set(t, {
    kind: 'set',
    name: HAIRPIN_CONNECTIONS,
    type: 'ipv4_addr . ipv4_addr . inet_proto . inet_service',
    comment: 'service hairpin connections',
  });
  set(t, {
    kind: 'map',
    name: FIREWALL_IPS,
    type: 'ipv4_addr . inet_proto . inet_service : verdict',
    comment: 'destinations that are subject to LoadBalancerSourceRanges',
  });
  set(t, {
    kind: 'map',
    name: NO_ENDPOINT_NODEPORTS,
    type: 'inet_proto . inet_service : verdict',
    comment: 'vmap to drop or reject packets to service nodeports with no endpoints',
  });
  set(t, {
    kind: 'map',
    name: NO_ENDPOINT_SERVICES,
    type: 'ipv4_addr . inet_proto . inet_service : verdict',
    comment: 'vmap to drop or reject packets to services with no endpoints',
  });
  set(t, {
    kind: 'map',
    name: SERVICE_IPS,
    type: 'ipv4_addr . inet_proto . inet_service : verdict',
    comment: 'ClusterIP, ExternalIP and LoadBalancer IP traffic',
  });
  set(t, {
    kind: 'map',
    name: SERVICE_NODEPORTS,
    type: 'inet_proto . inet_service : verdict',
    comment: 'NodePort traffic',
  });
  const base: [string, string, string, number][] = [
    ['filter-prerouting-pre-dnat', 'filter', 'prerouting', -110],
    ['filter-output-pre-dnat', 'filter', 'output', -110],
    ['filter-forward', 'filter', 'forward', 0],
    ['filter-input', 'filter', 'input', 0],
    ['filter-output', 'filter', 'output', 0],
    ['nat-output', 'nat', 'output', -100],
    ['nat-postrouting', 'nat', 'postrouting', 100],
    ['nat-prerouting', 'nat', 'prerouting', -100],
  ];
  for (const [name, type, hook, priority] of base) chain(t, name, { type, hook, priority });
  const jumps: [string, string, string][] = [
    ['filter-prerouting-pre-dnat', 'ct state new', 'firewall-check'],
    ['filter-output-pre-dnat', 'ct state new', 'firewall-check'],
    ['filter-forward', 'ct state new', 'service-endpoints-check'],
    ['filter-forward', 'ct state new', 'cluster-ips-check'],
    ['filter-input', 'ct state new', 'nodeport-endpoints-check'],
    ['filter-input', 'ct state new', 'service-endpoints-check'],
    ['filter-output', 'ct state new', 'service-endpoints-check'],
    ['filter-output', 'ct state new', 'cluster-ips-check'],
    ['nat-output', '', 'services'],
    ['nat-postrouting', '', 'masquerading'],
    ['nat-prerouting', '', 'services'],
  ];
  for (const [from, extra, to] of jumps) {
    chain(t, to);
    chain(t, from).rules.push({ rule: `${extra ? `${extra} ` : ''}jump ${to}` });
  }
  chain(t, 'masquerading').rules.push(
    { rule: `mark and ${mark} != 0 mark set mark xor ${mark} masquerade fully-random` },
    // A pod reaching itself through its Service: source and destination are the same endpoint.
    {
      rule: `ct status dnat ip saddr . ip daddr . meta l4proto . th dport @${HAIRPIN_CONNECTIONS} masquerade fully-random`,
    },
  );
  const clusterIPsCheck = chain(t, 'cluster-ips-check');
  clusterIPsCheck.rules.push({
    rule: `ip daddr @${CLUSTER_IPS} reject`,
    comment: 'Reject traffic to invalid ports of ClusterIPs',
  });
  if (config.serviceCIDRs)
    clusterIPsCheck.rules.push({
      rule: `ip daddr { ${config.serviceCIDRs} } drop`,
      comment: 'Drop traffic to unallocated ClusterIPs',
    });
  chain(t, REJECT_CHAIN, { comment: 'helper for @no-endpoint-services / @no-endpoint-nodeports' }).rules.push({
    rule: 'reject',
  });
  chain(t, 'service-endpoints-check').rules.push({
    rule: `ip daddr . meta l4proto . th dport vmap @${NO_ENDPOINT_SERVICES}`,
  });
  chain(t, 'nodeport-endpoints-check').rules.push({
    rule: config.nodePortIPs
      ? `ip daddr @${NODEPORT_IPS} meta l4proto . th dport vmap @${NO_ENDPOINT_NODEPORTS}`
      : `ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @${NO_ENDPOINT_NODEPORTS}`,
  });
  chain(t, 'firewall-check').rules.push({ rule: `ip daddr . meta l4proto . th dport vmap @${FIREWALL_IPS}` });
  const services = chain(t, 'services');
  // ClusterIP traffic from outside the pod network is masqueraded here, for every Service at once.
  if (config.masqueradeAll)
    services.rules.push({
      rule: `ip daddr @${CLUSTER_IPS} ${masqueradeRule(config)}`,
      comment: 'masquerade all clusterIP traffic',
    });
  else if (config.clusterCIDR)
    services.rules.push({
      rule: `ip daddr @${CLUSTER_IPS} ip saddr != ${config.clusterCIDR} ${masqueradeRule(config)}`,
      comment: 'masquerade clusterIP traffic from outside cluster',
    });
  services.rules.push({ rule: `ip daddr . meta l4proto . th dport vmap @${SERVICE_IPS}` });
  services.rules.push({
    rule: config.nodePortIPs
      ? `ip daddr @${NODEPORT_IPS} meta l4proto . th dport vmap @${SERVICE_NODEPORTS}`
      : `fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @${SERVICE_NODEPORTS}`,
  });
  return t;
}

/** syncProxyRules, a full sync: the whole table for these Services and EndpointSlices. */
export function syncNFTablesRules(services: Service[], slices: EndpointSlice[], config: NFTProxierConfig): NFTTable {
  const t = baseTable(config);
  const byName = (name: string) => t.sets.find((s) => s.name === name)!;
  const { ports, endpoints } = proxyStateOf(services, slices, config.nodeName);
  for (const svc of ports) {
    const protocol = svc.protocol.toLowerCase();
    const port = String(svc.portNumber);
    const base = servicePortChainNameBase(svc);
    const {
      clusterEndpoints,
      localEndpoints,
      allReachableEndpoints,
      hasAnyEndpoints: hasEndpoints,
    } = categorizeEndpoints(endpointsOf(endpoints, svc), svc);
    const epChain = (ep: EndpointInfo) => `endpoint-${servicePortEndpointChainNameBase(svc, ep)}`;
    const affinitySet = (ep: EndpointInfo) => `affinity-${servicePortEndpointChainNameBase(svc, ep)}`;
    // Endpoint chains only where affinity needs them; this node's endpoints go in the hairpin set.
    const hairpin = byName(HAIRPIN_CONNECTIONS).elements;
    for (const ep of allReachableEndpoints) {
      if (svc.sessionAffinityClientIP) chain(t, epChain(ep));
      const key = `${ep.ip} . ${ep.ip} . ${protocol} . ${ep.port}`;
      if (ep.isLocal && !hairpin.some((e) => e.key === key)) hairpin.push({ key });
    }
    const clusterPolicyChain = `service-${base}`;
    const localPolicyChain = `local-${base}`;
    const usesClusterPolicyChain = clusterEndpoints.length > 0 && usesClusterEndpoints(svc);
    const usesLocalPolicyChain = localEndpoints.length > 0 && usesLocalEndpoints(svc);
    if (usesClusterPolicyChain) chain(t, clusterPolicyChain);
    if (usesLocalPolicyChain) chain(t, localPolicyChain);
    let internalTrafficChain = clusterPolicyChain;
    let hasInternalEndpoints = hasEndpoints;
    if (svc.internalPolicyLocal) {
      internalTrafficChain = localPolicyChain;
      if (localEndpoints.length === 0) hasInternalEndpoints = false;
    }
    let externalPolicyChain = clusterPolicyChain;
    let hasExternalEndpoints = hasEndpoints;
    if (svc.externalPolicyLocal) {
      externalPolicyChain = localPolicyChain;
      if (localEndpoints.length === 0) hasExternalEndpoints = false;
    }
    const externalTrafficChain = `external-${base}`;
    const usesExternalTrafficChain = hasEndpoints && externallyAccessible(svc);
    if (usesExternalTrafficChain) chain(t, externalTrafficChain);
    let internalVerdict = '';
    let externalVerdict = '';
    if (!hasEndpoints) internalVerdict = externalVerdict = `goto ${REJECT_CHAIN}`;
    else {
      if (!hasInternalEndpoints) internalVerdict = 'drop';
      if (!hasExternalEndpoints) externalVerdict = 'drop';
    }

    // One element per address: the proxier adds it for each port, and a set holds it once.
    const ips = byName(CLUSTER_IPS).elements;
    if (!ips.some((e) => e.key === svc.clusterIP)) ips.push({ key: svc.clusterIP });
    if (hasInternalEndpoints)
      byName(SERVICE_IPS).elements.push({
        key: `${svc.clusterIP} . ${protocol} . ${port}`,
        value: `goto ${internalTrafficChain}`,
      });
    else
      byName(NO_ENDPOINT_SERVICES).elements.push({
        key: `${svc.clusterIP} . ${protocol} . ${port}`,
        value: internalVerdict,
        comment: svc.name,
      });
    for (const ip of svc.externalIPs) {
      if (hasEndpoints)
        byName(SERVICE_IPS).elements.push({
          key: `${ip} . ${protocol} . ${port}`,
          value: `goto ${externalTrafficChain}`,
        });
      if (!hasExternalEndpoints)
        byName(NO_ENDPOINT_SERVICES).elements.push({
          key: `${ip} . ${protocol} . ${port}`,
          value: externalVerdict,
          comment: svc.name,
        });
    }
    const usesFWChain = svc.loadBalancerVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
    const fwChain = `firewall-${base}`;
    if (usesFWChain) chain(t, fwChain);
    for (const ip of svc.loadBalancerVIPs) {
      if (hasEndpoints)
        byName(SERVICE_IPS).elements.push({
          key: `${ip} . ${protocol} . ${port}`,
          value: `goto ${externalTrafficChain}`,
        });
      if (usesFWChain)
        byName(FIREWALL_IPS).elements.push({ key: `${ip} . ${protocol} . ${port}`, value: `goto ${fwChain}` });
    }
    if (!hasExternalEndpoints)
      for (const ip of svc.loadBalancerVIPs)
        byName(NO_ENDPOINT_SERVICES).elements.push({
          key: `${ip} . ${protocol} . ${port}`,
          value: externalVerdict,
          comment: svc.name,
        });
    if (svc.nodePort !== 0) {
      if (hasEndpoints)
        byName(SERVICE_NODEPORTS).elements.push({
          key: `${protocol} . ${svc.nodePort}`,
          value: `goto ${externalTrafficChain}`,
        });
      if (!hasExternalEndpoints)
        byName(NO_ENDPOINT_NODEPORTS).elements.push({
          key: `${protocol} . ${svc.nodePort}`,
          value: externalVerdict,
          comment: svc.name,
        });
    }

    if (usesExternalTrafficChain) {
      const ext = chain(t, externalTrafficChain);
      if (!svc.externalPolicyLocal) ext.rules.push({ rule: masqueradeRule(config), comment: 'masquerade' });
      else {
        if (config.clusterCIDR)
          ext.rules.push({
            rule: `ip saddr ${config.clusterCIDR} goto ${clusterPolicyChain}`,
            comment: 'short-circuit pod traffic',
          });
        ext.rules.push({ rule: `fib saddr type local ${masqueradeRule(config)}`, comment: 'masquerade local traffic' });
        ext.rules.push({
          rule: `fib saddr type local goto ${clusterPolicyChain}`,
          comment: 'short-circuit local traffic',
        });
      }
      if (hasExternalEndpoints) ext.rules.push({ rule: `goto ${externalPolicyChain}` });
    }
    if (usesFWChain) {
      const sources = [...svc.loadBalancerSourceRanges];
      if (config.nodeIP && svc.loadBalancerSourceRanges.some((c) => cidrContains(c, config.nodeIP!)))
        sources.push(...svc.loadBalancerVIPs);
      chain(t, fwChain).rules.push({ rule: `ip saddr != { ${sources.join(', ')} } drop` });
    }
    if (svc.sessionAffinityClientIP) {
      for (const ep of allReachableEndpoints)
        set(t, {
          kind: 'set',
          name: affinitySet(ep),
          type: 'ipv4_addr',
          flags: ['dynamic', 'timeout'],
          timeout: `${svc.stickyMaxAgeSeconds}s`,
        });
    }
    // writeServiceToEndpointDNATs: one endpoint DNATed to directly, several through one numgen map.
    const toEndpointDNATs = (svcChain: string, eps: EndpointInfo[]) => {
      const rule =
        eps.length === 1
          ? `meta l4proto ${protocol} dnat to ${endpointString(eps[0])}`
          : `meta l4proto ${protocol} dnat ip addr . port to numgen random mod ${eps.length} map { ${eps.map((ep, i) => `${i} : ${ep.ip} . ${ep.port}`).join(' , ')} }`;
      chain(t, svcChain).rules.push({ rule });
    };
    // writeServiceToEndpointJumps: affinity first, then a numgen jump to one endpoint chain.
    const toEndpointJumps = (svcChain: string, eps: EndpointInfo[]) => {
      const c = chain(t, svcChain);
      for (const ep of eps) c.rules.push({ rule: `ip saddr @${affinitySet(ep)} goto ${epChain(ep)}` });
      c.rules.push({
        rule: `numgen random mod ${eps.length} vmap { ${eps.map((ep, i) => `${i} : goto ${epChain(ep)}`).join(' , ')} }`,
      });
    };
    const toEndpoints = svc.sessionAffinityClientIP ? toEndpointJumps : toEndpointDNATs;
    if (usesClusterPolicyChain) toEndpoints(clusterPolicyChain, clusterEndpoints);
    if (usesLocalPolicyChain) toEndpoints(localPolicyChain, localEndpoints);
    if (svc.sessionAffinityClientIP) {
      for (const ep of allReachableEndpoints) {
        chain(t, epChain(ep)).rules.push(
          { rule: `update @${affinitySet(ep)} { ip saddr }` },
          { rule: `meta l4proto ${protocol} dnat to ${endpointString(ep)}` },
        );
      }
    }
  }
  return t;
}

const TABLE = 'ip kube-proxy';

/** The table as knftables writes its transaction ("add chain ip kube-proxy …" lines). */
export function nftablesTransaction(t: NFTTable): string[] {
  const out = [`add table ${TABLE} { comment "rules for kube-proxy" ; }`];
  for (const s of t.sets) {
    const attrs = [
      `type ${s.type}`,
      ...(s.flags ? [`flags ${s.flags.join(',')}`] : []),
      ...(s.timeout ? [`timeout ${s.timeout}`] : []),
      ...(s.comment ? [`comment "${s.comment}"`] : []),
    ];
    out.push(`add ${s.kind} ${TABLE} ${s.name} { ${attrs.join(' ; ')} ; }`);
  }
  for (const c of t.chains) {
    const attrs = c.type
      ? [`type ${c.type} hook ${c.hook} priority ${c.priority}`]
      : c.comment
        ? [`comment "${c.comment}"`]
        : [];
    out.push(`add chain ${TABLE} ${c.name}${attrs.length ? ` { ${attrs.join(' ; ')} ; }` : ''}`);
  }
  for (const c of t.chains)
    for (const r of c.rules)
      out.push(`add rule ${TABLE} ${c.name} ${r.rule}${r.comment ? ` comment "${r.comment}"` : ''}`);
  for (const s of t.sets) {
    for (const e of s.elements)
      out.push(
        `add element ${TABLE} ${s.name} { ${e.key}${e.comment ? ` comment "${e.comment}"` : ''}${e.value ? ` : ${e.value}` : ''} }`,
      );
  }
  return out;
}

const OBJECT_ORDER: Record<string, number> = { table: 10, chain: 9, rule: 8, set: 7, map: 6, element: 5 };

/**
 * sortNFTablesTransaction (pkg/proxy/nftables/helpers_test.go): no blank or comment lines; by object
 * type, then object name; rules keep their order, other lines go by their whole text.
 */
export function sortNFTablesTransaction(tx: string): string {
  const lines = tx.split('\n').filter((l) => l !== '' && l[0] !== '#');
  const less = (li: string, lj: string): boolean => {
    const wi = li.split(' ');
    const wj = lj.split(' ');
    if (wi.length < 5 || wj.length < 5) return false;
    if (wi[1] !== wj[1]) return (OBJECT_ORDER[wi[1]] ?? 0) >= (OBJECT_ORDER[wj[1]] ?? 0);
    if (wi[4] !== wj[4]) return wi[4] < wj[4];
    if (wi[1] === 'rule') return false;
    return li < lj;
  };
  return lines
    .map((l, i) => [l, i] as const)
    .sort(([a, i], [b, j]) => (less(a, b) ? -1 : less(b, a) ? 1 : i - j))
    .map(([l]) => l)
    .join('\n');
}

/** Chain hook priorities as nft names them (the standard ones by name, others as offsets). */
function priorityName(type: string, hook: string, p: number): string {
  if (type === 'nat' && p === -100) return 'dstnat';
  if (type === 'nat' && p === 100) return 'srcnat';
  if (p === 0) return 'filter';
  if (hook === 'prerouting' || hook === 'output') return p < -100 ? `dstnat - ${-100 - p}` : `${p}`;
  return `${p}`;
}

/**
 * `nft list table ip kube-proxy`: sets and maps with their elements, then the chains with their
 * rules, nested and indented with tabs as nft prints a ruleset (its own ordering, by kind then name).
 */
export function nftListTable(t: NFTTable): string {
  const out = ['table ip kube-proxy {', '\tcomment "rules for kube-proxy"'];
  const sets = [...t.sets].sort((a, b) => (a.kind !== b.kind ? (a.kind === 'set' ? -1 : 1) : a.name < b.name ? -1 : 1));
  for (const s of sets) {
    out.push(`\t${s.kind} ${s.name} {`, `\t\ttype ${s.type}`);
    if (s.flags) out.push(`\t\tflags ${s.flags.join(',')}`);
    if (s.timeout) out.push(`\t\ttimeout ${s.timeout}`);
    if (s.comment) out.push(`\t\tcomment "${s.comment}"`);
    if (s.elements.length) {
      const els = s.elements.map(
        (e) => `${e.key}${e.comment ? ` comment "${e.comment}"` : ''}${e.value ? ` : ${e.value}` : ''}`,
      );
      out.push(`\t\telements = { ${els.join(',\n\t\t\t     ')} }`);
    }
    out.push('\t}', '');
  }
  const chains = [...t.chains].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const c of chains) {
    out.push(`\tchain ${c.name} {`);
    if (c.comment) out.push(`\t\tcomment "${c.comment}"`);
    if (c.type)
      out.push(
        `\t\ttype ${c.type} hook ${c.hook} priority ${priorityName(c.type, c.hook!, c.priority!)}; policy accept;`,
      );
    for (const r of c.rules) out.push(`\t\t${r.rule}${r.comment ? ` comment "${r.comment}"` : ''}`);
    out.push('\t}', '');
  }
  if (out.at(-1) === '') out.pop();
  out.push('}');
  return out.join('\n') + '\n';
}
