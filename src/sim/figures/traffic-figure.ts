// The `traffic` figure (the networking chapter): three nodes running kube-proxy (iptables mode) and
// CoreDNS; the Deployment web (3 replicas) behind the Service web; a client on node-1 opening one
// connection a second to web's ClusterIP. The reader scales, deletes a pod, rolls out, stops a node
// and stops the control plane, and watches where the requests go and how they fail, beside the
// nat rules kube-proxy keeps on node-1 for the Service.
import { kubeProxyAddon } from '../kube-proxy/kube-proxy.ts';
import { appHealth } from '../app-health.ts';
import { kubeProxyRulesOf } from '../kube-proxy/reader.ts';
import { corednsAddon } from '../net/coredns.ts';
import type { Frame, NodeView, PodView } from '../view/types.ts';
import { agree, count } from '../view/words.ts';
import type { WorldState } from '../world.ts';
import type { FigureAction } from './actions.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import type { FigureView } from './protocol.ts';
import { sliceEndpointsOf, type SliceEndpoint } from './pod-trouble.ts';
import { trafficClientAddon, trafficClientStateOf, type ClientHit, type EndpointCount } from './traffic-client.ts';
import { figureActions } from './figure-actions.ts';
import { nftRequestLit, requestPath, type RequestPath } from './request-path.ts';

const NAME = 'web';
const IMAGE = 'nginx:1.27';
const NEXT_IMAGE = 'nginx:1.28';
const REPLICAS = 3;
const SCALED = 5;
const PORT = 80;
/** The node the client runs on, and whose rules the panel prints. */
const CLIENT_NODE = 'node-1';
/** The node the "stop a node" demo powers off. */
const DYING = 'node-3';
const CONTAINER = { ports: [{ containerPort: PORT }], readinessProbe: { httpGet: { path: '/', port: PORT } } };

/** What the panel reads beside the Frame. */
export interface TrafficDetail {
  /** Requests the client has sent, and its counts per endpoint ("" for requests no endpoint took). */
  sent: number;
  counts: EndpointCount[];
  latest: ClientHit[];
  /** node-1's `iptables-save -t nat` lines for the Service: its KUBE-SERVICES rule, its KUBE-SVC chain and KUBE-SEP chains. */
  rules: string[];
  /** The Service's endpoints as its EndpointSlice lists them. */
  endpoints: SliceEndpoint[];
  /** The table `rules` come from: nat (the Service's chains), or filter (its REJECT rule while it has no ready endpoint). */
  table: 'nat' | 'filter';
  /** The client's last request hop by hop, with the rules above that decided it (request-path.ts). */
  path: RequestPath | null;
  /** The same sync as kube-proxy writes it in nftables mode (`nft list table ip kube-proxy`, the lines for web). */
  nft: string[];
  /** The lines of `nft` that would decide the last request in nftables mode. */
  nftLit: number[];
  /** The strip's legend: its answered requests, then its failures by what ended them, each with why. */
  legend: string[];
  /** What the nftables listing shows, beside the mode kube-proxy runs in. */
  nftSentence: string;
  /** The other nodes' lines for web, as each one's kube-proxy last synced them. */
  others: NodeRules[];
}

/** A node's lines for the Service web, in both listings. */
interface NodeRules {
  node: string;
  rules: string[];
  table: 'nat' | 'filter';
  nft: string[];
  nftSentence: string;
  off?: true;
}

/** The strip's legend for these requests: how many were answered, then each kind of failure with its reason. */
function stripLegend(latest: readonly ClientHit[]): string[] {
  const n = { answered: 0, noEndpoint: 0, timeout: 0, refused: 0, unreachable: 0 };
  for (const r of latest) {
    if (r.ok) n.answered++;
    else if (!r.endpoint) n.noEndpoint++;
    else if (r.error === 'timeout') n.timeout++;
    else if (r.error === 'unreachable') n.unreachable++;
    else n.refused++;
  }
  return [
    `✓ ${n.answered} answered`,
    n.noEndpoint
      ? `✗ ${n.noEndpoint} refused while ${NAME} had no ready endpoint: the rules reject a connection to a Service with none`
      : '',
    n.timeout ? `✗ ${n.timeout} timed out: the rules sent them to a pod whose node did not answer` : '',
    n.refused ? `✗ ${n.refused} refused by the pod's node: nothing listened there any more` : '',
    n.unreachable ? `✗ ${n.unreachable} unreachable: no route to the pod's node` : '',
  ].filter(Boolean);
}

/** The sentence above the nftables listing: the mode the cluster runs, and how that mode would pick an endpoint. */
function nftSentence(nft: readonly string[], lit: readonly number[]): string {
  const draws = Number(/numgen random mod (\d+)/.exec(nft.join('\n'))?.[1] ?? 0);
  const how = draws
    ? `one numgen draw picks among ${count(draws, 'endpoint')}, where iptables tries its KUBE-SEP chains in turn`
    : `with no ready endpoint, ${NAME}'s element in @no-endpoint-services sends a connection to reject-chain`;
  return `This cluster's kube-proxy runs in iptables mode, the default. From the same sync, nftables mode writes these lines instead: ${how}.${lit.length ? ' The lines that would decide the last request are marked.' : ''}`;
}

/**
 * The lines of an `iptables-save -t nat` text that are about one Service: its chains' declarations,
 * its KUBE-SERVICES rule, its KUBE-SVC chain's rules and those of the KUBE-SEP chains they jump to.
 */
export function serviceRuleLines(text: string, namespace: string, service: string): string[] {
  const lines = text.split('\n');
  const entry = lines.find(
    (l) => l.startsWith('-A KUBE-SERVICES ') && l.includes(`--comment "${namespace}/${service} cluster IP"`),
  );
  const svc = entry?.match(/-j (KUBE-SVC-[A-Z0-9]+)$/)?.[1];
  if (!entry || !svc) return [];
  const seps = lines
    .filter((l) => l.startsWith(`-A ${svc} `))
    .map((l) => l.match(/-j (KUBE-SEP-[A-Z0-9]+)$/)?.[1])
    .filter((x): x is string => !!x);
  const chains = [svc, ...seps];
  return [
    ...chains.map((c) => lines.find((l) => l.startsWith(`:${c} `))).filter((l): l is string => !!l),
    entry,
    ...lines.filter((l) => chains.some((c) => l.startsWith(`-A ${c} `))),
  ];
}

/**
 * The `-A KUBE-SERVICES … -j REJECT` line of an iptables-restore text's filter table for a Service
 * with no ready endpoint ("<ns>/<name> has no endpoints"), or undefined.
 */
function serviceRejectLine(restore: string, namespace: string, service: string): string | undefined {
  const filter = restore.slice(0, restore.indexOf('*nat'));
  return filter
    .split('\n')
    .find(
      (l) =>
        l.startsWith('-A KUBE-SERVICES ') &&
        l.endsWith(' -j REJECT') &&
        new RegExp(`--comment "${namespace}/${service}(:[^ "]*)? has no endpoints"`).test(l),
    );
}

/** The blocks of `nft list table`: each map or chain one tab in, with its body lines. */
function nftBlocks(text: string): { head: string; body: string[] }[] {
  const blocks: { head: string; body: string[] }[] = [];
  for (const l of text.split('\n')) {
    if (/^\t(map|chain|set) \S+ \{$/.test(l)) blocks.push({ head: l, body: [] });
    else if (l !== '\t}' && l.startsWith('\t\t') && blocks.length) blocks.at(-1)!.body.push(l);
  }
  return blocks;
}

/** A map's elements, one string each (nft prints them comma-separated over several lines). */
function nftElements(body: readonly string[]): string[] {
  const i = body.findIndex((l) => l.trim().startsWith('elements = {'));
  if (i < 0) return [];
  return body
    .slice(i)
    .join(' ')
    .replace(/^\s*elements = \{/, '')
    .replace(/\}\s*$/, '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
}

/**
 * The lines of an `nft list table ip kube-proxy` text that are about one Service, as an excerpt nft
 * could print: its elements of @service-ips and @no-endpoint-services, its own chains, and the
 * lookups that lead there (the `services` chain, the filter hook's `service-endpoints-check`).
 */
function serviceNftLines(text: string, namespace: string, service: string): string[] {
  const mine = (e: string) =>
    e.includes(`-${namespace}/${service}/`) || new RegExp(`comment "${namespace}/${service}(:[^"]*)?"`).test(e);
  const blocks = nftBlocks(text);
  const out: string[] = [];
  const block = (head: string, body: string[]) => {
    if (body.length) out.push(head, ...body, '\t}');
  };
  const elements = (name: string) =>
    nftElements(blocks.find((b) => b.head === `\tmap ${name} {`)?.body ?? [])
      .filter(mine)
      .map((e) => `\t\telements = { ${e} }`);
  const rejected = elements('no-endpoint-services');
  const served = elements('service-ips');
  const body = (name: string, pick: (l: string) => boolean) =>
    (blocks.find((b) => b.head === `\tchain ${name} {`)?.body ?? []).filter(pick);
  block('\tmap no-endpoint-services {', rejected);
  block('\tmap service-ips {', served);
  if (rejected.length)
    block(
      '\tchain reject-chain {',
      body('reject-chain', (l) => l.trim() === 'reject'),
    );
  for (const b of blocks)
    if (/^\tchain (service|endpoint)-[A-Z0-9]{8}-/.test(b.head) && b.head.includes(`-${namespace}/${service}/`))
      block(b.head, b.body);
  if (rejected.length)
    block(
      '\tchain service-endpoints-check {',
      body('service-endpoints-check', (l) => l.includes('@no-endpoint-services')),
    );
  if (served.length)
    block(
      '\tchain services {',
      body('services', (l) => l.includes('vmap @service-ips')),
    );
  return out.length ? ['table ip kube-proxy {', ...out, '}'] : [];
}

/** The panel's data: the client's counts and latest requests, node-1's rules for web, web's endpoints. */
function trafficDetailOf(w: WorldState, endpoints: SliceEndpoint[], off: readonly string[] = []): TrafficDetail {
  const c = trafficClientStateOf(w);
  const counts = c
    ? Object.values(c.counts).sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0))
    : [];
  const { rules, table, nft } = nodeRulesOf(w, CLIENT_NODE);
  const last = c?.latest.at(-1);
  const nftLit = last ? nftRequestLit(nft, last) : [];
  // The other nodes' kube-proxies hold their own copy, synced on their own time (or frozen on a dead node).
  // A powered-off node's kernel holds no rules at all: they are written again when it boots.
  const others = Object.keys(w.components)
    .filter((k) => k.startsWith('kube-proxy/') && k !== `kube-proxy/${CLIENT_NODE}`)
    .sort()
    .map((k) => k.slice('kube-proxy/'.length))
    .map((n): NodeRules =>
      off.includes(n) ? { node: n, rules: [], table: 'nat', nft: [], nftSentence: '', off: true } : nodeRulesOf(w, n),
    );
  return {
    sent: c?.sent ?? 0,
    counts,
    latest: c ? [...c.latest] : [],
    rules,
    table,
    endpoints,
    path: last ? requestPath(rules, last, counts, CLIENT_NODE) : null,
    nft,
    nftLit,
    legend: stripLegend(c?.latest ?? []),
    nftSentence: nftSentence(nft, nftLit),
    others,
  };
}

/** One node's lines for web as its kube-proxy last synced them: iptables (nat, or filter's REJECT while web has no ready endpoint) and nftables. */
function nodeRulesOf(w: WorldState, node: string): NodeRules {
  const text = kubeProxyRulesOf(w, node, 'iptables-save');
  const nat = text ? serviceRuleLines(text, 'default', NAME) : [];
  const reject =
    text && !nat.length
      ? serviceRejectLine(kubeProxyRulesOf(w, node, 'iptables-restore') ?? '', 'default', NAME)
      : undefined;
  const nftText = text ? kubeProxyRulesOf(w, node, 'nft-list') : undefined;
  const nft = nftText ? serviceNftLines(nftText, 'default', NAME) : [];
  return {
    node,
    rules: reject ? [reject] : nat,
    table: reject ? 'filter' : 'nat',
    nft,
    nftSentence: nftSentence(nft, []),
  };
}

const web = (f: Frame) => f.deployments.find((d) => d.name === NAME && d.namespace === 'default');
const webPods = (f: Frame): PodView[] =>
  [...f.pending, ...f.pods].filter((p) => p.owner?.startsWith(`ReplicaSet/${NAME}-`));
const live = (f: Frame) => webPods(f).filter((p) => !p.terminating);
const ready = (f: Frame) => live(f).filter((p) => p.ready && p.phase === 'Running');
const dying = (f: Frame): NodeView | undefined => f.nodes.find((n) => n.name === DYING);
const seconds = (f: Frame, m: DemoMemo) => Math.round((f.t - Number(m.at)) / 1000);
/** The KUBE-SEP chains node-1's KUBE-SVC chain jumps to: one per endpoint kube-proxy sends traffic to. */
const sepLines = (d: TrafficDetail | null) =>
  (d?.rules ?? []).filter((l) => l.startsWith('-A KUBE-SVC-') && / -j KUBE-SEP-/.test(l));
/** The DNAT targets of node-1's rules for web. */
const ruleTargets = (d: TrafficDetail | null) =>
  (d?.rules ?? []).map((l) => l.match(/--to-destination (\S+)$/)?.[1]).filter((x): x is string => !!x);
const probabilities = (d: TrafficDetail | null) =>
  sepLines(d).map((l) => l.match(/--probability (\S+)/)?.[1] ?? 'the rest');
/** Totals of the client's counts: answered, and failed by how. */
function totals(d: TrafficDetail | null): { ok: number; refused: number; timeout: number; unreachable: number } {
  const t = { ok: 0, refused: 0, timeout: 0, unreachable: 0 };
  for (const c of d?.counts ?? []) {
    t.ok += c.ok;
    t.refused += c.refused;
    t.timeout += c.timeout;
    t.unreachable += c.unreachable;
  }
  return t;
}
/** The totals as numbers for a memo, so a beat can say what happened since the demo was pressed. */
const memoTotals = (d: TrafficDetail | null): DemoMemo => {
  const t = totals(d);
  return { ok: t.ok, refused: t.refused, timeout: t.timeout, unreachable: t.unreachable };
};
/** What the client saw since the memo was taken, in words. */
function since(d: TrafficDetail | null, m: DemoMemo): string {
  const t = totals(d);
  const ok = t.ok - Number(m.ok ?? 0);
  const fails = (
    [
      ['refused', 'refused'],
      ['timeout', 'timed out'],
      ['unreachable', 'unreachable'],
    ] as const
  )
    .map(([k, w]) => [t[k] - Number(m[k] ?? 0), w] as const)
    .filter(([n]) => n > 0)
    .map(([n, w]) => `${n} ${w}`);
  return `${count(ok, 'request')} answered${fails.length ? `, ${fails.join(', ')}` : ', none failed'}`;
}
/**
 * Takes the client's totals into the memo on a beat's first look after the demo was pressed (a demo's
 * start sees only the frame), so `since` counts from there. Returns false, so `when` can go on.
 */
function base(m: DemoMemo, d: TrafficDetail | null): false {
  if (m.ok === undefined) Object.assign(m, memoTotals(d));
  return false;
}

/** web serves as it should: every replica Ready, and node-1's rules list exactly the ready pods. */
function steady(f: Frame, d: TrafficDetail | null): boolean {
  const wd = web(f);
  if (!wd || ready(f).length !== wd.replicas || webPods(f).length !== wd.replicas) return false;
  const want = ready(f)
    .map((p) => p.ip)
    .sort()
    .join(',');
  return (
    ruleTargets(d)
      .map((x) => x.slice(0, x.lastIndexOf(':')))
      .sort()
      .join(',') === want
  );
}

/** Why a demo cannot run now, or null. */
function notNow(f: Frame): string | null {
  if (!web(f)) return 'Create web first.';
  if (!f.controlPlane.apiserver) return 'The control plane is down: start it first.';
  return null;
}

/** The sentence of node-1's rules for web: its KUBE-SEP chains and their probabilities. */
function rulesSentence(d: TrafficDetail | null): string {
  const p = probabilities(d);
  if (!p.length) return `kube-proxy on ${CLIENT_NODE} has no endpoint for web: its rules reject every connection.`;
  return `web's KUBE-SVC chain on ${CLIENT_NODE} tries ${count(p.length, 'KUBE-SEP chain')} in turn, matching with probability ${p.join(', then ')}: so each pod gets 1 in ${p.length} new connections.`;
}

/**
 * Keeps what a beat's text says of the figure's detail in the demo's memo (a text sees the frame and
 * the memo only): the rules' sentence, the client's answers per pod and what it saw since the demo.
 * Returns true, so a beat's `when` can end with it.
 */
function hold(m: DemoMemo, d: TrafficDetail | null): true {
  m.rules = rulesSentence(d);
  m.spread = (d?.counts ?? [])
    .filter((c) => c.ok > 0)
    .map((c) => `${c.pod || c.endpoint} ${c.ok}`)
    .join(', ');
  m.since = since(d, m);
  m.rejected = totals(d).refused - Number(m.refused ?? 0);
  const t = totals(d);
  m.failed =
    t.refused +
    t.timeout +
    t.unreachable -
    Number(m.refused ?? 0) -
    Number(m.timeout ?? 0) -
    Number(m.unreachable ?? 0);
  return true;
}

const apply: DemoDef<TrafficDetail> = {
  id: 'apply',
  label: () => 'Create web and its Service',
  unavailable: (f) =>
    web(f) ? 'The Deployment web exists already.' : f.controlPlane.apiserver ? null : 'The API server is down.',
  start: (f) => ({
    actions: [
      {
        type: 'create-deployment',
        name: NAME,
        image: IMAGE,
        replicas: REPLICAS,
        file: { container: CONTAINER, note: `${REPLICAS} replicas of ${IMAGE}; readiness probe GET / on port ${PORT}` },
      },
      { type: 'expose', name: NAME, port: PORT },
    ],
    memo: { at: f.t },
    intro: `kubectl creates the Deployment ${NAME} (${REPLICAS} replicas of ${IMAGE}) and the Service ${NAME} on port ${PORT}. A client on ${CLIENT_NODE} opens a connection to the Service's ClusterIP once a second.`,
    beats: [
      {
        when: (g, m, detail) => steady(g, detail()) && sepLines(detail()).length === REPLICAS && hold(m, detail()),
        text: (g, m) =>
          `${count(ready(g).length, 'pod')} ${agree(ready(g).length, 'is', 'are')} Ready, the EndpointSlice controller listed their addresses, and kube-proxy on every node rewrote its rules. The panel shows ${CLIENT_NODE}'s: the Service's KUBE-SVC chain and one KUBE-SEP chain per pod, each ending in a DNAT to the pod's address. ${Number(m.rejected) ? `Until the first pod was Ready the Service had no endpoint, and its rules rejected the client's first ${count(Number(m.rejected), 'connection')} (connection refused).` : ''}`.trim(),
      },
      {
        when: (_g, m, detail) => {
          const d = detail();
          return (d?.counts.filter((c) => c.ok > 0).length ?? 0) >= REPLICAS && hold(m, d);
        },
        text: (_g, m) => `Every pod has answered the client: ${m.spread}. ${m.rules}`,
      },
    ],
  }),
};

const scale: DemoDef<TrafficDetail> = {
  id: 'scale',
  label: (f) => ((web(f)?.replicas ?? REPLICAS) === SCALED ? `Scale back to ${REPLICAS}` : `Scale to ${SCALED}`),
  unavailable: notNow,
  start: (f) => {
    const to = (web(f)?.replicas ?? REPLICAS) === SCALED ? REPLICAS : SCALED;
    return {
      actions: [{ type: 'scale', name: NAME, replicas: to }],
      memo: { at: f.t, to },
      intro: `kubectl scale asks for ${to} replicas of ${NAME}.`,
      beats: [
        {
          when: (g, m, detail) =>
            base(m, detail()) ||
            (steady(g, detail()) && sepLines(detail()).length === Number(m.to) && hold(m, detail())),
          text: (g, m) =>
            `${seconds(g, m)} s later ${m.rules} ${Number(m.to) < SCALED ? 'The pods scaled away left the rules as they began terminating' : 'Each new pod joined the rules once it was Ready'}; the client saw ${m.since}.`,
        },
      ],
    };
  },
};

const deletePod: DemoDef<TrafficDetail> = {
  id: 'delete',
  label: () => 'Delete a pod',
  unavailable: (f) => notNow(f) ?? (ready(f).length ? null : `No pod of ${NAME} is ready to delete.`),
  start: (f): DemoStart<TrafficDetail> => {
    const r = ready(f);
    const p = r.find((x) => x.node === 'node-2') ?? r[0];
    return {
      actions: [{ type: 'delete-pod', pod: p.name }],
      memo: { at: f.t, pod: p.name, ip: p.ip ?? '' },
      intro: `kubectl delete pod ${p.name}: the API server marks it terminating, and its kubelet stops its container with a 30 s grace period.`,
      beats: [
        {
          when: (_g, m, detail) => base(m, detail()) || !ruleTargets(detail()).some((t) => t.startsWith(`${m.ip}:`)),
          text: (g, m) =>
            `${seconds(g, m) ? `${seconds(g, m)} s after the delete` : 'At once'}, the EndpointSlice lists ${m.pod} as terminating, not ready, and kube-proxy on every node removed its KUBE-SEP chain: no new connection goes there. The ReplicaSet controller has already made a replacement.`,
        },
        {
          when: (g, m, detail) => steady(g, detail()) && hold(m, detail()),
          text: (g, m) =>
            `${seconds(g, m)} s after the delete the replacement is Ready and in the rules. Meanwhile the client saw ${m.since}${m.failed ? '' : ': the deleted pod left the rules before its container stopped'}.`,
        },
      ],
    };
  },
};

/** The app's readiness answers, as `sim app <pod> unready|healthy` sets them. */
const probe = (pod: string, behaviour: 'unready' | 'healthy'): FigureAction => ({
  type: 'app',
  pod,
  behaviour,
  health: appHealth(behaviour),
});

const readiness: DemoDef<TrafficDetail> = {
  id: 'readiness',
  label: () => 'Fail a readiness probe',
  unavailable: (f) => notNow(f) ?? (ready(f).length ? null : `No pod of ${NAME} is ready.`),
  start: (f): DemoStart<TrafficDetail> => {
    const r = ready(f);
    const p = r.find((x) => x.node === 'node-2') ?? r[0];
    return {
      actions: [probe(p.name, 'unready')],
      memo: { at: f.t, pod: p.name, ip: p.ip ?? '' },
      intro: `sim app ${p.name} unready: its app still runs and answers, but its readiness probe (GET / on port ${PORT}, every 10 s by default) now gets an error.`,
      beats: [
        {
          // The pod itself, still there and not ready, out of the rules; or gone (the reader deleted it, or its node failed).
          when: (g, m, detail) => {
            const d = detail();
            if (base(m, d)) return false;
            const p = live(g).find((x) => x.name === String(m.pod));
            return (!p || (!p.ready && !ruleTargets(d).some((t) => t.startsWith(`${m.ip}:`)))) && hold(m, d);
          },
          text: (g, m) => {
            const p = live(g).find((x) => x.name === String(m.pod));
            if (!p)
              return `${m.pod} is gone before its probe failed three times (deleted, or evicted from a failed node): there is nothing left to make ready again.`;
            return `${seconds(g, m)} s later the probe had failed 3 times in a row (failureThreshold 3): the kubelet set ${m.pod}'s Ready condition to False, the EndpointSlice controller marked its endpoint not ready, and kube-proxy dropped its KUBE-SEP chain. The pod ${p.phase === 'Running' ? 'still runs, with no restart' : 'is still there'}: readiness only takes it out of the Service (a liveness probe would restart it). The client saw ${m.since}. Now its app answers the probe again (sim app ${m.pod} healthy).`;
          },
          then: (g, m) => (live(g).some((x) => x.name === String(m.pod)) ? [probe(String(m.pod), 'healthy')] : []),
        },
        {
          when: (g, m, detail) => {
            const d = detail();
            return (
              (!live(g).some((x) => x.name === String(m.pod)) ||
                (ruleTargets(d).some((t) => t.startsWith(`${m.ip}:`)) && steady(g, d))) &&
              hold(m, d)
            );
          },
          text: (g, m) =>
            live(g).some((x) => x.name === String(m.pod))
              ? `${seconds(g, m)} s after the probe began failing, one probe that passed (successThreshold 1) made ${m.pod} Ready again: back in the EndpointSlice and in the rules, under the same address. ${m.rules}`
              : `${m.pod} is gone; the ReplicaSet controller replaces it with a new pod, which joins the rules once its own probe passes.`,
        },
      ],
    };
  },
};

const rollout: DemoDef<TrafficDetail> = {
  id: 'rollout',
  label: (f) => (web(f)?.image === NEXT_IMAGE ? `Roll back to ${IMAGE}` : `Roll out ${NEXT_IMAGE}`),
  unavailable: notNow,
  start: (f) => {
    const image = web(f)?.image === NEXT_IMAGE ? IMAGE : NEXT_IMAGE;
    return {
      actions: [{ type: 'set-image', name: NAME, image }],
      memo: { at: f.t, image },
      intro: `kubectl set image asks for ${image}: the Deployment controller replaces the pods one at a time (maxSurge 1, maxUnavailable 0 for 3 replicas), each new pod joining the rules once Ready, each old one leaving them as it starts to terminate.`,
      beats: [
        {
          when: (g, m, detail) =>
            base(m, detail()) ||
            (steady(g, detail()) && live(g).every((p) => p.image === String(m.image)) && hold(m, detail())),
          text: (g, m) =>
            `The rollout is done in ${seconds(g, m)} s: every pod runs ${m.image}, and ${CLIENT_NODE}'s rules name only the new pods' addresses. Meanwhile the client saw ${m.since}${m.failed ? ": a failure is a connection the rules still sent to an old pod that had already stopped, before kube-proxy's next sync removed it (in a real cluster, a preStop sleep keeps the old pod answering meanwhile)" : ''}.`,
        },
      ],
    };
  },
};

const nodeDemo: DemoDef<TrafficDetail> = {
  id: 'node',
  label: (f) => (dying(f)?.powered === false ? `Start ${DYING}` : `Stop ${DYING}`),
  unavailable: (f) => (dying(f) ? null : `This cluster has no ${DYING}.`),
  start: (f): DemoStart<TrafficDetail> => {
    if (dying(f)?.powered === false) {
      return {
        actions: [{ type: 'node', node: DYING, action: 'start' }],
        memo: {},
        intro: `${DYING} boots; its kubelet and kube-proxy start again.`,
        beats: [],
      };
    }
    const mine = ready(f).filter((p) => p.node === DYING);
    return {
      actions: [{ type: 'node', node: DYING, action: 'stop' }],
      memo: { at: f.t, ips: mine.map((p) => p.ip ?? '').join(','), pods: mine.map((p) => p.name).join(',') },
      intro: `${DYING} loses power${mine.length ? `, and with it ${mine.map((p) => p.name).join(', ')}` : ''}. Nothing has told the API server yet, so the other nodes' rules still send a share of the connections there (${DYING}'s own kube-proxy and rules went with its power).`,
      beats: [
        {
          when: (_g, m, detail) =>
            !!String(m.pods) &&
            (detail()?.counts.some(
              (c) =>
                c.timeout > 0 &&
                String(m.ips)
                  .split(',')
                  .some((ip) => c.endpoint.startsWith(`${ip}:`)),
            ) ??
              false),
          text: (g, m) =>
            `${seconds(g, m)} s in: a connection the rules sent to ${String(m.pods).split(',').join(', ')} got no answer. The client's connect() would wait 127 s (6 SYN retries) before it says timed out; the panel counts it as a timeout at once.`,
        },
        {
          when: (g, m, detail) =>
            !String(m.ips)
              .split(',')
              .filter(Boolean)
              .some((ip) => ruleTargets(detail()).some((t) => t.startsWith(`${ip}:`))) && g.t - Number(m.at) > 0,
          text: (g, m) =>
            `${seconds(g, m)} s after the power went: the node-lifecycle controller found ${DYING}'s Lease unrenewed past its grace period, set its Ready condition to Unknown and marked its pods not ready, so the EndpointSlice and then the rules dropped them. Requests stop failing; the pods themselves are replaced only after their 300 s toleration.`,
        },
      ],
    };
  },
};

const controlPlane: DemoDef<TrafficDetail> = {
  id: 'control-plane',
  label: (f) => (f.controlPlane.apiserver ? 'Stop the control plane' : 'Start the control plane'),
  unavailable: () => null,
  start: (f): DemoStart<TrafficDetail> => {
    if (!f.controlPlane.apiserver) {
      return {
        actions: [{ type: 'control-plane', action: 'start' }],
        memo: { at: f.t },
        intro:
          "etcd, the API server, the controller-manager and the scheduler start again; kube-proxy's watches reconnect and it syncs its rules once more.",
        beats: [],
      };
    }
    return {
      actions: [{ type: 'control-plane', action: 'stop' }],
      memo: { at: f.t, rules: '' },
      intro:
        "The scheduler, the controller-manager, the API server and etcd stop. kube-proxy's watches break, but the rules it last synced stay in each node's kernel.",
      beats: [
        {
          when: (g, m) => g.t - Number(m.at) >= 30_000,
          text: (g, m) =>
            `${seconds(g, m)} s into the outage: ${ready(g).length ? `the client is still answered, by the rules kube-proxy synced before the outage (${count(ready(g).length, 'endpoint')}). Nothing can change them now: a pod that died would stay in them.` : 'no pod of web was ready, so the client gets no answer, outage or not.'}`,
        },
      ],
    };
  },
};

/** What the traffic figure's widget draws. */
export type TrafficView = FigureView<TrafficDetail>;

/** The `traffic` figure (the networking chapter). */
export const trafficFigure: FigureDef<TrafficDetail> = {
  actions: figureActions,
  id: 'traffic',
  title: 'Requests through a Service, live',
  options: { seed: 1, nodes: 3 },
  addons: () => [
    kubeProxyAddon({ mode: 'iptables' }),
    corednsAddon(),
    trafficClientAddon({ node: CLIENT_NODE, namespace: 'default', service: NAME }),
  ],
  demos: [apply, scale, deletePod, readiness, rollout, nodeDemo, controlPlane],
  story: ['apply', 'delete', 'readiness', 'node', 'control-plane'],
  leavesOut: [
    `The client is a process on ${CLIENT_NODE} that opens one new connection a second to web's ClusterIP (not its name: DNS is answered by CoreDNS in the terminal, kubectl exec … -- nslookup web), each walking ${CLIENT_NODE}'s rules as kube-proxy last wrote them.`,
    'A connection takes no simulated time: one that would time out after 127 s is counted at once.',
    "kube-proxy runs in iptables mode, and the client's requests walk its iptables rules; the panel's nftables tab and the terminal (sim rules node-2 --nftables) show what the same sync writes in nftables mode.",
    'The pod network routes every podCIDR from every node, with no CNI plugin, encapsulation or MTU.',
  ],
  detail: (cluster, frame) =>
    trafficDetailOf(
      cluster.world.state,
      sliceEndpointsOf(cluster, NAME),
      frame.nodes.filter((n) => n.powered === false).map((n) => n.name),
    ),
};
