// A scenario played in the simulator, observed the way the recorder observes the real cluster: the
// request log in the audit log's terms, the objects and events after each `sim` line and at the
// end, the node and pod transitions sampled each simulated second, and kubectl's output. The
// recorder's own reads are cut out of the log, as the real side drops its observer's requests.
// Each line lasts at least as long as it did in the recording (a real kubectl line takes real
// seconds, a real `sim settle` waits for 3 s of quiet), and each request is named by the identity it
// was sent with, as the audit log names it.
import { createCluster } from '../../src/sim/index.ts';
import { loadExplain, parseScript, runKubectl, runSimCommand, scriptHeader } from '../../src/sim/kubectl/index.ts';
import { CHECKPOINT_RESOURCES, LEADER_LEASE_NAMESPACE, LEADER_LEASES, transitionsOf, type KObj, type RawCheckpoint, type RawRequest, type RawStep, type RawTrace, type Transition } from './trace.ts';

// kubectl explain's schema is a chunk of its own that commands expect loaded (kubectl/cmd/explain.ts).
await loadExplain();

/** The simulator's epoch (names.ts EPOCH_MS): object timestamps count from it. */
const EPOCH_MS = Date.UTC(2026, 0, 1);

/** How long after start-up the script begins (the recorder waits as long after the nodes are Ready). */
const START_DELAY_MS = 5000;

const KIND: Record<string, string> = {
  deployments: 'Deployment', replicasets: 'ReplicaSet', pods: 'Pod', nodes: 'Node', services: 'Service', endpointslices: 'EndpointSlice', leases: 'Lease',
};

/** verb, resource, subresource, namespace and name of a request path, as the audit log names them. */
export function auditFieldsOf(method: string, path: string): Pick<RawRequest, 'verb' | 'resource' | 'subresource' | 'namespace' | 'name'> | undefined {
  const [p, query = ''] = path.split('?');
  const seg = p.split('/').filter(Boolean);
  let rest: string[];
  if (seg[0] === 'api') rest = seg.slice(2);
  else if (seg[0] === 'apis') rest = seg.slice(3);
  else return undefined;
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) { namespace = rest[1]; rest = rest.slice(2); }
  const [resource, name, subresource] = rest;
  if (!resource) return undefined;
  const watch = method === 'WATCH' || /(^|&)watch=(true|1)/.test(query);
  const verb = watch ? 'watch'
    : method === 'GET' ? (name ? 'get' : 'list')
      : method === 'POST' ? 'create' : method === 'PUT' ? 'update' : method === 'PATCH' ? 'patch'
        : method === 'DELETE' ? (name ? 'delete' : 'deletecollection') : method.toLowerCase();
  return { verb, resource, ...(subresource ? { subresource } : {}), ...(namespace ? { namespace } : {}), ...(name ? { name } : {}) };
}

/**
 * Plays a scenario script on a fresh simulated cluster (3 nodes, seed 1) and observes it. `durations`
 * (ms, one per script line) are how long each line took in the recording: a line that is over sooner
 * here runs the clock on to that length, observing each second, before the next line.
 */
export function runInSimulator(scenario: string, script: string, seed = 1, durations?: readonly number[]): RawTrace {
  // `# nodes: cpu=1 memory=3840Mi` in a scenario gives the simulated workers the hollow nodes' size,
  // for scenarios that need the cluster full in both (the default 4 CPU, 8 GiB is kept otherwise).
  const size = scriptHeader(script).nodes;
  const nodeCapacity = size ? [1, 2, 3].map(() => ({ ...size })) : undefined;
  const cluster = createCluster({ seed, nodes: 3, logLimit: 0, ...(nodeCapacity ? { nodeCapacity } : {}) });
  // The recorder starts the script 5 s after the nodes are Ready, start-up writes behind it; so here.
  cluster.advance(START_DELAY_MS);
  const t0 = cluster.now;
  const start = EPOCH_MS + t0;
  const firstRecord = cluster.log.length;
  const hidden: [number, number][] = [];
  // The identity each instance sends its requests with (the scheduler's leader elector sends the
  // scheduler's), seen at start and after each line: instances come and go with the faults.
  const identities = new Map<string, string>();
  const noteIdentities = () => { for (const [name, c] of Object.entries(cluster.world.state.components)) identities.set(name, c.identity ?? name); };
  noteIdentities();
  const quietly = <T>(f: () => T): T => {
    const from = cluster.log.length;
    try { return f(); } finally { hidden.push([from, cluster.log.length]); }
  };
  const list = (resource: string, namespace = 'default'): KObj[] | undefined => quietly(() => {
    const r = cluster.request({ verb: 'list', resource, ...(resource === 'nodes' ? {} : { namespace }) });
    if (!r.ok) return undefined;
    return ((r.object as { items: KObj[] }).items).map((o) => ({ kind: KIND[resource], ...o }));
  });
  const storedLeaderLeases = (): KObj[] => Object.values(cluster.world.state.store.objects.leases ?? {})
    .filter((o) => o.metadata?.namespace === LEADER_LEASE_NAMESPACE && (LEADER_LEASES as readonly string[]).includes(String(o.metadata?.name))) as KObj[];
  // The leader Leases (kube-system), as the recorder reads them.
  const leaderLeases = (): KObj[] | undefined => list('leases', LEADER_LEASE_NAMESPACE)?.filter((o) => (LEADER_LEASES as readonly string[]).includes(String(o.metadata?.name)));
  let line = 0;
  const transitions: Transition[] = [];
  const seen = new Map<string, KObj>();
  const sample = (record = true) => {
    for (const [kind, resource] of [['node', 'nodes'], ['pod', 'pods'], ['lease', 'leases']] as const) {
      // The leader Leases straight from storage: the scheduler hands its Lease back as the control
      // plane stops, the API server gone by the time this samples; the real watch saw it live.
      const items = resource === 'leases' ? storedLeaderLeases() : list(resource);
      if (!items) continue; // API server down: the real watch sees nothing either
      const now = new Map(items.map((o) => [`${kind}/${(o.metadata as { name: string }).name}`, o]));
      for (const [k, o] of now) {
        if (record) for (const what of transitionsOf(seen.get(k), o, kind)) transitions.push({ t: cluster.now - t0, line, subject: k, what });
        seen.set(k, o);
      }
      for (const k of [...seen.keys()]) if (k.startsWith(kind + '/') && !now.has(k)) {
        if (record) for (const what of transitionsOf(seen.get(k), undefined, kind)) transitions.push({ t: cluster.now - t0, line, subject: k, what });
        seen.delete(k);
      }
    }
  };
  sample(false);
  const checkpoints: RawCheckpoint[] = [];
  const checkpoint = () => {
    const objects: KObj[] = [];
    for (const r of CHECKPOINT_RESOURCES) {
      const items = list(r);
      if (!items) return;
      objects.push(...items);
    }
    const leases = leaderLeases();
    const events = list('events');
    const leaseEvents = list('events', LEADER_LEASE_NAMESPACE)?.filter((e) => (e.involvedObject as { kind?: string } | undefined)?.kind === 'Lease');
    if (!leases || !events || !leaseEvents) return;
    checkpoints.push({ line, t: cluster.now - t0, objects: [...objects, ...leases], events: [...events, ...leaseEvents] });
  };
  const steps: RawStep[] = [];
  for (const [i, c] of parseScript(script).entries()) {
    line = c.line;
    const t = cluster.now - t0;
    let res = { stdout: '', stderr: '', exitCode: 0 };
    const advance = /^sim\s+advance\s+(?:(\d+)m)?(?:(\d+)s)?\s*$/.exec(c.command);
    const settle = /^sim\s+settle(?:\s+((?:(\d+)m)?(?:(\d+)s)?))?\s*$/.exec(c.command);
    if (advance) {
      // One simulated second at a time, to time the transitions as the real watch does.
      const ms = (Number(advance[1] ?? 0) * 60 + Number(advance[2] ?? 0)) * 1000;
      for (let done = 0; done < ms; done += 1000) { cluster.advance(Math.min(1000, ms - done)); sample(); }
    } else if (settle) {
      // Settling a second at a time too (the same end: the first quiet moment, or max).
      const max = settle[1] === undefined ? 60_000 : (Number(settle[2] ?? 0) * 60 + Number(settle[3] ?? 0)) * 1000;
      for (let done = 0; done < max; done += 1000) { const quiet = cluster.settle(Math.min(1000, max - done)); sample(); if (quiet) break; }
    } else if (/^sim(\s|$)/.test(c.command)) { res = runSimCommand(cluster, c.command); sample(); }
    else { res = runKubectl(cluster, c.command, c.stdin); sample(); }
    if (c.error) res = { ...res, stderr: c.error + '\n' + res.stderr, exitCode: 1 };
    steps.push({ line: c.line, command: c.command, t, ...res });
    // A kubectl line or `sim settle` lasts as long as the recording's did (a real kubectl takes real
    // seconds; the recorder settles after 3 s of quiet, then takes its checkpoint). The other sim
    // lines' real length is the recorder's own work (spawning a process), so they keep the model's.
    const want = /^(kubectl|sim\s+settle)(\s|$)/.test(c.command) ? durations?.[i] : undefined;
    if (want !== undefined) for (let left = want - (cluster.now - t0 - t); left > 0; left -= 1000) { cluster.advance(Math.min(1000, left)); sample(); }
    noteIdentities();
    if (/^sim(\s|$)/.test(c.command)) checkpoint();
  }
  line = 0;
  checkpoint();
  const dropped: Record<string, number> = {};
  const count = (k: string) => (dropped[k] = (dropped[k] ?? 0) + 1);
  const isHidden = (i: number) => hidden.some(([a, b]) => i >= a && i < b);
  const requests: RawRequest[] = [];
  cluster.log.forEach((r, i) => {
    if (i < firstRecord || r.kind !== 'request') return;
    if (isHidden(i)) { count("the recorder's own reads"); return; }
    if (r.code === 0) { count('refused connections (no audit record)'); return; }
    const f = auditFieldsOf(r.verb, r.path);
    if (!f) { count('non-resource requests (discovery, /healthz, /readyz, /version)'); return; }
    // As the recorder: the kubelets' node Lease renewals dropped, the leader Leases' kept (normalise counts their renewals).
    if (f.resource === 'leases' && f.verb === 'update' && !(f.namespace === LEADER_LEASE_NAMESPACE && (LEADER_LEASES as readonly string[]).includes(f.name ?? ''))) { count(`lease renewals: ${r.component}`); return; }
    requests.push({ t: r.t - t0, component: identities.get(r.component) ?? r.component, ...f, uri: r.path, code: r.code });
  });
  return { scenario, script, start, steps, requests, checkpoints, transitions, dropped };
}
