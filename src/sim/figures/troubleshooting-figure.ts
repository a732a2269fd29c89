// The `troubleshooting` figure: a settled three-node cluster runs the Deployment web behind the
// Service web, and the reader breaks one pod at a time and reads it with kubectl in the terminal: an
// image tag that does not exist (ErrImagePull, then ImagePullBackOff, the pull back-off doubling from
// 10 s), an app that exits after each start (CrashLoopBackOff, restart counts, the same back-off), an
// app that outgrows its memory limit (OOMKilled, exit code 137), and one whose readiness probe fails
// (a new pod that stays READY 0/1, its address not ready in the Service's EndpointSlice). Each demo ends with the fix.
import type { Frame, PodView } from '../view/types.ts';
import { agree, count } from '../view/words.ts';
import type { AppBehaviour } from '../cluster-types.ts';
import { appHealth } from '../app-health.ts';
import type { FigureAction } from './actions.ts';
import type { DemoDef, DemoMemo, FigureDef } from './demo.ts';
import type { FigureView } from './protocol.ts';
import { podTroublesOf, sliceEndpointsOf, type PodTrouble, type SliceEndpoint } from './pod-trouble.ts';
import { figureActions } from './figure-actions.ts';

const NAME = 'web';
const IMAGE = 'nginx:1.27';
/** The mistyped tag: the registry has nginx:1.27, not 1.277. */
export const BAD_IMAGE = 'nginx:1.277';
const REPLICAS = 3;
const PORT = 80;
/** What nginx prints when its configuration has a mistyped directive, and exits 1. */
export const CRASH_LOG = 'nginx: [emerg] unknown directive "sever" in /etc/nginx/conf.d/default.conf:2';
/** web's container as its manifest gives it: requests, the memory limit an OOM kill is about, and a readiness probe. */
const CONTAINER = {
  ports: [{ containerPort: PORT }],
  resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
  readinessProbe: { httpGet: { path: '/', port: PORT } },
};

/** `sim app POD BEHAVIOUR`: the pod's simulated app behaves so from now on. */
const app = (pod: string, behaviour: AppBehaviour, log?: string): FigureAction => ({
  type: 'app',
  pod,
  behaviour,
  health: appHealth(behaviour, log),
});

/** What the panel reads beside the Frame: web's pods with their back-off, and the Service's endpoints. */
export interface TroubleshootingDetail {
  pods: PodTrouble[];
  endpoints: SliceEndpoint[];
}

const web = (f: Frame) => f.deployments.find((d) => d.name === NAME && d.namespace === 'default');
const webPods = (f: Frame): PodView[] =>
  [...f.pending, ...f.pods].filter((p) => p.owner?.startsWith(`ReplicaSet/${NAME}-`));
const live = (f: Frame) => webPods(f).filter((p) => !p.terminating);
const ready = (f: Frame) => live(f).filter((p) => p.ready && p.phase === 'Running');
const pod = (f: Frame, m: DemoMemo): PodView | undefined => webPods(f).find((p) => p.name === m.pod);
const troubleOf = (d: TroubleshootingDetail | null, name: string): PodTrouble | undefined =>
  d?.pods.find((p) => p.name === name);
const seconds = (f: Frame, m: DemoMemo) => Math.round((f.t - Number(m.at)) / 1000);

/** web runs as it should: the manifest's image, every replica Ready, nothing in a back-off or being replaced. */
function healthy(f: Frame): boolean {
  const d = web(f);
  return (
    !!d &&
    d.image === IMAGE &&
    live(f).length === d.replicas &&
    ready(f).length === d.replicas &&
    webPods(f).length === d.replicas
  );
}

/** Why a pod cannot be broken now, or null. */
function notNow(f: Frame): string | null {
  if (!web(f)) return 'Create web first.';
  return healthy(f) ? null : 'Wait until web runs again: every pod Ready, the last break repaired.';
}

/** The pod a demo breaks: web's pod on the given node (one per node, so each demo breaks another), else the first. */
function victim(f: Frame, node: string): string {
  const r = ready(f);
  return (r.find((p) => p.node === node) ?? r[0]).name;
}

const apply: DemoDef<TroubleshootingDetail> = {
  id: 'apply',
  label: () => 'Create web',
  unavailable: (f) => (web(f) ? 'The Deployment web exists already.' : null),
  start: () => ({
    actions: [
      {
        type: 'create-deployment',
        name: NAME,
        image: IMAGE,
        replicas: REPLICAS,
        file: {
          container: CONTAINER,
          note: `${REPLICAS} replicas of ${IMAGE}; memory limit 128Mi; readiness probe GET / on port ${PORT}`,
        },
      },
      { type: 'expose', name: NAME, port: PORT },
    ],
    memo: {},
    intro: `kubectl creates the Deployment ${NAME} from its manifest (${REPLICAS} replicas of ${IMAGE}, each with a memory limit of 128Mi and a readiness probe) and the Service ${NAME} in front of it.`,
    beats: [
      {
        when: (f, _m, detail) =>
          ready(f).length >= REPLICAS && (detail()?.endpoints.filter((e) => e.ready).length ?? 0) >= REPLICAS,
        text: (f) =>
          `${count(ready(f).length, 'pod')} of ${NAME} ${agree(ready(f).length, 'runs', 'run')} (on ${[...new Set(ready(f).map((p) => p.node))].sort().join(', ')}), each Ready once its first readiness probe answered; the EndpointSlice of the Service lists the ${count(ready(f).length, 'address')}, all ready. Break one pod at a time with the buttons, and read it in the terminal with kubectl get pods and kubectl describe pod.`,
      },
    ],
  }),
};

const image: DemoDef<TroubleshootingDetail> = {
  id: 'image',
  label: () => `Typo in the image (${BAD_IMAGE})`,
  unavailable: notNow,
  start: (f) => ({
    actions: [
      { type: 'image-fault', image: BAD_IMAGE, state: 'missing' },
      { type: 'set-image', name: NAME, image: BAD_IMAGE },
    ],
    memo: {
      at: f.t,
      rs: web(f)!
        .replicaSets.map((r) => r.name)
        .join(','),
    },
    intro: `The registry has nginx:1.27 but no tag 1.277, and kubectl set image asks for ${BAD_IMAGE}. The Deployment controller starts a rollout: one new pod (maxSurge, 25 % of 3, rounds up to 1), and no old pod may go before it is available (maxUnavailable rounds down to 0).`,
    beats: [
      {
        when: (f) => webPods(f).some((p) => p.image === BAD_IMAGE && p.status === 'ErrImagePull'),
        text: (f) => {
          const p = webPods(f).find((x) => x.image === BAD_IMAGE)!;
          return `The kubelet on ${p.node} asked containerd to pull ${BAD_IMAGE}, and the registry answered NotFound: ${p.name} shows ErrImagePull. Type kubectl describe pod ${p.name}: its Events end with Failed to pull image and Error: ErrImagePull.`;
        },
      },
      {
        when: (f) => webPods(f).some((p) => p.image === BAD_IMAGE && p.status === 'ImagePullBackOff'),
        text: (f, _m) =>
          `Now the kubelet waits before it pulls again: STATUS ImagePullBackOff, and a Back-off pulling image event. kubectl logs has nothing to show, as no container ever ran. ${ready(f).length} old pods still serve.`,
      },
      {
        when: (f, _m, detail) => {
          const p = webPods(f).find((x) => x.image === BAD_IMAGE);
          const b = p && troubleOf(detail(), p.name)?.backoff;
          return !!b && b.kind === 'pull' && b.waitS >= 40;
        },
        text: (f, m) =>
          `Three pulls failed in ${seconds(f, m)} s: the wait doubled from 10 s to 20 s and now 40 s, and will double up to 300 s. kubectl get rs shows the new ReplicaSet stuck at 0 ready; the rollout waits, and the Service still has its 3 ready endpoints.`,
      },
      {
        when: (f, _m, detail) => {
          const p = webPods(f).find((x) => x.image === BAD_IMAGE);
          const b = p && troubleOf(detail(), p.name)?.backoff;
          return !!b && b.kind === 'pull' && b.waitS >= 80;
        },
        text: () =>
          `The fix is the tag: kubectl rollout undo deployment/${NAME} puts the previous pod template back, ${IMAGE}.`,
        then: (): FigureAction[] => [{ type: 'rollout', name: NAME, verb: 'undo' }],
      },
      {
        when: (f) => healthy(f),
        text: (f) =>
          `The new ReplicaSet is scaled to 0 and its pod deleted; ${count(ready(f).length, 'pod')} of ${NAME}, never replaced, ${agree(ready(f).length, 'serves', 'serve')} as before.`,
      },
    ],
  }),
};

const crash: DemoDef<TroubleshootingDetail> = {
  id: 'crash',
  label: () => 'Crash a container',
  unavailable: notNow,
  start: (f) => {
    const p = victim(f, 'node-1');
    return {
      actions: [app(p, 'crashes', CRASH_LOG)],
      memo: { pod: p, at: f.t },
      intro: `${p}'s nginx now finds a typo in its configuration and exits with code 1 a second after each start (sim app makes the pod's simulated app do so).`,
      beats: [
        {
          when: (g, m) => (pod(g, m)?.restarts ?? 0) >= 1,
          text: (g, m) =>
            `${m.pod} exited with code 1 and the kubelet restarted it at once: RESTARTS ${pod(g, m)!.restarts}. The first restart never waits.`,
        },
        {
          when: (g, m) => pod(g, m)?.status === 'CrashLoopBackOff',
          text: (_g, m) =>
            `It exited again, and now the kubelet waits 10 s: STATUS CrashLoopBackOff. Type kubectl logs ${m.pod} --previous: the crashed run's last words name the mistyped directive.`,
        },
        {
          // Once the EndpointSlice controller has marked the pod's address not ready (the pod was Ready for a moment after its restart).
          when: (g, m, detail) =>
            pod(g, m)?.status === 'CrashLoopBackOff' &&
            (troubleOf(detail(), String(m.pod))?.backoff?.waitS ?? 0) >= 40 &&
            (detail()?.endpoints.some((e) => e.pod === m.pod && !e.ready) ?? false),
          text: (g, m) =>
            `${pod(g, m)!.restarts} restarts in ${seconds(g, m)} s, each wait twice the last (10, 20, now 40 s, up to 300 s). kubectl describe pod ${m.pod} shows Last State: Terminated, Reason: Error, Exit Code: 1. Not Ready, its address gets no Service traffic.`,
        },
        {
          when: (g, m, detail) =>
            pod(g, m)?.status === 'CrashLoopBackOff' && (troubleOf(detail(), String(m.pod))?.backoff?.waitS ?? 0) >= 80,
          text: (_g, m) =>
            `The configuration is fixed (sim app ${m.pod} healthy). The kubelet notices only at the end of the 80 s wait; deleting the pod would have been quicker.`,
          then: (_g, m): FigureAction[] => [app(String(m.pod), 'healthy')],
        },
        {
          when: (g, m) => {
            const p = pod(g, m);
            return !!p && p.ready && p.phase === 'Running';
          },
          text: (g, m) =>
            `${m.pod} started at the end of its wait and stays up: Running and Ready, RESTARTS ${pod(g, m)!.restarts}. The count stays; the back-off starts over after 10 minutes without a restart.`,
        },
      ],
    };
  },
};

const oom: DemoDef<TroubleshootingDetail> = {
  id: 'oom',
  label: () => 'Leak memory',
  unavailable: notNow,
  start: (f) => {
    const p = victim(f, 'node-2');
    return {
      actions: [app(p, 'leaks')],
      memo: { pod: p, at: f.t },
      intro: `${p}'s app now leaks memory: 5 s after each start it reaches its 128Mi limit (sim app makes the pod's simulated app do so).`,
      beats: [
        {
          when: (g, m) => (pod(g, m)?.restarts ?? 0) >= 1,
          text: (_g, m) =>
            `The kernel's out-of-memory killer ended it with SIGKILL, in the container's own cgroup, however much memory the node has free: kubectl describe pod ${m.pod} shows Last State: Terminated, Reason: OOMKilled, Exit Code: 137 (128 + 9). The kubelet restarted it at once.`,
        },
        {
          when: (g, m) => pod(g, m)?.status === 'CrashLoopBackOff',
          text: () =>
            `Killed again 5 s after its start: now it waits 10 s, STATUS CrashLoopBackOff, the same back-off as any crash. The log is no help, since a killed process writes nothing; the reason is in the last state.`,
        },
        {
          when: (g, m, detail) =>
            pod(g, m)?.status === 'CrashLoopBackOff' && (troubleOf(detail(), String(m.pod))?.backoff?.waitS ?? 0) >= 40,
          text: (_g, m) =>
            `The leak is fixed (sim app ${m.pod} healthy; in a real cluster, a fixed image or a higher limit). The kubelet starts it again at the end of the 40 s wait.`,
          then: (_g, m): FigureAction[] => [app(String(m.pod), 'healthy')],
        },
        {
          when: (g, m) => {
            const p = pod(g, m);
            return !!p && p.ready && p.phase === 'Running';
          },
          text: (g, m) =>
            `${m.pod} runs and is Ready again, RESTARTS ${pod(g, m)!.restarts}; its last state still says OOMKilled.`,
        },
      ],
    };
  },
};

/** The pod a scale-up made: web's live pod whose name was not there when the demo was pressed. */
const newcomer = (f: Frame, m: DemoMemo): PodView | undefined =>
  live(f).find((p) => !String(m.before).split(',').includes(p.name));

const unready: DemoDef<TroubleshootingDetail> = {
  id: 'unready',
  label: () => 'A pod that never gets Ready',
  unavailable: notNow,
  start: (f) => ({
    actions: [{ type: 'scale', name: NAME, replicas: REPLICAS + 1 }],
    memo: {
      at: f.t,
      before: webPods(f)
        .map((p) => p.name)
        .join(','),
    },
    intro: `kubectl scale asks for ${REPLICAS + 1} replicas of ${NAME}: one more pod.`,
    beats: [
      {
        when: (g, m) => !!newcomer(g, m)?.node,
        text: (g, m) => {
          const p = newcomer(g, m)!;
          return `The ReplicaSet controller created ${p.name} and the scheduler put it on ${p.node}. Its app will answer its readiness probe (GET / on port ${PORT}) with an error (sim app ${p.name} unready).`;
        },
        then: (g, m): FigureAction[] => [app(newcomer(g, m)!.name, 'unready')],
      },
      {
        when: (g, m, detail) => {
          const p = newcomer(g, m);
          return (
            !!p && p.phase === 'Running' && (detail()?.endpoints.some((e) => e.pod === p.name && !e.ready) ?? false)
          );
        },
        text: (g, m) => {
          const p = newcomer(g, m)!;
          return `${p.name} runs but is not Ready: READY ${p.readyText}, STATUS ${p.status}, RESTARTS ${p.restarts} (a readiness probe restarts nothing). kubectl describe pod shows its Unhealthy events; kubectl get endpointslices lists ${REPLICAS + 1} addresses, ${p.name}'s with ready: false.`;
        },
      },
      {
        when: (g, m) => seconds(g, m) >= 90,
        text: () =>
          `A rollout whose new pods never get Ready stops just like this. Scale back to ${REPLICAS}: the ReplicaSet controller deletes a pod that is not Ready before any that is.`,
        then: (): FigureAction[] => [{ type: 'scale', name: NAME, replicas: REPLICAS }],
      },
      {
        when: (g) => healthy(g),
        text: (g) =>
          `The not-ready pod is gone: ${count(ready(g).length, 'pod')}, ${count(ready(g).length, 'ready endpoint')}.`,
      },
    ],
  }),
};

/** What the troubleshooting figure's widget draws. */
export type TroubleshootingView = FigureView<TroubleshootingDetail>;

/** The `troubleshooting` figure (the troubleshooting chapter). */
export const troubleshootingFigure: FigureDef<TroubleshootingDetail> = {
  actions: figureActions,
  id: 'troubleshooting',
  title: 'Break a pod, then diagnose it',
  options: { seed: 1, nodes: 3 },
  demos: [apply, image, crash, oom, unready],
  story: ['apply', 'image', 'crash', 'oom', 'unready'],
  leavesOut: [
    "A crash, a memory leak and a failing probe are made by `sim app`, which tells one pod's simulated app how to behave; in a real cluster they come from the image or its configuration, so every replacement pod would fail the same way.",
    'There are no real processes or memory: the OOM kill happens 5 s after each start, and the app writes to its log only the line it crashes with.',
    "The registry knows every tag but the ones `sim image … missing` names; a private registry's 401 and pull secrets are not modelled.",
    'The kubelet runs with its defaults: the restart and pull back-offs start at 10 s and double to 300 s (the alpha ReduceDefaultCrashLoopBackOffDecay gate is off), and probes run every 10 s with 3 failures to fail.',
  ],
  detail: (cluster) => ({
    pods: podTroublesOf(cluster, NAME),
    endpoints: sliceEndpointsOf(cluster, NAME),
  }),
};
