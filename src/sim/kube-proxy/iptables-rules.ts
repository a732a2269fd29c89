// The iptables proxier's syncProxyRules (pkg/proxy/iptables/proxier.go) as a pure function: the
// Services and EndpointSlices a node's kube-proxy has seen in, the iptables-restore input out.
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import {
  servicePortEndpointChainName,
  serviceExternalChainName,
  serviceFirewallChainName,
  servicePortPolicyClusterChain,
  servicePortPolicyLocalChainName,
} from './chain-names.ts';
import {
  categorizeEndpoints,
  endpointString,
  endpointsKey,
  endpointsMapOf,
  externallyAccessible,
  servicePortsOf,
  usesClusterEndpoints,
  usesLocalEndpoints,
  type EndpointInfo,
  type ServicePortInfo,
} from './service-port.ts';

/** The proxier's settings that change what it writes. */
export interface ProxierConfig {
  nodeName: string;
  /** The node's IP (loadBalancerSourceRanges that contain it let the node reach the LB IP). */
  nodeIP?: string;
  /** --cluster-cidr for detect-local-mode ClusterCIDR; none = no local-traffic detector. */
  clusterCIDR?: string;
  /** --masquerade-all. */
  masqueradeAll?: boolean;
  /** --iptables-masquerade-bit (default 14: mark 0x4000). */
  masqueradeBit?: number;
  /** --iptables-localhost-nodeports (default true). */
  localhostNodePorts?: boolean;
  /** Whether the kernel's nfacct counters exist (the localhost NodePort and INVALID-drop counters). */
  nfacct?: boolean;
  /** net.netfilter.nf_conntrack_tcp_be_liberal is set: no DROP of INVALID packets. */
  conntrackTCPLiberal?: boolean;
  /** iptables supports MASQUERADE --random-fully (every iptables since 1.6.2). */
  randomFully?: boolean;
}

/** One table of the restore input: its chains and rules, in the order they were written. */
export interface TableData {
  chains: string[];
  rules: string[];
}

/** The proxier's iptables-restore input: the filter and nat tables. */
export interface IPTablesData {
  filter: TableData;
  nat: TableData;
}

/** largeClusterEndpointsThreshold: beyond it the per-endpoint comments are left out. */
const LARGE_CLUSTER_ENDPOINTS_THRESHOLD = 1000;
/** The counter of localhost NodePort packets (metrics.LocalhostNodePortAcceptedNFAcctCounter). */
const LOCALHOST_NODEPORT_NFACCT = 'localhost_nps_accepted_pkts';
/** The counter of dropped INVALID packets (metrics.IPTablesCTStateInvalidDroppedNFAcctCounter). */
const CT_STATE_INVALID_NFACCT = 'ct_state_invalid_dropped_pkts';

const KUBE_SERVICES = 'KUBE-SERVICES';
const KUBE_EXTERNAL_SERVICES = 'KUBE-EXTERNAL-SERVICES';
const KUBE_NODEPORTS = 'KUBE-NODEPORTS';
const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
const KUBE_FORWARD = 'KUBE-FORWARD';
const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
const KUBE_FIREWALL = 'KUBE-FIREWALL';

/** utiliptables.MakeChainLine. */
function makeChainLine(chain: string): string {
  return `:${chain} - [0:0]`;
}

/**
 * computeProbability: 1/n with ten decimals, as Go's %0.10f prints it: the double's exact value
 * rounded half to even (toFixed rounds half up, and 1/2048 = 0.00048828125 is such a tie).
 */
export function computeProbability(n: number): string {
  const x = 1 / n;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const exponent = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exponent !== 0) mantissa |= 1n << 52n;
  // x = mantissa / 2^shift exactly.
  const shift = BigInt(1075 - (exponent || 1));
  const scaled = mantissa * 10n ** 10n;
  const denominator = 1n << shift;
  let q = scaled / denominator;
  const twice = 2n * (scaled % denominator);
  if (twice > denominator || (twice === denominator && q % 2n === 1n)) q += 1n;
  const digits = q.toString().padStart(11, '0');
  return `${digits.slice(0, -10)}.${digits.slice(-10)}`;
}

/** The service ports and endpoints the proxier works from (svcPortMap and endpointsMap), sorted by name. */
export function proxyStateOf(
  services: Service[],
  slices: EndpointSlice[],
  nodeName: string,
): { ports: ServicePortInfo[]; endpoints: Map<string, EndpointInfo[]> } {
  const ports = services
    .flatMap(servicePortsOf)
    .sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : a.protocol < b.protocol ? -1 : a.protocol > b.protocol ? 1 : 0,
    );
  return { ports, endpoints: endpointsMapOf(slices, nodeName) };
}

/** The endpoints of one service port. */
export function endpointsOf(endpoints: Map<string, EndpointInfo[]>, sp: ServicePortInfo): EndpointInfo[] {
  return endpoints.get(endpointsKey(sp.namespace, sp.service, sp.port, sp.protocol)) ?? [];
}

/**
 * syncProxyRules, a full sync: every chain and rule the proxier writes for these Services and
 * EndpointSlices (Go iterates its service map in random order; here service ports go by name).
 */
export function syncProxyRules(services: Service[], slices: EndpointSlice[], config: ProxierConfig): IPTablesData {
  const mark = `0x${(1 << (config.masqueradeBit ?? 14)).toString(16)}`;
  const localhostNodePorts = config.localhostNodePorts ?? true;
  const nfacct = config.nfacct ?? false;
  const filter: TableData = {
    chains: [KUBE_SERVICES, KUBE_EXTERNAL_SERVICES, KUBE_FORWARD, KUBE_NODEPORTS, KUBE_PROXY_FIREWALL].map(
      makeChainLine,
    ),
    rules: [],
  };
  const nat: TableData = {
    chains: [KUBE_SERVICES, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_MARK_MASQ].map(makeChainLine),
    rules: [],
  };
  const natRule = (...args: string[]) => nat.rules.push(args.join(' '));
  const filterRule = (...args: string[]) => filter.rules.push(args.join(' '));

  natRule('-A', KUBE_POSTROUTING, '-m', 'mark', '!', '--mark', `${mark}/${mark}`, '-j', 'RETURN');
  natRule('-A', KUBE_POSTROUTING, '-j', 'MARK', '--xor-mark', mark);
  natRule(
    '-A',
    KUBE_POSTROUTING,
    '-m',
    'comment',
    '--comment',
    '"kubernetes service traffic requiring SNAT"',
    '-j',
    'MASQUERADE',
    ...(config.randomFully ? ['--random-fully'] : []),
  );
  natRule('-A', KUBE_MARK_MASQ, '-j', 'MARK', '--or-mark', mark);
  if (localhostNodePorts) {
    filter.chains.push(makeChainLine(KUBE_FIREWALL));
    filterRule(
      '-A',
      KUBE_FIREWALL,
      '-m',
      'comment',
      '--comment',
      '"block incoming localnet connections"',
      '-d',
      '127.0.0.0/8',
      '!',
      '-s',
      '127.0.0.0/8',
      '-m',
      'conntrack',
      '!',
      '--ctstate',
      'RELATED,ESTABLISHED,DNAT',
      '-j',
      'DROP',
    );
  }

  const { ports, endpoints } = proxyStateOf(services, slices, config.nodeName);
  let totalEndpoints = 0;
  for (const sp of ports) totalEndpoints += endpointsOf(endpoints, sp).length;
  const largeClusterMode = totalEndpoints > LARGE_CLUSTER_ENDPOINTS_THRESHOLD;
  const comment = (name: string): string[] => (largeClusterMode ? [] : ['-m', 'comment', '--comment', name]);
  const ifLocal = config.clusterCIDR ? ['-s', config.clusterCIDR] : undefined;
  const ifNotLocal = config.clusterCIDR ? ['!', '-s', config.clusterCIDR] : undefined;

  for (const svc of ports) {
    const protocol = svc.protocol.toLowerCase();
    const name = svc.name;
    const port = String(svc.portNumber);
    const {
      clusterEndpoints,
      localEndpoints,
      allReachableEndpoints,
      hasAnyEndpoints: hasEndpoints,
    } = categorizeEndpoints(endpointsOf(endpoints, svc), svc);
    const clusterPolicyChain = servicePortPolicyClusterChain(name, protocol);
    const localPolicyChain = servicePortPolicyLocalChainName(name, protocol);
    const usesClusterPolicyChain = clusterEndpoints.length > 0 && usesClusterEndpoints(svc);
    const usesLocalPolicyChain = localEndpoints.length > 0 && usesLocalEndpoints(svc);
    let internalPolicyChain = clusterPolicyChain;
    let hasInternalEndpoints = hasEndpoints;
    if (svc.internalPolicyLocal) {
      internalPolicyChain = localPolicyChain;
      if (localEndpoints.length === 0) hasInternalEndpoints = false;
    }
    let externalPolicyChain = clusterPolicyChain;
    let hasExternalEndpoints = hasEndpoints;
    if (svc.externalPolicyLocal) {
      externalPolicyChain = localPolicyChain;
      if (localEndpoints.length === 0) hasExternalEndpoints = false;
    }
    const externalTrafficChain = serviceExternalChainName(name, protocol);
    const usesExternalTrafficChain = hasEndpoints && externallyAccessible(svc);
    const fwChain = serviceFirewallChainName(name, protocol);
    const usesFWChain = hasEndpoints && svc.loadBalancerVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
    const loadBalancerTrafficChain = usesFWChain ? fwChain : externalTrafficChain;

    let internalFilterTarget = '';
    let internalFilterComment = '';
    let externalFilterTarget = '';
    let externalFilterComment = '';
    if (!hasEndpoints) {
      internalFilterTarget = externalFilterTarget = 'REJECT';
      internalFilterComment = externalFilterComment = `"${name} has no endpoints"`;
    } else {
      if (!hasInternalEndpoints) {
        internalFilterTarget = 'DROP';
        internalFilterComment = `"${name} has no local endpoints"`;
      }
      if (!hasExternalEndpoints) {
        externalFilterTarget = 'DROP';
        externalFilterComment = `"${name} has no local endpoints"`;
      }
    }

    // Capture the cluster IP.
    if (hasInternalEndpoints) {
      natRule(
        '-A',
        KUBE_SERVICES,
        '-m',
        'comment',
        '--comment',
        `"${name} cluster IP"`,
        '-m',
        protocol,
        '-p',
        protocol,
        '-d',
        svc.clusterIP,
        '--dport',
        port,
        '-j',
        internalPolicyChain,
      );
    } else {
      filterRule(
        '-A',
        KUBE_SERVICES,
        '-m',
        'comment',
        '--comment',
        internalFilterComment,
        '-m',
        protocol,
        '-p',
        protocol,
        '-d',
        svc.clusterIP,
        '--dport',
        port,
        '-j',
        internalFilterTarget,
      );
    }
    // Capture external IPs.
    for (const ip of svc.externalIPs) {
      if (hasEndpoints)
        natRule(
          '-A',
          KUBE_SERVICES,
          '-m',
          'comment',
          '--comment',
          `"${name} external IP"`,
          '-m',
          protocol,
          '-p',
          protocol,
          '-d',
          ip,
          '--dport',
          port,
          '-j',
          externalTrafficChain,
        );
      if (!hasExternalEndpoints)
        filterRule(
          '-A',
          KUBE_EXTERNAL_SERVICES,
          '-m',
          'comment',
          '--comment',
          externalFilterComment,
          '-m',
          protocol,
          '-p',
          protocol,
          '-d',
          ip,
          '--dport',
          port,
          '-j',
          externalFilterTarget,
        );
    }
    // Capture load-balancer ingress.
    for (const ip of svc.loadBalancerVIPs) {
      if (hasEndpoints)
        natRule(
          '-A',
          KUBE_SERVICES,
          '-m',
          'comment',
          '--comment',
          `"${name} loadbalancer IP"`,
          '-m',
          protocol,
          '-p',
          protocol,
          '-d',
          ip,
          '--dport',
          port,
          '-j',
          loadBalancerTrafficChain,
        );
      if (usesFWChain)
        filterRule(
          '-A',
          KUBE_PROXY_FIREWALL,
          '-m',
          'comment',
          '--comment',
          `"${name} traffic not accepted by ${fwChain}"`,
          '-m',
          protocol,
          '-p',
          protocol,
          '-d',
          ip,
          '--dport',
          port,
          '-j',
          'DROP',
        );
    }
    if (!hasExternalEndpoints) {
      for (const ip of svc.loadBalancerVIPs)
        filterRule(
          '-A',
          KUBE_EXTERNAL_SERVICES,
          '-m',
          'comment',
          '--comment',
          externalFilterComment,
          '-m',
          protocol,
          '-p',
          protocol,
          '-d',
          ip,
          '--dport',
          port,
          '-j',
          externalFilterTarget,
        );
    }
    // Capture NodePorts.
    if (svc.nodePort !== 0) {
      const nodePort = String(svc.nodePort);
      if (hasEndpoints) {
        if (localhostNodePorts && nfacct) {
          natRule(
            '-A',
            KUBE_NODEPORTS,
            '-m',
            'comment',
            '--comment',
            name,
            '-m',
            protocol,
            '-p',
            protocol,
            '-d',
            '127.0.0.0/8',
            '--dport',
            nodePort,
            '-m',
            'nfacct',
            '--nfacct-name',
            LOCALHOST_NODEPORT_NFACCT,
            '-j',
            externalTrafficChain,
          );
        }
        natRule(
          '-A',
          KUBE_NODEPORTS,
          '-m',
          'comment',
          '--comment',
          name,
          '-m',
          protocol,
          '-p',
          protocol,
          '--dport',
          nodePort,
          '-j',
          externalTrafficChain,
        );
      }
      if (!hasExternalEndpoints) {
        filterRule(
          '-A',
          KUBE_EXTERNAL_SERVICES,
          '-m',
          'comment',
          '--comment',
          externalFilterComment,
          '-m',
          'addrtype',
          '--dst-type',
          'LOCAL',
          '-m',
          protocol,
          '-p',
          protocol,
          '--dport',
          nodePort,
          '-j',
          externalFilterTarget,
        );
      }
    }
    // Capture health-check NodePorts.
    if (svc.healthCheckNodePort !== 0) {
      filterRule(
        '-A',
        KUBE_NODEPORTS,
        '-m',
        'comment',
        '--comment',
        `"${name} health check node port"`,
        '-m',
        'tcp',
        '-p',
        'tcp',
        '--dport',
        String(svc.healthCheckNodePort),
        '-j',
        'ACCEPT',
      );
    }

    // Internal traffic: masquerade what comes from outside the pod network.
    if (hasInternalEndpoints) {
      const args = [
        '-m',
        'comment',
        '--comment',
        `"${name} cluster IP"`,
        '-m',
        protocol,
        '-p',
        protocol,
        '-d',
        svc.clusterIP,
        '--dport',
        port,
      ];
      if (config.masqueradeAll) natRule('-A', internalPolicyChain, ...args, '-j', KUBE_MARK_MASQ);
      else if (ifNotLocal) natRule('-A', internalPolicyChain, ...args, ...ifNotLocal, '-j', KUBE_MARK_MASQ);
    }
    // External traffic.
    if (usesExternalTrafficChain) {
      nat.chains.push(makeChainLine(externalTrafficChain));
      if (!svc.externalPolicyLocal) {
        natRule(
          '-A',
          externalTrafficChain,
          '-m',
          'comment',
          '--comment',
          `"masquerade traffic for ${name} external destinations"`,
          '-j',
          KUBE_MARK_MASQ,
        );
      } else {
        if (ifLocal)
          natRule(
            '-A',
            externalTrafficChain,
            '-m',
            'comment',
            '--comment',
            `"pod traffic for ${name} external destinations"`,
            ...ifLocal,
            '-j',
            clusterPolicyChain,
          );
        natRule(
          '-A',
          externalTrafficChain,
          '-m',
          'comment',
          '--comment',
          `"masquerade LOCAL traffic for ${name} external destinations"`,
          '-m',
          'addrtype',
          '--src-type',
          'LOCAL',
          '-j',
          KUBE_MARK_MASQ,
        );
        natRule(
          '-A',
          externalTrafficChain,
          '-m',
          'comment',
          '--comment',
          `"route LOCAL traffic for ${name} external destinations"`,
          '-m',
          'addrtype',
          '--src-type',
          'LOCAL',
          '-j',
          clusterPolicyChain,
        );
      }
      if (hasExternalEndpoints) natRule('-A', externalTrafficChain, '-j', externalPolicyChain);
    }
    // The firewall chain of loadBalancerSourceRanges.
    if (usesFWChain) {
      nat.chains.push(makeChainLine(fwChain));
      const args = ['-A', fwChain, '-m', 'comment', '--comment', `"${name} loadbalancer IP"`];
      let allowFromNode = false;
      for (const cidr of svc.loadBalancerSourceRanges) {
        natRule(...args, '-s', cidr, '-j', externalTrafficChain);
        if (config.nodeIP && cidrContains(cidr, config.nodeIP)) allowFromNode = true;
      }
      if (allowFromNode) for (const ip of svc.loadBalancerVIPs) natRule(...args, '-s', ip, '-j', externalTrafficChain);
      natRule(
        '-A',
        fwChain,
        '-m',
        'comment',
        '--comment',
        `"other traffic to ${name} will be dropped by KUBE-PROXY-FIREWALL"`,
      );
    }
    if (usesClusterPolicyChain) {
      nat.chains.push(makeChainLine(clusterPolicyChain));
      writeServiceToEndpointRules(nat, name, svc, protocol, clusterPolicyChain, clusterEndpoints, comment);
    }
    if (usesLocalPolicyChain) {
      nat.chains.push(makeChainLine(localPolicyChain));
      writeServiceToEndpointRules(nat, name, svc, protocol, localPolicyChain, localEndpoints, comment);
    }
    // One chain per endpoint: masquerade hairpin traffic, then DNAT.
    for (const ep of allReachableEndpoints) {
      const epChain = servicePortEndpointChainName(name, protocol, endpointString(ep));
      nat.chains.push(makeChainLine(epChain));
      const args = ['-A', epChain, ...comment(name)];
      natRule(...args, '-s', ep.ip, '-j', KUBE_MARK_MASQ);
      if (svc.sessionAffinityClientIP) args.push('-m', 'recent', '--name', epChain, '--set');
      natRule(...args, '-m', protocol, '-p', protocol, '-j', 'DNAT', '--to-destination', endpointString(ep));
    }
  }

  // The tail call to the NodePorts chain, after every other rule of KUBE-SERVICES.
  natRule(
    '-A',
    KUBE_SERVICES,
    '-m',
    'comment',
    '--comment',
    '"kubernetes service nodeports; NOTE: this must be the last rule in this chain"',
    '-m',
    'addrtype',
    '--dst-type',
    'LOCAL',
    ...(localhostNodePorts ? [] : ['!', '-d', '127.0.0.0/8']),
    '-j',
    KUBE_NODEPORTS,
  );
  if (!config.conntrackTCPLiberal) {
    filterRule(
      '-A',
      KUBE_FORWARD,
      '-m',
      'conntrack',
      '--ctstate',
      'INVALID',
      ...(nfacct ? ['-m', 'nfacct', '--nfacct-name', CT_STATE_INVALID_NFACCT] : []),
      '-j',
      'DROP',
    );
  }
  filterRule(
    '-A',
    KUBE_FORWARD,
    '-m',
    'comment',
    '--comment',
    '"kubernetes forwarding rules"',
    '-m',
    'mark',
    '--mark',
    `${mark}/${mark}`,
    '-j',
    'ACCEPT',
  );
  filterRule(
    '-A',
    KUBE_FORWARD,
    '-m',
    'comment',
    '--comment',
    '"kubernetes forwarding conntrack rule"',
    '-m',
    'conntrack',
    '--ctstate',
    'RELATED,ESTABLISHED',
    '-j',
    'ACCEPT',
  );
  return { filter, nat };
}

/** writeServiceToEndpointRules: affinity checks first, then one probabilistic jump per endpoint. */
function writeServiceToEndpointRules(
  nat: TableData,
  name: string,
  svc: ServicePortInfo,
  protocol: string,
  chain: string,
  endpoints: EndpointInfo[],
  comment: (c: string) => string[],
): void {
  if (svc.sessionAffinityClientIP) {
    for (const ep of endpoints) {
      const epChain = servicePortEndpointChainName(name, protocol, endpointString(ep));
      nat.rules.push(
        [
          '-A',
          chain,
          ...comment(`"${name} -> ${endpointString(ep)}"`),
          '-m',
          'recent',
          '--name',
          epChain,
          '--rcheck',
          '--seconds',
          String(svc.stickyMaxAgeSeconds),
          '--reap',
          '-j',
          epChain,
        ].join(' '),
      );
    }
  }
  endpoints.forEach((ep, i) => {
    const epChain = servicePortEndpointChainName(name, protocol, endpointString(ep));
    const args = ['-A', chain, ...comment(`"${name} -> ${endpointString(ep)}"`)];
    if (i < endpoints.length - 1)
      args.push('-m', 'statistic', '--mode', 'random', '--probability', computeProbability(endpoints.length - i));
    nat.rules.push([...args, '-j', epChain].join(' '));
  });
}

/** Whether an IPv4 CIDR ("203.0.113.0/25") contains an address. */
export function cidrContains(cidr: string, ip: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const bits = Number(bitsText ?? 32);
  const a = ipv4ToInt(base);
  const b = ipv4ToInt(ip);
  if (a === undefined || b === undefined || !(bits >= 0 && bits <= 32)) return false;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (a & mask) >>> 0 === (b & mask) >>> 0;
}

function ipv4ToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    const v = Number(p);
    if (!/^\d{1,3}$/.test(p) || v > 255) return undefined;
    n = n * 256 + v;
  }
  return n;
}

// The chain a rule line appends to.
function chainOf(rule: string): string {
  return rule.split(' ', 2)[1];
}

// orderByCommentServiceName's key: the comment up to its first space or colon.
function commentServiceName(rule: string): string | undefined {
  const m = /-m comment --comment ("([^"]*)"|(\S+))/.exec(rule);
  if (!m) return undefined;
  const value = m[2] ?? m[3];
  const i = value.search(/[ :]/);
  return i === -1 ? value : value.slice(0, i);
}

function stableSort<T>(xs: T[], less: (a: T, b: T) => boolean): T[] {
  return xs
    .map((x, i) => [x, i] as const)
    .sort(([a, i], [b, j]) => (less(a, b) ? -1 : less(b, a) ? 1 : i - j))
    .map(([x]) => x);
}

/**
 * One table as the upstream tests print it (sortIPTablesRules in proxier_test.go): KUBE-NODEPORTS,
 * KUBE-SERVICES, then the other chains by name; rules grouped by chain; KUBE-NODEPORTS and
 * KUBE-SERVICES rules ordered by the Service in their comment, the NodePorts jump kept last.
 */
function sortedTable(name: 'filter' | 'nat', table: TableData): string[] {
  const names = table.chains.map((c) => c.slice(1, c.indexOf(' ')));
  const rank = (c: string) => (c === KUBE_NODEPORTS ? 0 : c === KUBE_SERVICES ? 1 : c.startsWith('KUBE-') ? 2 : 3);
  const chains = [...names].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const byService = (a: string, b: string) => {
    const x = commentServiceName(a);
    const y = commentServiceName(b);
    return x !== undefined && y !== undefined && x < y;
  };
  const out = [`*${name}`, ...chains.map(makeChainLine)];
  for (const chain of chains) {
    let rules = table.rules.filter((r) => chainOf(r) === chain);
    if (chain === KUBE_NODEPORTS) rules = stableSort(rules, byService);
    if (chain === KUBE_SERVICES) {
      const last = (r: string) => r.includes('must be the last rule');
      rules = stableSort(rules, (a, b) => (last(a) ? false : last(b) ? true : byService(a, b)));
    }
    out.push(...rules);
  }
  out.push('COMMIT');
  return out;
}

/** The whole iptables-restore input, both tables, in the upstream tests' order. */
export function iptablesRestoreText(data: IPTablesData): string {
  return [...sortedTable('filter', data.filter), ...sortedTable('nat', data.nat)].join('\n') + '\n';
}

/** The kernel's nat chains kube-proxy links to its own (iptablesJumpChains' nat rows). */
const NAT_JUMPS = [
  '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
  '-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
  '-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
];

/**
 * `iptables-save -t nat` on the node: the built-in chains with kube-proxy's jumps into its own,
 * then its chains and rules (without the "# Generated by" lines, which carry a wall-clock date).
 */
export function iptablesSaveNat(data: IPTablesData): string {
  const kube = sortedTable('nat', data.nat);
  const chainLines = kube.filter((l) => l.startsWith(':'));
  const rules = kube.filter((l) => l.startsWith('-A'));
  return (
    [
      '*nat',
      ':PREROUTING ACCEPT [0:0]',
      ':INPUT ACCEPT [0:0]',
      ':OUTPUT ACCEPT [0:0]',
      ':POSTROUTING ACCEPT [0:0]',
      ...chainLines,
      ...NAT_JUMPS,
      ...rules,
      'COMMIT',
    ].join('\n') + '\n'
  );
}
