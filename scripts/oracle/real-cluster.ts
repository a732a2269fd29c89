// The real cluster on loopback: the oracle binary (oracle/cmd/oracle) started as one process per
// component — embedded etcd, kube-apiserver (with an audit log of every request),
// kube-controller-manager, kube-scheduler and three kubemark hollow nodes (the real kubelet against
// a fake CRI runtime) — plus the real kubectl for the script's lines.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Repository root (scripts/oracle/..). */
const ROOT = resolve(import.meta.dirname, '..', '..');
/** The oracle's Go module and its build output (ignored by git). */
export const MODULE = join(ROOT, 'oracle');
const BIN = join(MODULE, 'bin', 'oracle');
export const KUBERNETES_VERSION = 'v1.37.2';

const PORTS = { etcdClient: 12379, etcdPeer: 12380, apiserver: 16443, controllerManager: 20257, scheduler: 20259, kubelet: 20250 };
const NODES = ['node-1', 'node-2', 'node-3'];

/** Build oracle/bin/oracle if it is missing, gently: one core, lowest priority. */
export function ensureBinary(): void {
  if (existsSync(BIN) && !process.env.ORACLE_REBUILD) return;
  const v = 'k8s.io/component-base/version';
  const cv = 'k8s.io/client-go/pkg/version';
  const ld = [`-s -w -X ${v}.gitVersion=${KUBERNETES_VERSION} -X ${v}.gitMajor=1 -X ${v}.gitMinor=37 -X ${v}.gitTreeState=clean`,
    `-X ${v}.buildDate=2026-11-01T00:00:00Z -X ${cv}.gitVersion=${KUBERNETES_VERSION} -X ${cv}.gitMajor=1 -X ${cv}.gitMinor=37`].join(' ');
  process.stderr.write('oracle: building oracle/bin/oracle (Kubernetes ' + KUBERNETES_VERSION + '; 20–60 min on one core the first time)\n');
  const r = spawnSync('nice', ['-n', '19', 'go', 'build', '-p', '1', '-trimpath', '-ldflags', ld, '-o', BIN, './cmd/oracle'], {
    cwd: MODULE, stdio: 'inherit', env: { ...process.env, GOMAXPROCS: '1' },
  });
  if (r.status !== 0) throw new Error('oracle: go build failed');
}

/**
 * The API server refuses to advertise a loopback address to its endpoint reconciler: it advertises
 * the machine's own first IPv4 address (only ever written into the `kubernetes` EndpointSlice; every
 * client here talks to 127.0.0.1), or runs without the reconciler when the machine has none.
 */
function advertise(): string[] {
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return [`--advertise-address=${a.address}`];
  return ['--advertise-address=127.0.0.1', '--endpoint-reconciler-type=none'];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The loopback cluster: its processes, its PKI and its audit log. */
export class RealCluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'oracle-'));
  readonly audit = join(this.dir, 'audit.log');
  private readonly procs = new Map<string, ChildProcess>();
  private readonly pki = join(this.dir, 'pki');

  private run(name: string, args: string[]): void {
    const out = openSync(join(this.dir, `${name}.log`), 'a');
    const p = spawn(BIN, args, { stdio: ['ignore', out, out], env: { ...process.env, HOME: this.dir, GOMAXPROCS: '1' } });
    this.procs.set(name, p);
  }

  /** Whether a component's process is running. */
  running(name: string): boolean { const p = this.procs.get(name); return !!p && p.exitCode === null && p.signalCode === null; }

  /** SIGKILL a component (a power cut, as the simulator's node `stop` is), or signal it and wait (SIGKILL after 20 s), and wait for it to go. */
  async kill(name: string, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const p = this.procs.get(name);
    if (!p || !this.running(name)) return;
    const gone = new Promise((r) => p.once('exit', r));
    p.kill(signal);
    const timer = signal === 'SIGKILL' ? undefined : setTimeout(() => p.kill('SIGKILL'), 20_000);
    await gone;
    clearTimeout(timer);
  }

  /** Certificates, etcd, the control plane, the nodes; resolves when every node is Ready and `default` has its ServiceAccount. */
  async start(): Promise<void> {
    const r = spawnSync(BIN, ['certs', '-dir', this.pki, '-server', `https://127.0.0.1:${PORTS.apiserver}`, '-nodes', NODES.join(',')], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('oracle certs failed');
    this.run('etcd', ['etcd', '-data-dir', join(this.dir, 'etcd'), '-listen-client-url', `http://127.0.0.1:${PORTS.etcdClient}`, '-listen-peer-url', `http://127.0.0.1:${PORTS.etcdPeer}`]);
    await this.startControlPlane();
    for (const n of NODES) this.startNode(n);
    await this.until(async () => {
      const nodes = await this.get('/api/v1/nodes');
      const ready = ((nodes?.items ?? []) as { status?: { conditions?: { type: string; status: string }[] } }[])
        .filter((o) => o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      const sa = await this.get('/api/v1/namespaces/default/serviceaccounts/default');
      return ready.length === NODES.length && !!sa;
    }, 240_000, 'nodes Ready');
  }

  /** kube-apiserver (waits for /readyz), kube-controller-manager, kube-scheduler. */
  async startControlPlane(): Promise<void> {
    const p = this.pki;
    if (!this.running('kube-apiserver')) this.run('kube-apiserver', ['kube-apiserver',
      `--etcd-servers=http://127.0.0.1:${PORTS.etcdClient}`, '--bind-address=127.0.0.1', `--secure-port=${PORTS.apiserver}`, ...advertise(),
      `--tls-cert-file=${p}/apiserver.crt`, `--tls-private-key-file=${p}/apiserver.key`, `--client-ca-file=${p}/ca.crt`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local', `--service-account-key-file=${p}/sa.pub`, `--service-account-signing-key-file=${p}/sa.key`,
      '--service-cluster-ip-range=10.96.0.0/12', '--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction', '--allow-privileged=true',
      `--kubelet-client-certificate=${p}/apiserver-kubelet-client.crt`, `--kubelet-client-key=${p}/apiserver-kubelet-client.key`,
      `--audit-policy-file=${join(MODULE, 'audit-policy.yaml')}`, `--audit-log-path=${this.audit}`, '--audit-log-format=json', '--audit-log-mode=blocking',
      `--cert-dir=${this.dir}/apiserver-certs`, '--profiling=false', '--v=1']);
    await this.until(async () => (await this.raw('/readyz')) === 'ok', 180_000, 'kube-apiserver /readyz');
    const common = (name: string) => [`--kubeconfig=${p}/${name}.kubeconfig`, `--authentication-kubeconfig=${p}/${name}.kubeconfig`, `--authorization-kubeconfig=${p}/${name}.kubeconfig`,
      '--bind-address=127.0.0.1', '--profiling=false', '--v=1']; // --leader-elect: on, its default (kubeadm's too)
    if (!this.running('kube-controller-manager')) this.run('kube-controller-manager', ['kube-controller-manager', ...common('controller-manager'),
      `--secure-port=${PORTS.controllerManager}`, `--service-account-private-key-file=${p}/sa.key`, `--root-ca-file=${p}/ca.crt`,
      '--use-service-account-credentials=true', `--cert-dir=${this.dir}/cm-certs`]);
    if (!this.running('kube-scheduler')) this.run('kube-scheduler', ['kube-scheduler', ...common('scheduler'), `--secure-port=${PORTS.scheduler}`]);
  }

  /**
   * Stops the scheduler, the controller manager and the API server in the simulator's order (etcd
   * stays). The two leader-electing processes are asked to terminate (SIGTERM, as the kubelet stops
   * a static pod whose manifest is moved away, and as the simulator's removeComponent does), so the
   * scheduler hands its Lease back (ReleaseOnCancel) while the API server still answers; the API
   * server is killed.
   */
  async stopControlPlane(): Promise<void> {
    await this.kill('kube-scheduler', 'SIGTERM');
    await this.kill('kube-controller-manager', 'SIGTERM');
    await this.kill('kube-apiserver');
  }

  /** One hollow node (kubemark's hollow kubelet, sending its events: cmd/oracle/hollow.go), on its own port. */
  startNode(name: string): void {
    const i = NODES.indexOf(name);
    if (i < 0) throw new Error(`node "${name}" not found`);
    if (this.running(name)) return;
    this.run(name, ['hollow-node', `-name=${name}`, `-kubeconfig=${this.pki}/kubelet-${name}.kubeconfig`, `-kubelet-port=${PORTS.kubelet + 1 + i}`, '-v=1']);
  }

  /** Ends every process this cluster started, by its own pid (also on SIGINT/SIGTERM). */
  async stop(): Promise<void> {
    for (const name of [...this.procs.keys()].reverse()) await this.kill(name);
  }

  /** The real kubectl as kubernetes-admin; argv without the word kubectl. */
  kubectl(argv: string[], stdin?: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
    return new Promise((res) => {
      const p = spawn(BIN, ['kubectl', ...argv], { env: { ...process.env, HOME: this.dir, KUBECONFIG: `${this.pki}/admin.kubeconfig`, GOMAXPROCS: '1' } });
      let stdout = ''; let stderr = '';
      p.stdout.on('data', (d) => (stdout += d));
      p.stderr.on('data', (d) => (stderr += d));
      p.on('close', (code) => res({ stdout, stderr, exitCode: code ?? 1 }));
      p.stdin.end(stdin ?? '');
    });
  }

  private tls() {
    return { ca: readFileSync(`${this.pki}/ca.crt`), cert: readFileSync(`${this.pki}/apiserver-kubelet-client.crt`), key: readFileSync(`${this.pki}/apiserver-kubelet-client.key`) };
  }

  /** GET as the observer identity (kube-apiserver-kubelet-client, dropped from the trace); undefined when refused. */
  raw(path: string, timeoutMs = 5000): Promise<string | undefined> {
    return new Promise((res) => {
      const req = httpsRequest({ host: '127.0.0.1', port: PORTS.apiserver, path, method: 'GET', ...this.tls(), timeout: timeoutMs }, (r) => {
        let body = '';
        r.on('data', (d) => (body += d));
        r.on('end', () => res(r.statusCode === 200 ? body : undefined));
      });
      req.on('error', () => res(undefined));
      req.on('timeout', () => { req.destroy(); res(undefined); });
      req.end();
    });
  }

  /** GET JSON as the observer. */
  async get(path: string): Promise<{ items?: unknown[]; kind?: string; [k: string]: unknown } | undefined> {
    const b = await this.raw(path);
    return b === undefined ? undefined : JSON.parse(b);
  }

  /** A watch as the observer: each event to `on` until `stop()` (restarted after the API server comes back). */
  watch(path: string, on: (type: string, obj: Record<string, unknown>) => void): { stop: () => void } {
    let stopped = false;
    let current: ReturnType<typeof httpsRequest> | undefined;
    const loop = async () => {
      while (!stopped) {
        await new Promise<void>((done) => {
          current = httpsRequest({ host: '127.0.0.1', port: PORTS.apiserver, path: `${path}${path.includes('?') ? '&' : '?'}watch=1`, method: 'GET', ...this.tls() }, (r) => {
            let buf = '';
            r.on('data', (d) => {
              buf += d;
              let i;
              while ((i = buf.indexOf('\n')) >= 0) {
                const line = buf.slice(0, i); buf = buf.slice(i + 1);
                if (line.trim()) { try { const e = JSON.parse(line); on(e.type, e.object); } catch { /* a torn line at a restart */ } }
              }
            });
            r.on('end', () => done());
            r.on('error', () => done());
          });
          current.on('error', () => done());
          current.end();
        });
        if (!stopped) await sleep(500);
      }
    };
    void loop();
    return { stop: () => { stopped = true; current?.destroy(); } };
  }

  /** Poll until `ok` holds. */
  async until(ok: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (await ok()) return;
      await sleep(500);
    }
    throw new Error(`oracle: timed out waiting for ${what} (logs in ${this.dir})`);
  }
}
