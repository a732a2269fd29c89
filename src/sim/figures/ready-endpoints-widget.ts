// The `ready-endpoints` widget (the networking chapter): the Service web in front of three pods. The
// reader makes one pod's readiness probe fail; the kubelet sets the pod's Ready condition to False, the
// EndpointSlice controller marks its endpoint not ready and not serving (still not terminating), and
// kube-proxy leaves it out of node-1's rules. Then the probe passes again and the pod comes back.
import { appHealth } from '../app-health.ts';
import type { Frame } from '../view/types.ts';
import { count } from '../view/words.ts';
import type { FigureAction } from './actions.ts';
import type { DemoDef, DemoMemo, DemoStart, FigureDef } from './demo.ts';
import {
  PORT,
  RULES_NODE,
  ruleTargetsOf,
  serviceSettled,
  serviceSetupDemo,
  serviceWebAddons,
  serviceWebDetailOf,
  serviceWebOf,
  type ServiceWebDetail,
} from './service-web.ts';
import { livePodsOf, readyPodsOf, webOf } from './widget-web.ts';
import { figureActions } from './figure-actions.ts';

/** web's replicas, as the chapter's example has them. */
const REPLICAS = 3;
/** The node whose pod the reader's probe failure hits (as the traffic figure's readiness demo). */
const TARGET_NODE = 'node-2';

/** The app's readiness answers, as `sim app <pod> unready|healthy` sets them. */
const probe = (pod: string, behaviour: 'unready' | 'healthy'): FigureAction => ({
  type: 'app',
  pod,
  behaviour,
  health: appHealth(behaviour),
});
const seconds = (f: Frame, m: DemoMemo): number => Math.round((f.t - Number(m.at)) / 1000);
const podOf = (f: Frame, m: DemoMemo) => livePodsOf(f).find((p) => p.name === String(m.pod));
const endpointOf = (d: ServiceWebDetail | null, m: DemoMemo) => d?.endpoints.find((e) => e.pod === String(m.pod));
const inRules = (d: ServiceWebDetail | null, m: DemoMemo): boolean => ruleTargetsOf(d).includes(String(m.ip));
/**
 * Keeps node-1's KUBE-SVC rules in words in the memo (a beat's text sees the frame and the memo only):
 * how many endpoint rules, and the probabilities they match with. Returns true, so a `when` can end with it.
 */
function holdPicks(m: DemoMemo, d: ServiceWebDetail | null): true {
  const p = d?.picks ?? [];
  m.picks = p.length
    ? `${count(p.length, 'endpoint rule')}, matching with probability ${p.map((x) => x.probability ?? 'the rest').join(', then ')}`
    : 'no endpoint rule: a connection is rejected';
  return true;
}

const failProbe: DemoDef<ServiceWebDetail> = {
  id: 'readiness',
  label: () => 'Fail a readiness probe',
  unavailable: (f) =>
    !webOf(f)
      ? 'Create web first.'
      : !f.controlPlane.apiserver
        ? 'The API server is stopped.'
        : readyPodsOf(f).length
          ? null
          : 'No pod of web is ready.',
  start: (f): DemoStart<ServiceWebDetail> => {
    const r = readyPodsOf(f);
    const p = r.find((x) => x.node === TARGET_NODE) ?? r[0];
    return {
      actions: [probe(p.name, 'unready')],
      memo: { at: f.t, pod: p.name, ip: p.ip ?? '' },
      intro: `sim app ${p.name} unready: its app keeps running, but from now on its readiness probe (GET / on port ${PORT}, every 10 s) gets an error.`,
      beats: [
        {
          // The kubelet's verdict has reached the slice (or the pod is gone: deleted, or its node failed).
          when: (g, m, detail) => {
            const p = podOf(g, m);
            const e = endpointOf(serviceWebOf(detail()), m);
            return !p || (!p.ready && !!e && !e.serving);
          },
          text: (g, m) =>
            podOf(g, m)
              ? `${seconds(g, m)} s later the probe had failed 3 times in a row (failureThreshold 3): the kubelet set ${m.pod}'s Ready condition to False, and the EndpointSlice controller copied it into the slice: ready false, serving false, terminating false.`
              : `${m.pod} is gone before its probe failed three times: there is no endpoint left to mark.`,
        },
        {
          when: (g, m, detail) => {
            const d = serviceWebOf(detail());
            return (!podOf(g, m) || !inRules(d, m)) && holdPicks(m, d);
          },
          text: (g, m) => {
            const p = podOf(g, m);
            if (!p)
              return `${m.pod} is gone; the ReplicaSet controller makes a new pod, which joins the rules once its own probe passes.`;
            return `kube-proxy saw the slice and rewrote its rules: ${m.pod}'s KUBE-SEP chain is gone, and ${RULES_NODE}'s KUBE-SVC chain for web has ${m.picks}. ${m.pod} still runs (${p.status}, ${p.readyText}, ${count(p.restarts, 'restart')}): readiness only takes it out of the Service. Now its app answers the probe again.`;
          },
          then: (g, m) => (podOf(g, m) ? [probe(String(m.pod), 'healthy')] : []),
        },
        {
          when: (g, m, detail) => {
            const d = serviceWebOf(detail());
            return !podOf(g, m) || (inRules(d, m) && serviceSettled(g, d, webOf(g)?.replicas ?? REPLICAS));
          },
          text: (g, m) =>
            podOf(g, m)
              ? `${seconds(g, m)} s after the probe began to fail, one probe that passed (successThreshold 1) made ${m.pod} Ready again: ready and serving in the slice, and back in the rules at the same address ${m.ip}.`
              : `${m.pod} is gone; its replacement joins the slice and the rules once its own probe passes.`,
        },
      ],
    };
  },
};

/** The `ready-endpoints` widget: a failing readiness probe, as the EndpointSlice and kube-proxy see it. */
export const readyEndpointsWidget: FigureDef<ServiceWebDetail> = {
  actions: figureActions,
  id: 'ready-endpoints',
  title: 'A pod stops being ready',
  options: { seed: 1, nodes: 3 },
  addons: serviceWebAddons,
  demos: [serviceSetupDemo(REPLICAS), failProbe],
  story: ['setup', 'readiness'],
  opening: 1,
  leavesOut: [
    "The widget opens with web and its Service running; the rules shown are node-1's, and every node writes the same ones.",
    'The probe is HTTP GET / with the defaults: every 10 s, 1 s timeout, 3 failures to mark the pod not ready, 1 success to mark it ready again.',
    'No client sends traffic here; the live figure further down the chapter sends one request a second through these rules.',
  ],
  detail: serviceWebDetailOf,
};
