// `sim traffic <service> <n> [--from <node>] [-n <namespace>]`: n new connections from a node to a
// Service's ClusterIP and first port, through that node's rules, counted per endpoint and per
// failure. The Service is read from the client node's kube-proxy (what its last sync saw), so
// traffic during a control-plane outage goes by the frozen rules, as it would.
import type { Service } from 'kubernetes-types/core/v1';
import { kubeProxyStateOf } from '../kube-proxy/reader.ts';
import { connect, kubeletOf, type ConnectError, type NetWorld } from './data-path.ts';
import type { PodNetworkState, ProgramOutput } from './pod-network.ts';

/** What `sim traffic` asks for. */
export interface TrafficArgs {
  namespace: string;
  service: string;
  n: number;
  from: string;
}

/** The most requests one line sends: enough to show the spread; each leaves a conntrack entry for 120 s in the state a figure snapshots. */
export const MAX_TRAFFIC = 1_000;

const WORDS: Record<ConnectError, string> = {
  refused: 'connection refused',
  timeout: 'timed out',
  unreachable: 'no route to host',
};

/** Left-aligned columns two spaces apart, as kubectl's tables are. */
function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map(
      (r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] + 3)))
          .join('')
          .trimEnd() + '\n',
    )
    .join('');
}

/** Send the requests and count where they went. */
export function sendTraffic(w: NetWorld, net: PodNetworkState, a: TrafficArgs): ProgramOutput {
  const st = kubeletOf(w, a.from);
  if (!st) return { stdout: '', stderr: `error: node "${a.from}" not found\n`, exitCode: 1 };
  if (!st.up) return { stdout: '', stderr: `error: ${a.from} is down: nothing can send from it\n`, exitCode: 1 };
  const kp = kubeProxyStateOf(w, a.from);
  if (!kp?.synced)
    return { stdout: '', stderr: `error: kube-proxy on node "${a.from}" has not synced its rules yet\n`, exitCode: 1 };
  const svc: Service | undefined = kp.synced.services.find(
    (s) => s.metadata?.namespace === a.namespace && s.metadata?.name === a.service,
  );
  if (!svc)
    return {
      stdout: '',
      stderr: `error: kube-proxy on ${a.from} knows no service "${a.service}" in namespace "${a.namespace}"\n`,
      exitCode: 1,
    };
  const ip = svc.spec?.clusterIP;
  const port = svc.spec?.ports?.[0];
  if (!ip || ip === 'None' || !port)
    return {
      stdout: '',
      stderr: `error: service "${a.service}" has no cluster IP and port to send to (headless Services are reached by their pods' names)\n`,
      exitCode: 1,
    };
  const protocol = (port.protocol ?? 'TCP') as 'TCP' | 'UDP' | 'SCTP';
  // Who holds each endpoint address, as the EndpointSlices of the rules' sync say (a dead node's pod included).
  const owners = new Map<string, { pod: string; node: string }>();
  for (const sl of kp.synced.slices)
    for (const ep of sl.endpoints ?? [])
      for (const addr of ep.addresses ?? [])
        owners.set(addr, { pod: ep.targetRef?.name ?? '', node: ep.nodeName ?? '' });
  const rows = new Map<string, { pod: string; node: string; ok: number; failed: Map<string, number> }>();
  const noEndpoint = new Map<string, number>();
  let ok = 0;
  for (let i = 0; i < a.n; i++) {
    const c = connect(w, net, { from: { node: a.from }, dstIP: ip, dstPort: port.port, protocol });
    if (c.ok) ok++;
    if (c.endpoint) {
      let row = rows.get(c.endpoint);
      const owner = owners.get(c.endpoint.slice(0, c.endpoint.lastIndexOf(':')));
      if (!row)
        rows.set(
          c.endpoint,
          (row = {
            pod: c.served?.pod ?? owner?.pod ?? '',
            node: c.served?.node ?? owner?.node ?? '',
            ok: 0,
            failed: new Map(),
          }),
        );
      if (c.ok) row.ok++;
      else row.failed.set(WORDS[c.error!], (row.failed.get(WORDS[c.error!]) ?? 0) + 1);
    } else if (!c.ok) noEndpoint.set(WORDS[c.error!], (noEndpoint.get(WORDS[c.error!]) ?? 0) + 1);
  }
  const failures = (m: Map<string, number>) => [...m].map(([k, v]) => `${v} ${k}`).join(', ') || '0';
  const lines: string[][] = [['ENDPOINT', 'POD', 'NODE', 'OK', 'FAILED']];
  for (const [ep, r] of [...rows].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
    lines.push([ep, r.pod || '<none>', r.node || '<none>', String(r.ok), failures(r.failed)]);
  if (noEndpoint.size) lines.push(['<none>', '<none>', '<none>', '0', failures(noEndpoint)]);
  const head = `${a.n} request${a.n === 1 ? '' : 's'} from ${a.from} to ${a.namespace}/${a.service} (${ip}:${port.port}/${protocol}): ${ok} ok, ${a.n - ok} failed\n`;
  return { stdout: head + table(lines), stderr: '', exitCode: 0 };
}
