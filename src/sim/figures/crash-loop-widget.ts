// The `crash-loop` widget (the troubleshooting chapter): web runs three pods; one's nginx finds a typo in
// its configuration and exits with code 1 a second after each start. The kubelet restarts it at once the
// first time, then waits 10 s, 20 s, 40 s … (CrashLoopBackOff) before each next start. The picture shows
// web's pods with their restart counts and the kubelet's own back-off entry, and the crashing pod's
// container starts (containerd's StartContainer calls); the reader's fix is noticed only when the wait ends.
import type { Cluster } from '../cluster.ts';
import { appHealth } from '../app-health.ts';
import type { Frame, PodView } from '../view/types.ts';
import { count } from '../view/words.ts';
import type { FigureAction } from './actions.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import { podTroublesOf, type PodTrouble } from './pod-trouble.ts';
import { readyPodsOf, setupDemo, WEB, webOf, webPodsOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas, as the other widgets have them. */
const REPLICAS = 3;
/** The node whose pod crashes (as the troubleshooting figure's crash demo). */
const TARGET_NODE = 'node-1';
/** What nginx prints when its configuration has a mistyped directive, and exits 1. */
const CRASH_LOG = 'nginx: [emerg] unknown directive "sever" in /etc/nginx/conf.d/default.conf:2';

/** What the widget reads beside the Frame: web's pods as `kubectl describe` has them, and the crashing pod's container starts. */
export type CrashLoopDetail = {
  pods: PodTrouble[];
  /** The pod that has restarted (the first by name), or null while none has. */
  looping: string | null;
  /** The simulated ms of each StartContainer call for that pod's container, in order. */
  starts: number[];
};

/** web's pods with their restarts and back-off, and the first restarted pod's container starts from the request log. */
function crashLoopDetailOf(cluster: Cluster): CrashLoopDetail {
  const pods = podTroublesOf(cluster, WEB);
  const looping = pods.find((p) => p.restartCount > 0 && !p.terminating)?.name ?? null;
  const object = looping ? `pods/default/${looping}/` : null;
  const starts = object
    ? cluster.world.state.log
        .filter((r) => r.kind === 'cri' && r.verb === 'StartContainer' && r.object?.startsWith(object))
        .map((r) => r.t)
    : [];
  return { pods, looping, starts };
}

const detailOf = (d: CrashLoopDetail | null): CrashLoopDetail | null => (d ? d : null);
const troubleOf = (d: CrashLoopDetail | null, name: string): PodTrouble | undefined =>
  d?.pods.find((p) => p.name === name);
const podOf = (f: Frame, m: DemoMemo): PodView | undefined =>
  webPodsOf(f).find((p) => p.name === String(m.pod) && !p.terminating);
const seconds = (f: Frame, m: DemoMemo): number => Math.round((f.t - Number(m.at)) / 1000);
/** `sim app POD BEHAVIOUR`: the pod's simulated app behaves so from now on. */
const app = (pod: string, behaviour: 'crashes' | 'healthy'): FigureAction => ({
  type: 'app',
  pod,
  behaviour,
  health: appHealth(behaviour, behaviour === 'crashes' ? CRASH_LOG : undefined),
});
/** A pod of web that has restarted and is not Ready now: the one the fix is for. */
const crashing = (f: Frame): PodView | undefined =>
  webPodsOf(f).find((p) => !p.terminating && p.restarts > 0 && !p.ready);
/** The time between the pod's restarts so far, in whole seconds (each its 1 s run plus the back-off); its first start is no restart. */
function gapsOf(d: CrashLoopDetail | null): string {
  const s = (d?.starts ?? []).slice(1);
  return s
    .slice(1)
    .map((t, i) => `${Math.round((t - s[i]) / 1000)} s`)
    .join(', ');
}

/** Crash a container, or, while one crash-loops, fix its configuration. */
const crash: DemoDef<CrashLoopDetail> = {
  id: 'crash',
  label: (f) => (crashing(f) ? 'Fix the configuration' : 'Crash a container'),
  unavailable: (f) =>
    !webOf(f) ? 'Create web first.' : crashing(f) || readyPodsOf(f).length ? null : 'No pod of web is running.',
  start: (f): DemoStart<CrashLoopDetail> => {
    const broken = crashing(f);
    if (broken) return fix(f, broken);
    const r = readyPodsOf(f);
    const p = r.find((x) => x.node === TARGET_NODE) ?? r[0];
    return {
      actions: [app(p.name, 'crashes')],
      memo: { pod: p.name, at: f.t },
      intro: `${p.name}'s nginx now finds a typo in its configuration and exits with code 1 a second after each start (sim app makes the pod's simulated app do so).`,
      beats: [
        {
          when: (g, m) => (podOf(g, m)?.restarts ?? 0) >= 1,
          text: (g, m) =>
            `${m.pod} exited with code 1, and the kubelet started it again at once: RESTARTS ${podOf(g, m)!.restarts}. The first restart never waits.`,
        },
        {
          when: (g, m) => podOf(g, m)?.status === 'CrashLoopBackOff',
          text: (g, m) =>
            `It exited again, and now the kubelet waits 10 s before the next start: STATUS CrashLoopBackOff, RESTARTS ${podOf(g, m)!.restarts}.`,
        },
        {
          when: (g, m, detail) => {
            const d = detailOf(detail());
            const b = troubleOf(d, String(m.pod))?.backoff;
            return podOf(g, m)?.status === 'CrashLoopBackOff' && (b?.waitS ?? 0) >= 40 && !!(m.gaps = gapsOf(d));
          },
          text: (g, m) =>
            `${count(podOf(g, m)!.restarts, 'restart')} in ${seconds(g, m)} s, the restarts ${m.gaps} apart (a second of running, then the wait): each wait twice the last, 10, 20, now 40 s, up to 300 s. kubectl describe pod shows Last State: Terminated, Reason: Error, Exit Code: 1.`,
        },
      ],
    };
  },
};

/** The fix: the app runs from now on, but the kubelet starts it only once the wait it is in is over. */
function fix(f: Frame, p: PodView): DemoStart<CrashLoopDetail> {
  return {
    actions: [app(p.name, 'healthy')],
    memo: { pod: p.name, at: f.t, restarts: p.restarts },
    intro: `The configuration is fixed (sim app ${p.name} healthy). Nothing tells the kubelet: it starts the container again only when its wait is over.`,
    beats: [
      {
        when: (g, m) => {
          const q = podOf(g, m);
          return !!q && q.ready && q.phase === 'Running';
        },
        text: (g, m) =>
          `${m.pod} started ${seconds(g, m)} s after the fix, at the end of its wait, and stays up: Running and Ready, RESTARTS ${podOf(g, m)!.restarts}. The count stays; the back-off starts over after 10 minutes without a restart.`,
      },
    ],
  };
}

/** The `crash-loop` widget: a container that exits after each start, its restarts and the kubelet's back-off. */
export const crashLoopWidget: FigureDef<CrashLoopDetail> = {
  actions: figureActions,
  id: 'crash-loop',
  title: 'A container that keeps crashing',
  options: { seed: 1, nodes: 3 },
  demos: [setupDemo(REPLICAS), crash],
  story: ['setup', 'crash', 'crash'],
  opening: 1,
  leavesOut: [
    "The crash is made by `sim app`, which tells one pod's simulated app to exit a second after each start; in a real cluster it comes from the image or its configuration, so every replacement pod would crash the same way.",
    'The kubelet runs with its defaults: the restart back-off starts at 10 s and doubles to 300 s, and resets after 10 minutes without a restart.',
    "The starts listed are containerd's StartContainer calls for the pod, from the request log.",
  ],
  detail: crashLoopDetailOf,
};
