// Programs run in a pod's network namespace (`kubectl exec POD -- …`), answered by the data path
// and CoreDNS, with the real tools' words: curl 8, BusyBox wget, BIND's nslookup (the dnsutils
// image the Kubernetes DNS debugging page uses), cat /etc/resolv.conf. Simplified, and said so in
// NOTES.md: the app in every container answers any HTTP request with 200 and its pod's name; the
// tools exist in every image; a call takes no simulated time (curl prints how long connect() would
// have taken); curl prints no progress meter and wget no progress bar.
import type { Pod } from 'kubernetes-types/core/v1';
import { COREDNS, KUBE_DNS_IP, type CorednsState } from './coredns.ts';
import { connect, kubeletOf, podAddress, type ConnectResult, type NetWorld } from './data-path.ts';
import { podResolvConf, resolve, searchListOf, type DnsAnswer } from './dns.ts';
import type { PodNetworkState, ProgramOutput } from './pod-network.ts';

/** What `kubectl exec` hands the network: the pod and the command line after `--`. */
export interface ExecArgs {
  namespace: string;
  pod: string;
  argv: string[];
  container?: string;
  node?: string;
}

/** The commands this simulator runs in a container. */
const EXEC_COMMANDS = ['curl', 'wget', 'nslookup', 'cat /etc/resolv.conf'];

const out = (stdout: string, stderr = '', exitCode = 0): ProgramOutput => ({ stdout, stderr, exitCode });

/** The pod as its node's kubelet has it (its spec: dnsPolicy, ports), when it runs there. */
function podOf(w: NetWorld, namespace: string, name: string): Pod | undefined {
  const addr = podAddress(w, namespace, name);
  return addr ? kubeletOf(w, addr.node)?.pods.items[`${namespace}/${name}`] : undefined;
}

/** A lookup as the pod's stub resolver makes it: one UDP query per candidate name to the nameserver, through the data path. */
export function lookup(
  w: NetWorld,
  net: PodNetworkState,
  from: { namespace: string; name: string },
  name: string,
  resolvConf: string,
): { answer?: DnsAnswer; error?: ConnectResult } {
  const cache = w.components[COREDNS]?.state as CorednsState | undefined;
  // One query reaches the server or not; the answer comes from CoreDNS's caches.
  const q = connect(w, net, { from: { pod: from }, dstIP: KUBE_DNS_IP, dstPort: 53, protocol: 'UDP' });
  if (!q.ok || !cache || q.served?.container !== 'coredns') {
    if (q.ok)
      return {
        error: { ...q, ok: false, error: 'refused', reason: `${q.endpoint ?? KUBE_DNS_IP} does not serve DNS` },
      };
    return { error: q };
  }
  return { answer: resolve(cache, name, searchListOf(resolvConf)) };
}

/** A URL as curl and wget read it: scheme, host, port, path. */
function parseURL(url: string): { scheme: string; host: string; port: number; path: string } | undefined {
  const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?([^/:?#]+)(?::(\d+))?([/?#].*)?$/.exec(url);
  if (!m) return undefined;
  const scheme = (m[1] ?? 'http').toLowerCase();
  return { scheme, host: m[2], port: m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80, path: m[4] ?? '/' };
}

const IP = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Resolve a URL's host (an address as is, a name through DNS) and connect to it. */
function reach(
  w: NetWorld,
  net: PodNetworkState,
  a: ExecArgs,
  pod: Pod,
  host: string,
  port: number,
): { dns: 'fail' } | { ip: string; conn: ConnectResult } {
  let ip = host;
  if (!IP.test(host)) {
    const conf = podResolvConf(pod);
    const r = conf ? lookup(w, net, { namespace: a.namespace, name: a.pod }, host, conf) : {};
    if (!r.answer || !r.answer.a.length) return { dns: 'fail' };
    ip = r.answer.a[0];
  }
  return {
    ip,
    conn: connect(w, net, { from: { pod: { namespace: a.namespace, name: a.pod } }, dstIP: ip, dstPort: port }),
  };
}

/** What the simulated app answers: its pod's name (as agnhost serve-hostname does). */
function body(c: ConnectResult): string {
  return `${c.served!.pod}\n`;
}

/** curl [-s] [-S] [-m N] [--connect-timeout N] URL: the body, or curl 8's error line and exit code. */
function curl(w: NetWorld, net: PodNetworkState, a: ExecArgs, pod: Pod, args: string[]): ProgramOutput {
  let silent = false;
  let showError = false;
  let maxTime: number | undefined;
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const x = args[i];
    if (x === '--silent') silent = true;
    else if (x === '--show-error') showError = true;
    else if (x === '-m' || x === '--max-time' || x === '--connect-timeout') maxTime = Number(args[++i]);
    else if (/^-[sS]+$/.test(x)) {
      if (x.includes('s')) silent = true;
      if (x.includes('S')) showError = true;
    } else if (x.startsWith('-'))
      return out('', `curl: option ${x}: this simulator's curl takes only -s, -S, -m and --connect-timeout\n`, 2);
    else url = x;
  }
  if (url === undefined)
    return out('', "curl: no URL specified\ncurl: try 'curl --help' or 'curl --manual' for more information\n", 2);
  const err = (code: number, msg: string) => out('', !silent || showError ? `curl: (${code}) ${msg}\n` : '', code);
  const u = parseURL(url);
  if (!u) return err(3, 'URL rejected: Malformed input to a URL function');
  if (u.scheme !== 'http') return err(1, `Protocol "${u.scheme}" not supported`);
  const r = reach(w, net, a, pod, u.host, u.port);
  if ('dns' in r) return err(6, `Could not resolve host: ${u.host}`);
  const c = r.conn;
  if (c.ok) return out(body(c));
  if (maxTime !== undefined && maxTime * 1000 < c.elapsedMs)
    return err(28, `Connection timed out after ${maxTime * 1000} milliseconds`);
  // A kernel timeout (ETIMEDOUT) turns curl's code into 28; its message keeps "Couldn't connect".
  return err(
    c.error === 'timeout' ? 28 : 7,
    `Failed to connect to ${u.host} port ${u.port} after ${c.elapsedMs} ms: Couldn't connect to server`,
  );
}

/** BusyBox wget -q -O- URL: the body on stdout, or BusyBox's error line (exit 1). */
function wget(w: NetWorld, net: PodNetworkState, a: ExecArgs, pod: Pod, args: string[]): ProgramOutput {
  let quiet = false;
  let toStdout = false;
  let timeout: number | undefined;
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const x = args[i];
    if (x === '-O') {
      if (args[++i] !== '-') return out('', 'wget: this simulator writes only to stdout (-O-)\n', 1);
      toStdout = true;
    } else if (x === '-T') timeout = Number(args[++i]);
    else if (/^-q?O-$/.test(x) || x === '-qO-') {
      toStdout = true;
      if (x.includes('q')) quiet = true;
    } else if (x === '-q') quiet = true;
    else if (x.startsWith('-'))
      return out('', `wget: option ${x}: this simulator's wget takes only -q, -O- and -T\n`, 1);
    else url = x;
  }
  if (url === undefined) return out('', 'BusyBox wget: missing URL\n', 1);
  if (!toStdout) return out('', 'wget: this simulator writes only to stdout (-O-)\n', 1);
  const u = parseURL(url);
  if (!u) return out('', `wget: bad address '${url}'\n`, 1);
  if (u.scheme !== 'http') return out('', `wget: not an http or ftp url: ${url}\n`, 1);
  const r = reach(w, net, a, pod, u.host, u.port);
  if ('dns' in r) return out('', `wget: bad address '${u.host}'\n`, 1);
  const c = r.conn;
  const head = quiet ? '' : `Connecting to ${u.host} (${r.ip}:${u.port})\n`;
  if (c.ok) return out(body(c), quiet ? '' : `${head}writing to stdout\nwritten to stdout\n`);
  if (c.error === 'timeout' && timeout !== undefined && timeout * 1000 < c.elapsedMs)
    return out('', `${head}wget: download timed out\n`, 1);
  const why =
    c.error === 'refused' ? 'Connection refused' : c.error === 'timeout' ? 'Connection timed out' : 'No route to host';
  return out('', `${head}wget: can't connect to remote host (${r.ip}): ${why}\n`, 1);
}

/** nslookup NAME, as BIND 9's prints it: the server, then each A record (NXDOMAIN: exit 1). */
function nslookup(w: NetWorld, net: PodNetworkState, a: ExecArgs, pod: Pod, args: string[]): ProgramOutput {
  const names = args.filter((x) => !x.startsWith('-'));
  if (names.length !== 1) return out('', 'nslookup: this simulator looks up one name: nslookup NAME\n', 1);
  const name = names[0];
  const conf = podResolvConf(pod);
  if (!conf)
    return out(
      '',
      `nslookup: pod ${a.namespace}/${a.pod} uses its node's resolver (dnsPolicy ${pod.spec?.dnsPolicy}), which this simulator does not model\n`,
      1,
    );
  if (IP.test(name)) return out('', 'nslookup: this simulator answers no reverse (PTR) lookups\n', 1);
  const r = lookup(w, net, { namespace: a.namespace, name: a.pod }, name, conf);
  if (!r.answer) {
    if (r.error?.error === 'refused')
      return out(
        `;; communications error to ${KUBE_DNS_IP}#53: connection refused\n;; communications error to ${KUBE_DNS_IP}#53: connection refused\n;; communications error to ${KUBE_DNS_IP}#53: connection refused\n;; no servers could be reached\n\n`,
        '',
        1,
      );
    return out(';; connection timed out; no servers could be reached\n\n', '', 1);
  }
  const head = `Server:\t\t${KUBE_DNS_IP}\nAddress:\t${KUBE_DNS_IP}#53\n\n`;
  const ans = r.answer;
  if (ans.rcode === 'NXDOMAIN')
    return out(`${head}** server can't find ${name.replace(/\.$/, '')}: NXDOMAIN\n\n`, '', 1);
  // NODATA (a namespace's name, say): BIND prints the name as typed. Doubt: its exit code, 0 here.
  if (!ans.cname && ans.a.length === 0) return out(`${head}*** Can't find ${name.replace(/\.$/, '')}: No answer\n\n`);
  // A CNAME, then the target's addresses under the target's name (a CNAME into the cluster domain is followed).
  const owner = ans.cname ?? ans.name;
  const cname = ans.cname ? `${ans.name}\tcanonical name = ${ans.cname}.\n` : '';
  return out(`${head}${cname}${ans.a.map((ip) => `Name:\t${owner}\nAddress: ${ip}\n`).join('')}\n`);
}

/** Run one command line in a pod: the program, or why it cannot run. */
export function execInPod(w: NetWorld, net: PodNetworkState, a: ExecArgs): ProgramOutput {
  // The API server opens the stream to the pod's kubelet first (its port 10250 on the node's address).
  const node = a.node ? kubeletOf(w, a.node) : undefined;
  if (node && !node.up)
    return out(
      '',
      `Error from server: error dialing backend: dial tcp ${node.cfg.internalIP}:10250: connect: no route to host\n`,
      1,
    );
  const pod = podOf(w, a.namespace, a.pod);
  const container = a.container ?? pod?.spec?.containers?.[0]?.name ?? a.pod;
  const addr = podAddress(w, a.namespace, a.pod);
  const st = addr ? kubeletOf(w, addr.node) : undefined;
  const sid = st?.workers[`${a.namespace}/${a.pod}`]?.sandboxId;
  const running =
    !!st &&
    Object.values(st.runtime.containers).some(
      (c) => c.sandboxId === sid && c.name === container && c.state === 'CONTAINER_RUNNING',
    );
  if (!pod || !running)
    return out('', `error: unable to upgrade connection: container not found ("${container}")\n`, 1);
  const [cmd, ...args] = a.argv;
  const base = cmd?.split('/').pop();
  if (base === 'curl') return curl(w, net, a, pod, args);
  if (base === 'wget') return wget(w, net, a, pod, args);
  if (base === 'nslookup') return nslookup(w, net, a, pod, args);
  if (base === 'cat' && args.length === 1 && args[0] === '/etc/resolv.conf') {
    const conf = podResolvConf(pod);
    const how = `dnsPolicy ${pod.spec?.dnsPolicy ?? 'ClusterFirst'}${pod.spec?.hostNetwork ? ' on the host network' : ''}`;
    return conf
      ? out(conf)
      : out(
          '',
          `cat: pod ${a.namespace}/${a.pod} has its node's /etc/resolv.conf (${how}), which this simulator does not model\n`,
          1,
        );
  }
  return out(
    '',
    `error: this simulator runs only ${EXEC_COMMANDS.join(', ')} in a container (e.g. kubectl exec ${a.pod} -- curl -sS http://web)\n`,
    1,
  );
}
