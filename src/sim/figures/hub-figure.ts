// The `hub` figure (the control-plane chapter): one write through the API server's stages into etcd
// and out as watch notifications; writes refused at each stage; one control-plane component stopped
// at a time, each with its own failure signature; and a slow API server that makes every component
// lag at once. The pipeline panel reads the request log (each refused record carries its stage).
import { REQUEST_CHECKS } from '../apiserver/request-checks.ts';
import type { Cluster } from '../cluster.ts';
import type { ControlPlaneComponent } from '../cluster-types.ts';
import type { RequestRecord, Stage } from '../request-log.ts';
import { storeKey } from '../api/resources.ts';
import { podStatechartOf } from '../view/pod-statechart.ts';
import { isHeartbeat } from '../view/records.ts';
import type { DeploymentView, Frame, PodView } from '../view/types.ts';
import type { WorldState } from '../world.ts';
import { UNKNOWN_CLIENT, type CreateDeploymentAction, type FigureAction } from './actions.ts';
import { agree, count } from '../view/words.ts';
import type { DemoBeat, DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import type { FigureView } from './protocol.ts';
import type { StatechartView } from '../view/statechart.ts';
import { figureActions } from './figure-actions.ts';
import { setOf } from '../util/table.ts';

const NAME = 'web';
const IMAGE = 'nginx:1.27';
const REPLICAS = 3;
/** The latency the "slow API server" demo adds to every watch delivery (ms). */
const SLOW_MS = 2_000;
/** The user RBAC knows nothing about (no RoleBinding names her). */
const JANE = 'jane';
/** How far back the pipeline panel looks for the write to show (heartbeats in between are skipped). */
const LOOK_BACK = 20_000;

function web(f: Frame): DeploymentView | undefined {
  return f.deployments.find((d) => d.name === NAME && d.namespace === 'default');
}

function webPods(f: Frame): PodView[] {
  const owners = new Set((web(f)?.replicaSets ?? []).map((rs) => `ReplicaSet/${rs.name}`));
  return [...f.pending, ...f.pods].filter((p) => p.owner !== null && owners.has(p.owner) && !p.terminating);
}

function readyPods(f: Frame): PodView[] {
  return webPods(f).filter((p) => p.ready && p.phase === 'Running');
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** What kubectl sends in every demo here: the Deployment web, as the cluster figure creates it. */
const createWeb = (extra: Partial<CreateDeploymentAction> = {}): CreateDeploymentAction => ({
  type: 'create-deployment',
  name: NAME,
  image: IMAGE,
  replicas: REPLICAS,
  ...extra,
});

/** A write a stopped component's signature shows up on: scale web between 3 and 5, or create it. */
function probe(f: Frame): FigureAction {
  const d = web(f);
  if (!d) return createWeb();
  return { type: 'scale', name: NAME, replicas: d.replicas === 5 ? 3 : 5 };
}

const apply: DemoDef<HubDetail> = {
  id: 'apply',
  label: () => 'kubectl create',
  unavailable: (f) =>
    web(f) ? 'The Deployment web exists already.' : f.controlPlane.apiserver ? null : 'The API server is stopped.',
  start: () => ({
    actions: [createWeb()],
    memo: {},
    intro: `kubectl sends one request: POST a Deployment named ${NAME} (${REPLICAS} replicas of ${IMAGE}) to the API server.`,
    beats: [
      {
        when: (f) => web(f) !== undefined,
        text: (f) =>
          `It passed authentication, authorisation, admission and validation, and etcd stored it under ${storeKey('deployments', 'default', NAME)}: the revision is now ${f.revision}. The API server answers 201 Created, and kubectl is done.`,
      },
      {
        when: (f) => (web(f)?.replicaSets.length ?? 0) > 0,
        text: (f) =>
          `A watch notification told kube-controller-manager, the only watcher of Deployments; its Deployment controller created ReplicaSet ${web(f)!.replicaSets[0].name}: one more write through the same stages (etcd is at revision ${f.revision}).`,
      },
      {
        when: (f) => webPods(f).length >= (web(f)?.replicas ?? REPLICAS),
        text: (f) =>
          `The ReplicaSet controller, told of its new ReplicaSet, created ${count(webPods(f).length, 'pod')}; each is one more write and one more revision. The scheduler watches pods, so it is told of every one.`,
      },
      {
        when: (f) => {
          const p = webPods(f);
          return p.length > 0 && p.every((x) => x.node !== null);
        },
        text: (f) =>
          `The scheduler bound them (${webPods(f)
            .map((p) => `${p.name} → ${p.node}`)
            .join(', ')}); each kubelet watches only the pods bound to its own node, and is told of those.`,
      },
      {
        when: (f) => readyPods(f).length >= (web(f)?.replicas ?? REPLICAS),
        text: (f) =>
          `${readyPods(f).length} of ${web(f)!.replicas} pods Running and Ready, at revision ${f.revision}. Every step went through the API server; no component spoke to another.`,
      },
    ],
  }),
};

/** A demo that sends the Deployment in a way one stage refuses; the panel shows which stage, from the log. */
function refusal(id: string, label: string, action: FigureAction, intro: string): DemoDef<HubDetail> {
  return {
    id,
    label: () => label,
    unavailable: (f) => (f.controlPlane.apiserver ? null : 'The API server is stopped: nothing reaches its stages.'),
    start: () => ({ actions: [action], memo: {}, intro, beats: [] }),
  };
}

const unknownUser = refusal(
  'unknown-user',
  'Unknown client',
  createWeb({ unknownClient: UNKNOWN_CLIENT }),
  "kubectl sends the same Deployment with credentials from another cluster's kubeconfig: a client certificate no authority of this API server signed. Authentication is the first stage.",
);
const forbidden = refusal(
  'forbidden',
  `--as=${JANE}`,
  createWeb({ as: JANE }),
  `kubectl sends the Deployment as user ${JANE} (--as=${JANE}). The API server knows who ${JANE} is, but no RoleBinding gives her any rights in the namespace default.`,
);
const noNamespace = refusal(
  'no-namespace',
  'Namespace staging',
  createWeb({ namespace: 'staging' }),
  'kubectl sends the Deployment into the namespace staging, which nobody created. The NamespaceLifecycle admission plugin looks for it.',
);
const invalid = refusal(
  'invalid',
  'Invalid manifest',
  createWeb({ selectorApp: 'web-v2' }),
  "kubectl sends a manifest whose selector (app=web-v2) does not match its pod template's labels (app=web). Validation checks that a Deployment can find its own pods.",
);

/** Human names of the components a reader can stop. */
const PART_NAMES: Record<ControlPlaneComponent, string> = {
  apiserver: 'API server',
  etcd: 'etcd',
  scheduler: 'scheduler',
  'controller-manager': 'controller-manager',
};
/** The same, inside a sentence ("The scheduler stops", but "etcd stops"). */
const PART_SUBJECTS: Record<ControlPlaneComponent, string> = {
  apiserver: 'The API server',
  etcd: 'etcd',
  scheduler: 'The scheduler',
  'controller-manager': 'The controller-manager',
};

function running(f: Frame, part: ControlPlaneComponent): boolean {
  switch (part) {
    case 'apiserver':
      return f.controlPlane.apiserver;
    case 'etcd':
      return f.controlPlane.etcd;
    case 'scheduler':
      return f.controlPlane.scheduler;
    case 'controller-manager':
      return f.controlPlane.controllerManager;
  }
}

/** What the probe write asks for, so a beat can tell from the frame whether it was stored. */
function probeMemo(f: Frame): DemoMemo {
  const p = probe(f);
  return p.type === 'scale' ? { probe: 'scale', to: p.replicas } : { probe: 'create' };
}

/** The pods that keep running while the API server is down, said from the frame. */
function keepRunning(f: Frame): string {
  const n = f.pods.filter((p) => p.ready).length;
  return n ? `${count(n, 'pod')} ${agree(n, 'keeps', 'keep')} running.` : 'No pod was running to begin with.';
}

/** The oldest Lease among powered nodes (ms), or 0. */
const oldestLease = (f: Frame): number =>
  Math.max(0, ...f.nodes.filter((n) => n.powered).map((n) => n.leaseAgeMs ?? 0));

/** What stopping a part looks like, read from the frame once the cluster shows it. */
const SIGNATURES: Record<ControlPlaneComponent, DemoBeat<HubDetail>[]> = {
  apiserver: [
    {
      when: (f) => oldestLease(f) > 10_000,
      text: (f) =>
        `${seconds(oldestLease(f))} since a kubelet last renewed its Lease: every renewal is refused at the connection, like kubectl. No node is marked NotReady, though: the node-lifecycle controller cannot reach the API server either. ${keepRunning(f)}`,
    },
  ],
  etcd: [
    {
      when: (f) => oldestLease(f) > 10_000,
      text: (f) =>
        `The API server still authenticates and authorises every request, then cannot store it: ${seconds(oldestLease(f))} since a Lease was renewed, and the revision stays at ${f.revision}. Reads fail the same way; running pods are untouched.`,
    },
  ],
  scheduler: [
    {
      when: (f) => f.pending.length > 0,
      text: (f) =>
        `${count(f.pending.length, 'pod')} (${f.pending.map((p) => p.name).join(', ')}) ${agree(f.pending.length, 'is', 'are')} stored and Pending with no node: creating ${agree(f.pending.length, 'it', 'them')} worked, binding ${agree(f.pending.length, 'it', 'them')} is nobody else's job.`,
    },
  ],
  'controller-manager': [
    {
      when: () => true,
      text: (f, m) => {
        const d = web(f);
        // The write is told as accepted only when the frame holds it (a stopped API server or etcd refuses it).
        const stored = m.probe === 'create' ? !!d : !!d && d.replicas === Number(m.to);
        if (!stored) {
          const down = !f.controlPlane.apiserver
            ? "the API server is stopped too, so kubectl's write was refused at the connection"
            : !f.controlPlane.etcd
              ? "etcd is stopped too, so the API server could not store kubectl's write"
              : "kubectl's write was refused";
          return `Nothing changed: ${down}. ${d ? `etcd still holds web with ${d.replicas} replicas` : 'There is no Deployment web'}, and no controller is left to act on ${d ? 'it' : 'anything'}.`;
        }
        if (m.probe === 'create')
          return 'The Deployment web was stored, and nothing turns it into a ReplicaSet: no controller is left to act on it.';
        const n = webPods(f).length;
        return `etcd now says web wants ${d!.replicas} replicas, and ${count(n, 'pod')} ${agree(n, 'exists', 'exist')}. The write was accepted; no controller is left to act on it.`;
      },
    },
  ],
};

/** What starting a part again looks like. */
const RECOVERIES: Record<ControlPlaneComponent, DemoBeat<HubDetail>[]> = {
  apiserver: [
    {
      when: (f) => oldestLease(f) < 10_000,
      text: (f) =>
        `Every kubelet has renewed its Lease again (the oldest is ${seconds(oldestLease(f))} old); the components' watches reconnect and catch up from the revision they last saw. A scheduler or controller-manager that could not renew its own Lease for 10 s has exited and started again: it leads once the old Lease has gone 15 s unrenewed.`,
    },
  ],
  etcd: [
    {
      when: (f) => oldestLease(f) < 10_000,
      text: (f) => `Writes are stored again: revision ${f.revision}, and every Lease renewed within the last 10 s.`,
    },
  ],
  scheduler: [
    {
      when: (f) => f.pending.length === 0,
      text: (f) =>
        `The new scheduler listed the pending pods and bound them: ${count(f.pods.length, 'pod')} on nodes, none Pending.`,
    },
  ],
  'controller-manager': [
    {
      when: (f) => {
        const d = web(f);
        return !d || (webPods(f).length === d.replicas && readyPods(f).length === d.replicas);
      },
      text: (f) =>
        web(f)
          ? `Once the old controller-manager's Lease had gone 15 s unrenewed the new one took it, and its controllers listed everything afresh and closed the gap: ${readyPods(f).length} of ${web(f)!.replicas} pods ready.`
          : "Once the old controller-manager's Lease had gone 15 s unrenewed the new one took it; its controllers listed everything afresh, and there was nothing to catch up.",
    },
  ],
};

function stopStart(part: ControlPlaneComponent): DemoDef<HubDetail> {
  const name = PART_NAMES[part];
  return {
    id: `stop-${part}`,
    label: (f) => `${running(f, part) ? 'Stop' : 'Start'} ${name}`,
    unavailable: () => null,
    start: (f): DemoStart<HubDetail> =>
      running(f, part)
        ? {
            actions: [{ type: 'control-plane', action: 'stop', component: part }, probe(f)],
            memo: probeMemo(f),
            intro: `${PART_SUBJECTS[part]} stops, and kubectl sends one more write (${probe(f).type === 'scale' ? 'a scale of web' : 'the Deployment web'}) to show what that looks like.`,
            beats: SIGNATURES[part],
          }
        : {
            actions: [{ type: 'control-plane', action: 'start', component: part }],
            memo: {},
            intro: `${PART_SUBJECTS[part]} starts again.`,
            beats: RECOVERIES[part],
          },
  };
}

const slow: DemoDef<HubDetail> = {
  id: 'slow',
  label: (f) => (f.controlPlane.latencyMs > 0 ? 'Fast API server' : 'Slow API server'),
  unavailable: (f) => {
    const cp = f.controlPlane;
    if (cp.latencyMs > 0) return null;
    if (!cp.apiserver) return "The API server is stopped: kubectl's scale would be refused.";
    if (!cp.etcd || cp.etcdFull) return `etcd is ${cp.etcd ? 'full' : 'stopped'}: kubectl's scale would be refused.`;
    // The beat follows the scale through every hand-off: with one of them stopped, none of it would happen.
    if (!cp.controllerManager) return 'The controller manager is stopped: nothing would act on the scale.';
    if (!cp.scheduler) return 'The scheduler is stopped: no new pod would be placed.';
    return web(f) ? null : 'Create the Deployment first.';
  },
  start: (f): DemoStart<HubDetail> => {
    if (f.controlPlane.latencyMs > 0) {
      return {
        actions: [{ type: 'latency', ms: 0 }],
        memo: {},
        intro: 'The API server delivers its watch notifications in milliseconds again.',
        beats: [],
      };
    }
    const to = web(f)!.replicas === 5 ? 3 : 5;
    return {
      actions: [
        { type: 'latency', ms: SLOW_MS },
        { type: 'scale', name: NAME, replicas: to },
      ],
      memo: { t0: f.t, to },
      intro: `The API server now takes ${seconds(SLOW_MS)} to deliver each watch notification, and kubectl scales web to ${to}. kubectl's own answer comes at once.`,
      beats: [
        {
          when: (g, m) => {
            const d = web(g);
            // The scale stored (a write refused meanwhile, or replaced by another, has no such ending).
            return !!d && d.replicas === m.to && webPods(g).length === m.to && readyPods(g).length === m.to;
          },
          text: (g, m) =>
            `${m.to} of ${m.to} pods ready, ${seconds(g.t - Number(m.t0))} after kubectl was answered: every hand-off (Deployment controller, ReplicaSet controller, scheduler, kubelet) waited for its notification. Nothing failed, and everything looked stuck at once.`,
        },
      ],
    };
  },
};

// ——— the pipeline panel's data ———

/** The stages a write passes, in order, as the panel draws them. */
export const PIPELINE: readonly PipelineStage['stage'][] = [
  'authentication',
  'authorization',
  'admission',
  'validation',
  'storage',
];

const MUTATING = setOf(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The write the cursor is about: the newest record that is not a heartbeat nor about an Event (those
 * follow nearly every write). A write is itself; a watch notification stands for the write it tells
 * of, so a step that delivers notifications shows the write they come from and who has heard so far.
 */
function currentWrite(w: WorldState): { rec: RequestRecord; index: number } | null {
  const stop = Math.max(0, w.log.length - LOOK_BACK);
  for (let i = w.log.length - 1; i >= stop; i--) {
    const r = w.log[i];
    if (r.kind === 'cri' || (r.object ?? r.path).includes('events') || isHeartbeat(w, r)) continue;
    if (r.kind === 'request' && MUTATING.has(r.verb)) return { rec: r, index: i };
    if (r.kind === 'watch' && r.revision !== undefined && r.event !== 'BOOKMARK') {
      for (let j = i - 1; j >= stop; j--) {
        const x = w.log[j];
        if (x.kind === 'request' && x.revision === r.revision && x.object === r.object) return { rec: x, index: j };
        // Past a newer write: a streaming list's initial event, telling of an old object, not of the write at hand.
        if (
          x.kind === 'request' &&
          MUTATING.has(x.verb) &&
          !(x.object ?? x.path).includes('events') &&
          !isHeartbeat(w, x)
        )
          break;
      }
    }
  }
  return null;
}

/** The user the API server saw (an impersonated one is named in RBAC's refusal). */
function userOf(cluster: Cluster, r: RequestRecord): string | null {
  if (r.code === 401 || r.code === 0) return null;
  const named = /User "([^"]+)"/.exec(r.message ?? '');
  if (named) return named[1];
  return (
    cluster.world.apiConfig.identities[r.component]?.user ??
    (r.component.startsWith('kubelet/') ? `system:node:${r.component.slice(8)}` : null)
  );
}

/** One stage of the API server's pipeline, as the write at the cursor went through it. */
interface PipelineStage {
  stage: Exclude<Stage, 'connection'>;
  state: 'passed' | 'refused' | 'not-reached';
}

/** The write the cursor is about, stage by stage (the hub figure's panel). */
export interface Pipeline {
  seq: number;
  t: number;
  component: string;
  user: string | null;
  verb: string;
  path: string;
  code: number;
  refusedAt: Stage | null;
  message: string | null;
  revision: number | null;
  key: string | null;
  stages: PipelineStage[];
  notified: { component: string; event: string }[];
}

/** The hub figure's own data: the write at the cursor, and web's first pod on a node as its kubelet's statechart. */
interface HubDetail {
  pipeline: Pipeline | null;
  pod: StatechartView | null;
}

/** What the hub figure's widget draws. */
export type HubView = FigureView<HubDetail>;

/** The write at the cursor, stage by stage, with its etcd key and the watch notifications it caused so far. */
function pipelineOf(cluster: Cluster): Pipeline | null {
  const w = cluster.world.state;
  const found = currentWrite(w);
  if (!found) return null;
  const { rec: r, index } = found;
  const refusedAt: Stage | null = r.code >= 400 || r.code === 0 ? (r.stage ?? 'storage') : null;
  const reached = refusedAt === null ? PIPELINE.length : refusedAt === 'connection' ? -1 : PIPELINE.indexOf(refusedAt);
  const stages = PIPELINE.map((s, i): PipelineStage => ({
    stage: s,
    state: i < reached ? 'passed' : i === reached ? 'refused' : 'not-reached',
  }));
  const [resource, namespace, name] = (r.object ?? '').split('/');
  const notified: { component: string; event: string }[] = [];
  if (r.revision !== undefined) {
    for (let i = index + 1; i < w.log.length; i++) {
      const x = w.log[i];
      if (x.kind === 'watch' && x.revision === r.revision && x.object === r.object)
        notified.push({ component: x.component, event: x.event ?? '' });
    }
  }
  return {
    seq: (w.logDropped ?? 0) + index,
    t: r.t,
    component: r.component,
    user: userOf(cluster, r),
    verb: r.verb,
    path: r.path,
    code: r.code,
    refusedAt,
    message: r.message ?? null,
    revision: r.revision ?? null,
    key: r.object && name !== undefined ? storeKey(resource, namespace || undefined, name) : null,
    stages,
    notified,
  };
}

/** The `hub` figure (the control-plane chapter). */
export const hubFigure: FigureDef<HubDetail> = {
  actions: figureActions,
  // The API server's request checks: its 'Invalid manifest' demo is refused by ValidateDeployment.
  checks: REQUEST_CHECKS,
  id: 'hub',
  title: 'Everything through the API server',
  options: { seed: 1, nodes: 2 },
  demos: [
    apply,
    unknownUser,
    forbidden,
    noNamespace,
    invalid,
    stopStart('apiserver'),
    stopStart('etcd'),
    stopStart('scheduler'),
    stopStart('controller-manager'),
    slow,
  ],
  story: ['apply', 'unknown-user', 'forbidden', 'no-namespace', 'invalid'],
  leavesOut: [
    'Authentication knows a fixed set of identities (the components, kubernetes-admin, users named through --as); there are no certificates or tokens to inspect.',
    'RBAC is the built-in roles only: the reader cannot create Roles or RoleBindings here.',
    'Four admission plugins run (NamespaceLifecycle, ServiceAccount, Priority, DefaultTolerationSeconds); no webhooks, quotas or Pod Security admission.',
    'Validation checks the fields the simulation reads, not the whole OpenAPI schema.',
    "The scheduler and the controller-manager each hold a leader-election Lease with no standby to take it. One that cannot renew its Lease for 10 s exits; its static pod's kubelet starts it again a second later (no CrashLoopBackOff is counted), and the new process starts its informers only once it leads, not before.",
    'The slow API server delays watch notifications only; requests are still answered at once, and nobody times out or loses leader election.',
    'The pipeline panel shows the newest write other than Events and heartbeats (Lease renewals, node status reports), which it skips.',
  ],
  detail: (cluster, frame) => {
    // The pod statechart follows web's first pod on a node (the one a kubelet is running).
    const pod = webPods(frame).find((p) => p.node !== null);
    return { pipeline: pipelineOf(cluster), pod: pod ? podStatechartOf(cluster.world.state, pod) : null };
  },
};
