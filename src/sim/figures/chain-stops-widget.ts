// The `chain-stops` widget (the troubleshooting chapter): the chapter's twelve steps from kubectl apply
// to traffic, live, for the one pod of the Deployment web behind the Service web, on a cluster whose
// nodes run kube-proxy. Each step is marked from what the store holds for web's newest pod (the
// Deployment, its ReplicaSet for the current template, the pod's node, IP, container state and Ready
// condition, its endpoint in web's EndpointSlice) and from node-1's rules. The reader breaks one step:
// a mistyped image tag stops the chain at the image pull, a stopped scheduler at step 5.
import type { KObject } from '../api/request.ts';
import type { Cluster } from '../cluster.ts';
import type { Frame, PodView } from '../view/types.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { figureActions } from './figure-actions.ts';
import {
  endpointRowsOf,
  RULES_NODE,
  ruleTargetsOf,
  serviceSetupDemo,
  serviceWebAddons,
  serviceWebDetailOf,
  type ServiceWebDetail,
} from './service-web.ts';
import { livePodsOf, WEB, webOf } from './widget-web.ts';

/** web's replicas: one pod, so the chain is one pod's. */
const REPLICAS = 1;
/** The tag typed for the upgrade to nginx:1.28: one digit too many, and no such tag in the registry. */
export const BAD_IMAGE = 'nginx:1.288';
/** The tag meant. */
const GOOD_IMAGE = 'nginx:1.28';

/** One step of the chain (the picture names them): done or not, and what the store says for it (a node, an IP, a waiting reason). */
type ChainStep = {
  done: boolean;
  value: string;
};

/** What the picture draws: web's current ReplicaSet, the pod followed, the twelve steps in order, and the first one not done. */
export type ChainDetail = {
  replicaSet: string | null;
  pod: string | null;
  steps: ChainStep[];
  /** The first step not done (1–12), or null when the pod serves traffic. */
  stop: number | null;
};
/** The figure's detail (FigureDef.detail): ChainDetail under its key. */
type Detail = { chain: ChainDetail };

interface Meta {
  name: string;
  namespace?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  ownerReferences?: { name: string }[];
}
interface DeploymentObj {
  metadata: Meta;
  spec: { template: { spec: { containers: { image: string }[] } } };
}
interface ReplicaSetObj {
  metadata: Meta;
  spec: { template: { spec: { containers: { image: string }[] } } };
}
interface PodObj {
  metadata: Meta;
  spec: { nodeName?: string };
  status?: {
    podIP?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: {
      ready: boolean;
      imageID?: string;
      state?: { running?: object; waiting?: { reason?: string }; terminated?: { reason?: string } };
    }[];
  };
}

/** The stored objects of a resource in the default namespace (read without importing the store's module). */
function stored<T extends { metadata: Meta }>(cluster: Cluster, resource: string): T[] {
  const bucket = cluster.world.state.store.objects[resource] ?? {};
  return Object.keys(bucket)
    .sort()
    .map((k) => bucket[k] as KObject & T)
    .filter((o) => o.metadata.namespace === 'default');
}

const imageOf = (o: { spec: { template: { spec: { containers: { image: string }[] } } } }): string =>
  o.spec.template.spec.containers[0]?.image ?? '';
const ownedBy = (o: { metadata: Meta }, owner: string): boolean =>
  !!o.metadata.ownerReferences?.some((r) => r.name === owner);

/** The steps for web's newest pod of the ReplicaSet that matches the Deployment's template (the one its controller scales up). */
function chainOf(cluster: Cluster, rules: ServiceWebDetail['picks']): ChainDetail {
  const d = stored<DeploymentObj>(cluster, 'deployments').find((x) => x.metadata.name === WEB);
  // The template here differs between revisions by its image only, so the image names the current ReplicaSet.
  const rs = d
    ? stored<ReplicaSetObj>(cluster, 'replicasets').find((x) => ownedBy(x, WEB) && imageOf(x) === imageOf(d))
    : undefined;
  const pods = rs
    ? stored<PodObj>(cluster, 'pods').filter((p) => ownedBy(p, rs.metadata.name) && !p.metadata.deletionTimestamp)
    : [];
  const pod = pods.sort((a, b) =>
    (a.metadata.creationTimestamp ?? '') < (b.metadata.creationTimestamp ?? '') ? 1 : -1,
  )[0];
  const cs = pod?.status?.containerStatuses?.[0];
  const ready = pod?.status?.conditions?.find((c) => c.type === 'Ready');
  const ip = pod?.status?.podIP ?? '';
  const endpoint = ip ? endpointRowsOf(cluster).find((e) => e.pod === pod.metadata.name && e.ip === ip) : undefined;
  const waiting = cs?.state?.waiting?.reason ?? '';
  const inRules = !!ip && ruleTargetsOf({ endpoints: [], picks: rules }).includes(ip);
  // Each step: done, what it shows when done, and what it shows while not.
  const marks: [boolean, string, string][] = [
    [!!d, 'sent', 'not sent'],
    [!!d, d ? `gen ${d.metadata.generation ?? 1}` : '', 'not stored'],
    [!!rs, rs ? 'ReplicaSet' : '', 'no ReplicaSet'],
    [!!pod, 'Pod', 'no Pod'],
    [!!pod?.spec.nodeName, pod?.spec.nodeName ?? '', 'no node'],
    [!!ip, ip, pod?.spec.nodeName ? 'no sandbox' : 'no node'],
    [!!cs?.imageID, 'pulled', waiting === 'ErrImagePull' || waiting === 'ImagePullBackOff' ? waiting : 'not pulled'],
    [!!cs?.state?.running, 'running', waiting || cs?.state?.terminated?.reason || 'not started'],
    [!!cs?.ready, 'passing', cs?.state?.running ? 'not passed' : 'none run'],
    [ready?.status === 'True', 'True', ready ? ready.status : 'no condition'],
    [!!endpoint?.ready, 'ready', endpoint ? 'not ready' : 'not listed'],
    [inRules, RULES_NODE, `not on ${RULES_NODE}`],
  ];
  const steps = marks.map(([done, yes, no]): ChainStep => ({ done, value: done ? yes : no }));
  const first = steps.findIndex((s) => !s.done);
  return {
    replicaSet: rs?.metadata.name ?? null,
    pod: pod?.metadata.name ?? null,
    steps,
    stop: first < 0 ? null : first + 1,
  };
}

/** The widget's detail: the chain, from the store and from node-1's rules for web. */
function chainDetailOf(cluster: Cluster, frame: Frame): Detail {
  const rules = serviceWebDetailOf(cluster, frame).picks;
  return { chain: chainOf(cluster, rules) };
}

const detailOf = (d: Detail | null): ChainDetail | null => (d?.chain ? d.chain : null);
const seconds = (f: Frame, m: DemoMemo): number => Math.round((f.t - Number(m.at)) / 1000);
const podNamed = (f: Frame, name: string): PodView | undefined => livePodsOf(f).find((p) => p.name === name);
/** `kubectl get pods`' columns for a pod, as a phrase. */
const getPods = (p: PodView | undefined): string =>
  p ? `READY ${p.readyText}, STATUS ${p.status}, RESTARTS ${p.restarts}` : 'no such pod';
/** The pods of web that serve: Ready, not being deleted. */
const serving = (f: Frame): PodView[] => livePodsOf(f).filter((p) => p.ready);

/** Keeps the chain in the memo (a beat's text sees the frame and the memo only). Returns true. */
function hold(m: DemoMemo, c: ChainDetail): true {
  Object.assign(m, { pod: c.pod ?? '', stop: c.stop ?? 0, node: c.steps[4].value });
  return true;
}
/** The chain stops at the image pull because the pull failed (not because it is under way). */
const pullFailed = (c: ChainDetail): boolean =>
  c.stop === 7 && /^(ErrImagePull|ImagePullBackOff)$/.test(c.steps[6].value);
/** The chain has reached its end for a pod: all twelve steps done. */
const complete = (c: ChainDetail | null): boolean => !!c && c.stop === null;

/** The networking widgets' setup (web with a readiness probe, and its Service), paused once web's pod is through all twelve steps. */
const base = serviceSetupDemo(REPLICAS);
const setup: DemoDef<Detail> = {
  ...base,
  start: (f): DemoStart<Detail> => ({
    ...base.start(f),
    memo: { at: f.t },
    beats: [
      {
        when: (_g, m, detail) => {
          const c = detailOf(detail());
          return complete(c) && hold(m, c!);
        },
        text: (g, m) =>
          `${m.pod} went through all 12 steps in ${seconds(g, m)} s: bound to ${m.node}, Ready, and in ${RULES_NODE}'s rules. kubectl get pods: ${getPods(podNamed(g, String(m.pod)))}.`,
      },
    ],
  }),
};

/** The break: the upgrade to nginx:1.28 with a mistyped tag (Reset undoes it). */
const image: DemoDef<Detail> = {
  id: 'image',
  label: () => 'Typo the image tag',
  unavailable: (f) =>
    !webOf(f)
      ? `Create ${WEB} first.`
      : webOf(f)!.image === BAD_IMAGE
        ? 'The tag is mistyped already; Reset brings back web as it was.'
        : !f.controlPlane.scheduler
          ? 'Start the scheduler first: a new pod would stop at step 5.'
          : null,
  start: (f): DemoStart<Detail> => ({
    actions: [
      { type: 'image-fault', image: BAD_IMAGE, state: 'missing' },
      { type: 'set-image', name: WEB, image: BAD_IMAGE },
    ],
    memo: { at: f.t },
    intro: `kubectl set image deployment/web nginx=${BAD_IMAGE}: the upgrade to ${GOOD_IMAGE}, with one digit too many. The API server stores it and kubectl exits: steps 1 and 2 cannot know the registry lacks that tag.`,
    beats: [
      {
        when: (_g, m, detail) => {
          const c = detailOf(detail());
          return !!c && pullFailed(c) && hold(m, c);
        },
        text: (g, m) =>
          `The chain stops at step 7, the image pull: the registry has no ${BAD_IMAGE}. Steps 1 to 6 went through. kubectl get pods shows ${m.pod} with ${getPods(podNamed(g, String(m.pod)))}.`,
      },
      {
        when: (g, m) => podNamed(g, String(m.pod))?.status === 'ImagePullBackOff',
        text: (g, m) =>
          `${m.pod} waits in ImagePullBackOff, and the rollout with it. ${
            serving(g).length
              ? `${serving(g)
                  .map((p) => `${p.name} (${p.image})`)
                  .join(', ')} still serves: the Service works while the chain is stopped.`
              : `No pod of ${WEB} is ready: the Service has no ready endpoint.`
          }`,
      },
    ],
  }),
};

/** Stop the scheduler and delete web's pod (its replacement waits for a node), or start the scheduler again. */
const scheduler: DemoDef<Detail> = {
  id: 'scheduler',
  label: (f) => (f.controlPlane.scheduler ? 'Stop the scheduler' : 'Start the scheduler'),
  unavailable: (f) =>
    !webOf(f)
      ? `Create ${WEB} first.`
      : !f.controlPlane.apiserver
        ? 'The API server is stopped.'
        : f.controlPlane.scheduler && !livePodsOf(f).length
          ? `${WEB} has no pod to delete.`
          : null,
  start: (f): DemoStart<Detail> => {
    if (!f.controlPlane.scheduler) {
      return {
        actions: [{ type: 'control-plane', action: 'start', component: 'scheduler' }],
        memo: { at: f.t },
        intro: 'The scheduler starts again: it lists the pods with no node and binds them.',
        beats: [
          {
            when: (_g, m, detail) => {
              const c = detailOf(detail());
              return !!c?.pod && c.steps[4].done && hold(m, c);
            },
            text: (g, m) =>
              `The scheduler bound ${m.pod} to ${m.node} ${seconds(g, m) ? `${seconds(g, m)} s after it started` : 'as it started'}: the chain goes on from step 6.`,
          },
          {
            when: (_g, m, detail) => {
              const c = detailOf(detail());
              return !!c && (complete(c) || pullFailed(c)) && hold(m, c);
            },
            text: (g, m) =>
              Number(m.stop) === 7
                ? `${m.pod} stops at step 7 now: its image tag is still the mistyped one.`
                : `${m.pod} went through all 12 steps, and the Service has a ready endpoint again. kubectl get pods: ${getPods(podNamed(g, String(m.pod)))}.`,
          },
        ],
      };
    }
    // A pod that is not ready (one stopped at the image pull) if there is one: the pod the chain follows.
    const victim =
      [...livePodsOf(f)].sort((a, b) => (a.name < b.name ? -1 : 1)).find((p) => !p.ready) ?? livePodsOf(f)[0];
    return {
      actions: [
        { type: 'control-plane', action: 'stop', component: 'scheduler' },
        { type: 'delete-pod', pod: victim.name },
      ],
      memo: { at: f.t, old: victim.name },
      intro: `The scheduler stops. kubectl delete pod ${victim.name}: the ReplicaSet controller makes a new pod in its place, and nobody is there to pick its node.`,
      beats: [
        {
          when: (g, m, detail) => {
            const c = detailOf(detail());
            return !!c && c.stop === 5 && !!c.pod && c.pod !== m.old && !podNamed(g, String(m.old)) && hold(m, c);
          },
          text: (g, m) =>
            `The chain stops at step 5, the scheduler: ${m.pod} has no node, so no kubelet starts it. kubectl get pods: ${getPods(podNamed(g, String(m.pod)))}. ${
              serving(g).length
                ? `${serving(g)
                    .map((p) => p.name)
                    .join(', ')} still serves.`
                : `No pod is ready: the Service has no ready endpoint, and a connection to it is refused.`
            }`,
        },
      ],
    };
  },
};

/** The `chain-stops` widget: the twelve steps from apply to traffic for web's pod, and where the chain stops when one step breaks. */
export const chainStopsWidget: FigureDef<Detail> = {
  actions: figureActions,
  id: 'chain-stops',
  title: 'Where the chain stops',
  options: { seed: 1, nodes: 3 },
  addons: serviceWebAddons,
  demos: [setup, image, scheduler],
  // The story ends with the scheduler stopped, at rest: a pod in ImagePullBackOff never is (the kubelet pulls again, every 300 s at most).
  story: ['setup', 'image', 'scheduler'],
  opening: 1,
  leavesOut: [
    "The widget opens with web's one pod through the chain; it follows the newest pod of web's current ReplicaSet.",
    'Steps 1 and 2 are marked from the stored Deployment: kubectl is answered at once, and neither break reaches them.',
    `Step 12 reads ${RULES_NODE}'s rules (iptables mode); every node writes the same. No client sends traffic.`,
    `The registry lacks only ${BAD_IMAGE}; only the scheduler stops.`,
  ],
  detail: chainDetailOf,
};
