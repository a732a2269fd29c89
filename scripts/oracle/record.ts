// `npm run oracle:record [scenario…]`: plays oracle/scenarios/<scenario>.sim on a fresh real
// cluster (real-cluster.ts) and writes oracle/traces/<scenario>.json: the audit log, the objects and
// events after each `sim` line and at the end, the key transitions, and the real kubectl's output.
// `sim advance` waits in real time; `sim settle [max]` waits until no write but lease renewals has
// happened for 3 s (at most max, default 60 s); `sim node stop|start` kills or restarts a hollow
// node; `sim control-plane stop|start` stops or restarts the scheduler, controller manager and API
// server (start waits for /readyz). Both leader-elect, as kubeadm runs them.
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseScript } from '../../src/sim/kubectl/index.ts';
import { RealCluster, ensureBinary, KUBERNETES_VERSION, MODULE } from './real-cluster.ts';
import { shellWords } from './shell-words.ts';
import { componentOf, LEADER_LEASE_NAMESPACE, LEADER_LEASES, normalise, transitionsOf, type KObj, type RawCheckpoint, type RawRequest, type RawStep, type RawTrace, type Transition } from './trace.ts';

const SCENARIOS = join(MODULE, 'scenarios');
const TRACES = join(MODULE, 'traces');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An audit event's fields that the trace keeps. */
interface AuditEvent {
  stage: string; verb: string; requestURI: string; userAgent?: string;
  user: { username: string }; responseStatus?: { code: number };
  requestReceivedTimestamp: string; objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
}

function readNew(path: string, from: number): { text: string; offset: number } {
  let fd: number;
  try { fd = openSync(path, 'r'); } catch { return { text: '', offset: from }; }
  try {
    const size = statSync(path).size;
    if (size <= from) return { text: '', offset: from };
    const buf = Buffer.alloc(size - from);
    readSync(fd, buf, 0, buf.length, from);
    const text = buf.toString('utf8');
    const end = text.lastIndexOf('\n') + 1;
    return { text: text.slice(0, end), offset: from + Buffer.byteLength(text.slice(0, end)) };
  } finally { closeSync(fd); }
}

/** A leader-election Lease: kube-controller-manager's or kube-scheduler's, in kube-system. */
function isLeaderLease(r: { namespace?: string; name?: string }): boolean {
  return r.namespace === LEADER_LEASE_NAMESPACE && (LEADER_LEASES as readonly string[]).includes(r.name ?? '');
}

function isNoise(e: AuditEvent): boolean {
  const r = e.objectRef;
  if (!r || ['get', 'list', 'watch'].includes(e.verb)) return true;
  if (r.resource === 'leases') return true;
  if (r.resource === 'nodes' && r.subresource === 'status') return true;
  if (r.resource === 'serviceaccounts' && r.subresource === 'token') return true;
  return componentOf(e.user.username, e.userAgent) === undefined;
}

async function record(name: string): Promise<void> {
  const script = readFileSync(join(SCENARIOS, `${name}.sim`), 'utf8');
  const cluster = new RealCluster();
  const interrupted = () => { void cluster.stop().then(() => process.exit(130)); };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  process.stderr.write(`oracle: ${name}: starting the cluster in ${cluster.dir}\n`);
  const began = Date.now();
  try {
    await cluster.start();
    process.stderr.write(`oracle: ${name}: cluster ready after ${Math.round((Date.now() - began) / 1000)}s\n`);
    await sleep(5000); // let the start-up writes (node status, first events) pass before t=0
    const start = Date.now();
    let line = 0;
    const transitions: Transition[] = [];
    const seen = new Map<string, KObj>();
    const watchOf = (kind: 'node' | 'pod' | 'lease', path: string) => cluster.watch(path, (type, obj) => {
      const md = obj.metadata as { name?: string };
      if (kind === 'lease' && !(LEADER_LEASES as readonly string[]).includes(md?.name ?? '')) return;
      const key = `${kind}/${md?.name}`;
      const prev = seen.get(key);
      const cur = type === 'DELETED' ? undefined : obj as KObj;
      for (const what of transitionsOf(prev, cur, kind)) transitions.push({ t: Date.now() - start, line, subject: key, what });
      if (cur) seen.set(key, cur); else seen.delete(key);
    });
    // Pods, nodes and leader Leases that exist before t=0 are not transitions.
    const leasesPath = `/apis/coordination.k8s.io/v1/namespaces/${LEADER_LEASE_NAMESPACE}/leases`;
    const watched = [['node', '/api/v1/nodes'], ['pod', '/api/v1/namespaces/default/pods'], ['lease', leasesPath]] as const;
    for (const [kind, path] of watched) {
      for (const o of ((await cluster.get(path))?.items ?? []) as KObj[]) seen.set(`${kind}/${(o.metadata as { name: string }).name}`, o);
    }
    const watches = watched.map(([kind, path]) => watchOf(kind, path));
    let auditOffset = statSync(cluster.audit).size;
    const quietFor = async (maxMs: number) => {
      const end = Date.now() + maxMs;
      let lastWrite = Date.now();
      while (Date.now() < end) {
        await sleep(500);
        const { text, offset } = readNew(cluster.audit, auditOffset);
        auditOffset = offset;
        for (const l of text.split('\n')) {
          if (!l) continue;
          const e = JSON.parse(l) as AuditEvent;
          if (!isNoise(e)) lastWrite = Date.now();
        }
        if (Date.now() - lastWrite >= 3000) return;
      }
    };
    const steps: RawStep[] = [];
    const checkpoints: RawCheckpoint[] = [];
    const checkpoint = async () => {
      const objects: KObj[] = [];
      const paths: [string, string][] = [['/apis/apps/v1/namespaces/default/deployments', 'Deployment'], ['/apis/apps/v1/namespaces/default/replicasets', 'ReplicaSet'],
        ['/api/v1/namespaces/default/pods', 'Pod'], ['/api/v1/nodes', 'Node'], ['/api/v1/namespaces/default/services', 'Service'],
        ['/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', 'EndpointSlice'], ['/apis/policy/v1/namespaces/default/poddisruptionbudgets', 'PodDisruptionBudget']];
      for (const [p, kind] of paths) {
        const l = await cluster.get(p);
        if (!l) return; // API server down: no checkpoint here
        for (const o of (l.items ?? []) as KObj[]) objects.push({ kind, ...o });
      }
      // The leader Leases, and the LeaderElection events about them.
      const leases = await cluster.get(leasesPath);
      if (!leases) return;
      for (const o of (leases.items ?? []) as KObj[]) if ((LEADER_LEASES as readonly string[]).includes(String(o.metadata?.name))) objects.push({ kind: 'Lease', ...o });
      const ev = await cluster.get('/api/v1/namespaces/default/events');
      const leaseEv = await cluster.get(`/api/v1/namespaces/${LEADER_LEASE_NAMESPACE}/events?fieldSelector=involvedObject.kind%3DLease`);
      if (!ev || !leaseEv) return;
      checkpoints.push({ line, t: Date.now() - start, objects, events: [...(ev.items ?? []), ...(leaseEv.items ?? [])] as KObj[] });
    };
    for (const c of parseScript(script)) {
      line = c.line;
      const t = Date.now() - start;
      let res = { stdout: '', stderr: '', exitCode: 0 };
      const words = shellWords(c.command);
      if (words[0] === 'kubectl') res = await cluster.kubectl(words.slice(1), c.stdin);
      else if (words[0] === 'sim') {
        const [cmd, a, b] = words.slice(1);
        const dur = (s: string | undefined, dflt: number) => {
          if (s === undefined) return dflt;
          const m = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(s);
          if (!m || !s) throw new Error(`oracle: bad duration ${s}`);
          return (Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 1000;
        };
        if (cmd === 'advance') await sleep(dur(a, 0));
        else if (cmd === 'settle') await quietFor(dur(a, 60_000));
        else if (cmd === 'node' && a === 'stop') await cluster.kill(b);
        else if (cmd === 'node' && a === 'start') cluster.startNode(b);
        else if (cmd === 'control-plane' && a === 'stop' && !b) await cluster.stopControlPlane();
        else if (cmd === 'control-plane' && a === 'start' && !b) await cluster.startControlPlane();
        else throw new Error(`oracle: "${c.command}" is not supported by the recorder`);
      } else throw new Error(`oracle: unknown line ${c.command}`);
      steps.push({ line: c.line, command: c.command, t, ...res });
      process.stderr.write(`oracle: ${name}: ${((Date.now() - start) / 1000).toFixed(1)}s ${c.command} -> ${res.exitCode}\n`);
      if (words[0] === 'sim') await checkpoint();
    }
    line = 0;
    await checkpoint();
    for (const w of watches) w.stop();
    const raw: RawTrace = { scenario: name, script, start, steps, requests: [], checkpoints, transitions, dropped: {} };
    const count = (k: string) => (raw.dropped[k] = (raw.dropped[k] ?? 0) + 1);
    for (const l of readFileSync(cluster.audit, 'utf8').split('\n')) {
      if (!l) continue;
      const e = JSON.parse(l) as AuditEvent;
      if (e.verb === 'watch' ? e.stage !== 'ResponseStarted' : e.stage !== 'ResponseComplete') continue;
      const t = Date.parse(e.requestReceivedTimestamp) - start;
      if (t < 0) { count('before t=0 (cluster start-up)'); continue; }
      const component = componentOf(e.user.username, e.userAgent);
      if (component === undefined) { count("the recorder's own reads (kube-apiserver-kubelet-client)"); continue; }
      if (!e.objectRef?.resource) { count('non-resource requests (discovery, /healthz, /readyz, /version)'); continue; }
      // The kubelets' node Leases (kube-node-lease) are compared elsewhere (the nodes' Ready
      // transitions); the leader Leases' renewals are counted per line by normalise (leaderRenewals).
      if (e.objectRef.resource === 'leases' && e.verb === 'update' && !isLeaderLease(e.objectRef)) { count(`lease renewals: ${component}`); continue; }
      raw.requests.push({
        t, component, verb: e.verb, resource: e.objectRef.resource,
        ...(e.objectRef.subresource ? { subresource: e.objectRef.subresource } : {}),
        ...(e.objectRef.namespace ? { namespace: e.objectRef.namespace } : {}),
        ...(e.objectRef.name ? { name: e.objectRef.name } : {}),
        uri: e.requestURI, user: e.user.username, ...(e.userAgent ? { userAgent: e.userAgent } : {}), code: e.responseStatus?.code ?? 0,
      } satisfies RawRequest);
    }
    const trace = normalise(raw, { kubernetes: KUBERNETES_VERSION, etcd: 'v3.7.3', nodes: 'kubemark hollow-node (real kubelet, fake CRI runtime)', leaderElection: 'on', at: new Date(start).toISOString().slice(0, 10) });
    writeFileSync(join(TRACES, `${name}.json`), JSON.stringify(trace, null, 1) + '\n');
    process.stderr.write(`oracle: ${name}: wrote oracle/traces/${name}.json (${Math.round((Date.now() - began) / 1000)}s in all)\n`);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cluster.stop();
  }
}

const all = readdirSync(SCENARIOS).filter((f) => f.endsWith('.sim')).map((f) => basename(f, '.sim')).sort();
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : all;
for (const w of wanted) if (!all.includes(w)) { process.stderr.write(`oracle: no scenario ${w} (have: ${all.join(', ')})\n`); process.exit(2); }
ensureBinary();
for (const w of wanted) await record(w);
